//! The evaluation graph as a hand-written SVG: the score after each move from Black's side
//! (up: Black ahead), clipped to ±[`DISPLAY_CLIP`] for display, one point a move. A mate is
//! drawn at the edge with `詰`; inaccuracies, mistakes and blunders are larger points in yellow,
//! orange and red. Each point has a `<title>` (a tooltip in browsers) with the move, the score
//! and the verdict.

use super::{Analysis, Eval, Severity};
use crate::kifu::ki2::ki2_move;
use crate::position::Position;

/// The score shown at the top and bottom edges of the graph.
pub const DISPLAY_CLIP: i32 = 2000;

const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 36.0;
const PLOT_H: f64 = 260.0;

/// Text for XML character data and attribute values.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The graph as SVG text.
///
/// # Errors
/// When the record cannot be replayed (not from [`super::analyze`]).
pub fn to_svg(a: &Analysis) -> Result<String, String> {
    let n = a.moves.len();
    let plot_w = (n as f64 * 6.0).max(720.0);
    let (w, h) = (LEFT + plot_w + RIGHT, TOP + PLOT_H + BOTTOM);
    let x = |ply: usize| LEFT + ply as f64 * plot_w / n.max(1) as f64;
    let y = |cp: i32| {
        let c = cp.clamp(-DISPLAY_CLIP, DISPLAY_CLIP) as f64;
        TOP + (DISPLAY_CLIP as f64 - c) / (2.0 * DISPLAY_CLIP as f64) * PLOT_H
    };
    let mut s = String::new();
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\" font-size=\"11\">\n"
    ));
    let name = |n: &str, side: &str| {
        if n.is_empty() {
            side.to_string()
        } else {
            n.to_string()
        }
    };
    let title = format!(
        "評価値 (先手から) ▲{} △{} — {}",
        name(&a.record.black, "先手"),
        name(&a.record.white, "後手"),
        a.engine
    );
    s.push_str(&format!("<title>{}</title>\n", escape(&title)));
    s.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{w:.0}\" height=\"{h:.0}\" fill=\"#ffffff\"/>\n"
    ));
    s.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"16\" font-size=\"12\">{}</text>\n",
        escape(&title)
    ));
    // The score grid, with Black's half shaded.
    s.push_str(&format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w:.1}\" height=\"{:.1}\" fill=\"#f4f4f4\"/>\n",
        PLOT_H / 2.0
    ));
    s.push_str("<g class=\"grid\" stroke=\"#cccccc\" stroke-width=\"1\">\n");
    for cp in [-2000, -1000, 0, 1000, 2000] {
        let stroke = if cp == 0 { " stroke=\"#888888\"" } else { "" };
        s.push_str(&format!(
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\"{stroke}/>\n",
            y(cp),
            LEFT + plot_w
        ));
    }
    for ply in (0..=n).step_by(10) {
        s.push_str(&format!(
            "<line x1=\"{0:.1}\" y1=\"{TOP}\" x2=\"{0:.1}\" y2=\"{1:.1}\"/>\n",
            x(ply),
            TOP + PLOT_H
        ));
    }
    s.push_str("</g>\n<g class=\"labels\" fill=\"#444444\">\n");
    for cp in [-2000, -1000, 0, 1000, 2000] {
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            LEFT - 6.0,
            y(cp) + 4.0,
            if cp > 0 {
                format!("+{cp}")
            } else {
                cp.to_string()
            }
        ));
    }
    for ply in (0..=n).step_by(10) {
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{ply}</text>\n",
            x(ply),
            TOP + PLOT_H + 16.0
        ));
    }
    s.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\">手数 (±{DISPLAY_CLIP}で表示を打ち切り) \
         <tspan fill=\"#e0b000\">●</tspan>疑問手 <tspan fill=\"#ff7f00\">●</tspan>悪手 \
         <tspan fill=\"#d00000\">●</tspan>大悪手</text>\n",
        LEFT,
        TOP + PLOT_H + 30.0
    ));
    s.push_str("</g>\n");
    // The line, then a point for each move on top of it.
    let points: Vec<String> = a.positions[1..]
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{:.1},{:.1}", x(i + 1), y(r.eval.cp())))
        .collect();
    s.push_str(&format!(
        "<polyline class=\"eval\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1.5\" points=\"{}\"/>\n",
        points.join(" ")
    ));
    s.push_str("<g class=\"moves\">\n");
    let mut pos = Position::from_sfen(&a.record.start_sfen).map_err(|e| e.to_string())?;
    let mut prev_to = None;
    for (m, r) in a.moves.iter().zip(&a.positions[1..]) {
        let text = ki2_move(&pos, m.mv, prev_to)?;
        prev_to = Some(m.mv.to());
        pos.do_move(m.mv);
        let (class, fill, radius) = match m.severity {
            None => ("move", "#333333", 2.5),
            Some(Severity::Inaccuracy) => ("move inaccuracy", "#e0b000", 4.0),
            Some(Severity::Mistake) => ("move mistake", "#ff7f00", 4.5),
            Some(Severity::Blunder) => ("move blunder", "#d00000", 5.0),
        };
        let score = match r.eval {
            Eval::Mate { plies: 0, .. } => "詰み".to_string(),
            Eval::Mate { plies, .. } => format!("{plies}手詰"),
            Eval::Cp(v) => v.to_string(),
        };
        let verdict = m
            .severity
            .map_or(String::new(), |s| format!(" {}", s.japanese()));
        let (cx, cy) = (x(m.ply), y(r.eval.cp()));
        s.push_str(&format!(
            "<circle class=\"{class}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{radius}\" fill=\"{fill}\" \
             data-ply=\"{}\" data-score=\"{}\"><title>{}</title></circle>\n",
            m.ply,
            r.eval.cp(),
            escape(&format!("{} {text} {score}{verdict}", m.ply))
        ));
        if let Eval::Mate { .. } = r.eval {
            let below = if cy < TOP + PLOT_H / 2.0 { 14.0 } else { -6.0 };
            s.push_str(&format!(
                "<text class=\"mate\" x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#d00000\">詰</text>\n",
                cy + below
            ));
        }
    }
    s.push_str("</g>\n</svg>\n");
    Ok(s)
}
