//! YaneuraOu's text book format (`#YANEURAOU-DB2016 1.00`), which ShogiHome and YaneuraOu read
//! and write:
//!
//! ```text
//! #YANEURAOU-DB2016 1.00
//! sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
//! 7g7f 3c3d 45 20 12
//! 2g2f none 30 18 3 #a comment after the fields
//! ```
//!
//! A `sfen` line starts a position; each following line is `move ponder value depth count`
//! (everything after `move` may be missing, `none` for an unknown ponder, value or depth).
//! Lines starting `#` or `//` are comments. We write positions sorted by SFEN, as YaneuraOu's
//! `BookOnTheFly` binary search needs.
//!
//! [`DbReader`] answers lookups from the file itself: one pass at opening checks every line
//! (a damaged file is refused with the line number at fault) and keeps, per position, a 64-bit
//! digest of its SFEN and the file offset: 16 bytes a position, not the whole book.

use std::collections::BTreeMap;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use super::{BookEntry, BookMove, Source};
use crate::position::parse_move_syntax;

pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// One line of a book file.
#[derive(Debug, PartialEq)]
pub enum Line<'a> {
    /// A comment, the header or a blank line.
    Comment,
    /// `sfen <board> <side> <hands> [<ply>]`: the key (first three fields) and the ply.
    Position {
        key: &'a str,
        ply: u32,
    },
    Move(BookMove),
}

/// Parses one line; the error says what is wrong with it.
pub fn parse_line(line: &str) -> Result<Line<'_>, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
        return Ok(Line::Comment);
    }
    if let Some(rest) = trimmed.strip_prefix("sfen ") {
        return parse_position_line(rest.trim());
    }
    parse_move_line(trimmed).map(Line::Move)
}

fn parse_position_line(rest: &str) -> Result<Line<'_>, String> {
    let fields: Vec<&str> = rest.split_whitespace().collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(format!(
            "a position needs board, side and hands (and a move number), got '{rest}'"
        ));
    }
    if fields[0].split('/').count() != 9 {
        return Err(format!("board '{}' does not have nine ranks", fields[0]));
    }
    if fields[1] != "b" && fields[1] != "w" {
        return Err(format!("side to move '{}' is not b or w", fields[1]));
    }
    let ply = match fields.get(3) {
        None => 0,
        Some(p) => p
            .parse()
            .map_err(|_| format!("move number '{p}' is not a number"))?,
    };
    // The key is the text up to the end of the hands field, spaces as written.
    let key_len = fields[2].as_ptr() as usize + fields[2].len() - rest.as_ptr() as usize;
    let key = &rest[..key_len];
    if key.split(' ').count() != 3 {
        return Err(format!(
            "fields of '{rest}' are not separated by single spaces"
        ));
    }
    Ok(Line::Position { key, ply })
}

fn parse_move_line(line: &str) -> Result<BookMove, String> {
    // Comments after the fields start with `#` or `//` (ShogiHome writes them); a plain sixth
    // word is taken as a comment too.
    let (fields, comment) = match line.find(" #").or_else(|| line.find(" //")) {
        Some(i) => (&line[..i], line[i..].trim_start()),
        None => (line, ""),
    };
    let comment = comment
        .strip_prefix('#')
        .or_else(|| comment.strip_prefix("//"))
        .unwrap_or(comment);
    let words: Vec<&str> = fields.split_whitespace().collect();
    let mv = parse_move_syntax(words[0])
        .ok_or_else(|| format!("'{}' is neither a move, a position nor a comment", words[0]))?;
    let ponder = match words.get(1) {
        None | Some(&"none") | Some(&"resign") | Some(&"win") => None,
        Some(p) => {
            Some(parse_move_syntax(p).ok_or_else(|| format!("ponder move '{p}' is malformed"))?)
        }
    };
    let number = |i: usize, what: &str| -> Result<Option<i64>, String> {
        match words.get(i) {
            None | Some(&"none") => Ok(None),
            Some(w) => w
                .parse()
                .map(Some)
                .map_err(|_| format!("{what} '{w}' is not a number")),
        }
    };
    let value = number(2, "value")?.map(|v| v.clamp(-99_999, 99_999) as i32);
    let depth = number(3, "depth")?.map(|d| d.clamp(-1000, 1000) as i32);
    let count = number(4, "count")?.map_or(1, |c| c.max(0) as u64);
    let extra = words.get(5..).map(|w| w.join(" ")).unwrap_or_default();
    let comment = [extra.as_str(), comment]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    Ok(BookMove {
        mv,
        ponder,
        value,
        depth,
        count,
        comment,
    })
}

