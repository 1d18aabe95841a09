//! The USI loop driven in memory, and the binary driven over a pipe.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

fn run(input: &str) -> String {
    let out = Arc::new(Mutex::new(Vec::<u8>::new()));
    hayate::usi::run(input.as_bytes(), out.clone()).unwrap();
    let bytes = out.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

#[test]
fn handshake() {
    let out = run("usi\nisready\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id name Hayate"));
    assert!(lines[1].starts_with("id author "));
    for name in [
        "USI_Hash",
        "USI_Ponder",
        "Threads",
        "MultiPV",
        "NetworkDelay",
        "NetworkDelay2",
        "MinimumThinkingTime",
        "SlowMover",
        "MaxMovesToDraw",
        "EnteringKingRule",
        "DrawValueBlack",
        "DrawValueWhite",
        "ResignValue",
    ] {
        assert!(
            out.contains(&format!("option name {name} type ")),
            "missing option {name}"
        );
    }
    let usiok = lines.iter().position(|l| *l == "usiok").unwrap();
    assert_eq!(lines[usiok + 1], "readyok");
}

#[test]
fn go_perft_prints_each_root_move_then_the_total() {
    let out = run("position startpos moves 7g7f\ngo perft 2\n");
    let lines: Vec<&str> = out.lines().collect();
    let per_move: Vec<&&str> = lines
        .iter()
        .filter(|l| {
            let (m, n) = l.split_once(": ").unwrap_or(("", ""));
            !m.contains(' ') && !m.is_empty() && n.parse::<u64>().is_ok() && !l.starts_with("Nodes")
        })
        .collect();
    assert_eq!(per_move.len(), 30);
    assert!(per_move.iter().any(|l| l.starts_with("3c3d: ")), "{out}");
    let total: u64 = per_move
        .iter()
        .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
        .sum();
    let nodes_line = lines
        .iter()
        .find(|l| l.starts_with("Nodes searched: "))
        .unwrap();
    assert_eq!(*nodes_line, format!("Nodes searched: {total}"));
    assert!(out.contains("nodes/second"));
}

#[test]
fn perft_counts_after_sfen_and_moves() {
    let out = run("position sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1\ngo perft 4\n");
    assert!(out.contains("Nodes searched: 167089\n"), "{out}");
    let out = run("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - moves 7g7f 3c3d\ngo perft 1\n");
    let mut p = hayate::Position::startpos();
    for m in ["7g7f", "3c3d"] {
        let m = p.parse_usi_move(m).unwrap();
        p.do_move(m);
    }
    let n = hayate::perft::perft(&mut p, 1);
    assert!(out.contains(&format!("Nodes searched: {n}\n")), "{out}");
}

#[test]
fn bad_input_gets_info_string_and_the_loop_goes_on() {
    let out = run(concat!(
        "position sfen 4k4/9/9/9 b - 1\n",
        "position startpos moves 7g7f 7g7f\n",
        "position startpos moves 7x7f\n",
        "position sfen\n",
        "position\n",
        "go perft x\n",
        "go perft\n",
        "frobnicate\n",
        "isready\n",
    ));
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string "))
        .collect();
    assert_eq!(infos.len(), 8, "{out}");
    assert!(infos[0].contains("4 ranks"));
    assert!(infos[1].contains("illegal move '7g7f'"));
    assert!(infos[2].contains("malformed move '7x7f'"));
    assert!(infos[7].contains("unknown command 'frobnicate'"));
    assert!(out.ends_with("readyok\n"));
}

#[test]
fn a_rejected_position_leaves_the_previous_one() {
    let out = run("position startpos moves 7g7f\nposition startpos moves 7g7f 5a1a\nd\n");
    assert!(
        out.contains("SFEN: lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"),
        "{out}"
    );
    assert!(
        out.contains("info string the last position was refused"),
        "{out}"
    );
}

#[test]
fn go_after_a_rejected_position_resigns_with_the_reason() {
    // The older position is kept for `d`, but `go` must not answer a move of it: the GUI would
    // play that move where it may be illegal.
    let out = run(concat!(
        "position startpos moves 7g7f\n",
        "position startpos moves 7g7f 5a1a\n",
        "go depth 1\n",
        "go perft 1\n",
        "go mate 100\n",
        "position startpos moves 7g7f\n",
        "go depth 1\n",
    ));
    let lines: Vec<&str> = out.lines().collect();
    let answers: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
        .collect();
    assert_eq!(answers.len(), 3, "{out}");
    assert_eq!(*answers[0], "bestmove resign", "{out}");
    assert_eq!(*answers[1], "checkmate timeout", "{out}");
    assert!(
        answers[2].starts_with("bestmove ") && *answers[2] != "bestmove resign",
        "{out}"
    );
    let first = lines.iter().position(|l| *l == "bestmove resign").unwrap();
    assert!(
        lines[first - 1].starts_with("info string ")
            && lines[first - 1].contains("illegal move '5a1a'"),
        "{out}"
    );
    assert!(out.contains("info string no position to count"), "{out}");
    assert!(!out.contains("Nodes searched"), "{out}");

    // Pondering on a refused position: the resignation still waits for `stop`.
    let out = run("position startpos moves 9z\ngo ponder\nstop\n");
    assert!(out.ends_with("bestmove resign\n"), "{out}");
    // A refused line of any kind (here one too long) counts as a refused position.
    let long = format!(
        "position startpos moves {}\ngo depth 1\n",
        "7g7f ".repeat(20_000)
    );
    let out = run(&long);
    assert!(out.ends_with("bestmove resign\n"), "{out}");
}

#[test]
fn go_with_clocks_too_large_for_64_bits_still_answers() {
    let out = run("position startpos\ngo btime 99999999999999999999 wtime -99999999999999999999 byoyomi 99999999999999999999 depth 1\n");
    assert!(!out.contains("not a number"), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
}

#[test]
fn display_shows_board_hands_side_sfen_and_key() {
    let out = run("position startpos\nd\n");
    for part in [
        "Black hand: -",
        "White hand: -",
        "Side to move: Black",
        "SFEN: ",
        "Key: ",
        "Legal moves: 30",
    ] {
        assert!(out.contains(part), "missing {part} in {out}");
    }
}

#[test]
fn binary_serves_perft_over_a_pipe_and_on_the_command_line() {
    let exe = env!("CARGO_BIN_EXE_hayate");
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"usi\nposition startpos\ngo perft 3\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("usiok") && text.contains("Nodes searched: 25470\n"),
        "{text}"
    );

    let out = Command::new(exe)
        .args(["perft", "3", "2piece"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("Nodes searched: 19740\n"));
    let out = Command::new(exe)
        .args([
            "perft",
            "2",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("Nodes searched: 28684\n"));
    let out = Command::new(exe)
        .args(["perft", "2", "bogus/sfen b - 1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("ranks"));
}
