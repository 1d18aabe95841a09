//! A small NNUE evaluation: piece-square and hand-count features seen from each side, one
//! hidden layer of [`HIDDEN`] units per side, and the output.
//!
//! ```text
//! features (5,088 per side) ──W1──▶ accumulator (HIDDEN, i16) ─┐
//!                                                               ├─ SCReLU ─ W2 ─▶ score
//! the other side's features ──W1──▶ accumulator (HIDDEN, i16) ─┘
//! ```
//! - Features are seen from one side ("us"): the board is turned round for White, so "us" always
//!   plays up the board. A piece on a square is one feature per (owner: us or them, kind of 14,
//!   square of 81). The k-th piece of a kind in a hand is one feature (so a hand of three pawns
//!   has the features "1st pawn", "2nd pawn", "3rd pawn"): a capture or a drop changes one.
//! - King-relative features: a piece within [`REL_REACH`] files and ranks of a king is one
//!   more feature per (which king: ours or theirs, owner, kind, offset from that king), so the
//!   net sees who guards and who attacks each king wherever the king stands. Far pieces have
//!   none: a window of 7 × 7 keeps the net near 2.6 MB and each feature seen often enough to
//!   learn from a few hundred thousand positions (full HalfKP, a king square for every
//!   feature, needs hundreds of millions).
//! - Both sides use the same weights W1. The side to move's accumulator comes first in the
//!   output layer, so the net knows whose turn it is.
//! - The activation is SCReLU, `clamp(x, 0, 1)²`.
//! - An optional second layer, the head ([`Head`], version 6 of the file): [`HEAD`] units, each a
//!   weighted sum of the same 2 × [`HIDDEN`] activations through CReLU, `clamp(z, 0, 1)`, whose
//!   weighted sum is added to the output. The linear output alone can only add up what each
//!   hidden unit says; the head lets the net combine them (an attack on the king counts for
//!   more when the attacker also holds pieces in hand). Its output weights start at zero, so a
//!   net given a head evaluates as before until it is trained.
//! - Quantised: W1 and the accumulators in units of 1/[`QA_ACC`], the activation's input rounded
//!   to units of 1/[`QA`], W2 in units of 1/[`QB`]. The output is in units of [`OUTPUT_SCALE`]
//!   centipawns, the scale of the trainer's sigmoid.
//!
//! A move other than a king's changes at most ten features of each side, so the searcher keeps
//! the accumulators move by move ([`Accumulator::after`]). A king move changes only the
//! features of the pieces near its old and new squares, and is kept move by move as well.

pub mod simd;

use std::sync::Arc;

use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceType, Square};

/// Hidden units per side.
pub const HIDDEN: usize = 256;
/// Board features per side: owner (2) × kind (14) × square (81).
pub const BOARD_FEATURES: usize = 2 * 14 * 81;
/// Hand features per owner: the k-th pawn, lance, knight, silver, gold, bishop, rook.
pub const HAND_PER_SIDE: usize = 18 + 4 + 4 + 4 + 4 + 2 + 2;
/// Where the king-relative features start (the board and hand features come first: a net
/// without them is the first `REL_START` rows of one with them).
pub const REL_START: usize = BOARD_FEATURES + 2 * HAND_PER_SIDE;
/// A piece at most this many files and ranks from a king has a feature relative to it.
pub const REL_REACH: i32 = 3;
const REL_SPAN: usize = (2 * REL_REACH + 1) as usize;
const REL_OFFSETS: usize = REL_SPAN * REL_SPAN;
/// King-relative features per king: owner (2) × kind (14) × offset (7 × 7).
pub const REL_PER_KING: usize = 2 * 14 * REL_OFFSETS;
/// Features per side.
pub const FEATURES: usize = REL_START + 2 * REL_PER_KING;
/// Activation quantisation: 1.0 is `QA` (the largest value whose square fits an i16).
pub const QA: i32 = 181;
/// The accumulators keep `ACC_SHIFT` more bits than the activation, so that the rounding of
/// forty weights does not add up: 1.0 is `QA_ACC` there, and the activation rounds it back.
pub const ACC_SHIFT: u32 = 2;
pub const QA_ACC: i32 = QA << ACC_SHIFT;
/// Output weight quantisation: 1.0 is `QB`.
pub const QB: i32 = 1024;
/// Centipawns per unit of the net's output (the trainer's sigmoid scale).
pub const OUTPUT_SCALE: i32 = 600;

