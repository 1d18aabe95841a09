//! Perft: the number of leaf nodes of the legal move tree, for testing and timing the move
//! generator.

use std::io;
use std::time::Instant;

use crate::movegen::{generate_legal, MoveList};
use crate::position::Position;
use crate::types::Move;

/// Counts the leaves `depth` plies down. The last ply is counted by generating the legal moves
/// (bulk counting) rather than playing each one.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One move list per ply, made once: building a list on every node costs a 2 KB memset
    // (LLVM turns the uninitialised array into zeroes), about 5% of the time.
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists)
}

fn perft_with(pos: &mut Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let (list, deeper) = lists.split_first_mut().expect("one list per ply");
    list.clear();
    generate_legal(pos, list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.do_move(m);
        nodes += perft_with(pos, depth - 1, deeper);
        pos.undo_move(m);
    }
    nodes
}

/// Counts the leaves by playing and taking back every move, leaves included. Slower; it
/// exercises `do_move` and `undo_move` on every node.
pub fn perft_play_leaves(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.do_move(m);
        nodes += perft_play_leaves(pos, depth - 1);
        pos.undo_move(m);
    }
    nodes
}

/// The leaf count below each root move, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in list.iter() {
        pos.do_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.undo_move(m);
        out.push((m, n));
    }
    out
}

/// Runs perft with a per-root-move breakdown and writes the report lines.
pub fn write_divide(out: &mut impl io::Write, pos: &mut Position, depth: u32) -> io::Result<u64> {
    let start = Instant::now();
    let mut total = 0;
    for (m, n) in divide(pos, depth) {
        writeln!(out, "{m}: {n}")?;
        total += n;
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(
        out,
        "Time: {} ms, {:.0} nodes/second (leaves counted by generating the legal moves at depth 1)",
        (secs * 1000.0).round(),
        total as f64 / secs.max(1e-9)
    )?;
    out.flush()?;
    Ok(total)
}
