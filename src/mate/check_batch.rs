//! `hayate tsume check --batch`: the composer's check over a collection, one problem after
//! another or several at once.
//!
//! Each problem gets a checker of its own and the same node budget, so a problem's report does
//! not depend on the others, nor on how many are checked at once: the rows come out the same,
//! in the file's order, whatever `jobs` is.

use super::check::{check_problem, CheckLimits, Status};
use super::workers::{in_order, rows, Row};
use crate::json::quote;

/// How `--batch` writes a problem's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchRows {
    /// A tab-separated row (name, verdict, plies, flaws) under a header.
    Table,
    /// The whole report as one JSON object a line (JSON Lines), its `name` first, for
    /// scripts that look at every flaw (`--verbose` adds the early mates).
    Json { verbose: bool },
}

/// Where a row that cannot be read is counted, after the four `Status` counts.
const ERRORS: usize = 4;

/// Checks each `name<TAB>sfen` row of `text`, `jobs` at a time, writing a row per problem
/// through `out`, in the file's order and in the form `rows_as` asks for, and telling
/// `progress` the rows written, the rows in all and the name of the next row to be written;
/// returns the summary line.
pub fn check_batch(
    text: &str,
    limits: &CheckLimits,
    rows_as: BatchRows,
    jobs: usize,
    out: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(usize, usize, &str),
) -> String {
    let rows = rows(text);
    if rows_as == BatchRows::Table {
        out("name\tverdict\tplies\tflaws");
    }
    // Sound, flawed, nomate, unknown (as `Status` numbers them), errors.
    let mut counts = [0usize; ERRORS + 1];
    in_order(
        rows.len(),
        jobs,
        || (),
        |_, i| check_row(rows[i], limits, rows_as),
        &mut |_, (status, text): (usize, String)| {
            counts[status] += 1;
            out(&text);
        },
        &mut |i| progress(i, rows.len(), rows[i].name),
    );
    format!(
        "checked {}: sound {}, flawed {}, nomate {}, unknown {}, errors {}",
        rows.len(),
        counts[Status::Sound as usize],
        counts[Status::Flawed as usize],
        counts[Status::NoMate as usize],
        counts[Status::Unknown as usize],
        counts[ERRORS]
    )
}

/// Checks one row: the index of its count (its status, or `ERRORS`) and its text.
fn check_row(row: Row, limits: &CheckLimits, rows_as: BatchRows) -> (usize, String) {
    let Row { number, name, sfen } = row;
    let result = check_problem(sfen, limits);
    let status = result.as_ref().map_or(ERRORS, |r| r.status as usize);
    let text = match (rows_as, result) {
        (BatchRows::Table, Ok(r)) => format!("{name}\t{}", r.row()),
        (BatchRows::Table, Err(e)) => format!("{name}\terror: line {}: {e}\t-\t-", number + 1),
        // The report's object with the name put in front of its first field.
        (BatchRows::Json { verbose }, Ok(r)) => {
            format!("{{\"name\":{},{}", quote(name), &r.json(verbose)[1..])
        }
        (BatchRows::Json { .. }, Err(e)) => format!(
            "{{\"name\":{},\"error\":{}}}",
            quote(name),
            quote(&format!("line {}: {e}", number + 1))
        ),
    };
    (status, text)
}
