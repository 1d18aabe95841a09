//! Bad input refused with a reason, never a panic: records, SFEN and moves that once crashed a
//! reader, the rules core guarding against any move a reader can build, and a search that
//! answers even when one of its threads panics.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use hayate::kifu::{csa, kif};
use hayate::search::{self, BestMove, Histories, Info, Limits, SearchOptions, Shared};
use hayate::tt::TranspositionTable;
use hayate::{Color, Hand, Move, PieceType, Position, Square};

mod common;
use common::TempDir;

const NOT_HELD: [PieceType; 7] = [
    PieceType::King,
    PieceType::ProPawn,
    PieceType::ProLance,
    PieceType::ProKnight,
    PieceType::ProSilver,
    PieceType::Horse,
    PieceType::Dragon,
];

#[test]
fn a_drop_of_a_kind_no_hand_holds_is_illegal() {
    // Both sides hold one of everything that can be held.
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1").unwrap();
    let white = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w RBGSNLPrbgsnlp 1").unwrap();
    let sq = Square::from_usi("5e").unwrap();
    for pt in NOT_HELD {
        let m = Move::drop(pt, sq);
        assert!(m.is_drop());
        assert!(!pos.is_legal(m), "{pt:?}");
        assert!(!white.is_legal(m), "{pt:?}");
    }
    for pt in PieceType::HAND {
        assert!(pos.is_legal(Move::drop(pt, sq)), "{pt:?}");
    }
}

#[test]
fn is_legal_agrees_with_the_generator_on_every_move_a_reader_can_build() {
    // Every board move (promoting or not) and every drop of every kind, on positions with
    // hands, checks and promoted pieces: `is_legal` holds exactly for the generated moves.
    let kinds: Vec<PieceType> = PieceType::ALL.to_vec();
    for sfen in common::STARTS {
        let pos = common::pos(sfen);
        let legal = common::legal_moves(&pos);
        let mut count = 0;
        for to in Square::all() {
            for from in Square::all() {
                for promote in [false, true] {
                    let m = Move::normal(from, to, promote);
                    assert_eq!(pos.is_legal(m), legal.contains(&m), "{sfen}: {m}");
                    count += pos.is_legal(m) as usize;
                }
            }
            for &pt in &kinds {
                let m = Move::drop(pt, to);
                assert_eq!(pos.is_legal(m), legal.contains(&m), "{sfen}: {m}");
                count += pos.is_legal(m) as usize;
            }
        }
        assert_eq!(count, legal.len(), "{sfen}");
    }
}

#[test]
fn a_hand_never_holds_a_kind_that_cannot_be_held() {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        h.set(pt, 1);
    }
    let before = h;
    for pt in NOT_HELD {
        assert_eq!(h.count(pt), 0, "{pt:?}");
        assert!(!h.has(pt));
        assert_eq!(h.plus_one(pt), before, "{pt:?}");
        assert_eq!(h.minus_one(pt), before, "{pt:?}");
        let mut g = h;
        g.set(pt, 0);
        assert_eq!(g, before, "{pt:?}");
        assert_eq!(Hand::MAX[pt.index()], 0);
    }
}

fn csa_text(moves: &str) -> String {
    format!("V2.2\nN+a\nN-b\nPI\n+\n{moves}")
}

#[test]
fn csa_records_that_once_panicked_are_refused() {
    for (moves, why) in [
        ("+0055TO\n", "a promoted pawn dropped"),
        ("+0055UM\n", "a horse dropped"),
        ("+0055OU\n", "a king dropped"),
        (
            "+7776FU\n-3334FU\n+8822RY\n",
            "a bishop turned into a dragon",
        ),
        ("+7776FU\n-0055KA\n", "a drop of a piece not in hand"),
    ] {
        let e = csa::read(&csa_text(moves)).expect_err(why);
        assert!(e.contains("illegal or malformed move"), "{why}: {e}");
    }
    // The bishop's real promotion is read.
    assert!(csa::read(&csa_text("+7776FU\n-3334FU\n+8822UM\n")).is_ok());
    // `P0` names no rank (it underflowed).
    let e = csa::read("V2.2\nP0 * \n+\n").unwrap_err();
    assert!(e.contains("bad rank"), "{e}");
    // Pieces in hand are unpromoted, never a king.
    for hand in ["P+00TO", "P-00OU", "P+00RY"] {
        let text = format!(
            "V2.2\nP1 *  *  *  *  *  *  *  * -OU\n{hand}\nP9 *  *  *  *  *  *  *  * +OU\n+\n"
        );
        let e = csa::read(&text).unwrap_err();
        assert!(e.contains("bad hand piece"), "{hand}: {e}");
    }
}

