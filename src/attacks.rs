//! Attack tables: step attacks for every piece and colour, sliding attacks by table lookup, and
//! the `between` and `line` tables that check and pin detection use.
//!
//! Sliding attacks use "kindergarten" line lookups. For each square and each line through it
//! (file, rank, diagonal, anti-diagonal), the occupancy of the line's seven inner squares is
//! gathered into a 7-bit index, and a table of 81 x 128 bitboards per line kind gives the attacks.
//! In the file-major layout the squares of a line are evenly spaced: 1 bit apart on a file, 9 on
//! a rank, 10 on a diagonal and 8 on an anti-diagonal. After a shift, the inner squares of any line
//! lie in the low 64 bits at multiples of the spacing `s`, and one multiplication by
//! `sum(2^(57 - (s - 1) * j))` moves bit `s * j` to bit `57 + j` without carries (all partial
//! products land on distinct bits because `s` and `s - 1` are coprime and `j < 7 < s - 1`).
//! So each line costs a shift, a mask, a multiply and a load, on any x86-64 or ARM CPU: as fast
//! as PEXT where PEXT is fast, and without its microcode penalty on older AMD processors.
//! All tables are built at compile time by `const fn`s and checked against slow ray walks.

use crate::bitboard::Bitboard;
use crate::types::{Color, PieceType, Square};

/// Directions as (file step, rank step); rank step -1 is "forward" for Black.
type Dir = (i8, i8);

const ROOK_DIRS: [Dir; 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
const BISHOP_DIRS: [Dir; 4] = [(-1, -1), (1, 1), (-1, 1), (1, -1)];

const fn offset(sq: u8, d: Dir) -> Option<u8> {
    let f = (sq / 9) as i8 + d.0;
    let r = (sq % 9) as i8 + d.1;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some((f * 9 + r) as u8)
    } else {
        None
    }
}

/// Slow reference: the squares a slider on `sq` reaches along `dirs` with blockers `occ`.
pub const fn ray_attacks(sq: Square, occ: Bitboard, dirs: &[Dir]) -> Bitboard {
    let mut bits = 0u128;
    let mut i = 0;
    while i < dirs.len() {
        let mut cur = sq.index() as u8;
        while let Some(next) = offset(cur, dirs[i]) {
            bits |= 1 << next;
            if occ.0 >> next & 1 != 0 {
                break;
            }
            cur = next;
        }
        i += 1;
    }
    Bitboard(bits)
}

