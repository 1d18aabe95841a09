//! One test per rule of shogi: each fails if the rule is broken.

mod common;

use common::{legal_usi, play, pos};
use hayate::position::{EnteringKingRule, Repetition, Sennichite};
use hayate::Position;

fn is_legal(p: &Position, text: &str) -> bool {
    let listed = legal_usi(p).iter().any(|m| m == text);
    let checked = p.parse_usi_move(text).is_ok();
    assert_eq!(
        listed,
        checked,
        "generator and is_legal disagree on {text} in {}",
        p.to_sfen()
    );
    listed
}

// ---------------------------------------------------------------- promotion

#[test]
fn pawn_must_promote_on_the_last_rank() {
    let p = pos("4k4/1P7/9/9/9/9/9/9/4K4 b - 1");
    assert!(is_legal(&p, "8b8a+"));
    assert!(!is_legal(&p, "8b8a"));
    let w = pos("4k4/9/9/9/9/9/9/7p1/4K4 w - 1");
    assert!(is_legal(&w, "2h2i+"));
    assert!(!is_legal(&w, "2h2i"));
}

#[test]
fn pawn_may_choose_on_ranks_b_and_c() {
    let p = pos("4k4/9/9/1P7/9/9/9/9/4K4 b - 1");
    assert!(is_legal(&p, "8d8c+") && is_legal(&p, "8d8c"));
    // Outside the zone there is nothing to choose.
    let q = pos("4k4/9/9/9/1P7/9/9/9/4K4 b - 1");
    assert!(is_legal(&q, "8e8d") && !is_legal(&q, "8e8d+"));
}

#[test]
fn lance_must_promote_on_the_last_rank_only() {
    let p = pos("4k4/9/1L7/9/9/9/9/9/4K4 b - 1");
    assert!(is_legal(&p, "8c8a+"));
    assert!(!is_legal(&p, "8c8a"));
    assert!(is_legal(&p, "8c8b") && is_legal(&p, "8c8b+"));
}

#[test]
fn knight_must_promote_on_the_last_two_ranks() {
    let p = pos("4k4/9/9/2N6/9/9/9/9/4K4 b - 1");
    assert!(is_legal(&p, "7d8b+") && is_legal(&p, "7d6b+"));
    assert!(!is_legal(&p, "7d8b") && !is_legal(&p, "7d6b"));
    let q = pos("4k4/9/9/9/2N6/9/9/9/4K4 b - 1");
    assert!(is_legal(&q, "7e8c") && is_legal(&q, "7e8c+"));
    let w = pos("4k4/9/9/9/9/6n2/9/9/4K4 w - 1");
    assert!(is_legal(&w, "3f4h+") && !is_legal(&w, "3f4h"));
}

#[test]
fn promotion_also_when_leaving_the_zone() {
    let p = pos("4k4/9/2S6/9/9/9/9/9/4K4 b - 1");
    assert!(is_legal(&p, "7c6d+") && is_legal(&p, "7c6d"));
    let b = pos("4k4/9/9/9/9/9/9/1B7/4K4 b - 1");
    assert!(is_legal(&b, "8h2b+") && is_legal(&b, "8h2b") && !is_legal(&b, "8h5e+"));
}

#[test]
fn gold_king_and_promoted_pieces_never_promote() {
    let p = pos("4k4/9/2G1+P4/9/9/9/9/9/4K4 b - 1");
    assert!(is_legal(&p, "7c7b") && !is_legal(&p, "7c7b+"));
    assert!(is_legal(&p, "5c5b") && !is_legal(&p, "5c5b+"));
}

// ---------------------------------------------------------------- drops

#[test]
fn dead_drops_are_illegal() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    assert!(!is_legal(&p, "P*1a") && is_legal(&p, "P*1b"));
    assert!(!is_legal(&p, "L*1a") && is_legal(&p, "L*1b"));
    assert!(!is_legal(&p, "N*1a") && !is_legal(&p, "N*1b") && is_legal(&p, "N*1c"));
    let w = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    assert!(!is_legal(&w, "P*9i") && is_legal(&w, "P*9h"));
    assert!(!is_legal(&w, "L*9i") && is_legal(&w, "L*9h"));
    assert!(!is_legal(&w, "N*9i") && !is_legal(&w, "N*9h") && is_legal(&w, "N*9g"));
}

#[test]
fn drop_onto_an_occupied_square_or_without_the_piece_is_illegal() {
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b G 1");
    assert!(!is_legal(&p, "G*5g") && !is_legal(&p, "S*1e") && is_legal(&p, "G*1e"));
}

#[test]
fn dropped_pieces_are_never_promoted() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b S 1");
    assert!(hayate::position::parse_move_syntax("S*5c+").is_none());
    assert!(legal_usi(&p).iter().all(|m| !m.ends_with('+')));
}

#[test]
fn nifu_counts_unpromoted_pawns_only() {
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert!(!is_legal(&p, "P*5e"));
    assert!(is_legal(&p, "P*4e"));
    let tokin = pos("4k4/9/4+P4/9/9/9/9/9/4K4 b P 1");
    assert!(is_legal(&tokin, "P*5e"));
    let enemy = pos("4k4/9/4p4/9/9/9/9/9/4K4 b P 1");
    assert!(is_legal(&enemy, "P*5e"));
}

