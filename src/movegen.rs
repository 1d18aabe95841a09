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

/// More than the most legal moves any position has: 593 with both kings on the board, 599 found
/// with one king (tsume-style positions may lack the attacker's king), so keep ample room.
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves that lives on the stack, left uninitialised until written.
pub struct MoveList {
    /// The raw encodings of [`Move`]s; entries below `len` are written, valid moves.
    moves: [MaybeUninit<u16>; MAX_MOVES],
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
        // Written as a struct literal, LLVM merged the store of `len` with the uninitialised
        // array into one 2 KB memset, at every node (5% of the search in a profile). Only
        // `len` is written here.
        let mut list = MaybeUninit::<MoveList>::uninit();
        // SAFETY: `len` is written before `assume_init`, and every other byte of a `MoveList`
        // is a `MaybeUninit<u16>`, which may stay uninitialised.
        unsafe {
            std::ptr::addr_of_mut!((*list.as_mut_ptr()).len).write(0);
            list.assume_init()
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len].write(m.raw());
        self.len += 1;
    }

    /// Pushes `base | to` for every square `to` of `targets`, where `base` is a raw move to
    /// square 0. The length stays in a register for the whole loop: kept in the struct, every
    /// store would have to reload it.
    #[inline(always)]
    fn push_targets(&mut self, base: u16, targets: Bitboard) {
        let mut len = self.len;
        for to in targets {
            self.moves[len].write(base | to.index() as u16);
            len += 1;
        }
        self.len = len;
    }

    /// Writes eight moves `templates[i] | to` for each square `to` of `targets` and keeps the
    /// first `n` of each eight. Drops use it: one vector store per target square, whatever the
    /// number of kinds in hand. The templates are raw drop moves to square 0.
    #[inline(always)]
    fn push_drops(&mut self, templates: &[u16; 8], n: usize, targets: Bitboard) {
        let mut len = self.len;
        for to in targets {
            let slots = &mut self.moves[len..len + 8];
            for (slot, &t) in slots.iter_mut().zip(templates) {
                slot.write(t | to.index() as u16);
            }
            len += n;
        }
        self.len = len;
    }

    /// Overwrites entry `i` (which must be below `len`).
    #[inline(always)]
    pub fn set(&mut self, i: usize, m: Move) {
        assert!(i < self.len);
        self.moves[i].write(m.raw());
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written with the raw encoding of valid moves
        // (`push` writes `Move::raw`, `push_drops` writes drop templates with a square or-ed in),
        // and `Move` is a `repr(transparent)` `NonZeroU16`, so they are valid `Move`s.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    /// Keeps only the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(m) {
                self.moves[n].write(m.raw());
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
/// Only moves that give check (see [`CheckTargets`]).
const CHECKS: u8 = 3;

/// Every legal move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    generate::<ALL>(pos, list, &CheckTargets::UNUSED);
}

/// Legal captures (with and without promotion) and non-capturing promotions.
pub fn generate_captures_promotions(pos: &Position, list: &mut MoveList) {
    generate::<CAPTURES_PROMOTIONS>(pos, list, &CheckTargets::UNUSED);
}

/// Legal moves that neither capture nor promote, drops included. With
/// [`generate_captures_promotions`] this partitions the legal moves.
pub fn generate_quiets(pos: &Position, list: &mut MoveList) {
    generate::<QUIETS>(pos, list, &CheckTargets::UNUSED);
}

/// The legal replies to a check. The side to move must be in check.
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    debug_assert!(pos.in_check());
    generate::<ALL>(pos, list, &CheckTargets::UNUSED);
}

/// Legal moves that give check, in the order of [`generate_legal`]. Only checking moves are
/// generated (the mate solver calls this at every attacker node, where most legal moves do not
/// check): each piece's targets are cut down to the squares from which it would attack the enemy
/// king, or to the squares off the line for a piece shielding the king from one of our sliders.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    let Some(king) = pos.king_square(!pos.side_to_move()) else {
        return;
    };
    generate::<CHECKS>(pos, list, &CheckTargets::new(pos, king));
}

