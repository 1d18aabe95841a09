//! `hayate analyze`: a record searched position by position through the engine's own USI loop.

use std::io::{Read, Write};

use clap::Args;

use super::progress::Progress;
use super::{Failure, Outcome};
use crate::analyze::{self, AnalyzeOptions};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The record: a CSA, KIF or KI2 file (UTF-8 or Shift_JIS), or a file holding a
    /// 'startpos moves ...' / 'sfen ... moves ...' line; '-' reads stdin
    #[arg(value_name = "RECORD")]
    pub input: String,
    /// Milliseconds a position (with no limit at all: 1000)
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Depth a position
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Nodes a position
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Lines searched a position
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=800))]
    pub multipv: u64,
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Hash table size
    #[arg(long, value_name = "MB", default_value_t = AnalyzeOptions::default().hash_mb as u64,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Write JSON (the same data, for scripts) instead of KIF
    #[arg(long)]
    pub json: bool,
    /// Where the main output goes ('-': stdout)
    #[arg(long, short = 'o', value_name = "FILE", default_value = "-")]
    pub output: String,
    /// Also write the annotated KIF to FILE
    #[arg(long, value_name = "FILE")]
    pub kif: Option<String>,
    /// Also write the evaluation graph as SVG to FILE
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
}

/// The positions searched: the start and the one after each move.
fn analysis_positions(record: &crate::kifu::GameRecord) -> usize {
    record.moves.len() + 1
}

/// Whether `path` names a file that could be written: its folder exists, and the path is not
/// itself a folder. A bad one is the user's to fix (exit code 2).
fn writable_place(path: &std::path::Path) -> Result<(), Failure> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if !folder.is_dir() {
        return Err(Failure::Input(format!(
            "cannot write {}: no folder {}",
            path.display(),
            folder.display()
        )));
    }
    if path.is_dir() {
        return Err(Failure::Input(format!(
            "cannot write {}: it is a folder",
            path.display()
        )));
    }
    Ok(())
}

/// `hayate analyze`.
pub fn analyze(a: AnalyzeArgs) -> Outcome {
    let options = AnalyzeOptions {
        movetime_ms: a.movetime,
        depth: a.depth,
        nodes: a.nodes,
        multipv: a.multipv as usize,
        threads: a.threads as usize,
        hash_mb: a.hash as usize,
    };
    let (text, ext) = if a.input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        (crate::kifu::decode(&bytes)?, None)
    } else {
        let path = std::path::Path::new(&a.input);
        let text = crate::kifu::read_text(path)?;
        (
            text,
            path.extension().and_then(|e| e.to_str()).map(String::from),
        )
    };
    let record =
        analyze::read_record(&text, ext.as_deref()).map_err(|e| format!("{}: {e}", a.input))?;
    // An output that could never be written is said before the analysis, not after it: a
    // long analysis would otherwise be lost to a mistyped folder.
    for path in std::iter::once(&a.output).chain(&a.kif).chain(&a.svg) {
        if path != "-" {
            writable_place(std::path::Path::new(path))?;
        }
    }
    let bar = Progress::new("analyze", "positions", 0);
    let mut progress = |done: usize, total: usize| {
        bar.set_total(total as u64);
        bar.update(done as u64, "");
    };
    let analysis = match analyze::analyze(&record, &options, &mut progress) {
        Ok(x) => x,
        Err(e @ analyze::Error::Record(_)) => return Err(Failure::Input(e.to_string())),
        Err(e) => return Err(Failure::Job(e.to_string())),
    };
    bar.finish();
    if !bar.is_live() {
        let n = analysis_positions(&record);
        eprintln!("analyze: {n}/{n} positions");
    }
    eprint!("{}", analyze::summary_text(&analysis));
    let write = |path: &str, text: Result<String, String>| -> Result<(), Failure> {
        let text = text.map_err(Failure::Job)?;
        if path == "-" {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Failure::Job(format!("cannot write the output: {e}")))
        } else {
            std::fs::write(path, text)
                .map_err(|e| Failure::Job(format!("cannot write {path}: {e}")))
        }
    };
    // A record file goes in the encoding its extension asks for (Shift_JIS for `.kif`), as
    // GUIs read it; standard output and the other files stay UTF-8.
    let write_record = |path: &str, text: Result<String, String>| -> Result<(), Failure> {
        if path == "-" {
            return write(path, text);
        }
        let path = std::path::Path::new(path);
        let replaced =
            crate::kifu::save(path, &text.map_err(Failure::Job)?).map_err(Failure::Job)?;
        if let Some(w) = crate::kifu::save_warning(path, replaced) {
            eprintln!("{w}");
        }
        Ok(())
    };
    if a.json {
        write(&a.output, analyze::to_json(&analysis))?;
    } else {
        write_record(&a.output, analyze::to_kif(&analysis))?;
    }
    if let Some(p) = &a.kif {
        write_record(p, analyze::to_kif(&analysis))?;
    }
    if let Some(p) = &a.svg {
        write(p, analyze::to_svg(&analysis))?;
    }
    Ok(())
}
