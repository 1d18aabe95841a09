//! The bodies of the fuzz targets in `fuzz/fuzz_targets/`, one function per target, each taking
//! the fuzzer's bytes. They live in the library so that `tests/fuzz_corpus.rs` replays the
//! committed corpus (`fuzz/corpus/<target>/`) through exactly the code the fuzzer ran, on stable
//! Rust.
//!
//! Every reader must answer bad input with an error, never a panic; where a reader accepts its
//! input, the functions also check what its answer promises (a record's moves are legal, what
//! a writer writes reads back the same, a position's incremental state matches a fresh one) and
//! panic when it breaks that promise, which is what the fuzzer reports.

use std::io::Cursor;

use crate::book::apery::AperyReader;
use crate::book::db::{self, DbReader, MemoryBook};
use crate::book::make::{parse_games, RecordBook};
use crate::book::{Book, BookOptions, OpeningBook};
use crate::kifu::{self, GameRecord};
use crate::mate::{self, SolveLimits};
use crate::movegen::{self, MoveList};
use crate::position::{parse_move_syntax, Position};
use crate::types::{Move, PieceType, Square};
use crate::usi::{self, Command};

/// A target's body: it takes any bytes, and panics only when it finds a bug.
pub type Target = fn(&[u8]);

/// The targets by name, as `fuzz/fuzz_targets/<name>.rs` and `fuzz/corpus/<name>/` name them.
pub const TARGETS: [(&str, Target); 13] = [
    ("sfen", sfen),
    ("usi_move", usi_move),
    ("usi_command", usi_command),
    ("csa", csa),
    ("kif", kif),
    ("ki2", ki2),
    ("book_db", book_db),
    ("book_apery", book_apery),
    ("match_config", match_config),
    ("openings", openings),
    ("mate_batch", mate_batch),
    ("tsume_check", tsume_check),
    ("legal_moves", legal_moves),
];

/// Text readers get any bytes: invalid UTF-8 becomes U+FFFD, so every input reaches the parser.
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// What must hold for any position a reader hands out.
fn check_position(pos: &Position) {
    if let Err(e) = pos.is_consistent() {
        panic!("{e}: {}", pos.to_sfen());
    }
    let sfen = pos.to_sfen();
    let again = Position::from_sfen(&sfen)
        .unwrap_or_else(|e| panic!("to_sfen wrote '{sfen}', which reads back as: {e}"));
    assert_eq!(again.to_sfen(), sfen);
    assert_eq!(again.key(), pos.key(), "{sfen}");
}

/// An SFEN string: `Position::from_sfen`, and the start positions by name.
pub fn sfen(data: &[u8]) {
    let text = text(data);
    if let Ok(pos) = Position::from_sfen(&text) {
        check_position(&pos);
        let _ = pos.pretty();
        let _ = crate::book::flipped(&pos);
        let _ = crate::book::apery::key(&pos);
        let mut list = MoveList::new();
        movegen::generate_legal(&pos, &mut list);
    }
    if let Ok(pos) = Position::from_name(text.trim()) {
        check_position(&pos);
    }
}

/// Positions for [`usi_move`] when its input names none: the start, a middle game with pieces
/// in hand, a king in check, a pinned piece, a promoted piece, and a tsume problem without the
/// attacker's king.
const MOVE_POSITIONS: [&str; 6] = [
    crate::position::STARTPOS,
    "ln1g3nl/1r1sgk3/p1ppppbpp/1p4p2/9/2P3P2/PPSPPP1PP/1B1K3R1/LN1G1GSNL b s 17",
    "lnsgkgsnl/7b1/pppp1pppp/9/4r4/9/PPPP1PPPP/1B5R1/LNSGKGSNL b P 9",
    "4k4/4r4/9/9/9/9/9/4G4/4K4 b 2P 1",
    "+R2gk4/9/4+P4/9/9/9/9/9/4K4 w N 1",
    "7nl/7k1/6ppp/9/9/9/9/9/9 b RGSN2Pr2b3g3s2n3l13p 1",
];

