//! Inputs the fuzz targets (`fuzz/`, bodies in `hayate::fuzzing`) found to break a reader, each
//! refused or read correctly now. The corpus replay (`tests/fuzz_corpus.rs`) runs them too; these
//! tests say what each one was.

use hayate::kifu::{csa, ki2, GameRecord};
use hayate::position::Position;

#[test]
fn a_csa_text_of_two_games_is_refused_not_read_as_one() {
    // The second game's start used to reset the position under the first game's moves, so the
    // record's moves no longer followed from its start.
    let text = "V2.2\nPI\n+\n+7776FU\n-3334FU\n/\nV2.2\nPI\n+\n+7776FU\n";
    let e = csa::read(text).unwrap_err();
    assert!(e.contains("line 9") && e.contains("second start"), "{e}");
    // One game alone reads, and a file of games is split at its '/' lines by book making.
    assert_eq!(csa::read("PI\n+\n+7776FU\n").unwrap().moves.len(), 1);
    let games = hayate::book::make::parse_games(text, "csa").unwrap();
    assert_eq!(
        games.iter().map(|g| g.moves.len()).collect::<Vec<_>>(),
        [2, 1]
    );
}

#[test]
fn a_ki2_record_of_no_moves_and_no_ending_is_written_so_that_it_reads_back() {
    // Found by the ki2 target: a `まで` line with no ending word reads as a game of no moves,
    // whose KI2 text used to be the header alone, which the reader refuses as no record.
    let rec = ki2::read("まで6手で千,日手\n").unwrap();
    assert!(rec.moves.is_empty() && rec.ending.is_none());
    let text = ki2::write(&rec).unwrap();
    let back = ki2::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.start_sfen, rec.start_sfen);
    assert!(back.moves.is_empty());
    // From a handicap start too.
    let mut rec = GameRecord::empty();
    rec.start_sfen = hayate::position::HANDICAPS[5].1.to_string();
    let back = ki2::read(&ki2::write(&rec).unwrap()).unwrap();
    assert_eq!(back.start_sfen, rec.start_sfen);
}

#[test]
fn a_position_played_on_from_the_largest_move_number_writes_an_sfen_that_reads_back() {
    // Found by the usi_move target: a move from an SFEN at move 1000000000 (the largest the
    // reader accepts) gave an SFEN at 1000000001, which the reader refused.
    let sfen = "ln6g/1b2S1k2/p2pppn2/2ps2p2/1l7/2P6/PPSPPPPLP/2G2K1Pr/LN4G1b w np 1000000000";
    let mut pos = Position::from_sfen(sfen).unwrap();
    let m = pos.parse_usi_move("N*2a").unwrap();
    pos.do_move(m);
    let written = pos.to_sfen();
    assert!(written.ends_with(" 1000000000"), "{written}");
    let back = Position::from_sfen(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
    assert_eq!(back.to_sfen(), written);
    assert_eq!(back.key(), pos.key());
}
