//! Making books from game records: every position of every game up to a ply limit, with how
//! often each move was played and how the games went after it.

use std::collections::HashMap;
use std::path::Path;

use super::db::MemoryBook;
use super::{position_key, BookEntry, BookMove};
use crate::kifu::{csa, Format, Outcome};
use crate::position::Position;
use crate::types::{Color, Move};

/// One game: where it started, its moves, and its result when the record says.
#[derive(Clone, Debug)]
pub struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
    pub outcome: Option<Outcome>,
}

/// Reads the games of a file: CSA (`.csa`, several games split by `/` lines), KIF (`.kif`,
/// `.kifu`), KI2 (`.ki2`, `.ki2u`), in UTF-8 or Shift_JIS. A file of another name is sniffed:
/// a record when it looks like one, else lines of `startpos moves ...` / `sfen ... moves ...`.
pub fn read_games(path: &Path) -> Result<Vec<Game>, String> {
    let text = crate::kifu::read_text(path)?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    parse_games(&text, ext).map_err(|e| format!("{}{e}", path.display()))
}

/// The games of a file's `text`, its format named by the file name's extension `ext` (sniffed
/// when that names none), as [`read_games`] reads them. Errors start with the place in the file
/// (`: ...` or ` line N: ...`), to follow the file's name.
pub fn parse_games(text: &str, ext: &str) -> Result<Vec<Game>, String> {
    let format = Format::from_extension(ext).or_else(|| Format::sniff(text));
    let from_record = |rec: crate::kifu::GameRecord| -> Result<Game, String> {
        let start = Position::from_sfen(&rec.start_sfen).map_err(|e| e.to_string())?;
        rec.final_position()?;
        Ok(Game {
            start,
            moves: rec.moves.iter().map(|m| m.mv).collect(),
            outcome: rec.outcome(),
        })
    };
    let err = |e: String| format!(": {e}");
    match format {
        Some(Format::Csa) => {
            let mut games = Vec::new();
            let mut chunk = String::new();
            for line in text.lines().chain(std::iter::once("/")) {
                if line.trim() == "/" {
                    if !chunk.trim().is_empty() {
                        games.push(from_record(csa::read(&chunk).map_err(err)?).map_err(err)?);
                    }
                    chunk.clear();
                } else {
                    chunk.push_str(line);
                    chunk.push('\n');
                }
            }
            Ok(games)
        }
        Some(f) => Ok(vec![from_record(f.read(text).map_err(err)?).map_err(err)?]),
        None => text
            .lines()
            .enumerate()
            .map(|(i, l)| (i, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .map(|(i, l)| {
                let pos = Position::from_usi(l).map_err(|e| format!(" line {}: {e}", i + 1))?;
                let (start, moves) = pos.start_and_moves();
                Ok(Game {
                    start,
                    moves,
                    outcome: None,
                })
            })
            .collect(),
    }
}

/// Wins, draws and losses for the side that played a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
}

impl Tally {
    fn comment(self) -> String {
        let games = self.won + self.drawn + self.lost;
        if games == 0 {
            return String::new();
        }
        let rate = (self.won as f64 + self.drawn as f64 / 2.0) / games as f64;
        format!(
            "won {} drawn {} lost {} ({:.0}%)",
            self.won,
            self.drawn,
            self.lost,
            rate * 100.0
        )
    }
}

/// Builds a book from games, counting each move and its results.
pub struct RecordBook {
    /// Positions up to this ply (counted from the start position's move number) go in.
    pub max_ply: u32,
    entries: HashMap<String, BookEntry>,
    tallies: HashMap<(String, Move), Tally>,
    /// Counts of replies, for each move's `ponder`.
    replies: HashMap<(String, Move), HashMap<Move, u64>>,
    pub games: usize,
}

impl RecordBook {
    pub fn new(max_ply: u32) -> RecordBook {
        RecordBook {
            max_ply,
            entries: HashMap::new(),
            tallies: HashMap::new(),
            replies: HashMap::new(),
            games: 0,
        }
    }

    pub fn add(&mut self, game: &Game) -> Result<(), String> {
        let mut pos = game.start.clone();
        let mut last: Option<(String, Move)> = None;
        for (i, &m) in game.moves.iter().enumerate() {
            if pos.game_ply() > self.max_ply {
                break;
            }
            if !pos.is_legal(m) {
                return Err(format!("move {} ({m}) is illegal", i + 1));
            }
            let key = position_key(&pos);
            if let Some(prev) = last.take() {
                *self.replies.entry(prev).or_default().entry(m).or_default() += 1;
            }
            let entry = self
                .entries
                .entry(key.clone())
                .or_insert_with(|| BookEntry {
                    ply: pos.game_ply(),
                    moves: Vec::new(),
                });
            entry.ply = entry.ply.min(pos.game_ply());
            match entry.moves.iter_mut().find(|b| b.mv == m) {
                Some(b) => b.count += 1,
                None => entry.moves.push(BookMove::new(m)),
            }
            let us = pos.side_to_move();
            let t = self.tallies.entry((key.clone(), m)).or_default();
            match game.outcome {
                Some(Outcome::Draw) => t.drawn += 1,
                Some(o) if o == Outcome::win_for(us) => t.won += 1,
                Some(_) => t.lost += 1,
                None => {}
            }
            last = Some((key, m));
            pos.do_move(m);
        }
        self.games += 1;
        Ok(())
    }

    /// The finished book: each move with its count, most frequent reply and result tally.
    pub fn finish(self, min_count: u64) -> MemoryBook {
        let mut book = MemoryBook::default();
        for (key, mut entry) in self.entries {
            entry.moves.retain(|m| m.count >= min_count);
            for m in &mut entry.moves {
                let k = (key.clone(), m.mv);
                m.comment = self
                    .tallies
                    .get(&k)
                    .map(|t| t.comment())
                    .unwrap_or_default();
                m.ponder = self.replies.get(&k).and_then(|r| {
                    r.iter()
                        .max_by_key(|&(mv, n)| (*n, std::cmp::Reverse(mv.raw())))
                        .map(|(mv, _)| *mv)
                });
            }
            if !entry.moves.is_empty() {
                book.add(key, entry);
            }
        }
        book
    }
}

/// Figures for `hayate book stats`.
pub fn stats(book: &MemoryBook) -> String {
    let positions = book.positions.len();
    let moves = book.move_count();
    let mut by_ply: std::collections::BTreeMap<u32, usize> = Default::default();
    let mut valued = 0;
    let mut depth_sum = 0i64;
    let mut depths = 0;
    let mut sides = [0usize; 2];
    for (key, e) in &book.positions {
        *by_ply.entry(e.ply).or_default() += 1;
        if key.contains(" w ") {
            sides[Color::White.index()] += 1;
        } else {
            sides[Color::Black.index()] += 1;
        }
        for m in &e.moves {
            if m.value.is_some() {
                valued += 1;
            }
            if let Some(d) = m.depth {
                depth_sum += d as i64;
                depths += 1;
            }
        }
    }
    let mut s = format!(
        "positions: {positions} (Black to move {}, White to move {})\nmoves: {moves} ({valued} with a value)\n",
        sides[0], sides[1]
    );
    if depths > 0 {
        s.push_str(&format!(
            "average depth: {:.1}\n",
            depth_sum as f64 / depths as f64
        ));
    }
    s.push_str("positions by ply:");
    for (ply, n) in by_ply {
        s.push_str(&format!(" {ply}:{n}"));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_are_from_the_movers_view() {
        let mut rb = RecordBook::new(10);
        let start = Position::startpos();
        let mv = |p: &Position, t: &str| p.parse_usi_move(t).unwrap();
        let mut p = start.clone();
        let a = mv(&p, "7g7f");
        p.do_move(a);
        let b = mv(&p, "3c3d");
        rb.add(&Game {
            start: start.clone(),
            moves: vec![a, b],
            outcome: Some(Outcome::WhiteWin),
        })
        .unwrap();
        let book = rb.finish(1);
        let e = &book.positions[&position_key(&start)];
        assert_eq!(e.moves[0].comment, "won 0 drawn 0 lost 1 (0%)");
        assert_eq!(e.moves[0].ponder, Some(b));
        let e = &book.positions[&position_key(&p)];
        assert_eq!(e.moves[0].comment, "won 1 drawn 0 lost 0 (100%)");
    }
}
