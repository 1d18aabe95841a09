//! How long to think: an optimum (stop starting new iterations after it) and a maximum (stop
//! searching at once), from the clock the GUI sends.
//!
//! Handles byoyomi, Fischer increments, sudden death and their mixtures. Main time is spent
//! before byoyomi: with time left, a share of it is added to the byoyomi instead of moving on the
//! byoyomi alone. The hard limit keeps `NetworkDelay2` in reserve (or a tenth of a budget too
//! short for that margin, 20 ms at least), so a 100 ms byoyomi is never overrun.

use crate::types::{Color, Move};

/// The limits of one `go` command.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Remaining main time in ms, per colour (`btime`, `wtime`).
    pub time: [u64; 2],
    /// Increment per move in ms (`binc`, `winc`).
    pub inc: [u64; 2],
    pub byoyomi: u64,
    pub movetime: Option<u64>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// `go mate <ms>`; `Some(None)` for `go mate infinite`.
    pub mate: Option<Option<u64>>,
    /// `searchmoves`: the root moves to choose among (all legal ones when empty). Moves not
    /// legal in the position are left out there, as the search generates the root moves.
    pub searchmoves: Vec<Move>,
    /// Whether any of `btime wtime binc winc byoyomi` was sent, even as 0: a clock of zero is
    /// a clock (move at once), not the absence of one.
    pub clock_given: bool,
}

impl Limits {
    /// Whether any clock was given at all.
    pub fn uses_clock(&self) -> bool {
        self.clock_given || self.time != [0, 0] || self.inc != [0, 0] || self.byoyomi > 0
    }
}

/// Time settings from the engine options.
#[derive(Clone, Copy, Debug)]
pub struct TimeOptions {
    pub network_delay: u64,
    pub network_delay2: u64,
    pub minimum_thinking_time: u64,
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> TimeOptions {
        TimeOptions {
            network_delay: 120,
            network_delay2: 1120,
            minimum_thinking_time: 2000,
            slow_mover: 100,
        }
    }
}

/// Optimum and maximum thinking time in ms, or `None` for no time limit.
pub fn allot(limits: &Limits, us: Color, opt: &TimeOptions, game_ply: u32) -> Option<(u64, u64)> {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(opt.network_delay).max(mt / 2).max(1);
        return Some((t, t));
    }
    if limits.infinite || !limits.uses_clock() {
        return None;
    }
    let time = limits.time[us.index()];
    let inc = limits.inc[us.index()];
    let byoyomi = limits.byoyomi;
    // The clock comes from the GUI and may hold anything up to i64::MAX: every sum and product
    // below saturates rather than overflows.
    // Everything usable for this move before the flag falls.
    let budget = time.saturating_add(inc).saturating_add(byoyomi);
    // The hard limit keeps NetworkDelay2 in reserve, but never more than a tenth of a short
    // budget (with 20 ms at least), so short byoyomi is used rather than thrown away.
    let hard = {
        let reserve = opt.network_delay2.min((budget / 10).max(20));
        budget.saturating_sub(reserve).max(1)
    };
    if time < byoyomi.saturating_mul(6) / 5 && byoyomi > 0 {
        // Main time is (nearly) gone: think for the whole byoyomi, less the average lag. A
        // short byoyomi keeps a smaller share in reserve (a sixth, 25 ms at least): the lag of
        // a local GUI is a few milliseconds, and 120 ms of 300 is too much to throw away.
        let total = time.saturating_add(byoyomi);
        let t = total
            .saturating_sub(opt.network_delay.min((total / 6).max(25)))
            .min(hard)
            .max(1);
        return Some((t, t));
    }
    // Spread the main time over the moves still to come; sudden death needs more moves in
    // reserve than a game with byoyomi or increment.
    let moves_to_go: u64 = if byoyomi == 0 && inc == 0 { 50 } else { 35 };
    let moves_to_go = moves_to_go
        .saturating_sub((game_ply as u64 / 8).min(15))
        .max(15);
    let base = (time / moves_to_go)
        .saturating_add(inc.saturating_mul(9) / 10)
        .saturating_add(byoyomi);
    let optimum = (base.saturating_mul(opt.slow_mover) / 100).saturating_sub(opt.network_delay);
    let minimum = opt.minimum_thinking_time.min(hard);
    let optimum = optimum.max(minimum.min(base)).min(hard).max(1);
    let maximum = optimum
        .saturating_mul(3)
        .min((time / 5).saturating_add(inc).saturating_add(byoyomi))
        .max(optimum)
        .min(hard);
    Some((optimum, maximum))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lim(time: u64, inc: u64, byoyomi: u64) -> Limits {
        Limits {
            time: [time, time],
            inc: [inc, inc],
            byoyomi,
            ..Limits::default()
        }
    }

    #[test]
    fn short_byoyomi_is_never_overrun() {
        let o = TimeOptions::default();
        let (opt, max) = allot(&lim(0, 0, 100), Color::Black, &o, 1).unwrap();
        assert!(opt <= 80 && (50..=80).contains(&max), "{opt} {max}");
        let (_, max) = allot(&lim(0, 0, 300), Color::Black, &o, 1).unwrap();
        assert!((200..=260).contains(&max), "{max}");
        let (_, max) = allot(&lim(0, 0, 1000), Color::Black, &o, 1).unwrap();
        assert!((700..=880).contains(&max), "{max}");
    }

    #[test]
    fn main_time_is_spent_before_byoyomi() {
        let o = TimeOptions::default();
        let (opt, _) = allot(&lim(600_000, 0, 1000), Color::Black, &o, 1).unwrap();
        assert!(opt > 5000, "{opt}");
    }

    #[test]
    fn sudden_death_keeps_time_in_reserve() {
        let o = TimeOptions::default();
        let (opt, max) = allot(&lim(10_000, 0, 0), Color::White, &o, 80).unwrap();
        assert!(max < 10_000 / 4 && opt <= max, "{opt} {max}");
        let (_, max) = allot(&lim(500, 0, 0), Color::White, &o, 80).unwrap();
        assert!(max <= 400);
    }

    #[test]
    fn a_zero_clock_still_limits_the_search() {
        let o = TimeOptions::default();
        let l = Limits {
            clock_given: true,
            ..Limits::default()
        };
        let (opt, max) = allot(&l, Color::Black, &o, 1).unwrap();
        assert!(opt <= 1 && max <= 1, "{opt} {max}");
        assert_eq!(allot(&Limits::default(), Color::Black, &o, 1), None);
    }

    #[test]
    fn huge_clocks_saturate() {
        // What `go` accepts: up to i64::MAX for each field.
        let o = TimeOptions {
            slow_mover: 1000,
            ..TimeOptions::default()
        };
        let big = i64::MAX as u64;
        for l in [
            lim(big, big, big),
            lim(big, big, 0),
            lim(0, 0, big),
            lim(big, 0, big),
        ] {
            for ply in [1, u32::MAX] {
                let (opt, max) = allot(&l, Color::Black, &o, ply).unwrap();
                assert!(1 <= opt && opt <= max, "{opt} {max}");
            }
        }
        let l = Limits {
            movetime: Some(u64::MAX),
            ..Limits::default()
        };
        assert!(allot(&l, Color::White, &o, 1).is_some());
    }

    #[test]
    fn fischer_uses_the_increment() {
        let o = TimeOptions::default();
        let (opt, max) = allot(&lim(2000, 1000, 0), Color::Black, &o, 40).unwrap();
        assert!(opt >= 800 && max <= 2000, "{opt} {max}");
    }
}