/// The slow reference for [`generate_checks`]: every legal move, filtered by `gives_check`.
/// Kept for the tests, which demand the same moves in the same order. `list` must be empty.
pub fn generate_checks_by_filter(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let Some(king) = pos.king_square(!us) else {
        return;
    };
    generate_legal(pos, list);
    // A move checks directly only by landing where some piece kind would attack the king: next
    // to it, a knight's jump from it, or on an open line to it (a piece that steps off such a
    // line cannot make the line its own: it would have been checking already). Otherwise only
    // a shielding piece stepping aside checks. The cheap mask spares most `gives_check` calls.
    let occ = pos.occupied();
    let near = attacks::king_attacks(king)
        | attacks::knight_attacks(!us, king)
        | attacks::rook_attacks(king, occ)
        | attacks::bishop_attacks(king, occ);
    let shields = pos.blockers(!us) & pos.pieces_of(us);
    list.retain(|m| {
        (near.contains(m.to()) || (!m.is_drop() && shields.contains(m.from())))
            && pos.gives_check(m)
    });
}

/// Where a move must end to give check, for [`generate_checks`].
///
/// A piece of kind `pt` on `sq` attacks the enemy king exactly when a piece of that kind of the
/// enemy's colour on the king's square would attack `sq` (every step pattern is its own mirror
/// image), so `direct[pt]` is one attack lookup from the king. For a slider the lookup uses the
/// occupancy before the move; the square the piece leaves could only matter if it lay between
/// the new square and the king, and then the piece would be checking already, which the side
/// to move never is.
///
/// A piece that alone stands between the enemy king and one of our sliders (a shield) checks
/// by leaving the line, whatever its kind: a discovered check.
pub(crate) struct CheckTargets {
    king: Square,
    /// Indexed by the kind the piece has after the move, so a promotion checks as the promoted
    /// kind. Empty for the king, which never checks directly.
    direct: [Bitboard; PieceType::NUM],
    /// Our pieces shielding the enemy king from one of our sliders.
    shields: Bitboard,
}

impl CheckTargets {
    /// For the generators that do not filter for checks; never read.
    const UNUSED: CheckTargets = CheckTargets {
        king: Square::from_index_unchecked(0),
        direct: [Bitboard::EMPTY; PieceType::NUM],
        shields: Bitboard::EMPTY,
    };

    fn new(pos: &Position, king: Square) -> CheckTargets {
        let them = !pos.side_to_move();
        let occ = pos.occupied();
        let mut direct = [Bitboard::EMPTY; PieceType::NUM];
        let gold = attacks::gold_attacks(them, king);
        let bishop = attacks::bishop_attacks(king, occ);
        let rook = attacks::rook_attacks(king, occ);
        let step = attacks::king_attacks(king);
        direct[PieceType::Pawn.index()] = attacks::pawn_attacks(them, king);
        direct[PieceType::Lance.index()] = attacks::lance_attacks(them, king, occ);
        direct[PieceType::Knight.index()] = attacks::knight_attacks(them, king);
        direct[PieceType::Silver.index()] = attacks::silver_attacks(them, king);
        direct[PieceType::Bishop.index()] = bishop;
        direct[PieceType::Rook.index()] = rook;
        for pt in [
            PieceType::Gold,
            PieceType::ProPawn,
            PieceType::ProLance,
            PieceType::ProKnight,
            PieceType::ProSilver,
        ] {
            direct[pt.index()] = gold;
        }
        direct[PieceType::Horse.index()] = bishop | step;
        direct[PieceType::Dragon.index()] = rook | step;
        CheckTargets {
            king,
            direct,
            shields: pos.blockers(them) & pos.pieces_of(!them),
        }
    }

    /// The squares of `targets` where the piece on `from`, of kind `pt` once moved, checks.
    #[inline(always)]
    fn of_move(&self, pt: PieceType, from: Square, targets: Bitboard) -> Bitboard {
        let mut checking = self.direct[pt.index()];
        if self.shields.contains(from) {
            checking |= !attacks::line(self.king, from);
        }
        targets & checking
    }
}

/// The number of legal moves.
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate::<ALL>(pos, &mut list, &CheckTargets::UNUSED);
    list.len
}

