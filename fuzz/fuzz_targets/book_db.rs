#![no_main]
// The body is `hayate::fuzzing::book_db`, which `tests/fuzz_corpus.rs` replays on stable Rust.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hayate::fuzzing::book_db(data));
