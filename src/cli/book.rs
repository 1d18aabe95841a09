//! `hayate book ...`: making, extending, merging, sorting and inspecting books.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Subcommand;

use super::progress::Progress;
use super::{position_argument, Outcome};
use crate::book::db::{self, MemoryBook};
use crate::book::extend::{self, ExtendOptions};
use crate::book::make::{self, RecordBook};
use crate::book::{write_atomically, Book};
use crate::position::Position;

#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// A book from game records: each move with how often it was played, its most frequent
    /// reply and the results (won/drawn/lost for the mover)
    FromRecords {
        /// The book to write
        out: PathBuf,
        /// Records: .csa (several games split by '/'), .kif/.kifu, or lines of
        /// 'startpos moves ...' / 'sfen ... moves ...'
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Positions up to move N
        #[arg(long, value_name = "N", default_value_t = 32)]
        max_ply: u32,
        /// Only moves played at least N times
        #[arg(long, value_name = "N", default_value_t = 1)]
        min_count: u64,
    },
    /// Grow a book (created if missing) by search: the most promising leaves below the roots,
    /// along moves within CP of the best, are searched and their best moves added; values are
    /// backed up by minimax. The book is saved as it grows: interrupt at will and rerun
    Extend {
        /// The book to extend
        book: PathBuf,
        /// More roots besides the start position: the openings of a record file (repeatable)
        #[arg(long, value_name = "FILE")]
        roots: Vec<PathBuf>,
        /// Search depth per position
        #[arg(long, value_name = "D", default_value_t = ExtendOptions::default().depth)]
        depth: i32,
        /// Or a time per position (the depth still caps it)
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// Moves added per searched position
        #[arg(long, value_name = "K", default_value_t = ExtendOptions::default().multipv)]
        multipv: usize,
        /// Follow moves within CP centipawns of the best
        #[arg(long, value_name = "CP", default_value_t = ExtendOptions::default().diff)]
        diff: i32,
        /// No position deeper than move N is searched
        #[arg(long, value_name = "N", default_value_t = ExtendOptions::default().max_ply)]
        max_ply: u32,
        /// Positions to search in this run
        #[arg(long, value_name = "N", default_value_t = ExtendOptions::default().positions)]
        positions: usize,
        /// Write the book every SECS seconds (and at the end), through a temporary file
        #[arg(long, value_name = "SECS", default_value_t = 30)]
        save_every: u64,
        /// Hash table size
        #[arg(long, value_name = "MB", default_value_t = ExtendOptions::default().hash_mb)]
        hash: usize,
    },
    /// Merge books (counts add up, deeper values win)
    Merge {
        /// The book to write
        out: PathBuf,
        /// The books to merge
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Rewrite a book sorted by SFEN
    Sort {
        input: PathBuf,
        /// Where to write it [default: in place]
        out: Option<PathBuf>,
    },
    /// Positions, moves and depths of a book (text DB or Apery book)
    Stats { book: PathBuf },
    /// The book's moves for a position
    Probe {
        book: PathBuf,
        /// 'startpos [moves ...]', 'sfen ... [moves ...]' or a handicap name
        #[arg(required = true, num_args = 1..)]
        position: Vec<String>,
    },
}

/// Runs `hayate book <command>`.
pub fn run(command: BookCommand) -> Outcome {
    match command {
        BookCommand::FromRecords {
            out,
            files,
            max_ply,
            min_count,
        } => from_records(&out, &files, max_ply, min_count),
        BookCommand::Extend {
            book,
            roots,
            depth,
            movetime,
            multipv,
            diff,
            max_ply,
            positions,
            save_every,
            hash,
        } => {
            let o = ExtendOptions {
                depth,
                movetime,
                multipv,
                diff,
                max_ply,
                positions,
                hash_mb: hash,
            };
            extend_book(&book, &roots, &o, save_every)
        }
        BookCommand::Merge { out, inputs } => merge(&out, &inputs),
        BookCommand::Sort { input, out } => {
            let book = MemoryBook::load(&input)?;
            save(&book, out.as_deref().unwrap_or(&input))
        }
        BookCommand::Stats { book } => stats(&book),
        BookCommand::Probe { book, position } => probe(&book, &position),
    }
}

