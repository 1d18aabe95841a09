//! Game analysis: every position of a record searched by Hayate's own USI engine, each move
//! judged by what it cost, written as a KIF that ShogiHome reads, an SVG evaluation graph and
//! JSON.
//!
//! Data flows one way: [`analyze`] drives the engine (see [`engine`]) through `position` and
//! `go` as a GUI does and gathers an [`Analysis`]; the writers ([`to_kif`], [`to_svg`],
//! [`to_json`], [`summary_text`]) only format it.
//!
//! The judgement of a move, from the mover's side: `loss = before - after`, where `before` is
//! the engine's score of the position before the move (its best line) and `after` the score of
//! the position after it. Both are clipped to ±[`LOSS_CLIP`] first, a mate counting as
//! ±[`MATE_CP`], so a won game thrown from +5000 to +3500 costs nothing and a mate missed for a
//! winning line costs little. A loss below zero (the move was better than the engine saw) is
//! zero, and so is the loss of the engine's own choice. Then [`INACCURACY`], [`MISTAKE`] and
//! [`BLUNDER`] name it.

pub mod engine;
mod json;
mod kif;
mod svg;

use std::fmt;

pub use json::to_json;
pub use kif::to_kif;
pub use svg::to_svg;

use crate::kifu::{Format, GameRecord, RecordedMove};
use crate::position::Position;
use crate::search::Score;
use crate::types::{Color, Move};
use engine::{parse_bestmove, parse_info, BestMove, InfoLine, UsiSession};

/// A loss of at least this many centipawns is an inaccuracy (疑問手).
pub const INACCURACY: i32 = 100;
/// A loss of at least this many is a mistake (悪手).
pub const MISTAKE: i32 = 300;
/// A loss of at least this many is a blunder (大悪手).
pub const BLUNDER: i32 = 800;
/// Scores are clipped to ± this before a loss is computed.
pub const LOSS_CLIP: i32 = 3000;
/// The centipawn value a mate counts as: what ShogiHome writes for a mate in formats that
/// have no mate notation (ShogiGUI's, Floodgate's).
pub const MATE_CP: i32 = 30000;

/// Why an analysis failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The record cannot be read or replayed: bad input.
    Record(String),
    /// The engine did not answer as USI says (a bug).
    Engine(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Error::Record(e) | Error::Engine(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for Error {}

/// How long each position is searched and with what: the `go` limits and the options set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub multipv: usize,
    pub threads: usize,
    pub hash_mb: usize,
}

impl Default for AnalyzeOptions {
    /// One second a position on one thread, one line: what a GUI's analysis does by default.
    fn default() -> AnalyzeOptions {
        AnalyzeOptions {
            movetime_ms: None,
            depth: None,
            nodes: None,
            multipv: 1,
            threads: 1,
            hash_mb: 256,
        }
    }
}

impl AnalyzeOptions {
    /// The `go` command for each position; one second when no limit is given.
    pub fn go_command(&self) -> String {
        let mut s = String::from("go");
        if let Some(n) = self.nodes {
            s.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = self.depth {
            s.push_str(&format!(" depth {d}"));
        }
        match self.movetime_ms {
            Some(ms) => s.push_str(&format!(" movetime {ms}")),
            None if self.nodes.is_none() && self.depth.is_none() => s.push_str(" movetime 1000"),
            None => {}
        }
        s
    }
}

/// A score from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    Cp(i32),
    /// `winner` mates in `plies` (0: the position is already won: mate on the board, or a
    /// correct entering-king declaration).
    Mate {
        winner: Color,
        plies: u32,
    },
}

impl Eval {
    /// A USI score of a position with `stm` to move.
    pub fn from_usi(score: Score, stm: Color) -> Eval {
        let sign = if stm == Color::Black { 1 } else { -1 };
        match score {
            Score::Cp(v) => Eval::Cp(sign * v),
            Score::Mate(n) if n > 0 => Eval::Mate {
                winner: stm,
                plies: n as u32,
            },
            Score::Mate(n) => Eval::Mate {
                winner: !stm,
                plies: n.unsigned_abs(),
            },
        }
    }

    /// Centipawns from Black's side, a mate as ±[`MATE_CP`].
    pub fn cp(self) -> i32 {
        match self {
            Eval::Cp(v) => v,
            Eval::Mate {
                winner: Color::Black,
                ..
            } => MATE_CP,
            Eval::Mate { .. } => -MATE_CP,
        }
    }

    /// Centipawns from `c`'s side.
    pub fn cp_for(self, c: Color) -> i32 {
        if c == Color::Black {
            self.cp()
        } else {
            -self.cp()
        }
    }

    /// ShogiHome's word for the balance: 互角 within ±200, then 有望 (200), 有利 (400),
    /// 優勢 (600) and 勝勢 (1500) for the side ahead.
    pub fn situation(self) -> &'static str {
        match self.cp() {
            v if v >= 1500 => "先手勝勢",
            v if v >= 600 => "先手優勢",
            v if v >= 400 => "先手有利",
            v if v >= 200 => "先手有望",
            v if v >= -200 => "互角",
            v if v >= -400 => "後手有望",
            v if v >= -600 => "後手有利",
            v if v >= -1500 => "後手優勢",
            _ => "後手勝勢",
        }
    }
}