/// The text of one move line.
pub fn format_move(m: &BookMove) -> String {
    let opt = |v: Option<i32>| v.map_or("none".to_string(), |v| v.to_string());
    let mut s = format!(
        "{} {} {} {} {}",
        m.mv,
        m.ponder.map_or("none".to_string(), |p| p.to_string()),
        opt(m.value),
        opt(m.depth),
        m.count
    );
    if !m.comment.is_empty() {
        s.push_str(" #");
        s.push_str(&m.comment);
    }
    s
}

/// A whole book in memory, keyed by SFEN without the move number: what the book tools build,
/// merge and write.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoryBook {
    pub positions: BTreeMap<String, BookEntry>,
}

impl MemoryBook {
    /// Reads a whole book. The same position written twice is merged.
    pub fn read(text: &str) -> Result<MemoryBook, String> {
        let mut book = MemoryBook::default();
        let mut current: Option<(String, BookEntry)> = None;
        for_each_line(text.lines(), |n, line| {
            match line {
                Line::Comment => {}
                Line::Position { key, ply } => {
                    if let Some((k, e)) = current.take() {
                        book.add(k, e);
                    }
                    current = Some((
                        key.to_string(),
                        BookEntry {
                            ply,
                            moves: Vec::new(),
                        },
                    ));
                }
                Line::Move(m) => match current.as_mut() {
                    Some((_, e)) => e.moves.push(m),
                    None => return Err(format!("line {n}: a move before any position")),
                },
            }
            Ok(())
        })?;
        if let Some((k, e)) = current.take() {
            book.add(k, e);
        }
        Ok(book)
    }

