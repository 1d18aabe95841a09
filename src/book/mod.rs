//! The opening book: YaneuraOu's text DB (read and written) and Apery's binary `book.bin`
//! (read), probed at the root before any search; and the tools that make books (`hayate book`).
//!
//! A book maps a position (board, side to move, hands; the move number is kept beside it) to
//! moves, each with the expected reply (`ponder`), a value from the side to move's view, the
//! depth it was searched to and how often it was played. Both readers look positions up in the
//! file on demand, so a book far larger than memory is usable.

pub mod apery;
pub mod db;
pub mod extend;
pub mod make;
mod select;

use std::io::{BufRead, Seek};
use std::path::{Path, PathBuf};

pub use select::{choose, BookOptions};

use crate::rng::Rng;

/// What the book readers probe: a buffered file, or bytes in memory (`std::io::Cursor`) for
/// tests and fuzzing.
pub trait Source: BufRead + Seek + Send {}
impl<T: BufRead + Seek + Send> Source for T {}

use crate::position::{board_to_sfen, Position};
use crate::types::{Color, Move, Piece, Square};

/// One move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// The reply the book expects (YaneuraOu's `ponder` field; `none` when unknown).
    pub ponder: Option<Move>,
    /// Centipawns from the side to move's view; `None` when the book does not say.
    pub value: Option<i32>,
    /// Search depth behind `value`; `None` when the book does not say.
    pub depth: Option<i32>,
    /// How often the move was played (or chosen); at least 1.
    pub count: u64,
    /// Free text kept after the fields (win/draw/loss tallies of a book made from games).
    pub comment: String,
}

impl BookMove {
    pub fn new(mv: Move) -> BookMove {
        BookMove {
            mv,
            ponder: None,
            value: None,
            depth: None,
            count: 1,
            comment: String::new(),
        }
    }
}

/// The moves the book knows for one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookEntry {
    /// The move number the position was written with (YaneuraOu matches it unless
    /// `IgnoreBookPly`); the smallest one when the position was reached at several.
    pub ply: u32,
    pub moves: Vec<BookMove>,
}

impl BookEntry {
    /// Folds `other` (the same position) into this entry: counts add up, and a move's value,
    /// depth and ponder come from whichever source searched it deeper.
    pub fn merge(&mut self, other: BookEntry) {
        self.ply = match (self.ply, other.ply) {
            (0, p) | (p, 0) => p,
            (a, b) => a.min(b),
        };
        for m in other.moves {
            match self.moves.iter_mut().find(|x| x.mv == m.mv) {
                Some(x) => {
                    // Counts come from files: a huge one saturates rather than wraps.
                    x.count = x.count.saturating_add(m.count);
                    if m.depth.unwrap_or(-1) > x.depth.unwrap_or(-1) {
                        x.value = m.value;
                        x.depth = m.depth;
                        x.ponder = m.ponder.or(x.ponder);
                    }
                    if x.comment.is_empty() {
                        x.comment = m.comment;
                    }
                }
                None => self.moves.push(m),
            }
        }
    }

    /// Best first: by value (unknown values last), then by count.
    pub fn sort(&mut self) {
        self.moves.sort_by(|a, b| {
            let va = a.value.unwrap_or(i32::MIN);
            let vb = b.value.unwrap_or(i32::MIN);
            vb.cmp(&va).then(b.count.cmp(&a.count))
        });
    }
}

/// The book's key for a position: the SFEN without its move number.
pub fn position_key(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    match sfen.rsplit_once(' ') {
        Some((key, _ply)) => key.to_string(),
        None => sfen,
    }
}

/// The position with the board turned round and the colours swapped: the same game seen from
/// the other side. `FlippedBook` finds White's positions in a book that holds Black's.
pub fn flipped(pos: &Position) -> Option<Position> {
    let mut board: [Option<Piece>; 81] = [None; 81];
    for sq in Square::all() {
        if let Some(p) = pos.piece_on(sq) {
            board[sq.flip().index()] = Some(Piece::new(!p.color(), p.piece_type()));
        }
    }
    let side = (!pos.side_to_move()).to_sfen();
    // The White hand becomes Black's.
    let hands = crate::position::hands_to_sfen([pos.hand(Color::White), pos.hand(Color::Black)]);
    let sfen = format!(
        "{} {side} {hands} {}",
        board_to_sfen(&board),
        pos.sfen_move_number()
    );
    Position::from_sfen(&sfen).ok()
}

/// A move seen from the other side of the board.
pub fn flip_move(m: Move) -> Move {
    if m.is_drop() {
        Move::drop(m.dropped(), m.to().flip())
    } else {
        Move::normal(m.from().flip(), m.to().flip(), m.is_promotion())
    }
}

