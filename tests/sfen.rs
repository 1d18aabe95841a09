//! SFEN in and out: round trips, what real GUIs send, and every malformed case with its message.

mod common;

use common::random_positions;
use hayate::position::SfenError;
use hayate::{Color, PieceType, Position};

fn error(sfen: &str) -> SfenError {
    match Position::from_sfen(sfen) {
        Ok(_) => panic!("accepted malformed SFEN {sfen}"),
        Err(e) => e,
    }
}

#[test]
fn round_trip_on_random_positions() {
    for p in random_positions(400, 11) {
        let sfen = p.to_sfen();
        let q = Position::from_sfen(&sfen).unwrap();
        assert_eq!(q.to_sfen(), sfen);
        assert_eq!(q.key(), p.key(), "{sfen}");
        assert_eq!(q.checkers(), p.checkers());
    }
}

#[test]
fn start_position_text() {
    let p = Position::startpos();
    assert_eq!(
        p.to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
}

#[test]
fn zobrist_keys_are_fixed_across_builds() {
    // The keys come from a fixed seed; if this changes, so does every bench signature.
    assert_eq!(format!("{:016x}", Position::startpos().key()), STARTPOS_KEY);
}

const STARTPOS_KEY: &str = include_str!("data/startpos_key.txt").trim_ascii();

#[test]
fn accepts_what_guis_send() {
    // Missing move number.
    let p = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -")
        .unwrap();
    assert_eq!(p.game_ply(), 1);
    // Hands in any order and with repeated letters, written the conventional way on output.
    let a = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b ppPpRg 1").unwrap();
    let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b RPg3p 1").unwrap();
    assert_eq!(a.key(), b.key());
    assert_eq!(a.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b RPg3p 1");
    assert_eq!(a.hand(Color::White).count(PieceType::Pawn), 3);
    // Two-digit counts.
    let c = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 18p 1").unwrap();
    assert_eq!(c.hand(Color::White).count(PieceType::Pawn), 18);
    // One king or none (tsume problems).
    assert!(Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b 2R 1").is_ok());
    assert!(Position::from_sfen("9/9/9/9/9/9/9/9/9 b - 1").is_ok());
}

#[test]
fn wrong_rank_count() {
    assert_eq!(
        error("4k4/9/9/9/9/9/9/4K4 b - 1"),
        SfenError::WrongRankCount(8)
    );
    assert!(error("4k4/9/9/9/9/9/9/4K4 b - 1")
        .to_string()
        .contains("8 ranks"));
}

#[test]
fn wrong_rank_length() {
    assert!(matches!(
        error("4k5/9/9/9/9/9/9/9/4K4 b - 1"),
        SfenError::WrongRankLength { rank: 'a', .. }
    ));
    assert!(matches!(
        error("4k4/9/9/9/8/9/9/9/4K4 b - 1"),
        SfenError::WrongRankLength {
            rank: 'e',
            squares: 8
        }
    ));
    assert!(error("4k4/9/9/9/9/PPPPPPPPPP/9/9/4K4 b - 1")
        .to_string()
        .contains("rank f"));
}

#[test]
fn unknown_letter() {
    assert_eq!(
        error("4k4/9/9/9/4X4/9/9/9/4K4 b - 1"),
        SfenError::UnknownPiece('X')
    );
    assert!(error("4k4/9/9/9/4X4/9/9/9/4K4 b - 1")
        .to_string()
        .contains("'X'"));
    assert!(matches!(
        error("4k4/9/9/9/3+G4/9/9/9/4K4 b - 1"),
        SfenError::BadPromotion(_)
    ));
    assert!(matches!(
        error("4k4/9/9/9/4+4/9/9/9/4K4 b - 1"),
        SfenError::BadPromotion(_)
    ));
}

#[test]
fn bad_hand() {
    assert!(matches!(
        error("4k4/9/9/9/9/9/9/9/4K4 b 19p 1"),
        SfenError::BadHand(_)
    ));
    assert!(matches!(
        error("4k4/9/9/9/9/9/9/9/4K4 b 0p 1"),
        SfenError::BadHand(_)
    ));
    assert!(matches!(
        error("4k4/9/9/9/9/9/9/9/4K4 b 2 1"),
        SfenError::BadHand(_)
    ));
    assert!(matches!(
        error("4k4/9/9/9/9/9/9/9/4K4 b K 1"),
        SfenError::BadHand(_)
    ));
    assert!(matches!(
        error("4k4/9/9/9/9/9/9/9/4K4 b 3R 1"),
        SfenError::TooManyPieces {
            kind: PieceType::Rook,
            ..
        }
    ));
    let msg = error("4k4/9/9/9/9/9/9/9/4K4 b 3R 1").to_string();
    assert!(msg.contains("at most 2"), "{msg}");
}

#[test]
fn more_pieces_of_a_kind_than_exist() {
    // Two rooks on the board and one in hand.
    let e = error("4k4/9/9/9/R3r4/9/9/9/4K4 b R 1");
    assert_eq!(
        e,
        SfenError::TooManyPieces {
            kind: PieceType::Rook,
            count: 3,
            max: 2
        }
    );
    // A promoted rook counts as a rook.
    assert!(matches!(
        error("4k4/9/9/9/+R3r4/9/9/9/4K4 b R 1"),
        SfenError::TooManyPieces { .. }
    ));
    // 19 pawns.
    assert!(matches!(
        error("4k4/9/9/9/9/9/PPPPPPPPP/9/4K4 b 10p 1"),
        SfenError::TooManyPieces { .. }
    ));
}

#[test]
fn two_kings_of_one_colour() {
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
        SfenError::TwoKings(Color::Black)
    );
    assert!(error("3kk4/9/9/9/9/9/9/9/4K4 b - 1")
        .to_string()
        .contains("two White kings"));
}

#[test]
fn dead_pieces() {
    for sfen in [
        "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "L3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "N3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "4k4/N8/9/9/9/9/9/9/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/p3K4 b - 1",
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
    ] {
        let e = error(sfen);
        assert!(matches!(e, SfenError::DeadPiece { .. }), "{sfen}: {e}");
        assert!(e.to_string().contains("never move"));
    }
    // Promoted pieces may stand anywhere.
    assert!(Position::from_sfen("+P3k4/+N8/9/9/9/9/9/9/4K4 b - 1").is_ok());
}

#[test]
fn two_unpromoted_pawns_on_a_file() {
    assert_eq!(
        error("4k4/9/9/4P4/9/4P4/9/9/4K4 b - 1"),
        SfenError::Nifu {
            color: Color::Black,
            file: 4
        }
    );
    assert!(error("4k4/9/9/4P4/9/4P4/9/9/4K4 b - 1")
        .to_string()
        .contains("file 5"));
    // A tokin and a pawn, or pawns of both colours, are fine.
    assert!(Position::from_sfen("4k4/9/9/4+P4/9/4P4/9/9/4K4 b - 1").is_ok());
    assert!(Position::from_sfen("4k4/9/9/4p4/9/4P4/9/9/4K4 b - 1").is_ok());
}

#[test]
fn side_must_be_b_or_w() {
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/4K4 x - 1"),
        SfenError::BadSide("x".into())
    );
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/4K4"),
        SfenError::MissingField("side to move")
    );
    assert!(matches!(
        error("4k4/9/9/9/9/9/9/9/4K4 b - one"),
        SfenError::BadMoveNumber(_)
    ));
    assert!(matches!(
        error("4k4/9/9/9/9/9/9/9/4K4 b - 1 extra"),
        SfenError::TrailingText(_)
    ));
}

#[test]
fn side_not_to_move_in_check_is_rejected() {
    assert_eq!(
        error("4k4/9/9/9/4R4/9/9/9/4K4 b - 1"),
        SfenError::OpponentInCheck
    );
}
