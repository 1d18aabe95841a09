//! Legal move generation under every rule of shogi: promotion (optional and forced), drops with
//! the dead-drop, nifu and uchifuzume rules, check evasions, pins and double check.
//!
//! Every generator returns legal moves only. Pins and checks are handled while generating (a
//! pinned piece moves only along its pin line; in check, non-king moves must capture the checker
//! or land between it and the king), so nothing is played to test legality. King moves are tested
//! against the enemy's attacks with the king lifted off the board, so it cannot step back along a
//! slider's ray.

use std::mem::MaybeUninit;
use std::ops::Deref;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, PieceType, Square};

/// More than the most legal moves any shogi position has (593).
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves that lives on the stack.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len].write(m);
        self.len += 1;
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push` and never un-written; `Move` is
        // `Copy`, so `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    /// Keeps only the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(m) {
                self.moves[n].write(m);
                n += 1;
            }
        }
        self.len = n;
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

// The generator kinds, as const generic parameters.
const ALL: u8 = 0;
const CAPTURES_PROMOTIONS: u8 = 1;
const QUIETS: u8 = 2;

/// Every legal move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    generate::<ALL>(pos, list);
}

/// Legal captures (with and without promotion) and non-capturing promotions.
pub fn generate_captures_promotions(pos: &Position, list: &mut MoveList) {
    generate::<CAPTURES_PROMOTIONS>(pos, list);
}

/// Legal moves that neither capture nor promote, drops included. With
/// [`generate_captures_promotions`] this partitions the legal moves.
pub fn generate_quiets(pos: &Position, list: &mut MoveList) {
    generate::<QUIETS>(pos, list);
}

/// The legal replies to a check. The side to move must be in check.
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    debug_assert!(pos.in_check());
    generate::<ALL>(pos, list);
}

/// Legal moves that give check.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    generate::<ALL>(pos, list);
    list.retain(|m| pos.gives_check(m));
}

/// The number of legal moves.
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate::<ALL>(pos, &mut list);
    list.len
}

/// Appends the board moves from `from` to `to`, with and without promotion as the rules allow.
struct Emitter<'a, const G: u8> {
    list: &'a mut MoveList,
    us: Color,
    enemy: Bitboard,
    zone: Bitboard,
}

impl<const G: u8> Emitter<'_, G> {
    #[inline(always)]
    fn push(&mut self, from: Square, to: Square, promote: bool) {
        let wanted = match G {
            CAPTURES_PROMOTIONS => promote || self.enemy.contains(to),
            QUIETS => !promote && !self.enemy.contains(to),
            _ => true,
        };
        if wanted {
            self.list.push(Move::normal(from, to, promote));
        }
    }

    /// A piece that may promote (pawn, lance, knight, silver, bishop, rook).
    #[inline(always)]
    fn promotable(&mut self, pt: PieceType, from: Square, to: Square) {
        if self.zone.contains(to) || self.zone.contains(from) {
            self.push(from, to, true);
            if !Position::must_promote(self.us, pt, to) {
                self.push(from, to, false);
            }
        } else {
            self.push(from, to, false);
        }
    }

    #[inline(always)]
    fn each(&mut self, pt: PieceType, from: Square, targets: Bitboard) {
        if pt.can_promote() {
            for to in targets {
                self.promotable(pt, from, to);
            }
        } else {
            for to in targets {
                self.push(from, to, false);
            }
        }
    }
}