#[test]
fn uchifuzume_pawn_drop_mate_is_illegal() {
    // The pawn on 1b would be defended by the silver, and 2b is covered by the lance.
    let p = pos("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
    assert!(!is_legal(&p, "P*1b"));
}

#[test]
fn uchifuzume_pawn_drop_check_that_is_not_mate_is_legal() {
    // Without the silver the king takes the pawn.
    let p = pos("7lk/9/9/9/9/9/9/7L1/8K b P 1");
    assert!(is_legal(&p, "P*1b"));
}

#[test]
fn uchifuzume_pinned_defender_cannot_save_the_king() {
    // The gold on 2b could take the pawn but is pinned by the bishop on 5e: the drop mates.
    let pinned = pos("8k/6Sg1/9/7N1/4B4/9/9/9/K8 b P 1");
    assert!(!is_legal(&pinned, "P*1b"));
    // Without the bishop the gold takes it: the drop is legal.
    let free = pos("8k/6Sg1/9/7N1/9/9/9/9/K8 b P 1");
    assert!(is_legal(&free, "P*1b"));
}

#[test]
fn a_pawn_move_that_mates_is_legal() {
    let mut p = pos("7lk/9/7SP/9/9/9/9/7L1/8K b - 1");
    assert!(is_legal(&p, "1c1b"));
    play(&mut p, "1c1b");
    assert!(p.in_check());
    assert!(legal_usi(&p).is_empty(), "mated");
}

// ---------------------------------------------------------------- check and pins

#[test]
fn pinned_piece_stays_on_its_line() {
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert!(is_legal(&p, "5h5g"));
    for m in ["5h4h", "5h6h", "5h4g", "5h6g"] {
        assert!(!is_legal(&p, m), "{m}");
    }
}

#[test]
fn pinned_slider_may_take_its_pinner() {
    let p = pos("4r3k/9/9/9/9/9/9/4R4/4K4 b - 1");
    assert!(is_legal(&p, "5h5a") && is_legal(&p, "5h5a+"));
    assert!(!is_legal(&p, "5h4h"));
}

#[test]
fn double_check_allows_only_king_moves() {
    let p = pos("4k4/9/3s5/9/B3R4/9/9/9/8K w G 1");
    assert!(p.checkers().count() == 2);
    let moves = legal_usi(&p);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m.starts_with("5a")), "{moves:?}");
    assert!(!is_legal(&p, "6c5d") && !is_legal(&p, "G*5c"));
    assert!(!is_legal(&p, "5a6b") && !is_legal(&p, "5a5b"));
}

#[test]
fn drops_may_block_a_check_and_nothing_else_may_be_dropped() {
    let p = pos("4r3k/9/9/9/9/9/9/9/4K4 b G 1");
    let moves = legal_usi(&p);
    let drops: Vec<&String> = moves.iter().filter(|m| m.starts_with("G*")).collect();
    assert_eq!(
        drops,
        ["G*5b", "G*5c", "G*5d", "G*5e", "G*5f", "G*5g", "G*5h"]
    );
    assert_eq!(moves.len(), 7 + 4, "{moves:?}");
    assert!(
        !is_legal(&p, "5i5h"),
        "the king may not stay on the rook's file"
    );
}

#[test]
fn in_check_one_must_answer_it() {
    // The rook checks along rank a... of the king on 5i via the file: only answers are legal.
    let p = pos("4r3k/9/9/9/9/9/9/P8/4K4 b - 1");
    assert!(!is_legal(&p, "9h9g"));
}

#[test]
fn king_may_not_step_into_check() {
    let p = pos("4k4/9/9/9/9/9/3r5/9/4K4 b - 1");
    assert!(!is_legal(&p, "5i6i") && !is_legal(&p, "5i6h"));
    assert!(is_legal(&p, "5i4i") && is_legal(&p, "5i5h"));
}

#[test]
fn checkmate_leaves_no_legal_move() {
    // Head mate with a gold supported by a pawn.
    let mut p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    play(&mut p, "G*5b");
    assert!(p.in_check() && legal_usi(&p).is_empty());
}

#[test]
fn positions_without_a_king_work() {
    // A tsume problem: only the defender's king is on the board.
    let p = pos("7nk/9/7P1/9/9/9/9/9/9 b GS 1");
    assert!(!legal_usi(&p).is_empty());
    assert!(is_legal(&p, "G*1b"));
    let mut q = p.clone();
    play(&mut q, "G*1b");
    assert!(q.in_check());
    assert_eq!(legal_usi(&q), ["1a1b"]);
}

// ---------------------------------------------------------------- captures and hands

#[test]
fn captured_pieces_go_to_hand_unpromoted() {
    let mut p = pos("4k4/9/9/9/4+r4/4G4/9/9/4K4 b - 1");
    play(&mut p, "5f5e");
    assert_eq!(
        p.hand(hayate::Color::Black).count(hayate::PieceType::Rook),
        1
    );
    play(&mut p, "5a4a");
    assert!(is_legal(&p, "R*1e"));
}

