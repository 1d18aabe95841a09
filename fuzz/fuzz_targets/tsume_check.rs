#![no_main]
// The body is `hayate::fuzzing::tsume_check`, which `tests/fuzz_corpus.rs` replays on stable Rust.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hayate::fuzzing::tsume_check(data));
