//! The df-pn mate solver: exact lengths on short problems (checked against an exhaustive
//! search), classical problems, no-mate positions, the pawn-drop-mate rule, repetitions, and
//! `go mate` / `hayate mate` from outside.

mod common;

use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hayate::mate::{
    check_problem, defender_to_move, main_line_after_proof, verify_mate_line, verify_tsume_line,
    with_main_line, CheckLimits, LineLimits, LineProgress, SolveLimits, Solver, Verdict,
};
use hayate::movegen::{generate_checks, generate_legal, MoveList};
use hayate::types::Move;
use hayate::Position;
use rand::{Rng, SeedableRng};

fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect()
}

fn solve(solver: &mut Solver, sfen: &str, nodes: u64) -> Verdict {
    let mut pos = common::pos(sfen);
    solver.solve(
        &mut pos,
        SolveLimits {
            nodes: Some(nodes),
            shorten: true,
            ..SolveLimits::default()
        },
    )
}

/// Replays a line by hand: every move among the legal moves, every attacker move a check,
/// and no legal reply at the end.
fn check_line(sfen: &str, line: &[Move]) {
    let mut p = common::pos(sfen);
    let attacker = p.side_to_move();
    for (i, &m) in line.iter().enumerate() {
        let mut legal = MoveList::new();
        generate_legal(&p, &mut legal);
        assert!(legal.contains(&m), "{sfen}: move {} {m} is illegal", i + 1);
        if p.side_to_move() == attacker {
            assert!(
                p.gives_check(m),
                "{sfen}: attacker move {} {m} is no check",
                i + 1
            );
        }
        p.do_move(m);
    }
    let mut replies = MoveList::new();
    generate_legal(&p, &mut replies);
    assert!(
        replies.is_empty() && p.in_check(),
        "{sfen}: the line does not end in mate"
    );
    assert!(verify_mate_line(&common::pos(sfen), line).is_ok());
}

/// Exhaustive: can the side to move mate within `plies` plies by continuous checks?
fn mate_within(pos: &mut Position, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    checks.iter().any(|&m| {
        pos.do_move(m);
        let mut replies = MoveList::new();
        generate_legal(pos, &mut replies);
        let mated = replies.is_empty()
            || (plies >= 3
                && replies.iter().all(|&r| {
                    pos.do_move(r);
                    let ok = mate_within(pos, plies - 2);
                    pos.undo_move(r);
                    ok
                }));
        pos.undo_move(m);
        mated
    })
}

/// Solves every problem of tests/data/tsume_short.tsv with `solver` (cleared before each) and
/// holds its line to the recorded length; the lengths, in order.
fn solve_the_short_problems(solver: &mut Solver) -> Vec<usize> {
    let mut lengths = Vec::new();
    for row in rows(include_str!("data/tsume_short.tsv")) {
        let (name, plies, sfen) = (row[0], row[1].parse::<usize>().unwrap(), row[2]);
        solver.clear();
        match solve(solver, sfen, 2_000_000) {
            Verdict::Mate(line) => {
                assert_eq!(line.len(), plies, "{name}: {line:?}");
                check_line(sfen, &line);
            }
            other => panic!("{name}: {other:?}"),
        }
        lengths.push(plies);
    }
    lengths
}

#[test]
fn short_problems_are_solved_with_their_exact_length() {
    let lengths = solve_the_short_problems(&mut Solver::new(16));
    for n in [1, 3, 5, 7, 9, 11] {
        assert!(lengths.contains(&n), "no {n}-ply problem");
    }
}

#[test]
fn the_exact_lengths_agree_with_an_exhaustive_search() {
    for row in rows(include_str!("data/tsume_short.tsv")) {
        let plies: u32 = row[1].parse().unwrap();
        let mut pos = common::pos(row[2]);
        assert!(mate_within(&mut pos, plies), "{}", row[0]);
        assert!(
            !mate_within(&mut pos, plies.saturating_sub(2)),
            "{}",
            row[0]
        );
    }
}

