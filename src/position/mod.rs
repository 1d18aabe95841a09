//! The board state: pieces, hands, side to move, and the per-ply state that `do_move` pushes and
//! `undo_move` pops (keys, checkers, blockers, repetition counters).

mod entering;
mod repetition;
mod setup;
mod sfen;

pub use entering::{try_square, EnteringKingRule};
pub use repetition::{Repetition, Sennichite};
pub use sfen::{board_to_sfen, hands_to_sfen, SfenError, HANDICAPS, STARTPOS};

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, Hand, Move, Piece, PieceType, Square};
use crate::zobrist;

/// What changes with every move and is restored by `undo_move` by popping it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    /// Zobrist key of the board and side to move.
    pub board_key: u64,
    /// Sum of the hand keys of both sides.
    pub hand_key: u64,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// `blockers[c]`: pieces of either colour that alone stand between `c`'s king and an enemy
    /// slider. Those of colour `c` are pinned; those of the other colour give discovered check
    /// when they move off the line.
    pub blockers: [Bitboard; 2],
    /// The piece the last move captured.
    pub captured: Option<Piece>,
    /// The move that led here (`None` at the root and after a null move).
    pub last_move: Option<Move>,
    /// Hands at this position (for superior/inferior repetition).
    pub hands: [Hand; 2],
    /// For each colour, how many of its moves in a row, up to this position, gave check.
    pub continuous_checks: [u16; 2],
    /// Plies since the start or the last null move: repetition looks back no further.
    pub plies_from_null: u16,
}

/// A shogi position with its move history.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_type: [Bitboard; PieceType::NUM],
    /// Unions of kinds that attack alike, kept up to date by `put_piece`/`remove_piece` because
    /// attack tests read them constantly: see [`GROUPS`].
    groups: [Bitboard; 4],
    hands: [Hand; 2],
    side: Color,
    /// The SFEN move number: 1 at the start of a game, plus one per ply.
    game_ply: u32,
    kings: [Option<Square>; 2],
    st: StateInfo,
    history: Vec<StateInfo>,
}

/// Group indices into `Position::groups`.
const GOLDS: usize = 0;
const KING_STEPPERS: usize = 1;
const BISHOPS_HORSES: usize = 2;
const ROOKS_DRAGONS: usize = 3;

/// `GROUPS[pt][g]` is all ones when kind `pt` belongs to group `g`, so a board edit updates the
/// groups without branches.
const GROUPS: [[u128; 4]; PieceType::NUM] = {
    let mut t = [[0u128; 4]; PieceType::NUM];
    let all = u128::MAX;
    t[PieceType::Gold as usize][GOLDS] = all;
    t[PieceType::ProPawn as usize][GOLDS] = all;
    t[PieceType::ProLance as usize][GOLDS] = all;
    t[PieceType::ProKnight as usize][GOLDS] = all;
    t[PieceType::ProSilver as usize][GOLDS] = all;
    t[PieceType::King as usize][KING_STEPPERS] = all;
    t[PieceType::Horse as usize][KING_STEPPERS] = all;
    t[PieceType::Dragon as usize][KING_STEPPERS] = all;
    t[PieceType::Bishop as usize][BISHOPS_HORSES] = all;
    t[PieceType::Horse as usize][BISHOPS_HORSES] = all;
    t[PieceType::Rook as usize][ROOKS_DRAGONS] = all;
    t[PieceType::Dragon as usize][ROOKS_DRAGONS] = all;
    t
};