/// The legal replies to a check, counted by kind without being listed: what the mate solver
/// needs of each new check (the defender's moves and the squares of its interpositions make the
/// check's first proof number), where listing every evasion took a good share of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvasionCount {
    /// Moves of pieces on the board, the king's included.
    pub board_moves: u32,
    /// Drops, all kinds on all squares.
    pub drops: u32,
    /// The squares where at least one drop is legal.
    pub drop_squares: Bitboard,
}

impl EvasionCount {
    pub fn total(&self) -> u32 {
        self.board_moves + self.drops
    }
}

/// Counts the legal replies to a check: the same moves [`generate_evasions`] lists, found
/// square by square from the few squares that answer a check (the king's, the checker's and
/// those between), not piece by piece. The side to move must be in check.
pub fn count_evasions(pos: &Position) -> EvasionCount {
    evasions_counted::<false, true>(pos)
}

/// Whether the side to move, in check, has a legal reply: [`count_evasions`] stopped at the
/// first reply found. Most checks a mate-in-one search tries leave the king a square, found
/// before the captures, interpositions and drops are counted.
pub fn has_evasion(pos: &Position) -> bool {
    evasions_counted::<true, true>(pos).total() > 0
}

/// Whether the side to move, in check, has a reply that is not a drop: a king's step, a
/// capture of the checker or an interposition by a piece on the board. In a tsume problem only
/// a drop may be a useless interposition (`mate::muda`), so a check that leaves such a reply
/// is no mate under the convention either.
pub fn has_board_evasion(pos: &Position) -> bool {
    evasions_counted::<true, false>(pos).board_moves > 0
}

/// [`count_evasions`], or with `ANY` only as far as the first reply, and with `DROPS` the
/// interpositions from the hand too.
#[inline(always)]
fn evasions_counted<const ANY: bool, const DROPS: bool>(pos: &Position) -> EvasionCount {
    debug_assert!(pos.in_check());
    let us = pos.side_to_move();
    let them = !us;
    let own = pos.pieces_of(us);
    let occ = pos.occupied();
    let mut count = EvasionCount::default();
    let Some(k) = pos.king_square(us) else {
        return count;
    };
    let occ_without_king = occ.without(k);
    let flights = attacks::king_attacks(k).and_not(own);
    if ANY {
        for to in flights {
            if !pos.is_attacked(them, to, occ_without_king) {
                count.board_moves += 1;
                return count;
            }
        }
    } else {
        // All the flight squares are wanted: the attacker's pieces are fewer than the
        // squares' questions (measured in benches/TSUME.md).
        let attacked = pos.attacked_near(them, k, flights, occ_without_king);
        count.board_moves += flights.and_not(attacked).count();
    }
    // In double check only the king can move.
    let Some(checker) = pos.checkers().single() else {
        return count;
    };
    let block = attacks::between(k, checker);
    let zone = Bitboard::promotion_zone(us);
    let last = Bitboard::far_ranks(us, 1);
    let last_two = Bitboard::far_ranks(us, 2);
    let pinned = pos.pinned();
    for to in block.with(checker) {
        for from in pos.attackers_to(us, to, occ).without(k) {
            // A pinned piece keeps to its pin line (which, against a single check, never
            // crosses the check's line but at the king; tested as the generator does).
            if pinned.contains(from) && !attacks::line(k, from).contains(to) {
                continue;
            }
            let Some(piece) = pos.piece_on(from) else {
                continue;
            };
            // Promotion as the generator allows it: optional in the zone, forced where the
            // unpromoted piece could never move again.
            count.board_moves += match piece.piece_type() {
                PieceType::Pawn | PieceType::Lance => {
                    zone.contains(to) as u32 + !last.contains(to) as u32
                }
                PieceType::Knight => zone.contains(to) as u32 + !last_two.contains(to) as u32,
                PieceType::Silver | PieceType::Bishop | PieceType::Rook => {
                    1 + (zone.contains(from) || zone.contains(to)) as u32
                }
                _ => 1,
            };
            if ANY {
                return count;
            }
        }
    }
    let hand = pos.hand(us);
    if !DROPS || block.is_empty() || hand.is_empty() {
        return count;
    }
    // Drops between: no dead drops (a pawn or lance on the last rank, a knight on the last
    // two), no second unpromoted pawn on a file, no pawn drop that mates.
    let mut squares = Bitboard::EMPTY;
    if hand.has(PieceType::Pawn) {
        let mut pawn = block
            .and_not(last)
            .and_not(pos.pieces(us, PieceType::Pawn).fill_files());
        if let Some(ek) = pos.king_square(them) {
            if let Some(sq) = (pawn & attacks::pawn_attacks(them, ek)).single() {
                if pos.is_pawn_drop_mate(sq) {
                    pawn = pawn.without(sq);
                }
            }
        }
        count.drops += pawn.count();
        squares |= pawn;
    }
    if hand.has(PieceType::Lance) {
        let lance = block.and_not(last);
        count.drops += lance.count();
        squares |= lance;
    }
    if hand.has(PieceType::Knight) {
        let knight = block.and_not(last_two);
        count.drops += knight.count();
        squares |= knight;
    }
    let anywhere = [
        PieceType::Silver,
        PieceType::Gold,
        PieceType::Bishop,
        PieceType::Rook,
    ]
    .iter()
    .filter(|&&pt| hand.has(pt))
    .count() as u32;
    if anywhere > 0 {
        count.drops += anywhere * block.count();
        squares |= block;
    }
    count.drop_squares = squares;
    count
}