#[test]
fn classical_problems_are_solved_and_their_lines_check() {
    let text = include_str!("data/tsume_classics.tsv");
    let mut solver = Solver::new(64);
    for row in rows(text) {
        if !["muso077", "zuko002", "zuko036"].contains(&row[0]) {
            continue;
        }
        solver.clear();
        match solve(&mut solver, row[1], 2_000_000) {
            Verdict::Mate(line) => {
                assert!(line.len() >= 11 && line.len() % 2 == 1, "{}", row[0]);
                check_line(row[1], &line);
            }
            other => panic!("{}: {other:?}", row[0]),
        }
    }
}

#[test]
fn positions_without_a_mate_are_answered_nomate() {
    let mut solver = Solver::new(16);
    for sfen in [
        // A bare king and nothing to attack it with.
        "4k4/9/9/9/9/9/9/9/4K4 b - 1",
        // One pawn cannot mate a king in the open.
        "9/9/9/9/4k4/9/9/9/4K4 b P 1",
        // The king is not even attackable: every check is answered by capture.
        "4k4/4g4/9/9/9/9/9/9/4K4 b S 1",
    ] {
        assert_eq!(
            solve(&mut solver, sfen, 1_000_000),
            Verdict::NoMate,
            "{sfen}"
        );
    }
}

/// muso037 and muso088 have no mate as transcribed. They are also where bounding a node's
/// numbers by those of its board with other hands goes wrong when the bounds may come from a
/// board on the current path: the numbers then feed each other round a loop and the search
/// never reaches the disproof (muso037: 20M nodes without one, against about 530k).
#[test]
fn unsound_classics_are_disproven_without_looping() {
    let text = include_str!("data/tsume_classics.tsv");
    let mut solver = Solver::new(64);
    for row in rows(text) {
        if !["muso037", "muso088"].contains(&row[0]) {
            continue;
        }
        solver.clear();
        assert_eq!(
            solve(&mut solver, row[1], 2_000_000),
            Verdict::NoMate,
            "{}",
            row[0]
        );
    }
    // With a smaller table. When this was written (9e4bb35, when `Solver::new(32)` still gave a
    // 16 MB table) only the cap on the bounds stopped a loop here: about 560k nodes with it,
    // none within 5M without it. Since the table sizes were fixed and the replies estimated
    // lazily, the search no longer meets that loop (530k-590k nodes with or without the cap at
    // 1-64 MB), so the cap itself is held by `bounds_from_other_hands_are_capped` in
    // `src/mate/table.rs`. Without the guard by the path, muso037 above loops at 64 MB.
    let muso089 = rows(text).into_iter().find(|r| r[0] == "muso089").unwrap();
    let mut small = Solver::new(32);
    assert_eq!(solve(&mut small, muso089[1], 2_000_000), Verdict::NoMate);
}

/// A failure that rests on its path (a repetition) is never stored in the table; remembered
/// under the path itself, the next visit along the same path takes it at once. The checker's
/// solvers do (see `src/mate/path_failures.rs`): the disproofs of muso037 and muso089 take
/// 395k and 355k nodes here against 653k and 495k, and the short problems keep their exact
/// lengths. (Node counts are exact, so the margin asked for, a quarter, holds or fails alike
/// on every machine.)
#[test]
fn failures_remembered_on_their_path_are_read_back_on_it() {
    let text = include_str!("data/tsume_classics.tsv");
    for name in ["muso037", "muso089"] {
        let row = rows(text).into_iter().find(|r| r[0] == name).unwrap();
        let mut plain = Solver::new(32);
        assert_eq!(
            solve(&mut plain, row[1], 2_000_000),
            Verdict::NoMate,
            "{name}"
        );
        let mut remembering = Solver::new(32);
        remembering.remember_path_failures(4);
        assert_eq!(
            solve(&mut remembering, row[1], 2_000_000),
            Verdict::NoMate,
            "{name}"
        );
        assert!(
            remembering.nodes() * 4 < plain.nodes() * 3,
            "{name}: {} nodes remembering, {} without",
            remembering.nodes(),
            plain.nodes()
        );
    }
    let mut solver = Solver::new(16);
    solver.remember_path_failures(1);
    solve_the_short_problems(&mut solver);
}

