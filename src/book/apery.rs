//! Apery's binary book (`book.bin`), read.
//!
//! The file is a run of 16-byte little-endian entries, sorted by key:
//!
//! ```text
//! bytes 0..8    u64 key     Zobrist key of the position (below)
//!       8..10   u16 move    to: bits 0-6; from: bits 7-13, or 81 + piece - 1 for a drop
//!                           (P1 L2 N3 S4 B5 R6 G7); promotion: bit 14
//!      10..12   u16 count   how often the move was played
//!      12..16   i32 score   centipawns from the side to move's view
//! ```
//!
//! Squares are numbered `(file - 1) * 9 + (rank - 1)`, as ours are. The key is not our
//! Zobrist key: Apery draws its own from `std::mt19937_64` with the default seed, piece by
//! square first (31 piece codes, the empty code's keys drawn and thrown away), then hand counts
//! (7 kinds x 19 counts), then the side to move; and it hashes only the hand of the side to
//! move, with every count (zero too).

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::OnceLock;

use super::{BookEntry, BookMove, Source};
use crate::position::Position;
use crate::types::{Color, Move, PieceType, Square};

pub const ENTRY_SIZE: u64 = 16;

/// The 64-bit Mersenne Twister of C++'s `<random>` (`std::mt19937_64`), which Apery's keys
/// come from.
pub struct Mt19937_64 {
    state: [u64; 312],
    index: usize,
}

impl Mt19937_64 {
    /// `std::mt19937_64`'s default seed.
    pub const DEFAULT_SEED: u64 = 5489;

    pub fn new(seed: u64) -> Mt19937_64 {
        let mut state = [0u64; 312];
        state[0] = seed;
        for i in 1..312 {
            let prev = state[i - 1];
            state[i] = 6_364_136_223_846_793_005u64
                .wrapping_mul(prev ^ (prev >> 62))
                .wrapping_add(i as u64);
        }
        Mt19937_64 { state, index: 312 }
    }

    fn twist(&mut self) {
        const UPPER: u64 = 0xffff_ffff_8000_0000;
        const LOWER: u64 = 0x7fff_ffff;
        const MATRIX_A: u64 = 0xb502_6f5a_a966_19e9;
        for i in 0..312 {
            let x = (self.state[i] & UPPER) | (self.state[(i + 1) % 312] & LOWER);
            let mut xa = x >> 1;
            if x & 1 != 0 {
                xa ^= MATRIX_A;
            }
            self.state[i] = self.state[(i + 156) % 312] ^ xa;
        }
        self.index = 0;
    }

    pub fn next_u64(&mut self) -> u64 {
        if self.index >= 312 {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= (y >> 29) & 0x5555_5555_5555_5555;
        y ^= (y << 17) & 0x71d6_7fff_eda6_0000;
        y ^= (y << 37) & 0xfff7_eee0_0000_0000;
        y ^= y >> 43;
        y
    }
}

/// Apery's key tables.
struct Keys {
    /// By Apery piece code (ours: piece type | colour << 4), then square.
    piece: [[u64; 81]; 31],
    /// By Apery hand index (P L N S G B R), then count 0..=18.
    hand: [[u64; 19]; 7],
    turn: u64,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut mt = Mt19937_64::new(Mt19937_64::DEFAULT_SEED);
        let mut k = Keys {
            piece: [[0; 81]; 31],
            hand: [[0; 19]; 7],
            turn: 0,
        };
        for (p, row) in k.piece.iter_mut().enumerate() {
            for key in row.iter_mut() {
                let r = mt.next_u64();
                // Code 0 is the empty square: its numbers are drawn but its keys stay 0.
                *key = if p == 0 { 0 } else { r };
            }
        }
        for row in k.hand.iter_mut() {
            for key in row.iter_mut() {
                *key = mt.next_u64();
            }
        }
        k.turn = mt.next_u64();
        k
    })
}

/// Apery's order of hand pieces: P L N S G B R (ours ends B R G).
fn hand_index(pt: PieceType) -> usize {
    match pt {
        PieceType::Pawn => 0,
        PieceType::Lance => 1,
        PieceType::Knight => 2,
        PieceType::Silver => 3,
        PieceType::Gold => 4,
        PieceType::Bishop => 5,
        _ => 6,
    }
}

/// Apery's book key of a position.
pub fn key(pos: &Position) -> u64 {
    let k = keys();
    let mut key = 0;
    for sq in Square::all() {
        if let Some(p) = pos.piece_on(sq) {
            // Our piece codes are Apery's: piece type 1..=14, White's 16 higher.
            key ^= k.piece[p.index()][sq.index()];
        }
    }
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    for pt in PieceType::HAND {
        key ^= k.hand[hand_index(pt)][hand.count(pt) as usize];
    }
    if us == Color::White {
        key ^= k.turn;
    }
    key
}

/// Decodes an Apery move; `None` for a bit pattern no move has.
pub fn decode_move(raw: u16) -> Option<Move> {
    let to = Square::from_index((raw & 0x7f) as u8)?;
    let from = (raw >> 7) & 0x7f;
    let promote = raw & (1 << 14) != 0;
    if from >= 81 {
        let pt = PieceType::from_u8((from - 81 + 1) as u8).filter(|pt| pt.is_hand_type())?;
        if promote {
            return None;
        }
        Some(Move::drop(pt, to))
    } else {
        let from = Square::from_index(from as u8)?;
        (from != to).then(|| Move::normal(from, to, promote))
    }
}

