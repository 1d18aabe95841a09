//! `hayate book ...`: making, extending, merging, sorting and inspecting books.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::db::MemoryBook;
use super::extend::{self, ExtendOptions};
use super::make::{self, RecordBook};
use super::{write_atomically, Book};
use crate::position::Position;

pub const HELP: &str = "usage: hayate book <command> ...
  from-records OUT.db FILE... [--max-ply N] [--min-count N]
        a book from game records: .csa (several games split by '/'), .kif/.kifu (UTF-8), or
        lines of 'startpos moves ...' / 'sfen ... moves ...'; each move with how often it was
        played, its most frequent reply and the results (won/drawn/lost for the mover).
        --max-ply N: positions up to move N (default 32); --min-count N: moves played N times
  extend BOOK.db [--roots FILE] [--depth D] [--movetime MS] [--multipv K] [--diff CP]
                 [--max-ply N] [--positions N] [--save-every SECS] [--hash MB]
        grow BOOK.db (created if missing) by search: the most promising leaves below the roots
        (the start position and FILE's openings) along moves within CP (default 40) of the best
        are searched to depth D (default 12) and their best K (default 2) moves added; values
        are backed up by minimax. The book is written every SECS seconds (default 30) and at
        the end, through a temporary file: interrupt at will and rerun to carry on.
  merge OUT.db IN.db IN.db...   merge books (counts add up, deeper values win)
  sort IN.db [OUT.db]           rewrite sorted by SFEN (in place without OUT)
  stats BOOK                    positions, moves, depths (text or Apery book)
  probe BOOK POSITION           the book's moves for 'startpos [moves ...]' or 'sfen ...'";

/// Runs `hayate book` with its arguments (after `book`).
pub fn run(args: &[String]) -> Result<(), String> {
    let Some(cmd) = args.first() else {
        return Err(HELP.into());
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "from-records" => from_records(rest),
        "extend" => extend_book(rest),
        "merge" => merge(rest),
        "sort" => sort(rest),
        "stats" => stats(rest),
        "probe" => probe(rest),
        "help" | "--help" | "-h" => say(HELP),
        other => Err(format!("unknown book command '{other}'\n{HELP}")),
    }
}

/// Plain arguments, and `--name value` options.
type Arguments<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>);

/// Splits `--name value` options from plain arguments.
fn split_options(args: &[String]) -> Result<Arguments<'_>, String> {
    let mut plain = Vec::new();
    let mut opts = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if let Some(name) = a.strip_prefix("--") {
            let v = args
                .get(i + 1)
                .ok_or_else(|| format!("--{name} needs a value"))?;
            opts.push((name, v.as_str()));
            i += 2;
        } else {
            plain.push(a);
            i += 1;
        }
    }
    Ok((plain, opts))
}

/// Prints a line of a report. A reader that went away (`... | head -1`) ends the report
/// quietly rather than as an error.
fn say(line: &str) -> Result<(), String> {
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{line}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot print: {e}")),
        _ => Ok(()),
    }
}

fn number<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("--{name}: '{v}' is not a number"))
}

fn save(book: &MemoryBook, path: &Path) -> Result<(), String> {
    write_atomically(path, book.write().as_bytes())
}

fn from_records(args: &[String]) -> Result<(), String> {
    let (plain, opts) = split_options(args)?;
    let (out, files) = plain
        .split_first()
        .ok_or("from-records needs OUT.db and record files")?;
    let mut max_ply = 32;
    let mut min_count = 1;
    for (name, v) in opts {
        match name {
            "max-ply" => max_ply = number(name, v)?,
            "min-count" => min_count = number(name, v)?,
            _ => return Err(format!("from-records: unknown option --{name}")),
        }
    }
    let mut rb = RecordBook::new(max_ply);
    let mut skipped = 0;
    for f in files {
        for (i, g) in make::read_games(Path::new(f))?.iter().enumerate() {
            if let Err(e) = rb.add(g) {
                eprintln!("{f}: game {}: {e}; skipped", i + 1);
                skipped += 1;
            }
        }
    }
    let games = rb.games;
    let book = rb.finish(min_count);
    save(&book, Path::new(out))?;
    eprintln!(
        "{games} games ({skipped} skipped): {} positions, {} moves written to {out}",
        book.positions.len(),
        book.move_count()
    );
    Ok(())
}

