use std::io;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use hayate::position::Position;
use hayate::usi;

const USAGE: &str = "usage: hayate                      run the USI engine on stdin/stdout
       hayate perft <depth> [<sfen> | startpos | <handicap name>]
       hayate match --engine cmd=PATH ... --engine ... [options]   (see hayate match --help)
       hayate mate [--time MS] [--nodes N] [--hash MB] [--first] <sfen>
                                   solve a tsume (attacker to move; default 10 s, 256 MB;
                                   --first: report the first mate proven, not the shortest)
       hayate mate --batch FILE [--time MS] [--nodes N] [--hash MB] [--first]
                                   solve every row of a TSV of name<TAB>sfen
       hayate tsume check [--nodes N] [--plies N] [--as-given] [--json] [--verbose]
                          <sfen | FILE> | --batch FILE
                                   the composer's verdict: 不詰, n手詰, 駒余り, 余詰, 最終手余詰,
                                   変同 (the defender holds the rest unless --as-given; default
                                   5000000 nodes, main lines up to 15 plies; beyond: unknown)
       hayate selfplay [--out FILE] [--games N] [--nodes N] [--threads N] [--openings FILE]
                       [--random-plies N] [--max-plies N] [--resign CP] [--seed N]
                       [--eval classic | nnue | NET] [--export psv FILE]
                                   play Hayate against itself for training data (resumable);
                                   --export psv writes YaneuraOu PackedSfenValue records of FILE
       hayate train FILE... --out NET [--epochs N] [--batch N] [--rate X] [--decay X]
                    [--score-share X] [--threads N] [--seed N] [--init NET] [--distill N]
                                   train the NNUE on self-play files (deterministic per seed
                                   and thread count); writes the quantised net after each epoch;
                                   --distill N: train instead on N quiet positions near the
                                   games' ones, scored by the hand-written evaluation
       hayate analyze [--movetime MS] [--depth N] [--nodes N] [--multipv N] [--threads N]
                      [--hash MB] [--json] [--output FILE] [--kif FILE] [--svg FILE] <FILE | ->
                                   analyse a game (CSA, KIF, KI2 or a 'startpos moves ...'
                                   line; - reads stdin): KIF with ShogiHome's comments (or
                                   JSON with --json) on stdout or --output, mistakes marked,
                                   an evaluation graph with --svg (default 1000 ms a position)
       hayate bench [nnue | classic]
                                   run the fixed search benchmark (prints the node signature)
                                   with the default evaluation, the net or the hand-written one
       hayate book <command> ...   make, extend, merge, sort and inspect opening books
                                   (see hayate book help)
       hayate tune <file> [passes] fit the evaluation weights to labelled positions
                                   (lines: sfen<TAB>score<TAB>result) and print them as Rust
       hayate learn <file> <out.bin> [--valid FILE] [--epochs N] [--rate X] [--decay X]
                    [--score-share X] [--batch N] [--seed N]
                                   learn the king-piece table (src/eval/kp.bin) from the same
                                   kind of file, on top of the hand-written evaluation";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            let stdin = io::stdin();
            match usi::run(stdin.lock(), Arc::new(Mutex::new(io::stdout()))) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("hayate: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("perft") => perft_command(&args[1..]),
        Some("tune") => tune_command(&args[1..]),
        Some("learn") => learn_command(&args[1..]),
        Some("match") => match_command(&args[1..]),
        Some("selfplay") => selfplay_command(&args[1..]),
        Some("train") => train_command(&args[1..]),
        Some("mate") => {
            // Long mates recurse deep: give the solver a thread with room for it.
            let args = args[1..].to_vec();
            let solver = std::thread::Builder::new()
                .stack_size(hayate::mate::SOLVER_STACK)
                .spawn(move || mate_command(&args));
            match solver.map(|h| h.join()) {
                Ok(Ok(code)) => code,
                _ => {
                    eprintln!("hayate: the mate solver failed");
                    ExitCode::FAILURE
                }
            }
        }
        Some("tsume") => tsume_command(&args[1..]),
        Some("analyze") => analyze_command(&args[1..]),
        Some("book") => match hayate::book::cli::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("hayate book: {e}");
                ExitCode::from(2)
            }
        },
        Some("bench") => {
            let default = usi::options::Options::default().search.net;
            let net = match args.get(1).map(String::as_str) {
                None => default,
                Some("nnue") => Some(hayate::eval::nnue::Network::shipped()),
                Some("classic") => None,
                Some(other) => {
                    eprintln!("hayate: bench: unknown evaluation '{other}' (nnue or classic)");
                    return ExitCode::from(2);
                }
            };
            usi::bench::run(&|line| println!("{line}"), net);
            ExitCode::SUCCESS
        }
        Some("-h") | Some("--help") | Some("help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("hayate: unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn perft_command(args: &[String]) -> ExitCode {
    let Some(depth) = args
        .first()
        .and_then(|d| d.parse::<u32>().ok())
        .filter(|&d| d >= 1)
    else {
        eprintln!("hayate: perft needs a depth of at least 1\n{USAGE}");
        return ExitCode::from(2);
    };
    let setup = args[1..].join(" ");
    let parsed = match setup.as_str() {
        "" => Ok(Position::startpos()),
        s if s.split_whitespace().count() == 1 => Position::from_name(s),
        s => Position::from_sfen(s.strip_prefix("sfen ").unwrap_or(s)),
    };
    let mut pos = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("hayate: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    match usi::write_perft(&mut stdout.lock(), &mut pos, depth) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hayate: {e}");
            ExitCode::FAILURE
        }
    }
}