#[test]
fn a_pawn_drop_mate_does_not_count() {
    // P*1b would mate, but a pawn drop may not give mate, and nothing else mates.
    let sfen = "7lk/9/8S/9/9/9/9/7L1/8K b P 1";
    let mut pos = common::pos(sfen);
    assert!(!mate_within(&mut pos, 7));
    let mut solver = Solver::new(16);
    assert_eq!(solve(&mut solver, sfen, 1_000_000), Verdict::NoMate);
    // With a gold instead of the pawn, the same drop is a mate.
    match solve(&mut solver, "7lk/9/8S/9/9/9/9/7L1/8K b G 1", 1_000_000) {
        Verdict::Mate(line) => assert_eq!(line.len(), 1),
        other => panic!("{other:?}"),
    }
}

#[test]
fn endless_checks_are_not_a_mate() {
    // A rook in hand checks forever but cannot mate alone: every line repeats or escapes.
    let mut solver = Solver::new(16);
    for sfen in [
        "4k4/9/9/9/9/9/9/9/9 b R 1",
        "9/9/9/9/4k4/9/9/9/9 b R 1",
        "9/9/9/9/4k4/9/9/9/9 b B2L 1",
    ] {
        assert_eq!(
            solve(&mut solver, sfen, 2_000_000),
            Verdict::NoMate,
            "{sfen}"
        );
    }
}

#[test]
fn a_shared_table_gives_the_same_answers_as_fresh_ones() {
    // Repetition verdicts depend on the path, so they must never leak into the table: solving
    // one problem after another in one table must not change any verdict or length.
    let text = include_str!("data/tsume_short.tsv");
    let mut shared = Solver::new(16);
    let mut sfens: Vec<&str> = rows(text).iter().map(|r| r[2]).collect();
    sfens.extend(["4k4/9/9/9/9/9/9/9/9 b R 1", "7lk/9/8S/9/9/9/9/7L1/8K b P 1"]);
    for sfen in sfens.iter().chain(sfens.iter().rev()) {
        let mut fresh = Solver::new(16);
        let a = solve(&mut fresh, sfen, 2_000_000);
        let b = solve(&mut shared, sfen, 2_000_000);
        match (&a, &b) {
            (Verdict::Mate(x), Verdict::Mate(y)) => assert_eq!(x.len(), y.len(), "{sfen}"),
            _ => assert_eq!(a, b, "{sfen}"),
        }
    }
}

/// A king near the edge, a few defenders, a few attackers and a hand: tsume-like positions.
fn random_problem(rng: &mut impl Rng) -> Option<Position> {
    let mut board = [[None::<&str>; 9]; 9];
    let (kf, kr) = (rng.gen_range(0..9), rng.gen_range(0..3));
    board[kr][kf] = Some("k");
    let defenders = ["p", "s", "g", "l", "n"];
    let attackers = ["P", "S", "G", "L", "N", "B", "R", "+R", "+B"];
    for i in 0..rng.gen_range(2..7) {
        let piece = if i % 2 == 0 {
            defenders[rng.gen_range(0..defenders.len())]
        } else {
            attackers[rng.gen_range(0..attackers.len())]
        };
        let f = (kf as i32 + rng.gen_range(-2..=2)).clamp(0, 8) as usize;
        let r = (kr as i32 + rng.gen_range(-1..=3)).clamp(0, 8) as usize;
        if board[r][f].is_none() {
            board[r][f] = Some(piece);
        }
    }
    let ranks: Vec<String> = board.iter().map(common::sfen_rank).collect();
    let hands = [
        "G", "S", "GS", "2G", "R", "B", "N", "P", "RG", "BG", "L", "GSN", "2S",
    ];
    let sfen = format!(
        "{} b {} 1",
        ranks.join("/"),
        hands[rng.gen_range(0..hands.len())]
    );
    Position::from_sfen(&sfen).ok()
}