/// A book file opened for probing.
pub enum Book {
    Db(db::DbReader),
    Apery(apery::AperyReader),
}

impl Book {
    /// Opens a book, choosing the format by content: Apery books are binary, YaneuraOu's start
    /// with their header line.
    pub fn open(path: &Path) -> Result<Book, String> {
        let mut head = [0u8; 18];
        let n = {
            use std::io::Read;
            let mut f = std::fs::File::open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            f.read(&mut head)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        };
        let is_text = head[..n].starts_with(b"#YANEURAOU-DB2016")
            || head[..n].starts_with("\u{feff}#YANEURAOU".as_bytes());
        if is_text || path.extension().is_some_and(|e| e == "db") {
            Ok(Book::Db(db::DbReader::open(path)?))
        } else {
            Ok(Book::Apery(apery::AperyReader::open(path)?))
        }
    }

    /// The book's moves for exactly this position (no flipping), unchecked for legality.
    fn entry(&mut self, pos: &Position) -> Result<Option<BookEntry>, String> {
        match self {
            Book::Db(b) => b.get(&position_key(pos)),
            Book::Apery(b) => b.get(pos),
        }
    }

    /// The legal book moves for `pos`: found directly, or (with `flipped_too`) in the
    /// colour-flipped position and turned back. With `match_ply`, a text book's entry must carry
    /// the position's move number (Apery books have none).
    pub fn moves(
        &mut self,
        pos: &Position,
        match_ply: bool,
        flipped_too: bool,
    ) -> Result<Vec<BookMove>, String> {
        let ply_ok = |e: &BookEntry| !match_ply || e.ply == 0 || e.ply == pos.game_ply();
        let mut found = self.entry(pos)?.filter(ply_ok).map(|e| e.moves);
        if found.is_none() && flipped_too {
            if let Some(f) = flipped(pos) {
                found = self.entry(&f)?.filter(ply_ok).map(|e| {
                    e.moves
                        .into_iter()
                        .map(|mut m| {
                            m.mv = flip_move(m.mv);
                            m.ponder = m.ponder.map(flip_move);
                            m
                        })
                        .collect()
                });
            }
        }
        let mut moves = found.unwrap_or_default();
        moves.retain(|m| pos.is_legal(m.mv));
        for m in &mut moves {
            // A ponder move that is not legal after the move is dropped rather than trusted.
            if let Some(p) = m.ponder {
                let mut next = pos.clone();
                next.do_move(m.mv);
                if !next.is_legal(p) {
                    m.ponder = None;
                }
            }
        }
        Ok(moves)
    }
}

/// What the book decided at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookHit {
    pub chosen: BookMove,
    /// The expected reply, from the move's `ponder` field or the book's best reply.
    pub ponder: Option<Move>,
    /// The line the book knows: the move, the reply, and the book's best moves after them.
    pub pv: Vec<Move>,
    /// How many moves the book offered before the option filters.
    pub candidates: usize,
}

/// The engine's book: which file is open, so a changed `BookFile` or `BookDir` reopens it.
#[derive(Default)]
pub struct OpeningBook {
    path: Option<PathBuf>,
    book: Option<Book>,
    rng: Rng,
}

/// The longest book line reported in the `pv`.
const PV_LIMIT: usize = 8;

impl OpeningBook {
    /// A book already open, with a seeded choice of moves: for tests and fuzzing, which probe
    /// a book without `BookFile` options.
    pub fn with_book(book: Book, seed: u64) -> OpeningBook {
        OpeningBook {
            path: None,
            book: Some(book),
            rng: Rng::seeded(seed),
        }
    }

    /// Opens the book the options name, if it is not open already. Returns a message for an
    /// `info string` when the book is missing or unreadable (the engine then plays without it)
    /// or holds a position twice.
    pub fn prepare(&mut self, opts: &BookOptions) -> Option<String> {
        if !opts.own_book || opts.file == "no_book" || opts.file.is_empty() {
            self.path = None;
            self.book = None;
            return None;
        }
        let path = resolve(&opts.dir, &opts.file);
        if self.path.as_ref() == Some(&path) {
            return None;
        }
        self.path = Some(path.clone());
        self.book = None;
        if !path.is_file() {
            return Some(format!(
                "book file {} not found; playing without a book",
                path.display()
            ));
        }
        match Book::open(&path) {
            Ok(b) => {
                let note = match &b {
                    Book::Db(db) if db.duplicates > 0 => Some(format!(
                        "book {}: {} positions are written more than once; the first of each is used",
                        path.display(),
                        db.duplicates
                    )),
                    _ => None,
                };
                self.book = Some(b);
                note
            }
            Err(e) => Some(format!(
                "book {}: {e}; playing without a book",
                path.display()
            )),
        }
    }

