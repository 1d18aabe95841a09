//! `hayate tsume check`: the composer's verdict on a tsume problem.
//!
//! The df-pn solver finds *a* mate; a composer needs to know whether the problem is sound: one
//! solution under the rules, nothing left in hand, no second way to mate. This module decides
//! that for short problems, exactly:
//!
//! - exact mate distances (the minimax over the number of plies) come from a depth-bounded
//!   proof-number search (`bounded.rs`: "is there a mate within n plies?", asked a few times);
//!   they give the length of every line the check needs and the main line under the rules: the
//!   attacker mates as fast as he can, the defender resists as long as he can and, among
//!   equally long defences, takes one that leaves the attacker nothing in hand;
//! - at each attacker turn of the main line the other checks are looked at: one that mates as
//!   fast is found by the bounded search, and one that does not is handed to the df-pn
//!   solver, which must prove that it fails (or finds a longer mate, still a 余詰).
//!
//! The same exact search gives `hayate mate` and `go mate` the main line under the rules after
//! their solve ([`with_main_line`]), where it finishes within what their limits leave.
//!
//! Everything runs under one node budget. Whatever the budget does not settle is reported as
//! unknown, never as sound. When the exact distance is what runs out, the report still gives
//! an upper bound on it: the depth of the solver's shortest proof tree (a mate within that
//! many plies is proven), with the solver's line, or the bounded search's own proof when it
//! is shorter, with a line along it.
//!
//! Useless interpositions (無駄合, see `muda.rs`) are no defence under the convention: the
//! distances do not count them in a defender's resistance (a check that leaves only
//! such drops is mate), the main line never takes one, and they are not reported as 変同 or 早詰.
//! That a drop is useless is proven by the df-pn solver (the position after its capture is mate
//! without the piece), so every such drop is still refuted.
//!
//! A drop the solver proves neither useless nor a defence (no mate after any capture), within
//! the nodes such questions get (`USELESS_PROOF_NODES`, then `AIMED_TRY_NODES`), is taken for
//! a defence, and whatever rests on that says so: the length then has `length_sure` false (it is
//! the length if those drops are defences; a useless one would make it shorter), and the problem
//! is never called sound. Once such drops counted as defences without a word, and the length
//! depended on the order of the search: zuko047 was given 29 plies in one order and 27 (its
//! published length) in another. A check that comes to its end with nodes left but rests on
//! such drops tries the very drops its failures rest on again, with more nodes, and is made
//! again with what they settle ([`Checker::check_again`]): the first tries spend their share
//! on whatever drops the searches meet, most of which no answer rests on.
//!
//! Rules: the defender holds every piece that is neither on the board nor in the attacker's
//! hand (the tsume convention), so the position is completed that way before checking. With
//! both kings on the board (双玉) the generator of checks already gives only legal moves, so an
//! attacker in check can only answer with a move that both escapes and gives check, and an
//! attacker with no such move has lost the line.

mod intended;
mod kif;
mod variations;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::bounded::{BoundedSearch, Oracle};
use super::dfpn::Settled;
use super::{
    japanese_line, muda, ply_count, verify_tsume_line, SolveLimits, Solver, Throttled, Verdict,
};
use crate::attacks;
use crate::json::quote;
use crate::movegen::{generate_checks, generate_legal, MoveList};
use crate::position::Position;
use crate::types::{Color, Hand, Move, PieceType, Square};

pub use intended::{Intended, IntendedFinding};
pub use variations::{ComposerVariation, VariationFinding};

/// How far a check may go.
#[derive(Clone, Debug)]
pub struct CheckLimits {
    /// Nodes for everything: the bounded search and every df-pn solve together.
    pub nodes: u64,
    /// The longest main line tried; longer problems are unknown.
    pub max_plies: u16,
    /// Give the defender every piece not on the board or in the attacker's hand.
    pub complete_hand: bool,
    /// Work out the defences on the main line that allow a shorter mate (早詰), with their
    /// exact lengths: only `--verbose` shows them, and an exact length below the longest costs
    /// a search that there is no mate shorter still.
    pub early_mates: bool,
    /// The megabytes of the df-pn solver's table that finds the first mate and settles the
    /// alternatives; the two helper solvers (useless interpositions, detours) take a quarter
    /// each, at most [`CheckLimits::HELPER_HASH_MB`].
    pub hash_mb: usize,
    /// The megabytes the exact search's table and numbers may take together: they grow with
    /// the nodes (about 60 bytes a node on the classics), and past this they forget their
    /// cheapest knowledge instead (`bounded/memory.rs`). The default binds from some 30M nodes
    /// on (zuko037's table would next double at about 33M, to 2^25 slots, past its share); the
    /// df-pn solvers' tables (`hash_mb`) come on top.
    pub memory_mb: usize,
}

impl CheckLimits {
    /// The largest table of the helper solvers, in megabytes: their solves are short.
    pub const HELPER_HASH_MB: usize = 8;

    /// The most plies a main line may have: as many as the df-pn solver's path, which finds
    /// the first line. The bounded search recurses once per ply, a few kilobytes of stack
    /// each, on the solver's thread (`SOLVER_STACK`). Until the fifth session of 2026-12-05
    /// this was 255, and zuko083 (267 plies) and 寿 (611) were unknown at any budget.
    pub const MAX_PLIES: u16 = super::dfpn::MAX_PLY as u16;
}

impl Default for CheckLimits {
    fn default() -> CheckLimits {
        CheckLimits {
            nodes: 5_000_000,
            max_plies: CheckLimits::MAX_PLIES,
            complete_hand: true,
            early_mates: true,
            hash_mb: 32,
            memory_mb: 4096,
        }
    }
}

/// The overall verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// One solution, nothing in hand, no 余詰 (minor flaws may still be listed).
    Sound,
    /// A proven major flaw: 駒余り or 余詰.
    Flawed,
    /// 不詰: no mate.
    NoMate,
    /// The budget or the length limit ran out before the question was settled.
    Unknown,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Sound => "sound",
            Status::Flawed => "flawed",
            Status::NoMate => "nomate",
            Status::Unknown => "unknown",
        }
    }
}

/// A move other than the main line's at one turn of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// The ply of the main line it replaces, from 1.
    pub ply: usize,
    pub mv: Move,
    /// A line from the position before `ply`, starting with `mv` (a mating line for 余詰 and
    /// 変同, the line to the shorter mate for 早詰).
    pub line: Vec<Move>,
    /// Plies from the position before `ply` to the mate along the best play after `mv`, when
    /// known.
    pub length: Option<usize>,
    /// A defence (変同, 早詰) that is a drop the checker took for a defence without proving it
    /// one: within its nodes it proved neither that the drop is a useless interposition (no
    /// defence under the convention, and so no variation at all) nor that it is not. Always
    /// `false` at attacker turns.
    pub unproven_interposition: bool,
    /// A 余詰 whose best play after `mv` passes through the main line's positions is shown by
    /// another mate, one that keeps off them (that is what makes it a flaw, not a detour back
    /// to the main line): then `line` is not the best play, and `length` is still the best
    /// play's.
    pub kept_off_the_main_line: bool,
}

/// The composer's verdict on one problem.
#[derive(Clone, Debug)]
pub struct Report {
    /// The position checked (with the defender's hand completed when asked).
    pub sfen: String,
    pub status: Status,
    /// Why the status is unknown, when it is.
    pub reason: Option<String>,
    /// The main line under the rules; its length is the n of n手詰.
    pub main_line: Vec<Move>,
    /// The n of n手詰, the exact distance to mate: known before the main line is worked out,
    /// so it is reported even when the budget runs out on the way to the line.
    pub length: Option<usize>,
    /// When the exact distance was not settled: a number of plies the n of n手詰 cannot
    /// exceed (a mate within that many plies is proven), with a mating line within it. The
    /// depth of the solver's shortest proof and the solver's line, or the bounded search's
    /// proof when it is shorter and a line along it (see [`Checker::tighten_bound`]).
    pub length_at_most: Option<(usize, Vec<Move>)>,
    /// Whether `length` rests on proofs alone. When not, it counts as defences some drops that
    /// the checker proved neither useless interpositions nor defences (see
    /// `Interposition::Unproven`): it is the length if they are defences, and a drop that is
    /// useless after all would make it shorter.
    pub length_sure: bool,
    /// 駒余り: what the attacker still holds at the end of the main line.
    pub spare: Hand,
    /// 余詰: a second mating move at an attacker turn other than the last.
    pub cooks: Vec<Alternative>,
    /// 最終手余詰: another mating move at the last turn (minor).
    pub last_move_alternatives: Vec<Alternative>,
    /// 成生非限定: the main line's move with the other choice of promotion mates too (minor;
    /// composers do not count it as 余詰), at any attacker turn.
    pub promotion_choices: Vec<Alternative>,
    /// 打ち場所非限定: the main line's drop of a lance, bishop or rook made nearer or farther on
    /// the same line to the king mates as fast (minor; composers do not count it as 余詰).
    pub drop_choices: Vec<Alternative>,
    /// 迂回: a check at an attacker turn before the last that mates, but slower than the main
    /// line and only by coming back to it (every mate after it passes through a position of
    /// the main line from that turn on). Not a flaw.
    pub detours: Vec<Alternative>,
    /// 手順前後: a check at an attacker turn before the last that mates as fast as the main line
    /// but only by reaching it in another order (every mate after it passes through a position
    /// of the main line from that turn on). Minor.
    pub transpositions: Vec<Alternative>,
    /// 変同: another defence as long as the main line's that also ends with nothing in hand
    /// (minor).
    pub equal_variations: Vec<Alternative>,
    /// 早詰: defences on the main line that allow a shorter mate (normal; for --verbose).
    pub early_mates: Vec<Alternative>,
    /// For 不詰: each check of the first move with a defence that refutes it (`None` when
    /// none was proven within the budget); empty when the checks are too many to list.
    pub refutations: Vec<(Move, Option<Move>)>,
    /// Some alternative at an attacker turn could not be settled (whether it mates, or, when it
    /// does, whether it keeps off the main line): a flawed verdict may miss further flaws.
    pub incomplete: bool,
    /// The checks `incomplete` speaks of: each as the line from the problem's position that
    /// ends with it, at an attacker turn of the main line. A composer looks at these by hand,
    /// or gives more nodes.
    pub unsettled_checks: Vec<Vec<Move>>,
    /// When the budget ran out on the walk of the main line: the ply whose alternatives were
    /// being looked at. Those of the plies before it were all looked at (but for
    /// `unsettled_checks`), those of the plies after it not at all.
    pub alternatives_stopped_at: Option<usize>,
    /// When the report is sound only if some drops taken for defences are defences (the
    /// reason says "sound if"): those drops, each as the line from the problem's position that
    /// ends with it. A composer settles them by hand, or with more nodes.
    pub unsettled_drops: Vec<Vec<Move>>,
    /// When drops that such a report took for defences were proven useless interpositions
    /// after it, and the check made again ran out of nodes (the reason says so): those drops,
    /// as lines the same way. The report's lines through them may be too long.
    pub drops_proven_useless: Vec<Vec<Move>>,
    /// The composer's intended line (作意), when the problem came with one, held to the rules.
    pub intended: Option<Intended>,
    /// The variations (変化) of the problem's record, held to the rules, in the record's order
    /// (those that are a part of a line before them left out).
    pub variations: Vec<ComposerVariation>,
    pub nodes: u64,
    /// How many times the exact search's tables reached their memory (`CheckLimits::memory_mb`)
    /// and forgot part of what they held: more memory may then settle more within the nodes.
    pub forgotten_for_memory: u64,
}

/// The reason of a report that is sound but for drops proven neither useless nor defences
/// (listed in [`Report::unsettled_drops`]).
const SOUND_IF: &str = "sound if every interposition taken for a defence is one: the checker \
                        proved neither that one is useless nor that it is not";

/// The reason of a "sound if" report some of whose drops were proven useless after it (listed
/// in [`Report::drops_proven_useless`]).
const USELESS_SINCE: &str = "a drop taken for a defence was proven a useless interposition \
                             after the check, and the check made again ran out of nodes";

/// Checks past this many at the first move are not each refuted for a 不詰 report.
const MAX_REFUTATIONS: usize = 24;

/// Nodes for the proof that a drop is a useless interposition; a drop not proven useless within
/// them counts as a defence. A failure spends all of them: on the batches of the 207 muso/zuko
/// rows, 2,000 gave 72 exact lengths at 1M nodes against 65 with 20,000, and 1,000 (after the
/// proof for the whole square, which takes most of these drops) 146 at 5M against 143 with
/// 2,000, in 13% less CPU; no length changed.
const USELESS_PROOF_NODES: u64 = 1_000;

/// Nodes for the tries at an unsettled drop a finished check's failures rest on, one try a
/// round, each drop from the first cap on (see [`Checker::check_again`]). The last is as much
/// as a default budget has left: a drop still unsettled at 1M (zuko041's takes about 4M) gets
/// what remains, and a try that runs out of budget leaves the report as it was, so it can only
/// settle more. With three caps zuko074 stayed "sound if" with 2.5M of its 5M nodes unspent.
/// A larger budget makes the last larger too (see [`aimed_try_cap`]).
const AIMED_TRY_NODES: [u64; 4] = [10_000, 100_000, 1_000_000, 4_000_000];

/// The bounded search's visits within the exact distance's questions after which it settles
/// the nodes near the bound's end depth first (`BoundedSearch::depth_first_after`): a quarter
/// fewer nodes to the exact distance on nine classics whose distance takes 5M-22M nodes, but
/// from the first visit on the 207 reports at 5M moved both ways (55-58 sound against 60: what
/// it stores and the drops it gathers cost the tries and the check made again). From 1.5M
/// visits on, every report whose distance came within that stays as it was, and muso025 and
/// zuko009 get their lengths, zuko013 its main line (flawed), muso067 its main line
/// (benches/TSUME.md).
const DEPTH_FIRST_AFTER: u64 = 1_500_000;

/// The part of the budget that each check off the main line first gets in the walk of the
/// main line, to show whether it mates and whether its mate keeps off the main line (one that
/// needs more is put off until the walk is over, see [`Checker::settle_deferred`]): a tenth. A
/// fifth let a few checks that df-pn cannot settle within it take a fifth each early in the
/// walk, which then ran out before the later turns (zuko007's three checks at ply 1 need
/// 1.2M-2.5M each). On the 207 muso/zuko rows at 5M a tenth lost no verdict: muso078 became
/// flawed (余詰 at ply 17), zuko036's length sure, zuko034's walk came to its end, and
/// zuko075 (flawed) left one check unsettled; 1.003 of the nodes on the 121 rows settled the
/// same way. A twentieth gave two more flawed rows but cost muso058 its "sound"
/// (benches/TSUME.md); it was tried on 2026-12-05 too.
const FIRST_SHARE: u64 = 10;

