//! The evaluation against positions it was never fitted to: 2000 quiet positions from
//! Fairy-Stockfish self-play games (`sfen<TAB>score<TAB>result`, its score at 3000 nodes), kept
//! out of all training data.

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
