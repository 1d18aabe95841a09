//! The analysis as one JSON object, for scripts: the same data as the KIF, with moves in USI
//! and in Japanese. Written by hand (the crate has no serde); strings are escaped as RFC 8259
//! asks.
//!
//! ```text
//! { "engine", "go", "thresholds": {...}, "start_sfen", "black", "white",
//!   "positions": [ { "ply", "side_to_move", "score": {"cp"} | {"mate", "winner"},
//!                    "score_cp", "situation", "depth", "seldepth", "nodes", "best",
//!                    "pv", "pv_ja", "lines": [ {"multipv", "score_cp", "pv"} ] } ],
//!   "moves": [ { "ply", "side", "move", "move_ja", "better", "better_ja", "loss",
//!                "severity", "label" } ],
//!   "summary": { "black": {...}, "white": {...} } }
//! ```
//! `positions[0]` is the start, `positions[i]` the position after move `i`; scores are from
//! Black's side, a mate counting as ±`MATE_CP` in `score_cp`.

use super::{Analysis, Eval, SideSummary, BLUNDER, INACCURACY, LOSS_CLIP, MATE_CP, MISTAKE};
use crate::json::quote;
use crate::kifu::ki2::{ki2_move, write_line};
use crate::position::Position;
use crate::types::{Color, Move};

fn side(c: Color) -> &'static str {
    if c == Color::Black {
        "black"
    } else {
        "white"
    }
}

fn usi_list(moves: &[Move]) -> String {
    let items: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
    format!("[{}]", items.join(","))
}

fn opt_move(m: Option<Move>) -> String {
    m.map_or("null".into(), |m| format!("\"{m}\""))
}

fn score(e: Eval) -> String {
    match e {
        Eval::Cp(v) => format!("{{\"cp\":{v}}}"),
        Eval::Mate { winner, plies } => {
            format!("{{\"mate\":{plies},\"winner\":\"{}\"}}", side(winner))
        }
    }
}

fn side_summary(s: &SideSummary) -> String {
    format!(
        "{{\"moves\":{},\"average_loss\":{:.1},\"inaccuracies\":{},\"mistakes\":{},\"blunders\":{}}}",
        s.moves,
        s.average_loss(),
        s.inaccuracies,
        s.mistakes,
        s.blunders
    )
}

/// The analysis as JSON (one object, pretty enough to read: one position or move a line).
///
/// # Errors
/// When the record cannot be replayed (not from [`super::analyze`]).
pub fn to_json(a: &Analysis) -> Result<String, String> {
    let mut positions = Vec::with_capacity(a.positions.len());
    let mut moves = Vec::with_capacity(a.moves.len());
    let mut pos = Position::from_sfen(&a.record.start_sfen).map_err(|e| e.to_string())?;
    let mut prev_to = None;
    for (i, r) in a.positions.iter().enumerate() {
        if i > 0 {
            let m = &a.moves[i - 1];
            let before = pos.clone();
            let better_ja = match m.better {
                Some(b) => quote(&write_line(&before, &[b])?),
                None => "null".into(),
            };
            moves.push(format!(
                "{{\"ply\":{},\"side\":\"{}\",\"move\":\"{}\",\"move_ja\":{},\"better\":{},\
                 \"better_ja\":{better_ja},\"loss\":{},\"severity\":{},\"label\":{}}}",
                m.ply,
                side(m.mover),
                m.mv,
                quote(&ki2_move(&before, m.mv, prev_to)?),
                opt_move(m.better),
                m.loss,
                m.severity
                    .map_or("null".into(), |s| format!("\"{}\"", s.english())),
                m.severity.map_or("null".into(), |s| quote(s.japanese())),
            ));
            prev_to = Some(m.mv.to());
            pos.do_move(m.mv);
        }
        let lines: Vec<String> = r
            .lines
            .iter()
            .enumerate()
            .map(|(k, l)| {
                format!(
                    "{{\"multipv\":{},\"score\":{},\"score_cp\":{},\"pv\":{}}}",
                    k + 1,
                    score(l.eval),
                    l.eval.cp(),
                    usi_list(&l.pv)
                )
            })
            .collect();
        positions.push(format!(
            "{{\"ply\":{},\"side_to_move\":\"{}\",\"score\":{},\"score_cp\":{},\"situation\":{},\
             \"depth\":{},\"seldepth\":{},\"nodes\":{},\"best\":{},\"pv\":{},\"pv_ja\":{},\
             \"lines\":[{}]}}",
            r.ply,
            side(r.side_to_move),
            score(r.eval),
            r.eval.cp(),
            quote(r.eval.situation()),
            r.depth,
            r.seldepth,
            r.nodes,
            opt_move(r.best),
            usi_list(r.pv()),
            quote(&write_line(&pos, r.pv())?),
            lines.join(",")
        ));
    }
    let s = a.summary();
    let o = &a.options;
    Ok(format!(
        "{{\"engine\":{},\"go\":{},\"multipv\":{},\"threads\":{},\"hash_mb\":{},\
         \"thresholds\":{{\"inaccuracy\":{INACCURACY},\"mistake\":{MISTAKE},\"blunder\":{BLUNDER},\
         \"loss_clip\":{LOSS_CLIP},\"mate_cp\":{MATE_CP}}},\n\"start_sfen\":{},\"black\":{},\"white\":{},\
         \n\"positions\":[\n{}\n],\n\"moves\":[\n{}\n],\n\"summary\":{{\"black\":{},\"white\":{}}}}}\n",
        quote(&a.engine),
        quote(&o.go_command()),
        o.multipv,
        o.threads,
        o.hash_mb,
        quote(&a.record.start_sfen),
        quote(&a.record.black),
        quote(&a.record.white),
        positions.join(",\n"),
        moves.join(",\n"),
        side_summary(&s[0]),
        side_summary(&s[1]),
    ))
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quote("a\"b\\c\nd\u{1}▲"), "\"a\\\"b\\\\c\\nd\\u0001▲\"");
    }
}
