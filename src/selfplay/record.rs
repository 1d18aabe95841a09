//! The self-play record format: each game as its start position, its moves, the search score
//! of every position and the result, in about three bytes a position without any compressor.
//!
//! ```text
//! file    := MAGIC game*
//! game    := result:u8  varint(len) sfen-bytes  varint(plies)  ply*  END:u8
//! ply     := varint(move index)  varint(zigzag(score + previous score))
//! ```
//! - `result`: 0 a draw, 1 Black won, 2 White won.
//! - The move index is the move's place among the position's legal moves sorted by their 16-bit
//!   code, so it stays readable whatever order the move generator happens to use, and a move that
//!   is not legal cannot be written.
//! - The score is the search's, from the side to move's point of view, before the move. Since
//!   it mostly flips sign from one ply to the next, the sum with the previous score is small.
//! - `END` closes every game, so a file cut short by a crash loses only its last game.

use std::io::Write;

use crate::movegen::{generate_legal, MoveList};
use crate::position::Position;
use crate::types::{Color, Move};

pub const MAGIC: &[u8] = b"HAYATE-SELFPLAY 1\n";
const END: u8 = 0xA5;

/// Scores are kept within this range (mates are a little below it).
pub const SCORE_LIMIT: i32 = 32_000;

/// How a game ended, from Black's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Draw,
    BlackWin,
    WhiteWin,
}

impl Outcome {
    /// The win of `c`.
    pub fn win(c: Color) -> Outcome {
        match c {
            Color::Black => Outcome::BlackWin,
            Color::White => Outcome::WhiteWin,
        }
    }

    /// 1 for a win of `c`, 0.5 for a draw, 0 for a loss.
    pub fn points(self, c: Color) -> f32 {
        match (self, c) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::BlackWin, Color::Black) | (Outcome::WhiteWin, Color::White) => 1.0,
            _ => 0.0,
        }
    }

    fn code(self) -> u8 {
        match self {
            Outcome::Draw => 0,
            Outcome::BlackWin => 1,
            Outcome::WhiteWin => 2,
        }
    }
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The SFEN of the first position scored (after the opening and its random plies).
    pub start: String,
    pub moves: Vec<Move>,
    /// The search score of the position before each move, from its side to move's view.
    pub scores: Vec<i32>,
    pub outcome: Outcome,
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// The legal moves of `pos` sorted by code: the alphabet of the move index.
fn sorted_legal(pos: &Position, list: &mut MoveList) {
    list.clear();
    generate_legal(pos, list);
    let mut v: Vec<Move> = list.to_vec();
    v.sort_unstable_by_key(|m| m.raw());
    list.clear();
    for m in v {
        list.push(m);
    }
}

impl GameRecord {
    /// Appends the game's bytes to `out`. Fails on a move that is not legal where it is played.
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<(), String> {
        if self.moves.len() != self.scores.len() {
            return Err("a score is needed for every move".into());
        }
        let mut pos = Position::from_sfen(&self.start).map_err(|e| e.to_string())?;
        out.push(self.outcome.code());
        put_varint(out, self.start.len() as u64);
        out.extend_from_slice(self.start.as_bytes());
        put_varint(out, self.moves.len() as u64);
        let mut list = MoveList::new();
        let mut prev = 0i64;
        for (&m, &s) in self.moves.iter().zip(&self.scores) {
            sorted_legal(&pos, &mut list);
            let index = list
                .as_slice()
                .iter()
                .position(|&l| l == m)
                .ok_or_else(|| format!("{m} is not legal in {}", pos.to_sfen()))?;
            put_varint(out, index as u64);
            let s = s.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i64;
            put_varint(out, zigzag(s + prev));
            prev = s;
            pos.do_move(m);
        }
        out.push(END);
        Ok(())
    }
}