#[test]
fn random_problems_agree_with_an_exhaustive_search() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut solver = Solver::new(16);
    let (mut mates, mut tried) = (0, 0);
    while tried < 250 {
        let Some(mut pos) = random_problem(&mut rng) else {
            continue;
        };
        tried += 1;
        let sfen = pos.to_sfen();
        let shortest = [1, 3, 5].into_iter().find(|&n| mate_within(&mut pos, n));
        solver.clear();
        let verdict = solver.solve(
            &mut pos,
            SolveLimits {
                nodes: Some(300_000),
                shorten: true,
                ..SolveLimits::default()
            },
        );
        match (shortest, verdict) {
            (Some(n), Verdict::Mate(line)) => {
                assert_eq!(line.len(), n as usize, "{sfen}");
                check_line(&sfen, &line);
                mates += 1;
            }
            (None, Verdict::Mate(line)) => {
                assert!(line.len() > 5, "{sfen}");
                check_line(&sfen, &line);
            }
            (Some(n), v) => panic!("{sfen}: mate in {n} missed: {v:?}"),
            (None, _) => {}
        }
    }
    assert!(mates >= 20, "only {mates} mates among the random problems");
}

/// A problem set up after the attacker's check, the defender to move: `solve_problem` answers
/// whether the defender is mated, with the line from his longest reply. For each short problem,
/// after its line's first check: a mate as long as the rest of the problem (the exhaustive
/// search agrees: every reply mated within it, one not within two plies fewer), each move legal,
/// each attacker move a check, and the defender mated at the end. `solve` still asks what
/// `go mate` asks, a mate for the side to move, which has nothing to attack.
#[test]
fn a_position_after_the_check_is_solved_for_the_defender() {
    let limits = || SolveLimits {
        nodes: Some(2_000_000),
        shorten: true,
        ..SolveLimits::default()
    };
    let mut solver = Solver::new(16);
    let mut tried = 0;
    for row in rows(include_str!("data/tsume_short.tsv")) {
        let (name, plies, sfen) = (row[0], row[1].parse::<u32>().unwrap(), row[2]);
        solver.clear();
        let Verdict::Mate(line) = solve(&mut solver, sfen, 2_000_000) else {
            panic!("{name}: not solved");
        };
        let mut pos = common::pos(sfen);
        if pos.king_square(pos.side_to_move()).is_some() {
            // With the attacker's king on the board the side in check might be the attacker.
            continue;
        }
        tried += 1;
        assert!(!defender_to_move(&pos), "{name}");
        pos.do_move(line[0]);
        assert!(defender_to_move(&pos), "{name}");
        solver.clear();
        let Verdict::Mate(rest) = solver.solve_problem(&mut pos, limits()) else {
            panic!("{name}: the position after {} is not solved", line[0]);
        };
        assert_eq!(rest.len() as u32, plies - 1, "{name}: {rest:?}");
        let mut replies = MoveList::new();
        generate_legal(&pos, &mut replies);
        let within = |pos: &mut Position, r: Move, n: u32| {
            pos.do_move(r);
            let mated = mate_within(pos, n);
            pos.undo_move(r);
            mated
        };
        if plies > 1 {
            assert!(
                replies.iter().all(|&r| within(&mut pos, r, plies - 2)),
                "{name}"
            );
            assert!(
                replies
                    .iter()
                    .any(|&r| !within(&mut pos, r, plies.saturating_sub(4))),
                "{name}"
            );
        } else {
            assert!(replies.is_empty() && rest.is_empty(), "{name}");
        }
        let mut p = pos.clone();
        for (i, &m) in rest.iter().enumerate() {
            assert!(p.is_legal(m), "{name}: move {} {m}", i + 1);
            assert!(i % 2 == 0 || p.gives_check(m), "{name}: move {} {m}", i + 1);
            p.do_move(m);
        }
        let mut left = MoveList::new();
        generate_legal(&p, &mut left);
        assert!(p.in_check() && left.is_empty(), "{name}: {rest:?}");
        solver.clear();
        assert_eq!(solver.solve(&mut pos, limits()), Verdict::NoMate, "{name}");
    }
    assert!(
        tried >= 5,
        "only {tried} problems without the attacker's king"
    );
    // After ▲6一飛成 in NEXT_TO_THE_KING (below) only useless interpositions are left: under the
    // tsume convention the defender is mated already, the empty line; counting the drops, he
    // is mated two plies or more later.
    let mut pos = common::pos("3+R4k/7pp/6N2/9/9/9/9/9/9 w gl 2");
    let tsume = SolveLimits {
        tsume_line: true,
        ..limits()
    };
    solver.clear();
    assert_eq!(
        solver.solve_problem(&mut pos, tsume),
        Verdict::Mate(Vec::new())
    );
    solver.clear();
    match solver.solve_problem(&mut pos, limits()) {
        Verdict::Mate(line) => assert!(line.len() >= 2, "{line:?}"),
        other => panic!("{other:?}"),
    }
    // A check the king answers by taking the checker, the attacker left with nothing.
    let mut pos = common::pos("4k4/4G4/9/9/9/9/9/9/9 w - 1");
    assert_eq!(solver.solve_problem(&mut pos, limits()), Verdict::NoMate);
}

