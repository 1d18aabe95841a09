//! The opening book: the YaneuraOu text format read and written, books made from records, the
//! engine playing and reporting book moves under its options, damaged files, and Apery's
//! binary format with keys computed here from first principles.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use hayate::book::db::MemoryBook;
use hayate::book::make::{read_games, RecordBook};
use hayate::book::{position_key, Book};
use hayate::Position;

mod common;
use common::TempDir;

fn temp_dir(name: &str) -> TempDir {
    TempDir::new(&format!("book-{name}"))
}

/// The engine binary with piped stdin and stdout.
fn start_engine() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_hayate"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start hayate")
}

/// Runs the engine binary on `input`, returning its output up to the first `bestmove`.
fn usi(input: &str) -> String {
    let mut child = start_engine();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut out = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        out.push_str(&line);
        out.push('\n');
        if line.starts_with("bestmove") {
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    out
}

/// A game from `position` with the book `file` in `dir` and extra `setoption` lines.
fn play(dir: &Path, file: &str, options: &[&str], position: &str) -> String {
    let mut input = format!(
        "usi\nsetoption name Threads value 1\nsetoption name USI_Hash value 8\n\
         setoption name BookDir value {}\nsetoption name BookFile value {file}\n",
        dir.display()
    );
    for o in options {
        input.push_str(&format!("setoption name {o}\n"));
    }
    input.push_str(&format!(
        "isready\nposition {position}\ngo btime 0 wtime 0 byoyomi 200\n"
    ));
    usi(&input)
}

fn bestmove(out: &str) -> &str {
    out.lines()
        .rfind(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove in {out}"))
}

const HAND_WRITTEN: &str = "\
#YANEURAOU-DB2016 1.00
// a comment
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
8c8d 2g2f -10 18 3
3c3d none 5 20 7 #the usual reply
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
2g2f
7g7f 3c3d 30 22 12
";

const CANONICAL: &str = "\
#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d none 5 20 7 #the usual reply
8c8d 2g2f -10 18 3
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 30 22 12
2g2f none none none 1
";

#[test]
fn text_books_read_and_write_round_trip() {
    let book = MemoryBook::read(HAND_WRITTEN).unwrap();
    assert_eq!(book.positions.len(), 2);
    let start = &book.positions[&position_key(&Position::startpos())];
    assert_eq!(start.ply, 1);
    assert_eq!(start.moves[1].mv.to_string(), "7g7f");
    assert_eq!(start.moves[1].ponder.unwrap().to_string(), "3c3d");
    assert_eq!(
        (
            start.moves[1].value,
            start.moves[1].depth,
            start.moves[1].count
        ),
        (Some(30), Some(22), 12)
    );
    // Written sorted by SFEN, best move first, missing fields as `none`.
    assert_eq!(book.write(), CANONICAL);
    assert_eq!(MemoryBook::read(CANONICAL).unwrap().write(), CANONICAL);

    // The on-disk reader finds the same entries.
    let dir = temp_dir("roundtrip");
    let path = dir.join("b.db");
    std::fs::write(&path, HAND_WRITTEN).unwrap();
    let Book::Db(mut reader) = Book::open(&path).unwrap() else {
        panic!("not read as a text book")
    };
    assert_eq!(reader.len(), 2);
    let e = reader
        .get(&position_key(&Position::startpos()))
        .unwrap()
        .unwrap();
    assert_eq!(&e, start);
    assert_eq!(reader.get("9/9/9/9/9/9/9/9/4K4 b -").unwrap(), None);
}

#[test]
fn a_book_from_records_counts_moves_and_results() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book");
    let mut rb = RecordBook::new(32);
    for f in ["games.txt", "resign.csa", "two_games.csa"] {
        for g in read_games(&data.join(f)).unwrap() {
            rb.add(&g).unwrap();
        }
    }
    assert_eq!(rb.games, 6);
    let book = rb.finish(1);
    let start = &book.positions[&position_key(&Position::startpos())];
    let counts: Vec<(String, u64)> = start
        .moves
        .iter()
        .map(|m| (m.mv.to_string(), m.count))
        .collect();
    assert_eq!(
        counts,
        vec![("7g7f".to_string(), 5), ("2g2f".to_string(), 1)]
    );
    // Of the three finished games with 7g7f, Black won one (the second CSA game) and lost two.
    assert_eq!(start.moves[0].comment, "won 1 drawn 0 lost 2 (33%)");
    assert_eq!(start.moves[0].ponder.unwrap().to_string(), "3c3d");
    let mut p = Position::startpos();
    p.do_move(p.parse_usi_move("7g7f").unwrap());
    let reply = &book.positions[&position_key(&p)];
    assert_eq!(reply.ply, 2);
    assert_eq!(reply.moves[0].mv.to_string(), "3c3d");
    assert_eq!(reply.moves[0].count, 3);
    assert_eq!(reply.moves[0].comment, "won 2 drawn 0 lost 0 (100%)");
    assert_eq!(book.positions.len(), 6);
    // A book of record moves only (no search values) with the moves of a min-count filter.
    let mut rb = RecordBook::new(1);
    for g in read_games(&data.join("games.txt")).unwrap() {
        rb.add(&g).unwrap();
    }
    let book = rb.finish(2);
    assert_eq!(book.positions.len(), 1);
    assert_eq!(book.move_count(), 1);
}

/// A book knowing one reply to 7g7f, and a White position written only from Black's side.
const ENGINE_BOOK: &str = "\
#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
2g2f 8c8d 45 20 10
5g5f none -300 20 50
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2
8c8d none 10 16 4
sfen lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL b - 3
2f2e none 20 16 4
sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2
7g7f none 12 16 1
";

fn engine_book(name: &str) -> TempDir {
    let dir = temp_dir(name);
    std::fs::write(dir.join("test.db"), ENGINE_BOOK).unwrap();
    dir
}

#[test]
fn the_engine_plays_and_reports_a_book_move() {
    let dir = engine_book("plays");
    let out = play(&dir, "test.db", &[], "startpos");
    // 5g5f is far below 2g2f: BookEvalDiff leaves 2g2f alone.
    assert_eq!(bestmove(&out), "bestmove 2g2f ponder 8c8d", "{out}");
    assert!(
        out.contains("info string book move 2g2f of 2 (value 45, depth 20, count 10)"),
        "{out}"
    );
    // The pv follows the book: 2g2f, its reply 8c8d, then the book's best move after that.
    assert!(
        out.contains(
            "info depth 20 seldepth 3 score cp 45 multipv 1 nodes 0 nps 0 time 0 pv 2g2f 8c8d 2f2e"
        ),
        "{out}"
    );
    // Past BookMoves the book is not consulted.
    let out = play(&dir, "test.db", &["BookMoves value 0"], "startpos");
    assert!(!out.contains("book move"), "{out}");
}

#[test]
fn a_reply_with_no_ponder_field_takes_the_books_next_move() {
    let dir = engine_book("ponder");
    let out = play(&dir, "test.db", &[], "startpos moves 2g2f");
    assert_eq!(bestmove(&out), "bestmove 8c8d ponder 2f2e", "{out}");
}

#[test]
fn flipped_book_finds_the_colour_flipped_position() {
    let dir = engine_book("flipped");
    // After 7g7f the book only has the mirror image (White's 3c3d already played, Black to
    // move); its 7g7f is our 3c3d.
    let out = play(&dir, "test.db", &[], "startpos moves 7g7f");
    assert!(bestmove(&out).starts_with("bestmove 3c3d"), "{out}");
    let out = play(
        &dir,
        "test.db",
        &["FlippedBook value false"],
        "startpos moves 7g7f",
    );
    assert!(!out.contains("book move"), "{out}");
}

#[test]
fn no_book_and_own_book_off_mean_search() {
    let dir = engine_book("off");
    for opts in [vec![], vec!["USI_OwnBook value false"]] {
        let file = if opts.is_empty() {
            "no_book"
        } else {
            "test.db"
        };
        let out = play(&dir, file, &opts, "startpos");
        assert!(!out.contains("book move"), "{out}");
        assert!(!out.contains("info string book"), "{out}");
        assert!(out.contains("info depth 1 "), "{out}");
        assert!(out.contains("bestmove "), "{out}");
    }
}

#[test]
fn missing_and_damaged_books_are_reported_and_the_engine_plays_on() {
    let dir = temp_dir("damaged");
    let out = play(&dir, "absent.db", &[], "startpos");
    assert!(out.contains("info string book file "), "{out}");
    assert!(
        out.contains("absent.db not found; playing without a book"),
        "{out}"
    );
    assert!(out.contains("bestmove "), "{out}");

    let cases = [
        (
            "garbage.db",
            "hello\nworld\n".to_string(),
            "not a YaneuraOu book",
        ),
        (
            "badmove.db",
            "#YANEURAOU-DB2016 1.00\nsfen 9/9/9/9/9/9/9/9/4K4 b - 1\nzz99 none 0 0 1\n".into(),
            "line 3: 'zz99' is neither a move",
        ),
        (
            "truncated.db",
            ENGINE_BOOK[..ENGINE_BOOK.len() - 20].to_string() + "\nsfen lnsgkgsnl/1r5b1/pp",
            "a position needs board, side and hands (and a move number), got 'lnsgkgsnl/1r5b1/pp'",
        ),
        (
            "nomoves.db",
            ENGINE_BOOK.lines().take(5).collect::<Vec<_>>().join("\n") + "\n",
            "the last position has no moves (is the file truncated?)",
        ),
        (
            "short.bin",
            "0123456789abcdefXYZ".to_string(),
            "is not a whole number of 16-byte entries",
        ),
    ];
    for (file, text, message) in cases {
        std::fs::write(dir.join(file), text).unwrap();
        let out = play(&dir, file, &[], "startpos");
        assert!(out.contains("info string book "), "{file}: {out}");
        assert!(out.contains(message), "{file}: {out}");
        assert!(out.contains("playing without a book"), "{file}: {out}");
        assert!(out.contains("bestmove "), "{file}: {out}");
    }
}

// ---------------------------------------------------------------- Apery

/// `std::mt19937_64` from its definition in the C++ standard, written apart from the engine's.
struct Mt {
    mt: Vec<u64>,
    i: usize,
}

impl Mt {
    fn new() -> Mt {
        let (n, f) = (312usize, 6364136223846793005u64);
        let mut mt = vec![5489u64];
        for i in 1..n {
            let x = mt[i - 1];
            mt.push(f.wrapping_mul(x ^ (x >> 62)).wrapping_add(i as u64));
        }
        Mt { mt, i: n }
    }

    fn next(&mut self) -> u64 {
        let (n, m) = (312, 156);
        if self.i == n {
            for k in 0..n {
                let y = (self.mt[k] & !0x7fff_ffffu64) | (self.mt[(k + 1) % n] & 0x7fff_ffff);
                let mag = if y & 1 == 1 { 0xB5026F5AA96619E9 } else { 0 };
                self.mt[k] = self.mt[(k + m) % n] ^ (y >> 1) ^ mag;
            }
            self.i = 0;
        }
        let mut x = self.mt[self.i];
        self.i += 1;
        x ^= (x >> 29) & 0x5555555555555555;
        x ^= (x << 17) & 0x71D67FFFEDA60000;
        x ^= (x << 37) & 0xFFF7EEE000000000;
        x ^ (x >> 43)
    }
}

/// Apery's key of a position given as SFEN, from the SFEN text alone: 31 piece codes by 81
/// squares (Apery numbers Black's pieces P L N S B R G K 1..8, promoted +8, White's +16),
/// then 7 hand kinds (P L N S G B R) by 19 counts, then the turn.
fn apery_key_from_sfen(sfen: &str) -> u64 {
    let mut mt = Mt::new();
    let piece: Vec<Vec<u64>> = (0..31)
        .map(|_| (0..81).map(|_| mt.next()).collect())
        .collect();
    let hand: Vec<Vec<u64>> = (0..7)
        .map(|_| (0..19).map(|_| mt.next()).collect())
        .collect();
    let turn = mt.next();
    let f: Vec<&str> = sfen.split(' ').collect();
    let mut key = 0;
    for (rank, row) in f[0].split('/').enumerate() {
        let mut file = 9usize;
        let mut promoted = false;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file -= d as usize;
            } else if ch == '+' {
                promoted = true;
            } else {
                let kind = "PLNSBRGK".find(ch.to_ascii_uppercase()).unwrap() + 1;
                let code = kind
                    + if promoted { 8 } else { 0 }
                    + if ch.is_ascii_lowercase() { 16 } else { 0 };
                let sq = (file - 1) * 9 + rank;
                key ^= piece[code][sq];
                file -= 1;
                promoted = false;
            }
        }
    }
    let white = f[1] == "w";
    let mut counts = [0usize; 7];
    let mut n = 0;
    for ch in f[2].chars().filter(|&c| c != '-') {
        if let Some(d) = ch.to_digit(10) {
            n = n * 10 + d as usize;
            continue;
        }
        if ch.is_ascii_lowercase() == white {
            counts["PLNSGBR".find(ch.to_ascii_uppercase()).unwrap()] += n.max(1);
        }
        n = 0;
    }
    for (kind, &c) in counts.iter().enumerate() {
        key ^= hand[kind][c];
    }
    if white {
        key ^= turn;
    }
    key
}

