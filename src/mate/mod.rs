//! Mate finding: the fast mate-in-one the search probes at every node, and the df-pn solver
//! behind `go mate`, `hayate mate` and the search's long mates.

mod batch;
mod bounded;
mod check;
mod check_batch;
mod dfpn;
mod muda;
mod notation;
mod parents;
mod path_failures;
mod table;
mod workers;

/// A caller told how a search goes, at most once every `every` (the solver's
/// [`Solver::report_progress`], the exact search's [`LineProgress`]): `go mate`'s `info` lines,
/// a terminal's spinner.
struct Throttled<T> {
    every: std::time::Duration,
    /// When it was last told (at first, when it was made).
    last: std::time::Instant,
    tell: Box<dyn FnMut(T) + Send>,
}

impl<T> Throttled<T> {
    fn new(every: std::time::Duration, tell: Box<dyn FnMut(T) + Send>) -> Throttled<T> {
        Throttled {
            every,
            last: std::time::Instant::now(),
            tell,
        }
    }

    /// Tells `value()` when `every` has passed since the last telling, `now` being the time.
    fn tell_if_due(&mut self, now: std::time::Instant, value: impl FnOnce() -> T) {
        if now.duration_since(self.last) >= self.every {
            self.last = now;
            (self.tell)(value());
        }
    }
}

pub use batch::run_batch;
pub use check::{
    check_problem, check_with_intended, check_with_record, main_line_after_proof,
    with_defender_holding_the_rest, with_main_line, Alternative, CheckLimits, ComposerVariation,
    Intended, IntendedFinding, LineLimits, LineProgress, Report, Status, VariationFinding,
    MAIN_LINE_MAX_NODES, MAIN_LINE_MIN_NODES, MAIN_LINE_WORK,
};
pub use check_batch::{check_batch, intended_line, BatchRows};
pub use dfpn::{
    defender_to_move, verify_mate_line, verify_tsume_line, SolveLimits, SolveProgress, Solver,
    Verdict,
};
pub use notation::{japanese_line, ply_count};

/// How many slots of `slot_bytes` a table of about `mb` megabytes has (the mate table's clusters,
/// the side tables' slots): the largest power of two that fits (at least two), so that an index
/// is a mask of the key.
fn power_of_two_slots(mb: usize, slot_bytes: usize) -> usize {
    let bytes = mb.max(1).saturating_mul(1 << 20);
    floor_power_of_two((bytes / slot_bytes).max(2))
}

/// The largest power of two not above `n` (1 for 0).
fn floor_power_of_two(n: usize) -> usize {
    1usize << (usize::BITS - 1 - n.max(1).leading_zeros())
}

/// The megabytes the table of a solver made for `mb` ([`Solver::new`]) takes when the memory can
/// be had: the largest power of two within `mb`, at least one.
pub fn table_mb(mb: usize) -> usize {
    floor_power_of_two(mb)
}

/// Stack for a thread that runs the solver: long mates recurse deep.
pub const SOLVER_STACK: usize = 1 << 30;

/// The hasher of the solvers' maps keyed by Zobrist keys, which are already uniformly random:
/// a key hashes as itself (the default SipHash took a good share of the checker's time).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    /// Replaces the state rather than mixing into it: right for keys that are a Zobrist key or
    /// start with one (`(key, bound)`), whose later fields are mixed in by `write`; a key with
    /// the `u64` last would lose what came before it.
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::movegen::{generate_checks, generate_legal, has_evasion, MoveList};
use crate::position::Position;
use crate::types::{Color, Move, PieceType, Square};

/// The moves of a turn in a mate search, into `list`: the attacker's checks at an attacker
/// turn (`attacking`), every legal move at the defender's.
pub(crate) fn turn_moves(pos: &Position, attacking: bool, list: &mut MoveList) {
    if attacking {
        generate_checks(pos, list);
    } else {
        generate_legal(pos, list);
    }
}