    /// Reads a book file.
    pub fn load(path: &Path) -> Result<MemoryBook, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        MemoryBook::read(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Adds a position's moves, merging with what the book has for it.
    pub fn add(&mut self, key: String, entry: BookEntry) {
        match self.positions.get_mut(&key) {
            Some(e) => e.merge(entry),
            None => {
                self.positions.insert(key, entry);
            }
        }
    }

    /// The text of the book: positions sorted by SFEN, moves best first; positions without
    /// moves are left out.
    pub fn write(&self) -> String {
        let mut s = String::with_capacity(self.positions.len() * 80);
        s.push_str(HEADER);
        s.push('\n');
        for (key, entry) in &self.positions {
            if entry.moves.is_empty() {
                continue;
            }
            let mut e = entry.clone();
            e.sort();
            s.push_str("sfen ");
            s.push_str(key);
            s.push(' ');
            s.push_str(&e.ply.max(1).to_string());
            s.push('\n');
            for m in &e.moves {
                s.push_str(&format_move(m));
                s.push('\n');
            }
        }
        s
    }

    pub fn move_count(&self) -> usize {
        self.positions.values().map(|e| e.moves.len()).sum()
    }
}

/// Runs `f` on every parsed line with its 1-based number; the first line must be the header.
fn for_each_line<'a>(
    lines: impl Iterator<Item = &'a str>,
    mut f: impl FnMut(usize, Line<'a>) -> Result<(), String>,
) -> Result<(), String> {
    for (i, line) in lines.enumerate() {
        let n = i + 1;
        if n == 1 {
            check_header(line)?;
            continue;
        }
        let parsed = parse_line(line).map_err(|e| format!("line {n}: {e}"))?;
        f(n, parsed)?;
    }
    Ok(())
}

fn check_header(line: &str) -> Result<(), String> {
    let line = line.trim_start_matches('\u{feff}').trim_end();
    if line.starts_with("#YANEURAOU-DB2016") {
        Ok(())
    } else {
        let shown: String = line.chars().take(40).collect();
        Err(format!(
            "not a YaneuraOu book: the first line is '{shown}', not '{HEADER}'"
        ))
    }
}

/// The digest a position is indexed by.
fn digest(key: &str) -> u64 {
    // `DefaultHasher::new()` uses fixed keys, so the digest is the same in every run.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

/// A text book on disk, probed without reading it into memory.
pub struct DbReader {
    /// The file's name, for messages.
    name: String,
    file: Box<dyn Source>,
    /// (digest of the SFEN key, offset of its `sfen` line), sorted.
    index: Vec<(u64, u64)>,
    /// Positions written more than once; the first copy is the one used.
    pub duplicates: usize,
}

impl DbReader {
    /// Opens and checks a book file, building its index.
    pub fn open(path: &Path) -> Result<DbReader, String> {
        let f = File::open(path).map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
        let reader = BufReader::with_capacity(1 << 16, f);
        DbReader::from_source(&path.display().to_string(), Box::new(reader))
    }

    /// Checks a book read from `reader` (named `name` in messages), building its index.
    pub fn from_source(name: &str, mut reader: Box<dyn Source>) -> Result<DbReader, String> {
        let err = |e: String| format!("{name}: {e}");
        let mut index = Vec::new();
        let mut offset = 0u64;
        let mut buf = Vec::new();
        let mut n = 0usize;
        let mut moves_in_current = None;
        loop {
            buf.clear();
            let read = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| err(format!("cannot read: {e}")))?;
            if read == 0 {
                break;
            }
            n += 1;
            let line = std::str::from_utf8(&buf)
                .map_err(|_| err(format!("line {n}: not UTF-8 text (a binary file?)")))?;
            if n == 1 {
                check_header(line).map_err(err)?;
            } else {
                match parse_line(line).map_err(|e| err(format!("line {n}: {e}")))? {
                    Line::Comment => {}
                    Line::Position { key, .. } => {
                        if moves_in_current == Some(0) {
                            return Err(err(format!(
                                "line {n}: the position before it has no moves"
                            )));
                        }
                        moves_in_current = Some(0);
                        index.push((digest(key), offset));
                    }
                    Line::Move(_) => match moves_in_current.as_mut() {
                        Some(k) => *k += 1,
                        None => return Err(err(format!("line {n}: a move before any position"))),
                    },
                }
            }
            offset += read as u64;
        }
        if n == 0 {
            return Err(err("the file is empty".into()));
        }
        if moves_in_current == Some(0) {
            return Err(err(
                "the last position has no moves (is the file truncated?)".into(),
            ));
        }
        // A stable sort keeps the first copy of a duplicated position first.
        index.sort_by_key(|&(d, _)| d);
        let before = index.len();
        index.dedup_by_key(|&mut (d, _)| d);
        let duplicates = before - index.len();
        Ok(DbReader {
            name: name.to_string(),
            file: reader,
            index,
            duplicates,
        })
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The entry for a position key (SFEN without the move number), read from the file.
    pub fn get(&mut self, key: &str) -> Result<Option<BookEntry>, String> {
        let d = digest(key);
        let Ok(i) = self.index.binary_search_by_key(&d, |&(d, _)| d) else {
            return Ok(None);
        };
        let offset = self.index[i].1;
        let err = |e: String| format!("{}: {e}", self.name);
        self.file
            .seek(SeekFrom::Start(offset))
            .map_err(|e| err(format!("cannot seek: {e}")))?;
        let mut entry = BookEntry::default();
        let mut first = true;
        let mut buf = String::new();
        loop {
            buf.clear();
            let read = (&mut self.file)
                .take(1 << 20)
                .read_line(&mut buf)
                .map_err(|e| err(format!("cannot read: {e}")))?;
            if read == 0 {
                break;
            }
            match parse_line(&buf).map_err(|e| err(format!("changed since it was opened: {e}")))? {
                Line::Comment => {}
                Line::Position { key: k, ply } => {
                    if !first {
                        break;
                    }
                    if k != key {
                        // Two keys with one digest (or a changed file): not this position.
                        return Ok(None);
                    }
                    entry.ply = ply;
                    first = false;
                }
                Line::Move(m) if !first => entry.moves.push(m),
                Line::Move(_) => return Err(err("changed since it was opened".into())),
            }
        }
        Ok(Some(entry))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lines_with_missing_and_extra_fields() {
        let Line::Move(m) = parse_line("7g7f").unwrap() else {
            panic!()
        };
        assert_eq!((m.ponder, m.value, m.depth, m.count), (None, None, None, 1));
        let Line::Move(m) = parse_line("8h2b+ 3a2b none 12 3 #wins 2").unwrap() else {
            panic!()
        };
        assert_eq!(m.mv.to_string(), "8h2b+");
        assert_eq!(m.ponder.unwrap().to_string(), "3a2b");
        assert_eq!((m.value, m.depth, m.count), (None, Some(12), 3));
        assert_eq!(m.comment, "wins 2");
        assert_eq!(format_move(&m), "8h2b+ 3a2b none 12 3 #wins 2");
        assert!(parse_line("7g7f 3c3d abc 1 1").is_err());
        assert!(parse_line("hello world").is_err());
        assert!(parse_line("sfen lnsgkgsnl/1r5b1 b -").is_err());
        assert_eq!(
            parse_line("sfen 9/9/9/9/9/9/9/9/4K4 b - 7").unwrap(),
            Line::Position {
                key: "9/9/9/9/9/9/9/9/4K4 b -",
                ply: 7
            }
        );
    }
}