fn tune_command(args: &[String]) -> ExitCode {
    use hayate::eval::{tune, DEFAULT};
    let Some(path) = args.first() else {
        eprintln!("hayate: tune needs a data file\n{USAGE}");
        return ExitCode::from(2);
    };
    let passes = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(8);
    let (samples, bad) = match tune::load(path, tune::SCORE_SHARE) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("hayate: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("{} samples ({bad} lines skipped)", samples.len());
    if samples.is_empty() {
        eprintln!("hayate: no usable samples in {path}");
        return ExitCode::from(2);
    }
    let w = tune::tune(&samples, &DEFAULT, passes, &mut |pass, e| {
        eprintln!("pass {pass}: error {e:.6}")
    });
    print!("{}", w.to_rust());
    ExitCode::SUCCESS
}

fn learn_command(args: &[String]) -> ExitCode {
    use hayate::eval::{learn, tune, DEFAULT};
    let mut opts = learn::Options::default();
    let mut valid = None;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let it = &mut it;
        let parsed = match a.as_str() {
            "--valid" => flag_value(it, a).map(|v| valid = Some(v)),
            "--epochs" => flag_number(it, a).map(|n| opts.epochs = n),
            "--rate" => flag_number(it, a).map(|x| opts.rate = x),
            "--decay" => flag_number(it, a).map(|x| opts.decay = x),
            "--batch" => flag_number(it, a).map(|n: usize| opts.batch = n.max(1)),
            "--seed" => flag_number(it, a).map(|n| opts.seed = n),
            "--score-share" => flag_number(it, a).map(|x| opts.score_share = x),
            f if f.starts_with("--") => Err(format!("unknown option {f}")),
            f => {
                files.push(f.to_string());
                Ok(())
            }
        };
        if let Err(e) = parsed {
            eprintln!("hayate: learn: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let [train_path, out] = files.as_slice() else {
        eprintln!("hayate: learn needs a data file and an output file\n{USAGE}");
        return ExitCode::from(2);
    };
    let load = |path: &str, share: f64| match learn::Data::load(path, &DEFAULT, share) {
        Ok((d, bad)) => {
            eprintln!("{path}: {} samples ({bad} lines skipped)", d.len());
            Some(d)
        }
        Err(e) => {
            eprintln!("hayate: {e}");
            None
        }
    };
    let Some(train) = load(train_path, opts.score_share).filter(|d| !d.is_empty()) else {
        eprintln!("hayate: no usable samples in {train_path}");
        return ExitCode::from(2);
    };
    // The validation error is the one `hayate tune` reports, with the game result in it.
    let valid = match valid.map(|v| load(&v, tune::SCORE_SHARE)) {
        Some(None) => return ExitCode::from(2),
        Some(Some(d)) => Some(d),
        None => None,
    };
    let zero = vec![0f32; hayate::eval::kp::LEN];
    let show = |t: &[f32]| match &valid {
        Some(v) => format!("train {:.6}, valid {:.6}", train.error(t), v.error(t)),
        None => format!("train {:.6}", train.error(t)),
    };
    eprintln!("without the table: {}", show(&zero));
    let t = learn::learn(&train, &opts, &mut |epoch, t| {
        eprintln!("epoch {epoch}: {}", show(t))
    });
    if let Err(e) = std::fs::write(out, learn::to_bytes(&t)) {
        eprintln!("hayate: {out}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The value after a command-line flag.
fn flag_value<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<String, String> {
    it.next()
        .cloned()
        .ok_or_else(|| format!("{flag} needs a value"))
}

/// The number after a command-line flag.
fn flag_number<'a, T: std::str::FromStr>(
    it: &mut impl Iterator<Item = &'a String>,
    flag: &str,
) -> Result<T, String> {
    let v = flag_value(it, flag)?;
    v.parse().map_err(|_| format!("bad number {v} for {flag}"))
}

/// What `hayate analyze` was asked for.
#[derive(Default)]
struct AnalyzeArgs {
    options: hayate::analyze::AnalyzeOptions,
    input: Option<String>,
    json: bool,
    output: Option<String>,
    kif: Option<String>,
    svg: Option<String>,
}

fn parse_analyze_args(args: &[String]) -> Result<AnalyzeArgs, String> {
    let mut a = AnalyzeArgs::default();
    let o = &mut a.options;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let it = &mut it;
        match arg.as_str() {
            "--movetime" => o.movetime_ms = Some(flag_number(it, arg)?),
            "--depth" => o.depth = Some(flag_number(it, arg)?),
            "--nodes" => o.nodes = Some(flag_number(it, arg)?),
            "--multipv" => o.multipv = flag_number(it, arg)?,
            "--threads" => o.threads = flag_number(it, arg)?,
            "--hash" => o.hash_mb = flag_number(it, arg)?,
            "--json" => a.json = true,
            "--output" | "-o" => a.output = Some(flag_value(it, arg)?),
            "--kif" => a.kif = Some(flag_value(it, arg)?),
            "--svg" => a.svg = Some(flag_value(it, arg)?),
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown flag {s}")),
            _ if a.input.is_some() => return Err(format!("a second record '{arg}'")),
            _ => a.input = Some(arg.clone()),
        }
    }
    let o = &a.options;
    if !(1..=800).contains(&o.multipv) || !(1..=256).contains(&o.threads) {
        return Err("--multipv must be 1 to 800 and --threads 1 to 256".into());
    }
    if !(1..=65536).contains(&o.hash_mb) {
        return Err("--hash must be 1 to 65536 (MB)".into());
    }
    if o.nodes == Some(0) || o.depth == Some(0) || o.movetime_ms == Some(0) {
        return Err("--nodes, --depth and --movetime must be at least 1".into());
    }
    if a.input.is_none() {
        return Err("analyze needs a record file (or - for stdin)".into());
    }
    Ok(a)
}

fn analyze_command(args: &[String]) -> ExitCode {
    use hayate::analyze;
    use std::io::Read;
    let bad = |e: &str| {
        eprintln!("hayate analyze: {e}");
        ExitCode::from(2)
    };
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let a = match parse_analyze_args(args) {
        Ok(a) => a,
        Err(e) => return bad(&format!("{e}\n{USAGE}")),
    };
    let input = a.input.as_deref().unwrap_or("-");
    let (text, ext) = if input == "-" {
        let mut bytes = Vec::new();
        if let Err(e) = io::stdin().read_to_end(&mut bytes) {
            return bad(&format!("cannot read stdin: {e}"));
        }
        match hayate::kifu::decode(&bytes) {
            Ok(t) => (t, None),
            Err(e) => return bad(&e),
        }
    } else {
        let path = std::path::Path::new(input);
        match hayate::kifu::read_text(path) {
            Ok(t) => (
                t,
                path.extension().and_then(|e| e.to_str()).map(String::from),
            ),
            Err(e) => return bad(&e),
        }
    };
    let record = match analyze::read_record(&text, ext.as_deref()) {
        Ok(r) => r,
        Err(e) => return bad(&format!("{input}: {e}")),
    };
    let mut progress = |done: usize, total: usize| {
        eprintln!("analyze: {done}/{total} positions");
    };
    let analysis = match analyze::analyze(&record, &a.options, &mut progress) {
        Ok(x) => x,
        Err(e @ analyze::Error::Record(_)) => return bad(&e.to_string()),
        Err(e) => {
            eprintln!("hayate analyze: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprint!("{}", analyze::summary_text(&analysis));
    let write = |path: &str, text: Result<String, String>| -> Result<(), String> {
        let text = text?;
        if path == "-" {
            use std::io::Write;
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the output: {e}"))
        } else {
            std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
        }
    };
    let main_text = if a.json {
        analyze::to_json(&analysis)
    } else {
        analyze::to_kif(&analysis)
    };
    let results = [
        write(a.output.as_deref().unwrap_or("-"), main_text),
        a.kif
            .as_deref()
            .map_or(Ok(()), |p| write(p, analyze::to_kif(&analysis))),
        a.svg
            .as_deref()
            .map_or(Ok(()), |p| write(p, analyze::to_svg(&analysis))),
    ];
    for r in results {
        if let Err(e) = r {
            eprintln!("hayate analyze: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn selfplay_command(args: &[String]) -> ExitCode {
    use hayate::selfplay;
    let mut opts = selfplay::Options::default();
    let mut out = String::from("selfplay.hsp");
    let mut openings = String::from("book/openings.sfen");
    let mut export = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let it = &mut it;
        let parsed = match a.as_str() {
            "--out" => flag_value(it, a).map(|v| out = v),
            "--games" => flag_number(it, a).map(|n| opts.games = n),
            "--nodes" => flag_number(it, a).map(|n: u64| opts.nodes = n.max(1)),
            "--threads" => flag_number(it, a).map(|n: usize| opts.threads = n.max(1)),
            "--openings" => flag_value(it, a).map(|v| openings = v),
            "--random-plies" => flag_number(it, a).map(|n| opts.random_plies = n),
            "--max-plies" => flag_number(it, a).map(|n| opts.max_plies = n),
            "--resign" => flag_number(it, a).map(|n| opts.resign = n),
            "--hash" => flag_number(it, a).map(|n: usize| opts.hash_mb = n.max(1)),
            "--seed" => flag_number(it, a).map(|n| opts.seed = n),
            "--eval" => flag_value(it, a).and_then(|e| {
                opts.net = match e.as_str() {
                    "classic" => None,
                    "nnue" => Some(hayate::eval::nnue::Network::shipped()),
                    file => Some(std::sync::Arc::new(hayate::eval::nnue::Network::load(
                        file,
                    )?)),
                };
                Ok(())
            }),
            "--export" => flag_value(it, a).and_then(|kind| {
                if kind != "psv" {
                    return Err(format!("unknown export format {kind} (known: psv)"));
                }
                flag_value(it, "--export psv").map(|f| export = Some(f))
            }),
            f => Err(format!("unknown argument {f}")),
        };
        if let Err(e) = parsed {
            eprintln!("hayate: selfplay: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    if let Some(input) = export {
        return match selfplay::psv::export_file(&input, &out) {
            Ok(n) => {
                eprintln!("{out}: {n} records");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("hayate: selfplay: {e}");
                ExitCode::from(2)
            }
        };
    }
    let positions = match std::fs::read_to_string(&openings)
        .map_err(|e| format!("{openings}: {e}"))
        .and_then(|t| selfplay::parse_openings(&t).map_err(|e| format!("{openings}: {e}")))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("hayate: selfplay: {e}");
            return ExitCode::from(2);
        }
    };
    match selfplay::run(&out, &positions, &opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hayate: selfplay: {e}");
            ExitCode::from(2)
        }
    }
}

fn train_command(args: &[String]) -> ExitCode {
    use hayate::eval::nnue::Network;
    use hayate::trainer::{self, data, FloatNet};
    let mut opts = trainer::Options::default();
    let mut out = None;
    let mut init = None;
    let mut distill = 0usize;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let it = &mut it;
        let parsed = match a.as_str() {
            "--out" => flag_value(it, a).map(|v| out = Some(v)),
            "--init" => flag_value(it, a).map(|v| init = Some(v)),
            "--epochs" => flag_number(it, a).map(|n| opts.epochs = n),
            "--batch" => flag_number(it, a).map(|n: usize| opts.batch = n.max(1)),
            "--rate" => flag_number(it, a).map(|x| opts.rate = x),
            "--decay" => flag_number(it, a).map(|x| opts.rate_decay = x),
            "--score-share" => flag_number(it, a).map(|x| opts.score_share = x),
            "--threads" => flag_number(it, a).map(|n: usize| opts.threads = n.max(1)),
            "--seed" => flag_number(it, a).map(|n| opts.seed = n),
            "--distill" => flag_number(it, a).map(|n| distill = n),
            f if f.starts_with("--") => Err(format!("unknown option {f}")),
            f => {
                files.push(f.to_string());
                Ok(())
            }
        };
        if let Err(e) = parsed {
            eprintln!("hayate: train: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let Some(out) = out else {
        eprintln!("hayate: train needs --out NET\n{USAGE}");
        return ExitCode::from(2);
    };
    if files.is_empty() {
        eprintln!("hayate: train needs at least one self-play file\n{USAGE}");
        return ExitCode::from(2);
    }
    let loaded = std::time::Instant::now();
    let (train, valid_samples, report, games) = match data::load_games(&files) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("hayate: train: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "{} games, {} positions: {} to train on, {} to validate ({:.1} s to load)",
        report.games,
        report.positions,
        train.len(),
        valid_samples.len(),
        loaded.elapsed().as_secs_f64()
    );
    let train = if distill > 0 {
        let began = std::time::Instant::now();
        let d = data::distill(&games, distill, opts.seed, opts.threads);
        eprintln!(
            "{} positions near the training games, scored by the hand-written evaluation, train on ({:.1} s)",
            d.len(),
            began.elapsed().as_secs_f64()
        );
        d
    } else {
        train
    };
    if let Some(l) = trainer::classic_loss(&valid_samples, opts.score_share) {
        eprintln!("the hand-written evaluation's validation loss: {l:.6}");
    }
    if train.is_empty() {
        eprintln!("hayate: train: no positions to train on");
        return ExitCode::from(2);
    }
    let mut net = match init {
        Some(path) => match Network::load(&path) {
            Ok(n) => FloatNet::from_quantised(&n),
            Err(e) => {
                eprintln!("hayate: train: {e}");
                return ExitCode::from(2);
            }
        },
        None => FloatNet::random(opts.seed),
    };
    let epochs = opts.epochs;
    let mut failed = None;
    trainer::train(
        &mut net,
        &train,
        &valid_samples,
        &opts,
        &mut |r, net| {
            let valid = r
                .valid_loss
                .map_or(String::new(), |v| format!(", valid {v:.6}"));
            let valid = match trainer::classic_difference(net, &valid_samples) {
                Some(d) => format!("{valid} ({d:.0} cp from the hand-written evaluation)"),
                None => valid,
            };
            let clear = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                "\r"
            } else {
                ""
            };
            eprintln!(
                "{clear}epoch {}/{epochs}: train {:.6}{valid}, {:.0} positions/s, rate {:.6}",
                r.epoch, r.train_loss, r.positions_per_second, r.rate
            );
            if let Err(e) = std::fs::write(&out, net.quantise().to_bytes()) {
                failed = Some(format!("{out}: {e}"));
            }
        },
        &mut |epoch, done, rate| {
            // A live line on a terminal; a log gets the epoch lines alone.
            if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                eprint!(
                    "\repoch {epoch}/{epochs}: {:5.1}%, {rate:.0} positions/s ",
                    done * 100.0
                );
            }
        },
    );
    if let Some(e) = failed {
        eprintln!("hayate: train: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn match_command(args: &[String]) -> ExitCode {
    use hayate::arena;
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", arena::HELP);
        return ExitCode::SUCCESS;
    }
    let cfg = match arena::parse_command_line(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hayate match: {e}\n{}", arena::HELP);
            return ExitCode::from(2);
        }
    };
    let mut out = io::stdout();
    match arena::run(&cfg, &mut out) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hayate match: {e}");
            ExitCode::from(2)
        }
    }
}

fn mate_command(args: &[String]) -> ExitCode {
    use hayate::mate::{japanese_line, SolveLimits, Solver, Verdict};
    use std::time::{Duration, Instant};
    let mut time_ms: u64 = 10_000;
    let mut max_nodes: Option<u64> = None;
    let mut shorten = true;
    let mut hash_mb: usize = 256;
    let mut batch = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let it = &mut it;
        let r = match a.as_str() {
            "--time" => flag_number(it, a).map(|t| time_ms = t),
            "--hash" => flag_number(it, a).map(|h| hash_mb = h),
            "--nodes" => flag_number(it, a).map(|n| max_nodes = Some(n)),
            "--batch" => flag_value(it, a).map(|v| batch = Some(v)),
            "--first" => {
                shorten = false;
                Ok(())
            }
            _ => {
                rest.push(a.clone());
                Ok(())
            }
        };
        if let Err(e) = r {
            eprintln!("hayate mate: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let mut solver = Solver::new(hash_mb);
    let limits = || SolveLimits {
        // A time too far off for the clock is no deadline.
        deadline: Instant::now().checked_add(Duration::from_millis(time_ms)),
        nodes: max_nodes,
        shorten,
        ..SolveLimits::default()
    };
    if let Some(path) = batch {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("hayate mate: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        let report =
            hayate::mate::run_batch(&text, &mut solver, limits, &mut |line| println!("{line}"));
        println!("{report}");
        return ExitCode::SUCCESS;
    }
    let setup = rest.join(" ");
    let setup = setup.strip_prefix("sfen ").unwrap_or(&setup);
    let mut pos = match Position::from_sfen(setup) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("hayate mate: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let verdict = solver.solve(&mut pos, limits());
    let ms = start.elapsed().as_millis();
    let nodes = solver.nodes();
    match verdict {
        Verdict::Mate(line) => {
            let usi: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            println!("mate in {} plies ({nodes} nodes, {ms} ms)", line.len());
            println!("usi: {}", usi.join(" "));
            println!("japanese: {}", japanese_line(&pos, &line));
        }
        Verdict::NoMate => println!("no mate ({nodes} nodes, {ms} ms)"),
        Verdict::Unknown => println!("unknown: time ran out ({nodes} nodes, {ms} ms)"),
    }
    ExitCode::SUCCESS
}

/// `hayate tsume check`: on a thread with the solver's deep stack, like `hayate mate`.
fn tsume_command(args: &[String]) -> ExitCode {
    use hayate::mate::{check_batch, check_problem, CheckLimits};
    use std::io::{IsTerminal, Write};
    let fail = |e: &str| {
        eprintln!("hayate tsume: {e}\n{USAGE}");
        ExitCode::from(2)
    };
    if args.first().map(String::as_str) != Some("check") {
        return fail("the only command is 'check'");
    }
    let mut limits = CheckLimits::default();
    let (mut json, mut verbose, mut batch, mut rest) = (false, false, None, Vec::new());
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        let it = &mut it;
        let r = match a.as_str() {
            "--nodes" => flag_number(it, a).map(|n| limits.nodes = n),
            "--plies" => flag_number(it, a).map(|n| limits.max_plies = n),
            "--batch" => flag_value(it, a).map(|v| batch = Some(v)),
            "--json" => {
                json = true;
                Ok(())
            }
            "--verbose" => {
                verbose = true;
                Ok(())
            }
            "--as-given" => {
                limits.complete_hand = false;
                Ok(())
            }
            s if s.starts_with("--") => Err(format!("unknown flag {s}")),
            _ => {
                rest.push(a.clone());
                Ok(())
            }
        };
        if let Err(e) = r {
            return fail(&e);
        }
    }
    let run = move || -> Result<(), String> {
        if let Some(path) = batch {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
            // The progress line redraws itself on a terminal; elsewhere it is one line a row.
            let tty = io::stderr().is_terminal();
            let summary = check_batch(&text, &limits, &mut |l| println!("{l}"), &mut |l| {
                if tty {
                    eprint!("\r\x1b[K{l}");
                    let _ = io::stderr().flush();
                } else {
                    eprintln!("{l}");
                }
            });
            if tty {
                eprintln!();
            }
            println!("{summary}");
            return Ok(());
        }
        let arg = rest.join(" ");
        // A file holds the SFEN on its first line (or a name<TAB>SFEN row); anything else is
        // taken as the SFEN itself.
        let sfen = match std::fs::read_to_string(&arg) {
            Ok(text) if !arg.is_empty() => {
                let first = text
                    .lines()
                    .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
                    .unwrap_or("");
                first.rsplit('\t').next().unwrap_or("").to_string()
            }
            _ => arg,
        };
        if sfen.trim().is_empty() {
            return Err("no position given".into());
        }
        let report = check_problem(&sfen, &limits)?;
        if json {
            println!("{}", report.json(verbose));
        } else {
            print!("{}", report.human(verbose));
        }
        Ok(())
    };
    let worker = std::thread::Builder::new()
        .stack_size(hayate::mate::SOLVER_STACK)
        .spawn(run);
    match worker.map(|h| h.join()) {
        Ok(Ok(Ok(()))) => ExitCode::SUCCESS,
        // A bad position or file: the message alone, as `hayate mate` does.
        Ok(Ok(Err(e))) => {
            eprintln!("hayate tsume: {e}");
            ExitCode::from(2)
        }
        _ => {
            eprintln!("hayate: the tsume checker failed");
            ExitCode::FAILURE
        }
    }
}