const fn step_table(dirs: &[Dir], color: Color) -> [Bitboard; 81] {
    let mut table = [Bitboard::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut bits = 0u128;
        let mut i = 0;
        while i < dirs.len() {
            let d = match color {
                Color::Black => dirs[i],
                Color::White => (dirs[i].0, -dirs[i].1),
            };
            if let Some(to) = offset(sq as u8, d) {
                bits |= 1 << to;
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

const PAWN_DIRS: [Dir; 1] = [(0, -1)];
const KNIGHT_DIRS: [Dir; 2] = [(-1, -2), (1, -2)];
const SILVER_DIRS: [Dir; 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_DIRS: [Dir; 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_DIRS: [Dir; 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

static PAWN: [[Bitboard; 81]; 2] = [
    step_table(&PAWN_DIRS, Color::Black),
    step_table(&PAWN_DIRS, Color::White),
];
static KNIGHT: [[Bitboard; 81]; 2] = [
    step_table(&KNIGHT_DIRS, Color::Black),
    step_table(&KNIGHT_DIRS, Color::White),
];
static SILVER: [[Bitboard; 81]; 2] = [
    step_table(&SILVER_DIRS, Color::Black),
    step_table(&SILVER_DIRS, Color::White),
];
static GOLD: [[Bitboard; 81]; 2] = [
    step_table(&GOLD_DIRS, Color::Black),
    step_table(&GOLD_DIRS, Color::White),
];
static KING: [Bitboard; 81] = step_table(&KING_DIRS, Color::Black);

/// The squares from which a stepping piece of either colour can attack a square next to `sq`:
/// two files and three ranks either way (a knight's jump to a neighbour). The pieces that can
/// attack a king's flight squares without sliding stand here.
const fn near_box_table() -> [Bitboard; 81] {
    let mut table = [Bitboard::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        let (f, r) = ((sq / 9) as i8, (sq % 9) as i8);
        let mut bits = 0u128;
        let mut to = 0;
        while to < 81 {
            let (tf, tr) = ((to / 9) as i8, (to % 9) as i8);
            let (df, dr) = (tf - f, tr - r);
            if df >= -2 && df <= 2 && dr >= -3 && dr <= 3 {
                bits |= 1 << to;
            }
            to += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

static NEAR_BOX: [Bitboard; 81] = near_box_table();

/// See [`near_box_table`].
#[inline(always)]
pub fn near_box(sq: Square) -> Bitboard {
    NEAR_BOX[sq.index()]
}

/// How to gather the inner occupancy of one line through a square into a 7-bit index.
#[derive(Clone, Copy)]
struct LineGather {
    shift: u8,
    mask: u64,
    mul: u64,
}

impl LineGather {
    #[inline(always)]
    fn index(self, occ: Bitboard) -> usize {
        ((((occ.0 >> self.shift) as u64) & self.mask).wrapping_mul(self.mul) >> 57) as usize
    }
}

/// The four line kinds; each is a direction and its opposite.
const LINE_DIRS: [[Dir; 2]; 4] = [
    [(0, -1), (0, 1)],
    [(-1, 0), (1, 0)],
    [(-1, -1), (1, 1)],
    [(-1, 1), (1, -1)],
];
const FILE: usize = 0;
const RANK: usize = 1;
const DIAG: usize = 2;
const ANTI: usize = 3;

/// The squares of the line of kind `kind` through `sq`, from one end to the other.
const fn line_squares(sq: u8, kind: usize) -> ([u8; 9], usize) {
    let back = LINE_DIRS[kind][0];
    let fwd = LINE_DIRS[kind][1];
    let mut start = sq;
    while let Some(prev) = offset(start, back) {
        start = prev;
    }
    let mut squares = [0u8; 9];
    let mut len = 0;
    let mut cur = Some(start);
    while let Some(s) = cur {
        squares[len] = s;
        len += 1;
        cur = offset(s, fwd);
    }
    (squares, len)
}

const fn gather(sq: u8, kind: usize) -> LineGather {
    let (squares, len) = line_squares(sq, kind);
    let stride = [1u32, 9, 10, 8][kind];
    let mut mask = 0u64;
    let mut mul = 0u64;
    let mut j = 0;
    while j < 7 {
        mul |= 1 << (57 - (stride - 1) * j);
        if (j as usize) + 2 < len {
            mask |= 1 << (stride * j);
        }
        j += 1;
    }
    // The first inner square (squares[1]) lands on bit 0 after the shift.
    let shift = if len >= 2 { squares[1] } else { 127 };
    LineGather { shift, mask, mul }
}

const fn gather_table() -> [[LineGather; 4]; 81] {
    let mut t = [[LineGather {
        shift: 0,
        mask: 0,
        mul: 0,
    }; 4]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut kind = 0;
        while kind < 4 {
            t[sq][kind] = gather(sq as u8, kind);
            kind += 1;
        }
        sq += 1;
    }
    t
}

const fn line_attack_table(kind: usize) -> [[Bitboard; 128]; 81] {
    let mut t = [[Bitboard::EMPTY; 128]; 81];
    let mut sq = 0;
    while sq < 81 {
        let (squares, len) = line_squares(sq as u8, kind);
        let mut index = 0;
        while index < 128 {
            // Deposit the index bits on the inner squares: bit j is squares[j + 1].
            let mut occ = 0u128;
            let mut j = 0;
            while j + 2 < len {
                if index >> j & 1 != 0 {
                    occ |= 1 << squares[j + 1];
                }
                j += 1;
            }
            t[sq][index] = ray_attacks(
                Square::from_index_unchecked(sq as u8),
                Bitboard(occ),
                &LINE_DIRS[kind],
            );
            index += 1;
        }
        sq += 1;
    }
    t
}

static GATHER: [[LineGather; 4]; 81] = gather_table();
static FILE_ATTACKS: [[Bitboard; 128]; 81] = line_attack_table(FILE);
static RANK_ATTACKS: [[Bitboard; 128]; 81] = line_attack_table(RANK);
static DIAG_ATTACKS: [[Bitboard; 128]; 81] = line_attack_table(DIAG);
static ANTI_ATTACKS: [[Bitboard; 128]; 81] = line_attack_table(ANTI);

/// The squares in front of a square on its file, for each colour: a lance's reach on an empty
/// board.
static FORWARD: [[Bitboard; 81]; 2] = {
    let mut t = [[Bitboard::EMPTY; 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        let s = Square::from_index_unchecked(sq as u8);
        t[0][sq] = ray_attacks(s, Bitboard::EMPTY, &[(0, -1)]);
        t[1][sq] = ray_attacks(s, Bitboard::EMPTY, &[(0, 1)]);
        sq += 1;
    }
    t
};

/// `CHECK_SOURCES[color][king][i]`: the squares from which a piece of `color` and kind lance,
/// knight, silver or gold (`i` 0 to 3; the gold stands for every kind that moves as one) can
/// move, on an empty board, to a square where it, or its promoted kind, attacks `king`. Lances
/// slide, so an empty board gives a superset; the others step, and the set is exact but for
/// the board's pieces.
static CHECK_SOURCES: [[[Bitboard; 4]; 81]; 2] = {
    let mut t = [[[Bitboard::EMPTY; 4]; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Black } else { Color::White };
        let knight = step_table(&KNIGHT_DIRS, color);
        let silver = step_table(&SILVER_DIRS, color);
        let gold = step_table(&GOLD_DIRS, color);
        let dir = if c == 0 { (0, -1) } else { (0, 1) };
        let mut king = 0;
        while king < 81 {
            let k = 1u128 << king;
            let mut from = 0;
            while from < 81 {
                let f = Square::from_index_unchecked(from as u8);
                let lance = ray_attacks(f, Bitboard::EMPTY, &[dir]);
                let steps = [lance, knight[from], silver[from], gold[from]];
                let mut i = 0;
                while i < 4 {
                    let mut targets = steps[i].0;
                    while targets != 0 {
                        let to = targets.trailing_zeros() as usize;
                        targets &= targets - 1;
                        let to_square = Square::from_index_unchecked(to as u8);
                        // What the piece attacks from `to` unpromoted.
                        let own = match i {
                            0 => ray_attacks(to_square, Bitboard::EMPTY, &[dir]).0,
                            1 => knight[to].0,
                            2 => silver[to].0,
                            _ => gold[to].0,
                        };
                        // Every kind here promotes to one that moves as a gold, or is one.
                        if (own | gold[to].0) & k != 0 {
                            t[c][king][i].0 |= 1 << from;
                        }
                    }
                    i += 1;
                }
                from += 1;
            }
            king += 1;
        }
        c += 1;
    }
    t
};

/// The squares from which a piece of `color` and kind `pt` may give a direct check to a king
/// on `king` with one move (promoting or not), ignoring the other pieces on the board: for
/// the check generator, which need not look at a stepping piece standing anywhere else. Every
/// square for the kinds it does not narrow (pawns, which move in bulk, the sliders and the
/// king).
#[inline(always)]
pub fn check_sources(color: Color, pt: PieceType, king: Square) -> Bitboard {
    let i = match pt {
        PieceType::Lance => 0,
        PieceType::Knight => 1,
        PieceType::Silver => 2,
        _ if pt.moves_as_gold() => 3,
        _ => return Bitboard::ALL,
    };
    CHECK_SOURCES[color.index()][king.index()][i]
}

/// `BETWEEN[a][b]`: the squares strictly between two squares on one line, else empty.
/// `LINE[a][b]`: the whole line through both, else empty.
static BETWEEN_AND_LINE: [[[Bitboard; 81]; 81]; 2] = {
    let mut t = [[[Bitboard::EMPTY; 81]; 81]; 2];
    let all_dirs = [
        ROOK_DIRS[0],
        ROOK_DIRS[1],
        ROOK_DIRS[2],
        ROOK_DIRS[3],
        BISHOP_DIRS[0],
        BISHOP_DIRS[1],
        BISHOP_DIRS[2],
        BISHOP_DIRS[3],
    ];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let dir = all_dirs[d];
            let back = (-dir.0, -dir.1);
            let full = ray_attacks(
                Square::from_index_unchecked(a as u8),
                Bitboard::EMPTY,
                &[dir, back],
            )
            .0 | 1 << a;
            let mut between = 0u128;
            let mut cur = offset(a as u8, dir);
            while let Some(b) = cur {
                t[0][a][b as usize] = Bitboard(between);
                t[1][a][b as usize] = Bitboard(full);
                between |= 1 << b;
                cur = offset(b, dir);
            }
            d += 1;
        }
        a += 1;
    }
    t
};

#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline(always)]
pub fn knight_attacks(color: Color, sq: Square) -> Bitboard {
    KNIGHT[color.index()][sq.index()]
}

#[inline(always)]
pub fn silver_attacks(color: Color, sq: Square) -> Bitboard {
    SILVER[color.index()][sq.index()]
}

/// Gold, and every piece that moves like one (promoted pawn, lance, knight and silver).
#[inline(always)]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    GOLD[color.index()][sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

#[inline(always)]
fn line_attacks(sq: Square, kind: usize, table: &[[Bitboard; 128]; 81], occ: Bitboard) -> Bitboard {
    table[sq.index()][GATHER[sq.index()][kind].index(occ)]
}

#[inline(always)]
pub fn file_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    line_attacks(sq, FILE, &FILE_ATTACKS, occ)
}

#[inline(always)]
pub fn lance_attacks(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    file_attacks(sq, occ) & FORWARD[color.index()][sq.index()]
}

/// A lance's reach on an empty board.
#[inline(always)]
pub fn lance_step_ray(color: Color, sq: Square) -> Bitboard {
    FORWARD[color.index()][sq.index()]
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    file_attacks(sq, occ) | line_attacks(sq, RANK, &RANK_ATTACKS, occ)
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    line_attacks(sq, DIAG, &DIAG_ATTACKS, occ) | line_attacks(sq, ANTI, &ANTI_ATTACKS, occ)
}

#[inline(always)]
pub fn dragon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | king_attacks(sq)
}

#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attacks(sq, occ) | king_attacks(sq)
}

/// Rook attacks on an empty board.
#[inline(always)]
pub fn rook_step_ray(sq: Square) -> Bitboard {
    FILE_ATTACKS[sq.index()][0] | RANK_ATTACKS[sq.index()][0]
}

/// Bishop attacks on an empty board.
#[inline(always)]
pub fn bishop_step_ray(sq: Square) -> Bitboard {
    DIAG_ATTACKS[sq.index()][0] | ANTI_ATTACKS[sq.index()][0]
}

/// The squares a piece of `color` and kind `pt` on `sq` attacks, given the occupancy.
#[inline(always)]
pub fn attacks(color: Color, pt: PieceType, sq: Square, occ: Bitboard) -> Bitboard {
    match pt {
        PieceType::Pawn => pawn_attacks(color, sq),
        PieceType::Lance => lance_attacks(color, sq, occ),
        PieceType::Knight => knight_attacks(color, sq),
        PieceType::Silver => silver_attacks(color, sq),
        PieceType::Bishop => bishop_attacks(sq, occ),
        PieceType::Rook => rook_attacks(sq, occ),
        PieceType::Gold
        | PieceType::ProPawn
        | PieceType::ProLance
        | PieceType::ProKnight
        | PieceType::ProSilver => gold_attacks(color, sq),
        PieceType::King => king_attacks(sq),
        PieceType::Horse => horse_attacks(sq, occ),
        PieceType::Dragon => dragon_attacks(sq, occ),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN_AND_LINE[0][a.index()][b.index()]
}

/// The whole line through `a` and `b` (both included) if they are aligned, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    BETWEEN_AND_LINE[1][a.index()][b.index()]
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Slow reference for any piece: ray walks and single steps, for tests.
pub fn reference_attacks(color: Color, pt: PieceType, sq: Square, occ: Bitboard) -> Bitboard {
    let flip = |dirs: &[Dir]| -> Vec<Dir> {
        dirs.iter()
            .map(|&(f, r)| {
                if color == Color::White {
                    (f, -r)
                } else {
                    (f, r)
                }
            })
            .collect()
    };
    let steps = |dirs: &[Dir]| -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for d in flip(dirs) {
            if let Some(to) = sq.offset(d.0, d.1) {
                b = b.with(to);
            }
        }
        b
    };
    match pt {
        PieceType::Pawn => steps(&PAWN_DIRS),
        PieceType::Lance => ray_attacks(sq, occ, &flip(&PAWN_DIRS)),
        PieceType::Knight => steps(&KNIGHT_DIRS),
        PieceType::Silver => steps(&SILVER_DIRS),
        PieceType::Bishop => ray_attacks(sq, occ, &BISHOP_DIRS),
        PieceType::Rook => ray_attacks(sq, occ, &ROOK_DIRS),
        PieceType::King => steps(&KING_DIRS),
        PieceType::Horse => ray_attacks(sq, occ, &BISHOP_DIRS) | steps(&KING_DIRS),
        PieceType::Dragon => ray_attacks(sq, occ, &ROOK_DIRS) | steps(&KING_DIRS),
        _ => steps(&GOLD_DIRS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kinds_that_move_as_a_gold_attack_as_one() {
        for pt in PieceType::ALL {
            let like_gold = Square::all().all(|sq| {
                attacks(Color::Black, pt, sq, Bitboard::EMPTY) == gold_attacks(Color::Black, sq)
            });
            assert_eq!(pt.moves_as_gold(), like_gold, "{pt:?}");
        }
    }
    use rand::{Rng, SeedableRng};

    #[test]
    fn tables_match_ray_walks_on_random_boards() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..3000 {
            // Sparse and dense boards both.
            let density = rng.gen_range(0..4);
            let mut occ = Bitboard::EMPTY;
            for sq in Square::all() {
                if rng.gen_range(0..8) < density * 2 {
                    occ = occ.with(sq);
                }
            }
            for sq in Square::all() {
                for c in Color::ALL {
                    for pt in PieceType::ALL {
                        assert_eq!(
                            attacks(c, pt, sq, occ),
                            reference_attacks(c, pt, sq, occ),
                            "{c:?} {pt:?} on {sq} with {occ:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_line_index_is_exhaustive() {
        // Every one of the 2^7 occupancies of each line, through every square.
        for sq in Square::all() {
            for (kind, &g) in GATHER[sq.index()].iter().enumerate() {
                let (squares, len) = line_squares(sq.index() as u8, kind);
                for index in 0..128usize {
                    let mut occ = Bitboard::EMPTY;
                    for j in 0..len.saturating_sub(2) {
                        if index >> j & 1 != 0 {
                            occ = occ.with(Square::from_index_unchecked(squares[j + 1]));
                        }
                    }
                    // Pieces off the line must not change the index.
                    let noise = !Bitboard(squares[..len].iter().fold(0u128, |b, &s| b | 1 << s));
                    assert_eq!(g.index(occ), g.index(occ | noise));
                    assert_eq!(g.index(occ), index & ((1 << len.saturating_sub(2)) - 1));
                }
            }
        }
    }

    #[test]
    fn between_and_line() {
        let sq = |s| Square::from_usi(s).unwrap();
        assert_eq!(between(sq("5e"), sq("5a")).count(), 3);
        assert_eq!(between(sq("1a"), sq("9i")).count(), 7);
        assert_eq!(between(sq("5e"), sq("4c")), Bitboard::EMPTY);
        assert_eq!(line(sq("5e"), sq("4c")), Bitboard::EMPTY);
        assert_eq!(line(sq("5e"), sq("5a")), Bitboard::file(4));
        assert!(aligned(sq("1a"), sq("9i"), sq("5e")));
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
                assert!(between(a, b).and_not(line(a, b)).is_empty());
            }
        }
    }
}
