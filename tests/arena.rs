//! The match runner: real games between two Hayate instances, misbehaving engines proving each
//! adjudication, and records read back and replayed.

mod common;

use std::path::Path;

use common::TempDir;
use hayate::arena::{self, MatchConfig};
use hayate::kifu::{csa, kif, Ending, GameRecord};

fn hayate() -> String {
    env!("CARGO_BIN_EXE_hayate").to_string()
}

fn fake(mode: &str) -> String {
    format!(
        "python3 {}/tests/data/fake_engine.py {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn config(args: &[&str]) -> MatchConfig {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    hayate::cli::match_args::parse(&args).unwrap()
}

fn out_dir(name: &str) -> TempDir {
    TempDir::new(&format!("arena-{name}"))
}

fn run(cfg: &MatchConfig) -> (Vec<arena::PairResult>, String) {
    let mut out = Vec::new();
    let r = arena::run(cfg, &mut out).unwrap();
    (r, String::from_utf8(out).unwrap())
}

/// Reads every record in `dir` with both readers and checks they replay to the same position.
fn read_records(dir: &Path) -> Vec<GameRecord> {
    let mut recs = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for p in names
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "csa"))
    {
        let c = csa::read(&std::fs::read_to_string(p).unwrap()).unwrap();
        let k = kif::read(&std::fs::read_to_string(p.with_extension("kifu")).unwrap()).unwrap();
        assert_eq!(c.moves.len(), k.moves.len(), "{}", p.display());
        let fc = c.final_position().unwrap();
        let fk = k.final_position().unwrap();
        assert_eq!(fc.to_sfen(), fk.to_sfen(), "{}", p.display());
        assert_eq!(c.outcome(), k.outcome(), "{}", p.display());
        recs.push(c);
    }
    recs
}