/// USI move text (`7g7f`, `8h2b+`, `P*5e`), in a position: the input is an optional SFEN line
/// and then the move; without an SFEN line, its first byte picks one of a few positions.
pub fn usi_move(data: &[u8]) {
    let text = text(data);
    let (pos, mv) = match text.split_once('\n') {
        Some((sfen, mv)) => match Position::from_sfen(sfen) {
            Ok(p) => (p, mv),
            Err(_) => return,
        },
        None => {
            let i = data
                .first()
                .map_or(0, |&b| b as usize % MOVE_POSITIONS.len());
            (
                Position::from_sfen(MOVE_POSITIONS[i]).unwrap(),
                text.get(1..).unwrap_or(""),
            )
        }
    };
    let syntax = parse_move_syntax(mv);
    if let Some(m) = syntax {
        assert_eq!(parse_move_syntax(&m.to_string()), Some(m), "'{mv}'");
        assert_eq!(Move::from_raw(m.raw()), Some(m), "'{mv}'");
    }
    if let Ok(m) = pos.parse_usi_move(mv) {
        assert_eq!(syntax, Some(m));
        let mut list = MoveList::new();
        movegen::generate_legal(&pos, &mut list);
        assert!(list.contains(&m), "'{mv}' in {}", pos.to_sfen());
        let mut next = pos.clone();
        next.do_move(m);
        check_position(&next);
    }
}

/// USI command lines, one per line: `position` above all (its SFEN and its moves), `go` and
/// the rest of what a GUI sends.
pub fn usi_command(data: &[u8]) {
    for line in text(data).lines() {
        let Ok(Command::Position(pos)) = usi::parse_command(line) else {
            continue;
        };
        let mut pos = *pos;
        check_position(&pos);
        // Taking the moves back must reach a position that the same line's start gives.
        while let Some(m) = pos.last_move() {
            pos.undo_move(m);
        }
        check_position(&pos);
    }
}

/// What must hold for a record a reader accepts: its start is a position, its moves are legal
/// there, and the writer of the same format writes something that reads back as the same game.
fn check_record(
    rec: &GameRecord,
    write: fn(&GameRecord) -> Result<String, String>,
    read: fn(&str) -> Result<GameRecord, String>,
) {
    let end = rec
        .final_position()
        .unwrap_or_else(|e| panic!("a record read back with a bad game: {e}"));
    check_position(&end);
    let _ = rec.outcome();
    if let Ok(written) = write(rec) {
        let again = read(&written)
            .unwrap_or_else(|e| panic!("a written record does not read back: {e}\n{written}"));
        assert_eq!(again.start_sfen, rec.start_sfen, "{written}");
        let moves = |r: &GameRecord| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
        assert_eq!(moves(&again), moves(rec), "{written}");
    }
}

/// A record file as `hayate book from-records` reads it: the games of the file, each added to
/// a book, and the book written and read back.
fn make_book(text: &str, ext: &str) {
    let Ok(games) = parse_games(text, ext) else {
        return;
    };
    let mut rb = RecordBook::new(32);
    for g in &games {
        let _ = rb.add(g);
    }
    let book = rb.finish(1);
    let written = book.write();
    let again = MemoryBook::read(&written)
        .unwrap_or_else(|e| panic!("a book made from records does not read back: {e}"));
    assert_eq!(again.write(), written);
}

/// A record in a format: read from bytes as the readers take files (UTF-8 or Shift_JIS).
fn record(
    data: &[u8],
    ext: &str,
    read: fn(&str) -> Result<GameRecord, String>,
    write: fn(&GameRecord) -> Result<String, String>,
) {
    let Ok(text) = kifu::decode(data) else {
        return;
    };
    if let Ok(rec) = read(&text) {
        check_record(&rec, write, read);
    }
    make_book(&text, ext);
}

/// A CSA record (several games split by `/` lines, as book making reads them).
pub fn csa(data: &[u8]) {
    record(data, "csa", kifu::csa::read, kifu::csa::write);
}

/// A KIF record, and its variations: read as lines off the main line, written back (as one
/// tree) and read again, the same lines but for those that are the beginning of another.
pub fn kif(data: &[u8]) {
    record(data, "kif", kifu::kif::read, kifu::kif::write);
    let Ok(text) = kifu::decode(data) else {
        return;
    };
    if let Ok((rec, variations)) = kifu::kif::read_with_variations(&text) {
        variations_round_trip(&rec, &variations);
    }
}

