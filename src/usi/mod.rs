//! The USI protocol: commands parsed from lines, replies formatted to lines.
//!
//! The loop reads from any `BufRead` and writes to any `Write`, so tests drive it in memory.

use std::io::{BufRead, Write};
use std::time::Instant;

use crate::movegen::{generate_legal, MoveList};
use crate::perft;
use crate::position::Position;

pub const ENGINE_NAME: &str = concat!("Hayate ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Hayate developers";

/// A parsed command line.
#[derive(Debug, PartialEq)]
pub enum Command {
    Usi,
    IsReady,
    UsiNewGame,
    Position(Box<Position>),
    GoPerft(u32),
    Display,
    Quit,
    /// A blank line: ignored.
    Empty,
}

/// Parses one line. Errors are the text for an `info string`.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = words.collect();
    match first {
        "usi" => Ok(Command::Usi),
        "isready" => Ok(Command::IsReady),
        "usinewgame" => Ok(Command::UsiNewGame),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "position" => parse_position(&rest).map(|p| Command::Position(Box::new(p))),
        "go" => match rest.as_slice() {
            ["perft", n] => n
                .parse()
                .ok()
                .filter(|&d| d >= 1)
                .map(Command::GoPerft)
                .ok_or_else(|| format!("bad perft depth '{n}'")),
            ["perft"] => Err("go perft needs a depth".into()),
            _ => Err("only 'go perft <depth>' is supported by this build".into()),
        },
        other => Err(format!("unknown command '{other}'")),
    }
}

/// `position startpos|sfen <board> <side> <hand> [<ply>]|<handicap name> [moves m1 m2 ...]`.
pub fn parse_position(words: &[&str]) -> Result<Position, String> {
    let moves_at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let (setup, moves) = words.split_at(moves_at);
    let mut pos = match setup {
        ["startpos"] => Ok(Position::startpos()),
        ["sfen", board, side, hand] => Position::from_sfen_fields(board, side, hand, None),
        ["sfen", board, side, hand, ply] => {
            Position::from_sfen_fields(board, side, hand, Some(ply))
        }
        ["sfen", ..] => {
            return Err("position sfen needs board, side, hand and an optional move number".into())
        }
        [name] => Position::from_name(name),
        [] => return Err("position needs 'startpos' or 'sfen ...'".into()),
        _ => return Err(format!("cannot read position '{}'", setup.join(" "))),
    }
    .map_err(|e| e.to_string())?;
    for text in moves.iter().skip(1) {
        let m = pos.parse_usi_move(text)?;
        pos.do_move(m);
    }
    Ok(pos)
}

/// Runs perft with a per-root-move breakdown and writes the report lines.
pub fn write_perft(out: &mut impl Write, pos: &mut Position, depth: u32) -> std::io::Result<u64> {
    let start = Instant::now();
    let mut total = 0;
    for (m, n) in perft::divide(pos, depth) {
        writeln!(out, "{m}: {n}")?;
        total += n;
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(
        out,
        "Time: {} ms, {:.0} nodes/second (leaves counted by generating the legal moves at depth 1)",
        (secs * 1000.0).round(),
        total as f64 / secs.max(1e-9)
    )?;
    out.flush()?;
    Ok(total)
}

/// Reads commands until `quit` or the end of input.
pub fn run(input: impl BufRead, out: &mut impl Write) -> std::io::Result<()> {
    let mut pos = Position::startpos();
    for line in input.lines() {
        let line = line?;
        match parse_command(&line) {
            Ok(Command::Usi) => {
                writeln!(out, "id name {ENGINE_NAME}")?;
                writeln!(out, "id author {ENGINE_AUTHOR}")?;
                writeln!(out, "usiok")?;
            }
            Ok(Command::IsReady) => writeln!(out, "readyok")?,
            Ok(Command::UsiNewGame) | Ok(Command::Empty) => {}
            Ok(Command::Position(p)) => pos = *p,
            Ok(Command::GoPerft(depth)) => {
                write_perft(out, &mut pos, depth)?;
            }
            Ok(Command::Display) => {
                write!(out, "{}", pos.pretty())?;
                let mut list = MoveList::new();
                generate_legal(&pos, &mut list);
                writeln!(out, "Legal moves: {}", list.len())?;
            }
            Ok(Command::Quit) => break,
            Err(e) => writeln!(out, "info string {e}")?,
        }
        out.flush()?;
    }
    Ok(())
}
