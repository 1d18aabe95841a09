//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/`) through the fuzz targets' own
//! bodies (`hayate::fuzzing`), so a stable `cargo test` catches a reader that panics again on an
//! input the fuzzer once found, without nightly or libFuzzer.

use std::path::Path;

use hayate::fuzzing::TARGETS;

#[test]
fn every_target_has_a_fuzz_target_and_a_corpus() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (name, _) in TARGETS {
        let source = fuzz.join("fuzz_targets").join(format!("{name}.rs"));
        let text = std::fs::read_to_string(&source)
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        assert!(
            text.contains(&format!("hayate::fuzzing::{name}(")),
            "{} does not call hayate::fuzzing::{name}",
            source.display()
        );
        let corpus = fuzz.join("corpus").join(name);
        let files = std::fs::read_dir(&corpus)
            .unwrap_or_else(|e| panic!("{}: {e}", corpus.display()))
            .count();
        assert!(files > 0, "{} is empty", corpus.display());
    }
}

/// Runs one target over its corpus; a panic names the file.
fn replay(name: &str, run: fn(&[u8])) {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(name);
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap_or_else(|e| panic!("{}: {e}", corpus.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in files {
        let data = std::fs::read(&file).unwrap();
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            panic!("fuzz target {name} panics on {}", file.display());
        }
    }
}

macro_rules! replay_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                replay(stringify!($name), hayate::fuzzing::$name);
            }
        )*
        /// The tests above cover every target.
        #[test]
        fn every_target_is_replayed() {
            let replayed = [$(stringify!($name)),*];
            let targets: Vec<&str> = TARGETS.iter().map(|&(n, _)| n).collect();
            assert_eq!(replayed.to_vec(), targets);
        }
    };
}

replay_tests!(
    sfen,
    usi_move,
    usi_command,
    csa,
    kif,
    ki2,
    book_db,
    book_apery,
    match_config,
    openings,
    mate_batch,
    tsume_check,
    legal_moves,
);
