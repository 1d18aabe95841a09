//! The analysis as a KIF record, in the comment convention ShogiHome reads and writes for its
//! own analysis. A move's comment holds the search of the position *after* it (ShogiHome reads
//! `#読み筋=` from the position the comment belongs to), so the engine's better move at a
//! mistake is the first move of the line on the comment before; the mistake line repeats it:
//!
//! ```text
//!   12 ５五角(22)   ( 0:00/00:00:00)
//! *【悪手】最善手=△３三角 損失=420
//! *先手優勢
//! *#評価値=655
//! *#読み筋=▲５六歩△４四角▲３五歩
//! *#深さ=12
//! *#ノード数=100000
//! *#エンジン=Hayate 0.1.0
//! ```
//!
//! A mate adds ShogiHome's `#詰み=先手勝ち:7手` line before the score, which is then
//! ±[`MATE_CP`](super::MATE_CP). The start position's search comes before the first move,
//! where KIF keeps the start position's comment. The summary ends the file as `#` lines, which
//! readers skip.

use super::{summary_text, Analysis, Eval, PositionReport};
use crate::kifu::ki2::write_line;
use crate::position::Position;
use crate::types::Color;

/// The lines of one position's comment; `mistake` is the line that marks the move before it.
fn comment(
    a: &Analysis,
    pos: &Position,
    r: &PositionReport,
    mistake: Option<String>,
) -> Vec<String> {
    let mut lines: Vec<String> = mistake.into_iter().collect();
    if let Eval::Mate { winner, plies } = r.eval {
        let side = if winner == Color::Black {
            "先手勝ち"
        } else {
            "後手勝ち"
        };
        // ShogiHome writes no length for a mate it cannot count; one on the board is that.
        lines.push(if plies == 0 {
            format!("#詰み={side}")
        } else {
            format!("#詰み={side}:{plies}手")
        });
    }
    lines.push(r.eval.situation().to_string());
    lines.push(format!("#評価値={}", r.eval.cp()));
    let pv = write_line(pos, r.pv()).unwrap_or_default();
    if !pv.is_empty() {
        lines.push(format!("#読み筋={pv}"));
    }
    if r.depth > 0 {
        lines.push(format!("#深さ={}", r.depth));
    }
    if r.nodes > 0 {
        lines.push(format!("#ノード数={}", r.nodes));
    }
    for (i, l) in r.lines.iter().enumerate().skip(1) {
        lines.push(format!(
            "候補{}：評価値={} 読み筋={}",
            i + 1,
            l.eval.cp(),
            write_line(pos, &l.pv).unwrap_or_default()
        ));
    }
    lines.push(format!("#エンジン={}", a.engine));
    lines
}

/// The record as KIF with every position's search in ShogiHome's comments, mistakes marked
/// with the better move, and the summary at the end.
///
/// # Errors
/// When the record cannot be written (a move that is not legal: not from [`super::analyze`]).
pub fn to_kif(a: &Analysis) -> Result<String, String> {
    let mut pos = Position::from_sfen(&a.record.start_sfen).map_err(|e| e.to_string())?;
    let mut notes = Vec::with_capacity(a.positions.len());
    notes.push(comment(a, &pos, &a.positions[0], None));
    for (m, r) in a.moves.iter().zip(&a.positions[1..]) {
        let before = pos.clone();
        pos.do_move(m.mv);
        let mistake = m.severity.map(|s| {
            let better = m
                .better
                .and_then(|b| write_line(&before, &[b]).ok())
                .unwrap_or_default();
            format!("【{}】最善手={better} 損失={}", s.japanese(), m.loss)
        });
        notes.push(comment(a, &pos, r, mistake));
    }
    let mut s = crate::kifu::kif::write_annotated(&a.record, &notes)?;
    for line in summary_text(a).lines() {
        s.push_str(&format!("# {line}\n"));
    }
    Ok(s)
}