/// A move that checkmates at once, if the side to move has one.
///
/// A dedicated generator: it never generates every legal move. It tries
/// - drops (not of a pawn: a pawn-drop mate is illegal) on the empty squares from which the
///   dropped kind would attack the enemy king;
/// - board moves, with and without promotion, to the squares from which the moved piece
///   attacks the king (next to it, a knight's jump away, or on an open line to it), and every
///   move of a piece that shields the king from one of our sliders (a discovered check).
///
/// Each candidate is checked with `gives_check` and `is_legal`, then played to see whether any
/// reply is left.
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    if pos.in_check() {
        return None;
    }
    let us = pos.side_to_move();
    let them = !us;
    let ek = pos.king_square(them)?;
    let occ = pos.occupied();
    let empty = !occ;
    let hand = pos.hand(us);
    let flights = Flights::new(pos, ek);
    // Drops: the kind, seen from the king, attacks the square exactly when the square would
    // attack the king (attacks are symmetric once the colour is turned).
    for pt in PieceType::HAND {
        if pt == PieceType::Pawn || !hand.has(pt) {
            continue;
        }
        for to in attacks::attacks(them, pt, ek, occ) & empty {
            let m = Move::drop(pt, to);
            if flights.escape(us, pt, to, None, Bitboard::EMPTY) {
                continue;
            }
            if pos.is_legal(m) && mates(pos, m) {
                return Some(m);
            }
        }
    }
    // Board moves.
    let near = attacks::king_attacks(ek)
        | attacks::knight_attacks(them, ek)
        | attacks::rook_attacks(ek, occ)
        | attacks::bishop_attacks(ek, occ);
    let shields = pos.blockers(them) & pos.pieces_of(us);
    let zone = Bitboard::promotion_zone(us);
    for from in pos.pieces_of(us) {
        let Some(piece) = pos.piece_on(from) else {
            continue;
        };
        let pt = piece.piece_type();
        let reach = attacks::attacks(us, pt, from, occ).and_not(pos.pieces_of(us));
        let targets = if shields.contains(from) {
            reach
        } else {
            reach & near
        };
        if targets.is_empty() {
            continue;
        }
        let through = flights.through(from);
        for to in targets {
            let can_promote = pt.can_promote() && (zone.contains(from) || zone.contains(to));
            for promote in [true, false] {
                if promote && !can_promote {
                    continue;
                }
                if !promote && Position::must_promote(us, pt, to) {
                    continue;
                }
                let m = Move::normal(from, to, promote);
                let moved = if promote { pt.promote() } else { pt };
                if flights.escape(us, moved, to, Some(from), through) {
                    continue;
                }
                if pos.gives_check(m) && pos.is_legal(m) && mates(pos, m) {
                    return Some(m);
                }
            }
        }
    }
    None
}

/// The enemy king's flights that none of our pieces attacks now (seen through the king's own
/// square, as the evasion test sees them), for passing over a check that leaves one of them
/// open without playing it. A move only adds the attacks of the piece on its new square and
/// the lines it opens through the square it leaves, so a flight that neither covers is an
/// escape after it: the move is no mate, and under the tsume convention none either (a king's
/// step is never a useless interposition).
pub(crate) struct Flights {
    open: Bitboard,
    occ_without_king: Bitboard,
    /// Our sliders by the lines they move on: lances, rooks and dragons; bishops and horses.
    rook_lines: Bitboard,
    bishop_lines: Bitboard,
}

impl Flights {
    /// The flights of the enemy king on `ek` (the side to move's opponent's).
    pub(crate) fn new(pos: &Position, ek: Square) -> Flights {
        let us = pos.side_to_move();
        let them = !us;
        let occ_without_king = pos.occupied().without(ek);
        let flights = attacks::king_attacks(ek).and_not(pos.pieces_of(them));
        let open = flights.and_not(pos.attacked_near(us, ek, flights, occ_without_king));
        let own = pos.pieces_of(us);
        Flights {
            open,
            occ_without_king,
            rook_lines: (pos.pieces(us, PieceType::Lance) | pos.rooks_dragons()) & own,
            bishop_lines: pos.bishops_horses() & own,
        }
    }

    /// The squares a slider of ours may reach through `from` once the piece there has left:
    /// when one stands on a line through `from` (blocked or not), every square on those lines
    /// counts as covered. A superset, so it only lets more moves through to be played.
    pub(crate) fn through(&self, from: Square) -> Bitboard {
        let behind = (attacks::rook_step_ray(from) & self.rook_lines)
            | (attacks::bishop_step_ray(from) & self.bishop_lines);
        if behind.is_empty() {
            return Bitboard::EMPTY;
        }
        let after = self.occ_without_king.without(from);
        attacks::rook_attacks(from, after) | attacks::bishop_attacks(from, after)
    }

    /// Whether a piece of ours of kind `moved` (after the move) arriving on `to` (from `from`,
    /// or dropped when `None`) leaves the king an open flight, `through` being
    /// [`Flights::through`] of `from` (empty for a drop).
    #[inline(always)]
    pub(crate) fn escape(
        &self,
        us: Color,
        moved: PieceType,
        to: Square,
        from: Option<Square>,
        through: Bitboard,
    ) -> bool {
        let open = self.open.without(to);
        if open.is_empty() {
            return false;
        }
        let mut after = self.occ_without_king.with(to);
        if let Some(f) = from {
            after = after.without(f);
        }
        open.and_not(attacks::attacks(us, moved, to, after) | through)
            .is_nonempty()
    }

    /// [`Flights::escape`] for the move `m` of the side to move in `pos`.
    pub(crate) fn escape_after(&self, pos: &Position, m: Move) -> bool {
        let us = pos.side_to_move();
        if m.is_drop() {
            return self.escape(us, m.dropped(), m.to(), None, Bitboard::EMPTY);
        }
        let from = m.from();
        let Some(piece) = pos.piece_on(from) else {
            return false;
        };
        let pt = piece.piece_type();
        let moved = if m.is_promotion() { pt.promote() } else { pt };
        self.escape(us, moved, m.to(), Some(from), self.through(from))
    }
}

