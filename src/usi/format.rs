//! `info` lines.

use crate::search::{Info, Score};

pub fn format_info(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} score {score} multipv {} nodes {} nps {nps} time {} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.time_ms,
        info.hashfull,
        pv.join(" ")
    )
}
