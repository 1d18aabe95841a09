//! Progress of the long commands (`match`, `mate --batch`, `tsume check --batch`, `tune`, `learn`,
//! `book extend`, `selfplay`, `train`, and a single `mate` as a [`Spinner`]), drawn on stderr.
//!
//! On a terminal: a live `indicatif` bar with the count, the rate and the time left. Elsewhere
//! (a log file, a pipe, CI): a plain line now and then, so that a log shows how far a job got
//! without a line per item. The jobs themselves know nothing of this: they report through
//! callbacks, and the command line turns those calls into [`Progress`] updates.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain progress line is printed when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// A job's progress: `done` of `total` items.
pub struct Progress {
    label: String,
    /// What one item is called in the plain lines ("games", "problems").
    unit: &'static str,
    bar: Option<ProgressBar>,
    plain: Option<Mutex<Plain>>,
}

/// The state of the plain lines.
struct Plain {
    total: u64,
    began: Instant,
    /// Items already done when the job began (a resumed self-play file): not in the rate.
    first: u64,
    last_line: Instant,
}

impl Progress {
    /// A bar on a terminal, plain lines every [`PLAIN_EVERY`] elsewhere.
    pub fn new(label: &str, unit: &'static str, total: u64) -> Progress {
        Progress::with_plain(label, unit, total, true)
    }

    /// Like [`Progress::new`], with no plain lines: for a job that prints its own line per item
    /// (`hayate match` and its "Finished game" lines, which scripts read).
    pub fn bar_only(label: &str, unit: &'static str, total: u64) -> Progress {
        Progress::with_plain(label, unit, total, false)
    }

    fn with_plain(label: &str, unit: &'static str, total: u64, plain: bool) -> Progress {
        let tty = std::io::stderr().is_terminal();
        let bar = tty.then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template = format!(
                "{{prefix}} [{{bar:20}}] {{human_pos}}/{{human_len}} {unit} ({{per_sec}}, ETA {{eta}}) {{wide_msg}}"
            );
            let style = ProgressStyle::with_template(&template)
                .map(|s| s.progress_chars("=> "))
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            // Redrawn on its own even while one item takes long (an extend search, a game).
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        let now = Instant::now();
        Progress {
            label: label.to_string(),
            unit,
            bar,
            plain: (!tty && plain).then(|| {
                Mutex::new(Plain {
                    total,
                    began: now,
                    first: 0,
                    last_line: now,
                })
            }),
        }
    }

    /// Whether a live bar is drawn (stderr is a terminal).
    pub fn is_live(&self) -> bool {
        self.bar.is_some()
    }

    /// Starts the count at `done` (a job resumed): its rate and time left count from here.
    pub fn resume_at(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.reset_eta();
        }
        if let Some(p) = &self.plain {
            if let Ok(mut p) = p.lock() {
                p.first = done;
                p.began = Instant::now();
            }
        }
    }

    /// The total changed (a match stopped by its SPRT, a book with no leaves left).
    pub fn set_total(&self, total: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(total);
        }
        if let Some(p) = &self.plain {
            if let Ok(mut p) = p.lock() {
                p.total = total;
            }
        }
    }

    /// `done` items finished; `message` says more (the score so far, the item at work).
    pub fn update(&self, done: u64, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(message.to_string());
        }
        let Some(p) = &self.plain else { return };
        let Ok(mut p) = p.lock() else { return };
        if p.last_line.elapsed() < PLAIN_EVERY {
            return;
        }
        p.last_line = Instant::now();
        let secs = p.began.elapsed().as_secs_f64();
        let rate = done.saturating_sub(p.first) as f64 / secs.max(1e-9);
        let eta = if rate > 0.0 {
            format_duration(p.total.saturating_sub(done) as f64 / rate)
        } else {
            "?".into()
        };
        let message = if message.is_empty() {
            String::new()
        } else {
            format!(" {message}")
        };
        eprintln!(
            "{}: {done}/{} {} ({rate:.2}/s, ETA {eta}){message}",
            self.label, p.total, self.unit
        );
    }

    /// A line on stderr, above the bar on a terminal.
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// A line on stdout, the bar cleared and redrawn around it when both share a terminal.
    /// A reader that went away (`... | head`) is not an error here: the job's own output
    /// decides what that means.
    pub fn say(&self, line: &str) {
        let print = || {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        };
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Removes the bar; the job's own summary follows.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A live line for one long job that has no items to count (a single `hayate mate` solve): on
/// a terminal, a spinner showing what [`Spinner::set`] last said; elsewhere nothing, so that a
/// log or a pipe gets only the answer. Clones show on the same line.
#[derive(Clone)]
pub struct Spinner {
    bar: Option<ProgressBar>,
}

impl Spinner {
    pub fn new(label: &str) -> Spinner {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("{prefix} {spinner} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Spinner { bar }
    }

    /// Whether a spinner is drawn (stderr is a terminal).
    pub fn is_live(&self) -> bool {
        self.bar.is_some()
    }

    pub fn set(&self, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.to_string());
        }
    }

    /// Removes the line; the answer follows.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A writer whose lines go to stdout through [`Progress::say`]: what `hayate match` prints.
pub struct LineWriter<'a> {
    progress: &'a Progress,
    pending: Vec<u8>,
}

impl<'a> LineWriter<'a> {
    pub fn new(progress: &'a Progress) -> LineWriter<'a> {
        LineWriter {
            progress,
            pending: Vec::new(),
        }
    }
}

impl Write for LineWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.progress
                .say(String::from_utf8_lossy(&line[..end]).as_ref());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.progress.say(String::from_utf8_lossy(&line).as_ref());
        }
        Ok(())
    }
}

/// `1h02m03s`, for the time left.
pub fn format_duration(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_written_in_pieces_come_out_whole() {
        let p = Progress::bar_only("test", "items", 3);
        let mut w = LineWriter::new(&p);
        assert!(write!(w, "Finished game 1").is_ok());
        assert_eq!(w.pending, b"Finished game 1");
        assert!(write!(w, " of 3\nScore of").is_ok());
        assert_eq!(w.pending, b"Score of");
        assert!(w.flush().is_ok());
        assert!(w.pending.is_empty());
    }

    #[test]
    fn durations_read_as_hours_minutes_seconds() {
        assert_eq!(format_duration(3723.4), "1h02m03s");
        assert_eq!(format_duration(f64::NAN), "?");
    }
}