/// `variations` of `rec`, as a reader gave them, written as KIF and read back: the same leaves
/// (the lines that are not the beginning of another), one variation each.
fn variations_round_trip(rec: &GameRecord, variations: &[kifu::kif::Variation]) {
    let written = kifu::kif::write_with_variations(rec, &[], variations)
        .unwrap_or_else(|e| panic!("variations read do not write: {e}\n{variations:?}"));
    let (_, again) = kifu::kif::read_with_variations(&written)
        .unwrap_or_else(|e| panic!("written variations do not read back: {e}\n{written}"));
    // Each variation as the whole line from the start; the tree's leaves.
    let main: Vec<Move> = rec.moves.iter().map(|m| m.mv).collect();
    let leaves = |vs: &[kifu::kif::Variation]| -> std::collections::HashSet<Vec<Move>> {
        let lines: Vec<Vec<Move>> = vs
            .iter()
            .map(|v| main[..v.ply - 1].iter().chain(&v.moves).copied().collect())
            .collect();
        lines
            .iter()
            .filter(|l| !lines.iter().any(|o| o.len() > l.len() && o.starts_with(l)))
            .cloned()
            .collect()
    };
    assert_eq!(leaves(&again), leaves(variations), "{written}");
    assert_eq!(again.len(), leaves(variations).len(), "{written}");
}

/// A KI2 record, and its variations, which read as KIF's do: written as KIF and read back,
/// the same lines.
pub fn ki2(data: &[u8]) {
    record(data, "ki2", kifu::ki2::read, kifu::ki2::write);
    let Ok(text) = kifu::decode(data) else {
        return;
    };
    if let Ok((rec, variations)) = kifu::ki2::read_with_variations(&text) {
        variations_round_trip(&rec, &variations);
    }
}

/// Probes an opened book the way the engine does at the root, under a few option settings.
fn probe(book: Book, positions: &[Position]) {
    let mut opening = OpeningBook::with_book(book, 1);
    let settings = [
        BookOptions::default(),
        BookOptions {
            narrow: true,
            consider_count: true,
            ignore_ply: true,
            eval_diff: 99_999,
            eval_limit: [-99_999, -99_999],
            moves: u32::MAX,
            ..BookOptions::default()
        },
    ];
    for pos in positions {
        for opts in &settings {
            let Ok(Some(hit)) = opening.probe(pos, opts) else {
                continue;
            };
            // The line the book reports must be playable.
            let mut p = pos.clone();
            for &m in &hit.pv {
                assert!(
                    p.is_legal(m),
                    "book line {:?} from {}",
                    hit.pv,
                    pos.to_sfen()
                );
                p.do_move(m);
            }
        }
    }
}

/// A YaneuraOu DB text book: read whole (`MemoryBook`, what the book tools use) and written
/// back, and opened for probing (`DbReader`, what the engine uses) and probed at the positions
/// it names.
pub fn book_db(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(book) = MemoryBook::read(text) {
            let written = book.write();
            let again = MemoryBook::read(&written)
                .unwrap_or_else(|e| panic!("a written book does not read back: {e}\n{written}"));
            assert_eq!(again.write(), written);
        }
    }
    let Ok(mut reader) = DbReader::from_source("fuzz", Box::new(Cursor::new(data.to_vec()))) else {
        return;
    };
    let keys: Vec<String> = text(data)
        .lines()
        .filter_map(|l| match db::parse_line(l) {
            Ok(db::Line::Position { key, .. }) => Some(key.to_string()),
            _ => None,
        })
        .take(8)
        .collect();
    let mut positions = vec![Position::startpos()];
    for key in &keys {
        let _ = reader.get(key);
        if let Ok(p) = Position::from_sfen(key) {
            positions.push(p);
        }
    }
    probe(Book::Db(reader), &positions);
}

/// An Apery `book.bin`, opened and probed at the start position and the positions after each
/// first move (the input's keys can match them: the fuzzer sees the comparisons).
pub fn book_apery(data: &[u8]) {
    let Ok(reader) = AperyReader::from_source("fuzz", Box::new(Cursor::new(data.to_vec()))) else {
        return;
    };
    let start = Position::startpos();
    let mut positions = vec![start.clone()];
    let mut list = MoveList::new();
    movegen::generate_legal(&start, &mut list);
    for &m in list.iter().take(4) {
        let mut p = start.clone();
        p.do_move(m);
        positions.push(p);
    }
    probe(Book::Apery(reader), &positions);
}