/// The evaluation stays within this many centipawns, far from the mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// Units of the head.
pub const HEAD: usize = 16;
/// Head weight quantisation: 1.0 is `QV`.
pub const QV: i32 = 512;
/// The head reads the activation `v²` (units of 1/QA²) shifted down by this many bits, so that
/// it fits 0..=256 and a product with an i16 weight pairs up in an i32 (`madd`).
pub const HEAD_SHIFT: u32 = 7;
/// 1.0 of a head unit's sum: activation units (QA² / 2^HEAD_SHIFT) times weight units (QV).
pub const HEAD_ONE: i32 = (QA * QA * QV) >> HEAD_SHIFT;

/// The file's magic names the quantisation too (accumulator 724, activation 181, output 1024).
/// Version 6 adds the head; a net without one is still written as version 5.
const MAGIC: &[u8; 16] = b"HAYATE-NNUE-5\0\0\0";
const MAGIC_6: &[u8; 16] = b"HAYATE-NNUE-6\0\0\0";
/// The previous version: the same quantisation, without the king-relative features. It still
/// loads, with those features' weights at zero (the same evaluation), so a trainer can start
/// from it.
const MAGIC_4: &[u8; 16] = b"HAYATE-NNUE-4\0\0\0";

/// The net compiled into the binary (`train/README.md` says how it is made).
static SHIPPED: &[u8] = include_bytes!("hayate.nnue");

/// Where the hand features of each kind start, by piece type.
const HAND_START: [usize; 8] = [0, 0, 18, 22, 26, 34, 36, 30];

/// The 0..14 row of a piece type: the seven hand kinds, the king, the six promoted kinds.
#[inline(always)]
fn kind_row(pt: PieceType) -> usize {
    pt as usize - 1
}

/// The feature of `p` on `sq` seen from `us`.
#[inline(always)]
pub fn board_feature(us: Color, p: Piece, sq: Square) -> usize {
    let s = if us == Color::Black { sq } else { sq.flip() };
    let owner = usize::from(p.color() != us);
    (owner * 14 + kind_row(p.piece_type())) * 81 + s.index()
}

/// The kings' squares as `us` sees them: ours, then theirs.
#[inline(always)]
pub fn kings_seen_from(pos: &Position, us: Color) -> [Option<Square>; 2] {
    let turn = |sq: Square| if us == Color::Black { sq } else { sq.flip() };
    [
        pos.king_square(us).map(turn),
        pos.king_square(!us).map(turn),
    ]
}

/// The feature of `p` on `sq` relative to king `k` (0: ours, 1: theirs, with `kings` as
/// [`kings_seen_from`] gives them), if it is near that king and is not that king.
#[inline(always)]
pub fn relative_feature(
    us: Color,
    kings: [Option<Square>; 2],
    k: usize,
    p: Piece,
    sq: Square,
) -> Option<usize> {
    let ksq = kings[k]?;
    let s = if us == Color::Black { sq } else { sq.flip() };
    if ksq == s {
        return None; // the king itself
    }
    let df = s.file() as i32 - ksq.file() as i32;
    let dr = s.rank() as i32 - ksq.rank() as i32;
    if df.abs() > REL_REACH || dr.abs() > REL_REACH {
        return None;
    }
    let row = usize::from(p.color() != us) * 14 + kind_row(p.piece_type());
    let offset = (df + REL_REACH) as usize * REL_SPAN + (dr + REL_REACH) as usize;
    Some(REL_START + k * REL_PER_KING + row * REL_OFFSETS + offset)
}