fn kif_text(moves: &str) -> String {
    format!("手合割：平手\n先手：a\n後手：b\n手数----指手---------消費時間--\n{moves}")
}

#[test]
fn kif_records_that_once_panicked_are_refused() {
    for (moves, why) in [
        ("   1 ５五馬打\n", "a horse dropped"),
        ("   1 ５五と打\n", "a promoted pawn dropped"),
        ("   1 ５五玉打\n", "a king dropped"),
        ("   1 0六歩(77)\n", "the ASCII digit 0 as a file"),
        ("   1 ７六歩(07)\n", "the digit 0 in the origin"),
    ] {
        let e = kif::read(&kif_text(moves)).expect_err(why);
        assert!(e.contains("illegal or malformed move"), "{why}: {e}");
    }
    // ASCII digits 1..=9 still name files.
    assert_eq!(
        kif::read(&kif_text("   1 7六歩(77)\n"))
            .unwrap()
            .moves
            .len(),
        1
    );
    // A promoted piece in hand is refused, not read as its base kind.
    let mut board = String::from(
        "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n",
    );
    for r in 0..9 {
        let row = match r {
            0 => "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一",
            8 => "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九",
            _ => "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二",
        };
        board.push_str(row);
        board.push('\n');
    }
    board.push_str(
        "+---------------------------+\n先手の持駒：と\n手数----指手---------消費時間--\n",
    );
    let e = kif::read(&board).unwrap_err();
    assert!(e.contains("bad KIF hand"), "{e}");
}

#[test]
fn a_move_number_with_no_room_to_count_on_is_refused() {
    let board = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    // `do_move` counts on from the move number: u32::MAX once overflowed on the first move.
    let words = ["sfen", board, "b", "-", "4294967295", "moves", "7g7f"];
    let e = Position::from_usi_words(&words).unwrap_err();
    assert!(e.contains("move number"), "{e}");
    let words = ["sfen", board, "b", "-", "99999999999999999999"];
    assert!(Position::from_usi_words(&words).is_err());
    let words = ["sfen", board, "b", "-", "1000000000", "moves", "7g7f"];
    let pos = Position::from_usi_words(&words).unwrap();
    assert_eq!(pos.game_ply(), 1_000_000_001);
    assert_eq!(pos.side_to_move(), Color::White);
}

#[test]
fn book_from_records_refuses_a_bad_record_with_exit_code_2() {
    let dir = TempDir::new("robust-records");
    for (name, text) in [
        ("drop.csa", csa_text("+0055TO\n")),
        ("horse.kifu", kif_text("   1 ５五馬打\n")),
        ("rank.csa", "V2.2\nP0 * \n+\n".to_string()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .args(["book", "from-records"])
            .arg(dir.join("out.db"))
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name) && err.contains("line"), "{name}: {err}");
    }
}

/// A search whose main thread panics at its `n`th report, with `threads` threads.
fn search_that_panics(n: usize, threads: usize) -> (Position, BestMove) {
    let pos = Position::startpos();
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let tt = TranspositionTable::new(1);
    let histories = Histories::default();
    let shared = Shared::default();
    let calls = AtomicUsize::new(0);
    let report = |_: &Info| {
        if calls.fetch_add(1, Ordering::Relaxed) + 1 == n {
            panic!("a bug injected by the test");
        }
    };
    let best = search::search(&pos, &limits, &options, &tt, &histories, &shared, &report);
    (pos, best)
}

#[test]
fn a_panic_in_a_search_thread_still_gives_a_move() {
    for (n, threads) in [(1, 1), (3, 1), (2, 2)] {
        let (pos, best) = search_that_panics(n, threads);
        match best {
            BestMove::Move { best, ponder } => {
                assert!(pos.is_legal(best), "{n} {threads}: {best}");
                if let Some(p) = ponder {
                    let mut after = pos.clone();
                    after.do_move(best);
                    assert!(after.is_legal(p), "{n} {threads}: {best} {p}");
                }
            }
            other => panic!("{n} {threads}: {other:?}"),
        }
    }
    // The histories lock is not poisoned: the next search runs normally.
    let (_, best) = search_that_panics(usize::MAX, 1);
    assert!(matches!(best, BestMove::Move { .. }));
}