/// Apery's move code: to | from << 7 (a drop: from = 81 + kind - 1) | promotion << 14.
fn apery_move(text: &str) -> u16 {
    let sq = |s: &str| {
        let b = s.as_bytes();
        ((b[0] - b'1') as u16) * 9 + (b[1] - b'a') as u16
    };
    if text.as_bytes()[1] == b'*' {
        let kind = "PLNSBRG".find(&text[..1]).unwrap() as u16 + 1;
        (81 + kind - 1) << 7 | sq(&text[2..4])
    } else {
        ((text.len() == 5) as u16 * (1 << 14)) | (sq(&text[..2]) << 7) | sq(&text[2..4])
    }
}

#[test]
fn apery_books_are_read_with_their_own_keys() {
    let mut mt = Mt::new();
    let tenth_thousand = (0..10000).map(|_| mt.next()).last().unwrap();
    assert_eq!(tenth_thousand, 9981545732273789042);

    // Positions: the start, White to move after 7g7f, and one with hands on both sides.
    let with_hands = "lnsgk1snl/6g2/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Brb 9";
    let positions = [
        (
            "startpos",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ),
        (
            "startpos moves 7g7f",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        ),
        ("custom", with_hands),
    ];
    let mut entries: Vec<(u64, u16, u16, i32)> = vec![
        (
            apery_key_from_sfen(positions[0].1),
            apery_move("2g2f"),
            30,
            25,
        ),
        (
            apery_key_from_sfen(positions[0].1),
            apery_move("7g7f"),
            70,
            40,
        ),
        (
            apery_key_from_sfen(positions[1].1),
            apery_move("3c3d"),
            9,
            12,
        ),
        (
            apery_key_from_sfen(positions[2].1),
            apery_move("B*5e"),
            3,
            200,
        ),
    ];
    entries.sort_by_key(|e| e.0);
    let mut bytes = Vec::new();
    for (k, m, c, s) in &entries {
        bytes.extend_from_slice(&k.to_le_bytes());
        bytes.extend_from_slice(&m.to_le_bytes());
        bytes.extend_from_slice(&c.to_le_bytes());
        bytes.extend_from_slice(&s.to_le_bytes());
    }
    let dir = temp_dir("apery");
    std::fs::write(dir.join("book.bin"), &bytes).unwrap();

    let mut book = Book::open(&dir.join("book.bin")).unwrap();
    let pos_of = |(usi, sfen): (&str, &str)| {
        if usi == "custom" {
            Position::from_sfen(sfen).unwrap()
        } else {
            Position::from_usi(usi).unwrap()
        }
    };
    for (i, p) in positions.iter().enumerate() {
        let pos = pos_of(*p);
        assert_eq!(pos.to_sfen(), p.1);
        assert_eq!(
            hayate::book::apery::key(&pos),
            apery_key_from_sfen(p.1),
            "position {i}"
        );
    }
    let moves = book.moves(&pos_of(positions[0]), true, false).unwrap();
    let got: Vec<(String, u64, Option<i32>)> = moves
        .iter()
        .map(|m| (m.mv.to_string(), m.count, m.value))
        .collect();
    assert_eq!(got.len(), 2);
    assert!(got.contains(&("7g7f".into(), 70, Some(40))));
    assert!(got.contains(&("2g2f".into(), 30, Some(25))));
    let moves = book.moves(&pos_of(positions[2]), true, false).unwrap();
    assert_eq!(moves[0].mv.to_string(), "B*5e");

    // And the engine plays from it.
    let out = play(&dir, "book.bin", &[], "startpos moves 7g7f");
    assert!(bestmove(&out).starts_with("bestmove 3c3d"), "{out}");

    // Keys out of order are refused with a reason.
    let mut unsorted = bytes[16..32].to_vec();
    unsorted.extend_from_slice(&bytes[..16]);
    if entries[0].0 != entries[1].0 {
        std::fs::write(dir.join("unsorted.bin"), &unsorted).unwrap();
        let err = Book::open(&dir.join("unsorted.bin")).err().unwrap();
        assert!(err.contains("not sorted"), "{err}");
    }
}