/// Whether the legal move `m` leaves the opponent in check without a reply.
fn mates(pos: &mut Position, m: Move) -> bool {
    pos.do_move(m);
    let mated = pos.in_check() && !has_evasion(pos);
    pos.undo_move(m);
    mated
}

/// The same answer as [`mate_in_one`] by brute force (every legal move): the reference its
/// tests compare with.
pub fn mate_in_one_by_brute_force(pos: &mut Position) -> Option<Move> {
    if pos.in_check() {
        return None;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list.iter()
        .copied()
        .find(|&m| pos.gives_check(m) && mates(pos, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_head_mate_and_respects_uchifuzume() {
        let mut p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        assert_eq!(
            mate_in_one(&mut p).map(|m| m.to_string()),
            Some("G*5b".to_string())
        );
        // A pawn-drop mate is illegal, so there is no mate in one here.
        let mut q = Position::from_sfen("7lk/9/8S/9/9/9/9/7L1/8K b P 1").unwrap();
        assert_eq!(mate_in_one(&mut q), None);
    }

    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Walks `plies` random moves from `start`, holding [`mate_in_one`] to the brute force at
    /// each position where it is asked, and [`Flights`] to the king's steps; in a tsume walk
    /// (`tsume`) the moves alternate between the attacker's checks, where it is asked, and the
    /// defender's replies. Counts the positions asked, the mates found and the checks the
    /// flights pass over into `counts`.
    fn compare_along_walk(
        start: &str,
        plies: usize,
        tsume: bool,
        rng: &mut StdRng,
        counts: &mut (u32, u32, u32),
    ) {
        let mut pos = Position::from_sfen(start).unwrap();
        let mut list = MoveList::new();
        for ply in 0..plies {
            let attacking = ply % 2 == 0;
            if !tsume || attacking {
                let fast = mate_in_one(&mut pos);
                let slow = mate_in_one_by_brute_force(&mut pos);
                assert_eq!(fast.is_some(), slow.is_some(), "{}", pos.to_sfen());
                if let Some(m) = fast {
                    assert!(pos.is_legal(m) && mates(&mut pos, m), "{}", pos.to_sfen());
                    counts.1 += 1;
                }
                counts.0 += 1;
                counts.2 += flights_escape_only_where_the_king_steps_away(&mut pos);
            }
            list.clear();
            if tsume && attacking {
                generate_checks(&pos, &mut list);
            } else {
                generate_legal(&pos, &mut list);
            }
            if list.is_empty() {
                break;
            }
            let m = list[rng.gen_range(0..list.len())];
            pos.do_move(m);
        }
    }

    /// Holds [`Flights::escape_after`] to the moves: after every check it passes over, the
    /// defender has a king's step. Returns how many it passed over.
    fn flights_escape_only_where_the_king_steps_away(pos: &mut Position) -> u32 {
        let Some(king) = pos.king_square(!pos.side_to_move()) else {
            return 0;
        };
        let flights = Flights::new(pos, king);
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        let mut passed = 0;
        let mut replies = MoveList::new();
        for &m in checks.iter() {
            if !flights.escape_after(pos, m) {
                continue;
            }
            passed += 1;
            pos.do_move(m);
            replies.clear();
            generate_legal(pos, &mut replies);
            let steps = replies.iter().any(|r| !r.is_drop() && r.from() == king);
            pos.undo_move(m);
            assert!(steps, "{} {m}", pos.to_sfen());
        }
        passed
    }

    #[test]
    fn agrees_with_brute_force_on_random_games() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut counts = (0, 0, 0);
        for start in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
        ] {
            for _ in 0..60 {
                compare_along_walk(start, 120, false, &mut rng, &mut counts);
            }
        }
        let (positions, mates_found, escapes) = counts;
        assert!(
            positions > 10_000 && mates_found > 50,
            "{positions} {mates_found}"
        );
        assert!(escapes > 10_000, "{escapes} checks passed over");
    }

    #[test]
    fn agrees_with_brute_force_on_walks_through_the_classics() {
        // The search passes over the checks that leave the king a flight no piece covers
        // without playing them; these positions (full hands, many drops, lines opened
        // through the mover's square) are where that could go wrong. Random walks of checks
        // and replies from each classic.
        let text = include_str!("../../tests/data/tsume_classics.tsv");
        let mut rng = StdRng::seed_from_u64(12);
        let mut counts = (0, 0, 0);
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let sfen = line.split('\t').nth(1).unwrap();
            for _ in 0..4 {
                compare_along_walk(sfen, 12, true, &mut rng, &mut counts);
            }
        }
        let (positions, mates_found, escapes) = counts;
        assert!(
            positions > 2000 && mates_found > 100,
            "{positions} positions, {mates_found} mates"
        );
        assert!(escapes > 5000, "{escapes} checks passed over");
    }
}