/// Appends board moves, splitting each piece's targets into promoting and non-promoting sets
/// with masks (no per-move tests), and keeping only the moves of generator kind `G`.
struct Emitter<'a, const G: u8> {
    list: &'a mut MoveList,
    enemy: Bitboard,
    /// The promotion zone, the last rank and the last two ranks of the side to move.
    zone: Bitboard,
    last: Bitboard,
    last_two: Bitboard,
    /// Where moves check, read only by the check generator.
    checks: &'a CheckTargets,
}

impl<const G: u8> Emitter<'_, G> {
    /// Pushes a move of the piece of kind `pt` from `from` to every square of `targets`.
    #[inline(always)]
    fn push_all(&mut self, pt: PieceType, from: Square, targets: Bitboard, promote: bool) {
        let base = Move::normal(from, Square::from_index_unchecked(0), promote).raw();
        let mut targets = out_filter::<G>(targets, self.enemy, promote);
        if G == CHECKS {
            let after = if promote { pt.promote() } else { pt };
            targets = self.checks.of_move(after, from, targets);
        }
        self.list.push_targets(base, targets);
    }

    /// The moves of one piece of kind `pt` from `from` to `targets`, with promotion as the rules
    /// allow: optional when the move starts or ends in the zone, forced where the unpromoted
    /// piece could never move again.
    #[inline(always)]
    fn piece(&mut self, pt: PieceType, from: Square, targets: Bitboard) {
        match pt {
            // Pawn, lance and knight only move forward, so they can promote only on arriving in
            // the zone; they must on the last rank (the knight on the last two).
            PieceType::Pawn | PieceType::Lance => {
                self.push_all(pt, from, targets & self.zone, true);
                self.push_all(pt, from, targets.and_not(self.last), false);
            }
            PieceType::Knight => {
                self.push_all(pt, from, targets & self.zone, true);
                self.push_all(pt, from, targets.and_not(self.last_two), false);
            }
            PieceType::Silver | PieceType::Bishop | PieceType::Rook => {
                let promoting = if self.zone.contains(from) {
                    targets
                } else {
                    targets & self.zone
                };
                self.push_all(pt, from, promoting, true);
                self.push_all(pt, from, targets, false);
            }
            _ => self.push_all(pt, from, targets, false),
        }
    }
}

/// Moves of every piece of kind `pt` in `pieces` (which excludes pawns moved in bulk and the
/// king). A pinned piece stays on the line through it and its king.
#[inline(always)]
fn piece_moves<const G: u8>(
    pos: &Position,
    out: &mut Emitter<G>,
    pt: PieceType,
    pieces: Bitboard,
    target: Bitboard,
    pinned: Bitboard,
    king: Option<Square>,
) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    for from in pieces {
        let mut targets = attacks::attacks(us, pt, from, occ) & target;
        if pinned.contains(from) {
            if let Some(k) = king {
                targets &= attacks::line(k, from);
            }
        }
        out.piece(pt, from, targets);
    }
}