/// The nodes of a drop's try number `tries` (from 0) under a check's `budget`, `None` past the
/// last: `AIMED_TRY_NODES`, but the last is four fifths of the budget when that is more (the
/// default budget's four fifths are its 4M). With the last fixed at 4M, zuko041 at 20M nodes
/// stopped "sound if", a drop at ply 18 unsettled, with 12M nodes unspent.
fn aimed_try_cap(tries: usize, budget: u64) -> Option<u64> {
    let &cap = AIMED_TRY_NODES.get(tries)?;
    Some(if tries + 1 == AIMED_TRY_NODES.len() {
        cap.max(budget / 5 * 4)
    } else {
        cap
    })
}

/// The megabytes of the table in which the main solver remembers, after the first solve, the
/// failures that rest on their path (`Solver::remember_path_failures`). On the 207 muso/zuko
/// rows at 5M nodes it made muso063 flawed, gave muso067 its exact length and two more
/// lengths their proofs, and changed no other report, in 1.5% fewer nodes (benches/TSUME.md).
/// From the first solve on it did more (muso040 proven 不詰, muso014 and muso028 their lengths)
/// but cost muso044 and muso058 their "sound": the first proof took more nodes. In the
/// solvers of the drops' proofs and of the detours it changed next to nothing.
const PATH_FAILURES_MB: usize = 8;

/// Nodes for the proof that every drop on a square is useless (such proofs that succeed took
/// 3 to 17 nodes on average on zuko007, zuko029 and muso086; a failure falls back to the proof
/// for the piece dropped).
const USELESS_SQUARE_NODES: u64 = 200;

/// What the exhaustive search (the tests' reference for the bounded one) has learnt about a
/// position.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default)]
struct Memo {
    /// The exact mate distance, once found.
    mate: Option<u16>,
    /// No mate within this many plies (plus one: 0 means nothing known).
    none_within: u16,
}

struct Checker {
    /// Exact mate distances.
    bounded: BoundedSearch,
    /// The exhaustive search's results, with the drops neither proven useless nor proven a
    /// defence taken for defences ([0]) or for useless ([1]).
    #[cfg(test)]
    memo: [HashMap<u64, Memo>; 2],
    /// Which reading of such drops the exhaustive search takes (the index of `memo`).
    #[cfg(test)]
    unproven_is_useless: bool,
    nodes: u64,
    budget: u64,
    /// When the check must stop, whatever its budget has left (`go mate`'s time).
    deadline: Option<Instant>,
    /// Set from outside to stop the check (`stop` to `go mate`).
    stop: Option<Arc<AtomicBool>>,
    /// Told the nodes now and then (`go mate`'s `info` lines).
    reporting: Option<Throttled<u64>>,
    aborted: bool,
    attacker: Color,
    solver: Solver,
    /// The solver that proves drops useless. Its positions have a piece taken out of the game,
    /// so the defender's hand is not what the board and the attacker's hand imply elsewhere:
    /// its proofs must not reach the main solver's table, which the bounded search trusts.
    useless_solver: Solver,
    /// The solver of the detour test ([`Checker::mates_at_all`]): its solves avoid the
    /// main line's positions, so its proofs must not reach the main solver's table either.
    detour_solver: Solver,
    /// Main lines already worked out, by position key: (line, pieces left in hand at the end).
    lines: HashMap<u64, (Vec<Move>, u32)>,
    /// What a defender's drop (by position key and move) that may be useless is.
    useless: HashMap<(u64, Move), Interposition>,
    /// Whether every drop on a square (by position key and square) is useless.
    useless_squares: HashMap<(u64, Square), bool>,
    /// Work out the exact length of shorter defences (see [`CheckLimits::early_mates`]).
    early_mates: bool,
    /// An answer of the bounded search rested on a drop neither proven useless nor proven a
    /// defence (see [`Interposition::Unproven`]) since this was last cleared.
    unproven_drop: bool,
    /// The drops not proven defences that failures found by the bounded search rest on (as
    /// `Oracle::rests_on_unproven` tells them), each once, gathered while `gather_unproven` is
    /// set: what a report that rests on such drops rests on (see [`Checker::check_again`]).
    unproven_met: Vec<(Position, Move)>,
    unproven_seen: HashSet<(u64, Move)>,
    gather_unproven: bool,
    /// What the df-pn solver's first proof gave, for the check to start from again.
    first_proof: Option<FirstProof>,
}

/// What the df-pn solver's first proof of a problem gave.
#[derive(Clone)]
struct FirstProof {
    /// The length of its line.
    solver_length: usize,
    /// The depth of its proof tree.
    depth: Option<u16>,
    /// The bound on the length it gives, with its line.
    length_at_most: Option<(usize, Vec<Move>)>,
}

/// What a defender's drop that may be a useless interposition (`muda::may_be_useless`) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interposition {
    /// Proven useless: no defence under the convention.
    Useless,
    /// Proven a defence: no capture of it leads to a mate without the piece.
    Defence,
    /// Neither, within the nodes of its tries (`USELESS_PROOF_NODES`, then
    /// `AIMED_TRY_NODES` when a finished check rests on it): taken for a defence, and whatever
    /// rests on it says so. `aimed_tries` counts the tries of `AIMED_TRY_NODES` it has had.
    Unproven { aimed_tries: u8 },
}

/// What the df-pn solves of a few positions (the defender to move) found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Solved {
    /// One of them is mate.
    OneMated,
    /// None of them is.
    NoneMated,
    /// None was proven mate, and some were not disproven either.
    Unsettled,
}

impl From<Solved> for Interposition {
    fn from(s: Solved) -> Interposition {
        match s {
            Solved::OneMated => Interposition::Useless,
            Solved::NoneMated => Interposition::Defence,
            Solved::Unsettled => Interposition::Unproven { aimed_tries: 0 },
        }
    }
}

/// An attacker turn of the main line, as [`Checker::examine_check`] sees it.
#[derive(Clone, Copy)]
struct Turn<'a> {
    /// The main line's move there.
    main: Move,
    /// The turn's ply, counted from 1.
    ply: usize,
    /// The plies of the main line from that turn on.
    left: u16,
    /// The main line's positions from that turn on (full keys), for the detour test.
    line_from_here: &'a [u64],
}

/// The checks at one attacker turn that the walk of the main line put off, with the turn.
struct PutOff<'a> {
    /// The position at the turn.
    position: Position,
    turn: Turn<'a>,
    checks: Vec<Move>,
}

/// Checks the problem in `sfen` (attacker to move).
///
/// The df-pn solver it calls recurses once per ply of the lines it explores: call this on a
/// thread with a large stack, as `hayate tsume check` does.
pub fn check_problem(sfen: &str, limits: &CheckLimits) -> Result<Report, String> {
    check_with_intended(sfen, &[], limits)
}

/// Checks the problem in `sfen` as [`check_problem`] does and, when `intended` is not empty,
/// holds that line (the composer's 作意, from the position as given) to the rules too, with a
/// budget of its own (`limits.nodes` more), so that the problem's own report is the same with
/// or without it; only a line shown to be a forced mate can tighten the upper bound a report
/// without the exact length gives.
pub fn check_with_intended(
    sfen: &str,
    intended: &[Move],
    limits: &CheckLimits,
) -> Result<Report, String> {
    check_with_record(sfen, intended, &[], limits)
}

/// Checks the problem in `sfen` with its intended line as [`check_with_intended`] does, and
/// holds the record's `variations` (変化) to the rules too: each a whole line from the position
/// as given, which branches off the intended line or a variation before it (see
/// [`ComposerVariation`]). They share a budget of their own, `limits.nodes` more, each an
/// equal part of what those before it left, so the report and the intended line's finding are
/// the same without them.
pub fn check_with_record(
    sfen: &str,
    intended: &[Move],
    variations: &[Vec<Move>],
    limits: &CheckLimits,
) -> Result<Report, String> {
    let sfen = sfen.trim();
    let sfen = sfen.strip_prefix("sfen ").unwrap_or(sfen);
    let given = Position::from_sfen(sfen).map_err(|e| e.to_string())?;
    let attacker = given.side_to_move();
    if super::defender_to_move(&given) {
        // A position after the attacker's check: a variation, which `hayate mate` solves.
        return Err(
            "the side to move is in check: a problem starts with the attacker to move".into(),
        );
    }
    if given.king_square(!attacker).is_none() {
        return Err("the defender has no king".into());
    }
    let mut pos = if limits.complete_hand {
        with_defender_holding_the_rest(&given)?
    } else {
        given
    };
    let mut c = Checker::with_hash(attacker, limits.nodes, limits.hash_mb);
    c.limit_memory(limits.memory_mb);
    c.early_mates = limits.early_mates;
    let mut report = Report::new(pos.to_sfen());
    let problem = pos.clone();
    c.gather_unproven = true;
    c.run(&mut pos, limits, &mut report);
    c.check_again(&mut pos, limits, &mut report);
    c.update_unsettled_drops(&problem, &mut report);
    c.shorten_shown_lines(&problem, &mut report);
    c.gather_unproven = false;
    if !intended.is_empty() {
        c.budget = c.nodes.saturating_add(limits.nodes);
        c.aborted = false;
        c.bounded.resume();
        let i = c.intended(&problem, intended, &report);
        tighten_with_forced_line(&mut report, &i);
        report.intended = Some(i);
    }
    let branches = variations::branch_plies(intended, variations);
    // Each variation gets an equal part of what the ones before it left: a short one's
    // unspent nodes go to those after it.
    let mut to_check = branches.iter().flatten().count() as u64;
    let mut left = limits.nodes;
    for (line, ply) in variations.iter().zip(branches) {
        let Some(ply) = ply else {
            continue;
        };
        let start = c.nodes;
        c.budget = start.saturating_add(left / to_check);
        c.aborted = false;
        c.bounded.resume();
        let finding = c.composer_variation(&problem, line, ply, &report);
        left = left.saturating_sub(c.nodes - start);
        to_check -= 1;
        report.variations.push(ComposerVariation {
            line: line.clone(),
            ply,
            finding,
        });
    }
    report.nodes = c.nodes;
    report.forgotten_for_memory = c.bounded.times_forgotten();
    Ok(report)
}

/// How far [`main_line_after_proof`] may go, and whom it tells how it goes.
#[derive(Default)]
pub struct LineLimits {
    /// Nodes of the exact search.
    pub nodes: u64,
    /// When it must give up, whatever nodes are left.
    pub deadline: Option<Instant>,
    /// Set from outside to make it give up.
    pub stop: Option<Arc<AtomicBool>>,
    /// Told the exact search's nodes so far, every so often at most, as the solver's
    /// `report_progress` tells a solve's: `go mate` sends its `info` lines on, a terminal's
    /// spinner its count.
    pub progress: Option<LineProgress>,
}

/// What [`LineLimits::progress`] holds: how often at most, and whom to tell.
pub struct LineProgress {
    pub every: Duration,
    pub tell: Box<dyn FnMut(u64) + Send>,
}

/// The time kept back from a deadline for the answer once the exact search gives up.
const LINE_ANSWER_MARGIN: Duration = Duration::from_millis(100);

/// The main line under the tsume rules, for `hayate mate` and `go mate`, once `solver` has
/// proven a mate from `pos` (attacker to move) with the line `line`, its table still holding
/// the proof: the exact distance by the bounded search (the quickest mate against the longest
/// defence, useless interpositions no defence), then the main line along it, which among
/// equally long defences takes one that leaves the attacker nothing in hand.
///
/// The solver's own line is the shortest mate it could find within twice the work of its first
/// proof, and the longest defence it knows of: on the 153 muso/zuko rows whose exact length
/// `hayate tsume check` finds at 5M nodes, 26 lines of `hayate mate` at 5M nodes were of
/// another length, the attacker's mate slower or the defender's resistance shorter than the
/// rules' main line.
///
/// `Some` only when the exact length rests on proofs alone (no drop taken for a defence
/// without proof) and the line is found within `limits`; the nodes spent either way. The
/// positions after the attacker's check (the defender to move) are left to the solver.
pub fn main_line_after_proof(
    solver: &mut Solver,
    pos: &Position,
    line: &[Move],
    limits: LineLimits,
) -> (Option<Vec<Move>>, u64) {
    if line.is_empty() || super::defender_to_move(pos) || limits.nodes == 0 {
        return (None, 0);
    }
    // The checker owns its solver: this one is lent to it, and a small stand-in keeps its
    // place meanwhile.
    let lent = std::mem::replace(solver, Solver::new(1));
    let helper_mb = CheckLimits::HELPER_HASH_MB;
    let mut c = Checker::with_solver(pos.side_to_move(), limits.nodes, lent, helper_mb);
    c.limit_memory(CheckLimits::default().memory_mb);
    c.early_mates = false;
    c.deadline = limits
        .deadline
        .map(|d| d.checked_sub(LINE_ANSWER_MARGIN).unwrap_or(d));
    c.stop = limits.stop;
    c.reporting = limits.progress.map(|p| Throttled::new(p.every, p.tell));
    let first = FirstProof {
        solver_length: line.len(),
        depth: c.solver.proof_depth(),
        length_at_most: None,
    };
    let mut p = pos.clone();
    // As the composer's check does (see `check_again`): a length that rests on drops not
    // proven defences has them tried again with more nodes, and is found again with what
    // they settle.
    c.gather_unproven = true;
    let length = loop {
        let Some(length) = c.exact_distance(&mut p, &first, CheckLimits::MAX_PLIES) else {
            break None;
        };
        if !c.unproven_drop {
            break Some(length);
        }
        if !c.settle_and_forget_unproven() {
            break None;
        }
    };
    c.gather_unproven = false;
    let main = length
        .filter(|_| !c.aborted)
        .and_then(|length| c.principal(&mut p, length))
        .filter(|_| !c.aborted)
        .map(|(main, _)| main);
    let Checker {
        solver: lent,
        nodes,
        ..
    } = c;
    *solver = lent;
    (main, nodes)
}

/// How many times the solve's own work the exact search after a proof may spend, at least
/// [`MAIN_LINE_MIN_NODES`]. Measured with `hayate mate --batch MZ --nodes 5000000` (MZ the 207
/// muso/zuko rows): where the exact search finished, it took a median 3.5 times the solve's
/// nodes and at most 12 on the rows whose line it changed (zuko027), while a search that does
/// not finish takes all it is given: `go mate infinite` must still answer.
pub const MAIN_LINE_WORK: u64 = 16;

/// The fewest nodes the exact search after a quick proof gets.
pub const MAIN_LINE_MIN_NODES: u64 = 500_000;

/// The most nodes the exact search after a proof gets, however long the solve took: 寿's
/// first proof takes about 3M nodes and ミクロコスモス's 16M, and sixteen times those would
/// keep `go mate infinite` from answering for minutes. On the rows whose line it changed at
/// 5M nodes a problem (above), the exact search took at most 4.0M (zuko027).
pub const MAIN_LINE_MAX_NODES: u64 = 5_000_000;

