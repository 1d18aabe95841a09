//! `bench`: a fixed search over fixed positions, one thread, 16 MB hash. The node count is a
//! signature of the search's behaviour: a change meant to be a pure refactor must not move it.

use std::sync::atomic::Ordering;
use std::time::Instant;

use std::sync::Arc;

use crate::eval::nnue::Network;
use crate::position::Position;
use crate::search::{self, Histories, Limits, SearchOptions, Shared};
use crate::tt::TranspositionTable;

pub const BENCH_DEPTH: i32 = 9;

pub const POSITIONS: [&str; 8] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r7/p1ppp1bpp/1p3pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9",
    "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
    "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
    "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
    "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 11",
];

/// Runs the bench with the given evaluation (`None`: the hand-written one), writing lines
/// through `say`; returns the node count.
pub fn run(say: &dyn Fn(&str), net: Option<Arc<Network>>) -> u64 {
    let options = SearchOptions {
        threads: 1,
        net,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(BENCH_DEPTH),
        ..Limits::default()
    };
    let tt = TranspositionTable::new(16);
    let start = Instant::now();
    let mut total = 0;
    for (i, sfen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_sfen(sfen).expect("bench positions parse");
        tt.clear();
        // Each position starts from nothing learnt, like a new game.
        let histories = Histories::default();
        let shared = Shared::default();
        let best = search::search(&pos, &limits, &options, &tt, &histories, &shared, &|_| {});
        let nodes = shared.nodes.load(Ordering::Relaxed);
        total += nodes;
        say(&format!(
            "position {}/{}: {nodes} nodes, {best:?}",
            i + 1,
            POSITIONS.len()
        ));
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    say("===========================");
    say(&format!("Total time (ms) : {ms}"));
    say(&format!("Nodes searched  : {total}"));
    say(&format!("Nodes/second    : {}", total * 1000 / ms));
    total
}