/// Calls `f` with every feature of `p` on `sq` seen from `us`: its square, and its offset from
/// each king (`kings` as [`kings_seen_from`] gives them) that it is near, other than itself.
#[inline(always)]
pub fn piece_features(
    us: Color,
    kings: [Option<Square>; 2],
    p: Piece,
    sq: Square,
    mut f: impl FnMut(usize),
) {
    f(board_feature(us, p, sq));
    for k in 0..2 {
        if let Some(r) = relative_feature(us, kings, k, p, sq) {
            f(r);
        }
    }
}

/// The feature of the `n`-th (0-based) `pt` in `owner`'s hand, seen from `us`.
#[inline(always)]
pub fn hand_feature(us: Color, owner: Color, pt: PieceType, n: u32) -> usize {
    BOARD_FEATURES + usize::from(owner != us) * HAND_PER_SIDE + HAND_START[pt as usize] + n as usize
}

/// Calls `f` with every active feature of `pos` seen from `us`.
pub fn features(pos: &Position, us: Color, mut f: impl FnMut(usize)) {
    let kings = kings_seen_from(pos, us);
    for c in Color::ALL {
        for sq in pos.pieces_of(c) {
            if let Some(p) = pos.piece_on(sq) {
                piece_features(us, kings, p, sq, &mut f);
            }
        }
        let hand = pos.hand(c);
        for pt in PieceType::HAND {
            for n in 0..hand.count(pt) {
                f(hand_feature(us, c, pt, n));
            }
        }
    }
}

/// The same feature with the board mirrored left to right (file 1 ↔ file 9): shogi's rules
/// are symmetric under it, so the trainer doubles its data with it.
pub fn mirror_feature(f: usize) -> usize {
    if f >= REL_START {
        // The offset's file turns round: df becomes -df.
        let (block, offset) = ((f - REL_START) / REL_OFFSETS, (f - REL_START) % REL_OFFSETS);
        let (df, dr) = (offset / REL_SPAN, offset % REL_SPAN);
        return REL_START + block * REL_OFFSETS + (REL_SPAN - 1 - df) * REL_SPAN + dr;
    }
    if f >= BOARD_FEATURES {
        return f;
    }
    let (row, sq) = (f / 81, f % 81);
    let (file, rank) = (sq / 9, sq % 9);
    row * 81 + (8 - file) * 9 + rank
}

/// A quantised net.
pub struct Network {
    /// `FEATURES × HIDDEN`, feature-major.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// `2 × HIDDEN`: the side to move's half, then the other side's.
    pub w2: Vec<i16>,
    pub b2: i32,
    pub head: Option<Head>,
}

/// The second layer (see the module's notes), quantised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// `HEAD × 2·HIDDEN`, unit-major, in units of 1/[`QV`]; each unit's inputs in the order of
    /// `w2` (the side to move's activations, then the other side's).
    pub v: Vec<i16>,
    /// Each unit's bias, in units of 1/[`HEAD_ONE`].
    pub c: Vec<i32>,
    /// Each unit's output weight, in units of 1/[`QB`].
    pub u: Vec<i16>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({FEATURES}x{HIDDEN})")
    }
}