fn generate<const G: u8>(pos: &Position, list: &mut MoveList, checks: &CheckTargets) {
    let us = pos.side_to_move();
    let them = !us;
    let own = pos.pieces_of(us);
    let enemy = pos.pieces_of(them);
    let occ = own | enemy;
    let checkers = pos.checkers();
    let king = pos.king_square(us);
    let mut out = Emitter::<G> {
        list,
        enemy,
        zone: Bitboard::promotion_zone(us),
        last: Bitboard::far_ranks(us, 1),
        last_two: Bitboard::far_ranks(us, 2),
        checks,
    };

    // King moves, each tested against the enemy's attacks without the king on the board. A
    // king checks only by uncovering one of our sliders, so the check generator tests only
    // the squares off that line.
    if let Some(k) = king {
        let occ_without_king = occ.without(k);
        let mut candidates = attacks::king_attacks(k).and_not(own);
        if G == CHECKS {
            candidates = checks.of_move(PieceType::King, k, candidates);
        }
        // The attacked squares found piece by piece, as for the count of a king's flights.
        let safe = candidates.and_not(pos.attacked_near(them, k, candidates, occ_without_king));
        out.push_all(PieceType::King, k, safe, false);
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
    let pushed = pawns.and_not(pinned).forward(us) & board_target;
    let back: i8 = match us {
        Color::Black => 1,
        Color::White => -1,
    };
    let pawn_from = |to: Square| Square::from_index_unchecked((to.index() as i8 + back) as u8);
    let (zone, last) = (out.zone, out.last);
    let (mut promoting, mut staying) = (pushed & zone, pushed.and_not(last));
    if G == CHECKS {
        // A pawn push stays on its file, so a shielding pawn uncovers a check unless the king
        // is on that file too.
        let uncovering = (pawns & checks.shields)
            .and_not(Bitboard::file(checks.king.file()))
            .forward(us);
        promoting &= checks.direct[PieceType::ProPawn.index()] | uncovering;
        staying &= checks.direct[PieceType::Pawn.index()] | uncovering;
    }
    for to in out_filter::<G>(promoting, enemy, true) {
        out.list.push(Move::normal(pawn_from(to), to, true));
    }
    for to in out_filter::<G>(staying, enemy, false) {
        out.list.push(Move::normal(pawn_from(to), to, false));
    }

    let mut moves_of = |pt: PieceType, pieces: Bitboard| {
        // A stepping piece too far from the enemy king checks only by uncovering a slider.
        let pieces = if G == CHECKS {
            pieces & (attacks::check_sources(us, pt, checks.king) | checks.shields)
        } else {
            pieces
        };
        piece_moves(pos, &mut out, pt, pieces, board_target, pinned, king);
    };
    // One call per kind rather than a loop over kinds: with the kind a constant at each call,
    // `attacks` and the promotion split are specialised (a loop measured 5-7% more instructions).
    moves_of(PieceType::Pawn, pawns & pinned);
    moves_of(PieceType::Lance, pos.pieces(us, PieceType::Lance));
    moves_of(PieceType::Knight, pos.pieces(us, PieceType::Knight));
    moves_of(PieceType::Silver, pos.pieces(us, PieceType::Silver));
    moves_of(PieceType::Gold, pos.golds() & own);
    moves_of(PieceType::Bishop, pos.pieces(us, PieceType::Bishop));
    moves_of(PieceType::Rook, pos.pieces(us, PieceType::Rook));
    moves_of(PieceType::Horse, pos.pieces(us, PieceType::Horse));
    moves_of(PieceType::Dragon, pos.pieces(us, PieceType::Dragon));

    if G != CAPTURES_PROMOTIONS {
        generate_drops::<G>(pos, out.list, drop_target, checks);
    }
}

/// The targets of generator kind `G` among `targets`, for promoting or non-promoting moves.
#[inline(always)]
fn out_filter<const G: u8>(targets: Bitboard, enemy: Bitboard, promote: bool) -> Bitboard {
    match G {
        CAPTURES_PROMOTIONS if !promote => targets & enemy,
        QUIETS if promote => Bitboard::EMPTY,
        QUIETS => targets.and_not(enemy),
        _ => targets,
    }
}

/// The kinds other than the pawn in the order their drops are generated on each square.
const DROP_ORDER: [PieceType; 6] = [
    PieceType::Lance,
    PieceType::Knight,
    PieceType::Silver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
];

/// Drops onto `targets` (empty squares, or the blocking squares of a check); for the check
/// generator, only those that check.
fn generate_drops<const G: u8>(
    pos: &Position,
    list: &mut MoveList,
    targets: Bitboard,
    checks: &CheckTargets,
) {
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
        if G == CHECKS {
            pawn_targets &= checks.direct[PieceType::Pawn.index()];
        }
        // Uchifuzume: a pawn drop that checks must not mate.
        if let Some(ek) = pos.king_square(!us) {
            let check_square = attacks::pawn_attacks(!us, ek);
            if let Some(sq) = (pawn_targets & check_square).single() {
                if pos.is_pawn_drop_mate(sq) {
                    pawn_targets = pawn_targets.without(sq);
                }
            }
        }
        list.push_targets(
            Move::drop(PieceType::Pawn, Square::from_index_unchecked(0)).raw(),
            pawn_targets,
        );
    }
    if !hand.has_except_pawns() {
        return;
    }

    // The other kinds, grouped by where they may land: every square but the last two ranks
    // (all kinds), the second-last rank (no knight), the last rank (no lance or knight).
    let mut far = [0u16; 8];
    let mut near = [0u16; 8];
    let (mut nf, mut nn) = (0, 0);
    let mut last_rank = [0u16; 8];
    let mut nl = 0;
    if G == CHECKS {
        push_checking_drops(list, hand, targets, checks, [last_two, last]);
        return;
    }
    for pt in DROP_ORDER {
        if !hand.has(pt) {
            continue;
        }
        let t = Move::drop(pt, Square::from_index_unchecked(0)).raw();
        far[nf] = t;
        nf += 1;
        if pt != PieceType::Knight {
            near[nn] = t;
            nn += 1;
            if pt != PieceType::Lance {
                last_rank[nl] = t;
                nl += 1;
            }
        }
    }
    list.push_drops(&far, nf, targets.and_not(last_two));
    if nn > 0 {
        list.push_drops(&near, nn, (targets & last_two).and_not(last));
    }
    if nl > 0 {
        list.push_drops(&last_rank, nl, targets & last);
    }
}

