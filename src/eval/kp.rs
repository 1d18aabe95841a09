//! King–piece tables: what each piece is worth where it stands, as seen from each king.
//!
//! The hand-written terms of this module's parent know that a gold beside its own king defends
//! and that a silver near the enemy king attacks, but only within a few squares and by a few
//! coarse distances. This table refines them with one learned number per (king square, piece,
//! square) and per (king square, piece in hand, count): a silver on 3h is worth more with the
//! king on 2h than with the king still on 5i, and a fourth pawn in the enemy's hand matters more
//! when our king has no cover. A second, smaller part values each piece by its offset from the
//! king, whatever the king's square. It is the "KP" half of the KPP tables of Bonanza-style
//! engines.
//!
//! Each king sees the board from its own side: the board is turned for White and mirrored so
//! the king stands on files 1 to 5 (shogi's rules are left–right symmetric), which leaves 45
//! king squares. Promoted pawns, lances, knights and silvers share the gold's row, since they
//! move alike. The numbers are centipawns, learned by `hayate learn` on positions scored by a
//! reference engine, on top of the hand-written evaluation, and built into the binary from
//! `kp.bin` (little-endian `i16`).

use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceType, Square};

/// King squares after turning and mirroring: files 1 to 5, all ranks.
pub const KING_SQUARES: usize = 45;
/// Board kinds seen from a king: nine of its own side (P L N S G B R +B +R, with promoted
/// minors as gold), the same nine of the enemy, and the enemy king.
const BOARD_KINDS: usize = 19;
/// "At least n in hand" for each kind and count, for each side: 18 pawns, 4 lances, knights,
/// silvers and golds, 2 bishops and rooks.
const HAND_FEATURES_PER_SIDE: usize = 38;
/// Features per king square.
pub const FEATURES: usize = BOARD_KINDS * 81 + 2 * HAND_FEATURES_PER_SIDE;
/// Where the board kinds stand relative to the king, whatever the king's square: file offset
/// -8..=8 (after mirroring; negative is towards file 1, the edge nearer the king) and rank
/// offset -8..=8 (negative is towards the enemy camp). Shared by all king squares, these
/// entries learn from every position and carry what the per-square entries see too rarely to
/// learn.
const RELATIVE: usize = BOARD_KINDS * 17 * 17;
/// Entries in the table: per king square, then the relative part.
pub const LEN: usize = KING_SQUARES * FEATURES + RELATIVE;

/// The table the engine plays with.
pub static TABLE: [i16; LEN] = decode(include_bytes!("kp.bin"));

const fn decode(bytes: &[u8]) -> [i16; LEN] {
    assert!(bytes.len() == 2 * LEN, "kp.bin has the wrong size");
    let mut t = [0i16; LEN];
    let mut i = 0;
    while i < LEN {
        t[i] = i16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]);
        i += 1;
    }
    t
}

/// Row of each piece type among one side's board kinds (the king has none of its own).
const fn board_row(pt: PieceType) -> usize {
    match pt {
        PieceType::Pawn => 0,
        PieceType::Lance => 1,
        PieceType::Knight => 2,
        PieceType::Silver => 3,
        PieceType::Gold
        | PieceType::ProPawn
        | PieceType::ProLance
        | PieceType::ProKnight
        | PieceType::ProSilver => 4,
        PieceType::Bishop => 5,
        PieceType::Rook => 6,
        PieceType::Horse => 7,
        PieceType::Dragon => 8,
        PieceType::King => 9,
    }
}

/// First "at least one in hand" feature of each hand kind, indexed by piece type.
const HAND_START: [usize; 8] = [0, 0, 18, 22, 26, 34, 36, 30];

/// Calls `f` with the table index of each entry active in `pos` as seen from the king `k` of
/// `c`, whose square has index `ki`.
#[inline(always)]
fn features(pos: &Position, c: Color, k: Square, ki: usize, mut f: impl FnMut(usize)) {
    let view = View::new(c, k, ki);
    for sq in pos.occupied() {
        if sq == k {
            continue;
        }
        let Some(p) = pos.piece_on(sq) else {
            continue;
        };
        for i in view.board(p, sq) {
            f(i);
        }
    }
    for (side, hand) in [(0, pos.hand(c)), (1, pos.hand(!c))] {
        for pt in PieceType::HAND {
            for n in 0..hand.count(pt) as usize {
                f(view.hand(side, pt, n));
            }
        }
    }
}

/// The king's square and its index (0..45) in the table, from `c`'s side.
#[inline(always)]
fn king_index(pos: &Position, c: Color) -> Option<(Square, usize)> {
    let k = pos.king_square(c)?;
    let ko = if c == Color::Black { k } else { k.flip() };
    let file = ko.file().min(8 - ko.file()) as usize;
    Some((k, file * 9 + ko.rank() as usize))
}

