//! A USI engine in a child process, as the match runner drives it: handshake, options, games,
//! and waiting for replies with deadlines so that a silent engine never hangs the runner.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::tc::TimeControl;

/// How to start one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub name: String,
    /// The command line (program and arguments, split on whitespace).
    pub cmd: String,
    pub dir: Option<PathBuf>,
    pub options: Vec<(String, String)>,
    /// A time control for this engine only, overriding the match's.
    pub tc: Option<TimeControl>,
}

impl EngineConfig {
    /// Parses the words of one `--engine`: `cmd=PATH name=NAME dir=DIR option.X=V tc=...`.
    pub fn parse(words: &[&str]) -> Result<EngineConfig, String> {
        let mut cfg = EngineConfig {
            name: String::new(),
            cmd: String::new(),
            dir: None,
            options: Vec::new(),
            tc: None,
        };
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--engine: '{w}' is not key=value"))?;
            match k {
                "cmd" => cfg.cmd = v.to_string(),
                "name" => cfg.name = v.to_string(),
                "dir" => cfg.dir = Some(PathBuf::from(v)),
                "tc" => cfg.tc = Some(TimeControl::parse(v)?),
                _ => match k.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => {
                        cfg.options.push((opt.to_string(), v.to_string()))
                    }
                    _ => return Err(format!("--engine: unknown key '{k}'")),
                },
            }
        }
        if cfg.cmd.is_empty() {
            return Err("--engine needs cmd=PATH".into());
        }
        if cfg.name.is_empty() {
            cfg.name = PathBuf::from(cfg.cmd.split_whitespace().next().unwrap_or("engine"))
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| "engine".into());
        }
        Ok(cfg)
    }
}

impl EngineConfig {
    /// Whether the options turn pondering on.
    pub fn pondering(&self) -> bool {
        self.options
            .iter()
            .any(|(k, v)| k == "USI_Ponder" && v.eq_ignore_ascii_case("true"))
    }
}

/// Why waiting for a reply failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitError {
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Closed,
}

pub struct UsiProcess {
    pub name: String,
    /// Whether the engine was given `USI_Ponder=true`: the runner then lets it think on the
    /// opponent's time with `go ponder`, as a GUI does.
    pub ponder: bool,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// The longest line kept whole; a longer one arrives in pieces of this size, so an engine that
/// never ends its line cannot fill the runner's memory.
const MAX_LINE: u64 = 1 << 20;

/// Sends each line an engine writes, decoded lossily: a line that is not UTF-8 (a Shift_JIS
/// `info string` from a Windows engine) is still a line, and only the end of the output (the
/// engine exited or closed it) ends the reading.
fn read_lines(mut reader: impl BufRead, tx: &mpsc::Sender<String>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        }
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
            return;
        }
    }
}

/// How long an engine may take to answer `usi` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
pub const READY_TIMEOUT: Duration = Duration::from_secs(60);

impl UsiProcess {
    /// Starts the engine and completes the handshake (`usi`/`usiok`, options, `isready`/`readyok`).
    pub fn start(cfg: &EngineConfig) -> Result<UsiProcess, String> {
        let mut parts = cfg.cmd.split_whitespace();
        let program = parts.next().ok_or("empty engine command")?;
        let mut command = Command::new(program);
        command
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &cfg.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start engine {} ({}): {e}", cfg.name, cfg.cmd))?;
        let stdin = child.stdin.take().ok_or("no engine stdin")?;
        let stdout = child.stdout.take().ok_or("no engine stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || read_lines(BufReader::new(stdout), &tx));
        let mut p = UsiProcess {
            name: cfg.name.clone(),
            ponder: cfg.pondering(),
            child,
            stdin,
            lines,
        };
        let fail = |p: &mut UsiProcess, what: &str, e: WaitError| {
            p.kill();
            format!(
                "engine {} {}: {}",
                cfg.name,
                what,
                if e == WaitError::Timeout {
                    "no reply in time"
                } else {
                    "exited"
                }
            )
        };
        p.send("usi")
            .map_err(|e| format!("engine {}: {e}", cfg.name))?;
        if let Err(e) = p.wait_for(|l| l == "usiok", Instant::now() + HANDSHAKE_TIMEOUT) {
            return Err(fail(&mut p, "never answered usiok", e));
        }
        for (k, v) in &cfg.options {
            p.send(&format!("setoption name {k} value {v}"))
                .map_err(|e| format!("engine {}: {e}", cfg.name))?;
        }
        p.ready()
            .map_err(|e| fail(&mut p, "never answered readyok", e))?;
        Ok(p)
    }

    pub fn send(&mut self, cmd: &str) -> Result<(), String> {
        writeln!(self.stdin, "{cmd}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("cannot write to engine: {e}"))
    }

    /// Reads lines until one satisfies `done` (returned last) or the deadline passes.
    pub fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
    ) -> Result<Vec<String>, WaitError> {
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(line.trim_end());
                    seen.push(line.trim_end().to_string());
                    if finished {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(WaitError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(WaitError::Closed),
            }
        }
    }

    /// `isready` and its `readyok` (empty keep-alive lines are skipped).
    pub fn ready(&mut self) -> Result<(), WaitError> {
        self.send("isready").map_err(|_| WaitError::Closed)?;
        self.wait_for(|l| l == "readyok", Instant::now() + READY_TIMEOUT)
            .map(|_| ())
    }

    pub fn new_game(&mut self) -> Result<(), WaitError> {
        self.ready()?;
        self.send("usinewgame").map_err(|_| WaitError::Closed)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// `quit`, a moment to exit, then kill.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if !self.alive() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

impl Drop for UsiProcess {
    fn drop(&mut self) {
        if self.alive() {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_words() {
        let c = EngineConfig::parse(&[
            "cmd=/usr/games/fairy-stockfish",
            "name=fsf",
            "option.Hash=64",
            "tc=byoyomi=300",
        ])
        .unwrap();
        assert_eq!(c.name, "fsf");
        assert_eq!(c.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(
            c.tc,
            Some(TimeControl::Clock {
                time: 0,
                inc: 0,
                byoyomi: 300
            })
        );
        assert_eq!(
            EngineConfig::parse(&["cmd=target/release/hayate"])
                .unwrap()
                .name,
            "hayate"
        );
        assert!(EngineConfig::parse(&["name=x"]).is_err());
        assert!(EngineConfig::parse(&["cmd=x", "colour=red"]).is_err());
    }

    #[test]
    fn output_is_read_lossily_line_by_line() {
        // "info string 探索中" in Shift_JIS, a CRLF line, and a last line without a newline.
        let mut bytes = b"info string \x92\x54\x8d\xf5\x92\x86\n".to_vec();
        bytes.extend_from_slice(b"readyok\r\nbestmove 7g7f");
        let (tx, rx) = mpsc::channel();
        read_lines(&bytes[..], &tx);
        drop(tx);
        let lines: Vec<String> = rx.iter().collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("info string "));
        assert_eq!(lines[1], "readyok");
        assert_eq!(lines[2], "bestmove 7g7f");
    }

    #[test]
    fn a_missing_binary_is_a_clear_error() {
        let c = EngineConfig::parse(&["cmd=/nonexistent/engine"]).unwrap();
        let e = UsiProcess::start(&c).err().unwrap();
        assert!(e.contains("cannot start engine"), "{e}");
    }
}