/// One line of the search (one `multipv`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub eval: Eval,
    pub pv: Vec<Move>,
}

/// The search of one position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionReport {
    /// Moves played before this position.
    pub ply: usize,
    pub side_to_move: Color,
    /// The score of the best line, from Black's side.
    pub eval: Eval,
    pub depth: i32,
    pub seldepth: i32,
    pub nodes: u64,
    /// The engine's move (`bestmove`); `None` when it has none (mated, or declaring a win).
    pub best: Option<Move>,
    /// The lines by `multipv`, the best first; empty when the position has no move to search.
    pub lines: Vec<Line>,
}

impl PositionReport {
    /// The best line's moves.
    pub fn pv(&self) -> &[Move] {
        self.lines.first().map_or(&[], |l| &l.pv)
    }
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Severity {
    /// The severity of a loss, by the thresholds above.
    pub fn of_loss(loss: i32) -> Option<Severity> {
        match loss {
            l if l >= BLUNDER => Some(Severity::Blunder),
            l if l >= MISTAKE => Some(Severity::Mistake),
            l if l >= INACCURACY => Some(Severity::Inaccuracy),
            _ => None,
        }
    }

    /// The word in Japanese, as GUIs mark moves: 疑問手, 悪手, 大悪手.
    pub fn japanese(self) -> &'static str {
        match self {
            Severity::Inaccuracy => "疑問手",
            Severity::Mistake => "悪手",
            Severity::Blunder => "大悪手",
        }
    }

    pub fn english(self) -> &'static str {
        match self {
            Severity::Inaccuracy => "inaccuracy",
            Severity::Mistake => "mistake",
            Severity::Blunder => "blunder",
        }
    }
}

/// The judgement of one move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// 1 for the first move.
    pub ply: usize,
    pub mv: Move,
    pub mover: Color,
    /// The engine's move in the position before, when it differs from the move played.
    pub better: Option<Move>,
    /// Centipawns lost, from the mover's side (see the module text).
    pub loss: i32,
    pub severity: Option<Severity>,
}

/// One side's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    pub moves: usize,
    pub total_loss: i64,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

impl SideSummary {
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss as f64 / self.moves as f64
        }
    }
}

/// A whole game analysed.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub record: GameRecord,
    /// The engine's `id name`.
    pub engine: String,
    pub options: AnalyzeOptions,
    /// Every position: the start, then the one after each move.
    pub positions: Vec<PositionReport>,
    pub moves: Vec<MoveReport>,
}

impl Analysis {
    /// Totals for Black (index 0) and White (index 1).
    pub fn summary(&self) -> [SideSummary; 2] {
        let mut s = [SideSummary::default(); 2];
        for m in &self.moves {
            let side = &mut s[m.mover.index()];
            side.moves += 1;
            side.total_loss += m.loss as i64;
            match m.severity {
                Some(Severity::Inaccuracy) => side.inaccuracies += 1,
                Some(Severity::Mistake) => side.mistakes += 1,
                Some(Severity::Blunder) => side.blunders += 1,
                None => {}
            }
        }
        s
    }
}

/// The summary in a few lines for people: each side's average loss and counts, and the
/// thresholds they were counted by.
pub fn summary_text(a: &Analysis) -> String {
    let s = a.summary();
    let mut t = format!(
        "解析：{} ({}); 疑問手 {INACCURACY}以上, 悪手 {MISTAKE}以上, 大悪手 {BLUNDER}以上 (評価値の損失, ±{LOSS_CLIP}で打ち切り)\n",
        a.engine,
        a.options.go_command()
    );
    for (c, name) in [
        (Color::Black, &a.record.black),
        (Color::White, &a.record.white),
    ] {
        let side = &s[c.index()];
        let who = if c == Color::Black {
            "先手"
        } else {
            "後手"
        };
        let name = if name.is_empty() {
            String::new()
        } else {
            format!(" {name}")
        };
        t.push_str(&format!(
            "{who}{name}: 平均損失 {:.1}, 疑問手 {}, 悪手 {}, 大悪手 {} ({} 手)\n",
            side.average_loss(),
            side.inaccuracies,
            side.mistakes,
            side.blunders,
            side.moves
        ));
    }
    t
}