fn generate<const G: u8>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let them = !us;
    let own = pos.pieces_of(us);
    let enemy = pos.pieces_of(them);
    let occ = own | enemy;
    let checkers = pos.checkers();
    let king = pos.king_square(us);
    let mut out = Emitter::<G> {
        list,
        us,
        enemy,
        zone: Bitboard::promotion_zone(us),
    };

    // King moves, each tested against the enemy's attacks without the king on the board.
    if let Some(k) = king {
        let occ_without_king = occ.without(k);
        for to in attacks::king_attacks(k).and_not(own) {
            if !pos.is_attacked(them, to, occ_without_king) {
                out.push(k, to, false);
            }
        }
    }

    // Where other moves may go: anywhere not our own, or, in check, onto the checker or between
    // it and the king. In double check only the king can move.
    let (board_target, drop_target) = match (king, checkers.single()) {
        (_, None) if checkers.is_nonempty() => return,
        (Some(k), Some(checker)) => {
            let block = attacks::between(k, checker);
            (block.with(checker), block)
        }
        _ => (!own, !occ),
    };
    let pinned = pos.pinned();

    // Pawns not pinned, all at once: one shift moves every pawn forward.
    let pawns = pos.pieces(us, PieceType::Pawn);
    let back: i8 = match us {
        Color::Black => 1,
        Color::White => -1,
    };
    for to in pawns.and_not(pinned).forward(us) & board_target {
        let from = Square::from_index_unchecked((to.index() as i8 + back) as u8);
        out.promotable(PieceType::Pawn, from, to);
    }

    // Every other piece, one by one; a pinned piece stays on the line through it and its king.
    let piece_moves = |pt: PieceType, pieces: Bitboard, out: &mut Emitter<G>| {
        for from in pieces {
            let mut targets = attacks::attacks(us, pt, from, occ) & board_target;
            if pinned.contains(from) {
                if let Some(k) = king {
                    targets &= attacks::line(k, from);
                }
            }
            out.each(pt, from, targets);
        }
    };
    piece_moves(PieceType::Pawn, pawns & pinned, &mut out);
    for pt in [
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Horse,
        PieceType::Dragon,
    ] {
        piece_moves(pt, pos.pieces(us, pt), &mut out);
    }
    piece_moves(PieceType::Gold, pos.golds() & own, &mut out);

    if G != CAPTURES_PROMOTIONS {
        generate_drops(pos, out.list, drop_target);
    }
}

/// Drops onto `targets` (empty squares, or the blocking squares of a check).
fn generate_drops(pos: &Position, list: &mut MoveList, targets: Bitboard) {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.is_empty() || targets.is_empty() {
        return;
    }
    // Dead drops: nothing on the last rank that could never move, no knight on the last two.
    let last = Bitboard::far_ranks(us, 1);
    let last_two = Bitboard::far_ranks(us, 2);

    if hand.has(PieceType::Pawn) {
        // Nifu: not on a file where we have an unpromoted pawn.
        let mut pawn_targets = targets
            .and_not(last)
            .and_not(pos.pieces(us, PieceType::Pawn).fill_files());
        // Uchifuzume: a pawn drop that checks must not mate.
        if let Some(ek) = pos.king_square(!us) {
            let check_square = attacks::pawn_attacks(!us, ek);
            if let Some(sq) = (pawn_targets & check_square).single() {
                if pos.is_pawn_drop_mate(sq) {
                    pawn_targets = pawn_targets.without(sq);
                }
            }
        }
        for to in pawn_targets {
            list.push(Move::drop(PieceType::Pawn, to));
        }
    }
    if !hand.has_except_pawns() {
        return;
    }

    // The other kinds, grouped by where they may land, square by square.
    let mut anywhere = [PieceType::Pawn; 4];
    let mut n = 0;
    for pt in [
        PieceType::Silver,
        PieceType::Gold,
        PieceType::Bishop,
        PieceType::Rook,
    ] {
        if hand.has(pt) {
            anywhere[n] = pt;
            n += 1;
        }
    }
    let anywhere = &anywhere[..n];
    let lance = hand.has(PieceType::Lance);
    let knight = hand.has(PieceType::Knight);

    for to in targets.and_not(last_two) {
        if lance {
            list.push(Move::drop(PieceType::Lance, to));
        }
        if knight {
            list.push(Move::drop(PieceType::Knight, to));
        }
        for &pt in anywhere {
            list.push(Move::drop(pt, to));
        }
    }
    for to in (targets & last_two).and_not(last) {
        if lance {
            list.push(Move::drop(PieceType::Lance, to));
        }
        for &pt in anywhere {
            list.push(Move::drop(pt, to));
        }
    }
    if n > 0 {
        for to in targets & last {
            for &pt in anywhere {
                list.push(Move::drop(pt, to));
            }
        }
    }
}
