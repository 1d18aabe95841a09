//! Time controls and the clocks a match runner keeps.

use std::fmt;

/// How an engine's thinking is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Main time, Fischer increment and byoyomi, in ms. Byoyomi only: `time = 0`; Fischer:
    /// `inc > 0`; sudden death: both `inc` and `byoyomi` zero.
    Clock {
        time: u64,
        inc: u64,
        byoyomi: u64,
    },
    /// A fixed time per move, in ms.
    MoveTime(u64),
    Nodes(u64),
    Depth(u32),
}

impl TimeControl {
    /// Parses `byoyomi=1000`, `time=60000,inc=1000`, `time=60000,byoyomi=1000`, `time=60000`,
    /// `movetime=500`, `nodes=10000` or `depth=8`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let mut time = None;
        let mut inc = None;
        let mut byoyomi = None;
        let mut single = None;
        for part in text.split(',') {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("time control '{text}': '{part}' is not key=value"))?;
            let n: u64 = v
                .trim()
                .parse()
                .map_err(|_| format!("time control '{text}': '{v}' is not a whole number"))?;
            match k.trim() {
                "time" => time = Some(n),
                "inc" => inc = Some(n),
                "byoyomi" => byoyomi = Some(n),
                "movetime" => single = Some(TimeControl::MoveTime(n)),
                "nodes" => single = Some(TimeControl::Nodes(n)),
                "depth" => single = Some(TimeControl::Depth(n.min(1000) as u32)),
                other => return Err(format!("time control '{text}': unknown key '{other}'")),
            }
        }
        if let Some(s) = single {
            if time.is_some() || inc.is_some() || byoyomi.is_some() || text.contains(',') {
                return Err(format!(
                    "time control '{text}': movetime, nodes and depth stand alone"
                ));
            }
            return Ok(s);
        }
        if inc.is_some() && byoyomi.is_some() {
            return Err(format!(
                "time control '{text}': increment and byoyomi cannot be combined"
            ));
        }
        if time.is_none() && byoyomi.is_none() {
            return Err(format!(
                "time control '{text}': give time=, byoyomi=, movetime=, nodes= or depth="
            ));
        }
        Ok(TimeControl::Clock {
            time: time.unwrap_or(0),
            inc: inc.unwrap_or(0),
            byoyomi: byoyomi.unwrap_or(0),
        })
    }

    /// The main time a clock of this control starts with.
    pub fn initial(&self) -> u64 {
        match *self {
            TimeControl::Clock { time, .. } => time,
            _ => 0,
        }
    }

    /// The most a move may take before it loses on time, given the remaining main time (None:
    /// no time limit, only the hang guard).
    pub fn allowance(&self, remaining: u64) -> Option<u64> {
        match *self {
            // Times come from the user: saturate rather than overflow.
            TimeControl::Clock { inc, byoyomi, .. } => {
                Some(remaining.saturating_add(inc).saturating_add(byoyomi))
            }
            TimeControl::MoveTime(t) => Some(t),
            TimeControl::Nodes(_) | TimeControl::Depth(_) => None,
        }
    }

    /// The remaining main time after a move that took `used` ms.
    pub fn after_move(&self, remaining: u64, used: u64) -> u64 {
        match *self {
            TimeControl::Clock { inc, .. } => remaining.saturating_add(inc).saturating_sub(used),
            _ => remaining,
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock {
                time,
                inc: 0,
                byoyomi: 0,
            } => write!(f, "time={time}"),
            TimeControl::Clock {
                time: 0,
                inc: 0,
                byoyomi,
            } => write!(f, "byoyomi={byoyomi}"),
            TimeControl::Clock {
                time,
                inc: 0,
                byoyomi,
            } => write!(f, "time={time},byoyomi={byoyomi}"),
            TimeControl::Clock { time, inc, .. } => write!(f, "time={time},inc={inc}"),
            TimeControl::MoveTime(t) => write!(f, "movetime={t}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// The `go` command for the side to move, with both clocks as GUIs send them. `tcs` and
/// `remaining` are indexed by colour.
pub fn go_command(tcs: [TimeControl; 2], remaining: [u64; 2], side: usize) -> String {
    match tcs[side] {
        TimeControl::MoveTime(t) => format!("go movetime {t}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Clock { inc, byoyomi, .. } => {
            let mut s = format!("go btime {} wtime {}", remaining[0], remaining[1]);
            let other_inc = match tcs[1 - side] {
                TimeControl::Clock { inc, .. } => inc,
                _ => 0,
            };
            if inc > 0 || other_inc > 0 {
                let (b, w) = if side == 0 {
                    (inc, other_inc)
                } else {
                    (other_inc, inc)
                };
                s.push_str(&format!(" binc {b} winc {w}"));
            } else {
                s.push_str(&format!(" byoyomi {byoyomi}"));
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(
            TimeControl::parse("byoyomi=1000"),
            Ok(TimeControl::Clock {
                time: 0,
                inc: 0,
                byoyomi: 1000
            })
        );
        assert_eq!(
            TimeControl::parse("time=60000,inc=1000"),
            Ok(TimeControl::Clock {
                time: 60000,
                inc: 1000,
                byoyomi: 0
            })
        );
        assert_eq!(
            TimeControl::parse("time=60000,byoyomi=1000"),
            Ok(TimeControl::Clock {
                time: 60000,
                inc: 0,
                byoyomi: 1000
            })
        );
        assert_eq!(
            TimeControl::parse("time=60000"),
            Ok(TimeControl::Clock {
                time: 60000,
                inc: 0,
                byoyomi: 0
            })
        );
        assert_eq!(
            TimeControl::parse("movetime=300"),
            Ok(TimeControl::MoveTime(300))
        );
        assert_eq!(
            TimeControl::parse("nodes=5000"),
            Ok(TimeControl::Nodes(5000))
        );
        assert_eq!(TimeControl::parse("depth=6"), Ok(TimeControl::Depth(6)));
        for bad in [
            "",
            "byoyomi",
            "byoyomi=x",
            "inc=5",
            "time=1,inc=1,byoyomi=1",
            "nodes=5,time=3",
            "speed=3",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        for good in [
            "byoyomi=1000",
            "time=60000,inc=1000",
            "time=60000,byoyomi=1000",
            "time=60000",
            "movetime=300",
        ] {
            assert_eq!(TimeControl::parse(good).unwrap().to_string(), good);
        }
    }

    #[test]
    fn clocks_and_go_lines() {
        let byo = TimeControl::parse("time=1000,byoyomi=500").unwrap();
        assert_eq!(byo.allowance(1000), Some(1500));
        assert_eq!(byo.after_move(1000, 1200), 0);
        let fischer = TimeControl::parse("time=2000,inc=100").unwrap();
        assert_eq!(fischer.after_move(2000, 500), 1600);
        assert_eq!(
            go_command([byo, byo], [1000, 800], 1),
            "go btime 1000 wtime 800 byoyomi 500"
        );
        assert_eq!(
            go_command([fischer, fischer], [2000, 1900], 0),
            "go btime 2000 wtime 1900 binc 100 winc 100"
        );
        assert_eq!(
            go_command([TimeControl::Nodes(10), byo], [0, 0], 0),
            "go nodes 10"
        );
        // Huge times saturate.
        let huge = TimeControl::parse(&format!("time={},byoyomi={}", u64::MAX, u64::MAX)).unwrap();
        assert_eq!(huge.allowance(u64::MAX), Some(u64::MAX));
        let huge = TimeControl::parse(&format!("time={},inc=5", u64::MAX)).unwrap();
        assert_eq!(huge.after_move(u64::MAX, 1), u64::MAX - 1);
    }
}
