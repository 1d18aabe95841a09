//! The rows of a batch (`hayate mate --batch`, `hayate tsume check --batch`) worked on by
//! several threads at once, their results handed back in the rows' order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use super::SOLVER_STACK;

/// One problem of a batch file: its line number (from 0), its name, its SFEN (the second
/// column) and the text after a third tab, the composer's intended line in USI (empty when
/// there is none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    pub number: usize,
    pub name: &'a str,
    pub sfen: &'a str,
    pub line: &'a str,
}

/// The `name<TAB>sfen[<TAB>line]` rows of a batch file: blank lines and `#` comments skipped,
/// a carriage return at a line's end dropped.
pub fn rows(text: &str) -> Vec<Row<'_>> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(number, text)| {
            let (name, rest) = text.split_once('\t').unwrap_or((text, ""));
            let (sfen, line) = rest.split_once('\t').unwrap_or((rest, ""));
            Row {
                number,
                name,
                sfen,
                line,
            }
        })
        .collect()
}

/// Works rows `0..rows` on `jobs` threads, each with the solver's deep stack and its own
/// `state` (a solver, say), made once a thread. `emit` gets each result on the calling
/// thread, in the rows' order, as soon as the rows before it are done; `starting` is told the
/// row that the next result will be (before the first, and after each result).
///
/// A thread that cannot start leaves its rows to the others, and with none at all the rows
/// are worked on the calling thread, one after another.
pub fn in_order<S, T: Send>(
    rows: usize,
    jobs: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
    emit: &mut dyn FnMut(usize, T),
    starting: &mut dyn FnMut(usize),
) {
    let next = AtomicUsize::new(0);
    let (sender, results) = mpsc::channel::<(usize, T)>();
    let mut written = 0;
    std::thread::scope(|scope| {
        let mut threads = Vec::new();
        for _ in 0..jobs.clamp(1, rows.max(1)) {
            let (next, sender, state, work) = (&next, sender.clone(), &state, &work);
            let thread = std::thread::Builder::new()
                .stack_size(SOLVER_STACK)
                .spawn_scoped(scope, move || {
                    let mut s = state();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= rows || sender.send((i, work(&mut s, i))).is_err() {
                            break;
                        }
                    }
                });
            threads.extend(thread.ok());
        }
        drop(sender);
        if rows > 0 {
            starting(0);
        }
        // Results that come before their turn wait here for the rows before them.
        let mut waiting = BTreeMap::new();
        for (i, result) in results {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&written) {
                emit(written, result);
                written += 1;
                if written < rows {
                    starting(written);
                }
            }
        }
        // Joined here rather than left to the scope, whose wait ends when each closure
        // returns, before its thread has exited and freed its thread-locals: LeakSanitizer,
        // checking in between, reported them as leaks in a fuzzing run of `mate --batch`.
        for thread in threads {
            if let Err(panic) = thread.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    // Whatever no thread took (none could start).
    let mut s = None;
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= rows {
            break;
        }
        let result = work(s.get_or_insert_with(&state), i);
        emit(i, result);
        if i + 1 < rows {
            starting(i + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows that finish out of order still come out in order, each once, and no more states
    /// are made than threads. With two jobs or more, row 0 waits until row 1 has been worked
    /// on (by another thread), so it finishes after it whatever the timing.
    #[test]
    fn results_come_back_in_the_rows_order() {
        use std::sync::atomic::AtomicBool;
        for jobs in [1, 2, 5, 40] {
            let row_1_done = AtomicBool::new(false);
            let states = AtomicUsize::new(0);
            let mut got = Vec::new();
            let mut told = Vec::new();
            in_order(
                12,
                jobs,
                || states.fetch_add(1, Ordering::Relaxed),
                |_, i| {
                    if i == 0 && jobs > 1 {
                        while !row_1_done.load(Ordering::Acquire) {
                            std::thread::yield_now();
                        }
                    }
                    if i == 1 {
                        row_1_done.store(true, Ordering::Release);
                    }
                    i * i
                },
                &mut |i, square| got.push((i, square)),
                &mut |i| told.push(i),
            );
            let want: Vec<(usize, usize)> = (0..12).map(|i| (i, i * i)).collect();
            assert_eq!(got, want, "{jobs} jobs");
            assert_eq!(told, (0..12).collect::<Vec<_>>(), "{jobs} jobs");
            assert!(
                states.load(Ordering::Relaxed) <= jobs.min(12),
                "{jobs} jobs"
            );
        }
    }

    #[test]
    fn a_batch_file_is_read_row_by_row() {
        let text = "# a comment\r\none\tsfen 1\r\n\n  \nbare\nthree\ta\tb c\td\n";
        let want = [
            Row {
                number: 1,
                name: "one",
                sfen: "sfen 1",
                line: "",
            },
            Row {
                number: 4,
                name: "bare",
                sfen: "",
                line: "",
            },
            Row {
                number: 5,
                name: "three",
                sfen: "a",
                line: "b c\td",
            },
        ];
        assert_eq!(rows(text), want);
    }

    #[test]
    fn no_rows_is_nothing_to_do() {
        let (mut emitted, mut told) = (0, 0);
        in_order(0, 3, || (), |_, i| i, &mut |_, _| emitted += 1, &mut |_| {
            told += 1
        });
        assert_eq!((emitted, told), (0, 0));
    }
}
