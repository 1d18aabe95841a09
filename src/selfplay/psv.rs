//! YaneuraOu's `PackedSfenValue`: the 40-byte training record most shogi tools read.
//!
//! ```text
//! bytes 0..32   PackedSfen: the position in 256 bits (below)
//! bytes 32..34  score, i16, side to move's view
//! bytes 34..36  the move played, in YaneuraOu's 16-bit move code
//! bytes 36..38  game ply, u16
//! byte  38      game result for the side to move: 1 win, 0 draw, -1 loss
//! byte  39      padding
//! ```
//! The PackedSfen bit stream, least significant bit first: the side to move (1 bit), the two
//! kings' squares (7 bits each, Black's first), then every other square from 1a, 1b, ... to 9i
//! as a Huffman code, then the hand pieces of Black and then White, pawns first. Every one of the
//! 40 pieces is written exactly once, so the stream is always 256 bits long.

use crate::position::Position;
use crate::types::{Color, Hand, Move, Piece, PieceType, Square};

pub const RECORD_BYTES: usize = 40;

/// Huffman codes (code, bits) of the empty square and the unpromoted kinds on the board, by
/// piece type (pawn .. gold). In hand a kind's code loses its lowest bit (the "not empty" bit).
const CODES: [(u32, u32); 8] = [
    (0x00, 1),
    (0x01, 2),
    (0x03, 4),
    (0x0b, 4),
    (0x07, 4),
    (0x1f, 6),
    (0x3f, 6),
    (0x0f, 5),
];

/// Hand kinds in the order the stream writes them: YaneuraOu's piece type order (pawn, lance,
/// knight, silver, bishop, rook, gold), which is also the start of Hayate's.
fn hand_order() -> impl Iterator<Item = PieceType> {
    PieceType::ALL[..7].iter().copied()
}

struct BitWriter {
    data: [u8; 32],
    at: usize,
}

impl BitWriter {
    fn bit(&mut self, b: bool) -> Result<(), String> {
        if self.at >= 256 {
            return Err("the position needs more than 256 bits (more than 40 pieces?)".into());
        }
        if b {
            self.data[self.at / 8] |= 1 << (self.at % 8);
        }
        self.at += 1;
        Ok(())
    }

    fn bits(&mut self, v: u32, n: u32) -> Result<(), String> {
        for i in 0..n {
            self.bit(v >> i & 1 == 1)?;
        }
        Ok(())
    }
}

struct BitReader<'a> {
    data: &'a [u8; 32],
    at: usize,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Result<bool, String> {
        if self.at >= 256 {
            return Err("the packed position runs past 256 bits".into());
        }
        let b = self.data[self.at / 8] >> (self.at % 8) & 1 == 1;
        self.at += 1;
        Ok(b)
    }

    fn bits(&mut self, n: u32) -> Result<u32, String> {
        let mut v = 0;
        for i in 0..n {
            v |= u32::from(self.bit()?) << i;
        }
        Ok(v)
    }

    /// Reads a Huffman code of an unpromoted kind, 0 for an empty square; in hand without its
    /// leading "not empty" bit.
    fn kind(&mut self, in_hand: bool) -> Result<usize, String> {
        let (mut code, mut bits) = if in_hand { (1u32, 1u32) } else { (0, 0) };
        loop {
            code |= u32::from(self.bit()?) << bits;
            bits += 1;
            let found = CODES
                .iter()
                .position(|&(c, b)| c == code && b == bits && !(in_hand && b == 1));
            if let Some(k) = found {
                return Ok(k);
            }
            if bits > 6 {
                return Err("bad piece code in the packed position".into());
            }
        }
    }
}

/// Packs `pos` (both kings on the board, at most 40 pieces, as in a game).
pub fn pack(pos: &Position) -> Result<[u8; 32], String> {
    let mut w = BitWriter {
        data: [0; 32],
        at: 0,
    };
    w.bit(pos.side_to_move() == Color::White)?;
    for c in Color::ALL {
        let k = pos
            .king_square(c)
            .ok_or("a packed position needs both kings")?;
        w.bits(k.index() as u32, 7)?;
    }
    for i in 0..81u8 {
        let sq = Square::from_index_unchecked(i);
        match pos.piece_on(sq) {
            None => w.bits(CODES[0].0, CODES[0].1)?,
            Some(p) if p.piece_type() == PieceType::King => {}
            Some(p) => {
                let base = p.piece_type().unpromote();
                let (code, bits) = CODES[base.index()];
                w.bits(code, bits)?;
                if base != PieceType::Gold {
                    w.bit(p.piece_type().is_promoted())?;
                }
                w.bit(p.color() == Color::White)?;
            }
        }
    }
    for c in Color::ALL {
        for pt in hand_order() {
            for _ in 0..pos.hand(c).count(pt) {
                let (code, bits) = CODES[pt.index()];
                w.bits(code >> 1, bits - 1)?;
                if pt != PieceType::Gold {
                    w.bit(false)?;
                }
                w.bit(c == Color::White)?;
            }
        }
    }
    Ok(w.data)
}

