//! `hayate tsume check --batch`: the composer's check over a collection, one problem after
//! another or several at once.
//!
//! Each problem gets a checker of its own and the same node budget, so a problem's report does
//! not depend on the others, nor on how many are checked at once: the rows come out the same,
//! in the file's order, whatever `jobs` is.

use super::check::{check_with_intended, CheckLimits, Report, Status};
use super::workers::{in_order, rows, Row};
use crate::json::quote;
use crate::position::parse_move_syntax;
use crate::types::Move;

/// How `--batch` writes a problem's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchRows {
    /// A tab-separated row (name, verdict, plies, flaws) under a header.
    Table,
    /// The whole report as one JSON object a line (JSON Lines), its `name` first, for
    /// scripts that look at every flaw (`--verbose` adds the early mates).
    Json { verbose: bool },
}

/// Takes each problem's report with the row's name, besides its row (`--kif DIR`).
pub type ReportSink<'a> = &'a mut dyn FnMut(&str, &Report);

/// Where a row that cannot be read is counted, after the four `Status` counts.
const ERRORS: usize = 4;

/// Checks each `name<TAB>sfen` row of `text` (with a third column, the composer's intended
/// line in USI, held to the rules too), `jobs` at a time, writing a row per problem
/// through `out`, in the file's order and in the form `rows_as` asks for, handing each
/// problem's report with its name to `reports` when given (`--kif DIR`), and telling
/// `progress` the rows written, the rows in all and the name of the next row to be written;
/// returns the summary line.
pub fn check_batch(
    text: &str,
    limits: &CheckLimits,
    rows_as: BatchRows,
    jobs: usize,
    out: &mut dyn FnMut(&str),
    mut reports: Option<ReportSink>,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> String {
    let rows = rows(text);
    if rows_as == BatchRows::Table {
        out("name\tverdict\tplies\tflaws");
    }
    // Sound, flawed, nomate, unknown (as `Status` numbers them), errors.
    let mut counts = [0usize; ERRORS + 1];
    let keep = reports.is_some();
    in_order(
        rows.len(),
        jobs,
        || (),
        |_, i| check_row(rows[i], limits, rows_as, keep),
        &mut |i, (status, text, report): (usize, String, Option<Report>)| {
            counts[status] += 1;
            out(&text);
            if let (Some(tell), Some(r)) = (reports.as_mut(), &report) {
                tell(rows[i].name, r);
            }
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

/// Checks one row: the index of its count (its status, or `ERRORS`), its text, and its report
/// when `keep` asks for it.
fn check_row(
    row: Row,
    limits: &CheckLimits,
    rows_as: BatchRows,
    keep: bool,
) -> (usize, String, Option<Report>) {
    let Row {
        number,
        name,
        sfen,
        line,
    } = row;
    let result = intended_line(line).and_then(|line| check_with_intended(sfen, &line, limits));
    let status = result.as_ref().map_or(ERRORS, |r| r.status as usize);
    let kept = result.as_ref().ok().filter(|_| keep).cloned();
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
    (status, text, kept)
}

/// The moves of an intended line written in USI and separated by spaces, as a batch row's
/// third column holds it.
pub fn intended_line(text: &str) -> Result<Vec<Move>, String> {
    text.split_whitespace()
        .map(|w| parse_move_syntax(w).ok_or_else(|| format!("malformed move '{w}' in the line")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row's third column is the intended line: held to the rules, its finding in the row's
    /// flaws; a move that does not parse makes the row an error.
    #[test]
    fn a_third_column_is_the_intended_line() {
        let sfen = "p8/k8/9/S8/9/9/9/9/9 b GN 1";
        let text = format!(
            "main\t{sfen}\tN*8d 9b8a G*7b\n\
             cut\t{sfen}\tN*8d 9b8a\n\
             none\t{sfen}\n\
             bad\t{sfen}\tN*8d 9b8z\n"
        );
        let mut rows = Vec::new();
        let limits = CheckLimits {
            nodes: 100_000,
            ..CheckLimits::default()
        };
        let summary = check_batch(
            &text,
            &limits,
            BatchRows::Table,
            1,
            &mut |r| rows.push(r.to_string()),
            None,
            &mut |_, _, _| {},
        );
        assert!(rows[1].starts_with("main\tsound\t3\t") && rows[1].contains("作意 solution"));
        assert!(rows[2].contains("作意 not_a_mate at 2"), "{}", rows[2]);
        assert!(rows[3].starts_with("none\tsound\t3") && !rows[3].contains("作意"));
        assert!(rows[4].contains("malformed move '9b8z'"), "{}", rows[4]);
        assert!(summary.ends_with("errors 1"), "{summary}");
    }
}