/// Reads a record: CSA, KIF or KI2 (by `extension` when it names one, else by the look of the
/// text), or a line `startpos moves ...` / `sfen ... moves ...` (with or without `position`).
///
/// # Errors
/// [`Error::Record`] when the text is none of these or a move in it is illegal.
pub fn read_record(text: &str, extension: Option<&str>) -> Result<GameRecord, Error> {
    let format = extension
        .and_then(Format::from_extension)
        .or_else(|| Format::sniff(text));
    let rec = match format {
        Some(f) => f.read(text).map_err(Error::Record)?,
        None => {
            let line = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with('#'))
                .ok_or_else(|| Error::Record("the record is empty".into()))?;
            let pos = Position::from_usi(line).map_err(|e| {
                Error::Record(format!(
                    "not a CSA, KIF or KI2 record, nor a 'startpos moves ...' line: {e}"
                ))
            })?;
            let (start, moves) = pos.start_and_moves();
            let mut rec = GameRecord::empty();
            rec.start_sfen = start.to_sfen();
            rec.moves = moves
                .into_iter()
                .map(|mv| RecordedMove {
                    mv,
                    time_ms: 0,
                    comment: None,
                })
                .collect();
            rec
        }
    };
    rec.final_position().map_err(Error::Record)?;
    Ok(rec)
}

/// Analyses every position of `record` with Hayate's USI engine, calling `progress(done,
/// total)` after each search (and once with `done = 0` before the first).
///
/// # Errors
/// [`Error::Record`] when the record cannot be replayed; [`Error::Engine`] when the engine
/// does not answer as USI says.
pub fn analyze(
    record: &GameRecord,
    options: &AnalyzeOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, Error> {
    let start =
        Position::from_sfen(&record.start_sfen).map_err(|e| Error::Record(e.to_string()))?;
    record.final_position().map_err(Error::Record)?;
    let session = UsiSession::start()?;
    session.send("usi")?;
    let mut engine_name = String::from("Hayate");
    session.read_until("usiok", &mut |l| {
        if let Some(name) = l.strip_prefix("id name ") {
            engine_name = name.trim().to_string();
        }
    })?;
    for (name, value) in [
        ("USI_Hash", options.hash_mb.to_string()),
        ("Threads", options.threads.max(1).to_string()),
        ("MultiPV", options.multipv.max(1).to_string()),
        ("USI_Ponder", "false".into()),
        // The analysis wants the search's view of every position, not the book's move.
        ("USI_OwnBook", "false".into()),
    ] {
        session.send(&format!("setoption name {name} value {value}"))?;
    }
    session.send("isready")?;
    session.read_until("readyok", &mut |_| {})?;
    session.send("usinewgame")?;

    let total = record.moves.len() + 1;
    progress(0, total);
    let go = options.go_command();
    let mut pos = start;
    let mut usi_moves = String::new();
    let mut positions = Vec::with_capacity(total);
    for ply in 0..total {
        if ply > 0 {
            let m = record.moves[ply - 1].mv;
            usi_moves.push_str(&format!(" {m}"));
            pos.do_move(m);
        }
        let moves = if ply > 0 {
            format!(" moves{usi_moves}")
        } else {
            String::new()
        };
        session.send(&format!("position sfen {}{moves}", record.start_sfen))?;
        session.send(&go)?;
        let mut infos: Vec<InfoLine> = Vec::new();
        let reply = session.read_until("bestmove", &mut |l| {
            if let Some(i) = parse_info(l) {
                infos.push(i);
            }
        })?;
        let best = parse_bestmove(&reply)
            .ok_or_else(|| Error::Engine(format!("malformed reply '{reply}'")))?;
        positions.push(position_report(&pos, ply, &infos, &best)?);
        progress(ply + 1, total);
    }
    drop(session);
    let moves = judge(record, &positions);
    Ok(Analysis {
        record: record.clone(),
        engine: engine_name,
        options: options.clone(),
        positions,
        moves,
    })
}

/// The report of one position from the `info` lines and `bestmove` of its search.
fn position_report(
    pos: &Position,
    ply: usize,
    infos: &[InfoLine],
    best: &BestMove,
) -> Result<PositionReport, Error> {
    let stm = pos.side_to_move();
    // The last report of each line is the deepest.
    let mut by_pv: Vec<&InfoLine> = Vec::new();
    for i in infos {
        match by_pv.iter_mut().find(|l| l.multipv == i.multipv) {
            Some(l) => *l = i,
            None => by_pv.push(i),
        }
    }
    by_pv.sort_by_key(|l| l.multipv);
    let lines: Vec<Line> = by_pv
        .iter()
        .map(|l| Line {
            eval: Eval::from_usi(l.score, stm),
            pv: legal_prefix(pos, &l.pv),
        })
        .collect();
    let best_move = match best {
        BestMove::Move(text) => Some(pos.parse_usi_move(text).map_err(|e| {
            Error::Engine(format!("bestmove '{text}' after ply {ply} is illegal: {e}"))
        })?),
        _ => None,
    };
    let eval = match (lines.first(), best) {
        (Some(l), _) => l.eval,
        // No move to search: mated (or stalemated, which loses in shogi too) ...
        (None, BestMove::Resign) => Eval::Mate {
            winner: !stm,
            plies: 0,
        },
        // ... or a correct entering-king declaration.
        (None, BestMove::Win) => Eval::Mate {
            winner: stm,
            plies: 0,
        },
        (None, BestMove::Move(m)) => {
            return Err(Error::Engine(format!(
                "no score for the position after ply {ply} (bestmove {m})"
            )))
        }
    };
    let main = by_pv.first();
    Ok(PositionReport {
        ply,
        side_to_move: stm,
        eval,
        depth: main.map_or(0, |l| l.depth),
        seldepth: main.map_or(0, |l| l.seldepth),
        nodes: infos.iter().map(|i| i.nodes).max().unwrap_or(0),
        best: best_move,
        lines,
    })
}

/// The moves of a USI line up to the first that is not legal where it stands.
fn legal_prefix(pos: &Position, pv: &[String]) -> Vec<Move> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for text in pv {
        let Ok(m) = p.parse_usi_move(text) else { break };
        p.do_move(m);
        out.push(m);
    }
    out
}