fn extend_book(args: &[String]) -> Result<(), String> {
    let (plain, opts) = split_options(args)?;
    let [path] = plain.as_slice() else {
        return Err("extend needs one BOOK.db".into());
    };
    let path = PathBuf::from(path);
    let mut o = ExtendOptions::default();
    let mut roots = vec![Position::startpos()];
    let mut save_every = 30;
    for (name, v) in opts {
        match name {
            "depth" => o.depth = number(name, v)?,
            "movetime" => o.movetime = Some(number(name, v)?),
            "multipv" => o.multipv = number(name, v)?,
            "diff" => o.diff = number(name, v)?,
            "max-ply" => o.max_ply = number(name, v)?,
            "positions" => o.positions = number(name, v)?,
            "hash" => o.hash_mb = number(name, v)?,
            "save-every" => save_every = number(name, v)?,
            "roots" => {
                roots.extend(make::read_games(Path::new(v))?.into_iter().map(|g| {
                    let mut p = g.start;
                    for m in g.moves {
                        p.do_move(m);
                    }
                    p
                }));
            }
            _ => return Err(format!("extend: unknown option --{name}")),
        }
    }
    let mut book = if path.exists() {
        MemoryBook::load(&path)?
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
    let done = extend::extend(
        &mut book,
        &roots,
        &o,
        &mut |line| eprintln!("{line}"),
        &mut |b, done| {
            if last_save.elapsed() >= every || done == total {
                save(b, &path)?;
                last_save = Instant::now();
            }
            Ok(())
        },
    )?;
    save(&book, &path)?;
    eprintln!(
        "{done} positions searched; {} now holds {} positions, {} moves",
        path.display(),
        book.positions.len(),
        book.move_count()
    );
    Ok(())
}

fn merge(args: &[String]) -> Result<(), String> {
    let (out, inputs) = args
        .split_first()
        .filter(|(_, i)| !i.is_empty())
        .ok_or("merge needs OUT.db and at least one input book")?;
    let mut book = MemoryBook::default();
    for f in inputs {
        for (k, e) in MemoryBook::load(Path::new(f))?.positions {
            book.add(k, e);
        }
    }
    save(&book, Path::new(out))?;
    eprintln!(
        "{} positions, {} moves written to {out}",
        book.positions.len(),
        book.move_count()
    );
    Ok(())
}

fn sort(args: &[String]) -> Result<(), String> {
    let input = args.first().ok_or("sort needs a book")?;
    let out = args.get(1).unwrap_or(input);
    let book = MemoryBook::load(Path::new(input))?;
    save(&book, Path::new(out))
}

fn stats(args: &[String]) -> Result<(), String> {
    let path = Path::new(args.first().ok_or("stats needs a book")?);
    let bytes = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    match Book::open(path)? {
        Book::Db(_) => say(make::stats(&MemoryBook::load(path)?).trim_end())?,
        Book::Apery(b) => say(&format!("Apery book: {} entries", b.len()))?,
    }
    say(&format!("file size: {bytes} bytes"))
}

fn probe(args: &[String]) -> Result<(), String> {
    let (path, pos) = args
        .split_first()
        .ok_or("probe needs a book and a position")?;
    let game = crate::arena::parse_opening(&pos.join(" "))?;
    let mut p = Position::from_sfen(&game.sfen).map_err(|e| e.to_string())?;
    for m in game.moves {
        p.do_move(m);
    }
    let mut book = Book::open(Path::new(path))?;
    let moves = book.moves(&p, false, true)?;
    if moves.is_empty() {
        say("not in the book")?;
    }
    for m in moves {
        say(&super::db::format_move(&m))?;
    }
    Ok(())
}
