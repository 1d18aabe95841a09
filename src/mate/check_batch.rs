//! `hayate tsume check --batch`: the composer's check over a collection, one problem after
//! another or several at once.
//!
//! Each problem gets a checker of its own and the same node budget, so a problem's report does
//! not depend on the others, nor on how many are checked at once: the rows come out the same,
//! in the file's order, whatever `jobs` is.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use super::check::{check_problem, json_string, CheckLimits, Status};
use super::SOLVER_STACK;

/// How `--batch` writes a problem's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchRows {
    /// A tab-separated row (name, verdict, plies, flaws) under a header.
    Table,
    /// The whole report as one JSON object a line (JSON Lines), its `name` first, for
    /// scripts that look at every flaw (`--verbose` adds the early mates).
    Json { verbose: bool },
}

/// One row of the file: its line number (from 0), name and SFEN.
struct Row<'a> {
    number: usize,
    name: &'a str,
    sfen: &'a str,
}

/// Checks each `name<TAB>sfen` row of `text`, `jobs` at a time (each on a thread with the
/// solver's stack), writing a row per problem through `out`, in the file's order and in the
/// form `rows_as` asks for, and telling `progress` the rows written, the rows in all and the
/// name of the next row to be written; returns the summary line.
pub fn check_batch(
    text: &str,
    limits: &CheckLimits,
    rows_as: BatchRows,
    jobs: usize,
    out: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(usize, usize, &str),
) -> String {
    let rows: Vec<Row> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(number, line)| {
            let (name, sfen) = line.split_once('\t').unwrap_or((line, ""));
            Row { number, name, sfen }
        })
        .collect();
    if rows_as == BatchRows::Table {
        out("name\tverdict\tplies\tflaws");
    }
    // Sound, flawed, nomate, unknown (as `Status` numbers them), errors.
    let mut counts = [0usize; 5];
    let next = AtomicUsize::new(0);
    let (sender, results) = mpsc::channel::<(usize, usize, String)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, rows.len().max(1)) {
            let (rows, next, sender) = (&rows, &next, sender.clone());
            // A thread that cannot start leaves its share to the others; with none at all
            // the rows are checked below, on this thread.
            let _ = std::thread::Builder::new()
                .stack_size(SOLVER_STACK)
                .spawn_scoped(scope, move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(row) = rows.get(i) else { break };
                    let (status, text) = check_row(row, limits, rows_as);
                    if sender.send((i, status, text)).is_err() {
                        break;
                    }
                });
        }
        drop(sender);
        // Rows finished out of order wait here for the ones before them.
        let mut waiting = BTreeMap::new();
        let mut written = 0;
        if let Some(first) = rows.first() {
            progress(0, rows.len(), first.name);
        }
        for (i, status, text) in results {
            waiting.insert(i, (status, text));
            while let Some((status, text)) = waiting.remove(&written) {
                counts[status] += 1;
                out(&text);
                written += 1;
                if let Some(row) = rows.get(written) {
                    progress(written, rows.len(), row.name);
                }
            }
        }
        // Whatever no thread took (none could start): here, one after another.
        while let Some(row) = rows.get(next.fetch_add(1, Ordering::Relaxed)) {
            progress(written, rows.len(), row.name);
            let (status, text) = check_row(row, limits, rows_as);
            counts[status] += 1;
            out(&text);
            written += 1;
        }
    });
    format!(
        "checked {}: sound {}, flawed {}, nomate {}, unknown {}, errors {}",
        rows.len(),
        counts[Status::Sound as usize],
        counts[Status::Flawed as usize],
        counts[Status::NoMate as usize],
        counts[Status::Unknown as usize],
        counts[4]
    )
}

/// Checks one row: the index of its count (its status, or 4 for an error) and its text.
fn check_row(row: &Row, limits: &CheckLimits, rows_as: BatchRows) -> (usize, String) {
    let Row { number, name, sfen } = *row;
    let result = check_problem(sfen, limits);
    let status = result.as_ref().map_or(4, |r| r.status as usize);
    let text = match (rows_as, result) {
        (BatchRows::Table, Ok(r)) => format!("{name}\t{}", r.row()),
        (BatchRows::Table, Err(e)) => format!("{name}\terror: line {}: {e}\t-\t-", number + 1),
        // The report's object with the name put in front of its first field.
        (BatchRows::Json { verbose }, Ok(r)) => {
            format!("{{\"name\":{},{}", json_string(name), &r.json(verbose)[1..])
        }
        (BatchRows::Json { .. }, Err(e)) => format!(
            "{{\"name\":{},\"error\":{}}}",
            json_string(name),
            json_string(&format!("line {}: {e}", number + 1))
        ),
    };
    (status, text)
}