/// The nodes of the exact search after a solve of `solved` nodes under the node limit `limit`
/// (for the solve and the search together): [`MAIN_LINE_WORK`] times the solve's, within
/// [`MAIN_LINE_MIN_NODES`] and [`MAIN_LINE_MAX_NODES`], and within what the limit leaves.
fn main_line_nodes(solved: u64, limit: Option<u64>) -> u64 {
    let cap = solved
        .saturating_mul(MAIN_LINE_WORK)
        .clamp(MAIN_LINE_MIN_NODES, MAIN_LINE_MAX_NODES);
    limit.map_or(cap, |n| n.saturating_sub(solved).min(cap))
}

/// `verdict`, the answer of `solver`'s solve of `pos` within `limits`, with the main line
/// under the rules in place of the solver's line where the exact search finds it within what
/// the limits leave ([`main_line_after_proof`]; at most [`MAIN_LINE_WORK`] times the solve's
/// nodes, and at most [`MAIN_LINE_MAX_NODES`]), when the solve proved a mate and was asked for
/// the shortest line (`shorten`); `progress` is told its nodes as it goes. The verdict, and
/// the nodes the exact search spent.
pub fn with_main_line(
    solver: &mut Solver,
    pos: &Position,
    verdict: Verdict,
    limits: SolveLimits,
    progress: Option<LineProgress>,
) -> (Verdict, u64) {
    let Verdict::Mate(line) = &verdict else {
        return (verdict, 0);
    };
    let stopped = limits
        .stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::Relaxed));
    let late = limits.deadline.is_some_and(|d| Instant::now() >= d);
    if !limits.shorten || stopped || late {
        return (verdict, 0);
    }
    let line_nodes = main_line_nodes(solver.nodes(), limits.nodes);
    let (main, spent) = main_line_after_proof(
        solver,
        pos,
        line,
        LineLimits {
            nodes: line_nodes,
            deadline: limits.deadline,
            stop: limits.stop,
            progress,
        },
    );
    // The main line is played out move by move, as the solver's lines are.
    match main {
        Some(main) if verify_tsume_line(pos, &main).is_ok() => (Verdict::Mate(main), spent),
        _ => (verdict, spent),
    }
}

/// An intended line shown to be a forced mate (the exact length unknown) is a mate within its
/// plies: when that is fewer than the report's upper bound, or there was none, it becomes the
/// bound, with the line.
fn tighten_with_forced_line(report: &mut Report, i: &Intended) {
    if i.finding != IntendedFinding::ForcedMate || report.length.is_some() {
        return;
    }
    let n = i.line.len();
    if report
        .length_at_most
        .as_ref()
        .is_none_or(|(at_most, _)| n < *at_most)
    {
        report.length_at_most = Some((n, i.line.clone()));
    }
}

/// The position with every piece that is on neither the board nor in a hand put in the
/// defender's hand.
pub fn with_defender_holding_the_rest(pos: &Position) -> Result<Position, String> {
    pos.with_the_rest_in_hand(!pos.side_to_move())
        .map_err(|e| e.to_string())
}

impl Checker {
    #[cfg(test)]
    fn new(attacker: Color, budget: u64) -> Checker {
        Checker::with_hash(attacker, budget, CheckLimits::default().hash_mb)
    }

    /// Keeps the exact search's memory within `mb` megabytes (see [`CheckLimits::memory_mb`]).
    fn limit_memory(&mut self, mb: usize) {
        self.bounded.limit_memory(Some(mb.saturating_mul(1 << 20)));
    }

    /// A checker whose main solver has a table of `hash_mb` megabytes (see
    /// [`CheckLimits::hash_mb`]).
    fn with_hash(attacker: Color, budget: u64, hash_mb: usize) -> Checker {
        let helper_mb = (hash_mb / 4).clamp(1, CheckLimits::HELPER_HASH_MB);
        Checker::with_solver(attacker, budget, Solver::new(hash_mb), helper_mb)
    }

    /// A checker whose main solver is `solver`, and whose two helper solvers have tables of
    /// `helper_mb` megabytes.
    fn with_solver(attacker: Color, budget: u64, solver: Solver, helper_mb: usize) -> Checker {
        Checker {
            bounded: BoundedSearch::new(attacker),
            #[cfg(test)]
            memo: [HashMap::new(), HashMap::new()],
            #[cfg(test)]
            unproven_is_useless: false,
            nodes: 0,
            budget,
            deadline: None,
            stop: None,
            reporting: None,
            aborted: false,
            attacker,
            solver,
            useless_solver: Solver::new(helper_mb),
            detour_solver: Solver::new(helper_mb),
            lines: HashMap::new(),
            useless: HashMap::new(),
            useless_squares: HashMap::new(),
            early_mates: true,
            unproven_drop: false,
            unproven_met: Vec::new(),
            unproven_seen: HashSet::new(),
            gather_unproven: false,
            first_proof: None,
        }
    }

    fn run(&mut self, pos: &mut Position, limits: &CheckLimits, report: &mut Report) {
        // First the df-pn solver: a quick 不詰, or the proof that there is a mate.
        let verdict = self.solve_first(pos);
        // What follows the first solve is mostly disproofs: the checks that do not mate, and
        // the squares whose drops are not all useless (see `PATH_FAILURES_MB`).
        self.solver.remember_path_failures(PATH_FAILURES_MB);
        let solver_length = match verdict {
            Verdict::NoMate => {
                report.status = Status::NoMate;
                self.refute(pos, report);
                return;
            }
            Verdict::Unknown => {
                report.reason = Some("the solver ran out of nodes".into());
                return;
            }
            Verdict::Mate(line) => {
                let n = line.len();
                if let Some(depth) = self.solver.proof_depth() {
                    report.length_at_most = Some((depth as usize, line));
                }
                n
            }
        };
        self.first_proof = Some(FirstProof {
            solver_length,
            depth: self.solver.proof_depth(),
            length_at_most: report.length_at_most.clone(),
        });
        self.examine(pos, limits, report);
    }

    /// The check after the df-pn solver's first proof (`first_proof`): the exact length, the
    /// main line and every alternative along it.
    fn examine(&mut self, pos: &mut Position, limits: &CheckLimits, report: &mut Report) {
        let Some(first) = self.first_proof.clone() else {
            return;
        };
        let solver_length = first.solver_length;
        let max_plies = limits.max_plies.min(CheckLimits::MAX_PLIES);
        let found = self.exact_distance(pos, &first, max_plies);
        let Some(length) = found else {
            if self.aborted {
                self.tighten_bound(pos, report);
            }
            report.reason = Some(if self.aborted {
                "the search for the exact distance ran out of nodes".into()
            } else {
                format!(
                    "the mate is longer than {max_plies} plies (the solver found one of \
                     {solver_length})"
                )
            });
            return;
        };
        report.length = Some(length as usize);
        report.length_sure = !self.unproven_drop;
        report.length_at_most = None;
        let Some((line, spare)) = self.principal(pos, length) else {
            report.reason = Some("the search for the main line ran out of nodes".into());
            return;
        };
        report.main_line = line.clone();
        // The main line's positions, before each ply and at the end, for the detour test.
        let (on_line, end) = keys_along(pos, &line);
        report.spare = end.hand(self.attacker);
        debug_assert_eq!(report.spare.total(), spare);
        // Walk the main line and look at every alternative.
        let mut p = pos.clone();
        let mut put_off = Vec::new();
        for (i, &main) in line.iter().enumerate() {
            let left = (line.len() - i) as u16;
            if p.side_to_move() == self.attacker {
                let turn = Turn {
                    main,
                    ply: i + 1,
                    left,
                    line_from_here: &on_line[i..],
                };
                self.attacker_alternatives(&mut p, turn, report, &mut put_off);
            } else {
                self.defender_alternatives(&mut p, main, i + 1, left, spare, report);
            }
            if self.aborted {
                report.alternatives_stopped_at = Some(i + 1);
                break;
            }
            p.do_move(main);
        }
        self.settle_deferred(put_off, report);
        // A flaw found is proven (the main line is exact, and every 余詰 comes with a proof),
        // so the problem is flawed whatever the rest would show.
        let major = !report.spare.is_empty() || !report.cooks.is_empty();
        report.status = if self.aborted {
            report.reason = Some(if major {
                "the budget ran out while checking alternatives: more flaws may be left".into()
            } else {
                "the budget ran out while checking alternatives".into()
            });
            if major {
                Status::Flawed
            } else {
                Status::Unknown
            }
        } else if major {
            Status::Flawed
        } else if report.incomplete {
            report.reason = Some(
                "an alternative check could not be settled (whether it mates, or whether its \
                 mate keeps off the main line)"
                    .into(),
            );
            Status::Unknown
        } else if self.unproven_drop {
            // Sound is claimed only where it rests on proofs.
            report.reason = Some(SOUND_IF.into());
            report.unsettled_drops = self.drops_rested_on();
            Status::Unknown
        } else {
            Status::Sound
        };
    }

    /// The exact mate distance of the problem at `pos` (attacker to move) after the df-pn
    /// solver's first proof `first`, up to `max_plies`: `None` when the budget or the limit
    /// runs out first. Whether it rests on drops not proven defences is in `unproven_drop`.
    fn exact_distance(
        &mut self,
        pos: &mut Position,
        first: &FirstProof,
        max_plies: u16,
    ) -> Option<u16> {
        // The depth of the solver's (shortest) proof tree is a mate within that many plies
        // (the bounded search takes it from the solver's table), but it counts useless
        // interpositions as defences, so it can be far above the distance. The solver's line
        // leaves them out, and its length is the first guess: a bound that holds a mate is
        // narrowed two plies at a time, and one that holds none is widened by a quarter until
        // the limit. A proof within a bound far above the distance is the dear question
        // (muso079, 11 plies with a proof tree of 21: the proof within 19 took 2.5M nodes of
        // the bounded search and 1.7M of useless-drop proofs, the proofs within 17 to 11 and
        // the disproof within 9 about 24k together).
        let first_guess = first.depth.map_or(first.solver_length, |depth| {
            (depth as usize).min(first.solver_length)
        });
        let mut bound = (first_guess.min(u16::MAX as usize) as u16).clamp(1, max_plies.max(1)) | 1;
        // Best first while the distance is cheap (where the reports depend on what it stores and
        // gathers), depth first near the bound's end once it is dear (see
        // `DEPTH_FIRST_AFTER`).
        self.bounded.depth_first_after(Some(DEPTH_FIRST_AFTER));
        let found = loop {
            let bound_now = bound.min(max_plies);
            // Only the last question's answer makes the length.
            self.unproven_drop = false;
            match self.or_value(pos, bound_now) {
                Some(length) => break Some(length),
                None if self.aborted || bound_now >= max_plies => break None,
                None => bound = bound_now + (bound_now / 4).max(2) / 2 * 2,
            }
        };
        self.bounded.depth_first_after(None);
        found
    }

    /// Checks the problem again when the check came to its end with nodes left but its report
    /// rests on drops proven neither useless nor defences (`unproven_drop`). The drops its
    /// failures rest on (gathered in `unproven_met`) get more nodes, round by round, each drop
    /// the next of `AIMED_TRY_NODES` it has not had; whenever some are settled, the bounded
    /// search forgets every failure that rested on such drops, and the check after the first
    /// proof runs again, telling of the drops still left, which may be new ones: the rounds go
    /// on while a drop has a try left. (With one cap a round for every drop, a drop first met
    /// after the last round had no try: zuko052 stayed "sound if" with half its nodes left.)
    /// A run that comes to its end replaces the report; one that runs out leaves it as it was,
    /// but for its length, which it may have made sure.
    fn check_again(&mut self, pos: &mut Position, limits: &CheckLimits, report: &mut Report) {
        loop {
            if self.aborted || !self.unproven_drop || report.length.is_none() {
                return;
            }
            if !self.settle_and_forget_unproven() {
                return;
            }
            let mut again = Report::new(report.sfen.clone());
            again.length_at_most = self
                .first_proof
                .as_ref()
                .and_then(|f| f.length_at_most.clone());
            self.examine(pos, limits, &mut again);
            if self.aborted {
                if again.length == report.length && again.length_sure {
                    report.length_sure = true;
                }
                return;
            }
            *report = again;
        }
    }

    /// Tries the drops that the last answers rested on (`unproven_met`), round after round,
    /// until one is settled, and then forgets whatever rested on such drops, so that the next
    /// search asks again with what they settled. Whether one was settled (not when the budget
    /// ran out first, or no drop has a try left).
    fn settle_and_forget_unproven(&mut self) -> bool {
        loop {
            let (settled, more) = self.settle_unproven_met();
            if self.aborted || !(settled || more) {
                return false;
            }
            if settled {
                break;
            }
        }
        self.bounded.forget_unsure_failures();
        self.lines.clear();
        self.unproven_drop = false;
        self.unproven_met.clear();
        self.unproven_seen.clear();
        true
    }

    /// Tries the drops in `unproven_met` once more, each with the next of `AIMED_TRY_NODES` it
    /// has not had yet; those left unsettled stay. Whether one was settled, and whether one
    /// left has a try to come.
    fn settle_unproven_met(&mut self) -> (bool, bool) {
        let mut settled = false;
        let mut more = false;
        for (mut p, r) in std::mem::take(&mut self.unproven_met) {
            let key = (p.key(), r);
            if self.aborted {
                break;
            }
            let tries = match self.useless.get(&key) {
                Some(&Interposition::Unproven { aimed_tries }) => aimed_tries as usize,
                // Settled since.
                Some(_) => {
                    settled = true;
                    continue;
                }
                // Left unanswered when the budget ran out.
                None => continue,
            };
            let Some(cap) = aimed_try_cap(tries, self.budget) else {
                // Unsettled at the last cap: it stays as it is.
                self.unproven_met.push((p, r));
                continue;
            };
            let aimed_tries = (tries + 1) as u8;
            self.useless
                .insert(key, Interposition::Unproven { aimed_tries });
            let last = tries + 1 == AIMED_TRY_NODES.len();
            let positions = muda::positions_without_the_piece(&mut p, r);
            match self.proves_one(positions, cap, Some(r.dropped())) {
                Some(s) if s != Solved::Unsettled => {
                    self.useless.insert(key, s.into());
                    settled = true;
                }
                _ => {
                    more |= !last;
                    self.unproven_met.push((p, r));
                }
            }
        }
        (settled, more)
    }

    /// The drops gathered in `unproven_met`, each as the line from the problem's position
    /// that ends with it, in the order of their plies.
    fn drops_rested_on(&self) -> Vec<Vec<Move>> {
        let mut lines: Vec<Vec<Move>> = self
            .unproven_met
            .iter()
            .map(|(p, r)| {
                let mut line = p.moves_played();
                line.push(*r);
                line
            })
            .collect();
        lines.sort_by_key(|l| l.len());
        lines
    }