/// A `hayate match --config` TOML file, turned into arguments and those parsed. Arguments that
/// name further files (`--openings`, `--config`) are left out: those files have their own
/// targets, and the fuzzer must not read the machine's files.
pub fn match_config(data: &[u8]) {
    let Ok(args) = crate::cli::match_toml::to_args(&text(data)) else {
        return;
    };
    if args.iter().any(|a| a == "--openings" || a == "--config") {
        return;
    }
    if let Ok(cfg) = crate::cli::match_args::parse(&args) {
        let _ = cfg.tc.to_string();
        for e in &cfg.engines {
            let _ = e.tc.map(|t| t.to_string());
        }
    }
}

/// An openings file, as `hayate match --openings` reads it (one `Position::from_usi` per line), as
/// self-play reads it (`parse_openings`), and as book making reads a file of move lines.
pub fn openings(data: &[u8]) {
    let text = text(data);
    for line in crate::cli::match_args::opening_lines(&text) {
        let Ok(end) = Position::from_usi(&line) else {
            continue;
        };
        let (mut pos, moves) = end.start_and_moves();
        check_position(&pos);
        for &m in &moves {
            assert!(pos.is_legal(m), "opening '{line}'");
            pos.do_move(m);
        }
        check_position(&pos);
    }
    if let Ok(positions) = crate::selfplay::parse_openings(&text) {
        for p in &positions {
            check_position(p);
        }
    }
    make_book(&text, "");
}

/// Nodes for each problem of [`mate_batch`]: enough to solve short mates, little enough that
/// an input of many problems stays fast.
const BATCH_NODES: u64 = 3000;