fn save(book: &MemoryBook, path: &Path) -> Outcome {
    Ok(write_atomically(path, book.write().as_bytes())?)
}

fn from_records(out: &Path, files: &[PathBuf], max_ply: u32, min_count: u64) -> Outcome {
    let mut rb = RecordBook::new(max_ply);
    let mut skipped = 0;
    for f in files {
        for (i, g) in make::read_games(f)?.iter().enumerate() {
            if let Err(e) = rb.add(g) {
                eprintln!("{}: game {}: {e}; skipped", f.display(), i + 1);
                skipped += 1;
            }
        }
    }
    let games = rb.games;
    let book = rb.finish(min_count);
    save(&book, out)?;
    eprintln!(
        "{games} games ({skipped} skipped): {} positions, {} moves written to {}",
        book.positions.len(),
        book.move_count(),
        out.display()
    );
    Ok(())
}

fn extend_book(path: &Path, root_files: &[PathBuf], o: &ExtendOptions, save_every: u64) -> Outcome {
    let mut roots = vec![Position::startpos()];
    for f in root_files {
        roots.extend(make::read_games(f)?.into_iter().map(|g| {
            let mut p = g.start;
            for m in g.moves {
                p.do_move(m);
            }
            p
        }));
    }
    let mut book = if path.exists() {
        MemoryBook::load(path)?
    } else {
        MemoryBook::default()
    };
    eprintln!(
        "extending {} ({} positions) from {} root(s), depth {}{}",
        path.display(),
        book.positions.len(),
        roots.len(),
        o.depth,
        o.movetime.map_or(String::new(), |t| format!(", {t} ms"))
    );
    let mut last_save = Instant::now();
    let every = Duration::from_secs(save_every);
    let total = o.positions;
    // The line per search stays (it says where the book grows); the bar adds the time left.
    let progress = Progress::bar_only("book extend", "positions", total as u64);
    let done = extend::extend(
        &mut book,
        &roots,
        o,
        &mut |done, line| {
            progress.note(line);
            progress.update(done as u64, "");
        },
        &mut |b, done| {
            if last_save.elapsed() >= every || done == total {
                write_atomically(path, b.write().as_bytes())?;
                last_save = Instant::now();
            }
            Ok(())
        },
    )?;
    progress.finish();
    save(&book, path)?;
    eprintln!(
        "{done} positions searched; {} now holds {} positions, {} moves",
        path.display(),
        book.positions.len(),
        book.move_count()
    );
    Ok(())
}

fn merge(out: &Path, inputs: &[PathBuf]) -> Outcome {
    let mut book = MemoryBook::default();
    for f in inputs {
        for (k, e) in MemoryBook::load(f)?.positions {
            book.add(k, e);
        }
    }
    save(&book, out)?;
    eprintln!(
        "{} positions, {} moves written to {}",
        book.positions.len(),
        book.move_count(),
        out.display()
    );
    Ok(())
}

fn stats(path: &Path) -> Outcome {
    let bytes = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    match Book::open(path)? {
        Book::Db(_) => outln!("{}", make::stats(&MemoryBook::load(path)?).trim_end()),
        Book::Apery(b) => outln!("Apery book: {} entries", b.len()),
    }
    outln!("file size: {bytes} bytes");
    Ok(())
}

fn probe(path: &Path, position: &[String]) -> Outcome {
    let p = position_argument(position)?;
    let mut book = Book::open(path)?;
    let moves = book.moves(&p, false, true)?;
    if moves.is_empty() {
        outln!("not in the book");
    }
    for m in moves {
        outln!("{}", db::format_move(&m));
    }
    Ok(())
}