    /// Makes the lines the report shows for 余詰 and 迂回 quicker where it can, with what the
    /// problem's budget left once the report is final (so no verdict, length or finding
    /// depends on it). Those lines are read from df-pn proofs, not from the exact search: a
    /// 余詰 slower than the main line, one whose best play passes through the main line (shown
    /// by a mate that keeps off it), and a 迂回. Each gets an equal part of what the ones
    /// before it left for the solver's search for shorter mates (`SolveLimits::shorten`, as
    /// `hayate mate` makes its line), a 余詰's kept off the main line from its turn on; the
    /// line found replaces the old one when it is a mate under the convention (and, for a
    /// 余詰, keeps off the main line) with fewer plies.
    fn shorten_shown_lines(&mut self, problem: &Position, report: &mut Report) {
        if self.aborted || report.main_line.is_empty() {
            return;
        }
        let (on_line, _) = keys_along(problem, &report.main_line);
        let shown_by_proof = |a: &Alternative| a.length.is_none() || a.kept_off_the_main_line;
        let mut to_shorten =
            report.cooks.iter().filter(|a| shown_by_proof(a)).count() + report.detours.len();
        // In the order of their plies, so that the detour solver's sets of positions to keep
        // off only shrink (see `Solver::avoid`).
        let main_line = report.main_line.clone();
        for (alts, keep_off) in [(&mut report.cooks, true), (&mut report.detours, false)] {
            for a in alts.iter_mut().filter(|a| shown_by_proof(a)) {
                let nodes = self.nodes_left() / to_shorten.max(1) as u64;
                to_shorten -= 1;
                if nodes == 0 {
                    return;
                }
                let start = before_ply(problem, &main_line, a.ply);
                let mut p = start.clone();
                p.do_move(a.mv);
                let avoid = &on_line[a.ply - 1..];
                let solver = if keep_off {
                    self.detour_solver.avoid(avoid);
                    &mut self.detour_solver
                } else {
                    &mut self.solver
                };
                let limits = SolveLimits {
                    shorten: true,
                    tsume_line: true,
                    ..Checker::sub_limits(nodes, &self.deadline, &self.stop)
                };
                let v = solver.solve_mated(&mut p, limits);
                self.nodes += solver.nodes();
                let Verdict::Mate(line) = v else {
                    continue;
                };
                let line: Vec<Move> = [a.mv].into_iter().chain(line).collect();
                let kept_off = !keep_off || !passes_through(&start, &line, avoid);
                if line.len() < a.line.len() && kept_off && verify_tsume_line(&start, &line).is_ok()
                {
                    a.line = line;
                }
            }
        }
    }

    /// Brings a "sound if" report's drops up to date with the tries made after the report
    /// (`check_again`'s, when its check made again ran out of nodes and left the report as it
    /// was): a drop proven a defence since is no longer a condition, and one proven useless
    /// means the report no longer stands (its lines took for a defence what is none): the
    /// report then names those drops instead.
    fn update_unsettled_drops(&self, problem: &Position, report: &mut Report) {
        if report.reason.as_deref() != Some(SOUND_IF) || report.unsettled_drops.is_empty() {
            return;
        }
        let mut left = Vec::new();
        let mut useless = Vec::new();
        for line in std::mem::take(&mut report.unsettled_drops) {
            let Some((&r, before)) = line.split_last() else {
                continue;
            };
            let mut p = problem.clone();
            for &m in before {
                p.do_move(m);
            }
            match self.useless.get(&(p.key(), r)) {
                Some(Interposition::Defence) => {}
                Some(Interposition::Useless) => useless.push(line),
                _ => left.push(line),
            }
        }
        report.reason = Some(if !useless.is_empty() {
            report.drops_proven_useless = useless;
            USELESS_SINCE.into()
        } else if left.is_empty() {
            "the drops taken for defences were proven defences after the check, but the check \
             made again ran out of nodes"
                .into()
        } else {
            report.unsettled_drops = left;
            return;
        });
    }

    /// When the exact distance runs out, the bounded search may have proven a mate within
    /// fewer plies than the solver's proof tree (which counts useless interpositions as
    /// defences): muso012's tree has 65 plies, and "within 63" was proven before "within 61"
    /// ran out. The report then gives that bound, with a line within it along the bounded
    /// search's proofs, if that line is a mate.
    fn tighten_bound(&mut self, pos: &Position, report: &mut Report) {
        let Some((at_most, _)) = report.length_at_most else {
            return;
        };
        let Some(proven) = self.bounded.proof_known(pos) else {
            return;
        };
        if proven as usize >= at_most {
            return;
        }
        // The walk asks this checker (as the oracle) what its solver has proven.
        let mut bounded = std::mem::take(&mut self.bounded);
        let line = bounded.proven_line(pos, self);
        self.bounded = bounded;
        if let Some(line) = line.filter(|l| verify_tsume_line(pos, l).is_ok()) {
            report.length_at_most = Some((proven as usize, line));
        }
    }

