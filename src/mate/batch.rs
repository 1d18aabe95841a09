//! `hayate mate --batch`: solve a file of problems and report each one and a summary.

use std::time::Instant;

use super::workers::{in_order, rows, Row};
use super::{with_main_line, SolveLimits, Solver, Verdict};
use crate::position::Position;

/// Solves each `name<TAB>sfen` row of `text` (blank lines and `#` comments skipped), `jobs` at
/// a time, printing one tab-separated line per row through `out` in the file's order, and
/// returns the summary line. Each thread has a solver of `hash_mb` megabytes, and each problem
/// starts from an empty table, so the results do not depend on the order (nor, but for the
/// times, on `jobs`). `progress` is told the rows written, the rows in all and the name of the
/// next row to be written.
pub fn run_batch(
    text: &str,
    hash_mb: usize,
    jobs: usize,
    limits: impl Fn() -> SolveLimits + Sync,
    out: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(usize, usize, &str),
) -> String {
    out("name\tresult\tplies\tnodes\ttime_ms");
    let lines = rows(text);
    let rows = lines.len();
    let (mut solved, mut nomate, mut unknown, mut errors) = (0, 0, 0, 0);
    let mut total_ms = 0u128;
    in_order(
        rows,
        jobs,
        || Solver::new(hash_mb),
        |solver, i| solve_row(solver, lines[i], &limits),
        &mut |_, row: Solved| {
            match row.result {
                RowResult::Mate => solved += 1,
                RowResult::NoMate => nomate += 1,
                RowResult::Unknown => unknown += 1,
                RowResult::Error => errors += 1,
            }
            total_ms += row.ms;
            out(&row.text);
        },
        &mut |i| progress(i, rows, lines[i].name),
    );
    format!(
        "solved {solved} of {rows} (nomate {nomate}, unknown {unknown}, errors {errors}); \
         total {total_ms} ms"
    )
}

/// What a row came to, for the summary.
enum RowResult {
    Mate,
    NoMate,
    Unknown,
    /// The row could not be read.
    Error,
}

/// One row's outcome, its time and its line of output.
struct Solved {
    result: RowResult,
    ms: u128,
    text: String,
}

/// Solves one row of the file.
fn solve_row(solver: &mut Solver, row: Row, limits: &dyn Fn() -> SolveLimits) -> Solved {
    // A third column (an intended line, for the composer's check) is no concern of the solver.
    let Row {
        number, name, sfen, ..
    } = row;
    let sfen = sfen.trim();
    let mut pos = match Position::from_sfen(sfen.strip_prefix("sfen ").unwrap_or(sfen)) {
        Ok(p) => p,
        Err(e) => {
            return Solved {
                result: RowResult::Error,
                ms: 0,
                text: format!("{name}\terror: line {}: {e}\t-\t-\t-", number + 1),
            }
        }
    };
    solver.clear();
    let start = Instant::now();
    let limits = limits();
    let verdict = solver.solve_problem(&mut pos, limits.clone());
    let solved = solver.nodes();
    let (verdict, line_nodes) = with_main_line(solver, &pos, verdict, limits, None);
    let nodes = solved + line_nodes;
    let ms = start.elapsed().as_millis();
    let (result, word, plies) = match verdict {
        Verdict::Mate(l) => (RowResult::Mate, "mate", l.len().to_string()),
        Verdict::NoMate => (RowResult::NoMate, "nomate", "-".to_string()),
        Verdict::Unknown => (RowResult::Unknown, "unknown", "-".to_string()),
    };
    Solved {
        result,
        ms,
        text: format!("{name}\t{word}\t{plies}\t{nodes}\t{ms}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_each_row_and_a_summary() {
        let text = "# a comment\n\
                    head\t4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n\
                    bare\t4k4/9/9/9/9/9/9/9/4K4 b - 1\n\
                    broken\tnot a sfen\n";
        let mut lines = Vec::new();
        let mut told = Vec::new();
        let summary = run_batch(
            text,
            1,
            1,
            SolveLimits::default,
            &mut |l| lines.push(l.to_string()),
            &mut |done, rows, name| told.push(format!("{done}/{rows} {name}")),
        );
        assert_eq!(told, ["0/3 head", "1/3 bare", "2/3 broken"]);
        assert_eq!(lines.len(), 4);
        assert!(lines[1].starts_with("head\tmate\t1\t"), "{}", lines[1]);
        assert!(lines[2].starts_with("bare\tnomate\t-\t"), "{}", lines[2]);
        assert!(
            lines[3].starts_with("broken\terror: line 4:"),
            "{}",
            lines[3]
        );
        assert!(summary.starts_with("solved 1 of 3 (nomate 1, unknown 0, errors 1)"));
    }
}
