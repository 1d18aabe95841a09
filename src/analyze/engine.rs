//! Hayate's own USI engine, driven in-process: the analysis sends the lines a GUI would send
//! (`usi`, `setoption`, `isready`, `position`, `go`) and reads the `info` and `bestmove` lines
//! a GUI would read, so it gets exactly the search a GUI gets. The USI loop runs on a thread of
//! its own over a pair of channels, without a child process.

use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::Error;
use crate::search::Score;

/// The USI loop's input: one message a line, and the end of the channel is the end of input.
struct ChannelReader {
    rx: Receiver<String>,
    pending: Vec<u8>,
    at: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() {
            match self.rx.recv() {
                Ok(line) => {
                    self.pending = line.into_bytes();
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The USI loop's output, cut into lines for the analysis to read.
struct LineSender {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for LineSender {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                // Nobody reading any more (the analysis has ended) is no error of the engine's.
                let _ = self.tx.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A running USI engine: lines in, lines out.
pub struct UsiSession {
    input: Option<Sender<String>>,
    output: Receiver<String>,
    thread: Option<JoinHandle<()>>,
}

impl UsiSession {
    /// Starts the USI loop on its own thread.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn start() -> Result<UsiSession, Error> {
        let (in_tx, in_rx) = mpsc::channel();
        let (out_tx, out_rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("usi".into())
            // The room the main thread gives the loop when Hayate runs as a GUI's engine.
            .stack_size(8 << 20)
            .spawn(move || {
                let input = BufReader::new(ChannelReader {
                    rx: in_rx,
                    pending: Vec::new(),
                    at: 0,
                });
                let out = Arc::new(Mutex::new(LineSender {
                    tx: out_tx,
                    partial: Vec::new(),
                }));
                let _ = crate::usi::run(input, out);
            })
            .map_err(|e| Error::Engine(format!("cannot start the engine thread: {e}")))?;
        Ok(UsiSession {
            input: Some(in_tx),
            output: out_rx,
            thread: Some(thread),
        })
    }

    /// Sends one command line.
    pub fn send(&self, line: &str) -> Result<(), Error> {
        self.input
            .as_ref()
            .and_then(|tx| tx.send(format!("{line}\n")).ok())
            .ok_or_else(|| Error::Engine(format!("the engine stopped before '{line}'")))
    }

    /// Reads lines until one whose first word is `word`, which it returns; every line before it
    /// goes to `seen`.
    pub fn read_until(&self, word: &str, seen: &mut dyn FnMut(&str)) -> Result<String, Error> {
        loop {
            let line = self.output.recv().map_err(|_| {
                Error::Engine(format!("the engine stopped before answering '{word}'"))
            })?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
            seen(&line);
        }
    }
}

impl Drop for UsiSession {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // The end of input ends the loop even if `quit` was not read.
        self.input = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What one `info` line with a score says.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoLine {
    pub depth: i32,
    pub seldepth: i32,
    /// From the side to move's point of view, as USI gives it.
    pub score: Score,
    pub multipv: usize,
    pub nodes: u64,
    /// USI moves.
    pub pv: Vec<String>,
}

/// Reads an `info` line; `None` for one without a score (`info string`, progress lines).
pub fn parse_info(line: &str) -> Option<InfoLine> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut info = InfoLine {
        depth: 0,
        seldepth: 0,
        score: Score::Cp(0),
        multipv: 1,
        nodes: 0,
        pv: Vec::new(),
    };
    let mut scored = false;
    while let Some(key) = words.next() {
        match key {
            "string" => return None,
            "depth" => info.depth = words.next()?.parse().ok()?,
            "seldepth" => info.seldepth = words.next()?.parse().ok()?,
            "multipv" => info.multipv = words.next()?.parse().ok()?,
            "nodes" => info.nodes = words.next()?.parse().ok()?,
            "score" => {
                let kind = words.next()?;
                let n: i32 = words.next()?.parse().ok()?;
                info.score = match kind {
                    "cp" => Score::Cp(n),
                    "mate" => Score::Mate(n),
                    _ => return None,
                };
                scored = true;
            }
            "lowerbound" | "upperbound" => {}
            "pv" => {
                info.pv = words.by_ref().map(str::to_string).collect();
            }
            // Keys with one value that the analysis does not need.
            _ => {
                words.next();
            }
        }
    }
    scored.then_some(info)
}

/// The engine's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    Move(String),
    Resign,
    Win,
}

/// Reads a `bestmove` line.
pub fn parse_bestmove(line: &str) -> Option<BestMove> {
    let mut words = line.split_whitespace();
    if words.next() != Some("bestmove") {
        return None;
    }
    Some(match words.next()? {
        "resign" => BestMove::Resign,
        "win" => BestMove::Win,
        m => BestMove::Move(m.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let i = parse_info(
            "info depth 7 seldepth 9 score cp -35 multipv 2 nodes 1234 nps 10 time 5 hashfull 0 pv 7g7f 3c3d",
        )
        .unwrap();
        assert_eq!((i.depth, i.seldepth, i.multipv, i.nodes), (7, 9, 2, 1234));
        assert_eq!(i.score, Score::Cp(-35));
        assert_eq!(i.pv, ["7g7f", "3c3d"]);
        let m = parse_info("info depth 3 score mate -4 pv 5a4b").unwrap();
        assert_eq!(m.score, Score::Mate(-4));
        assert!(parse_info("info string book move").is_none());
        assert!(parse_info("info depth 3 nodes 10").is_none());
        assert_eq!(
            parse_bestmove("bestmove 7g7f ponder 3c3d"),
            Some(BestMove::Move("7g7f".into()))
        );
        assert_eq!(parse_bestmove("bestmove resign"), Some(BestMove::Resign));
    }

    #[test]
    fn a_session_answers_like_a_gui_engine() {
        let s = UsiSession::start().unwrap();
        s.send("usi").unwrap();
        let mut names = Vec::new();
        s.read_until("usiok", &mut |l| names.push(l.to_string()))
            .unwrap();
        assert!(names.iter().any(|l| l.starts_with("id name Hayate")));
        s.send("setoption name USI_Hash value 16").unwrap();
        s.send("isready").unwrap();
        s.read_until("readyok", &mut |_| {}).unwrap();
        s.send("position startpos moves 7g7f").unwrap();
        s.send("go depth 2").unwrap();
        let mut infos = Vec::new();
        let best = s
            .read_until("bestmove", &mut |l| infos.extend(parse_info(l)))
            .unwrap();
        assert!(!infos.is_empty());
        assert!(matches!(parse_bestmove(&best), Some(BestMove::Move(_))));
    }
}