    /// The other checks at an attacker turn: 余詰 or 最終手余詰 when they mate. A check that
    /// df-pn cannot settle within its share of the budget (`FIRST_SHARE`) is put off until the
    /// whole main line has been walked (see [`Checker::settle_deferred`]).
    fn attacker_alternatives<'a>(
        &mut self,
        p: &mut Position,
        turn: Turn<'a>,
        report: &mut Report,
        put_off: &mut Vec<PutOff<'a>>,
    ) {
        let mut checks = MoveList::new();
        generate_checks(p, &mut checks);
        let cap = (self.budget / FIRST_SHARE).max(20_000);
        let mut unsettled = Vec::new();
        for &m in checks.iter() {
            if m == turn.main || self.aborted {
                continue;
            }
            if !self.examine_check(p, turn, m, cap, report) {
                unsettled.push(m);
            }
        }
        if !unsettled.is_empty() {
            put_off.push(PutOff {
                position: p.clone(),
                turn,
                checks: unsettled,
            });
        }
    }

    /// Examines again, with what is left of the budget, the checks the walk of the main line
    /// could not settle within their share (when the walk ran out of budget, they stay
    /// unsettled and the report incomplete): each gets an equal part of what is left, taken
    /// in turn, so that one that needs little leaves more to the next. Before, such a check
    /// made the report incomplete even when most of the budget was never spent (muso033: its
    /// ▲8三金 at ply 11 needs 1.10M nodes of df-pn against a share of 1M, and the check
    /// stopped at 2.03M of its 5M). What they show is put in ply order with the rest.
    fn settle_deferred(&mut self, deferred: Vec<PutOff<'_>>, report: &mut Report) {
        let mut waiting: usize = deferred.iter().map(|d| d.checks.len()).sum();
        for d in &deferred {
            let mut p = d.position.clone();
            for &m in &d.checks {
                let share = self.nodes_left() / waiting as u64;
                waiting -= 1;
                if self.aborted || !self.examine_check(&mut p, d.turn, m, share, report) {
                    report.incomplete = true;
                    let mut line = p.moves_played();
                    line.push(m);
                    report.unsettled_checks.push(line);
                }
            }
        }
        for list in report.attacker_alternatives_mut() {
            list.sort_by_key(|a| a.ply);
        }
    }

    /// Examines the check `m`, not the main line's, at an attacker turn (`p` before it),
    /// with df-pn's searches capped at `cap` nodes, and reports what it is when it mates.
    /// Returns `false` when it is not settled: whether it mates at all, or whether its mate
    /// keeps off the main line.
    fn examine_check(
        &mut self,
        p: &mut Position,
        turn: Turn<'_>,
        m: Move,
        cap: u64,
        report: &mut Report,
    ) -> bool {
        let Turn {
            main,
            ply,
            left,
            line_from_here,
        } = turn;
        // The same move but for promotion, or the same drop at another distance: minor
        // when it mates (the drop only as fast: `drop_choice` is narrowed below), whatever
        // its line.
        let twin = is_promotion_choice(m, main);
        let drop_choice = is_drop_choice(p, m, main);
        p.do_move(m);
        self.after_check_of_exact(p, left);
        // Most checks do not mate at all, which one df-pn search of the defender's turn
        // usually shows sooner than the bounded search shows that there is no mate within
        // the plies left. So df-pn goes first, and only a check that mates, or that it
        // cannot settle, is given to the bounded search for its length (which the proof
        // and line df-pn leaves in its table make cheaper). At the last turn only a mate
        // at once counts, which the bounded search answers at once.
        let at_all = if left > 1 {
            self.mates_at_all(p, &[], cap)
        } else {
            None
        };
        let fast = match at_all {
            Some(None) => None,
            _ => self.and_value(p, left - 1),
        };
        let alt = match fast {
            Some(k) => self.principal(p, k).map(|(mut sub, _)| {
                sub.insert(0, m);
                Alternative {
                    ply,
                    mv: m,
                    line: sub,
                    length: Some(k as usize + 1),
                    unproven_interposition: false,
                    kept_off_the_main_line: false,
                }
            }),
            // At the last turn only a mate at once counts as an alternative.
            None if left == 1 => None,
            None => match at_all {
                Some(Some(sub)) => {
                    let mut line = vec![m];
                    line.extend(sub);
                    Some(Alternative {
                        ply,
                        mv: m,
                        line,
                        length: None,
                        unproven_interposition: false,
                        kept_off_the_main_line: false,
                    })
                }
                Some(None) => None,
                None => {
                    p.undo_move(m);
                    return false;
                }
            },
        };
        // A mate that only comes back to the main line is a detour (slower) or the main
        // line in another order (as fast), not a cook, unless it also mates with the main
        // line's positions out of reach.
        let drop_choice = drop_choice && alt.as_ref().is_some_and(|a| a.length.is_some());
        // `None`: whether it keeps off the main line is not known within the budget.
        // Otherwise whether every mate comes back to it, and the line after the check of
        // one that does not, when the test ran.
        let rejoins = if left > 1 && alt.is_some() && !twin && !drop_choice {
            self.mates_at_all(p, line_from_here, cap)
                .map(|keeps_off| (keeps_off.is_none(), keeps_off))
        } else {
            Some((false, None))
        };
        p.undo_move(m);
        let Some((rejoins, off_the_line)) = rejoins else {
            // A mate, but a 余詰 only if it keeps off the main line: unproven either way,
            // so neither a flaw nor a detour.
            return false;
        };
        if let Some(a) = alt {
            if twin {
                report.promotion_choices.push(a);
            } else if drop_choice {
                report.drop_choices.push(a);
            } else if rejoins && a.length.is_none() {
                report.detours.push(a);
            } else if rejoins {
                report.transpositions.push(a);
            } else if left == 1 {
                report.last_move_alternatives.push(a);
            } else {
                report.cooks.push(cook_line_off_the_main_line(
                    p,
                    a,
                    off_the_line,
                    line_from_here,
                ));
            }
        }
        true
    }

    /// The other defences at a defender turn: 変同 when as long and ending with nothing in
    /// hand like the main line, 早詰 when shorter.
    fn defender_alternatives(
        &mut self,
        p: &mut Position,
        main: Move,
        ply: usize,
        left: u16,
        main_spare: u32,
        report: &mut Report,
    ) {
        let mut replies = MoveList::new();
        generate_legal(p, &mut replies);
        for &m in replies.iter() {
            if m == main || self.aborted {
                continue;
            }
            p.do_move(m);
            let value = if self.early_mates {
                self.or_value(p, left - 1)
            } else {
                // Only a defence as long as the main line's can be a 変同.
                self.longest_defence(p, left)
            };
            let alt = value.and_then(|k| {
                self.principal(p, k).map(|(mut sub, spare)| {
                    sub.insert(0, m);
                    (k, sub, spare)
                })
            });
            p.undo_move(m);
            let Some((k, line, spare)) = alt else {
                continue;
            };
            if self.is_useless(p, m) {
                // No defence under the convention: neither 変同 nor 早詰.
                continue;
            }
            // A drop proven neither useless nor a defence is reported, and said to be unproven:
            // left out, a 変同 that is one would be lost; given as sure, one that is not would
            // be claimed (muso081's △6五銀 at ply 18 and zuko026's △2四香 at ply 10 were, in
            // their first checks at 5M; the checks made again proved both defences). A minor
            // finding, so no more nodes are spent on it.
            let a = Alternative {
                ply,
                mv: m,
                line,
                length: Some(k as usize + 1),
                unproven_interposition: !self.is_proven_defence(p, m),
                kept_off_the_main_line: false,
            };
            if k + 1 == left {
                if spare == 0 && main_spare == 0 {
                    report.equal_variations.push(a);
                }
            } else {
                report.early_mates.push(a);
            }
        }
    }

    /// Whether the attacker mates after his check (defender to move in `p`) at any length, by
    /// one df-pn search of the defender's turn: `Some(Some(line))` with a mating line (from the
    /// defender's reply, the longest by the proof's lengths, under the convention),
    /// `Some(None)` when a defence refutes it, `None` when unknown.
    ///
    /// One search of the whole turn, not one solve per defence: df-pn spends its nodes on the
    /// defence that looks nearest a refutation, where solves one after another spent their
    /// shares on the first defences, whatever they were (on the 1M-node batch of the 207
    /// muso/zuko rows, 25 sound and 158 unknown against 20 and 165).
    ///
    /// With `avoid` (full keys, for the detour test: the main line's positions from the turn of
    /// the check on) only mates that never pass through those positions count, and the solves
    /// are the detour solver's: `Some(None)` then says that every mate after the check comes
    /// back to the main line.
    fn mates_at_all(
        &mut self,
        p: &mut Position,
        avoid: &[u64],
        cap: u64,
    ) -> Option<Option<Vec<Move>>> {
        if self.bounded.never_mates(p)
            || matches!(self.solver.known(p), Some(Settled::NoMate(_)))
            || avoid.contains(&p.key())
        {
            // Already refuted, at every length, or the check lands on the main line.
            return Some(None);
        }
        let off_the_line = !avoid.is_empty();
        if off_the_line {
            self.detour_solver.avoid(avoid);
        }
        let mut replies = MoveList::new();
        generate_legal(p, &mut replies);
        if replies.is_empty() {
            return Some(Some(Vec::new()));
        }
        let left = self.nodes_left();
        if left == 0 {
            self.aborted = true;
            return None;
        }
        let cap = cap.min(left);
        let solver = if off_the_line {
            &mut self.detour_solver
        } else {
            &mut self.solver
        };
        // A defence that reaches an avoided position is a repetition there: no mate.
        let v = solver.prove_evasions(p, Checker::sub_limits(cap, &self.deadline, &self.stop));
        self.nodes += solver.nodes();
        self.watch_the_clock();
        match v {
            Some(false) => Some(None),
            None => None,
            Some(true) => {
                // The line, read from the proof in the table, as `hayate mate` gives it: the
                // longest defence by the table's lengths, and no useless interposition taken
                // for one. (The first defence and every interposition, before: 29 of the
                // 127 mating tries that the reports' records show were then not the best
                // play, the check of those records found.)
                let nodes = cap.min(self.nodes_left());
                if nodes == 0 {
                    self.aborted = true;
                    return None;
                }
                let limits = SolveLimits {
                    tsume_line: true,
                    ..Checker::sub_limits(nodes, &self.deadline, &self.stop)
                };
                let solver = if off_the_line {
                    &mut self.detour_solver
                } else {
                    &mut self.solver
                };
                let v = solver.solve_mated(p, limits);
                self.nodes += solver.nodes();
                self.watch_the_clock();
                match v {
                    Verdict::Mate(line) => Some(Some(line)),
                    _ => None,
                }
            }
        }
    }

    /// For 不詰: a refuting defence for each check of the first move. Each defence first gets
    /// a fiftieth of the budget; the defences of a check that none of them refuted within that
    /// are tried again once every check has had its turn (muso073's ▲8八銀 had none at 5M
    /// with 1.7M nodes never spent; △同玉 refutes it).
    fn refute(&mut self, pos: &mut Position, report: &mut Report) {
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        if checks.len() > MAX_REFUTATIONS {
            return;
        }
        for &m in checks.iter() {
            let refutation = self.refutation(pos, m, None);
            report.refutations.push((m, refutation));
        }
        // A check whose defences all outlasted their shares tries them again, with an equal
        // part of what the budget has left (the checks left share it equally).
        let open: Vec<usize> = (0..report.refutations.len())
            .filter(|&i| report.refutations[i].1.is_none())
            .collect();
        for (k, &i) in open.iter().enumerate() {
            let for_check = self.nodes_left() / (open.len() - k) as u64;
            report.refutations[i].1 =
                self.refutation(pos, report.refutations[i].0, Some(for_check));
        }
    }

    /// The first defence to the check `m` in `pos` after which df-pn proves no mate. Each
    /// defence's solve gets [`Checker::share`], or with `for_check` an equal part of what is
    /// left of that many nodes (the defences left share it equally).
    fn refutation(&mut self, pos: &mut Position, m: Move, for_check: Option<u64>) -> Option<Move> {
        pos.do_move(m);
        let mut replies = MoveList::new();
        generate_legal(pos, &mut replies);
        let spent_before = self.nodes;
        let mut refutation = None;
        for (j, &r) in replies.iter().enumerate() {
            let cap = match for_check {
                None => self.share(),
                Some(total) => {
                    let left = total.saturating_sub(self.nodes - spent_before);
                    Some(left / (replies.len() - j) as u64)
                }
            };
            if self.aborted || cap == Some(0) {
                break;
            }
            pos.do_move(r);
            let v = self.solve_within(pos, cap, false);
            pos.undo_move(r);
            if v == Verdict::NoMate {
                refutation = Some(r);
                break;
            }
        }
        pos.undo_move(m);
        refutation
    }

    /// A df-pn solve of `pos` (attacker to move) within what is left of the budget, and
    /// within `cap` nodes when given (so that one hard sub-position cannot eat the budget
    /// the others need). Only the verdict is used, so the solver does not look for shorter
    /// mates: the exhaustive search gives the lengths. `off_the_line` asks the detour solver
    /// (see [`Checker::mates_at_all`]).
    fn solve_within(
        &mut self,
        pos: &mut Position,
        cap: Option<u64>,
        off_the_line: bool,
    ) -> Verdict {
        let left = self.nodes_left();
        if left == 0 {
            self.aborted = true;
            return Verdict::Unknown;
        }
        let solver = if off_the_line {
            &mut self.detour_solver
        } else {
            &mut self.solver
        };
        let nodes = cap.map_or(left, |c| c.min(left));
        let v = solver.solve(pos, Checker::sub_limits(nodes, &self.deadline, &self.stop));
        self.nodes += solver.nodes();
        self.watch_the_clock();
        v
    }

    /// The first solve of the problem: with `shorten` it also looks for shorter mates and gives
    /// the line under the tsume convention, so that a problem whose exact distance the budget
    /// cannot settle still gets a close upper bound.
    fn solve_first(&mut self, pos: &mut Position) -> Verdict {
        let left = self.nodes_left();
        let v = self.solver.solve(
            pos,
            SolveLimits {
                nodes: Some(left),
                shorten: true,
                tsume_line: true,
                ..SolveLimits::default()
            },
        );
        self.nodes += self.solver.nodes();
        v
    }

    /// What is left of the budget.
    fn nodes_left(&self) -> u64 {
        self.budget.saturating_sub(self.nodes)
    }

    /// A share of the budget for one of many sub-solves.
    fn share(&self) -> Option<u64> {
        Some((self.budget / 50).max(10_000))
    }

    /// Counts one node of the bounded search, if the budget has one left. A df-pn solve can
    /// spend the budget to the node without stopping the check; the next tick then stops it
    /// rather than count one past the budget (the reports said 5000001 of 5M on 24 of the
    /// 207 muso/zuko rows).
    fn tick(&mut self) {
        if self.nodes >= self.budget {
            self.aborted = true;
            return;
        }
        self.nodes += 1;
        if self.nodes >= self.budget {
            self.aborted = true;
        }
        // The clock is read now and then: a node takes well under a microsecond, so a
        // thousand of them stay within the answer's margin.
        if self.nodes.is_multiple_of(1024) {
            self.watch_the_clock();
        }
    }

    /// Stops the check once its deadline has passed or it was told to stop (`go mate`), and
    /// says whether it did; tells how it goes when asked to. A check without any of these
    /// (`hayate tsume check`) goes by its nodes alone.
    fn watch_the_clock(&mut self) -> bool {
        if self.deadline.is_none() && self.stop.is_none() && self.reporting.is_none() {
            return false;
        }
        let now = Instant::now();
        if let Some(r) = &mut self.reporting {
            r.tell_if_due(now, || self.nodes);
        }
        let late = self.deadline.is_some_and(|d| now >= d);
        let stopped = self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed));
        self.aborted |= late || stopped;
        late || stopped
    }

    /// The limits of a df-pn solve within the check: `nodes`, and the check's own deadline
    /// and stop flag, so that a solve does not run past them.
    fn sub_limits(
        nodes: u64,
        deadline: &Option<Instant>,
        stop: &Option<Arc<AtomicBool>>,
    ) -> SolveLimits {
        SolveLimits {
            nodes: Some(nodes),
            deadline: *deadline,
            stop: stop.clone(),
            ..SolveLimits::default()
        }
    }

    /// Tells the bounded search what a check `pos` (defender to move) from a position whose
    /// exact distance is `value` cannot do: mate within `value - 2` plies, or the check's
    /// position would mate within `value - 1`. Its distance is then found with a proof alone,
    /// instead of a search for a shorter mate that the parent has already ruled out.
    fn after_check_of_exact(&mut self, pos: &Position, value: u16) {
        if value >= 2 {
            // The value is sure when no answer so far rested on an unproven drop.
            let sure = !self.unproven_drop;
            self.bounded.rule_out(pos, value - 2, sure);
        }
    }

    /// `Some(value - 1)` when the defence that led to `pos` (attacker to move), at a defender
    /// turn whose exact distance is `value`, is one of the longest: mated within `value - 1`
    /// plies but not within `value - 3`. A shorter defence's exact length is not needed, and
    /// finding it would take a search that there is no mate shorter still.
    fn longest_defence(&mut self, pos: &mut Position, value: u16) -> Option<u16> {
        if value == 0 || self.mates_within(pos, value - 1) != Some(true) {
            return None;
        }
        if value >= 3 && self.mates_within(pos, value - 3) != Some(false) {
            return None;
        }
        Some(value - 1)
    }

    /// Whether the attacker mates from `pos` within `bound` plies; `None` when the budget ran
    /// out.
    fn mates_within(&mut self, pos: &mut Position, bound: u16) -> Option<bool> {
        if self.aborted {
            return None;
        }
        let mut bounded = std::mem::take(&mut self.bounded);
        let v = bounded.mates_within(pos, bound, self);
        self.unproven_drop |= bounded.took_an_unproven_drop();
        self.bounded = bounded;
        if v.is_none() {
            self.aborted = true;
        }
        v
    }

    /// The exact number of plies to mate from `pos` (attacker to move) if it is at most
    /// `bound`.
    fn or_value(&mut self, pos: &mut Position, bound: u16) -> Option<u16> {
        self.distance(pos, bound)
    }

    /// The exact number of plies to mate from `pos` (defender to move, in check) if it is at
    /// most `bound`: the defender's longest resistance.
    fn and_value(&mut self, pos: &mut Position, bound: u16) -> Option<u16> {
        self.distance(pos, bound)
    }

    fn distance(&mut self, pos: &mut Position, bound: u16) -> Option<u16> {
        if self.aborted {
            return None;
        }
        // The search asks this checker whether drops are useless, so it is taken out of it
        // while it runs.
        let mut bounded = std::mem::take(&mut self.bounded);
        let v = bounded.distance(pos, bound, self);
        self.unproven_drop |= bounded.took_an_unproven_drop();
        self.bounded = bounded;
        match v {
            Some(v) => v,
            None => {
                self.aborted = true;
                None
            }
        }
    }

    /// What the memo says of `key` within `bound` plies: `Some(result)` when it settles it.
    #[cfg(test)]
    fn lookup(&self, key: u64, bound: u16) -> Option<Option<u16>> {
        let e = self.memo[self.unproven_is_useless as usize].get(&key)?;
        if let Some(v) = e.mate {
            return Some((v <= bound).then_some(v));
        }
        (e.none_within > bound).then_some(None)
    }

    #[cfg(test)]
    fn remember(&mut self, key: u64, bound: u16, result: Option<u16>) {
        if self.aborted {
            return;
        }
        let e = self.memo[self.unproven_is_useless as usize]
            .entry(key)
            .or_default();
        match result {
            Some(v) => e.mate = Some(v),
            None => e.none_within = e.none_within.max(bound.saturating_add(1)),
        }
    }

    /// The exact number of plies to mate from `pos` (attacker to move) if it is at most
    /// `bound`, by exhaustive minimax: the tests' reference.
    #[cfg(test)]
    fn exhaustive_or_value(&mut self, pos: &mut Position, bound: u16) -> Option<u16> {
        if bound == 0 || self.aborted {
            return None;
        }
        let key = pos.key();
        if let Some(r) = self.lookup(key, bound) {
            return r;
        }
        self.tick();
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        let mut best: Option<u16> = None;
        for &m in checks.iter() {
            // Only a strictly shorter mate improves on the best so far (lengths are odd).
            let child_bound = match best {
                None => bound - 1,
                Some(1) => break,
                Some(v) => v - 3,
            };
            pos.do_move(m);
            let v = self.exhaustive_and_value(pos, child_bound);
            pos.undo_move(m);
            if self.aborted {
                return None;
            }
            if let Some(k) = v {
                best = Some(k + 1);
            }
        }
        self.remember(key, bound, best);
        best
    }

    /// The exact number of plies to mate from `pos` (defender to move, in check) if it is at
    /// most `bound`, by exhaustive minimax: the tests' reference.
    #[cfg(test)]
    fn exhaustive_and_value(&mut self, pos: &mut Position, bound: u16) -> Option<u16> {
        if self.aborted {
            return None;
        }
        let key = pos.key();
        if let Some(r) = self.lookup(key, bound) {
            return r;
        }
        self.tick();
        let mut replies = MoveList::new();
        generate_legal(pos, &mut replies);
        // Drops that may be useless interpositions last: leaving one out takes a proof.
        let (drops, others): (Vec<Move>, Vec<Move>) =
            replies.iter().partition(|&&r| muda::may_be_useless(pos, r));
        if others.is_empty() {
            // Mate, or a check that leaves only useless interpositions: mate as well.
            let mated = drops.iter().all(|&r| self.useless_for_reference(pos, r));
            if self.aborted {
                return None;
            }
            if mated {
                self.remember(key, bound, Some(0));
                return Some(0);
            }
        }
        if bound < 2 {
            self.remember(key, bound, None);
            return None;
        }
        let mut worst = 0;
        for (i, &r) in others.iter().chain(drops.iter()).enumerate() {
            pos.do_move(r);
            let v = self.exhaustive_or_value(pos, bound - 1);
            pos.undo_move(r);
            if self.aborted {
                return None;
            }
            let may_be_useless = i >= others.len();
            match v {
                // Too short to raise the resistance, useless or not.
                Some(k) if k < worst => {}
                _ if may_be_useless && self.useless_for_reference(pos, r) => {}
                Some(k) => worst = worst.max(k + 1),
                None => {
                    self.remember(key, bound, None);
                    return None;
                }
            }
            if self.aborted {
                return None;
            }
        }
        self.remember(key, bound, Some(worst));
        Some(worst)
    }

    /// Whether the exhaustive search takes the drop `r` for useless, in the reading of
    /// `unproven_is_useless`.
    #[cfg(test)]
    fn useless_for_reference(&mut self, pos: &mut Position, r: Move) -> bool {
        match self.interposition(pos, r) {
            Some(Interposition::Useless) => true,
            Some(Interposition::Unproven { .. }) => self.unproven_is_useless,
            _ => false,
        }
    }

    /// Whether the defender's reply `r` in `pos` is a useless interposition: a drop that
    /// `muda::may_be_useless`, after whose capture by the checking piece the df-pn solver proves
    /// the mate without the piece in hand. The answer is remembered, so every search sees the
    /// same one whatever its bound; a drop not proven useless within `USELESS_PROOF_NODES` is
    /// taken for a defence (see [`Interposition::Unproven`]).
    fn is_useless(&mut self, pos: &mut Position, r: Move) -> bool {
        self.interposition(pos, r) == Some(Interposition::Useless)
    }

    /// Whether the defender's reply `r` in `pos` is surely a defence: not a drop that may be
    /// useless, or one proven not to be when `is_useless` was asked (this asks nothing).
    fn is_proven_defence(&self, pos: &Position, r: Move) -> bool {
        !muda::may_be_useless(pos, r)
            || self.useless.get(&(pos.key(), r)) == Some(&Interposition::Defence)
    }

    /// What the drop `r` in `pos` is, when it `muda::may_be_useless` (`None` otherwise). Out
    /// of budget it is `Unproven`, and not remembered.
    fn interposition(&mut self, pos: &mut Position, r: Move) -> Option<Interposition> {
        if !muda::may_be_useless(pos, r) {
            return None;
        }
        let key = (pos.key(), r);
        if let Some(&i) = self.useless.get(&key) {
            return Some(i);
        }
        let solved = match self.useless_square(pos, r) {
            Some(true) => Some(Solved::OneMated),
            Some(false) => {
                let positions = muda::positions_without_the_piece(pos, r);
                self.proves_one(positions, USELESS_PROOF_NODES, Some(r.dropped()))
            }
            None => None,
        };
        // Unsettled, it is tried again with more nodes only if a finished check rests on it
        // (`check_again`): tries while the check ran, at whatever unsettled drop it met (with a
        // tenth of the budget, 10,000 and then 100,000 nodes each), cost more verdicts and
        // lengths than they settled (benches/TSUME.md).
        let Some(solved) = solved else {
            return Some(Interposition::Unproven { aimed_tries: 0 });
        };
        let i = solved.into();
        self.useless.insert(key, i);
        Some(i)
    }

    /// Whether every drop on the square of `r` is useless in `pos`: whether the checking piece
    /// mates from there with the defender holding every piece (see
    /// `muda::positions_as_if_not_dropped`). One proof for every piece that may be dropped
    /// there, with real positions, so the main solver proves it and its table helps. `None`
    /// when the budget runs out.
    fn useless_square(&mut self, pos: &mut Position, r: Move) -> Option<bool> {
        let key = (pos.key(), r.to());
        if let Some(&u) = self.useless_squares.get(&key) {
            return Some(u);
        }
        let positions = muda::positions_as_if_not_dropped(pos, r);
        let useless = self.proves_one(positions, USELESS_SQUARE_NODES, None)? == Solved::OneMated;
        self.useless_squares.insert(key, useless);
        Some(useless)
    }

    /// Whether one of `positions` (defender to move, in check) is proven mate within `cap`
    /// nodes each: by the main solver, or, with a piece `out_of_game`, by the useless-drop
    /// solver with that piece taken out. `None` when the budget runs out.
    fn proves_one(
        &mut self,
        positions: Vec<Position>,
        cap: u64,
        out_of_game: Option<PieceType>,
    ) -> Option<Solved> {
        let mut solved = Solved::NoneMated;
        for mut p in positions {
            let left = self.nodes_left();
            if left == 0 {
                self.aborted = true;
                return None;
            }
            let solver = match out_of_game {
                Some(kind) => {
                    self.useless_solver.set_out_of_game(Some(kind));
                    &mut self.useless_solver
                }
                None => &mut self.solver,
            };
            let limits = Checker::sub_limits(cap.min(left), &self.deadline, &self.stop);
            let v = solver.prove_evasions(&mut p, limits);
            self.nodes += solver.nodes();
            // A solve cut short by the clock settles nothing.
            if self.watch_the_clock() {
                return None;
            }
            match v {
                Some(true) => return Some(Solved::OneMated),
                Some(false) => {}
                None => solved = Solved::Unsettled,
            }
        }
        Some(solved)
    }

    /// The main line from `pos`, whose exact mate distance is `value`, with the number of
    /// pieces the attacker holds at its end: the attacker plays a quickest mate, the defender
    /// a longest defence, each (among the moves tied on length) the one that leaves the
    /// attacker the fewest pieces; ties on that, at an attacker turn before the last, go to the
    /// check with the shortest proof known. `None` when the budget runs out.
    fn principal(&mut self, pos: &mut Position, value: u16) -> Option<(Vec<Move>, u32)> {
        let key = pos.key();
        if let Some(r) = self.lines.get(&key) {
            return Some(r.clone());
        }
        let or_node = pos.side_to_move() == self.attacker;
        let mut moves = MoveList::new();
        super::turn_moves(pos, or_node, &mut moves);
        // Mate, or only useless interpositions left (mate under the convention).
        if !or_node && (moves.is_empty() || value == 0) {
            return Some((Vec::new(), pos.hand(self.attacker).total()));
        }
        if value == 0 {
            return None;
        }
        // At an attacker turn before the last, the first quickest check that leaves nothing in
        // hand will do: no other can leave less, and a second quickest one is a 余詰 (or a
        // minor twin), which the walk of the alternatives finds and reports with its own line.
        // Showing that the other checks are slower is what costs (each a search that there is
        // no mate within the bound), and the walk does it once, along the main line only. The
        // checks with a short proof known go first.
        let first_will_do = or_node && value >= 3;
        let mut moves: Vec<Move> = moves.iter().copied().collect();
        if first_will_do {
            // A stable sort: checks tied on what is known keep their order.
            moves.sort_by_cached_key(|&m| {
                pos.do_move(m);
                let proof = self.bounded.proof_known(pos).unwrap_or(u16::MAX);
                pos.undo_move(m);
                proof
            });
        }
        let mut best: Option<(Vec<Move>, u32)> = None;
        for &m in &moves {
            pos.do_move(m);
            if or_node {
                self.after_check_of_exact(pos, value);
            }
            let v = if or_node {
                self.and_value(pos, value - 1)
            } else {
                self.longest_defence(pos, value)
            };
            let sub = if v == Some(value - 1) {
                self.principal(pos, value - 1)
            } else {
                None
            };
            pos.undo_move(m);
            if sub.is_some() && !or_node && self.is_useless(pos, m) {
                // Never the main line's defence, however long.
                continue;
            }
            if sub.is_some() && !or_node && !self.is_proven_defence(pos, m) {
                // One of the longest defences is a drop that may be useless after all: the
                // choice among them (and so what is left in hand at the end) rests on it.
                self.unproven_drop = true;
                self.rests_on_unproven(pos, m);
            }
            if self.aborted {
                return None;
            }
            if let Some((mut line, spare)) = sub {
                if best.as_ref().is_none_or(|b| spare < b.1) {
                    line.insert(0, m);
                    best = Some((line, spare));
                }
                if first_will_do && best.as_ref().is_some_and(|b| b.1 == 0) {
                    break;
                }
            }
        }
        let best = best?;
        self.lines.insert(key, best.clone());
        Some(best)
    }
}