/// A `hayate mate --batch` file (`name<TAB>sfen` rows), solved with a small node limit, as
/// `hayate mate` solves them: the shortest line, then the main line under the rules with the
/// nodes left ([`mate::with_main_line`], which plays out the line it gives). It runs on a
/// thread with the solver's deep stack, as `hayate mate` does.
pub fn mate_batch(data: &[u8]) {
    let text = text(data).into_owned();
    std::thread::Builder::new()
        .stack_size(mate::SOLVER_STACK)
        .spawn(move || {
            let limits = || SolveLimits {
                nodes: Some(BATCH_NODES),
                shorten: true,
                tsume_line: true,
                ..SolveLimits::default()
            };
            mate::run_batch(&text, 1, 1, limits, &mut |_| {}, &mut |_, _, _| {});
        })
        .expect("a solver thread starts")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

/// Nodes for each check of [`tsume_check`]: enough to settle short problems, little enough
/// that an input stays fast.
const CHECK_NODES: u64 = 4000;

/// The solver's table for each check of [`tsume_check`], in megabytes: 4,000 nodes fill a
/// fraction of one. The default's 48 MB of tables, made and cleared for every check, took
/// about a fifth of the corpus's replay, and a small table exercises the replacement too.
const CHECK_HASH_MB: usize = 1;

/// A problem file as `hayate tsume check FILE` reads it (`cli::mate::problem_in`): a record
/// (KIF, KI2, CSA, or a board diagram alone) whose start position is the problem and whose
/// moves are the composer's intended line, or else a `name<TAB>sfen<TAB>line` row or an SFEN.
/// It is checked with a small node limit, with the defender's hand completed and as given, on
/// a thread with the solver's deep stack. A report must keep its promises: a main line that
/// replays as a mate under the convention, and every 余詰 and minor twin a mating line from its
/// turn; an interposition left unproven only where a 変同 or 早詰 starts with a defender's drop; sound only with the exact length, nothing to spare and every check looked at; flawed
/// only with the exact length and 駒余り or a 余詰; 不詰 without a main line; and what the
/// finding on the intended line says of it (see `check_intended`). Its three printed forms
/// must not fail.
pub fn tsume_check(data: &[u8]) {
    let Ok(problem) = crate::cli::mate::problem_in(&text(data), "") else {
        return;
    };
    std::thread::Builder::new()
        .stack_size(mate::SOLVER_STACK)
        .spawn(move || {
            for complete_hand in [true, false] {
                let limits = mate::CheckLimits {
                    nodes: CHECK_NODES,
                    complete_hand,
                    hash_mb: CHECK_HASH_MB,
                    ..mate::CheckLimits::default()
                };
                if let Ok(r) = mate::check_with_record(
                    &problem.sfen,
                    &problem.intended,
                    &problem.variations,
                    &limits,
                ) {
                    check_report(&r);
                }
            }
        })
        .expect("a checker thread starts")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

/// What a composer's report promises (see [`tsume_check`]).
fn check_report(r: &mate::Report) {
    use mate::Status;
    let pos = Position::from_sfen(&r.sfen)
        .unwrap_or_else(|e| panic!("the report's SFEN '{}' does not read: {e}", r.sfen));
    check_position(&pos);
    if !r.main_line.is_empty() {
        if let Err(e) = mate::verify_tsume_line(&pos, &r.main_line) {
            panic!("main line of {}: {e}", r.sfen);
        }
    }
    // The report as a record (`--kif`): it writes, and reads back as the problem with the
    // main line.
    for verbose in [false, true] {
        let text = r
            .kif(verbose)
            .unwrap_or_else(|e| panic!("the report of {} as KIF: {e}", r.sfen));
        let (rec, _) = kifu::kif::read_with_variations(&text)
            .unwrap_or_else(|e| panic!("the KIF of {} does not read back: {e}\n{text}", r.sfen));
        // The record's moves count from 1, whatever the SFEN's move number.
        let position = |sfen: &str| sfen.rsplit_once(' ').map(|(p, _)| p.to_string());
        assert_eq!(position(&rec.start_sfen), position(&r.sfen), "{text}");
        if !r.main_line.is_empty() {
            let main: Vec<Move> = rec.moves.iter().map(|m| m.mv).collect();
            assert_eq!(main, r.main_line, "{text}");
        }
    }
    if let Some((n, line)) = &r.length_at_most {
        assert!(line.len() <= *n, "{}", r.sfen);
        if let Err(e) = mate::verify_tsume_line(&pos, line) {
            panic!("bounding line of {}: {e}", r.sfen);
        }
    }
    match r.status {
        Status::Sound => {
            assert_eq!(r.length, Some(r.main_line.len()), "{}", r.sfen);
            assert!(r.spare.is_empty() && r.cooks.is_empty(), "{}", r.sfen);
            assert!(!r.incomplete, "{}", r.sfen);
        }
        // A flaw is proven: the main line is exact, and 駒余り or a 余詰 is there.
        Status::Flawed => {
            assert_eq!(r.length, Some(r.main_line.len()), "{}", r.sfen);
            assert!(!r.spare.is_empty() || !r.cooks.is_empty(), "{}", r.sfen);
        }
        Status::NoMate => assert!(r.main_line.is_empty(), "{}", r.sfen),
        Status::Unknown => {}
    }
    // The exact length may come without the line, when the budget runs out on the way to it.
    if let (Some(n), false) = (r.length, r.main_line.is_empty()) {
        assert_eq!(n, r.main_line.len(), "{}", r.sfen);
    }
    // The attacker's alternatives: each a mating line from the position before its turn.
    let attacker_turns = [
        &r.cooks,
        &r.last_move_alternatives,
        &r.promotion_choices,
        &r.drop_choices,
    ];
    for a in attacker_turns.into_iter().flatten() {
        assert!(a.ply % 2 == 1 && a.ply <= r.main_line.len(), "{}", r.sfen);
        let mut p = pos.clone();
        for &m in &r.main_line[..a.ply - 1] {
            p.do_move(m);
        }
        assert_eq!(a.line.first(), Some(&a.mv), "{}", r.sfen);
        assert!(!a.unproven_interposition, "{}", r.sfen);
        if let Err(e) = mate::verify_tsume_line(&p, &a.line) {
            panic!("alternative at ply {} of {}: {e}", a.ply, r.sfen);
        }
    }
    // Only a defender's drop can be an interposition left unproven.
    for a in r.equal_variations.iter().chain(&r.early_mates) {
        assert!(
            a.ply % 2 == 0 && a.line.first() == Some(&a.mv),
            "{}",
            r.sfen
        );
        assert!(!a.unproven_interposition || a.mv.is_drop(), "{}", r.sfen);
    }
    // The drops a "sound if" report rests on, named by such a report only (and each such
    // report names some), and those proven useless after it, named with the reason that says
    // so: each a legal line from the problem that ends with a defender's drop against a check.
    let reason_starts = |start: &str| {
        r.reason
            .as_deref()
            .is_some_and(|why| why.starts_with(start))
    };
    assert_eq!(
        reason_starts("sound if every"),
        !r.unsettled_drops.is_empty(),
        "{}",
        r.sfen
    );
    assert_eq!(
        reason_starts("a drop taken for a defence was proven a useless"),
        !r.drops_proven_useless.is_empty(),
        "{}",
        r.sfen
    );
    for line in r.unsettled_drops.iter().chain(&r.drops_proven_useless) {
        assert!(line.len() % 2 == 0, "{}", r.sfen);
        let mut p = pos.clone();
        for (i, &m) in line.iter().enumerate() {
            assert!(p.is_legal(m), "unsettled drop's line of {}: {m}", r.sfen);
            if i + 1 == line.len() {
                assert!(p.in_check() && m.is_drop(), "{}: {m}", r.sfen);
            }
            p.do_move(m);
        }
    }
    // The checks left unsettled, named exactly when the report says some are: each a check
    // other than the main line's at one of its attacker turns, the line to it the main line's.
    assert_eq!(r.incomplete, !r.unsettled_checks.is_empty(), "{}", r.sfen);
    for line in &r.unsettled_checks {
        let k = line.len() - 1;
        assert!(
            k % 2 == 0 && k < r.main_line.len() && line[..k] == r.main_line[..k],
            "unsettled check's line of {}",
            r.sfen
        );
        assert_ne!(line[k], r.main_line[k], "{}", r.sfen);
        let mut p = pos.clone();
        for &m in line {
            assert!(p.is_legal(m), "unsettled check's line of {}: {m}", r.sfen);
            p.do_move(m);
        }
        assert!(p.in_check(), "{}: {}", r.sfen, line[k]);
    }
    if let Some(ply) = r.alternatives_stopped_at {
        assert!((1..=r.main_line.len()).contains(&ply), "{}", r.sfen);
        assert_ne!(r.status, Status::Sound, "{}", r.sfen);
    }
    if let Some(i) = &r.intended {
        check_intended(&pos, r, i);
    }
    for v in &r.variations {
        check_variation(&pos, r, v);
    }
    let _ = (r.human(true), r.json(true), r.row());
}

/// What the finding on one of the record's variations promises: it branches off within its
/// line; a defence's line found to be the best play (or as long, with more in hand) is a mate
/// as long as the plies it names, and a quicker mate in it is one from its ply; a try is a
/// check at an attacker turn, and its refutation a legal reply; a try the report names
/// branches off the main line, and its line, when the best play, is a mate as long as it says.
fn check_variation(pos: &Position, r: &mate::Report, v: &mate::ComposerVariation) {
    use mate::{IntendedFinding as I, VariationFinding as F};
    let sfen = &r.sfen;
    assert!((1..=v.line.len()).contains(&v.ply), "{sfen}");
    let before = |ply: usize| {
        let mut p = pos.clone();
        for &m in &v.line[..ply - 1] {
            p.do_move(m);
        }
        p
    };
    match &v.finding {
        F::Defence { finding, plies, .. } => {
            assert!(v.ply.is_multiple_of(2), "{sfen}");
            match finding {
                I::Solution => {
                    if let Err(e) = mate::verify_tsume_line(pos, &v.line) {
                        panic!("variation of {sfen} found the best play: {e}");
                    }
                    assert_eq!(*plies, Some(v.line.len()), "{sfen}");
                }
                I::QuickerMate { ply, line, .. } => {
                    assert!(
                        ply % 2 == 1 && *ply > v.ply && *ply <= v.line.len(),
                        "{sfen}"
                    );
                    if let Err(e) = mate::verify_tsume_line(&before(*ply), line) {
                        panic!("quicker mate at ply {ply} of a variation of {sfen}: {e}");
                    }
                }
                I::LongerDefence { ply, .. } | I::UselessInterposition { ply } => {
                    assert!(
                        ply % 2 == 0 && *ply > v.ply && *ply <= v.line.len(),
                        "{sfen}"
                    );
                }
                // A mate as long as the best play, which leaves more in hand.
                I::MoreInHand { ply } => {
                    assert!(*ply > v.ply && *ply <= v.line.len(), "{sfen}");
                    if let Err(e) = mate::verify_tsume_line(pos, &v.line) {
                        panic!("variation of {sfen} with more in hand: {e}");
                    }
                    assert_eq!(*plies, Some(v.line.len()), "{sfen}");
                }
                _ => {}
            }
        }
        F::FailedTry { refutation, .. } => {
            assert!(v.ply % 2 == 1, "{sfen}");
            let mut p = before(v.ply);
            p.do_move(v.line[v.ply - 1]);
            assert!(p.in_check(), "{sfen}");
            if let Some(r) = refutation {
                assert!(p.is_legal(*r), "{sfen}: {r}");
            }
        }
        F::MatingTry {
            called,
            plies,
            line,
        } => {
            assert!(v.ply % 2 == 1, "{sfen}");
            if called.is_some() {
                assert_eq!(v.line[..v.ply - 1], r.main_line[..v.ply - 1], "{sfen}");
            }
            // A line past the try that is the best play is a mate as long as it says.
            if line == &Some(I::Solution) {
                if let Err(e) = mate::verify_tsume_line(pos, &v.line) {
                    panic!("mating try of {sfen} found the best play: {e}");
                }
                assert_eq!(*plies, Some(v.line.len()), "{sfen}");
            }
        }
        F::UselessDefence | F::Escapes => assert!(v.ply.is_multiple_of(2), "{sfen}"),
        F::NotLegal { ply, .. } => assert!(*ply <= v.ply + 1, "{sfen}"),
        F::Unknown { .. } => {}
    }
}

/// What the finding on an intended line promises: a solution (or a forced mate, or a line
/// that leaves more in hand) is a mate, a solution as long as the exact length; a quicker mate
/// is named at an attacker turn of the line and is a mate from there, shorter than the line's
/// rest; a longer or useless defence is named at a defender turn.
fn check_intended(pos: &Position, r: &mate::Report, i: &mate::Intended) {
    use mate::IntendedFinding as F;
    let sfen = &r.sfen;
    let before = |ply: usize| {
        let mut p = pos.clone();
        for &m in &i.line[..ply - 1] {
            p.do_move(m);
        }
        p
    };
    match &i.finding {
        F::Solution | F::ForcedMate | F::MoreInHand { .. } => {
            if let Err(e) = mate::verify_tsume_line(pos, &i.line) {
                panic!("intended line of {sfen}, found {}: {e}", i.finding.name());
            }
            if i.finding == F::Solution {
                if let Some(n) = r.length {
                    assert_eq!(i.line.len(), n, "{sfen}");
                }
            }
        }
        F::QuickerMate { ply, plies, line } => {
            assert!(ply % 2 == 1 && *ply <= i.line.len(), "{sfen}");
            assert!(*plies < i.line.len() + 1 - ply, "{sfen}");
            if let Err(e) = mate::verify_tsume_line(&before(*ply), line) {
                panic!("quicker mate at ply {ply} of {sfen}: {e}");
            }
        }
        F::LongerDefence { ply, .. } | F::UselessInterposition { ply } => {
            assert!(ply % 2 == 0 && *ply <= i.line.len(), "{sfen}");
        }
        F::NotAMate { .. } | F::Unknown { .. } => {}
    }
}

/// A move from two arbitrary bytes: any board move (the origin may equal the destination) or a
/// drop of any kind, promoted pieces and the king too, as a reader may build from bad input.
fn arbitrary_move(a: u8, b: u8) -> Move {
    let to = Square::from_index(b % 81).unwrap();
    if a & 0x80 != 0 {
        let pt = PieceType::from_u8(1 + (a & 0x7f) % 14).unwrap();
        Move::drop(pt, to)
    } else {
        let from = Square::from_index(a % 81).unwrap();
        Move::normal(from, to, b >= 128)
    }
}

/// The most plies [`legal_moves`] plays from its start: each ply checks every legal move.
const LEGAL_PLIES: usize = 48;

/// "A legal move is legal": from the start position (or an SFEN on the input's first line), play
/// moves chosen by index from the legal list; at every position check that each generated move
/// passes `is_legal`, gives check exactly when `gives_check` says, and is undone to the same
/// position (key, SFEN); that the generators for captures, quiets and checks agree with the
/// full list (and, in check, whether a reply on the board is left); and that arbitrary move
/// values given to `is_legal` never panic and are accepted only when generated.
pub fn legal_moves(data: &[u8]) {
    let (mut pos, rest) = match data.iter().position(|&b| b == b'\n') {
        Some(i) if data.first() == Some(&b's') => match Position::from_sfen(&text(&data[1..i])) {
            Ok(p) => (p, &data[i + 1..]),
            Err(_) => return,
        },
        _ => (Position::startpos(), data),
    };
    let (start_sfen, start_key) = (pos.to_sfen(), pos.key());
    let mut played = Vec::new();
    for chunk in rest.chunks(3).take(LEGAL_PLIES) {
        let mut list = MoveList::new();
        movegen::generate_legal(&pos, &mut list);
        check_moves(&mut pos, &list);
        if let [_, a, b] = *chunk {
            let m = arbitrary_move(a, b);
            assert_eq!(
                pos.is_legal(m),
                list.contains(&m),
                "is_legal({m}) in {}",
                pos.to_sfen()
            );
        }
        if list.is_empty() {
            break;
        }
        let m = list[chunk[0] as usize % list.len()];
        pos.do_move(m);
        played.push(m);
        if let Err(e) = pos.is_consistent() {
            panic!("{e} after {m}");
        }
    }
    // The whole line taken back.
    for &m in played.iter().rev() {
        pos.undo_move(m);
    }
    assert_eq!((pos.to_sfen(), pos.key()), (start_sfen, start_key));
}

/// The checks of [`legal_moves`] at one position, whose legal moves are `list`.
fn check_moves(pos: &mut Position, list: &MoveList) {
    let sfen = pos.to_sfen();
    let key = pos.key();
    let mut raw: Vec<u16> = list.iter().map(|m| m.raw()).collect();
    raw.sort_unstable();
    raw.dedup();
    assert_eq!(raw.len(), list.len(), "a move generated twice in {sfen}");
    assert_eq!(movegen::count_legal(pos), list.len());
    let us = pos.side_to_move();
    for (i, &m) in list.iter().enumerate() {
        assert!(pos.is_legal(m), "generated {m} fails is_legal in {sfen}");
        let checks = pos.gives_check(m);
        // Recomputing everything from scratch is slow: do it for the moves that change more
        // than two squares' worth of state (drops, captures, promotions, king moves) and for
        // every eighth of the rest; the key is compared after every undo.
        let thorough = i % 8 == 0
            || m.is_drop()
            || m.is_promotion()
            || pos.piece_on(m.to()).is_some()
            || pos.piece_on(m.from()).map(|p| p.piece_type()) == Some(PieceType::King);
        pos.do_move(m);
        if thorough {
            if let Err(e) = pos.is_consistent() {
                panic!("{e} after {m} in {sfen}");
            }
        }
        if let Some(k) = pos.king_square(us) {
            assert!(
                !pos.is_attacked(!us, k, pos.occupied()),
                "{m} leaves the king in check in {sfen}"
            );
        }
        assert_eq!(pos.in_check(), checks, "gives_check({m}) in {sfen}");
        pos.undo_move(m);
        assert_eq!(pos.key(), key, "undo of {m} in {sfen}");
        if thorough {
            assert_eq!(pos.to_sfen(), sfen, "undo of {m}");
        }
    }
    // The partial generators partition or filter the full list.
    let sorted = |l: &MoveList| {
        let mut v: Vec<u16> = l.iter().map(|m| m.raw()).collect();
        v.sort_unstable();
        v
    };
    let (mut caps, mut quiets, mut checks) = (MoveList::new(), MoveList::new(), MoveList::new());
    movegen::generate_captures_promotions(pos, &mut caps);
    movegen::generate_quiets(pos, &mut quiets);
    movegen::generate_checks(pos, &mut checks);
    let mut both = sorted(&caps);
    both.extend(sorted(&quiets));
    both.sort_unstable();
    assert_eq!(
        both, raw,
        "captures and quiets do not partition the moves of {sfen}"
    );
    let mut giving: Vec<u16> = list
        .iter()
        .filter(|&&m| pos.gives_check(m))
        .map(|m| m.raw())
        .collect();
    giving.sort_unstable();
    assert_eq!(sorted(&checks), giving, "checks of {sfen}");
    if pos.in_check() {
        assert_eq!(
            movegen::has_board_evasion(pos),
            list.iter().any(|m| !m.is_drop()),
            "has_board_evasion in {sfen}"
        );
    }
    if let Some(m) = mate::mate_in_one(pos) {
        assert!(list.contains(&m), "mate_in_one({m}) is not legal in {sfen}");
        pos.do_move(m);
        assert!(
            pos.in_check() && movegen::count_legal(pos) == 0,
            "mate_in_one({m}) does not mate in {sfen}"
        );
        pos.undo_move(m);
    }
}
