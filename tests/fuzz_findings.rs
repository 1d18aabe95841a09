//! Inputs the fuzz targets (`fuzz/`, bodies in `hayate::fuzzing`) found to break a reader, each
//! refused or read correctly now. The corpus replay (`tests/fuzz_corpus.rs`) runs them too; these
//! tests say what each one was.

use hayate::kifu::csa;

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
