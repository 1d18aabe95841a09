//! Internal agreement: incremental state against fresh computation, undo against the original,
//! the staged generators against the full one, `is_legal` and `gives_check` against playing the
//! moves.

mod common;

use std::collections::HashSet;

use common::{legal_moves, pos, random_positions, STARTS};
use hayate::movegen::{
    generate_captures_promotions, generate_checks, generate_evasions, generate_quiets, MoveList,
};
use hayate::{Move, PieceType, Position, Square};

/// Walks the whole tree to `depth`, checking every node.
fn walk(p: &mut Position, depth: u32, nodes: &mut u64) {
    p.is_consistent()
        .unwrap_or_else(|e| panic!("{e} at {}", p.to_sfen()));
    *nodes += 1;
    if depth == 0 {
        return;
    }
    for m in legal_moves(p) {
        let before = p.clone();
        p.do_move(m);
        walk(p, depth - 1, nodes);
        p.undo_move(m);
        assert!(
            *p == before,
            "undo of {m} did not restore {}",
            before.to_sfen()
        );
    }
}

#[test]
fn incremental_key_equals_fresh_key_on_every_node() {
    let mut total = 0;
    for (sfen, depth) in [
        (STARTS[0], 3),
        (STARTS[1], 2),
        (STARTS[2], 2),
        (STARTS[3], 2),
        (STARTS[4], 3),
        (
            "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
            2,
        ),
    ] {
        let mut p = pos(sfen);
        walk(&mut p, depth, &mut total);
    }
    assert!(total > 100_000, "walked {total} nodes");
}

#[test]
fn the_keys_after_a_move_are_the_keys_once_it_is_played() {
    let mut moves = 0;
    for mut p in random_positions(300, 10) {
        for m in legal_moves(&p) {
            let predicted = p.board_key_after(m);
            let full = p.key_after(m);
            p.do_move(m);
            assert_eq!(predicted, p.board_key(), "{m}");
            assert_eq!(full, p.key(), "{m}");
            p.undo_move(m);
            moves += 1;
        }
    }
    assert!(moves > 10_000, "{moves} moves");
}

#[test]
fn null_move_round_trip() {
    for mut p in random_positions(200, 3) {
        if p.in_check() {
            continue;
        }
        let before = p.clone();
        p.do_null_move();
        assert_ne!(p.key(), before.key());
        assert_ne!(p.side_to_move(), before.side_to_move());
        p.undo_null_move();
        assert!(p == before);
    }
}

fn every_candidate_move() -> Vec<Move> {
    let mut v = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            if from != to {
                v.push(Move::normal(from, to, false));
                v.push(Move::normal(from, to, true));
            }
        }
    }
    for pt in PieceType::HAND {
        for to in Square::all() {
            v.push(Move::drop(pt, to));
        }
    }
    v
}

#[test]
fn is_legal_agrees_with_the_generator_on_every_encodable_move() {
    let candidates = every_candidate_move();
    for p in random_positions(300, 5) {
        let legal: HashSet<Move> = legal_moves(&p).into_iter().collect();
        for &m in &candidates {
            assert_eq!(p.is_legal(m), legal.contains(&m), "{m} in {}", p.to_sfen());
        }
    }
}

#[test]
fn generator_lists_each_move_once() {
    for p in random_positions(500, 6) {
        let moves = legal_moves(&p);
        let set: HashSet<Move> = moves.iter().copied().collect();
        assert_eq!(set.len(), moves.len(), "duplicate in {}", p.to_sfen());
    }
}