/// The checking drops other than a pawn's, in the order of `generate_drops`: square by square,
/// first every square off the last two ranks, then those of the second-last rank, then those of
/// the last, and on each square the kinds that check from there, lance first. Squares where no
/// kind in hand checks are never visited.
#[inline(always)]
fn push_checking_drops(
    list: &mut MoveList,
    hand: crate::types::Hand,
    targets: Bitboard,
    checks: &CheckTargets,
    [last_two, last]: [Bitboard; 2],
) {
    let mut checking = Bitboard::EMPTY;
    for pt in DROP_ORDER {
        if hand.has(pt) {
            checking |= checks.direct[pt.index()];
        }
    }
    let checking = checking & targets;
    // Dead drops: no knight on the last two ranks, no lance on the last.
    let groups = [
        (checking.and_not(last_two), None, None),
        (
            (checking & last_two).and_not(last),
            Some(PieceType::Knight),
            None,
        ),
        (
            checking & last,
            Some(PieceType::Knight),
            Some(PieceType::Lance),
        ),
    ];
    for (squares, dead, dead_too) in groups {
        if squares.is_empty() {
            continue;
        }
        let mut kinds = [PieceType::Lance; 6];
        let mut n = 0;
        for pt in DROP_ORDER {
            if hand.has(pt) && Some(pt) != dead && Some(pt) != dead_too {
                kinds[n] = pt;
                n += 1;
            }
        }
        for to in squares {
            for &pt in &kinds[..n] {
                if checks.direct[pt.index()].contains(to) {
                    list.push(Move::drop(pt, to));
                }
            }
        }
    }
}
