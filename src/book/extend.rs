//! Growing a book by the engine's own search: find the most promising leaves (positions just
//! past the book along its best lines), search each to a fixed depth, add the best few moves
//! with their values, and back values up the tree by minimax, so that every move's value is
//! that of the best line the book knows below it.
//!
//! The book itself is the only state: the caller saves it every so often, and a rerun on the
//! saved book carries on where the last one stopped.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use super::db::MemoryBook;
use super::{position_key, BookEntry, BookMove};
use crate::position::Position;
use crate::search::{self, Info, Limits, Score, SearchOptions, Shared, VALUE_MATE};
use crate::tt::TranspositionTable;
use crate::types::Move;

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct ExtendOptions {
    /// Search depth per position.
    pub depth: i32,
    /// Or a time per position in ms (the depth still caps it).
    pub movetime: Option<u64>,
    /// Moves added per searched position (its best ones, by MultiPV).
    pub multipv: usize,
    /// Leaves are followed along moves within this many centipawns of the best.
    pub diff: i32,
    /// No position deeper than this (game ply) is searched.
    pub max_ply: u32,
    /// Positions to search in this run.
    pub positions: usize,
    pub hash_mb: usize,
}

impl Default for ExtendOptions {
    fn default() -> ExtendOptions {
        ExtendOptions {
            depth: 12,
            movetime: None,
            multipv: 2,
            diff: 40,
            max_ply: 24,
            positions: 100,
            hash_mb: 64,
        }
    }
}

/// A score as a book value: mates become large centipawn values that still sort right.
fn book_value(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => VALUE_MATE - n,
        Score::Mate(n) => -VALUE_MATE - n,
    }
}

/// The engine's search of one position: the best `multipv` moves with value, depth and reply.
/// With `only`, just those moves are searched (to value the moves a record book brought in).
pub fn search_position(
    pos: &Position,
    opts: &ExtendOptions,
    only: &[Move],
    tt: &TranspositionTable,
) -> Vec<BookMove> {
    let limits = Limits {
        depth: Some(opts.depth),
        movetime: opts.movetime,
        searchmoves: only.to_vec(),
        ..Limits::default()
    };
    let options = SearchOptions {
        threads: 1,
        multipv: if only.is_empty() {
            opts.multipv.max(1)
        } else {
            only.len()
        },
        ..SearchOptions::default()
    };
    let shared = Shared::default();
    if let (Some(ms), Ok(mut a)) = (opts.movetime, shared.allotment.lock()) {
        *a = Some((ms, ms));
    }
    let lines: std::sync::Mutex<HashMap<usize, Info>> = Default::default();
    let report = |info: &Info| {
        if let Ok(mut l) = lines.lock() {
            l.insert(info.multipv, info.clone());
        }
    };
    // Each position from nothing learnt, so that a book does not depend on the order of work.
    let histories = search::Histories::default();
    search::search(pos, &limits, &options, tt, &histories, &shared, &report);
    let lines = lines.into_inner().unwrap_or_default();
    let mut moves: Vec<BookMove> = lines
        .into_values()
        .filter_map(|info| {
            let mv = *info.pv.first()?;
            Some(BookMove {
                ponder: info.pv.get(1).copied(),
                value: Some(book_value(info.score)),
                depth: Some(info.depth),
                ..BookMove::new(mv)
            })
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.value));
    moves.dedup_by_key(|m| m.mv);
    moves
}

/// Sets every move's value to minus the value of the position it leads to, where the book
/// knows that position, deepest first; returns the number of positions valued.
pub fn back_up(book: &mut MemoryBook) -> usize {
    let keys: Vec<String> = book.positions.keys().cloned().collect();
    let mut memo: HashMap<String, Option<i32>> = HashMap::new();
    let mut on_path = HashSet::new();
    for k in &keys {
        value_of(book, k, &mut memo, &mut on_path);
    }
    memo.values().filter(|v| v.is_some()).count()
}

fn value_of(
    book: &mut MemoryBook,
    key: &str,
    memo: &mut HashMap<String, Option<i32>>,
    on_path: &mut HashSet<String>,
) -> Option<i32> {
    if let Some(v) = memo.get(key) {
        return *v;
    }
    // A cycle (a repetition inside the book) gives no information along it.
    if !on_path.insert(key.to_string()) {
        return None;
    }
    let entry = book.positions.get(key)?.clone();
    let pos = Position::from_sfen(&format!("{key} {}", entry.ply.max(1))).ok();
    let mut updated = entry.moves.clone();
    if let Some(pos) = pos {
        for m in &mut updated {
            if !pos.is_legal(m.mv) {
                continue;
            }
            let mut child = pos.clone();
            child.do_move(m.mv);
            let ck = position_key(&child);
            if book.positions.contains_key(&ck) {
                if let Some(v) = value_of(book, &ck, memo, on_path) {
                    m.value = Some(-v);
                }
            }
        }
    }
    let best = updated.iter().filter_map(|m| m.value).max();
    if let Some(e) = book.positions.get_mut(key) {
        e.moves = updated;
    }
    on_path.remove(key);
    memo.insert(key.to_string(), best);
    best
}

/// A position waiting to be searched, ranked by how far its line strays from the book's best
/// (lower first) and then by ply.
struct Leaf {
    stray: i32,
    pos: Position,
    /// Book moves here that have no value yet (from game records): searched on their own.
    unvalued: Vec<Move>,
}