/// 将棋無双 No. 55: the solver's shortest mate found is 15 plies (▲8八桂 △9五玉 ...), where
/// the quickest mate against the longest defence is 13 (▲8八桂 △8五玉 ▲7五飛 △同玉 ▲7六金).
const MUSO_055: &str = "1l7/s8/p+Pg6/3p5/+pP1B5/kp7/2R+p5/S8/9 b GNrb2g2s3n3l11p 1";

/// `hayate mate` and `go mate` show the main line under the rules, the same line as `hayate
/// tsume check`'s, where the solver's own line is another; with no nodes left for it, or
/// without the shortest line asked for (`--first`), the solver's line stands.
#[test]
fn the_main_line_under_the_rules_replaces_the_solvers_line() {
    let limits = |nodes| SolveLimits {
        nodes: Some(nodes),
        shorten: true,
        tsume_line: true,
        ..SolveLimits::default()
    };
    let solve = |solver: &mut Solver, limits: SolveLimits| {
        let mut pos = common::pos(MUSO_055);
        let verdict = solver.solve_problem(&mut pos, limits.clone());
        let solved = solver.nodes();
        (verdict, solved)
    };
    let pos = common::pos(MUSO_055);
    let mut solver = Solver::new(64);
    let (verdict, solved) = solve(&mut solver, limits(2_000_000));
    let Verdict::Mate(solver_line) = verdict.clone() else {
        panic!("{verdict:?}")
    };
    assert_eq!(solver_line.len(), 15);
    let (main, spent) = with_main_line(&mut solver, &pos, verdict.clone(), limits(2_000_000), None);
    let Verdict::Mate(main) = main else {
        panic!("{main:?}")
    };
    assert!(
        spent > 0 && solved + spent <= 2_000_000,
        "{solved} + {spent}"
    );
    assert!(verify_tsume_line(&pos, &main).is_ok());
    let report = check_problem(MUSO_055, &CheckLimits::default()).unwrap();
    assert_eq!((report.length, report.length_sure), (Some(13), true));
    assert_eq!(main, report.main_line);
    // The solver's table lent to the exact search comes back with its proofs: the same
    // problem is proven again with a fraction of the nodes.
    let (again, again_nodes) = solve(&mut solver, limits(2_000_000));
    assert!(matches!(again, Verdict::Mate(_)));
    assert!(again_nodes * 4 < solved, "{again_nodes} against {solved}");

    // Nodes enough for the solver's line only.
    let mut solver = Solver::new(64);
    let (verdict, solved) = solve(&mut solver, limits(2_000_000));
    let (kept, spent) = with_main_line(&mut solver, &pos, verdict.clone(), limits(solved), None);
    assert_eq!((kept, spent), (verdict.clone(), 0));
    // Nor is it looked for when the first mate is asked for.
    let first = SolveLimits {
        shorten: false,
        ..limits(2_000_000)
    };
    let (kept, spent) = with_main_line(&mut solver, &pos, verdict.clone(), first, None);
    assert_eq!((kept, spent), (verdict.clone(), 0));
    // Told to stop, or past its deadline, the exact search gives up within its next thousand
    // nodes or so, and gives no line.
    let Verdict::Mate(line) = verdict else {
        unreachable!()
    };
    let stop = Arc::new(AtomicBool::new(true));
    let stopped = LineLimits {
        nodes: 2_000_000,
        stop: Some(stop),
        ..LineLimits::default()
    };
    let (main, spent) = main_line_after_proof(&mut solver, &pos, &line, stopped);
    assert!(main.is_none() && spent <= 10_000, "{main:?} {spent}");
    let late = LineLimits {
        nodes: 2_000_000,
        deadline: Some(Instant::now()),
        ..LineLimits::default()
    };
    let (main, spent) = main_line_after_proof(&mut solver, &pos, &line, late);
    assert!(main.is_none() && spent <= 10_000, "{main:?} {spent}");
    // With nothing to stop it, the same call finds the line, and tells its nodes as it goes
    // (`Duration::ZERO`: whenever it reads the clock, every 1024 nodes).
    let told = Arc::new(Mutex::new(Vec::new()));
    let tell_to = told.clone();
    let free = LineLimits {
        nodes: 2_000_000,
        progress: Some(LineProgress {
            every: Duration::ZERO,
            tell: Box::new(move |n| tell_to.lock().unwrap().push(n)),
        }),
        ..LineLimits::default()
    };
    let (main, spent) = main_line_after_proof(&mut solver, &pos, &line, free);
    assert_eq!(main.map(|m| m.len()), Some(13));
    let told = told.lock().unwrap();
    assert!(!told.is_empty(), "{spent}");
    assert!(told.windows(2).all(|w| w[0] < w[1]) && told.iter().all(|&n| n <= spent));
}