#[test]
fn real_games_between_two_hayates_with_different_options() {
    let dir = out_dir("real");
    let h = hayate();
    let cfg = config(&[
        "--engine",
        &format!("cmd={h}"),
        "name=deep",
        "option.Threads=1",
        "option.USI_Hash=8",
        "tc=depth=3",
        "--engine",
        &format!("cmd={h}"),
        "name=shallow",
        "option.Threads=1",
        "option.USI_Hash=8",
        "tc=nodes=300",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--max-plies",
        "120",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (res, text) = run(&cfg);
    assert_eq!(res[0].wld.games(), 4, "{text}");
    assert!(text.contains("Score of deep vs shallow: "), "{text}");
    assert!(text.contains("Elo difference: "), "{text}");
    let recs = read_records(&dir);
    assert_eq!(recs.len(), 4);
    for r in &recs {
        assert!(r.ending.is_some());
    }
}

#[test]
fn pondering_engines_play_whole_games() {
    // Both think on the opponent's time (`go ponder`, then `ponderhit` or `stop`); a runner that
    // got the protocol wrong would see a hang, a stray `bestmove` taken as a move, or a crash.
    let dir = out_dir("ponder");
    let h = hayate();
    let cfg = config(&[
        "--engine",
        &format!("cmd={h}"),
        "name=a",
        "option.USI_Ponder=true",
        "option.USI_Hash=8",
        "--engine",
        &format!("cmd={h}"),
        "name=b",
        "option.USI_Ponder=true",
        "option.USI_Hash=8",
        "option.MultiPV=2",
        "--tc",
        "nodes=400",
        "--games",
        "2",
        "--reuse",
        "--max-plies",
        "80",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (res, text) = run(&cfg);
    assert_eq!(res[0].wld.games(), 2, "{text}");
    for r in read_records(&dir) {
        assert!(
            !matches!(
                r.ending,
                None | Some(
                    Ending::Crash { .. }
                        | Ending::TimeUp { .. }
                        | Ending::IllegalMove { .. }
                        | Ending::WrongDeclaration { .. }
                )
            ),
            "{:?}\n{text}",
            r.ending
        );
    }
}

#[test]
fn an_illegal_move_loses() {
    let cfg = cfg_against("illegal", &["--games", "2", "--tc", "depth=1"]);
    let (res, text) = run(&cfg);
    assert_eq!((res[0].wld.wins, res[0].wld.losses), (2, 0), "{text}");
    assert!(text.contains("{illegal move}"), "{text}");
}

fn fake_engine(mode: &str) -> hayate::arena::engine::EngineConfig {
    hayate::arena::engine::EngineConfig {
        name: format!("fake-{mode}"),
        cmd: fake(mode),
        dir: None,
        options: vec![],
        tc: None,
    }
}

fn cfg_against(mode: &str, extra: &[&str]) -> MatchConfig {
    let mut args = vec![
        "--engine".to_string(),
        format!("cmd={}", hayate()),
        "name=h".into(),
        "option.Threads=1".into(),
        "option.USI_Hash=8".into(),
    ];
    args.extend(["--engine".to_string(), "cmd=placeholder".into()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let mut cfg = hayate::cli::match_args::parse(&args).unwrap();
    cfg.engines[1] = fake_engine(mode);
    cfg
}

#[test]
fn a_crash_loses_and_the_match_goes_on() {
    let dir = out_dir("crash");
    let cfg = cfg_against(
        "crash",
        &[
            "--games",
            "2",
            "--tc",
            "depth=1",
            "--out",
            dir.to_str().unwrap(),
        ],
    );
    let (res, text) = run(&cfg);
    assert_eq!(res[0].wld.games(), 2, "{text}");
    assert_eq!(res[0].wld.wins, 2, "{text}");
    let recs = read_records(&dir);
    assert!(recs
        .iter()
        .all(|r| matches!(r.ending, Some(Ending::Crash { .. }))));
}

#[test]
fn an_engine_that_never_replies_loses_on_time() {
    let cfg = cfg_against(
        "silent",
        &["--games", "1", "--tc", "movetime=100", "--margin", "1000"],
    );
    // The silent engine loses 1.1 s after its go. How long the game took is not asserted
    // (CI is a loaded machine): that it ends, as a time forfeit, is the point.
    let (res, text) = run(&cfg);
    assert_eq!(res[0].wld.wins, 1, "{text}");
    assert!(text.contains("{time forfeit}"), "{text}");
}

#[test]
fn a_wrong_win_declaration_loses() {
    let cfg = cfg_against("falsewin", &["--games", "2", "--tc", "depth=1"]);
    let (res, text) = run(&cfg);
    assert_eq!(res[0].wld.wins, 2, "{text}");
    assert!(text.contains("{wrong declaration}"), "{text}");
}

#[test]
fn output_that_is_not_utf8_is_no_crash() {
    // Shift_JIS lines from a Windows engine are read lossily; the engine then resigns.
    let cfg = cfg_against("sjis", &["--games", "2", "--tc", "depth=1"]);
    let (res, text) = run(&cfg);
    assert_eq!(res[0].wld.wins, 2, "{text}");
    assert!(text.contains("{resignation}"), "{text}");
    assert!(!text.contains("crash"), "{text}");
}

#[test]
fn an_engine_that_never_answers_usiok_is_an_error_at_once() {
    let cfg = cfg_against("noreply", &["--games", "1", "--tc", "depth=1"]);
    let mut out = Vec::new();
    let e = arena::run(&cfg, &mut out).err().unwrap();
    assert!(e.contains("never answered usiok"), "{e}");
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let dir = out_dir("perpetual");
    let openings = dir.join("openings.sfen");
    std::fs::write(&openings, "sfen 8k/R8/9/9/9/9/9/9/4K4 b - 1\n").unwrap();
    let mut cfg = cfg_against(
        "script:9b9a,9a9b",
        &[
            "--games",
            "1",
            "--tc",
            "depth=1",
            "--out",
            dir.to_str().unwrap(),
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    // The checker plays Black: swap so the scripted engine is the first (Black in game 1).
    cfg.engines.swap(0, 1);
    cfg.engines[1] = fake_engine("script:1a1b,1b1a");
    let (res, text) = run(&cfg);
    assert_eq!(res[0].wld.losses, 1, "{text}");
    assert!(text.contains("{perpetual check}"), "{text}");
    let recs = read_records(&dir);
    assert_eq!(recs[0].moves.len(), 12);
}

#[test]
fn bad_input_is_reported_at_once() {
    let missing = config(&[
        "--engine",
        "cmd=/no/such/engine",
        "--engine",
        &format!("cmd={}", hayate()),
        "--games",
        "1",
    ]);
    let mut out = Vec::new();
    assert!(arena::run(&missing, &mut out)
        .err()
        .unwrap()
        .contains("cannot start engine"));
    let scratch = out_dir("opening");
    let bad_opening = scratch.join("openings.txt");
    std::fs::write(&bad_opening, "startpos moves 7g7f 7g7f\n").unwrap();
    let h = format!("cmd={}", hayate());
    let cfg = config(&[
        "--engine",
        &h,
        "--engine",
        &h,
        "--openings",
        bad_opening.to_str().unwrap(),
    ]);
    let e = arena::run(&cfg, &mut out).err().unwrap();
    assert!(e.contains("opening 1"), "{e}");
    let cfg = config(&[
        "--engine",
        &h,
        "--engine",
        &h,
        "--out",
        "/proc/no-such-place/records",
    ]);
    assert!(arena::run(&cfg, &mut out)
        .err()
        .unwrap()
        .contains("output folder"));
    for (flag, value) in [("--games", "4000000000"), ("--concurrency", "100000")] {
        let cfg = config(&["--engine", &h, "--engine", &h, flag, value]);
        let e = arena::run(&cfg, &mut out).err().unwrap();
        assert!(e.contains(flag), "{e}");
    }
    assert!(hayate::cli::match_args::parse(&["--tc".into(), "byoyomi=fast".into()]).is_err());
    assert!(hayate::cli::match_args::parse(&["--frobnicate".into()]).is_err());
}

#[test]
fn sprt_stops_a_decided_match_early() {
    // Hayate at depth 3 against one that plays illegal moves: H1 is accepted long before 200 games.
    let cfg = cfg_against(
        "illegal",
        &[
            "--games",
            "200",
            "--tc",
            "depth=1",
            "--sprt",
            "elo0=0",
            "elo1=50",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    let (res, text) = run(&cfg);
    assert!(res[0].wld.games() < 200, "{text}");
    assert!(text.contains("H1 accepted"), "{text}");
}
