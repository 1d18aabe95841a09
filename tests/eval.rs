//! The evaluation against positions it was never fitted to: 2000 quiet positions from
//! Fairy-Stockfish self-play games (`sfen<TAB>score<TAB>result`, its score at 3000 nodes), kept
//! out of all training data.

mod common;

use std::process::Command;

use hayate::eval::{kp, learn, tune, DEFAULT};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/labelled_positions.tsv"
);

#[test]
fn the_king_piece_table_predicts_unseen_positions_better_than_the_hand_written_terms_alone() {
    let (data, bad) = learn::Data::load(DATA, &DEFAULT, tune::SCORE_SHARE).unwrap();
    assert_eq!((data.len(), bad), (2000, 0));
    let shipped: Vec<f32> = kp::TABLE.iter().map(|&x| x as f32).collect();
    let without = data.error(&vec![0.0; kp::LEN]);
    let with = data.error(&shipped);
    // The shipped table lowers the error by about 4%; a table read with the wrong squares or
    // signs would raise it.
    assert!(
        with < without * 0.985,
        "with the table {with:.6}, without {without:.6}"
    );
}

#[test]
fn hayate_learn_writes_a_table_of_the_shipped_size_and_reports_bad_input() {
    let dir = common::TempDir::new("learn");
    let out = dir.join("kp.bin");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hayate"))
            .arg("learn")
            .args(args)
            .output()
            .expect("run hayate learn")
    };
    let ok = run(&[
        DATA,
        out.to_str().unwrap(),
        "--epochs",
        "1",
        "--valid",
        DATA,
    ]);
    assert!(ok.status.success(), "{ok:?}");
    let log = String::from_utf8_lossy(&ok.stderr);
    assert!(
        log.contains("epoch 1: train") && log.contains("valid"),
        "{log}"
    );
    assert_eq!(std::fs::read(&out).unwrap().len(), 2 * kp::LEN);

    let missing = run(&["no-such-file.tsv", out.to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such-file.tsv"));
    let bad = run(&[DATA, out.to_str().unwrap(), "--epochs", "many"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("many") && err.contains("--epochs"), "{err}");
}