fn hayate(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(args)
        .output()
        .expect("run hayate");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_command_line_prints_the_line_in_usi_and_japanese() {
    let (ok, out, _) = hayate(&["mate", "--hash", "16", "7n1/8k/9/8B/9/9/9/9/9 b 2G 1"]);
    assert!(ok);
    assert!(out.starts_with("mate in 3 plies"), "{out}");
    assert!(out.contains("usi: G*2c 1b1a G*1b"), "{out}");
    // The gold on 2c could also step to 1b, so the drop is marked 打.
    assert!(out.contains("japanese: ▲2三金 △1一玉 ▲1二金打\n"), "{out}");

    let (ok, out, _) = hayate(&["mate", "--hash", "16", "4k4/9/9/9/9/9/9/9/4K4 b - 1"]);
    assert!(ok && out.starts_with("no mate"), "{out}");
    let (ok, out, _) = hayate(&["mate", "--hash", "16", "4k4/9/4P4/9/9/9/9/9/9 b G 1"]);
    assert!(ok && out.starts_with("mate in 1 ply ("), "{out}");

    // The same problem after its first check: the defender moves first.
    let (ok, out, _) = hayate(&["mate", "--hash", "16", "7n1/8k/7G1/8B/9/9/9/9/9 w G 2"]);
    assert!(ok);
    assert!(
        out.starts_with("mate in 2 plies, the defender moving first"),
        "{out}"
    );
    assert!(out.contains("usi: 1b1a G*1b\n"), "{out}");
    assert!(out.contains("japanese: △1一玉 ▲1二金打\n"), "{out}");
    // A defender already mated.
    let (ok, out, _) = hayate(&["mate", "--hash", "16", "7k1/7G1/7P1/9/9/9/9/9/9 w - 1"]);
    assert!(
        ok && out.starts_with("mate in 0 plies, the defender moving first"),
        "{out}"
    );

    let (ok, _, err) = hayate(&["mate", "not a position"]);
    assert!(!ok && err.contains("hayate mate:"), "{err}");
}

/// `hayate mate` with no time limit that a loaded machine could reach: the nodes decide.
const MATE_BY_NODES: [&str; 7] = [
    "mate",
    "--hash",
    "64",
    "--nodes",
    "2000000",
    "--time",
    "100000000",
];

#[test]
fn the_command_line_shows_the_main_line_under_the_rules() {
    let args = MATE_BY_NODES;
    let (ok, out, _) = hayate(&[&args[..], &[MUSO_055]].concat());
    assert!(ok && out.starts_with("mate in 13 plies"), "{out}");
    assert!(
        out.contains("usi: 9h9g 9f8e 9g9f 8e9d 9f9e 9d9e P*9f 9e9f N*8h 9f8e 7g7e 8e7e G*7f\n"),
        "{out}"
    );
    let (ok, out, _) = hayate(&[&args[..], &["--first", MUSO_055]].concat());
    assert!(ok && out.starts_with("mate in 15 plies"), "{out}");
}

#[test]
fn the_command_line_writes_the_answer_as_kif() {
    let dir = common::TempDir::new("mate-kif");
    let path = dir.join("muso055.kif");
    let p = path.to_str().unwrap();
    let args = MATE_BY_NODES;
    let (ok, out, err) = hayate(&[&args[..], &["--kif", p, MUSO_055]].concat());
    assert!(ok && out.starts_with("mate in 13 plies"), "{out}{err}");
    // Shift_JIS for a .kif file: the problem, the answer's line ending in 詰み, the answer as
    // the start's comment.
    let bytes = std::fs::read(&path).unwrap();
    assert!(String::from_utf8(bytes.clone()).is_err());
    let text = hayate::kifu::decode(&bytes).unwrap();
    let rec = hayate::kifu::kif::read(&text).unwrap();
    let usi: Vec<String> = rec.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(
        usi.join(" "),
        "9h9g 9f8e 9g9f 8e9d 9f9e 9d9e P*9f 9e9f N*8h 9f8e 7g7e 8e7e G*7f"
    );
    assert_eq!(rec.ending, Some(hayate::kifu::Ending::Mate));
    assert!(text.contains("*mate in 13 plies ("), "{text}");
    // `-` prints it instead of the answer; no mate is a record without moves.
    let no_mate = ["--kif", "-", "4k4/9/9/9/9/9/9/9/9 b G 1"];
    let (ok, out, _) = hayate(&[&MATE_BY_NODES[..], &no_mate].concat());
    assert!(
        ok && out.starts_with("# KIF形式棋譜ファイル (UTF-8)\n"),
        "{out}"
    );
    assert!(out.contains("*no mate (") && !out.contains("詰み"), "{out}");
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(["mate", "--kif", "x.kif", "--batch", "x.tsv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_batch_mode_reports_every_row_and_a_summary() {
    let dir = std::env::temp_dir().join(format!("hayate-mate-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("problems.tsv");
    std::fs::write(
        &file,
        // A third column (an intended line, for `tsume check`) is no concern of the solver.
        "three\t7n1/8k/9/8B/9/9/9/9/9 b 2G 1\tG*2c 1b1a G*1b\nnone\t4k4/9/9/9/9/9/9/9/4K4 b - 1\n\
         after\t7n1/8k/7G1/8B/9/9/9/9/9 w G 2\n",
    )
    .unwrap();
    let (ok, out, _) = hayate(&["mate", "--hash", "16", "--batch", file.to_str().unwrap()]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "name\tresult\tplies\tnodes\ttime_ms");
    assert!(lines[1].starts_with("three\tmate\t3\t"), "{out}");
    assert!(lines[2].starts_with("none\tnomate\t-\t"), "{out}");
    // A position after the check: the plies from the defender's reply.
    assert!(lines[3].starts_with("after\tmate\t2\t"), "{out}");
    assert!(
        lines[4].starts_with("solved 2 of 3 (nomate 1, unknown 0, errors 0)"),
        "{out}"
    );
    // Several at once: the same rows, in the file's order, but for the times.
    std::fs::write(
        &file,
        "three\t7n1/8k/9/8B/9/9/9/9/9 b 2G 1\nnone\t4k4/9/9/9/9/9/9/9/4K4 b - 1\n\
         broken\tnot a sfen\nhead\t4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n",
    )
    .unwrap();
    let rows = |jobs: &str| -> Vec<String> {
        let args = [
            "mate", "--hash", "16", "--nodes", "100000", "--jobs", jobs, "--batch",
        ];
        let (ok, out, _) = hayate(&[&args[..], &[file.to_str().unwrap()]].concat());
        assert!(ok, "{out}");
        // The name, result, plies and nodes of each row, and the summary without the time.
        out.lines()
            .map(|l| match l.rsplit_once('\t') {
                Some((row, _ms)) => row.to_string(),
                None => l.split("; total").next().unwrap().to_string(),
            })
            .collect()
    };
    let one = rows("1");
    assert_eq!(one.len(), 6, "{one:?}");
    assert!(one[3].starts_with("broken\terror: line 3:"), "{one:?}");
    assert_eq!(one[5], "solved 2 of 4 (nomate 1, unknown 0, errors 1)");
    assert_eq!(rows("3"), one);
    let (ok, _, err) = hayate(&["mate", "--batch", dir.join("missing").to_str().unwrap()]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// ▲6六飛 checks down the 6 file; drops on 6五, 6四 and 6三 are useless interpositions (無駄合:
/// the rook takes them and mates as without them), and so is one on 6二, next to the king, which
/// the silver on 5三 covers. Under the tsume convention the longest defence is △7一玉 (or
/// △7二玉): five plies.
const USELESS: &str = "3k5/9/1l2S4/8n/2P6/1R7/9/9/9 b SPgp 1";
/// ▲6一飛成 checks along the first rank; the king cannot move. Drops on 5一, 4一 and 3一 are
/// useless, and so is one on 2一, next to the king, which the knight on 3三 covers: ▲同龍 mates
/// as before. The check is the mate (a line counting the drops is three plies or more).
const NEXT_TO_THE_KING: &str = "8k/7pp/6N2/9/9/9/9/9/3R5 b gl 1";
/// The same check with nothing of the attacker's but the dragon on 2一's side: the king would
/// take back, so △2一桂 is a defence: 6i6a+ N*2a L*1c.
const NEXT_TO_THE_KING_UNCOVERED: &str = "8k/7p1/9/7N1/9/9/9/9/3R5 b Ln 1";

fn tsume_solve(sfen: &str, tsume_line: bool) -> Vec<Move> {
    let mut pos = common::pos(sfen);
    match Solver::new(16).solve(
        &mut pos,
        SolveLimits {
            nodes: Some(200_000),
            shorten: true,
            tsume_line,
            ..SolveLimits::default()
        },
    ) {
        Verdict::Mate(line) => line,
        v => panic!("{sfen}: {v:?}"),
    }
}

#[test]
fn the_tsume_line_leaves_out_useless_interpositions() {
    let line = tsume_solve(USELESS, true);
    assert_eq!(line.len(), 5, "{line:?}");
    assert!(
        line.iter().skip(1).step_by(2).all(|m| !m.is_drop()),
        "a defender's drop in {line:?}"
    );
    check_line(USELESS, &line);
    // The game search keeps the real distance: its line is a mate move by move.
    let real = tsume_solve(USELESS, false);
    assert!(verify_mate_line(&common::pos(USELESS), &real).is_ok());

    let (ok, out, _) = hayate(&["mate", "--hash", "16", "--nodes", "200000", USELESS]);
    assert!(ok && out.starts_with("mate in 5 plies"), "{out}");
    assert!(!out.contains('*') || out.contains("S*9b"), "{out}");
}

#[test]
fn an_interposition_next_to_the_king_counts_only_where_the_king_could_take_back() {
    let usi = |line: &[Move]| line.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let line = tsume_solve(NEXT_TO_THE_KING, true);
    assert_eq!(usi(&line), ["6i6a+"]);
    assert!(hayate::mate::verify_tsume_line(&common::pos(NEXT_TO_THE_KING), &line).is_ok());
    // Counting every drop, the real distance is longer.
    let real = tsume_solve(NEXT_TO_THE_KING, false);
    assert!(real.len() >= 3, "{:?}", usi(&real));

    let line = tsume_solve(NEXT_TO_THE_KING_UNCOVERED, true);
    assert_eq!(usi(&line), ["6i6a+", "N*2a", "L*1c"]);
    check_line(NEXT_TO_THE_KING_UNCOVERED, &line);
}

#[test]
fn a_line_may_end_where_only_useless_interpositions_are_left() {
    // ▲6一飛成 on a king boxed in by its own pawns, the defender holding only pawns: a pawn on
    // 2一 would be a second pawn on the file, and those on 5一, 4一 and 3一 are useless, so the
    // check is the mate (counting them, 6i6a+ P*5a 6a5a P*4a 5a4a).
    let sfen = "8k/7pp/9/9/9/9/9/9/3R5 b 2p 1";
    let line = tsume_solve(sfen, true);
    let usi: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    assert_eq!(usi.len(), 1, "{usi:?}");
    assert!(hayate::mate::verify_tsume_line(&common::pos(sfen), &line).is_ok());
    assert!(verify_mate_line(&common::pos(sfen), &line).is_err());
}