impl Oracle for Checker {
    fn is_useless(&mut self, pos: &mut Position, r: Move) -> bool {
        Checker::is_useless(self, pos, r)
    }

    fn is_proven_defence(&mut self, pos: &Position, r: Move) -> bool {
        Checker::is_proven_defence(self, pos, r)
    }

    fn rests_on_unproven(&mut self, pos: &Position, r: Move) {
        if self.gather_unproven && self.unproven_seen.insert((pos.key(), r)) {
            self.unproven_met.push((pos.clone(), r));
        }
    }

    fn tick(&mut self) -> bool {
        Checker::tick(self);
        !self.aborted
    }

    fn exhausted(&self) -> bool {
        self.aborted
    }

    fn known(&mut self, pos: &Position) -> Option<Settled> {
        self.solver.known(pos)
    }

    fn prefetch_after(&mut self, pos: &Position, m: Move) {
        self.solver.prefetch_after(pos, m);
    }
}

impl Report {
    /// The report on the problem `sfen` before anything is known.
    fn new(sfen: String) -> Report {
        Report {
            sfen,
            status: Status::Unknown,
            reason: None,
            main_line: Vec::new(),
            length: None,
            length_at_most: None,
            length_sure: false,
            spare: Hand::EMPTY,
            cooks: Vec::new(),
            last_move_alternatives: Vec::new(),
            promotion_choices: Vec::new(),
            drop_choices: Vec::new(),
            detours: Vec::new(),
            transpositions: Vec::new(),
            equal_variations: Vec::new(),
            early_mates: Vec::new(),
            refutations: Vec::new(),
            incomplete: false,
            unsettled_checks: Vec::new(),
            alternatives_stopped_at: None,
            unsettled_drops: Vec::new(),
            drops_proven_useless: Vec::new(),
            intended: None,
            variations: Vec::new(),
            nodes: 0,
            forgotten_for_memory: 0,
        }
    }

    /// The lists of moves found at attacker turns of the main line: 余詰 and the minor twins,
    /// 迂回 and 手順前後.
    fn attacker_alternatives_mut(&mut self) -> [&mut Vec<Alternative>; 6] {
        [
            &mut self.cooks,
            &mut self.last_move_alternatives,
            &mut self.promotion_choices,
            &mut self.drop_choices,
            &mut self.detours,
            &mut self.transpositions,
        ]
    }

    /// The summary for people.
    pub fn human(&self, verbose: bool) -> String {
        let jp = self.lines_in_words();
        let mut s = String::new();
        s.push_str(&format!("verdict: {}", self.status.name()));
        if let Some(r) = &self.reason {
            s.push_str(&format!(" ({r})"));
        }
        s.push('\n');
        if self.status == Status::NoMate {
            s.push_str("不詰: no mate\n");
            for (m, r) in &self.refutations {
                let line = match r {
                    Some(r) => jp(&[], &[*m, *r]),
                    None => format!("{}  (no refutation proven)", jp(&[], &[*m])),
                };
                s.push_str(&format!("  refuted: {line}\n"));
            }
        }
        if !self.main_line.is_empty() {
            s.push_str(&format!(
                "{}手詰: {}\n",
                self.main_line.len(),
                jp(&[], &self.main_line)
            ));
            if self.spare.is_empty() {
                s.push_str("nothing left in hand\n");
            } else {
                s.push_str(&format!("駒余り: {:?} left in hand\n", self.spare));
            }
        } else if let Some(n) = self.length {
            s.push_str(&format!(
                "{n}手詰 (the main line itself was not worked out)\n"
            ));
        }
        if self.length.is_some() {
            if !self.length_sure {
                s.push_str(
                    "  (this length takes for defences some interpositions that the checker \
                     proved neither useless nor not: a useless one would make it shorter)\n",
                );
            }
        } else if let Some((n, line)) = &self.length_at_most {
            s.push_str(&format!(
                "at most {n}手詰 (a mate within {} is proven; the exact distance was not \
                 settled)\na line within it ({}): {}\n",
                ply_count(*n),
                ply_count(line.len()),
                jp(&[], line)
            ));
        }
        // A slower mate that could not be shown to come back to the main line (the detour test
        // ran out of nodes) may still be a detour: the reader has to judge.
        let longer = "a longer mate, or a detour";
        let mut sections = vec![
            ("余詰", &self.cooks, longer),
            ("最終手余詰 (minor)", &self.last_move_alternatives, longer),
            ("成生非限定 (minor)", &self.promotion_choices, longer),
            ("打ち場所非限定 (minor)", &self.drop_choices, longer),
            (
                "迂回 (a detour back to the main line, not a flaw)",
                &self.detours,
                "a slower mate, back through the main line",
            ),
            (
                "手順前後 (minor: the main line reached another way, as fast)",
                &self.transpositions,
                longer,
            ),
            ("変同 (minor)", &self.equal_variations, longer),
        ];
        if verbose {
            sections.push(("早詰 in a variation", &self.early_mates, longer));
        }
        for (title, alts, no_length) in sections {
            for a in alts {
                let mut len = a.length.map_or(no_length.to_string(), |n| {
                    format!("{} to mate", ply_count(n))
                });
                if a.unproven_interposition {
                    len.push_str(
                        "; if the drop is a defence: it was proven neither a useless \
                         interposition nor not one",
                    );
                }
                if a.kept_off_the_main_line {
                    len.push_str(KEPT_OFF_THE_MAIN_LINE);
                }
                s.push_str(&format!(
                    "{title} at ply {}: {} ({len})\n",
                    a.ply,
                    jp(&self.main_line[..a.ply - 1], &a.line)
                ));
            }
        }
        for (drops, title) in [
            (
                &self.unsettled_drops,
                "the drops proven neither useless interpositions nor defences that the verdict \
                 rests on (sound if each is a defence)",
            ),
            (
                &self.drops_proven_useless,
                "the drops taken for defences and proven useless interpositions after the check \
                 (the lines through them may be shorter)",
            ),
        ] {
            if !drops.is_empty() {
                s.push_str(&format!("{title}:\n"));
            }
            for line in drops {
                // Most leave the main line late: its part is left out.
                let k = line
                    .iter()
                    .zip(&self.main_line)
                    .take_while(|(a, b)| a == b)
                    .count()
                    .min(line.len() - 1);
                let from = if k == 0 {
                    String::new()
                } else {
                    format!("after ply {k} of the main line, ")
                };
                s.push_str(&format!(
                    "  ply {}: {from}{}\n",
                    line.len(),
                    jp(&line[..k], &line[k..])
                ));
            }
        }
        if self.incomplete {
            s.push_str("some alternatives could not be settled within the budget\n");
        }
        for line in &self.unsettled_checks {
            // Each leaves the main line at its last move.
            let k = line.len() - 1;
            s.push_str(&format!(
                "  ply {}: {} (whether it mates, or whether its mate keeps off the main line)\n",
                line.len(),
                jp(&line[..k], &line[k..])
            ));
        }
        if let Some(ply) = self.alternatives_stopped_at {
            s.push_str(&format!(
                "the budget ran out at ply {ply} of the main line: the alternatives there were \
                 looked at in part, those after it not at all\n"
            ));
        }
        if let Some(i) = &self.intended {
            s.push_str(&self.intended_human(i, &jp));
        }
        for v in &self.variations {
            s.push_str(&self.variation_human(v, &jp));
        }
        s.push_str(&format!("nodes: {}\n", self.nodes));
        if self.forgotten_for_memory > 0 {
            s.push_str(&format!(
                "the exact search's tables were full {} times and forgot their cheapest entries: \
                 a larger --memory may settle more within the nodes\n",
                self.forgotten_for_memory
            ));
        }
        s
    }

    /// How the summary writes a line: `line`, played after the moves `at` from the problem's
    /// position, in Japanese and in USI.
    fn lines_in_words(&self) -> impl Fn(&[Move], &[Move]) -> String {
        let pos = Position::from_sfen(&self.sfen).ok();
        move |at: &[Move], line: &[Move]| -> String {
            let Some(p) = &pos else {
                return usi(line);
            };
            let mut q = p.clone();
            for &m in at {
                q.do_move(m);
            }
            format!("{}  ({})", japanese_line(&q, line), usi(line))
        }
    }

    /// The lines of the summary on the intended line.
    fn intended_human(&self, i: &Intended, jp: &dyn Fn(&[Move], &[Move]) -> String) -> String {
        // Only the legal part of a line given from outside can be written in Japanese.
        let legal = intended::legal_prefix(&self.sfen, &i.line);
        let mut s = format!(
            "作意 ({}): {}",
            ply_count(i.line.len()),
            jp(&[], &i.line[..legal])
        );
        for m in &i.line[legal..] {
            s.push_str(&format!(" {m}"));
        }
        s.push('\n');
        let finding = match &i.finding {
            IntendedFinding::Solution => match i.parts_from_main_line_at {
                None if !self.main_line.is_empty() => {
                    "a solution: the main line itself".to_string()
                }
                None => "a solution".to_string(),
                Some(ply) => {
                    format!("a solution, as long as the main line, which it leaves at ply {ply}")
                }
            },
            IntendedFinding::MoreInHand { ply } => format!(
                "not the main line: as long, but it leaves {} in hand where the main line \
                 leaves {}; they part at ply {ply}",
                in_hand(i.spare.unwrap_or_default()),
                in_hand(self.spare)
            ),
            other => self.line_finding_human(other, &i.line, jp),
        };
        s.push_str(&format!("作意: {finding}\n"));
        if let Some(spare) = i.spare.filter(|h| !h.is_empty()) {
            s.push_str(&format!("作意 駒余り: {spare:?} left in hand\n"));
        }
        s
    }