impl Network {
    /// Reads a net file: the magic, the feature and hidden sizes (u32 each), then W1, b1, W2 as
    /// little-endian i16 and b2 as i32; version 6 then has the head's size (u32), its `v` (i16),
    /// `c` (i32) and `u` (i16).
    pub fn from_bytes(data: &[u8]) -> Result<Network, String> {
        let magic = data.get(..16).unwrap_or_default();
        if data.len() < 24 || (magic != MAGIC && magic != MAGIC_4 && magic != MAGIC_6) {
            return Err("not a Hayate NNUE file (bad magic)".into());
        }
        let wanted = if magic == MAGIC_4 {
            REL_START
        } else {
            FEATURES
        };
        let with_head = magic == MAGIC_6;
        let features = u32::from_le_bytes([data[16], data[17], data[18], data[19]]) as usize;
        let hidden = u32::from_le_bytes([data[20], data[21], data[22], data[23]]) as usize;
        let head_bytes = if with_head {
            4 + HEAD * (2 * 2 * HIDDEN + 4 + 2)
        } else {
            0
        };
        let expected = 16 + 8 + 2 * (wanted * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 + head_bytes;
        if features != wanted || hidden != HIDDEN {
            return Err(format!(
                "the net is {features}x{hidden}; this build reads {wanted}x{HIDDEN}"
            ));
        }
        if data.len() != expected {
            return Err(format!(
                "the net file has {} bytes, not {expected}",
                data.len()
            ));
        }
        let mut r = Reader { data, at: 24 };
        let mut w1 = r.i16s(wanted * HIDDEN);
        w1.resize(FEATURES * HIDDEN, 0);
        let b1 = r.i16s(HIDDEN);
        let w2 = r.i16s(2 * HIDDEN);
        let b2 = r.i32s(1)[0];
        let head = if with_head {
            let units = r.i32s(1)[0];
            if units != HEAD as i32 {
                return Err(format!(
                    "the net's head has {units} units; this build reads {HEAD}"
                ));
            }
            Some(Head {
                v: r.i16s(HEAD * 2 * HIDDEN),
                c: r.i32s(HEAD),
                u: r.i16s(HEAD),
            })
        } else {
            None
        };
        Ok(Network {
            w1,
            b1,
            w2,
            b2,
            head,
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = if self.head.is_some() { MAGIC_6 } else { MAGIC }.to_vec();
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        if let Some(h) = &self.head {
            out.extend_from_slice(&(HEAD as u32).to_le_bytes());
            for v in &h.v {
                out.extend_from_slice(&v.to_le_bytes());
            }
            for c in &h.c {
                out.extend_from_slice(&c.to_le_bytes());
            }
            for u in &h.u {
                out.extend_from_slice(&u.to_le_bytes());
            }
        }
        out
    }

    /// Reads a net file from disk.
    pub fn load(path: &str) -> Result<Network, String> {
        let data = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        Network::from_bytes(&data).map_err(|e| format!("{path}: {e}"))
    }

    /// The net compiled into the binary, decoded once.
    pub fn shipped() -> Arc<Network> {
        static NET: std::sync::OnceLock<Arc<Network>> = std::sync::OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(Network::from_bytes(SHIPPED).expect("the shipped net matches this build"))
        })
        .clone()
    }

    #[inline(always)]
    fn row(&self, f: usize) -> &[i16; HIDDEN] {
        self.w1[f * HIDDEN..(f + 1) * HIDDEN]
            .try_into()
            .expect("rows are HIDDEN long")
    }

    /// The output from the side to move's accumulator and the other's, in centipawns.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        self.output_on(simd::best_path(), us, them)
    }

    /// `output` on the given code path.
    pub fn output_on(&self, path: simd::Path, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let (a, b) = self.w2.split_at(HIDDEN);
        let sum = simd::screlu_dot_on(path, us, a.try_into().expect("HIDDEN")).wrapping_add(
            simd::screlu_dot_on(path, them, b.try_into().expect("HIDDEN")),
        );
        // The sum is in units of QA² QB; one QA goes, the bias joins in QA QB.
        let mut total = (sum / QA + self.b2) as i64;
        if let Some(h) = &self.head {
            total += h.output_on(path, us, them);
        }
        let v = total * OUTPUT_SCALE as i64 / (QA * QB) as i64;
        v as i32
    }

    /// Evaluates `pos` from scratch, from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let acc = Accumulator::new(pos, self);
        acc.evaluate(pos.side_to_move(), self)
    }
}

/// Reads little-endian numbers one after another (the caller has checked the length).
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        let v = self.data[self.at..self.at + 2 * n]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        self.at += 2 * n;
        v
    }

    fn i32s(&mut self, n: usize) -> Vec<i32> {
        let v = self.data[self.at..self.at + 4 * n]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        self.at += 4 * n;
        v
    }
}