impl PartialEq for Position {
    /// Whole-state equality, history included: `undo_move` must restore exactly this.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.by_color == other.by_color
            && self.by_type == other.by_type
            && self.groups == other.groups
            && self.hands == other.hands
            && self.side == other.side
            && self.game_ply == other.game_ply
            && self.kings == other.kings
            && self.st == other.st
            && self.history == other.history
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    fn empty() -> Position {
        Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_type: [Bitboard::EMPTY; PieceType::NUM],
            groups: [Bitboard::EMPTY; 4],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            game_ply: 1,
            kings: [None; 2],
            st: StateInfo {
                board_key: 0,
                hand_key: 0,
                checkers: Bitboard::EMPTY,
                blockers: [Bitboard::EMPTY; 2],
                captured: None,
                last_move: None,
                hands: [Hand::EMPTY; 2],
                continuous_checks: [0; 2],
                plies_from_null: 0,
            },
            history: Vec::with_capacity(512),
        }
    }

    /// The even-game start position.
    pub fn startpos() -> Position {
        Position::from_sfen(STARTPOS).expect("the start position parses")
    }

    // ---------------------------------------------------------------- accessors

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.kings[c.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()] & self.by_color[c.index()]
    }

    /// Every piece that moves like a gold: gold and the four promoted minor pieces.
    #[inline(always)]
    pub fn golds(&self) -> Bitboard {
        self.groups[GOLDS]
    }

    /// Pieces that step one square in every direction: king, horse and dragon.
    #[inline(always)]
    pub fn king_steppers(&self) -> Bitboard {
        self.groups[KING_STEPPERS]
    }

    #[inline(always)]
    pub fn bishops_horses(&self) -> Bitboard {
        self.groups[BISHOPS_HORSES]
    }

    #[inline(always)]
    pub fn rooks_dragons(&self) -> Bitboard {
        self.groups[ROOKS_DRAGONS]
    }

    /// The SFEN move number.
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// The full Zobrist key: board, side to move and hands.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.board_key ^ self.st.hand_key
    }

    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.st.board_key
    }

    #[inline(always)]
    pub fn state(&self) -> &StateInfo {
        &self.st
    }

    /// The states before the current one, oldest first.
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// The moves played since the position was set up, oldest first (null moves left out):
    /// the line from the position as set up to this one.
    pub fn moves_played(&self) -> Vec<Move> {
        self.history
            .iter()
            .skip(1)
            .chain(std::iter::once(&self.st))
            .filter_map(|s| s.last_move)
            .collect()
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.is_nonempty()
    }

    /// Pieces of the side to move that may not leave the line to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.st.blockers[self.side.index()] & self.by_color[self.side.index()]
    }

    #[inline(always)]
    pub fn blockers(&self, king_color: Color) -> Bitboard {
        self.st.blockers[king_color.index()]
    }

    pub fn last_move(&self) -> Option<Move> {
        self.st.last_move
    }

    pub fn captured_piece(&self) -> Option<Piece> {
        self.st.captured
    }

    // ---------------------------------------------------------------- attacks

    /// Pieces of colour `c` that attack `sq`, with `occ` as the occupancy for sliders.
    #[inline]
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        // Every step pattern is its own mirror image, so the pieces of `c` attacking `sq` stand
        // on the squares that a piece of the other colour on `sq` would attack.
        let them = !c;
        let t = &self.by_type;
        let attackers = (attacks::pawn_attacks(them, sq) & t[PieceType::Pawn.index()])
            | (attacks::knight_attacks(them, sq) & t[PieceType::Knight.index()])
            | (attacks::silver_attacks(them, sq) & t[PieceType::Silver.index()])
            | (attacks::gold_attacks(them, sq) & self.golds())
            | (attacks::king_attacks(sq) & self.king_steppers())
            | (attacks::lance_attacks(them, sq, occ) & t[PieceType::Lance.index()])
            | (attacks::bishop_attacks(sq, occ) & self.bishops_horses())
            | (attacks::rook_attacks(sq, occ) & self.rooks_dragons());
        attackers & self.by_color[c.index()]
    }

    /// The squares of `targets`, all next to `centre`, that `by` attacks given the occupancy
    /// `occ`: [`Position::is_attacked`] for each, found piece by piece, since the pieces that
    /// can reach a king's flight squares are few (the sliders, and the steppers within a
    /// knight's jump of those squares).
    #[inline]
    pub fn attacked_near(
        &self,
        by: Color,
        centre: Square,
        targets: Bitboard,
        occ: Bitboard,
    ) -> Bitboard {
        debug_assert!(targets.and_not(attacks::king_attacks(centre)).is_empty());
        let own = self.by_color[by.index()];
        let near = own & attacks::near_box(centre);
        let t = &self.by_type;
        // The steppers kind by kind, so no piece's kind need be looked up. A pawn never stands
        // on its last rank, so one shift moves them all a square forward.
        let mut attacked = (t[PieceType::Pawn.index()] & near).forward(by);
        for sq in self.golds() & near {
            attacked |= attacks::gold_attacks(by, sq);
        }
        for sq in t[PieceType::Silver.index()] & near {
            attacked |= attacks::silver_attacks(by, sq);
        }
        for sq in self.king_steppers() & near {
            attacked |= attacks::king_attacks(sq);
        }
        for sq in t[PieceType::Knight.index()] & near {
            attacked |= attacks::knight_attacks(by, sq);
        }
        if targets.and_not(attacked).is_empty() {
            return targets;
        }
        for sq in t[PieceType::Lance.index()] & own {
            attacked |= attacks::lance_attacks(by, sq, occ);
        }
        for sq in self.bishops_horses() & own {
            attacked |= attacks::bishop_attacks(sq, occ);
        }
        for sq in self.rooks_dragons() & own {
            attacked |= attacks::rook_attacks(sq, occ);
        }
        targets & attacked
    }

    /// The pieces of both sides that attack `sq`: [`Position::attackers_to`] for each colour,
    /// with the sliding lookups made once.
    pub fn attackers_to_either(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let t = &self.by_type;
        let steppers_of = |c: Color| {
            let them = !c;
            ((attacks::pawn_attacks(them, sq) & t[PieceType::Pawn.index()])
                | (attacks::knight_attacks(them, sq) & t[PieceType::Knight.index()])
                | (attacks::silver_attacks(them, sq) & t[PieceType::Silver.index()])
                | (attacks::gold_attacks(them, sq) & self.golds())
                | (attacks::lance_attacks(them, sq, occ) & t[PieceType::Lance.index()]))
                & self.by_color[c.index()]
        };
        steppers_of(Color::Black)
            | steppers_of(Color::White)
            | (attacks::king_attacks(sq) & self.king_steppers())
            | (attacks::bishop_attacks(sq, occ) & self.bishops_horses())
            | (attacks::rook_attacks(sq, occ) & self.rooks_dragons())
    }

    #[inline]
    pub fn is_attacked(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        let them = !by;
        let t = &self.by_type;
        let own = self.by_color[by.index()];
        let steppers = (attacks::pawn_attacks(them, sq) & t[PieceType::Pawn.index()])
            | (attacks::knight_attacks(them, sq) & t[PieceType::Knight.index()])
            | (attacks::silver_attacks(them, sq) & t[PieceType::Silver.index()])
            | (attacks::gold_attacks(them, sq) & self.golds())
            | (attacks::king_attacks(sq) & self.king_steppers());
        if (steppers & own).is_nonempty() {
            return true;
        }
        // Sliders: look up the blocked attacks only when a slider stands on an open line
        // through the square, which is rare; the empty-board rays are one load each.
        let lances = t[PieceType::Lance.index()] & own;
        let bishops = self.bishops_horses() & own;
        let rooks = self.rooks_dragons() & own;
        ((attacks::lance_step_ray(them, sq) & lances).is_nonempty()
            && (attacks::lance_attacks(them, sq, occ) & lances).is_nonempty())
            || ((attacks::bishop_step_ray(sq) & bishops).is_nonempty()
                && (attacks::bishop_attacks(sq, occ) & bishops).is_nonempty())
            || ((attacks::rook_step_ray(sq) & rooks).is_nonempty()
                && (attacks::rook_attacks(sq, occ) & rooks).is_nonempty())
    }

    /// Pieces that alone stand between the king of `c` on `ksq` and an enemy slider.
    fn slider_blockers(&self, c: Color, ksq: Square) -> Bitboard {
        let snipers = ((attacks::rook_step_ray(ksq) & self.rooks_dragons())
            | (attacks::bishop_step_ray(ksq) & self.bishops_horses())
            | (attacks::lance_step_ray(c, ksq) & self.by_type[PieceType::Lance.index()]))
            & self.by_color[(!c).index()];
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(ksq, s) & occ;
            if b.is_nonempty() && !b.has_more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// [`Position::update_check_info`] after the move `m` of the side that just moved. Its
    /// checks are found from the move alone: before it, the side now to move was not in check
    /// (a position with the side not to move in check is refused), so a check comes from the
    /// moved piece or from a line it opened by leaving a square between the king and a slider
    /// (a drop opens none). The same answer as [`Position::attackers_to`] on the king, for a
    /// fraction of the lookups, on every move the searches make.
    fn update_check_info_after(&mut self, m: Move) {
        let them = self.side;
        let us = !them;
        let blockers_before = self.st.blockers[them.index()];
        self.update_blockers();
        let Some(k) = self.kings[them.index()] else {
            self.st.checkers = Bitboard::EMPTY;
            return;
        };
        let occ = self.occupied();
        let to = m.to();
        let mut checkers = Bitboard::EMPTY;
        if let Some(moved) = self.board[to.index()] {
            if attacks::attacks(us, moved.piece_type(), to, occ).contains(k) {
                checkers = checkers.with(to);
            }
        }
        let line = if m.is_drop() {
            Bitboard::EMPTY
        } else {
            attacks::line(k, m.from())
        };
        if !m.is_drop() && blockers_before.contains(m.from()) && !line.contains(to) {
            let own = self.by_color[us.index()];
            let sliders = (attacks::rook_attacks(k, occ) & self.rooks_dragons())
                | (attacks::bishop_attacks(k, occ) & self.bishops_horses())
                | (attacks::lance_attacks(them, k, occ) & self.by_type[PieceType::Lance.index()]);
            checkers |= sliders & own & line;
        }
        debug_assert_eq!(checkers, self.attackers_to(us, k, occ));
        self.st.checkers = checkers;
    }

    /// Recomputes checkers and blockers after the board changed.
    fn update_check_info(&mut self) {
        let us = self.side;
        self.st.checkers = match self.kings[us.index()] {
            Some(k) => self.attackers_to(!us, k, self.occupied()),
            None => Bitboard::EMPTY,
        };
        self.update_blockers();
    }

    /// Recomputes both kings' blockers (see [`StateInfo::blockers`]).
    fn update_blockers(&mut self) {
        for c in Color::ALL {
            self.st.blockers[c.index()] = match self.kings[c.index()] {
                Some(k) => self.slider_blockers(c, k),
                None => Bitboard::EMPTY,
            };
        }
    }

    // ---------------------------------------------------------------- board edits

    #[inline(always)]
    fn put_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.toggle_piece(piece, sq);
    }

    #[inline(always)]
    fn toggle_piece(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        let pt = piece.piece_type().index();
        self.by_color[piece.color().index()] ^= b;
        self.by_type[pt] ^= b;
        for (group, mask) in self.groups.iter_mut().zip(GROUPS[pt]) {
            *group ^= Bitboard(b.0 & mask);
        }
    }

    #[inline(always)]
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.toggle_piece(piece, sq);
    }

    // ---------------------------------------------------------------- making moves

    /// The board key after `m` (a legal move), without playing it: the mate solver uses it to
    /// start loading the table entries of a node's children before it visits them.
    pub fn board_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let mut key = self.st.board_key ^ zobrist::SIDE;
        let to = m.to();
        if m.is_drop() {
            return key ^ zobrist::piece_square(Piece::new(us, m.dropped()), to);
        }
        let from = m.from();
        let Some(piece) = self.board[from.index()] else {
            return key;
        };
        if let Some(captured) = self.board[to.index()] {
            key ^= zobrist::piece_square(captured, to);
        }
        let moved = if m.is_promotion() {
            Piece::new(us, piece.piece_type().promote())
        } else {
            piece
        };
        key ^ zobrist::piece_square(piece, from) ^ zobrist::piece_square(moved, to)
    }

    /// The full key (board, side to move and hands) after `m` (a legal move), without playing
    /// it: the mate solver looks a node's children up in its table and on its path by these
    /// keys, and plays only the moves whose child it must examine.
    pub fn key_after(&self, m: Move) -> u64 {
        self.board_key_after(m) ^ self.hand_key_after(m)
    }

    /// The hands' part of the full key after `m` (a legal move): the full key is the board key
    /// XOR this, so a caller that has the board key already need not compute it again.
    pub fn hand_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let hand_key = self.st.hand_key;
        if m.is_drop() {
            hand_key.wrapping_sub(zobrist::hand(us, m.dropped()))
        } else if let Some(captured) = self.board[m.to().index()] {
            let pt = captured.piece_type().unpromote();
            hand_key.wrapping_add(zobrist::hand(us, pt))
        } else {
            hand_key
        }
    }

    /// Plays a legal move. The move must come from the generator or have passed
    /// [`is_legal`](Self::is_legal).
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let them = !us;
        self.history.push(self.st);
        let mut board_key = self.st.board_key ^ zobrist::SIDE;
        let mut hand_key = self.st.hand_key;
        let to = m.to();
        let mut captured = None;
        if m.is_drop() {
            let pt = m.dropped();
            let piece = Piece::new(us, pt);
            self.hands[us.index()].remove(pt);
            hand_key = hand_key.wrapping_sub(zobrist::hand(us, pt));
            self.put_piece(piece, to);
            board_key ^= zobrist::piece_square(piece, to);
        } else {
            let from = m.from();
            let piece = self.board[from.index()].expect("do_move: no piece on the origin square");
            debug_assert_eq!(piece.color(), us);
            if let Some(cap) = self.board[to.index()] {
                debug_assert_eq!(cap.color(), them);
                debug_assert_ne!(cap.piece_type(), PieceType::King);
                let pt = cap.piece_type().unpromote();
                self.remove_piece(cap, to);
                board_key ^= zobrist::piece_square(cap, to);
                self.hands[us.index()].add(pt);
                hand_key = hand_key.wrapping_add(zobrist::hand(us, pt));
                captured = Some(cap);
            }
            self.remove_piece(piece, from);
            board_key ^= zobrist::piece_square(piece, from);
            let moved = if m.is_promotion() {
                Piece::new(us, piece.piece_type().promote())
            } else {
                piece
            };
            self.put_piece(moved, to);
            board_key ^= zobrist::piece_square(moved, to);
            if moved.piece_type() == PieceType::King {
                self.kings[us.index()] = Some(to);
            }
        }
        self.side = them;
        self.game_ply += 1;
        self.st.board_key = board_key;
        self.st.hand_key = hand_key;
        self.st.captured = captured;
        self.st.last_move = Some(m);
        self.st.hands = self.hands;
        self.st.plies_from_null = self.st.plies_from_null.saturating_add(1);
        self.update_check_info_after(m);
        self.st.continuous_checks[us.index()] = if self.st.checkers.is_nonempty() {
            self.st.continuous_checks[us.index()].saturating_add(1)
        } else {
            0
        };
    }

    /// Takes back `m`, which must be the last move played.
    pub fn undo_move(&mut self, m: Move) {
        let them = self.side;
        let us = !them;
        let to = m.to();
        let captured = self.st.captured;
        if m.is_drop() {
            let pt = m.dropped();
            self.remove_piece(Piece::new(us, pt), to);
            self.hands[us.index()].add(pt);
        } else {
            let from = m.from();
            let moved = self.board[to.index()].expect("undo_move: no piece on the target square");
            self.remove_piece(moved, to);
            let piece = if m.is_promotion() {
                Piece::new(us, moved.piece_type().unpromote())
            } else {
                moved
            };
            self.put_piece(piece, from);
            if piece.piece_type() == PieceType::King {
                self.kings[us.index()] = Some(from);
            }
            if let Some(cap) = captured {
                self.put_piece(cap, to);
                self.hands[us.index()].remove(cap.piece_type().unpromote());
            }
        }
        self.side = us;
        self.game_ply -= 1;
        self.st = self
            .history
            .pop()
            .expect("undo_move without a move to undo");
    }

    /// Passes the turn (for null-move pruning). The side to move must not be in check.
    pub fn do_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(self.st);
        self.st.board_key ^= zobrist::SIDE;
        self.st.captured = None;
        self.st.last_move = None;
        self.st.plies_from_null = 0;
        self.side = !self.side;
        self.game_ply += 1;
        // No piece moved, so blockers stand; the new side to move cannot be in check.
        self.st.checkers = Bitboard::EMPTY;
    }

    pub fn undo_null_move(&mut self) {
        self.side = !self.side;
        self.game_ply -= 1;
        self.st = self
            .history
            .pop()
            .expect("undo_null_move without a null move");
    }

    // ---------------------------------------------------------------- move properties

    /// Whether a promotion would be forced for a piece of kind `pt` arriving on `to`: a pawn or
    /// lance on the last rank, a knight on the last two (it could never move again).
    #[inline(always)]
    pub fn must_promote(color: Color, pt: PieceType, to: Square) -> bool {
        match pt {
            PieceType::Pawn | PieceType::Lance => to.relative_rank(color) == 0,
            PieceType::Knight => to.relative_rank(color) < 2,
            _ => false,
        }
    }

    /// Whether a legal move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.kings[(!us).index()] else {
            return false;
        };
        let to = m.to();
        if m.is_drop() {
            return attacks::attacks(us, m.dropped(), to, self.occupied()).contains(ksq);
        }
        let from = m.from();
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        let pt = if m.is_promotion() {
            piece.piece_type().promote()
        } else {
            piece.piece_type()
        };
        let occ = self.occupied().without(from).with(to);
        if attacks::attacks(us, pt, to, occ).contains(ksq) {
            return true;
        }
        // Discovered check: a piece of ours shielding their king steps off the line.
        self.st.blockers[(!us).index()].contains(from) && !attacks::aligned(ksq, from, to)
    }

    /// Whether `m` is legal here. For moves from outside the generator: a transposition table,
    /// a book, the USI `position` command.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side;
        let them = !us;
        let to = m.to();
        let own = self.by_color[us.index()];
        let ksq = self.kings[us.index()];
        if m.is_drop() {
            let pt = m.dropped();
            // A hand never holds a promoted piece or a king, so a drop of one (which a record
            // reader may build from bad input) fails here.
            if !self.hands[us.index()].has(pt) || self.board[to.index()].is_some() {
                return false;
            }
            // Dead drops: a piece that could never move again.
            if Position::must_promote(us, pt, to) {
                return false;
            }
            // Nifu: no second unpromoted pawn on a file.
            if pt == PieceType::Pawn
                && (self.pieces(us, PieceType::Pawn) & Bitboard::file(to.file())).is_nonempty()
            {
                return false;
            }
            if let Some(k) = ksq {
                let checkers = self.st.checkers;
                if checkers.has_more_than_one() {
                    return false;
                }
                if checkers.is_nonempty() && !attacks::between(k, checkers.lsb()).contains(to) {
                    return false;
                }
            }
            // Uchifuzume: a pawn drop may check but not mate.
            if pt == PieceType::Pawn {
                if let Some(ek) = self.kings[them.index()] {
                    if attacks::pawn_attacks(us, to).contains(ek) && self.is_pawn_drop_mate(to) {
                        return false;
                    }
                }
            }
            return true;
        }
        let from = m.from();
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        if piece.color() != us || own.contains(to) {
            return false;
        }
        let pt = piece.piece_type();
        if !attacks::attacks(us, pt, from, self.occupied()).contains(to) {
            return false;
        }
        if m.is_promotion() {
            let zone = Bitboard::promotion_zone(us);
            if !pt.can_promote() || !(zone.contains(from) || zone.contains(to)) {
                return false;
            }
        } else if Position::must_promote(us, pt, to) {
            return false;
        }
        if self.board[to.index()].map(|p| p.piece_type()) == Some(PieceType::King) {
            // Only reachable from a position where the side not to move is in check, which
            // from_sfen rejects; never capture a king.
            return false;
        }
        let Some(k) = ksq else {
            return true;
        };
        if pt == PieceType::King {
            return !self.is_attacked(them, to, self.occupied().without(from));
        }
        let checkers = self.st.checkers;
        if checkers.is_nonempty() {
            if checkers.has_more_than_one() {
                return false;
            }
            let c = checkers.lsb();
            if to != c && !attacks::between(k, c).contains(to) {
                return false;
            }
        }
        !self.pinned().contains(from) || attacks::aligned(k, from, to)
    }

    /// Whether dropping a pawn of the side to move on `to`, which checks the enemy king, would
    /// mate it (the uchifuzume test). Checks the three ways out of a pawn check: the king takes
    /// the pawn, another piece takes it, or the king steps away. A pawn check is adjacent, so it
    /// cannot be blocked.
    pub fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let Some(ek) = self.kings[them.index()] else {
            return false;
        };
        let occ = self.occupied().with(to);
        // The king takes the pawn unless we defend it.
        // The king's own square is empty once it moves, so a slider behind it counts.
        if !self.is_attacked(us, to, occ.without(ek)) {
            return false;
        }
        // Another piece takes it unless that piece is pinned to its king off this square.
        let takers = self.attackers_to(them, to, occ).without(ek);
        if takers.is_nonempty() {
            // Pins as they stand with the pawn on the board.
            let mut with_pawn = self.clone_board_only();
            with_pawn.put_piece(Piece::new(us, PieceType::Pawn), to);
            let pinned = with_pawn.slider_blockers(them, ek) & self.by_color[them.index()];
            for t in takers {
                if !pinned.contains(t) || attacks::aligned(ek, t, to) {
                    return false;
                }
            }
        }
        // The king steps to a square we do not attack.
        let occ_without_king = occ.without(ek);
        let escapes =
            attacks::king_attacks(ek) & !self.by_color[them.index()] & !Bitboard::from_square(to);
        for e in escapes {
            if !self.is_attacked(us, e, occ_without_king) {
                return false;
            }
        }
        true
    }

    /// A copy of the board without the history, for hypothetical edits.
    fn clone_board_only(&self) -> Position {
        Position {
            board: self.board,
            by_color: self.by_color,
            by_type: self.by_type,
            groups: self.groups,
            hands: self.hands,
            side: self.side,
            game_ply: self.game_ply,
            kings: self.kings,
            st: self.st,
            history: Vec::new(),
        }
    }

    // ---------------------------------------------------------------- USI moves

    /// Parses USI move text and checks that the move is legal here.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, String> {
        let m = parse_move_syntax(text).ok_or_else(|| format!("malformed move '{text}'"))?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(format!("illegal move '{text}' in {}", self.to_sfen()))
        }
    }

    // ---------------------------------------------------------------- checking

    /// Recomputes every key and cached set from scratch and compares: for tests and debugging.
    pub fn is_consistent(&self) -> Result<(), String> {
        let (board_key, hand_key) = self.compute_keys();
        if board_key != self.st.board_key || hand_key != self.st.hand_key {
            return Err("incremental key differs from a fresh one".into());
        }
        let mut fresh = self.clone_board_only();
        fresh.update_check_info();
        if fresh.st.checkers != self.st.checkers || fresh.st.blockers != self.st.blockers {
            return Err("checkers or blockers differ from fresh ones".into());
        }
        if self.st.hands != self.hands {
            return Err("state hands differ".into());
        }
        let mut groups = [Bitboard::EMPTY; 4];
        for pt in PieceType::ALL {
            for (g, mask) in groups.iter_mut().zip(GROUPS[pt.index()]) {
                *g |= Bitboard(self.by_type[pt.index()].0 & mask);
            }
        }
        if groups != self.groups {
            return Err("piece groups differ from the piece bitboards".into());
        }
        for sq in Square::all() {
            let b = Bitboard::from_square(sq);
            match self.board[sq.index()] {
                Some(p) => {
                    if !(self.by_color[p.color().index()] & self.by_type[p.piece_type().index()])
                        .contains(sq)
                    {
                        return Err(format!("bitboards miss {p:?} on {sq}"));
                    }
                }
                None => {
                    if (self.occupied() & b).is_nonempty() {
                        return Err(format!("bitboards have a piece on empty {sq}"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The keys of the current board and hands, computed from nothing.
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut board_key = if self.side == Color::White {
            zobrist::SIDE
        } else {
            0
        };
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                board_key ^= zobrist::piece_square(p, sq);
            }
        }
        let mut hand_key = 0u64;
        for c in Color::ALL {
            for pt in PieceType::HAND {
                let n = self.hands[c.index()].count(pt) as u64;
                hand_key = hand_key.wrapping_add(zobrist::hand(c, pt).wrapping_mul(n));
            }
        }
        (board_key, hand_key)
    }
}

/// Parses the shape of a USI move (`7g7f`, `8h2b+`, `P*5e`) without looking at a position.
pub fn parse_move_syntax(text: &str) -> Option<Move> {
    let b = text.as_bytes();
    if b.len() == 4 && b[1] == b'*' {
        let pt = PieceType::from_letter(b[0] as char)?;
        if !b[0].is_ascii_uppercase() || !pt.is_hand_type() {
            return None;
        }
        return Some(Move::drop(pt, Square::from_usi(&text[2..4])?));
    }
    if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
        let from = Square::from_usi(text.get(0..2)?)?;
        let to = Square::from_usi(text.get(2..4)?)?;
        if from == to {
            return None;
        }
        return Some(Move::normal(from, to, b.len() == 5));
    }
    None
}