    /// The lines of the summary on one of the record's variations: the variation from where it
    /// branches off, and what it is.
    fn variation_human(
        &self,
        v: &ComposerVariation,
        jp: &dyn Fn(&[Move], &[Move]) -> String,
    ) -> String {
        // From where it branches off; only a legal part can be written in Japanese.
        let legal = intended::legal_prefix(&self.sfen, &v.line);
        let at = v.ply - 1;
        let mut s = format!("変化 at ply {}: ", v.ply);
        if legal > at {
            s.push_str(&jp(&v.line[..at], &v.line[at..legal]));
            for m in &v.line[legal..] {
                s.push_str(&format!(" {m}"));
            }
        } else {
            s.push_str(&usi(&v.line[at..]));
        }
        s.push('\n');
        s.push_str(&format!("  {}\n", self.variation_finding_human(v, jp)));
        s
    }

    /// What the check found of one of the record's variations, in words.
    pub(super) fn variation_finding_human(
        &self,
        v: &ComposerVariation,
        jp: &dyn Fn(&[Move], &[Move]) -> String,
    ) -> String {
        let ply = v.ply;
        match &v.finding {
            VariationFinding::Defence {
                finding,
                plies,
                sure,
                spare,
            } => {
                let mut f = match (finding, plies) {
                    (IntendedFinding::Solution, Some(p)) => {
                        let spare = spare.unwrap_or_default();
                        let against = match self.length {
                            Some(n) if *p < n => format!(
                                "早詰, shorter than the main line's {}, as variations are",
                                ply_count(n)
                            ),
                            Some(n) if *p == n && spare.is_empty() => {
                                "変同: as long as the main line, nothing left in hand (minor)"
                                    .to_string()
                            }
                            Some(n) if *p == n => format!(
                                "as long as the main line but with {} left in hand: not the \
                                 main line",
                                in_hand(spare)
                            ),
                            Some(n) => format!(
                                "longer than the main line's {}: the line it branches off is \
                                 not the main line there",
                                ply_count(n)
                            ),
                            None => "the problem's exact length was not settled".to_string(),
                        };
                        let mut f = format!("the best play from there, mate at ply {p}: {against}");
                        if self.length.is_none() && !spare.is_empty() {
                            f.push_str(&format!("; it leaves {} in hand", in_hand(spare)));
                        }
                        f
                    }
                    (other, _) => {
                        let mut f = self.line_finding_human(other, &v.line, jp);
                        if let Some(p) = plies {
                            f.push_str(&format!(
                                " (the best play from ply {ply} mates at ply {p})"
                            ));
                        }
                        f
                    }
                };
                if !sure {
                    f.push_str(" (if the drops taken for defences are defences)");
                }
                f
            }
            VariationFinding::UselessDefence => {
                "a useless interposition (無駄合): no defence under the rules, so no variation"
                    .to_string()
            }
            VariationFinding::Escapes => {
                "no mate after this defence: the line it branches off is no solution".to_string()
            }
            VariationFinding::FailedTry { refutation, shown } => {
                let refuted = |r: &Option<Move>| match r {
                    Some(r) => format!("{} escapes mate", jp(&v.line[..ply], &[*r])),
                    None => "a reply escapes mate".to_string(),
                };
                match shown {
                    Some(true) => "a try (紛れ) that fails: the line's reply escapes mate".into(),
                    Some(false) => format!(
                        "a try (紛れ) that fails, but the line's reply is mated: {}",
                        refuted(refutation)
                    ),
                    None => format!("a try (紛れ) that fails: {}", refuted(refutation)),
                }
            }
            VariationFinding::MatingTry {
                called,
                plies,
                line,
            } => {
                let mut f = match called {
                    Some(variations::UNSETTLED) => format!(
                        "a try that mates too: at ply {ply} above, the report leaves unsettled \
                         whether its mate keeps off the main line"
                    ),
                    Some(name) => format!("a try that mates too: the {name} at ply {ply} above"),
                    None => "a try that mates too".to_string(),
                };
                // The composer's line past the try, when there is one.
                match (line, plies) {
                    (None, _) => {}
                    (Some(IntendedFinding::Solution), Some(p)) => {
                        f.push_str(&format!("; its line is the best play, mate at ply {p}"))
                    }
                    (Some(other), plies) => {
                        f.push_str("; its line: ");
                        f.push_str(&self.line_finding_human(other, &v.line, jp));
                        if let Some(p) = plies {
                            f.push_str(&format!(" (the best play mates at ply {p})"));
                        }
                    }
                }
                f
            }
            VariationFinding::NotLegal { ply, why } => {
                format!("not a legal line: at ply {ply}, {why}")
            }
            VariationFinding::Unknown { why } => format!("not settled: {why}"),
        }
    }

    /// What the check found of a line given with the problem (the intended line, or a
    /// variation's line after its defence), in words: the findings that name a ply of `line`
    /// and what does better there. A `Solution` and `MoreInHand` are the caller's to word.
    fn line_finding_human(
        &self,
        finding: &IntendedFinding,
        line: &[Move],
        jp: &dyn Fn(&[Move], &[Move]) -> String,
    ) -> String {
        let before = |ply: usize| &line[..(ply - 1).min(line.len())];
        match finding {
            IntendedFinding::Solution => "a solution".to_string(),
            IntendedFinding::NotAMate { ply, why } => {
                format!("not a mate: at ply {ply}, {why}")
            }
            IntendedFinding::QuickerMate { ply, plies, line } => format!(
                "wrong at ply {ply}: a quicker mate, {} from there: {}",
                ply_count(*plies),
                jp(before(*ply), line)
            ),
            IntendedFinding::LongerDefence {
                ply,
                plies,
                line: better,
            } => format!(
                "wrong at ply {ply}: the defence lasts longer ({}): {}",
                match plies {
                    Some(n) => format!("{} from there to mate", ply_count(*n)),
                    None if self.status == Status::NoMate => "no mate".to_string(),
                    None => format!(
                        "more than the line's {} from there",
                        ply_count(line.len() + 1 - ply)
                    ),
                },
                jp(before(*ply), better)
            ),
            IntendedFinding::UselessInterposition { ply } => {
                format!("at ply {ply} a useless interposition (無駄合), which the rules leave out")
            }
            // Of a variation's line: the intended line's is worded by its caller.
            IntendedFinding::MoreInHand { ply } => format!(
                "not the line under the rules: as long, but it leaves more in hand than the \
                 best play does; they part at ply {ply}"
            ),
            IntendedFinding::ForcedMate => format!(
                "a forced mate in its {} (the problem's exact length was not settled, so \
                 a quicker mate is not ruled out)",
                ply_count(line.len())
            ),
            IntendedFinding::Unknown { ply, why } => match ply {
                Some(ply) => format!("not settled at ply {ply}: {why}"),
                None => format!("not settled: {why}"),
            },
        }
    }

    /// The report as one JSON object.
    pub fn json(&self, verbose: bool) -> String {
        let alts = |alts: &[Alternative]| -> String {
            let items: Vec<String> = alts
                .iter()
                .map(|a| {
                    format!(
                        "{{\"ply\":{},\"move\":\"{}\",\"line\":{},\"length\":{},\"unproven_interposition\":{},\"kept_off_the_main_line\":{}}}",
                        a.ply,
                        a.mv,
                        json_moves(&a.line),
                        a.length.map_or("null".to_string(), |n| n.to_string()),
                        a.unproven_interposition,
                        a.kept_off_the_main_line
                    )
                })
                .collect();
            format!("[{}]", items.join(","))
        };
        let refutations: Vec<String> = self
            .refutations
            .iter()
            .map(|(m, r)| {
                format!(
                    "{{\"check\":\"{m}\",\"refutation\":{}}}",
                    r.map_or("null".to_string(), |r| format!("\"{r}\""))
                )
            })
            .collect();
        let mut s = format!(
            "{{\"sfen\":\"{}\",\"verdict\":\"{}\",\"reason\":{},\"length\":{},\"length_sure\":{},\"main_line\":{},\
             \"length_at_most\":{},\"solver_line\":{},\"spare\":\"{:?}\",\"cooks\":{},\"last_move_alternatives\":{},\
             \"promotion_choices\":{},\"drop_choices\":{},\"detours\":{},\"transpositions\":{},\"equal_variations\":{},\"refutations\":[{}],\"incomplete\":{},\"nodes\":{}",
            self.sfen,
            self.status.name(),
            self.reason
                .as_ref()
                .map_or("null".to_string(), |r| quote(r)),
            self.length.map_or("null".to_string(), |n| n.to_string()),
            self.length.is_some() && self.length_sure,
            json_moves(&self.main_line),
            self.length_at_most
                .as_ref()
                .map_or("null".to_string(), |(n, _)| n.to_string()),
            json_moves(self.length_at_most.as_ref().map_or(&[], |(_, l)| l)),
            self.spare,
            alts(&self.cooks),
            alts(&self.last_move_alternatives),
            alts(&self.promotion_choices),
            alts(&self.drop_choices),
            alts(&self.detours),
            alts(&self.transpositions),
            alts(&self.equal_variations),
            refutations.join(","),
            self.incomplete,
            self.nodes
        );
        for (name, lines) in [
            ("unsettled_drops", &self.unsettled_drops),
            ("drops_proven_useless", &self.drops_proven_useless),
            ("unsettled_checks", &self.unsettled_checks),
        ] {
            let lines: Vec<String> = lines.iter().map(|l| json_moves(l)).collect();
            s.push_str(&format!(",\"{name}\":[{}]", lines.join(",")));
        }
        s.push_str(&format!(
            ",\"alternatives_stopped_at\":{},\"forgotten_for_memory\":{}",
            self.alternatives_stopped_at
                .map_or("null".to_string(), |p| p.to_string()),
            self.forgotten_for_memory
        ));
        if verbose {
            s.push_str(&format!(",\"early_mates\":{}", alts(&self.early_mates)));
        }
        if let Some(i) = &self.intended {
            s.push_str(&format!(",\"intended\":{}", intended_json(i)));
        }
        if !self.variations.is_empty() {
            let items: Vec<String> = self.variations.iter().map(variation_json).collect();
            s.push_str(&format!(",\"variations\":[{}]", items.join(",")));
        }
        s.push('}');
        s
    }

    /// One tab-separated row for `--batch`: verdict, length and the flaws found.
    pub fn row(&self) -> String {
        let mut flaws = Vec::new();
        if !self.spare.is_empty() {
            flaws.push(format!("駒余り {:?}", self.spare));
        }
        for (name, alts) in [
            ("余詰", &self.cooks),
            ("最終手余詰", &self.last_move_alternatives),
            ("成生非限定", &self.promotion_choices),
            ("打ち場所非限定", &self.drop_choices),
            ("迂回 (no flaw)", &self.detours),
            ("手順前後", &self.transpositions),
            ("変同", &self.equal_variations),
        ] {
            if !alts.is_empty() {
                // `?`: a defence that is a drop proven neither useless nor a defence.
                let plies: Vec<String> = alts
                    .iter()
                    .map(|a| {
                        format!(
                            "{}{}",
                            a.ply,
                            if a.unproven_interposition { "?" } else { "" }
                        )
                    })
                    .collect();
                flaws.push(format!("{name} at {}", plies.join(",")));
            }
        }
        if let Some(i) = &self.intended {
            flaws.push(i.brief());
        }
        if let Some(r) = &self.reason {
            flaws.push(r.clone());
        }
        for (name, lines) in [
            ("unsettled drops", &self.unsettled_drops),
            ("drops proven useless", &self.drops_proven_useless),
            ("unsettled checks", &self.unsettled_checks),
        ] {
            if !lines.is_empty() {
                let plies: Vec<String> = lines.iter().map(|l| l.len().to_string()).collect();
                flaws.push(format!("{name} at {}", plies.join(",")));
            }
        }
        if let Some(ply) = self.alternatives_stopped_at {
            flaws.push(format!("alternatives looked at up to ply {ply}"));
        }
        format!(
            "{}\t{}\t{}",
            self.status.name(),
            match (self.length, &self.length_at_most) {
                (Some(n), _) if self.length_sure => n.to_string(),
                // Exact if the drops taken for defences without proof are defences.
                (Some(n), _) => format!("{n}?"),
                (None, Some((n, _))) => format!("<={n}"),
                (None, None) => "-".to_string(),
            },
            if flaws.is_empty() {
                "-".to_string()
            } else {
                flaws.join("; ")
            }
        )
    }
}

/// Whether `m` is the board move `main` with the other choice of promotion: the same piece to
/// the same square, promoted in one and not in the other (成・不成の非限定).
fn is_promotion_choice(m: Move, main: Move) -> bool {
    !m.is_drop()
        && !main.is_drop()
        && m.from() == main.from()
        && m.to() == main.to()
        && m.is_promotion() != main.is_promotion()
}

/// Whether the check `m` in `pos` is the check `main` with a lance, bishop or rook dropped at
/// another distance on the same side of the same line to the defender's king (打ち場所の非限定).
fn is_drop_choice(pos: &Position, m: Move, main: Move) -> bool {
    if !m.is_drop() || !main.is_drop() || m.dropped() != main.dropped() || m == main {
        return false;
    }
    if !matches!(
        m.dropped(),
        PieceType::Lance | PieceType::Bishop | PieceType::Rook
    ) {
        return false;
    }
    let Some(king) = pos.king_square(!pos.side_to_move()) else {
        return false;
    };
    let (near, far) = if attacks::between(king, m.to()).contains(main.to()) {
        (main.to(), m.to())
    } else {
        (m.to(), main.to())
    };
    attacks::between(king, far).contains(near)
}

