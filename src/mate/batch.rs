//! `hayate mate --batch`: solve a file of problems and report each one and a summary.

use std::time::Instant;

use super::{SolveLimits, Solver, Verdict};
use crate::position::Position;

/// Solves each `name<TAB>sfen` row of `text` (blank lines and `#` comments skipped), printing
/// one tab-separated line per row through `out`, and returns the summary line. Each problem
/// starts from an empty table, so the times do not depend on the order. `progress` is told
/// the rows done, the rows in all and the name of the row about to be solved.
pub fn run_batch(
    text: &str,
    solver: &mut Solver,
    limits: impl Fn() -> SolveLimits,
    out: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(usize, usize, &str),
) -> String {
    out("name\tresult\tplies\tnodes\ttime_ms");
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let rows = lines.len();
    let (mut solved, mut nomate, mut unknown, mut errors) = (0, 0, 0, 0);
    let mut total_ms = 0u128;
    for (done, &(number, line)) in lines.iter().enumerate() {
        let (name, sfen) = match line.split_once('\t') {
            Some((n, s)) => (n, s.trim()),
            None => (line, ""),
        };
        progress(done, rows, name);
        let mut pos = match Position::from_sfen(sfen.strip_prefix("sfen ").unwrap_or(sfen)) {
            Ok(p) => p,
            Err(e) => {
                errors += 1;
                out(&format!("{name}\terror: line {}: {e}\t-\t-\t-", number + 1));
                continue;
            }
        };
        solver.clear();
        let start = Instant::now();
        let verdict = solver.solve(&mut pos, limits());
        let ms = start.elapsed().as_millis();
        total_ms += ms;
        let (result, plies) = match verdict {
            Verdict::Mate(l) => {
                solved += 1;
                ("mate", l.len().to_string())
            }
            Verdict::NoMate => {
                nomate += 1;
                ("nomate", "-".to_string())
            }
            Verdict::Unknown => {
                unknown += 1;
                ("unknown", "-".to_string())
            }
        };
        out(&format!(
            "{name}\t{result}\t{plies}\t{}\t{ms}",
            solver.nodes()
        ));
    }
    format!(
        "solved {solved} of {rows} (nomate {nomate}, unknown {unknown}, errors {errors}); \
         total {total_ms} ms"
    )
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
        let mut solver = Solver::new(1);
        let mut lines = Vec::new();
        let mut told = Vec::new();
        let summary = run_batch(
            text,
            &mut solver,
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