/// The table's value of `pos` from Black's point of view.
pub fn value_black(pos: &Position, table: &[i16]) -> i32 {
    perspective_sum(pos, Color::Black, table) - perspective_sum(pos, Color::White, table)
}

/// The table's sum from each king's side (`[Black's, White's]`), kept up to date move by move:
/// a move changes a few entries, unless the king itself moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    sums: [i32; 2],
}

impl Accumulator {
    /// Sums every entry of `pos`.
    pub fn new(pos: &Position) -> Accumulator {
        let mut sums = [0; 2];
        for c in Color::ALL {
            sums[c.index()] = perspective_sum(pos, c, &TABLE);
        }
        Accumulator { sums }
    }

    /// The table's value from Black's point of view, as `value_black` gives it.
    pub fn value_black(self) -> i32 {
        self.sums[0] - self.sums[1]
    }

    /// The accumulator after `m`, given `self` before it and `pos` after it.
    pub fn after(self, pos: &Position, m: Move) -> Accumulator {
        let Some(moved) = pos.piece_on(m.to()) else {
            return Accumulator::new(pos);
        };
        let us = moved.color();
        let mut sums = self.sums;
        for c in Color::ALL {
            let Some((k, ki)) = king_index(pos, c) else {
                continue;
            };
            if moved.piece_type() == PieceType::King && us == c {
                sums[c.index()] = perspective_sum(pos, c, &TABLE);
                continue;
            }
            let view = View::new(c, k, ki);
            let s = &mut sums[c.index()];
            let side = usize::from(us != c);
            if m.is_drop() {
                let after = pos.hand(us).count(m.dropped()) as usize;
                // The dropped piece was the (after + 1)-th in hand.
                *s -= TABLE[view.hand(side, m.dropped(), after)] as i32;
            } else {
                let before = if m.is_promotion() {
                    Piece::new(us, moved.piece_type().unpromote())
                } else {
                    moved
                };
                *s -= view.board_sum(before, m.from());
            }
            *s += view.board_sum(moved, m.to());
            if let Some(captured) = pos.captured_piece() {
                *s -= view.board_sum(captured, m.to());
                let kind = captured.piece_type().unpromote();
                let count = pos.hand(us).count(kind) as usize;
                *s += TABLE[view.hand(side, kind, count - 1)] as i32;
            }
        }
        Accumulator { sums }
    }
}

/// One king's view of the board: turned and mirrored squares and table indices.
struct View {
    c: Color,
    mirror: bool,
    kf: usize,
    kr: usize,
    row_start: usize,
}

impl View {
    #[inline(always)]
    fn new(c: Color, k: Square, ki: usize) -> View {
        let ko = if c == Color::Black { k } else { k.flip() };
        let mirror = ko.file() > 4;
        let mut v = View {
            c,
            mirror,
            kf: 0,
            kr: 0,
            row_start: ki * FEATURES,
        };
        (v.kf, v.kr) = v.place(k);
        v
    }

    #[inline(always)]
    fn place(&self, sq: Square) -> (usize, usize) {
        let s = if self.c == Color::Black {
            sq
        } else {
            sq.flip()
        };
        let file = if self.mirror { 8 - s.file() } else { s.file() };
        (file as usize, s.rank() as usize)
    }

    /// The two entries of `p` on `sq`: by square, and by offset from the king.
    #[inline(always)]
    fn board(&self, p: Piece, sq: Square) -> [usize; 2] {
        let row = board_row(p.piece_type()) + if p.color() == self.c { 0 } else { 9 };
        let (pf, pr) = self.place(sq);
        [
            self.row_start + row * 81 + pf * 9 + pr,
            KING_SQUARES * FEATURES + (row * 17 + pf + 8 - self.kf) * 17 + pr + 8 - self.kr,
        ]
    }

    fn board_sum(&self, p: Piece, sq: Square) -> i32 {
        self.board(p, sq).iter().map(|&i| TABLE[i] as i32).sum()
    }

    /// The entry "at least n + 1 of `pt` in hand" for side 0 (the king's own) or 1 (the enemy).
    #[inline(always)]
    fn hand(&self, side: usize, pt: PieceType, n: usize) -> usize {
        self.row_start
            + BOARD_KINDS * 81
            + side * HAND_FEATURES_PER_SIDE
            + HAND_START[pt.index()]
            + n
    }
}

/// The sum of `table`'s entries seen from `c`'s king (0 without one).
fn perspective_sum(pos: &Position, c: Color, table: &[i16]) -> i32 {
    let Some((k, ki)) = king_index(pos, c) else {
        return 0;
    };
    let mut s = 0;
    features(pos, c, k, ki, |i| s += table[i] as i32);
    s
}