/// Encodes a move as Apery does.
pub fn encode_move(m: Move) -> u16 {
    let to = m.to().index() as u16;
    if m.is_drop() {
        (81 + m.dropped() as u16 - 1) << 7 | to
    } else {
        (m.is_promotion() as u16) << 14 | (m.from().index() as u16) << 7 | to
    }
}

fn decode_entry(b: &[u8; 16]) -> (u64, u16, u16, i32) {
    let u64_at = |r: std::ops::Range<usize>| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&b[r]);
        u64::from_le_bytes(a)
    };
    (
        u64_at(0..8),
        u16::from_le_bytes([b[8], b[9]]),
        u16::from_le_bytes([b[10], b[11]]),
        i32::from_le_bytes([b[12], b[13], b[14], b[15]]),
    )
}

/// An Apery book on disk, probed by binary search over its sorted entries.
pub struct AperyReader {
    /// The file's name, for messages.
    name: String,
    file: Box<dyn Source>,
    entries: u64,
}

impl AperyReader {
    /// Opens and checks a book: whole entries only, sorted keys, moves that decode.
    pub fn open(path: &Path) -> Result<AperyReader, String> {
        let f = File::open(path).map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
        let reader = BufReader::with_capacity(1 << 16, f);
        AperyReader::from_source(&path.display().to_string(), Box::new(reader))
    }

    /// Checks a book read from `reader` (named `name` in messages).
    pub fn from_source(name: &str, mut reader: Box<dyn Source>) -> Result<AperyReader, String> {
        let err = |e: String| format!("{name}: {e}");
        let len = reader
            .seek(SeekFrom::End(0))
            .and_then(|len| reader.rewind().map(|_| len))
            .map_err(|e| err(format!("cannot read: {e}")))?;
        if len == 0 {
            return Err(err("the file is empty".into()));
        }
        if len % ENTRY_SIZE != 0 {
            return Err(err(format!(
                "{len} bytes is not a whole number of 16-byte entries (is the file truncated?)"
            )));
        }
        let mut prev = 0u64;
        let mut b = [0u8; 16];
        for i in 0..len / ENTRY_SIZE {
            reader
                .read_exact(&mut b)
                .map_err(|e| err(format!("cannot read: {e}")))?;
            let (key, mv, _, _) = decode_entry(&b);
            if decode_move(mv).is_none() {
                return Err(err(format!("entry {}: {mv:#06x} is not a move", i + 1)));
            }
            if key < prev {
                return Err(err(format!(
                    "entry {}: keys are not sorted, so the book cannot be searched",
                    i + 1
                )));
            }
            prev = key;
        }
        Ok(AperyReader {
            name: name.to_string(),
            file: reader,
            entries: len / ENTRY_SIZE,
        })
    }

    pub fn len(&self) -> u64 {
        self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    fn read_entry(&mut self, i: u64) -> Result<(u64, u16, u16, i32), String> {
        let mut b = [0u8; 16];
        self.file
            .seek(SeekFrom::Start(i * ENTRY_SIZE))
            .and_then(|_| self.file.read_exact(&mut b))
            .map_err(|e| format!("{}: cannot read: {e}", self.name))?;
        Ok(decode_entry(&b))
    }

    /// The entries of a position.
    pub fn get(&mut self, pos: &Position) -> Result<Option<BookEntry>, String> {
        let key = key(pos);
        // The first entry whose key is not below ours.
        let (mut lo, mut hi) = (0, self.entries);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.read_entry(mid)?.0 < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut moves = Vec::new();
        let mut i = lo;
        while i < self.entries {
            let (k, mv, count, score) = self.read_entry(i)?;
            if k != key {
                break;
            }
            if let Some(mv) = decode_move(mv) {
                moves.push(BookMove {
                    value: Some(score),
                    count: count as u64,
                    ..BookMove::new(mv)
                });
            }
            i += 1;
        }
        Ok((!moves.is_empty()).then_some(BookEntry { ply: 0, moves }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mersenne_twister_matches_the_cpp_standard() {
        // [rand.predef]: the 10000th output of a default-constructed mt19937_64.
        let mut mt = Mt19937_64::new(Mt19937_64::DEFAULT_SEED);
        let mut last = 0;
        for _ in 0..10000 {
            last = mt.next_u64();
        }
        assert_eq!(last, 9_981_545_732_273_789_042);
    }

    #[test]
    fn moves_round_trip() {
        let pos = Position::startpos();
        let mut list = crate::movegen::MoveList::new();
        crate::movegen::generate_legal(&pos, &mut list);
        for &m in list.iter() {
            assert_eq!(decode_move(encode_move(m)), Some(m));
        }
        let drop = Move::drop(PieceType::Gold, Square::from_usi("5e").unwrap());
        // Gold is 7: from = 81 + 6.
        assert_eq!(encode_move(drop) >> 7, 87);
        assert_eq!(decode_move(encode_move(drop)), Some(drop));
        assert_eq!(decode_move(90 << 7), None);
    }
}