    /// The book's choice at the root, if any. An error (a file changed under us) closes the
    /// book; its text is for an `info string`.
    pub fn probe(&mut self, pos: &Position, opts: &BookOptions) -> Result<Option<BookHit>, String> {
        let Some(book) = self.book.as_mut() else {
            return Ok(None);
        };
        if pos.game_ply() > opts.moves {
            return Ok(None);
        }
        let result = probe_book(book, pos, opts, &mut self.rng);
        if result.is_err() {
            self.book = None;
        }
        result
    }
}

fn probe_book(
    book: &mut Book,
    pos: &Position,
    opts: &BookOptions,
    rng: &mut Rng,
) -> Result<Option<BookHit>, String> {
    let moves = book.moves(pos, !opts.ignore_ply, opts.flipped)?;
    let candidates = moves.len();
    let Some(chosen) = choose(moves, pos.side_to_move(), opts, rng) else {
        return Ok(None);
    };
    // The line: the chosen move, its reply, then the book's best moves while it knows them.
    let mut pv = vec![chosen.mv];
    let mut p = pos.clone();
    p.do_move(chosen.mv);
    let mut ponder = chosen.ponder;
    if ponder.is_none() {
        ponder = best_known(book, &p, opts)?;
    }
    let mut next = ponder;
    while let Some(m) = next {
        if pv.len() >= PV_LIMIT || !p.is_legal(m) {
            break;
        }
        pv.push(m);
        p.do_move(m);
        next = best_known(book, &p, opts)?;
    }
    Ok(Some(BookHit {
        chosen,
        ponder,
        pv,
        candidates,
    }))
}

/// The book's best move in `pos` (by value, then count), if it has one.
fn best_known(book: &mut Book, pos: &Position, opts: &BookOptions) -> Result<Option<Move>, String> {
    let mut e = BookEntry {
        ply: 0,
        moves: book.moves(pos, !opts.ignore_ply, opts.flipped)?,
    };
    e.sort();
    Ok(e.moves.first().map(|m| m.mv))
}

/// Where `BookDir/BookFile` lives. An absolute path is taken as it is. A relative one is looked
/// for next to the binary and in the folders above it (so `target/release/hayate` and
/// `cargo run` find the repository's `book/`), then in the current directory; when it is in
/// none of them, the current directory's path is returned for the message.
pub fn resolve(dir: &str, file: &str) -> PathBuf {
    let joined = Path::new(dir).join(file);
    if joined.is_absolute() {
        return joined;
    }
    let mut candidates = Vec::new();
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        for base in exe_dir.ancestors().take(4) {
            candidates.push(base.join(&joined));
        }
    }
    let in_cwd = std::env::current_dir()
        .map(|d| d.join(&joined))
        .unwrap_or_else(|_| joined.clone());
    candidates.push(in_cwd.clone());
    candidates
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or(in_cwd)
}

/// Writes `text` to `path` through a temporary file and a rename, so an interrupted run never
/// leaves a half-written book behind.
pub fn write_atomically(path: &Path, text: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp-writing");
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot rename to {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipping_twice_is_the_identity() {
        let mut pos = Position::startpos();
        for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
        }
        let f = flipped(&pos).unwrap();
        assert_eq!(f.side_to_move(), !pos.side_to_move());
        assert_eq!(position_key(&flipped(&f).unwrap()), position_key(&pos));
        // White's bishop in hand becomes Black's, and Black is to move.
        assert!(position_key(&f).ends_with(" b B"), "{}", position_key(&f));
        let m = pos.parse_usi_move("B*5e").unwrap();
        assert_eq!(flip_move(m).to_string(), "B*5e");
        assert_eq!(
            flip_move(Move::normal(
                Square::from_usi("7g").unwrap(),
                Square::from_usi("7f").unwrap(),
                false
            ))
            .to_string(),
            "3c3d"
        );
    }

    #[test]
    fn merging_adds_counts_and_keeps_the_deeper_value() {
        let mv = |t: &str| crate::position::parse_move_syntax(t).unwrap();
        let mut a = BookEntry {
            ply: 3,
            moves: vec![BookMove {
                value: Some(10),
                depth: Some(4),
                ..BookMove::new(mv("2g2f"))
            }],
        };
        let b = BookEntry {
            ply: 1,
            moves: vec![
                BookMove {
                    value: Some(30),
                    depth: Some(8),
                    count: 2,
                    ..BookMove::new(mv("2g2f"))
                },
                BookMove::new(mv("7g7f")),
            ],
        };
        a.merge(b);
        assert_eq!(a.ply, 1);
        assert_eq!(a.moves.len(), 2);
        assert_eq!((a.moves[0].count, a.moves[0].value), (3, Some(30)));
    }
}