// ---------------------------------------------------------------- repetition

#[test]
fn fourfold_repetition_is_a_draw() {
    let mut p = Position::startpos();
    for i in 0..3 {
        play(&mut p, "5i5h 5a5b 5h5i 5b5a");
        assert_eq!(p.repetition(16), Repetition::Draw);
        if i < 2 {
            assert_eq!(p.sennichite(), None, "only {} occurrences", i + 2);
        }
    }
    assert_eq!(p.occurrences(), 4);
    assert_eq!(p.sennichite(), Some(Sennichite::Draw));
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let mut p = pos("8k/R8/9/9/9/9/9/9/4K4 b - 1");
    for _ in 0..3 {
        play(&mut p, "9b9a 1a1b 9a9b 1b1a");
        // Black, to move, gave check with every move of the cycle.
        assert_eq!(p.repetition(16), Repetition::Loss);
    }
    assert_eq!(p.sennichite(), Some(Sennichite::LossForSideToMove));
    // One ply on, White to move sees Black's perpetual check as its win.
    play(&mut p, "9b9a");
    assert_eq!(p.repetition(16), Repetition::Win);
}

#[test]
fn superior_and_inferior_repetitions() {
    let mut p = pos("8k/9/9/9/4p4/9/9/4R4/K8 b p 1");
    play(&mut p, "5h5e 1a1b 5e5h P*5e 9i9h 1b2a 9h9i 2a1a");
    // Same board; Black now holds the pawn that White held.
    assert_eq!(p.repetition(16), Repetition::Superior);
    play(&mut p, "5h5e");
    // Same board as after the first capture, but White's hand pawn is gone.
    assert_eq!(p.repetition(16), Repetition::Inferior);
    assert_eq!(p.sennichite(), None);
}

// ---------------------------------------------------------------- entering king

const ENTERED: &str = "9/B3K3R/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/4k4 b 9P 1";

#[test]
fn declaration_needs_28_points_for_black_under_the_27_point_rule() {
    let p = pos(ENTERED);
    assert!(p.can_declare_win(EnteringKingRule::Csa27));
    assert!(
        !p.can_declare_win(EnteringKingRule::Csa24),
        "24-point rule wants 31"
    );
    assert!(!p.can_declare_win(EnteringKingRule::None));
    let short = pos("9/B3K3R/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/4k4 b 8P 1");
    assert!(!short.can_declare_win(EnteringKingRule::Csa27));
}

#[test]
fn white_needs_27_points() {
    let w = pos("4K4/9/9/9/9/9/+p+p+p+p+p+p+p+p+p/r3k3b/9 w 8p 1");
    assert!(w.can_declare_win(EnteringKingRule::Csa27));
    let black_same = pos("9/B3K3R/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/4k4 b 8P 1");
    assert!(!black_same.can_declare_win(EnteringKingRule::Csa27));
}

#[test]
fn declaration_needs_ten_pieces_in_camp_and_no_check() {
    let few = pos("9/B3K3R/+P+P+P+P+P+P+P2/9/9/9/9/9/4k4 b R4G4S4N4L 1");
    assert!(
        !few.can_declare_win(EnteringKingRule::Csa27),
        "only 9 pieces in camp"
    );
    let checked = pos("5b3/B3K3R/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/4k4 b 9P 1");
    assert!(checked.in_check());
    assert!(!checked.can_declare_win(EnteringKingRule::Csa27));
}

#[test]
fn impasse_points_count_board_and_hand() {
    let p = Position::startpos();
    assert_eq!(p.impasse_points(hayate::Color::Black), 27);
    assert_eq!(p.impasse_points(hayate::Color::White), 27);
}

#[test]
fn try_rule_needs_a_safe_step_onto_the_enemy_king_square() {
    let p = pos("9/4K4/9/9/9/9/9/9/4k4 b - 1");
    assert!(p.can_declare_win(EnteringKingRule::Try));
    let guarded = pos("r8/4K4/9/9/9/9/9/9/4k4 b - 1");
    assert!(!guarded.can_declare_win(EnteringKingRule::Try));
}

// ---------------------------------------------------------------- handicaps

#[test]
fn handicap_starts_have_white_to_move_and_the_right_pieces() {
    for (name, sfen) in hayate::position::HANDICAPS {
        let p = Position::from_name(name).unwrap();
        assert_eq!(p.to_sfen(), sfen);
        assert_eq!(p.side_to_move(), hayate::Color::White, "{name}");
    }
    let lance = Position::from_name("lance").unwrap();
    assert!(lance
        .piece_on(hayate::Square::from_usi("1a").unwrap())
        .is_none());
    assert!(lance
        .piece_on(hayate::Square::from_usi("9a").unwrap())
        .is_some());
    let pawns = Position::from_name("3pawns").unwrap();
    assert_eq!(
        pawns
            .hand(hayate::Color::White)
            .count(hayate::PieceType::Pawn),
        3
    );
    assert!(Position::from_name("nonsense").is_err());
}