#[test]
fn the_shipped_openings_are_many_distinct_positions_and_the_match_default() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/openings.sfen");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert!(lines.len() >= 100, "{} openings", lines.len());
    let mut seen = std::collections::HashSet::new();
    for l in &lines {
        let (pos, _) = Position::from_usi(l).unwrap().start_and_moves();
        // Plies 8-24 played: the next move number is 9-25.
        assert!((9..=25).contains(&pos.game_ply()), "{l}");
        assert!(seen.insert(position_key(&pos)), "twice: {l}");
    }
    let cfg = hayate::cli::match_args::parse_with_default_openings(&[
        "--engine".into(),
        "cmd=a".into(),
        "--engine".into(),
        "cmd=b".into(),
    ])
    .unwrap();
    assert_eq!(cfg.openings.len(), lines.len());
}

#[test]
fn a_book_move_while_pondering_waits_for_ponderhit() {
    let dir = engine_book("ponderhit");
    let mut child = start_engine();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(
        stdin,
        "usi\nsetoption name BookDir value {}\nsetoption name BookFile value test.db\n\
         isready\nposition startpos\ngo ponder btime 0 wtime 0 byoyomi 200",
        dir.display()
    )
    .unwrap();
    stdin.flush().unwrap();
    // Up to the book's line however slowly a loaded machine starts the engine, then half a
    // second more: no bestmove may come while pondering.
    let mut seen = Vec::new();
    while !seen
        .iter()
        .any(|l: &String| l.starts_with("info string book move 2g2f"))
    {
        let line = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no book move line: {seen:?}"));
        seen.push(line);
    }
    while let Ok(line) = rx.recv_timeout(std::time::Duration::from_millis(500)) {
        seen.push(line);
    }
    assert!(
        !seen.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {seen:?}"
    );
    writeln!(stdin, "ponderhit").unwrap();
    stdin.flush().unwrap();
    let line = rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
    assert_eq!(line, "bestmove 2g2f ponder 8c8d");
    writeln!(stdin, "quit").unwrap();
    let _ = child.wait();
}

