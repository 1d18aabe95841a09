//! The df-pn solver's table costs the memory a solve touches, not the size it is made with.
//! Its own test binary, with one test, so that no other test's memory moves the figures.

use hayate::mate::{SolveLimits, Solver, Verdict};
use hayate::position::Position;

/// The process's resident memory in bytes, from `/proc/self/statm` (resident pages, the second
/// field).
#[cfg(target_os = "linux")]
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

#[cfg(target_os = "linux")]
#[test]
fn a_large_table_takes_memory_only_as_the_solve_uses_it() {
    const MB: u64 = 1 << 20;
    let before = resident_bytes();
    // 2 GB, as `go mate` makes it after `setoption name USI_Hash value 2048`. Written out
    // when made, it took the kernel seconds before the first node.
    let mut solver = Solver::new(2048);
    let made = resident_bytes();
    assert!(
        made < before + 64 * MB,
        "{} MB on making it",
        (made - before) / MB
    );
    let mut pos = Position::from_sfen("p8/k8/9/S8/9/9/9/9/9 b GN 1").unwrap();
    let limits = SolveLimits {
        nodes: Some(10_000),
        ..SolveLimits::default()
    };
    assert!(matches!(solver.solve(&mut pos, limits), Verdict::Mate(line) if line.len() == 3));
    // Each entry stored lands in a random place of the table, and the kernel backs it with a
    // huge page (2 MB) at a time: this mate's stores touch about 140 of the 1024.
    let solved = resident_bytes();
    assert!(
        solved < before + 512 * MB,
        "{} MB after a mate in three",
        (solved - before) / MB
    );
}
