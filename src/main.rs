use std::io;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use hayate::position::Position;
use hayate::usi;

const USAGE: &str = "usage: hayate                      run the USI engine on stdin/stdout
       hayate perft <depth> [<sfen> | startpos | <handicap name>]
       hayate bench                run the fixed search benchmark (prints the node signature)";

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
        Some("bench") => {
            usi::bench::run(&|line| println!("{line}"));
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