#[test]
fn staged_generators_partition_the_legal_moves() {
    for p in random_positions(500, 7) {
        let legal: HashSet<Move> = legal_moves(&p).into_iter().collect();
        let mut caps = MoveList::new();
        generate_captures_promotions(&p, &mut caps);
        let mut quiets = MoveList::new();
        generate_quiets(&p, &mut quiets);
        for &m in caps.iter() {
            let capture = !m.is_drop() && p.piece_on(m.to()).is_some();
            assert!(
                capture || m.is_promotion(),
                "{m} is neither capture nor promotion"
            );
        }
        for &m in quiets.iter() {
            let capture = !m.is_drop() && p.piece_on(m.to()).is_some();
            assert!(!capture && !m.is_promotion(), "{m} is not quiet");
        }
        let union: HashSet<Move> = caps.iter().chain(quiets.iter()).copied().collect();
        assert_eq!(
            union.len(),
            caps.len() + quiets.len(),
            "overlap in {}",
            p.to_sfen()
        );
        assert_eq!(union, legal, "{}", p.to_sfen());
    }
}

#[test]
fn gives_check_and_check_generator_agree_with_playing_the_move() {
    let mut in_check_seen = 0;
    for mut p in random_positions(400, 8) {
        let mut checks = MoveList::new();
        generate_checks(&p, &mut checks);
        let checks: HashSet<Move> = checks.iter().copied().collect();
        for m in legal_moves(&p) {
            let predicted = p.gives_check(m);
            p.do_move(m);
            let actual = p.in_check();
            p.undo_move(m);
            assert_eq!(predicted, actual, "{m} in {}", p.to_sfen());
            assert_eq!(checks.contains(&m), actual);
        }
        if p.in_check() {
            in_check_seen += 1;
            let mut ev = MoveList::new();
            generate_evasions(&p, &mut ev);
            let ev: HashSet<Move> = ev.iter().copied().collect();
            assert_eq!(ev, legal_moves(&p).into_iter().collect());
        }
    }
    assert!(
        in_check_seen > 10,
        "only {in_check_seen} positions in check"
    );
}

#[test]
fn no_legal_move_leaves_the_king_attacked() {
    for mut p in random_positions(300, 9) {
        let us = p.side_to_move();
        for m in legal_moves(&p) {
            p.do_move(m);
            if let Some(k) = p.king_square(us) {
                assert!(
                    !p.is_attacked(!us, k, p.occupied()),
                    "{m} leaves the king in check"
                );
            }
            p.undo_move(m);
        }
    }
}

#[test]
fn the_checks_found_from_the_move_are_every_attacker_of_the_king() {
    // `do_move` finds the checkers from the moved piece and the line it opens, not by asking
    // which pieces attack the king: held here to the full question after every legal move.
    let (mut direct, mut discovered, mut double) = (0, 0, 0);
    for mut p in random_positions(400, 10) {
        let mover = p.side_to_move();
        for m in legal_moves(&p) {
            p.do_move(m);
            if let Some(k) = p.king_square(!mover) {
                let all = p.attackers_to(mover, k, p.occupied());
                assert_eq!(p.checkers(), all, "{m} in {}", p.to_sfen());
                direct += all.contains(m.to()) as u32;
                discovered += all.without(m.to()).is_nonempty() as u32;
                double += all.has_more_than_one() as u32;
            }
            p.undo_move(m);
        }
    }
    assert!(
        direct > 100 && discovered > 10 && double > 0,
        "{direct} direct, {discovered} discovered, {double} double checks"
    );
}

#[test]
fn attacks_found_together_are_those_found_one_by_one() {
    for p in random_positions(300, 11) {
        for by in hayate::Color::ALL {
            let Some(k) = p.king_square(!by) else {
                continue;
            };
            for sq in hayate::attacks::king_attacks(k).with(k) {
                let occ = p.occupied();
                assert_eq!(
                    p.attackers_to_either(sq, occ),
                    p.attackers_to(by, sq, occ) | p.attackers_to(!by, sq, occ),
                    "{}",
                    p.to_sfen()
                );
            }
            let around = hayate::attacks::king_attacks(k);
            for occ in [p.occupied(), p.occupied().without(k)] {
                let one_by_one = around
                    .into_iter()
                    .filter(|&sq| p.is_attacked(by, sq, occ))
                    .fold(hayate::Bitboard::EMPTY, |b, sq| b.with(sq));
                assert_eq!(
                    p.attacked_near(by, k, around, occ),
                    one_by_one,
                    "{}",
                    p.to_sfen()
                );
            }
        }
    }
}