fn usi(line: &[Move]) -> String {
    line.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn json_moves(line: &[Move]) -> String {
    let items: Vec<String> = line.iter().map(|m| format!("\"{m}\"")).collect();
    format!("[{}]", items.join(","))
}

/// A hand for the summary's sentences: its pieces, or "nothing".
fn in_hand(hand: Hand) -> String {
    if hand.is_empty() {
        "nothing".to_string()
    } else {
        format!("{hand:?}")
    }
}

/// The intended line's part of the JSON report: the line, the finding's name, the ply it is
/// about, the plies to mate from there and the better line there (where the finding has them).
fn intended_json(i: &Intended) -> String {
    let number = |n: Option<usize>| n.map_or("null".to_string(), |n| n.to_string());
    let plies = match &i.finding {
        IntendedFinding::QuickerMate { plies, .. } => Some(*plies),
        IntendedFinding::LongerDefence { plies, .. } => *plies,
        _ => None,
    };
    let (line, why) = (i.finding.better_line(), i.finding.why());
    let ply = i.finding.ply();
    format!(
        "{{\"line\":{},\"finding\":\"{}\",\"ply\":{},\"plies\":{},\"better_line\":{},\"why\":{},\"parts_from_main_line_at\":{},\"spare\":{}}}",
        json_moves(&i.line),
        i.finding.name(),
        number(ply),
        number(plies),
        line.map_or("null".to_string(), json_moves),
        why.map_or("null".to_string(), quote),
        number(i.parts_from_main_line_at),
        i.spare
            .map_or("null".to_string(), |h| format!("\"{h:?}\""))
    )
}

/// One of the record's variations in the JSON report: its line and ply, the finding's name,
/// and what the finding has: the ply it is about (`finding_ply`), the plies to mate after a
/// defence or a mating try (`plies`, `sure`), a better line, a try's refutation and whether the
/// line shows one (`shown`), what the report calls a try that mates (`called`) and what was
/// found of the line past it (`line_finding`), why, the spare.
fn variation_json(v: &ComposerVariation) -> String {
    let number = |n: Option<usize>| n.map_or("null".to_string(), |n| n.to_string());
    let text = |t: Option<&str>| t.map_or("null".to_string(), quote);
    let (mut finding_ply, mut plies, mut sure, mut better, mut why) =
        (None, None, None, None, None);
    let (mut refutation, mut shown, mut called, mut spare) = (None, None, None, None);
    let mut line_finding = None;
    match &v.finding {
        VariationFinding::Defence {
            finding,
            plies: p,
            sure: s,
            spare: h,
        } => {
            finding_ply = finding.ply();
            plies = *p;
            sure = Some(*s);
            spare = *h;
            why = finding.why();
            better = finding.better_line();
        }
        VariationFinding::FailedTry {
            refutation: r,
            shown: s,
        } => {
            refutation = *r;
            shown = *s;
        }
        VariationFinding::MatingTry {
            called: c,
            plies: p,
            line,
        } => {
            called = *c;
            plies = *p;
            if let Some(l) = line {
                line_finding = Some(l.name());
                finding_ply = l.ply();
                why = l.why();
                better = l.better_line();
            }
        }
        VariationFinding::NotLegal { ply, why: w } => {
            finding_ply = Some(*ply);
            why = Some(w.as_str());
        }
        VariationFinding::Unknown { why: w } => why = Some(w.as_str()),
        VariationFinding::UselessDefence | VariationFinding::Escapes => {}
    }
    format!(
        "{{\"line\":{},\"ply\":{},\"finding\":\"{}\",\"finding_ply\":{},\"plies\":{},\"sure\":{},\"better_line\":{},\"refutation\":{},\"shown\":{},\"called\":{},\"line_finding\":{},\"why\":{},\"spare\":{}}}",
        json_moves(&v.line),
        v.ply,
        v.finding.name(),
        number(finding_ply),
        number(plies),
        sure.map_or("null".to_string(), |b| b.to_string()),
        better.map_or("null".to_string(), json_moves),
        refutation.map_or("null".to_string(), |r| format!("\"{r}\"")),
        shown.map_or("null".to_string(), |b| b.to_string()),
        text(called),
        text(line_finding),
        text(why),
        spare.map_or("null".to_string(), |h| format!("\"{h:?}\""))
    )
}

/// What the summary and the report's record add to a 余詰 whose line is not its best play
/// ([`Alternative::kept_off_the_main_line`]).
pub(crate) const KEPT_OFF_THE_MAIN_LINE: &str =
    "; the line shown keeps off the main line, which the best play passes through";

/// The positions (full keys) of `line` played from `start`, before each ply and at the end,
/// and the position at the end.
fn keys_along(start: &Position, line: &[Move]) -> (Vec<u64>, Position) {
    let mut end = start.clone();
    let mut keys = Vec::with_capacity(line.len() + 1);
    keys.push(end.key());
    for &m in line {
        end.do_move(m);
        keys.push(end.key());
    }
    (keys, end)
}

/// The position before ply `ply` (from 1) of `line`, played from `start`.
fn before_ply(start: &Position, line: &[Move], ply: usize) -> Position {
    let mut p = start.clone();
    for &m in &line[..ply - 1] {
        p.do_move(m);
    }
    p
}

/// Whether `line`, played from `start`, passes through one of the positions `keys` (full keys):
/// whether one comes after any of its moves.
fn passes_through(start: &Position, line: &[Move], keys: &[u64]) -> bool {
    let mut p = start.clone();
    line.iter().any(|&m| {
        p.do_move(m);
        keys.contains(&p.key())
    })
}

/// A 余詰 shown by a line that keeps off the main line. Its line, the best play after the
/// move, may pass through the main line's positions (`main_line`, full keys) even though
/// another mate does not: the detour test's own line (`off_the_line`, after the move) then
/// takes its place, so that the composer sees the mate that makes the flaw, and the cook says
/// so. The length stays that of the best play.
fn cook_line_off_the_main_line(
    pos: &Position,
    mut cook: Alternative,
    off_the_line: Option<Vec<Move>>,
    main_line: &[u64],
) -> Alternative {
    if let (true, Some(line)) = (passes_through(pos, &cook.line, main_line), off_the_line) {
        cook.line = [cook.mv].into_iter().chain(line).collect();
        cook.kept_off_the_main_line = true;
    }
    cook
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact search after a solve gets sixteen times the solve's nodes, within its floor
    /// and its ceiling, and never more than the node limit leaves.
    #[test]
    fn the_main_lines_nodes_follow_the_solves_within_bounds() {
        assert_eq!(main_line_nodes(100_000, None), 1_600_000);
        assert_eq!(main_line_nodes(10_000, None), MAIN_LINE_MIN_NODES);
        assert_eq!(main_line_nodes(3_000_000, None), MAIN_LINE_MAX_NODES);
        assert_eq!(main_line_nodes(100_000, Some(1_000_000)), 900_000);
        assert_eq!(main_line_nodes(100_000, Some(50_000_000)), 1_600_000);
        assert_eq!(main_line_nodes(2_000_000, Some(2_000_000)), 0);
    }

    /// The tries at a drop take the same nodes under the default budget and below it, and the
    /// last grows with a larger budget.
    #[test]
    fn the_last_try_at_a_drop_grows_with_the_budget() {
        for budget in [0, 1_000_000, CheckLimits::default().nodes] {
            let caps: Vec<Option<u64>> = (0..5).map(|i| aimed_try_cap(i, budget)).collect();
            assert_eq!(
                caps,
                [
                    Some(10_000),
                    Some(100_000),
                    Some(1_000_000),
                    Some(4_000_000),
                    None
                ]
            );
        }
        assert_eq!(aimed_try_cap(3, 20_000_000), Some(16_000_000));
        assert_eq!(aimed_try_cap(2, 20_000_000), Some(1_000_000));
    }

    /// The test for a whole square never calls a drop useless where the test for the piece
    /// dropped would not: a mate with the defender holding the piece is a mate without it. After
    /// ▲6六飛 on the king on 6一 every drop on 6五 is useless, whatever the piece.
    #[test]
    fn a_square_of_useless_drops_is_useless_for_each_piece() {
        let given = Position::from_sfen("3k5/9/1l2S4/8n/2P6/1R7/9/9/9 b SPgp 1").unwrap();
        let mut p = with_defender_holding_the_rest(&given).unwrap();
        p.do_move(p.parse_usi_move("8f6f").unwrap());
        let mut replies = MoveList::new();
        generate_legal(&p, &mut replies);
        let mut c = Checker::new(Color::Black, u64::MAX);
        let (mut on_6e, mut useless) = (0, 0);
        let droppable: Vec<Move> = replies
            .iter()
            .copied()
            .filter(|&r| muda::may_be_useless(&p, r))
            .collect();
        for r in droppable {
            let whole_square = c.useless_square(&mut p, r) == Some(true);
            if r.to() == p.parse_usi_move("P*6e").unwrap().to() {
                assert!(whole_square, "{r:?}");
                on_6e += 1;
            }
            if !whole_square {
                continue;
            }
            useless += 1;
            let mut own = Solver::new(8);
            own.set_out_of_game(Some(r.dropped()));
            let limits = SolveLimits {
                nodes: Some(100_000),
                ..SolveLimits::default()
            };
            let proven = muda::positions_without_the_piece(&mut p, r)
                .iter_mut()
                .any(|q| own.prove_evasions(q, limits.clone()) == Some(true));
            assert!(proven, "{r:?}");
        }
        // A pawn, lance, knight, silver, gold, bishop and rook may all be dropped on 6五.
        assert_eq!(on_6e, 7);
        assert!(useless > on_6e, "{useless}");
    }

    /// The bounded search against the exhaustive minimax, on the short problems with known
    /// lengths (with the hands given, and with the defender holding the rest) and on every
    /// position one check, and one check and one reply, away from them: the same distance
    /// within every bound up to the problem's length, taking the drops neither proven useless
    /// nor proven defences for defences; and the same when they are read as useless, wherever
    /// the bounded search says its answer rests on proofs alone.
    fn bounded_matches_exhaustive() {
        let text = include_str!("../../tests/data/tsume_short.tsv");
        let mut compared = 0;
        let mut unsure = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split('\t').collect();
            let length: u16 = fields[1].parse().unwrap();
            let given = Position::from_sfen(fields[2]).unwrap();
            let completed = with_defender_holding_the_rest(&given).unwrap();
            // The exhaustive search is slow on the longer problems, and slower still with the
            // defender's hand completed: fewer plies and shorter bounds there.
            let mut add = |(c, u): (usize, usize)| {
                compared += c;
                unsure += u;
            };
            add(compare_around(given.clone(), length, length <= 7, false));
            add(compare_around(completed, length.min(5), false, false));
            // With the df-pn solver's proofs and disproofs taken in, as the checker has them.
            add(compare_around(given.clone(), length, length <= 7, true));
            // The problem's own length, as the file gives it (for the hands given).
            let mut c = Checker::new(given.side_to_move(), u64::MAX);
            assert_eq!(
                c.or_value(&mut given.clone(), length),
                Some(length),
                "{}",
                fields[0]
            );
        }
        assert!(compared > 500, "{compared}");
        // Answers that rest on a drop neither proven useless nor proven a defence are few.
        assert!(unsure * 20 < compared, "{unsure} of {compared}");
    }

    /// `root` and the positions one check from it, and with `two_plies` one check and one reply.
    fn positions_around(root: &mut Position, two_plies: bool) -> Vec<Position> {
        let mut positions = vec![root.clone()];
        let mut checks = MoveList::new();
        generate_checks(root, &mut checks);
        for &m in checks.iter() {
            root.do_move(m);
            positions.push(root.clone());
            let mut replies = MoveList::new();
            generate_legal(root, &mut replies);
            for &r in replies.iter().filter(|_| two_plies) {
                root.do_move(r);
                positions.push(root.clone());
                root.undo_move(r);
            }
            root.undo_move(m);
        }
        positions
    }

    /// Compares the two searches within every bound up to `length` at `root` and the positions
    /// one ply (and with `two_plies`, two plies) from it; returns the number of comparisons.
    /// With `solved`, the df-pn solver first solves the root, so that the bounded search takes
    /// in its results.
    fn compare_around(
        mut root: Position,
        length: u16,
        two_plies: bool,
        solved: bool,
    ) -> (usize, usize) {
        let mut compared = 0;
        let mut unsure = 0;
        {
            let mut c = Checker::new(root.side_to_move(), u64::MAX);
            if solved {
                assert!(matches!(
                    c.solve_within(&mut root.clone(), None, false),
                    Verdict::Mate(_)
                ));
            }
            let mut positions = positions_around(&mut root, two_plies);
            for p in &mut positions {
                let or_node = p.side_to_move() == c.attacker;
                for bound in 0..=length {
                    c.unproven_drop = false;
                    let bounded = if or_node {
                        c.or_value(p, bound)
                    } else {
                        c.and_value(p, bound)
                    };
                    // The same answer when every drop neither proven useless nor proven a
                    // defence is one, and when every such drop is useless: only then is it sure.
                    let mut exhaustive = [None; 2];
                    for (reading, e) in exhaustive.iter_mut().enumerate() {
                        c.unproven_is_useless = reading == 1;
                        *e = if or_node {
                            c.exhaustive_or_value(p, bound)
                        } else {
                            c.exhaustive_and_value(p, bound)
                        };
                    }
                    c.unproven_is_useless = false;
                    assert!(!c.aborted);
                    assert_eq!(bounded, exhaustive[0], "{} within {bound}", p.to_sfen());
                    compared += 1;
                    if c.unproven_drop {
                        unsure += 1;
                    } else {
                        // Said to rest on proofs alone: so it holds either way.
                        assert_eq!(bounded, exhaustive[1], "{} within {bound}", p.to_sfen());
                    }
                }
            }
        }
        (compared, unsure)
    }

    /// The distances where the drops that may be useless are all defences (proven so), and
    /// where they are all useless, differ on the short problems with the defender holding every
    /// piece; where the oracle proves neither, the bounded search takes them for defences and
    /// says so, unless its answer holds both ways. At each problem and the positions one ply from it (two for
    /// the problems of up to 7 plies), within every bound up to its length.
    #[test]
    fn an_answer_that_rests_on_no_unproven_drop_holds_both_ways() {
        use crate::mate::bounded::tests::Alike;
        let text = include_str!("../../tests/data/tsume_short.tsv");
        let (mut differ, mut sure, mut compared) = (0, 0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split('\t').collect();
            let length: u16 = fields[1].parse().unwrap();
            let given = Position::from_sfen(fields[2]).unwrap();
            let mut root = with_defender_holding_the_rest(&given).unwrap();
            let attacker = root.side_to_move();
            for p in &mut positions_around(&mut root, length <= 7) {
                for bound in 0..=length {
                    let mut distance = |useless, proven| {
                        let mut s = BoundedSearch::new(attacker);
                        let d = s.distance(p, bound, &mut Alike { useless, proven });
                        (d, s.took_an_unproven_drop())
                    };
                    let (soft, flagged) = distance(false, true);
                    assert!(!flagged, "proven defences are no unproven drops");
                    let (hard, _) = distance(true, true);
                    let (unsure, unproven) = distance(false, false);
                    compared += 1;
                    differ += (soft != hard) as usize;
                    assert_eq!(unsure, soft, "{} within {bound}", p.to_sfen());
                    if !unproven {
                        sure += 1;
                        assert_eq!(unsure, hard, "{} within {bound}", p.to_sfen());
                    }
                }
            }
        }
        assert!(
            differ > 10 && sure > compared / 2,
            "{differ} {sure} {compared}"
        );
    }

    #[test]
    fn the_bounded_search_gives_the_exhaustive_distances() {
        std::thread::Builder::new()
            .stack_size(crate::mate::SOLVER_STACK)
            .spawn(bounded_matches_exhaustive)
            .unwrap()
            .join()
            .unwrap();
    }
}