/// Every active entry of the table in `pos`, with its sign (+1 counts for Black, -1 for
/// White): what the learner needs.
pub fn active(pos: &Position, out: &mut Vec<(u32, i8)>) {
    for c in Color::ALL {
        let Some((k, ki)) = king_index(pos, c) else {
            continue;
        };
        let sign = if c == Color::Black { 1 } else { -1 };
        features(pos, c, k, ki, |i| out.push((i as u32, sign)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accumulator_follows_every_kind_of_move() {
        use crate::movegen::{generate_legal, MoveList};
        let starts = [
            crate::position::STARTPOS,
            // Pieces in hand, promoted pieces, kings out in the open.
            "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
        ];
        let mut seed = 12345u64;
        let (mut drops, mut captures, mut promotions, mut king_moves) = (0, 0, 0, 0);
        for start in starts {
            for _ in 0..20 {
                let mut pos = Position::from_sfen(start).unwrap();
                let mut acc = Accumulator::new(&pos);
                for _ in 0..150 {
                    let mut list = MoveList::new();
                    generate_legal(&pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let m = list
                        .iter()
                        .copied()
                        .nth((seed >> 33) as usize % list.len())
                        .unwrap();
                    drops += usize::from(m.is_drop());
                    promotions += usize::from(m.is_promotion());
                    if !m.is_drop() {
                        captures += usize::from(pos.piece_on(m.to()).is_some());
                        king_moves += usize::from(
                            pos.piece_on(m.from()).map(|p| p.piece_type()) == Some(PieceType::King),
                        );
                    }
                    pos.do_move(m);
                    acc = acc.after(&pos, m);
                    assert_eq!(acc, Accumulator::new(&pos), "after {m} in {pos:?}");
                    assert_eq!(acc.value_black(), value_black(&pos, &TABLE));
                }
            }
        }
        assert!(drops > 100 && captures > 100 && promotions > 20 && king_moves > 50);
    }

    #[test]
    fn the_start_position_is_balanced() {
        let p = Position::startpos();
        assert_eq!(value_black(&p, &TABLE), 0);
    }

    /// The position turned half a circle with the colours swapped: the same game from the
    /// other side of the board.
    fn turned(sfen: &str) -> String {
        let f: Vec<&str> = sfen.split(' ').collect();
        let swap = |ch: char| {
            if ch.is_ascii_uppercase() {
                ch.to_ascii_lowercase()
            } else {
                ch.to_ascii_uppercase()
            }
        };
        let rows: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|row| {
                // Cells of the row ('+' stays with its piece), reversed.
                let mut cells: Vec<String> = Vec::new();
                let mut plus = false;
                for ch in row.chars() {
                    if ch == '+' {
                        plus = true;
                    } else if ch.is_ascii_digit() {
                        cells.push(ch.to_string());
                    } else {
                        let p = if plus { "+" } else { "" };
                        cells.push(format!("{p}{}", swap(ch)));
                        plus = false;
                    }
                }
                cells.reverse();
                cells.concat()
            })
            .collect();
        let side = if f[1] == "b" { "w" } else { "b" };
        let hand: String = if f[2] == "-" {
            "-".into()
        } else {
            f[2].chars().map(swap).collect()
        };
        format!("{} {side} {hand} {}", rows.join("/"), f[3])
    }

    #[test]
    fn a_position_turned_round_with_colours_swapped_has_the_opposite_value() {
        let sfen = "1n3g2l/lr1k5/1pspgpsp1/p3p3p/2P3p2/P6R1/1P1PPP1PP/3S1K1S1/LN1GG2NL b BNPbp 37";
        let a = Position::from_sfen(sfen).unwrap();
        let b = Position::from_sfen(&turned(sfen)).unwrap();
        let (mut fa, mut fb) = (Vec::new(), Vec::new());
        active(&a, &mut fa);
        active(&b, &mut fb);
        fa.sort();
        let mut fb: Vec<(u32, i8)> = fb.into_iter().map(|(i, s)| (i, -s)).collect();
        fb.sort();
        assert!(!fa.is_empty());
        assert_eq!(fa, fb);
        // A table with distinct entries tells the two kings' views apart.
        let table: Vec<i16> = (0..LEN).map(|i| (i % 97) as i16 - 48).collect();
        assert_eq!(value_black(&a, &table), -value_black(&b, &table));
        assert_ne!(value_black(&a, &table), 0);
    }

    #[test]
    fn hand_counts_are_cumulative() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3P2r 1").unwrap();
        let mut f = Vec::new();
        active(&p, &mut f);
        // Each king sees the other king (where it stands and where it stands relative to the
        // king), three pawns and two rooks.
        assert_eq!(f.len(), 2 * (2 + 3 + 2));
    }
}