/// Unpacks a PackedSfen (the move number is not in it: it becomes `ply`).
pub fn unpack(data: &[u8; 32], ply: u32) -> Result<Position, String> {
    let mut r = BitReader { data, at: 0 };
    let side = if r.bit()? { 'w' } else { 'b' };
    let mut board: [Option<Piece>; 81] = [None; 81];
    for c in Color::ALL {
        let k = Square::from_index(r.bits(7)? as u8).ok_or("bad king square")?;
        if board[k.index()].is_some() {
            return Err("both kings on one square".into());
        }
        board[k.index()] = Some(Piece::new(c, PieceType::King));
    }
    let mut pieces = 0;
    for slot in board.iter_mut() {
        if slot.is_some_and(|p| p.piece_type() == PieceType::King) {
            continue;
        }
        let kind = r.kind(false)?;
        if kind == 0 {
            continue;
        }
        let base = PieceType::from_u8(kind as u8).ok_or("bad kind")?;
        let promoted = base != PieceType::Gold && r.bit()?;
        let c = if r.bit()? { Color::White } else { Color::Black };
        let pt = if promoted { base.promote() } else { base };
        *slot = Some(Piece::new(c, pt));
        pieces += 1;
    }
    let mut hands = [Hand::default(); 2];
    while pieces < 38 {
        let kind = r.kind(true)?;
        let base = PieceType::from_u8(kind as u8).ok_or("bad kind in hand")?;
        if base != PieceType::Gold && r.bit()? {
            return Err("a promoted piece in hand".into());
        }
        let c = usize::from(r.bit()?);
        if hands[c].count(base) >= u32::from(Hand::MAX[base.index()]) {
            return Err("more pieces of a kind in hand than exist".into());
        }
        hands[c].add(base);
        pieces += 1;
    }
    let hand_text = crate::position::hands_to_sfen(hands);
    let sfen = format!(
        "{} {side} {hand_text} {}",
        crate::position::board_to_sfen(&board),
        ply.max(1)
    );
    Position::from_sfen(&sfen).map_err(|e| e.to_string())
}

/// Hayate's move as YaneuraOu's 16-bit code: `to | from << 7`, a drop has the piece type as its
/// from and bit 14, a promotion bit 15.
pub fn move16(m: Move) -> u16 {
    let to = m.to().index() as u16;
    if m.is_drop() {
        to | (m.dropped() as u16) << 7 | 1 << 14
    } else {
        to | (m.from().index() as u16) << 7 | if m.is_promotion() { 1 << 15 } else { 0 }
    }
}

/// YaneuraOu's 16-bit move code as Hayate's move (not checked for legality).
pub fn from_move16(code: u16) -> Option<Move> {
    let to = Square::from_index((code & 0x7f) as u8)?;
    let from = (code >> 7 & 0x7f) as u8;
    if code & 1 << 14 != 0 {
        let pt = PieceType::from_u8(from).filter(|p| p.is_hand_type())?;
        Some(Move::drop(pt, to))
    } else {
        Some(Move::normal(
            Square::from_index(from)?,
            to,
            code & 1 << 15 != 0,
        ))
    }
}

/// One record: `pos` with its score, the move played and the result for its side to move.
pub fn record(
    pos: &Position,
    score: i32,
    m: Move,
    result: i8,
) -> Result<[u8; RECORD_BYTES], String> {
    let mut out = [0u8; RECORD_BYTES];
    out[..32].copy_from_slice(&pack(pos)?);
    out[32..34].copy_from_slice(&(score.clamp(-32000, 32000) as i16).to_le_bytes());
    out[34..36].copy_from_slice(&move16(m).to_le_bytes());
    out[36..38].copy_from_slice(&(pos.game_ply().min(u16::MAX as u32) as u16).to_le_bytes());
    out[38] = result as u8;
    Ok(out)
}

/// A decoded record: position, score, move and result.
pub fn decode(rec: &[u8; RECORD_BYTES]) -> Result<(Position, i16, Option<Move>, i8), String> {
    let mut packed = [0u8; 32];
    packed.copy_from_slice(&rec[..32]);
    let ply = u16::from_le_bytes([rec[36], rec[37]]);
    let pos = unpack(&packed, u32::from(ply))?;
    let score = i16::from_le_bytes([rec[32], rec[33]]);
    let m = from_move16(u16::from_le_bytes([rec[34], rec[35]]));
    Ok((pos, score, m, rec[38] as i8))
}

/// The records of every position of a game, in order.
pub fn game_records(g: &super::record::GameRecord) -> Result<Vec<[u8; RECORD_BYTES]>, String> {
    let mut pos = Position::from_sfen(&g.start).map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(g.moves.len());
    for (&m, &score) in g.moves.iter().zip(&g.scores) {
        let points = g.outcome.points(pos.side_to_move());
        let result = if points > 0.5 {
            1
        } else if points < 0.5 {
            -1
        } else {
            0
        };
        out.push(record(&pos, score, m, result)?);
        pos.do_move(m);
    }
    Ok(out)
}

/// Writes the records of every position of the self-play file `input` to `output`; returns
/// how many.
pub fn export_file(input: &str, output: &str) -> Result<usize, String> {
    let data = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let games = super::record::read_all(&data).map_err(|e| format!("{input}: {e}"))?;
    let mut bytes = Vec::new();
    for g in &games {
        for r in game_records(g)? {
            bytes.extend_from_slice(&r);
        }
    }
    std::fs::write(output, &bytes).map_err(|e| format!("{output}: {e}"))?;
    Ok(bytes.len() / RECORD_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_packs_into_256_bits_and_back() {
        let pos = Position::startpos();
        let data = pack(&pos).unwrap();
        assert_eq!(unpack(&data, 1).unwrap().to_sfen(), pos.to_sfen());
    }

    #[test]
    fn moves_convert_both_ways() {
        // Bishop in hand: drops, promotions and plain moves.
        let pos = Position::from_sfen(
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5",
        )
        .unwrap();
        let mut list = crate::movegen::MoveList::new();
        crate::movegen::generate_legal(&pos, &mut list);
        for &m in list.iter() {
            assert_eq!(from_move16(move16(m)), Some(m));
        }
    }
}