/// Reads games from a byte slice, checking every move.
pub struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader over a whole file's bytes (with its magic).
    pub fn new(data: &'a [u8]) -> Result<Reader<'a>, String> {
        if !data.starts_with(MAGIC) {
            return Err("not a Hayate self-play file (bad magic)".into());
        }
        Ok(Reader {
            data,
            at: MAGIC.len(),
        })
    }

    /// The offset just after the last game read whole.
    pub fn offset(&self) -> usize {
        self.at
    }

    fn byte(&mut self) -> Result<u8, String> {
        let b = *self
            .data
            .get(self.at)
            .ok_or("the file ends inside a game")?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a number runs past 64 bits".into())
    }

    /// The next game, `None` at a clean end of the data, or an error for damaged data (the
    /// reader stays at the start of that game).
    pub fn next_game(&mut self) -> Option<Result<GameRecord, String>> {
        if self.at >= self.data.len() {
            return None;
        }
        let start = self.at;
        let r = self.game();
        if r.is_err() {
            self.at = start;
        }
        Some(r)
    }

    fn game(&mut self) -> Result<GameRecord, String> {
        let outcome = match self.byte()? {
            0 => Outcome::Draw,
            1 => Outcome::BlackWin,
            2 => Outcome::WhiteWin,
            b => return Err(format!("bad result code {b}")),
        };
        let len = self.varint()? as usize;
        let end = self.at.checked_add(len).ok_or("bad SFEN length")?;
        let bytes = self
            .data
            .get(self.at..end)
            .ok_or("the file ends inside a game")?;
        self.at = end;
        let start = std::str::from_utf8(bytes)
            .map_err(|_| "the SFEN is not text")?
            .to_string();
        let mut pos = Position::from_sfen(&start).map_err(|e| e.to_string())?;
        let plies = self.varint()? as usize;
        if plies > 100_000 {
            return Err(format!("{plies} plies is not a game"));
        }
        let mut moves = Vec::with_capacity(plies);
        let mut scores = Vec::with_capacity(plies);
        let mut list = MoveList::new();
        let mut prev = 0i64;
        for _ in 0..plies {
            let index = self.varint()? as usize;
            sorted_legal(&pos, &mut list);
            let m = *list
                .as_slice()
                .get(index)
                .ok_or_else(|| format!("move {index} of {} does not exist", list.len()))?;
            let s = unzigzag(self.varint()?) - prev;
            if s.abs() > SCORE_LIMIT as i64 {
                return Err(format!("score {s} out of range"));
            }
            prev = s;
            moves.push(m);
            scores.push(s as i32);
            pos.do_move(m);
        }
        if self.byte()? != END {
            return Err("a game is not closed by its end mark".into());
        }
        Ok(GameRecord {
            start,
            moves,
            scores,
            outcome,
        })
    }
}

/// Reads every game of a file's bytes; damaged data is an error.
pub fn read_all(data: &[u8]) -> Result<Vec<GameRecord>, String> {
    let mut r = Reader::new(data)?;
    let mut games = Vec::new();
    while let Some(g) = r.next_game() {
        games.push(g.map_err(|e| format!("game {}: {e}", games.len() + 1))?);
    }
    Ok(games)
}

/// Writes a new file with `games`.
pub fn write_all(out: &mut impl Write, games: &[GameRecord]) -> Result<(), String> {
    let mut bytes = MAGIC.to_vec();
    for g in games {
        g.encode(&mut bytes)?;
    }
    out.write_all(&bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_zigzag_round_trip() {
        for v in [0i64, 1, -1, 63, -64, 300, -300, 32000, -32000, i64::MAX / 4] {
            let mut b = Vec::new();
            put_varint(&mut b, zigzag(v));
            let mut r = Reader { data: &b, at: 0 };
            assert_eq!(unzigzag(r.varint().unwrap()), v);
        }
    }

    #[test]
    fn a_cut_file_keeps_its_whole_games() {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for text in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
            let m = pos.parse_usi_move(text).unwrap();
            pos.do_move(m);
            moves.push(m);
        }
        let g = GameRecord {
            start: Position::startpos().to_sfen(),
            moves,
            scores: vec![30, -25, 400, -380],
            outcome: Outcome::WhiteWin,
        };
        let mut bytes = MAGIC.to_vec();
        g.encode(&mut bytes).unwrap();
        let one = bytes.len();
        g.encode(&mut bytes).unwrap();
        bytes.truncate(bytes.len() - 3);
        let mut r = Reader::new(&bytes).unwrap();
        assert_eq!(r.next_game().unwrap().unwrap(), g);
        assert!(r.next_game().unwrap().is_err());
        assert_eq!(r.offset(), one);
    }
}