impl Head {
    /// The head's share of the output, in units of 1/(QA·QB) like the linear output's.
    pub fn output_on(&self, path: simd::Path, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i64 {
        let x = [simd::head_input(us), simd::head_input(them)];
        let mut sum = 0i64;
        for j in 0..HEAD {
            let row = &self.v[j * 2 * HIDDEN..(j + 1) * 2 * HIDDEN];
            let (a, b) = row.split_at(HIDDEN);
            let z = simd::dot_on(path, &x[0], a.try_into().expect("HIDDEN"))
                .wrapping_add(simd::dot_on(path, &x[1], b.try_into().expect("HIDDEN")))
                .wrapping_add(self.c[j]);
            sum += i64::from(self.u[j]) * i64::from(z.clamp(0, HEAD_ONE));
        }
        // u·h is in units of QB·HEAD_ONE; the output's are QA·QB.
        sum * QA as i64 / HEAD_ONE as i64
    }
}

/// The two sides' hidden sums, indexed by colour.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub sides: [[i16; HIDDEN]; 2],
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Accumulator({:?}.., {:?}..)",
            &self.sides[0][..4],
            &self.sides[1][..4]
        )
    }
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            sides: [[0; HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// Sums every active feature of `pos` (a full refresh).
    pub fn new(pos: &Position, net: &Network) -> Accumulator {
        let mut acc = Accumulator::default();
        for us in Color::ALL {
            let side = &mut acc.sides[us.index()];
            side.copy_from_slice(&net.b1);
            features(pos, us, |f| simd::add_row(side, net.row(f)));
        }
        acc
    }

    /// The accumulator after `m`, given `self` before it and `pos` after it.
    pub fn after(&self, pos: &Position, m: Move, net: &Network) -> Accumulator {
        let mut out = Accumulator::default();
        self.after_into(pos, m, net, &mut out);
        out
    }

    /// Writes the accumulator after `m` into `out`: `self` is before it, `pos` after it.
    pub fn after_into(&self, pos: &Position, m: Move, net: &Network, out: &mut Accumulator) {
        let Some(moved) = pos.piece_on(m.to()) else {
            *out = Accumulator::new(pos, net);
            return;
        };
        // A move other than a king's adds at most 4 features to a side (the mover's square and
        // two king offsets, a captured piece in hand) and removes at most 6 (those of the mover
        // and of the captured piece). A king move also changes the offsets of the pieces in its
        // old and new windows (48 squares each): fewer than 64 either way.
        let mut adds = [0usize; 64];
        let mut subs = [0usize; 64];
        let mover = moved.color();
        for us in Color::ALL {
            let (mut n_add, mut n_sub) = (0, 0);
            let mut add = |f: usize| {
                adds[n_add] = f;
                n_add += 1;
            };
            let mut sub = |f: usize| {
                subs[n_sub] = f;
                n_sub += 1;
            };
            let kings = kings_seen_from(pos, us);
            let mut kings_before = kings;
            if moved.piece_type() == PieceType::King {
                // Every piece's offset from this king changes; nothing else does, apart from
                // the king's own square and a captured piece.
                let k = usize::from(mover != us);
                let from = if us == Color::Black {
                    m.from()
                } else {
                    m.from().flip()
                };
                kings_before[k] = Some(from);
                for c in Color::ALL {
                    for sq in pos.pieces_of(c) {
                        if sq == m.to() {
                            continue;
                        }
                        if let Some(p) = pos.piece_on(sq) {
                            relative_feature(us, kings_before, k, p, sq).map(&mut sub);
                            relative_feature(us, kings, k, p, sq).map(&mut add);
                        }
                    }
                }
                piece_features(us, kings_before, moved, m.from(), &mut sub);
                piece_features(us, kings, moved, m.to(), &mut add);
            } else {
                // What the moved piece was before: the dropped kind leaves the hand, a board
                // piece leaves its square (unpromoted if it promotes now).
                if m.is_drop() {
                    let n = pos.hand(mover).count(m.dropped());
                    sub(hand_feature(us, mover, m.dropped(), n));
                } else {
                    let before = if m.is_promotion() {
                        Piece::new(mover, moved.piece_type().unpromote())
                    } else {
                        moved
                    };
                    piece_features(us, kings, before, m.from(), &mut sub);
                }
                piece_features(us, kings, moved, m.to(), &mut add);
            }
            if let Some(captured) = pos.captured_piece() {
                // The captured piece leaves the board and joins the mover's hand.
                let kind = captured.piece_type().unpromote();
                let nth = pos.hand(mover).count(kind) - 1;
                piece_features(us, kings_before, captured, m.to(), &mut sub);
                add(hand_feature(us, mover, kind, nth));
            }
            let (before, after) = (&self.sides[us.index()], &mut out.sides[us.index()]);
            simd::update(before, after, &net.w1, &adds[..n_add], &subs[..n_sub]);
        }
    }

    /// The net's score for the side to move `stm`.
    pub fn evaluate(&self, stm: Color, net: &Network) -> i32 {
        net.output(&self.sides[stm.index()], &self.sides[(!stm).index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{generate_legal, MoveList};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A net of small random weights, so every feature matters.
    pub fn random_net(seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        Network {
            w1: (0..FEATURES * HIDDEN)
                .map(|_| rng.gen_range(-40..=40))
                .collect(),
            b1: (0..HIDDEN).map(|_| rng.gen_range(0..=60)).collect(),
            w2: (0..2 * HIDDEN).map(|_| rng.gen_range(-127..=127)).collect(),
            b2: rng.gen_range(-1000..=1000),
            head: None,
        }
    }

    #[test]
    fn the_shipped_net_reads_and_writes_back_the_same_bytes() {
        let net = Network::shipped();
        assert!(
            net.to_bytes() == SHIPPED,
            "the shipped net does not write back"
        );
    }

    #[test]
    fn a_net_of_the_previous_version_loads_with_the_new_features_at_zero() {
        let net = random_net(4);
        let mut old = MAGIC_4.to_vec();
        old.extend_from_slice(&(REL_START as u32).to_le_bytes());
        old.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for v in net.w1[..REL_START * HIDDEN]
            .iter()
            .chain(&net.b1)
            .chain(&net.w2)
        {
            old.extend_from_slice(&v.to_le_bytes());
        }
        old.extend_from_slice(&net.b2.to_le_bytes());
        let loaded = Network::from_bytes(&old).expect("a version-4 net loads");
        assert_eq!(
            loaded.w1[..REL_START * HIDDEN],
            net.w1[..REL_START * HIDDEN]
        );
        assert!(loaded.w1[REL_START * HIDDEN..].iter().all(|&w| w == 0));
        assert_eq!((loaded.b1, loaded.w2, loaded.b2), (net.b1, net.w2, net.b2));
        // A truncated file of either version is refused.
        assert!(Network::from_bytes(&old[..old.len() - 1]).is_err());
        let new = Network::from_bytes(&old).unwrap().to_bytes();
        assert!(Network::from_bytes(&new[..new.len() - 2]).is_err());
    }

    #[test]
    fn a_net_with_a_head_reads_back_and_a_silent_head_changes_nothing() {
        let mut net = random_net(6);
        let mut rng = StdRng::seed_from_u64(6);
        let head = Head {
            v: (0..HEAD * 2 * HIDDEN)
                .map(|_| rng.gen_range(-600..=600))
                .collect(),
            c: (0..HEAD).map(|_| rng.gen_range(0..HEAD_ONE)).collect(),
            u: vec![0; HEAD],
        };
        let pos = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        )
        .unwrap();
        let plain = net.evaluate(&pos);
        net.head = Some(head);
        assert_eq!(
            net.evaluate(&pos),
            plain,
            "output weights of zero add nothing"
        );
        net.head.as_mut().unwrap().u = (0..HEAD).map(|_| rng.gen_range(-2000..=2000)).collect();
        assert_ne!(net.evaluate(&pos), plain);
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..16], MAGIC_6);
        let back = Network::from_bytes(&bytes).expect("a version-6 net loads");
        assert_eq!(back.head, net.head);
        assert_eq!(back.evaluate(&pos), net.evaluate(&pos));
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        // Without a head the file is version 5, as before.
        net.head = None;
        assert_eq!(&net.to_bytes()[..16], MAGIC);
    }

    #[test]
    fn features_are_distinct_and_in_range() {
        let pos = Position::startpos();
        for us in Color::ALL {
            let mut seen = Vec::new();
            features(&pos, us, |f| seen.push(f));
            let near_kings = seen.iter().filter(|&&f| f >= REL_START).count();
            // 40 squares, and the pieces within three files and ranks of each king: for the
            // king on 5i, 15 of its own (rank g's seven pawns from 2g to 8g, the bishop and
            // rook, and the six pieces of rank i from 2i to 8i but the king) and none of the
            // enemy's.
            assert_eq!(seen.len(), 40 + near_kings);
            assert_eq!(near_kings, 2 * 15);
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 40 + near_kings);
            assert!(seen.iter().all(|&f| f < FEATURES));
        }
    }

    #[test]
    fn the_start_position_looks_the_same_from_both_sides() {
        let net = random_net(1);
        let acc = Accumulator::new(&Position::startpos(), &net);
        assert_eq!(acc.sides[0], acc.sides[1]);
    }

    #[test]
    fn incremental_updates_equal_a_full_refresh_over_random_games() {
        let net = random_net(2);
        let mut rng = StdRng::seed_from_u64(3);
        let mut list = MoveList::new();
        let mut checked = 0;
        for start in [
            Position::startpos(),
            Position::from_sfen(
                "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            )
            .unwrap(),
        ] {
            for _game in 0..20 {
                let mut pos = start.clone();
                let mut acc = Accumulator::new(&pos, &net);
                for _ in 0..150 {
                    list.clear();
                    generate_legal(&pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    let m = list[rng.gen_range(0..list.len())];
                    pos.do_move(m);
                    acc = acc.after(&pos, m, &net);
                    assert_eq!(
                        acc,
                        Accumulator::new(&pos, &net),
                        "after {m} in {}",
                        pos.to_sfen()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 3000);
    }

    /// The SFEN of `sfen`'s position turned left to right.
    fn mirrored_sfen(sfen: &str) -> String {
        let mut parts: Vec<String> = sfen.split(' ').map(str::to_string).collect();
        let ranks: Vec<String> = parts[0]
            .split('/')
            .map(|rank| {
                // Tokens: a digit, or a piece letter with its promotion mark.
                let mut tokens = Vec::new();
                let mut promoted = false;
                for c in rank.chars() {
                    if c == '+' {
                        promoted = true;
                        continue;
                    }
                    tokens.push(if promoted {
                        format!("+{c}")
                    } else {
                        c.to_string()
                    });
                    promoted = false;
                }
                tokens.reverse();
                tokens.concat()
            })
            .collect();
        parts[0] = ranks.join("/");
        parts.join(" ")
    }

    #[test]
    fn a_mirrored_position_has_the_mirrored_features() {
        for sfen in [
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let turned = Position::from_sfen(&mirrored_sfen(sfen)).unwrap();
            for us in Color::ALL {
                let mut a = Vec::new();
                features(&pos, us, |f| a.push(mirror_feature(f)));
                let mut b = Vec::new();
                features(&turned, us, |f| b.push(f));
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{sfen} from {us:?}");
                assert!(a.iter().any(|&f| f >= REL_START));
            }
        }
    }

    #[test]
    fn mirroring_twice_is_the_identity_and_keeps_hands() {
        for f in 0..FEATURES {
            assert_eq!(mirror_feature(mirror_feature(f)), f);
            assert!(mirror_feature(f) < FEATURES);
        }
        assert_eq!(mirror_feature(BOARD_FEATURES + 3), BOARD_FEATURES + 3);
    }
}
