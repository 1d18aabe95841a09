//! The command line as a user meets it: every command's `--help`, the exit codes (0 success,
//! 2 bad usage or bad input) and the messages, and the commands the READMEs show.

use std::io::Write;
use std::process::{Command, Stdio};

use clap::CommandFactory;
use hayate::cli::Cli;

fn hayate(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run hayate");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every command and subcommand, as the words that name it.
fn every_command() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for sub in cmd.get_subcommands() {
            let mut p = path.clone();
            p.push(sub.get_name().to_string());
            walk(sub, p, out);
        }
    }
    let mut out = Vec::new();
    walk(&Cli::command(), Vec::new(), &mut out);
    out
}

#[test]
fn every_command_has_help_that_exits_0() {
    let commands = every_command();
    for name in [
        "bench",
        "perft",
        "match",
        "analyze",
        "mate",
        "tsume",
        "check",
        "book",
        "from-records",
        "extend",
        "merge",
        "sort",
        "stats",
        "probe",
        "selfplay",
        "train",
        "tune",
        "learn",
    ] {
        assert!(
            commands
                .iter()
                .any(|c| c.last().map(String::as_str) == Some(name)),
            "{name} is missing"
        );
    }
    for path in commands
        .iter()
        .filter(|p| p.last().map(String::as_str) != Some("help"))
    {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let (code, out, err) = hayate(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(out.contains("Usage: hayate"), "{args:?}: {out}");
    }
}

#[test]
fn a_bad_flag_exits_2_and_names_the_flag() {
    for path in every_command()
        .iter()
        .filter(|p| !p.is_empty() && p.last().map(String::as_str) != Some("help"))
    {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--frobnicate");
        let (code, _, err) = hayate(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("--frobnicate"), "{args:?}: {err}");
    }
    // A flag without its value, and a value that is not a number.
    for (args, names) in [
        (&["mate", "--time"][..], "--time"),
        (&["perft", "many"][..], "many"),
        (
            &[
                "tsume",
                "check",
                "--nodes",
                "many",
                "9/9/9/9/9/9/9/9/9 b - 1",
            ][..],
            "--nodes",
        ),
        // Past the longest main line the check can follow (4000 plies).
        (
            &[
                "tsume",
                "check",
                "--plies",
                "4001",
                "9/9/9/9/9/9/9/9/9 b - 1",
            ][..],
            "--plies",
        ),
        (
            &["book", "extend", "a.db", "--depth", "deep"][..],
            "--depth",
        ),
        (&["selfplay", "--games", "many"][..], "--games"),
        (&["bench", "fast"][..], "fast"),
        (
            &["match", "--engine", "cmd=a", "--tc", "byoyomi=fast"][..],
            "--tc",
        ),
        (&["nosuchcommand"][..], "nosuchcommand"),
    ] {
        let (code, _, err) = hayate(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(names), "{args:?}: {err}");
    }
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for (args, says) in [
        (&["mate", "lnsgkgsnl/1r5b1/ppppppppp/9 b - 1"][..], "ranks"),
        (
            &["mate", "--batch", "/no/such/problems.tsv"][..],
            "/no/such/problems.tsv",
        ),
        (&["perft", "2", "bogus/sfen b - 1"][..], "ranks"),
        (
            &["perft", "2", "startpos", "moves", "7g7f", "7g7f"][..],
            "illegal move",
        ),
        (
            &["tsume", "check", "--batch", "/no/such/file.tsv"][..],
            "/no/such/file.tsv",
        ),
        (
            &["book", "stats", "/no/such/book.db"][..],
            "/no/such/book.db",
        ),
        (
            &["book", "probe", "/no/such/book.db", "startpos"][..],
            "/no/such/book.db",
        ),
        (&["tune", "/no/such/data.tsv"][..], "/no/such/data.tsv"),
        (
            &["tsume", "check", "/no/such/problem.kif"][..],
            "/no/such/problem.kif",
        ),
        (
            &["mate", "/no/such/problem.csa"][..],
            "/no/such/problem.csa",
        ),
        // A position after the attacker's check is a variation for `mate`, not a problem.
        (
            &["tsume", "check", "7n1/8k/7G1/8B/9/9/9/9/9 w G 2"][..],
            "the side to move is in check",
        ),
        (
            &["selfplay", "--openings", "/no/such/openings.sfen"][..],
            "/no/such/openings.sfen",
        ),
        (
            &[
                "match",
                "--engine",
                "cmd=a",
                "--config",
                "/no/such/match.toml",
            ][..],
            "match.toml",
        ),
        (
            &[
                "match",
                "--engine",
                "cmd=/no/such/engine",
                "--engine",
                "cmd=b",
            ][..],
            "engine",
        ),
        (&["match", "--engine", "name=x"][..], "cmd=PATH"),
    ] {
        let (code, _, err) = hayate(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(err.starts_with("hayate "), "{args:?}: {err}");
    }
}

#[test]
fn without_arguments_hayate_is_a_usi_engine() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"usi\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("usiok"));
}

#[test]
fn match_alone_prints_its_help_and_succeeds() {
    let (code, out, _) = hayate(&["match"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("--engine"), "{out}");
}

/// The commands of README.md, benches/TSUME.md, train/README.md and train/STRENGTH.md still
/// parse.
#[test]
fn the_documented_commands_parse() {
    let fsf = "cmd=/usr/games/fairy-stockfish";
    let me = "cmd=target/release/hayate";
    for line in [
        format!("match --engine {fsf} name=fsf option.Hash=64 option.Threads=1 --engine {me} option.USI_Hash=64 option.Threads=1 --games 20 --tc byoyomi=1000 --out records"),
        format!("match --engine {me} name=new option.Threads=1 option.USI_Hash=32 option.Param_check_extension_needs_see=false --engine {me} name=base option.Threads=1 option.USI_Hash=32 --tc nodes=10000 --games 400 --concurrency 2 --reuse --seed 7 --resign 3000,4 --sprt elo0=-5 elo1=15 alpha=0.1 beta=0.1"),
        format!("match --engine {me} name=hayate option.Threads=1 option.USI_Hash=64 --engine {fsf} name=fsf option.Threads=1 option.Hash=64 --games 100 --tc byoyomi=300 --margin 500 --seed 1 --concurrency 2"),
        format!("match --engine {me} --engine {me} --gauntlet --engine {fsf} --handicap 2piece --max-plies 256 --rule TryRule --draw 50,40"),
        "mate 7n1/8k/9/8B/9/9/9/9/9 b 2G 1".into(),
        "mate --batch problems.tsv --time 10000".into(),
        "mate --batch problems.tsv --first --nodes 400000 --jobs 2".into(),
        "mate --batch problems.tsv --first --nodes 400000 --time 100000000".into(),
        "mate --first --nodes 20000000 --time 100000000 7n1/8k/9/8B/9/9/9/9/9 b 2G 1".into(),
        "mate --first --nodes 100000 --hash 16 sfen 7n1/8k/9/8B/9/9/9/9/9 b 2G 1".into(),
        "tsume check p8/k8/9/S8/9/9/9/9/9 b GN 1".into(),
        "tsume check --nodes 100 --plies 9 --as-given --json --verbose problem.sfen".into(),
        "tsume check --batch problems.tsv".into(),
        "tsume check --batch problems.tsv --json --jobs 2".into(),
        "tsume check problem.kif".into(),
        "mate problem.kif".into(),
        "book from-records my.db games/a.csa games/b.kifu lines.txt --max-ply 32".into(),
        "book extend my.db --roots book/openings.sfen --depth 13 --multipv 2 --positions 500".into(),
        "book merge all.db a.db b.db".into(),
        "book sort my.db".into(),
        "book stats my.db".into(),
        "book probe my.db startpos moves 7g7f".into(),
        "perft 5".into(),
        "perft 4 l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1".into(),
        "selfplay --out games.hsp --games 10000 --nodes 3000 --threads 2".into(),
        "selfplay --export psv games.hsp --out games.psv".into(),
        "selfplay --out train/data/classic-001.hsp --games 200000 --threads 2 --nodes 3000 --seed 1".into(),
        "selfplay --eval nnue --random-plies 4 --max-plies 256 --resign 2000 --hash 32".into(),
        "train games.hsp --out my.nnue --epochs 10 --score-share 1".into(),
        "train train/data/classic-001.hsp --distill 6000000 --epochs 8 --score-share 1 --threads 2 --seed 1 --out distilled.nnue".into(),
        "train train/data/classic-001.hsp --init distilled.nnue --epochs 4 --rate 0.0003 --score-share 1 --threads 2 --seed 1 --out src/eval/nnue/hayate.nnue".into(),
        "bench".into(),
        "bench nnue".into(),
        "bench classic".into(),
        "tune data.tsv 8".into(),
        "learn data.tsv out.bin --valid valid.tsv --epochs 4 --rate 0.01 --decay 0.9 --score-share 0.5 --batch 64 --seed 2".into(),
    ] {
        let words = std::iter::once("hayate").chain(line.split_whitespace());
        if let Err(e) = Cli::command().try_get_matches_from(words) {
            panic!("{line}: {e}");
        }
    }
}

#[test]
fn match_engines_keep_their_words_together() {
    let args: Vec<String> =
        "--engine cmd=a name=first option.Hash=16 --engine cmd=b --engine cmd=c tc=depth=2"
            .split_whitespace()
            .map(String::from)
            .collect();
    let cfg = hayate::cli::match_args::parse(&args).unwrap();
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["first", "b", "c"]);
    assert_eq!(cfg.engines[0].options.len(), 1);
    assert!(cfg.engines[2].tc.is_some());
}

/// Output that cannot be written is an error message, not a panic: a reader that closed the
/// pipe (`hayate mate ... | head`) ends the command quietly, a full disk is reported.
#[test]
fn output_that_cannot_be_written_is_not_a_panic() {
    let args = ["mate", "7n1/8k/9/8B/9/9/9/9/9 b 2G 1"];
    // The book's reports go through the same writer: one policy for every command.
    let book = ["book", "probe", "book/hayate_book.db", "startpos"];
    for args in [&args[..], &book[..], &["perft", "3"]] {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            break;
        };
        let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("cannot write the output"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    for args in [&args[..], &["perft", "3"], &book[..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A problem file as composers keep them: Kifu for Windows' KIF in Shift_JIS, with the
/// defender's `残り全部` and the intended line, which the check holds to the rules.
#[test]
fn a_tsume_record_is_a_problem_with_its_intended_line() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/kifu/tsume_sjis.kif"
    );
    let (code, out, err) = hayate(&["tsume", "check", file]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("verdict: sound"), "{out}");
    assert!(
        out.contains("作意 (3 plies): ▲8四桂 △8一玉 ▲7二金"),
        "{out}"
    );
    assert!(
        out.contains("作意: a solution: the main line itself"),
        "{out}"
    );
    let (code, out, _) = hayate(&["tsume", "check", "--json", file]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains(
            "\"intended\":{\"line\":[\"N*8d\",\"9b8a\",\"G*7b\"],\"finding\":\"solution\""
        ),
        "{out}"
    );
    let (code, out, err) = hayate(&["mate", "--nodes", "10000", file]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("mate in 3 plies"), "{out}");
    // A record whose line breaks the rules is refused with the line's fault.
    let dir = std::env::temp_dir().join(format!("hayate-cli-tsume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("illegal.kif");
    let text = hayate::kifu::decode(&std::fs::read(file).unwrap()).unwrap();
    std::fs::write(&bad, text.replace("８一玉(92)", "８一玉(93)")).unwrap();
    let (code, _, err) = hayate(&["tsume", "check", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("illegal or malformed move"), "{err}");
    // A row as `--batch` reads them, the intended line in its third column.
    let row = dir.join("problem.tsv");
    std::fs::write(&row, "equal\tp8/k8/9/S8/9/9/9/9/9 b GN 1\tN*8d 9b8b G*7b\n").unwrap();
    let (code, out, err) = hayate(&["tsume", "check", row.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("作意: a solution, as long as the main line, which it leaves at ply 2"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