/// The leaves below `roots` along moves within `opts.diff` of the best.
fn leaves(book: &MemoryBook, roots: &[Position], opts: &ExtendOptions) -> Vec<Leaf> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for root in roots {
        walk(book, root.clone(), 0, opts, &mut seen, &mut out);
    }
    out.sort_by_key(|l| (l.stray, l.pos.game_ply()));
    out
}

fn walk(
    book: &MemoryBook,
    pos: Position,
    stray: i32,
    opts: &ExtendOptions,
    seen: &mut HashSet<String>,
    out: &mut Vec<Leaf>,
) {
    if pos.game_ply() > opts.max_ply {
        return;
    }
    let key = position_key(&pos);
    if !seen.insert(key.clone()) {
        return;
    }
    let Some(entry) = book.positions.get(&key) else {
        let mut list = crate::movegen::MoveList::new();
        crate::movegen::generate_legal(&pos, &mut list);
        if !list.is_empty() {
            out.push(Leaf {
                stray,
                pos,
                unvalued: Vec::new(),
            });
        }
        return;
    };
    let unvalued: Vec<Move> = entry
        .moves
        .iter()
        .filter(|m| m.value.is_none() && pos.is_legal(m.mv))
        .map(|m| m.mv)
        .collect();
    if !unvalued.is_empty() {
        out.push(Leaf {
            stray,
            pos: pos.clone(),
            unvalued,
        });
        return;
    }
    let Some(best) = entry.moves.iter().filter_map(|m| m.value).max() else {
        return;
    };
    for m in &entry.moves {
        let v = m.value.unwrap_or(i32::MIN);
        if v < best - opts.diff || !pos.is_legal(m.mv) {
            continue;
        }
        let mut child = pos.clone();
        child.do_move(m.mv);
        walk(book, child, stray + (best - v), opts, seen, out);
    }
}

/// Extends `book` by searching up to `opts.positions` leaves below `roots`. `save` is called
/// after each search with the number done (it decides whether to write the book now);
/// `progress` gets the number done and a line per search.
pub fn extend(
    book: &mut MemoryBook,
    roots: &[Position],
    opts: &ExtendOptions,
    progress: &mut dyn FnMut(usize, &str),
    save: &mut dyn FnMut(&MemoryBook, usize) -> Result<(), String>,
) -> Result<usize, String> {
    let tt = TranspositionTable::new(opts.hash_mb.max(1));
    let mut done = 0;
    while done < opts.positions {
        back_up(book);
        let batch = leaves(book, roots, opts);
        if batch.is_empty() {
            progress(done, "no leaves left within the ply and value limits");
            break;
        }
        // A few leaves per round: the values backed up after them redirect the next round.
        for leaf in batch.into_iter().take(4) {
            if done >= opts.positions {
                break;
            }
            let start = Instant::now();
            tt.clear();
            let mut found = search_position(&leaf.pos, opts, &[], &tt);
            if !leaf.unvalued.is_empty() {
                found.extend(search_position(&leaf.pos, opts, &leaf.unvalued, &tt));
            }
            let key = position_key(&leaf.pos);
            let best = found
                .first()
                .map(|m| format!("{} {}", m.mv, m.value.unwrap_or(0)))
                .unwrap_or_else(|| "no move".into());
            book.add(
                key.clone(),
                BookEntry {
                    ply: leaf.pos.game_ply(),
                    moves: found,
                },
            );
            done += 1;
            progress(
                done,
                &format!(
                    "[{done}/{}] ply {} stray {} best {best} ({:.1}s, book {} positions): {key}",
                    opts.positions,
                    leaf.pos.game_ply(),
                    leaf.stray,
                    start.elapsed().as_secs_f64(),
                    book.positions.len()
                ),
            );
            save(book, done)?;
        }
    }
    back_up(book);
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_backed_up_by_minimax() {
        let start = Position::startpos();
        let mut after = start.clone();
        let m = start.parse_usi_move("7g7f").unwrap();
        after.do_move(m);
        let reply = after.parse_usi_move("3c3d").unwrap();
        let mut book = MemoryBook::default();
        book.add(
            position_key(&start),
            BookEntry {
                ply: 1,
                moves: vec![BookMove {
                    value: Some(50),
                    depth: Some(1),
                    ..BookMove::new(m)
                }],
            },
        );
        book.add(
            position_key(&after),
            BookEntry {
                ply: 2,
                moves: vec![BookMove {
                    value: Some(20),
                    depth: Some(5),
                    ..BookMove::new(reply)
                }],
            },
        );
        back_up(&mut book);
        assert_eq!(
            book.positions[&position_key(&start)].moves[0].value,
            Some(-20)
        );
    }

    #[test]
    fn a_small_extension_searches_and_adds_positions() {
        let mut book = MemoryBook::default();
        let opts = ExtendOptions {
            depth: 3,
            positions: 3,
            hash_mb: 1,
            ..ExtendOptions::default()
        };
        let mut saves = 0;
        let n = extend(
            &mut book,
            &[Position::startpos()],
            &opts,
            &mut |_, _| {},
            &mut |_, _| {
                saves += 1;
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(n, 3);
        assert_eq!(saves, 3);
        assert_eq!(book.positions.len(), 3);
        let root = &book.positions[&position_key(&Position::startpos())];
        assert_eq!(root.moves.len(), 2);
        assert!(root.moves.iter().all(|m| m.depth == Some(3)));
    }
}