#[test]
fn a_position_written_twice_is_reported_and_the_first_copy_used() {
    let dir = temp_dir("twice");
    let text = format!("{ENGINE_BOOK}sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 99 20 1\n");
    std::fs::write(dir.join("twice.db"), text).unwrap();
    let out = play(&dir, "twice.db", &[], "startpos");
    assert!(
        out.contains("1 positions are written more than once; the first of each is used"),
        "{out}"
    );
    assert_eq!(bestmove(&out), "bestmove 2g2f ponder 8c8d", "{out}");
}

#[test]
fn the_book_command_makes_merges_sorts_and_describes_books() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book");
    let dir = temp_dir("cli");
    let hayate = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .arg("book")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let a = dir.join("a.db");
    let b = dir.join("b.db");
    let merged = dir.join("merged.db");
    let games = data.join("games.txt");
    let csa = data.join("two_games.csa");
    let (ok, _, err) = hayate(&["from-records", a.to_str().unwrap(), games.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        err.contains("3 games (0 skipped): 4 positions, 6 moves"),
        "{err}"
    );
    let (ok, _, err) = hayate(&["from-records", b.to_str().unwrap(), csa.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, _, err) = hayate(&[
        "merge",
        merged.to_str().unwrap(),
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let (ok, out, _) = hayate(&["probe", merged.to_str().unwrap(), "startpos"]);
    assert!(ok);
    // Two games of a.db and two of b.db opened with 7g7f.
    assert!(
        out.starts_with("7g7f ") && out.contains(" none none 4 "),
        "{out}"
    );
    let (ok, out, _) = hayate(&["stats", merged.to_str().unwrap()]);
    assert!(ok);
    assert!(out.contains("positions: 5 "), "{out}");
    let (ok, _, _) = hayate(&["sort", merged.to_str().unwrap()]);
    assert!(ok);
    assert_eq!(
        MemoryBook::load(&merged).unwrap().write(),
        std::fs::read_to_string(&merged).unwrap()
    );
    let (ok, _, err) = hayate(&["stats", data.join("nonexistent.db").to_str().unwrap()]);
    assert!(!ok && err.contains("nonexistent.db"), "{err}");
}