/// Each move's loss and severity, from the searches before and after it.
fn judge(record: &GameRecord, positions: &[PositionReport]) -> Vec<MoveReport> {
    record
        .moves
        .iter()
        .enumerate()
        .map(|(i, rm)| {
            let (before, after) = (&positions[i], &positions[i + 1]);
            let mover = before.side_to_move;
            let clip = |v: i32| v.clamp(-LOSS_CLIP, LOSS_CLIP);
            let engine_choice = before.best == Some(rm.mv);
            let loss = if engine_choice {
                0
            } else {
                (clip(before.eval.cp_for(mover)) - clip(after.eval.cp_for(mover))).max(0)
            };
            MoveReport {
                ply: i + 1,
                mv: rm.mv,
                mover,
                better: before.best.filter(|_| !engine_choice),
                loss,
                severity: Severity::of_loss(loss),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_from_usi_scores() {
        assert_eq!(Eval::from_usi(Score::Cp(50), Color::White), Eval::Cp(-50));
        assert_eq!(
            Eval::from_usi(Score::Mate(3), Color::White),
            Eval::Mate {
                winner: Color::White,
                plies: 3
            }
        );
        assert_eq!(
            Eval::from_usi(Score::Mate(-2), Color::White).cp(),
            MATE_CP,
            "White is mated: Black wins"
        );
        assert_eq!(Eval::Cp(0).situation(), "互角");
        assert_eq!(Eval::Cp(-450).situation(), "後手有利");
        assert_eq!(Eval::Cp(1500).situation(), "先手勝勢");
    }

    #[test]
    fn severities_by_threshold() {
        assert_eq!(Severity::of_loss(99), None);
        assert_eq!(Severity::of_loss(100), Some(Severity::Inaccuracy));
        assert_eq!(Severity::of_loss(300), Some(Severity::Mistake));
        assert_eq!(Severity::of_loss(5000), Some(Severity::Blunder));
    }

    #[test]
    fn go_commands() {
        let mut o = AnalyzeOptions::default();
        assert_eq!(o.go_command(), "go movetime 1000");
        o.nodes = Some(5000);
        o.depth = Some(8);
        assert_eq!(o.go_command(), "go nodes 5000 depth 8");
    }
}
