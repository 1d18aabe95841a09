//! Depth-first proof-number search (df-pn) for checkmates where every attacker move is a check.
//!
//! Nodes where the attacker is to move are OR nodes (one mating check is enough); nodes where the
//! defender is to move are AND nodes (every evasion must be answered). Each node carries a proof
//! number `pn` (how many leaves must still be proven to prove it) and a disproof number `dn`; the
//! search descends into the most-proving child and comes back up as soon as the child's numbers
//! pass thresholds derived from its siblings, so it needs memory only for the path, plus the
//! transposition table that remembers the numbers of every node it has left.
//!
//! Repetitions: a position that repeats one on the current path is a failure for the attacker
//! (in tsume shogi every attacker move is a check, so a repetition is a perpetual check). That
//! verdict depends on the path, not on the position, so disproofs that rest on a repetition are
//! marked and never stored as disproofs in the table, where another path could find them: this is
//! the graph-history-interaction problem, and not storing them keeps every stored result true
//! whatever the path. Proofs never rest on a repetition.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::parents::{NodeId, ParentLinks};
use super::path_failures::{self, PathFailure, PathFailures};
use super::table::{MateTable, Probe, INF};
use super::{muda, Throttled};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::movegen::{
    count_evasions, generate_checks, generate_evasions, generate_legal, has_evasion, MoveList,
};
use crate::position::Position;
use crate::types::{Color, Hand, Move, PieceType, Square};

/// Salt for the board key when White attacks: a board with White to move is an OR node when
/// White attacks and an AND node when Black does, and the two must not share entries.
const WHITE_ATTACKS: u64 = 0x9e37_79b9_7f4a_7c15;

/// How deep the path may go. Deeper nodes count as failures that depend on the path (so they
/// are never stored): the longest composed problem is 1525 plies.
pub(super) const MAX_PLY: usize = 4000;

/// When a solve gives up.
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
    /// After the first proof, spend up to about twice its work looking for shorter mates, so
    /// the line is the shortest the attacker has (as tsume demands), not merely the first found.
    pub shorten: bool,
    /// Report the line under the tsume convention: a useless interposition (無駄合, see
    /// `muda.rs`) is not the longest defence, and the line may end at a check that leaves the
    /// defender only such drops. For `hayate mate` and `go mate`; the game search wants the
    /// real distance to mate. The proof is the same either way.
    pub tsume_line: bool,
}

/// The verdict of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker mates; the line is checked move by move.
    Mate(Vec<Move>),
    /// No mate by continuous checks exists.
    NoMate,
    /// The limits ran out first.
    Unknown,
}

/// What the solver's table has settled of a position ([`Solver::known`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Settled {
    /// A mate within this many plies (its proof tree's depth, an upper bound on the distance).
    Mate(u16),
    /// No mate, for every attacker's hand that holds no more than this one (the disproof
    /// hand), the defender holding the pieces in play that the attacker does not.
    NoMate(Hand),
}

/// A child of the node being searched, with what is known of it.
#[derive(Clone, Copy, Debug)]
struct Child {
    m: Move,
    /// Board key of the child (salted by attacker), for the table.
    key: u64,
    /// The attacker's hand in the child.
    hand: Hand,
    pn: u32,
    dn: u32,
    len: u16,
    /// The child's proof or disproof hand once it is resolved.
    resolved_hand: Hand,
    /// Its disproof rests on a repetition of the current path.
    path_dependent: bool,
    /// Its disproof rests on the depth limit: no mate within the plies left (see
    /// [`Solver::bounded_key`]).
    depth_cut: bool,
    /// The sibling (index from the node's first child) this move waits for, or `NO_WAIT`: a
    /// non-promotion waits until the same move with promotion has failed.
    waits_for: u16,
    /// A defender's drop on a square neither next to the king nor covered by another of the
    /// defender's pieces: such interpositions, on whatever square, wait for one another (see
    /// `summarise` and [`far_block_context`]).
    far_drop: bool,
    /// Its subtree is shared with another child's (found through the parent links): its
    /// disproof number (OR) or proof number (AND) counts in the node's by the largest of the
    /// shared children's, not in the sum (see [`Solver::eliminate_double_count`]).
    shared: bool,
    /// A defender's reply whose first disproof number has been counted (see
    /// [`Solver::estimate_replies`]).
    estimated: bool,
}

/// A child that waits for no sibling.
const NO_WAIT: u16 = u16::MAX;

impl Child {
    fn is_resolved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// What a finished visit to a node reports.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    pn: u32,
    dn: u32,
    len: u16,
    resolved_hand: Hand,
    path_dependent: bool,
    depth_cut: bool,
}

type PathSet = HashMap<u64, u32, BuildHasherDefault<super::KeyHasher>>;

/// Shortcuts of the polish tried and not proven: the plies each was given, by its position's
/// full key (see [`Solver::prove_shortcuts`]).
type FailedShortcuts = HashMap<u64, u32, BuildHasherDefault<super::KeyHasher>>;

/// One more position with `key` on the path.
fn count_in(set: &mut PathSet, key: u64) {
    *set.entry(key).or_insert(0) += 1;
}

/// One position with `key` fewer on the path.
fn count_out(set: &mut PathSet, key: u64) {
    if let Some(n) = set.get_mut(&key) {
        *n -= 1;
        if *n == 0 {
            set.remove(&key);
        }
    }
}

/// A node on the current path, for the double-count search.
#[derive(Clone, Copy, Debug)]
struct Frame {
    id: NodeId,
    /// The full key, as in [`Solver::path`].
    full: u64,
    or_node: bool,
    /// Its first child in [`Solver::children`]; the children end where the next frame's begin.
    base: usize,
    /// The child being searched (an index into [`Solver::children`]).
    searching: usize,
    /// The key of the path from the root to this node (see `path_failures.rs`).
    path: u64,
}

/// How far up the parent links the double-count search follows them.
const PARENT_WALK: usize = 64;

/// The rise of a pn or dn, from a node to its parent along the links (or from a branch to the
/// node above it on the path), past which the node is taken to owe its number to other
/// children: the shared subtree is then no longer what the branch point's number counts twice.
/// KomoringHeights' value (3 of its units, which are one child each).
const SIDE_BRANCH: u64 = 3;

pub struct Solver {
    table: MateTable,
    /// The children of every node on the path, each node's after its parent's.
    children: Vec<Child>,
    /// The nodes on the path, root first.
    frames: Vec<Frame>,
    /// Where each open node was last searched from.
    links: ParentLinks,
    /// Full keys (board and hands) of the positions on the path, with their counts.
    path: PathSet,
    /// Table keys (boards, whatever the hands) of the nodes on the path, with their counts
    /// (see [`Solver::look_up_on`]).
    path_boards: PathSet,
    attacker: Color,
    nodes: u64,
    limits: SolveLimits,
    aborted: bool,
    /// Plies from the root beyond which a node counts as a (path-dependent) failure: set while
    /// looking for a shorter mate than the one found.
    depth_limit: usize,
    /// Mixed into every table key while the positions searched have a piece taken out of the
    /// game (see [`Solver::set_out_of_game`]); 0 otherwise.
    salt: u64,
    /// The depth of the last solve's proof tree, when it proved a mate.
    proof_depth: Option<u16>,
    /// Defender replies the line being extracted may still follow to correct a length the
    /// table overstated (see [`Solver::extend_line`]).
    line_corrections: u32,
    /// Mate lengths worked out again from the table's proofs after a solve (see
    /// [`Solver::refine`]), by table key and attacker's hand; the line reads them before the
    /// table's own.
    refined: HashMap<(u64, Hand), u16, BuildHasherDefault<super::KeyHasher>>,
    /// Nodes searched since the solve's start by the brief proofs of the line's work (lost
    /// entries, shorter defences, shortcuts), which [`Solver::nodes`] leaves out.
    line_nodes: u64,
    /// What the brief proofs of [`Solver::mated_without`] found this solve, by table key (salted
    /// for the piece out of the game) and attacker's hand. A failure is not in the table (its
    /// brief proof ran out, or its disproof rests on the line's path), and the line's work
    /// asks again and again: 寿's lines asked 804 times about 39 positions, 19.6M nodes.
    without_piece: HashMap<(u64, Hand), bool, BuildHasherDefault<super::KeyHasher>>,
    /// The board keys after each move of the node being expanded, worked out once for the
    /// prefetches and the lookups both ([`Solver::prefetch_children`]).
    board_keys: Vec<u64>,
    /// Positions (full keys) the attacker may not pass through, put on the path at the start of
    /// every search so that reaching one is a repetition (see [`Solver::avoid`]). Empty but for
    /// the checker's detour test.
    avoided: Vec<u64>,
    /// Who is told how a long solve is going (see [`Solver::report_progress`]).
    reporter: Option<Throttled<SolveProgress>>,
    /// Failures that rest on the path, by the path (see [`Solver::remember_path_failures`]).
    path_failures: Option<PathFailures>,
    /// The path key of the node being expanded, for its children's.
    expanding_path: u64,
}

/// How a solve is going, for a caller that shows it (`go mate`'s `info` lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    /// Every node searched so far ([`Solver::work`]).
    pub nodes: u64,
    /// How full the table is, per mille.
    pub hashfull: usize,
}

/// How many positions [`Solver::refine`] works out again after a proof, at most
/// (ミクロコスモス's proof takes about 170k).
const REFINE_POSITIONS: u32 = 4_000_000;

/// The nodes of one try of [`Solver::prove_shortcuts`], and the least all of them may take
/// after a proof (otherwise half the proof's work).
const SHORTCUT_TRY: u64 = 2_000;
const SHORTCUT_WORK_MIN: u64 = 100_000;

/// How many replies a line may follow to correct lengths the table overstated. Each follows a
/// line to its end, so this bounds the extraction's work at that many lines.
const LINE_CORRECTIONS: u32 = 256;

/// How much sooner than the caller's deadline the solver stops (at most; a twentieth of the
/// time when that is less). Past its deadline the line is still finished, greedily, which on
/// muso048 took 8-15 ms: with `--time 10000` it answered at 10.008-10.015 s.
const ANSWER_MARGIN: Duration = Duration::from_millis(50);

impl Solver {
    /// A solver whose table takes about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Solver {
        Solver {
            table: MateTable::new(hash_mb),
            children: Vec::with_capacity(4096),
            frames: Vec::with_capacity(4096),
            links: ParentLinks::new(hash_mb / 8),
            path: PathSet::with_capacity_and_hasher(4096, Default::default()),
            path_boards: PathSet::with_capacity_and_hasher(4096, Default::default()),
            attacker: Color::Black,
            nodes: 0,
            limits: SolveLimits::default(),
            aborted: false,
            depth_limit: MAX_PLY,
            salt: 0,
            proof_depth: None,
            line_corrections: 0,
            refined: HashMap::default(),
            line_nodes: 0,
            without_piece: HashMap::default(),
            board_keys: Vec::new(),
            avoided: Vec::new(),
            reporter: None,
            path_failures: None,
            expanding_path: path_failures::ROOT_PATH,
        }
    }

    /// Has the solver remember, in a table of about `mb` megabytes, the failures that rest on
    /// their path, each under its path, so that the next visit along the same path takes the
    /// failure without searching down to the repetitions again (see `path_failures.rs`). For
    /// solves that are mostly disproofs: the checker's, after its first proof.
    pub fn remember_path_failures(&mut self, mb: usize) {
        self.path_failures = Some(PathFailures::new(mb));
    }

    /// A new search: the failures remembered on their paths no longer hold (another root,
    /// depth limit or set of avoided positions).
    fn forget_path_failures(&mut self) {
        if let Some(pf) = &mut self.path_failures {
            pf.new_search();
        }
    }

    /// Has `tell` told how the solves go, every `every` at most (the first time `every` after
    /// this call), until [`Solver::stop_reporting`]. The clock is read where the search reads
    /// it for its own limits, every 1024 nodes, so `Duration::ZERO` tells it at each of those.
    pub fn report_progress(
        &mut self,
        every: Duration,
        tell: impl FnMut(SolveProgress) + Send + 'static,
    ) {
        self.reporter = Some(Throttled::new(every, Box::new(tell)));
    }

    /// Ends what [`Solver::report_progress`] started.
    pub fn stop_reporting(&mut self) {
        self.reporter = None;
    }

    /// Makes the positions with the full keys `keys` failures for the attacker in the solves
    /// that follow (an empty list lifts it): a mate proven then is one that never passes
    /// through them. They stand on the path from the root, so reaching one is a repetition: a
    /// failure that rests on them is never stored, and the table keeps only verdicts that hold
    /// without the rule. Proofs stored meanwhile are real proofs that avoid the set of their
    /// time, so a proof read back avoids a later set only if that set is no larger: give a
    /// solver (a fresh one: proofs stored before any set avoid nothing) one set, or sets that
    /// only shrink. A proof read for a stronger hand than it was found with may still pass
    /// through an avoided position (the same boards with more in hand): that errs only towards
    /// a mate.
    pub fn avoid(&mut self, keys: &[u64]) {
        self.avoided.clear();
        self.avoided.extend_from_slice(keys);
    }

    /// Tells the solver that the positions it is given next have a piece of `kind` taken out
    /// of the game (`None`: every piece is in play). The table keys a position by its board
    /// and the attacker's hand and counts every other piece as the defender's, so a proof of
    /// such a position, stored under the same key, would stand for the real position, where
    /// the defender holds that piece and may defend better. Their keys are salted by the kind
    /// instead: apart from real positions, and from those missing another kind.
    pub fn set_out_of_game(&mut self, kind: Option<PieceType>) {
        self.salt = kind.map_or(0, |k| {
            // Odd multiples of an odd constant, turned: distinct for each kind.
            0xD6E8_FEB8_6659_FD93u64
                .wrapping_mul(2 * k as u64 + 1)
                .rotate_left(17)
        });
    }

    /// The depth in plies of the proof tree behind the last solve's mate (the shortest one found
    /// when it looked for shorter mates): no line of the proof is longer, so the mate distance
    /// under best defence, and under the tsume convention, is at most this.
    pub fn proof_depth(&self) -> Option<u16> {
        self.proof_depth
    }

    /// Nodes visited by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Every node the last solve searched: [`Solver::nodes`] and the brief proofs of the line's
    /// work after it, which that leaves out. What `go mate` reports.
    pub fn work(&self) -> u64 {
        self.nodes + self.line_nodes
    }

    pub fn hashfull(&self) -> usize {
        self.table.hashfull()
    }

    /// What the table settles of `pos` for the attacker of the last solve, `None` when it
    /// knows neither a mate nor its absence. Only path-independent verdicts are stored, so
    /// both hold whatever the path to `pos`.
    pub(super) fn known(&self, pos: &Position) -> Option<Settled> {
        let p = self.table.probe(self.key(pos), pos.hand(self.attacker))?;
        if p.is_proven() {
            Some(Settled::Mate(p.len))
        } else if p.is_disproven() {
            Some(Settled::NoMate(p.hand))
        } else {
            None
        }
    }

    /// Starts loading the table's entries for the position after `m` in `pos`, for a
    /// [`Solver::known`] of it that follows.
    pub(super) fn prefetch_after(&self, pos: &Position, m: Move) {
        self.table.prefetch(self.salted(pos.board_key_after(m)));
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.table.clear();
        self.links.clear();
    }

    fn past_deadline(&self) -> bool {
        self.limits.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Brings the deadline forward to nine tenths of the time left, for work after a proof
    /// that must leave time for the answer. Returns the deadline to put back afterwards.
    fn keep_a_tenth_of_the_time(&mut self) -> Option<Instant> {
        let user_deadline = self.limits.deadline;
        if let Some(d) = user_deadline {
            let now = Instant::now();
            self.limits.deadline = Some(now + d.saturating_duration_since(now).mul_f32(0.9));
        }
        user_deadline
    }

    /// Looks for a mate for the side to move in `pos`, within `limits`. The table is kept
    /// between solves, so a second solve of a related position reuses the first one's work.
    pub fn solve(&mut self, pos: &mut Position, limits: SolveLimits) -> Verdict {
        let attacker = pos.side_to_move();
        self.solve_for(pos, limits, attacker)
    }

    /// Whether the side to move in `pos`, in check, is mated whatever it plays, the other side
    /// attacking with checks: a variation of a problem set up after the attacker's check. The
    /// line starts with the defender's reply, the longest, and its length is even; a defender
    /// already mated (under the tsume convention, also one left only useless interpositions)
    /// has the empty line. Otherwise as [`Solver::solve`].
    pub fn solve_mated(&mut self, pos: &mut Position, limits: SolveLimits) -> Verdict {
        let attacker = !pos.side_to_move();
        self.solve_for(pos, limits, attacker)
    }

    /// [`Solver::solve_mated`] for a problem set up with the defender to move (in check, with
    /// no king on the other side, so that it cannot be the attacker), else [`Solver::solve`]:
    /// what `hayate mate` does with a position.
    pub fn solve_problem(&mut self, pos: &mut Position, limits: SolveLimits) -> Verdict {
        if defender_to_move(pos) {
            self.solve_mated(pos, limits)
        } else {
            self.solve(pos, limits)
        }
    }

    fn solve_for(&mut self, pos: &mut Position, limits: SolveLimits, attacker: Color) -> Verdict {
        self.attacker = attacker;
        self.nodes = 0;
        self.aborted = false;
        self.limits = limits;
        if let Some(d) = self.limits.deadline {
            let left = d.saturating_duration_since(Instant::now());
            let margin = (left / 20).min(ANSWER_MARGIN);
            self.limits.deadline = Some(d.checked_sub(margin).unwrap_or(d));
        }
        self.path.clear();
        self.children.clear();
        self.depth_limit = MAX_PLY;
        self.proof_depth = None;
        self.line_nodes = 0;
        self.without_piece.clear();
        let mut root = self.search_root(pos);
        let proof_work = self.nodes;
        // A disproof of the root that rests on repetitions is still a disproof: every
        // repetition it counted as a failure lies below the root, where repeating is a
        // perpetual check by the attacker. Only failures for depth leave it open.
        let root_disproven = root.dn == 0 && !root.depth_cut;
        if root.pn == 0 && self.limits.shorten {
            // Look for mates two plies shorter than the best so far until none is found
            // within the budget. Each try gets at most half the first proof's work (at least
            // 300k nodes): a shorter mate, when there is one, is found quickly (on the classics
            // at 1.2M nodes no successful try took more than 297k nodes or 2.4 times the
            // first proof's work below 300k), while the last try, which has to show there is
            // none, rarely can and would spend all the rest (寿: 8.5M nodes after a first
            // proof of 4.2M).
            let budget = proof_work.saturating_mul(2).saturating_add(100_000);
            let per_try = (proof_work / 2).max(300_000);
            let stop_at = self
                .limits
                .nodes
                .map_or(self.nodes + budget, |n| n.min(self.nodes + budget));
            let user_nodes = self.limits.nodes.replace(stop_at);
            // Keep a tenth of the time left for the line, so the answer comes within the limit.
            let user_deadline = self.keep_a_tenth_of_the_time();
            while root.len >= 3 && !self.aborted {
                self.depth_limit = root.len as usize - 2;
                self.limits.nodes = Some(stop_at.min(self.nodes.saturating_add(per_try)));
                let r = self.search_root(pos);
                if r.pn != 0 {
                    break;
                }
                root = r;
            }
            self.limits.nodes = user_nodes;
            self.limits.deadline = user_deadline;
            self.depth_limit = MAX_PLY;
            self.aborted = false;
        }
        if root.pn == 0 {
            self.proof_depth = Some(root.len);
            // The line by the table's own lengths, as they were stored.
            let mut line = self.line_from(pos, root.len, false);
            if self.limits.shorten {
                line = self.polish(pos, line, root.len, proof_work);
            }
            line.map_or(Verdict::Unknown, Verdict::Mate)
        } else if root_disproven {
            Verdict::NoMate
        } else {
            Verdict::Unknown
        }
    }

    /// Whether the side to move in `pos`, in check, is mated whatever it plays, the other side
    /// attacking with checks: `Some(true)` when proven, `Some(false)` when it escapes, `None`
    /// when the limits ran out. The table is shared with [`Solver::solve`] for that attacker.
    pub fn prove_evasions(&mut self, pos: &mut Position, limits: SolveLimits) -> Option<bool> {
        self.attacker = !pos.side_to_move();
        self.nodes = 0;
        self.aborted = false;
        self.limits = limits;
        self.depth_limit = MAX_PLY;
        let root = self.search_root(pos);
        if root.pn == 0 {
            Some(true)
        } else if root.dn == 0 && !root.depth_cut {
            Some(false)
        } else {
            None
        }
    }

    /// Searches the root until it is resolved or the limits run out.
    fn search_root(&mut self, pos: &mut Position) -> Outcome {
        self.forget_path_failures();
        self.path.clear();
        self.children.clear();
        self.frames.clear();
        self.path_boards.clear();
        self.path.insert(pos.key(), 1);
        for &key in &self.avoided {
            count_in(&mut self.path, key);
        }
        let root = loop {
            let r = self.visit(pos, INF, INF, 0);
            if r.pn == 0 || r.dn == 0 || self.aborted {
                break r;
            }
        };
        self.path.clear();
        root
    }

    fn key(&self, pos: &Position) -> u64 {
        self.salted(pos.board_key())
    }

    fn salted(&self, board_key: u64) -> u64 {
        let key = match self.attacker {
            Color::Black => board_key,
            Color::White => board_key ^ WHITE_ATTACKS,
        };
        key ^ self.salt
    }

    /// Starts loading the table clusters of the children by `moves`, so that the lookups that
    /// follow, one child after another, do not each wait for memory.
    /// The board keys after the moves are kept in `board_keys`, for [`Solver::child`].
    fn prefetch_children(&mut self, pos: &Position, moves: &[Move]) {
        self.board_keys.clear();
        for &m in moves {
            let board_key = pos.board_key_after(m);
            self.table.prefetch(self.salted(board_key));
            if let Some(pf) = &self.path_failures {
                let full = board_key ^ pos.hand_key_after(m);
                pf.prefetch(path_failures::extend(self.expanding_path, full));
            }
            self.board_keys.push(board_key);
        }
    }

    fn check_limits(&mut self) {
        // One reading of the clock serves the report and the deadline.
        let now = (self.reporter.is_some() || self.limits.deadline.is_some()).then(Instant::now);
        let work = self.work();
        if let (Some(r), Some(now)) = (&mut self.reporter, now) {
            let table = &self.table;
            r.tell_if_due(now, || SolveProgress {
                nodes: work,
                hashfull: table.hashfull(),
            });
        }
        let l = &self.limits;
        if l.nodes.is_some_and(|n| self.nodes >= n)
            || l.deadline.zip(now).is_some_and(|(d, now)| now >= d)
            || l.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
    }

    /// Searches the node until its numbers reach `thpn` or `thdn`, it is resolved, or the
    /// limits run out.
    fn visit(&mut self, pos: &mut Position, thpn: u32, thdn: u32, ply: usize) -> Outcome {
        self.nodes += 1;
        // The clock and the stop flag are read every 1024 nodes; a node limit holds exactly,
        // since small budgets (a drop's proof of a few hundred nodes) must mean what they say.
        if self.nodes & 1023 == 0 || self.limits.nodes == Some(self.nodes) {
            self.check_limits();
        }
        let hand = pos.hand(self.attacker);
        if ply >= self.depth_limit {
            return Outcome {
                pn: INF,
                dn: 0,
                len: 0,
                resolved_hand: hand,
                path_dependent: false,
                depth_cut: true,
            };
        }
        let or_node = pos.side_to_move() == self.attacker;
        let key = self.key(pos);
        // Read right after the expansion, which gives the slot time to arrive.
        self.links.prefetch(NodeId { key, hand });
        let start_nodes = self.nodes;
        let base = self.children.len();
        // The path key is needed only where failures are remembered on their paths.
        let path = match &self.path_failures {
            Some(_) => {
                let parent = self.frames.last();
                path_failures::extend(
                    parent.map_or(path_failures::ROOT_PATH, |f| f.path),
                    pos.key(),
                )
            }
            None => path_failures::ROOT_PATH,
        };
        self.expanding_path = path;
        if or_node {
            self.expand_or(pos, ply);
        } else {
            self.expand_and(pos, ply);
        }
        // What an earlier visit found shared among these children still holds.
        if let Some(l) = self.links.get(NodeId { key, hand }) {
            let mut mask = l.shared;
            while mask != 0 {
                let i = base + mask.trailing_zeros() as usize;
                if let Some(c) = self.children.get_mut(i) {
                    c.shared = true;
                }
                mask &= mask - 1;
            }
        }
        count_in(&mut self.path_boards, key);
        self.frames.push(Frame {
            id: NodeId { key, hand },
            full: pos.key(),
            or_node,
            base,
            searching: base,
            path,
        });
        // The children are read from the table once, at the expansion; after that only the
        // child searched changes, by what its search returns (as KomoringHeights' local
        // expansion keeps them). What a search below one child teaches the table about a
        // sibling waits for the next visit: reading every sibling again after each child's
        // search cost a quarter of the time per node, and the search without it needs about as
        // many nodes (2% more on the 207 muso/zuko rows at 400k, 4% fewer on the hard ones at
        // 3M).
        let mut fresh = true;
        // Whether the child searched last was proven.
        let mut proven = false;
        let result = loop {
            if !fresh && !or_node && proven {
                // A reply that now counts (the one it waited for is proven) gets its first
                // estimate as it would have at the expansion.
                self.estimate_replies(pos, base, ply);
            }
            let mut s = summarise(&self.children[base..], or_node);
            let done = |s: &Summary| s.pn == 0 || s.dn == 0 || s.pn >= thpn || s.dn >= thdn;
            if fresh && !done(&s) && !self.aborted {
                // Once a visit, as KomoringHeights does: the links change slowly.
                self.set_searching(base + s.best);
                if self.eliminate_double_count(ply) {
                    s = summarise(&self.children[base..], or_node);
                }
            }
            fresh = false;
            if done(&s) || self.aborted {
                break self.conclude(pos, base, or_node, s.pn, s.dn);
            }
            // Thresholds for the best child: come back when it stops being the best, or when
            // this node would pass its own thresholds.
            let c = self.children[base + s.best];
            let (child_thpn, child_thdn) = if or_node {
                let pn = thpn
                    .min(s.second.saturating_add(1 + s.second / 2))
                    .max(c.pn + 1);
                let others = s.dn_sum - s.best_share;
                let dn = (thdn as u64).saturating_sub(others).max(c.dn as u64 + 1);
                (pn, dn.min(INF as u64) as u32)
            } else {
                let dn = thdn
                    .min(s.second.saturating_add(1 + s.second / 2))
                    .max(c.dn + 1);
                let others = s.pn_sum - s.best_share;
                let pn = (thpn as u64).saturating_sub(others).max(c.pn as u64 + 1);
                (pn.min(INF as u64) as u32, dn)
            };
            self.set_searching(base + s.best);
            pos.do_move(c.m);
            let full = pos.key();
            self.enter(full);
            let r = self.visit(pos, child_thpn, child_thdn, ply + 1);
            self.leave(full);
            pos.undo_move(c.m);
            let child = &mut self.children[base + s.best];
            child.pn = r.pn;
            child.dn = r.dn;
            child.len = r.len;
            child.resolved_hand = r.resolved_hand;
            child.path_dependent = r.path_dependent;
            child.depth_cut = r.depth_cut;
            proven = r.pn == 0;
        };
        let shared = self.children[base..]
            .iter()
            .take(64)
            .enumerate()
            .fold(0u64, |m, (i, c)| m | ((c.shared as u64) << i));
        self.children.truncate(base);
        self.frames.pop();
        count_out(&mut self.path_boards, key);
        if result.dn == 0 && result.path_dependent {
            if let Some(pf) = &mut self.path_failures {
                let failure = PathFailure {
                    hand: result.resolved_hand,
                    depth_cut: result.depth_cut,
                };
                pf.store(path, failure);
            }
        }
        if result.depth_cut {
            // No mate within the plies left: true for this node whatever the path to it, under
            // the key that counts those plies.
            if !result.path_dependent && self.depth_limit < MAX_PLY {
                let bounded = self.bounded_key(key, ply);
                self.table.store(
                    bounded,
                    result.resolved_hand,
                    INF,
                    0,
                    0,
                    self.nodes - start_nodes + 1,
                    ply,
                );
            }
        } else if !result.path_dependent {
            let stored_hand = if result.pn == 0 || result.dn == 0 {
                result.resolved_hand
            } else {
                hand
            };
            self.table.store(
                key,
                stored_hand,
                result.pn,
                result.dn,
                result.len,
                self.nodes - start_nodes + 1,
                ply,
            );
            if result.pn != 0 && result.dn != 0 {
                if let Some(parent) = self.frames.last() {
                    let (id, full) = (parent.id, parent.full);
                    let link = (result.pn, result.dn, shared);
                    self.links.store(NodeId { key, hand }, id, full, link);
                }
            }
        }
        result
    }

    fn set_searching(&mut self, i: usize) {
        if let Some(f) = self.frames.last_mut() {
            f.searching = i;
        }
    }

    /// Looks for double counting below the node on top of the path (after KomoringHeights'
    /// `FindKnownAncestor`): from the child about to be searched, it follows the parent links
    /// up. If they lead to a node on the current path through another of its children (so
    /// that node reaches the child's subtree by two branches), and the numbers along the way
    /// do not rise past `SIDE_BRANCH` (the subtree is what those nodes' numbers are made of),
    /// the two branches count by their larger number there from now on. Returns whether that
    /// node is the top one, whose numbers must then be summarised again.
    fn eliminate_double_count(&mut self, ply: usize) -> bool {
        let Some(&n) = self.frames.last() else {
            return false;
        };
        let Some(&child) = self.children.get(n.searching) else {
            return false;
        };
        if child.path_dependent || child.is_resolved() {
            return false;
        }
        let mut id = NodeId {
            key: child.key,
            hand: child.hand,
        };
        let (mut last_pn, mut last_dn) = (INF as u64, INF as u64);
        let (mut pn_flag, mut dn_flag) = (true, true);
        // Whether the parent met at each step is an OR node.
        let mut or_node = n.or_node;
        for i in 0..ply.min(PARENT_WALK) {
            let Some(link) = self.links.get(id) else {
                break;
            };
            if i == 0 && link.parent == n.id {
                // Last searched from here: nothing shared so far.
                break;
            }
            dn_flag &= link.dn as u64 <= last_dn + SIDE_BRANCH;
            pn_flag &= link.pn as u64 <= last_pn + SIDE_BRANCH;
            if !pn_flag && !dn_flag {
                break;
            }
            if self.path.contains_key(&link.parent_full) {
                // An OR node counts its children's dn twice, an AND node their pn.
                if (or_node && dn_flag) || (!or_node && pn_flag) {
                    return self.count_shared_once(link.parent, id, or_node);
                }
                break;
            }
            id = link.parent;
            (last_pn, last_dn) = (link.pn as u64, link.dn as u64);
            or_node = !or_node;
        }
        false
    }

    /// Marks, at the node `root` on the path, the child on the path and the child `other` as
    /// sharing a subtree. Nodes of `root`'s kind between it and the top whose number owes more
    /// than `SIDE_BRANCH` to their other children end the search: the sharing does not count
    /// much there. Returns whether `root` is the top node.
    fn count_shared_once(&mut self, root: NodeId, other: NodeId, root_is_or: bool) -> bool {
        let top = self.frames.len() - 1;
        for fi in (0..=top).rev() {
            let f = self.frames[fi];
            let end = if fi == top {
                self.children.len()
            } else {
                self.frames[fi + 1].base
            };
            if f.id == root {
                let Some(o) = (f.base..end).find(|&i| {
                    let c = &self.children[i];
                    i != f.searching && c.key == other.key && c.hand == other.hand
                }) else {
                    return false;
                };
                self.children[o].shared = true;
                self.children[f.searching].shared = true;
                return fi == top;
            }
            if fi != top && f.or_node == root_is_or {
                let s = summarise(&self.children[f.base..end], f.or_node);
                let c = &self.children[f.searching];
                let (delta, own) = if f.or_node {
                    (s.dn, c.dn)
                } else {
                    (s.pn, c.pn)
                };
                if delta.saturating_sub(own) as u64 > SIDE_BRANCH {
                    return false;
                }
            }
        }
        false
    }

    /// Pushes the checks of an OR node with their first estimates. A check that leaves no
    /// evasion is a proof at once, and the rest need not be looked at.
    #[inline(never)]
    fn expand_or(&mut self, pos: &mut Position, ply: usize) {
        let mut list = MoveList::new();
        generate_checks(pos, &mut list);
        self.prefetch_children(pos, &list);
        let mut evasions = MoveList::new();
        for (i, &m) in list.iter().enumerate() {
            let mut c = self.child(pos, m, self.board_keys[i], ply + 1);
            // Only a child the table does not know (or knows only as 1/1) is played, to count
            // its evasions, and only the first time: the count is kept in the table.
            if !c.path_dependent && !c.is_resolved() && c.pn == 1 {
                if let Some(pn) = self.table.counted(c.key, c.hand) {
                    c.pn = pn;
                    self.children.push(c);
                    continue;
                }
                pos.do_move(m);
                let count = count_evasions(pos);
                if count.total() == 0 {
                    c.pn = 0;
                    c.dn = INF;
                    c.len = 0;
                    c.resolved_hand = interposition_proof_hand(pos, self.attacker, Hand::EMPTY);
                    self.table
                        .store(c.key, c.resolved_hand, 0, INF, 0, 1, ply + 1);
                } else {
                    // Fewer evasions, nearer a proof. Interpositions on one square count once:
                    // they are searched in turn; those that nothing of the defender's covers
                    // count once in all.
                    let mut drops = 0;
                    if count.drop_squares.is_nonempty() {
                        let (near, _) = far_block_context(pos);
                        drops = (count.drop_squares & near).count()
                            + count.drop_squares.and_not(near).is_nonempty() as u32;
                    }
                    c.pn = count.board_moves + drops + dfpn_plus_extra(pos, m.to());
                    if count.total() == 1 && ply + 3 <= self.depth_limit {
                        evasions.clear();
                        generate_evasions(pos, &mut evasions);
                        self.try_mate_in_three(pos, &evasions, &mut c, ply);
                    }
                    if c.pn != 0 {
                        self.table.store_count(c.key, c.hand, c.pn);
                    }
                }
                pos.undo_move(m);
            }
            self.children.push(c);
            if c.pn == 0 {
                break;
            }
        }
    }

    /// The mate-in-three shortcut for a check `c` that leaves at most two replies (the position
    /// after the check is on the board): when every reply allows a mate in one, the check is
    /// proven at once. The proofs keep the whole hand, which is always safe.
    fn try_mate_in_three(
        &mut self,
        pos: &mut Position,
        replies: &[Move],
        c: &mut Child,
        ply: usize,
    ) {
        let hand = pos.hand(self.attacker);
        let mut proof = Hand::EMPTY;
        for &r in replies {
            pos.do_move(r);
            let mate = super::mate_in_one(pos);
            if let Some(m) = mate {
                // The proof hand: the mating move's piece if it is a drop, and what the
                // defender must not be able to interpose once mated.
                let after_reply = pos.hand(self.attacker);
                pos.do_move(m);
                let mated = interposition_proof_hand(pos, self.attacker, Hand::EMPTY);
                pos.undo_move(m);
                let needed = before_move(pos, m, mated).min(after_reply);
                proof = proof.max(needed);
                let key = self.key(pos);
                self.table.store(key, needed, 0, INF, 1, 1, ply + 2);
            }
            pos.undo_move(r);
            if mate.is_none() {
                return;
            }
        }
        let proof = interposition_proof_hand(pos, self.attacker, proof).min(hand);
        c.pn = 0;
        c.dn = INF;
        c.len = 2;
        c.resolved_hand = proof;
        self.table.store(c.key, proof, 0, INF, 2, 1, ply + 1);
    }

    /// Pushes the evasions of an AND node. One that is already disproven settles the node.
    #[inline(never)]
    fn expand_and(&mut self, pos: &mut Position, ply: usize) {
        let base = self.children.len();
        let mut list = MoveList::new();
        generate_legal(pos, &mut list);
        self.prefetch_children(pos, &list);
        for (i, &m) in list.iter().enumerate() {
            let c = self.child(pos, m, self.board_keys[i], ply + 1);
            self.children.push(c);
            if c.dn == 0 && !c.path_dependent {
                return;
            }
        }
        order_replies(pos, &mut self.children[base..]);
        let (near, checker) = far_block_context(pos);
        for c in &mut self.children[base..] {
            c.far_drop = is_far_block(c.m, near, checker);
        }
        link_non_promotions(pos, &mut self.children[base..]);
        self.estimate_replies(pos, base, ply);
    }

    /// Gives each reply the table does not know (or knows only as 1/1) its first disproof
    /// number: it is played and the attacker's checks after it are counted. With none it is
    /// disproven at once, for any hand without a kind this one lacks (a kind held could be held
    /// many times over, to no avail), and settles the node. Otherwise the number is what the
    /// position's own disproof number will be once its checks are pushed, so the reply that
    /// leaves the attacker the fewest is tried first.
    ///
    /// A reply is counted once: the count is kept in the table ([`MateTable::store_count`])
    /// for the next expansion.
    ///
    /// Only the replies that count in the node's numbers now are played: those `summarise`
    /// passes over (an interposition waiting behind another on its square, or behind another
    /// far one; a non-promotion waiting for its promotion) keep 1/1 until they count, at a
    /// later expansion.
    fn estimate_replies(&mut self, pos: &mut Position, base: usize, ply: usize) {
        let mut checks = MoveList::new();
        let mut queue = InterpositionQueue::default();
        for i in base..self.children.len() {
            let mut c = self.children[i];
            if queue.waits(&c) || waits_for_promotion(&self.children[base..], &c, false) {
                continue;
            }
            if c.estimated || c.path_dependent || c.is_resolved() || c.pn != 1 || c.dn != 1 {
                continue;
            }
            c.estimated = true;
            if let Some(dn) = self.table.counted(c.key, c.hand) {
                c.dn = dn;
                self.children[i] = c;
                continue;
            }
            pos.do_move(c.m);
            checks.clear();
            generate_checks(pos, &mut checks);
            if checks.is_empty() {
                c.pn = INF;
                c.dn = 0;
                c.resolved_hand = no_check_disproof_hand(pos.hand(self.attacker));
                self.table
                    .store(c.key, c.resolved_hand, INF, 0, 0, 1, ply + 1);
            } else {
                c.dn = checks.len() as u32;
                self.table.store_count(c.key, c.hand, c.dn);
            }
            pos.undo_move(c.m);
            self.children[i] = c;
            if c.dn == 0 {
                return;
            }
        }
    }

    /// What is known of the position `m` leads to from `pos` (the move is not played; its
    /// board key is `board_key`): a repetition of the path, a table entry, or the first
    /// estimate 1/1.
    fn child(&self, pos: &Position, m: Move, board_key: u64, ply: usize) -> Child {
        let key = self.salted(board_key);
        let mut hand = pos.hand(self.attacker);
        if pos.side_to_move() == self.attacker {
            // The attacker's move: a drop spends a piece, a capture brings one in.
            if m.is_drop() {
                hand = hand.minus_one(m.dropped());
            } else if let Some(captured) = pos.piece_on(m.to()) {
                hand = hand.plus_one(captured.piece_type().unpromote());
            }
        }
        // The parent links of the child are read if it is searched (the double-count test):
        // start loading them now, with the table's cluster.
        self.links.prefetch(NodeId { key, hand });
        let mut c = Child {
            m,
            key,
            hand,
            pn: 1,
            dn: 1,
            len: 0,
            resolved_hand: hand,
            path_dependent: false,
            depth_cut: false,
            waits_for: NO_WAIT,
            far_drop: false,
            shared: false,
            estimated: false,
        };
        // The full key of the child: its board key (computed once) and its hands'.
        // Looked up once for both uses: boards on the path are rare, children are not.
        let board_on_path = self.path_boards.contains_key(&key);
        let full = board_key ^ pos.hand_key_after(m);
        if self.path.contains_key(&full) || (board_on_path && self.inferior_to_path(key, hand)) {
            c.pn = INF;
            c.dn = 0;
            c.path_dependent = true;
        } else {
            self.look_up_on(&mut c, ply, board_on_path);
            let remembered = match &self.path_failures {
                Some(pf) if !c.is_resolved() => {
                    pf.get(path_failures::extend(self.expanding_path, full))
                }
                _ => None,
            };
            if let Some(f) = remembered {
                c.pn = INF;
                c.dn = 0;
                c.path_dependent = true;
                c.depth_cut = f.depth_cut;
                c.resolved_hand = f.hand;
            }
        }
        c
    }

    /// Whether the board `key` stands on the current path with an attacker's hand that holds
    /// at least `hand`: the attacker has gone round to where he was, no stronger. Like an exact
    /// repetition it is a failure for him on this path. Sound for proofs, since none is built
    /// on it; and a mate, when there is one, needs no such detour: the mate from the later
    /// position would serve the earlier one, which holds at least as much, sooner (as
    /// KomoringHeights' inferior loops). Asked only when the board is on the path
    /// (`path_boards`).
    fn inferior_to_path(&self, key: u64, hand: Hand) -> bool {
        self.frames
            .iter()
            .any(|f| f.id.key == key && f.id.hand.dominates(hand))
    }

    /// Takes what the table knows of the child `c` at `ply`: a proof short enough for the
    /// depth limit, a disproof, a failure within the plies left, or open numbers.
    ///
    /// A child the table does not know may take bounds from its board with other hands
    /// ([`MateTable::probe_at`]), but not when its board is on the current path: there the
    /// numbers would be an ancestor's, which are open and depend on this very child, and the two
    /// would raise each other round the loop without end (muso037 and muso089, which have no
    /// mate, went 20M nodes without their disproofs; with this rule they take about 530k and
    /// 440k). The caller says whether the board is on the path.
    fn look_up_on(&self, c: &mut Child, ply: usize, board_on_path: bool) {
        let p = if board_on_path {
            self.table.probe(c.key, c.hand)
        } else {
            self.table.probe_at(c.key, c.hand, ply)
        };
        if let Some(p) = p {
            if p.is_disproven() || (p.is_proven() && ply + p.len as usize <= self.depth_limit) {
                c.set(p, ply, self.depth_limit);
                return;
            }
        }
        if self.depth_limit < MAX_PLY {
            if let Some(b) = self.table.probe(self.bounded_key(c.key, ply), c.hand) {
                if b.is_disproven() {
                    c.pn = INF;
                    c.dn = 0;
                    c.resolved_hand = b.hand;
                    c.depth_cut = true;
                    return;
                }
            }
        }
        if let Some(p) = p {
            c.set(p, ply, self.depth_limit);
        }
    }

    /// The key under which a failure of the node `key` at `ply` for the depth limit is kept:
    /// "no mate within the plies left", which holds whatever the path, for that many plies.
    fn bounded_key(&self, key: u64, ply: usize) -> u64 {
        let left = self.depth_limit.saturating_sub(ply) as u64 + 1;
        key ^ left.wrapping_mul(0xd6e8_feb8_6659_fd93).rotate_left(29)
    }

    /// The node's result from its children's, with the proof or disproof hand it can claim.
    fn conclude(&self, pos: &Position, base: usize, or_node: bool, pn: u32, dn: u32) -> Outcome {
        let children = &self.children[base..];
        let hand = pos.hand(self.attacker);
        let mut out = Outcome {
            pn,
            dn,
            len: 0,
            resolved_hand: hand,
            path_dependent: false,
            depth_cut: false,
        };
        if pn == 0 {
            if or_node {
                // The quickest proven check; its proof hand, as seen from before the move.
                let c = children
                    .iter()
                    .filter(|c| c.pn == 0)
                    .min_by_key(|c| c.len)
                    .expect("a proven OR node has a proven child");
                out.len = c.len.saturating_add(1);
                out.resolved_hand = before_move(pos, c.m, c.resolved_hand).min(hand);
            } else {
                // Every evasion is proven: the union of their proof hands suffices.
                let mut proof = Hand::EMPTY;
                let mut len = 0;
                for c in children {
                    proof = proof.max(c.resolved_hand);
                    len = len.max(c.len);
                }
                out.len = len.saturating_add(1);
                out.resolved_hand = interposition_proof_hand(pos, self.attacker, proof).min(hand);
            }
        } else if dn == 0 {
            if or_node {
                // Every check fails: a hand is covered if it is covered for each check, and
                // it must not hold a kind this hand lacks (it could drop it).
                let mut disproof = full_hand();
                for c in children {
                    disproof = disproof.min(before_move(pos, c.m, c.resolved_hand));
                    out.path_dependent |= c.path_dependent;
                    out.depth_cut |= c.depth_cut;
                }
                for pt in PieceType::HAND {
                    if !hand.has(pt) {
                        disproof.set(pt, 0);
                    }
                }
                out.resolved_hand = disproof.max(hand);
            } else {
                // One evasion refutes; prefer one that rests on nothing, then one that rests
                // only on the depth limit (whose failure can still be stored).
                let c = children
                    .iter()
                    .filter(|c| c.dn == 0)
                    .min_by_key(|c| (c.path_dependent, c.depth_cut))
                    .expect("a disproven AND node has a disproven child");
                out.path_dependent = c.path_dependent;
                out.depth_cut = c.depth_cut;
                let mut disproof = c.resolved_hand;
                if c.m.is_drop() {
                    // A larger attacker hand could leave the defender without this piece.
                    let pt = c.m.dropped();
                    disproof.set(pt, disproof.count(pt).min(hand.count(pt)));
                }
                out.resolved_hand = disproof.max(hand);
            }
        }
        out
    }

    /// The line from the root, proven within `bound` plies, checked move by move; with
    /// `refined`, the lengths are first worked out again over the table's proofs
    /// ([`Solver::refine`]).
    fn line_from(&mut self, pos: &mut Position, bound: u16, refined: bool) -> Option<Vec<Move>> {
        self.refined.clear();
        let mut bound = bound;
        if refined && !self.past_deadline() {
            let mut positions = REFINE_POSITIONS;
            if let Some(len) = self.refine(pos, &mut positions) {
                bound = bound.min(len);
            }
        }
        // Comparing tied defences costs time a search calling in passing does not have.
        let mut budget = if self.limits.shorten { 20_000 } else { 0 };
        let useless_drops_left = self.limits.tsume_line;
        let line = self
            .mate_line(pos, &mut budget, bound)
            .filter(|line| verify_line(pos, line, self.attacker, useless_drops_left).is_ok());
        self.refined.clear();
        line
    }

    /// Makes `line` (from a proof of `bound` plies) shorter where the table's proofs allow:
    /// the line by lengths worked out again ([`Solver::refine`]), then, as long as that keeps
    /// giving a shorter line, quicker checks proven along it ([`Solver::prove_shortcuts`],
    /// until the line's brief proofs together pass half the first proof's work). A line is
    /// kept only when it is shorter than the one before.
    ///
    /// Why only shorter. Both lines are checked move by move, and each picks the longest
    /// defence by the lengths it reads, which are upper bounds. The worked-out lengths are
    /// tighter, and sometimes show a defence the stored ones understated: on the 207
    /// muso/zuko rows (400k nodes) the line by them alone was shorter on 6 rows (ミクロコスモス
    /// too) and longer on 11, where the table's line matched the published length more often
    /// (zuko018: 23 plies as published, 25 by the worked-out lengths, where the defender
    /// interposes a pawn next to his king, a move the rules of useless interpositions here do
    /// not leave out).
    fn polish(
        &mut self,
        pos: &mut Position,
        mut line: Option<Vec<Move>>,
        bound: u16,
        proof_work: u64,
    ) -> Option<Vec<Move>> {
        // Keep a tenth of the time left for the answer.
        let user_deadline = self.keep_a_tenth_of_the_time();
        let allowance = (proof_work / 2).max(SHORTCUT_WORK_MIN);
        // The shortcuts tried and not proven, by position and the plies they were given: a
        // later pass, along a shorter line, gives most of them fewer plies, and does not try
        // them again (ミクロコスモス's second pass spent 4 s finding nothing).
        let mut failed = FailedShortcuts::default();
        let mut first = true;
        while !self.past_deadline() {
            let len = line.as_ref().map_or(usize::MAX, Vec::len);
            match self.line_from(pos, bound, true) {
                Some(shorter) if shorter.len() < len => line = Some(shorter),
                // The shortcuts proven last gave the line nothing.
                _ if !first => break,
                _ => {}
            }
            first = false;
            let Some(l) = line.clone() else { break };
            if self.past_deadline() || self.prove_shortcuts(pos, &l, allowance, &mut failed) == 0 {
                break;
            }
        }
        self.limits.deadline = user_deadline;
        line
    }

    /// Looks along `line` for mates the table does not hold: at each attacker turn, every
    /// other check the table does not prove short enough is tried, briefly, for a mate at
    /// least two plies quicker than the line's from there. Returns how many were proven (the
    /// proofs are in the table, for [`Solver::refine`] to find).
    ///
    /// Why. The first proof's line on ミクロコスモス takes, five times over, a detour of four
    /// plies (a tokin steps aside and back before a knight drop) where the knight can drop at
    /// once: the search proved the detour first and never proved the drop, three plies from a
    /// position the table proves.
    ///
    /// A shortcut in `failed` is not tried again with no more plies than it failed with; one
    /// that fails now goes in.
    fn prove_shortcuts(
        &mut self,
        pos: &mut Position,
        line: &[Move],
        allowance: u64,
        failed: &mut FailedShortcuts,
    ) -> usize {
        let mut found = 0;
        let mut played = 0;
        let mut checks = MoveList::new();
        for (i, &m) in line.iter().enumerate() {
            if self.past_deadline() || self.line_nodes >= allowance {
                break;
            }
            self.enter(pos.key());
            let left = line.len() - i;
            if pos.side_to_move() == self.attacker && left >= 5 {
                checks.clear();
                generate_checks(pos, &mut checks);
                for &c in checks.iter() {
                    if c == m {
                        continue;
                    }
                    pos.do_move(c);
                    let bound = left - 3;
                    let full = pos.key();
                    let tried = !self.path.contains_key(&full)
                        && failed.get(&full).is_none_or(|&b| bound > b as usize)
                        && match self.table.probe(self.key(pos), pos.hand(self.attacker)) {
                            Some(p) if p.is_disproven() => false,
                            Some(p) if p.is_proven() => p.len as usize > bound,
                            _ => true,
                        };
                    if tried {
                        if self.proven_len_in(pos, bound, SHORTCUT_TRY).is_some() {
                            found += 1;
                        } else {
                            failed.insert(full, bound as u32);
                        }
                    }
                    pos.undo_move(c);
                }
            }
            pos.do_move(m);
            played += 1;
        }
        for &m in line[..played].iter().rev() {
            pos.undo_move(m);
            self.leave(pos.key());
        }
        found
    }

    /// The mating line from a proven position: the quickest check at each attacker turn, the
    /// longest resistance at each defender turn and, among equally long ones, the reply that
    /// leaves the attacker the fewest pieces in hand at the end (ties are compared while
    /// `budget` lasts). Children the table lost are proven again.
    /// `bound` is the length of a mate known to exist from `pos`: lengths the table remembers
    /// from longer proofs found earlier are proven again within it.
    fn mate_line(&mut self, pos: &mut Position, budget: &mut u32, bound: u16) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        self.line_corrections = LINE_CORRECTIONS;
        let key = pos.key();
        // The positions to avoid stay out of reach of the line as they were of the search: a
        // check into one is passed over, as a repetition (the search's proof has another).
        let avoided = std::mem::take(&mut self.avoided);
        for &k in avoided.iter().chain([&key]) {
            self.enter(k);
        }
        let r = self.extend_line(pos, &mut line, budget, 0, bound);
        for &k in avoided.iter().chain([&key]) {
            self.leave(k);
        }
        self.avoided = avoided;
        r.map(|()| line)
    }

    /// Plays `m` and extends the line from there, with the new position on the path.
    fn extend_after(
        &mut self,
        pos: &mut Position,
        m: Move,
        line: &mut Vec<Move>,
        budget: &mut u32,
        depth: usize,
        bound: u16,
    ) -> Option<()> {
        pos.do_move(m);
        let key = pos.key();
        self.enter(key);
        let r = self.extend_line(pos, line, budget, depth, bound);
        self.leave(key);
        pos.undo_move(m);
        r
    }

    fn enter(&mut self, full: u64) {
        count_in(&mut self.path, full);
    }

    fn leave(&mut self, full: u64) {
        count_out(&mut self.path, full);
    }

    /// The line's positions are on the path while it is extended (see [`Solver::extend_after`]):
    /// an attacker's check back to one of them is not followed (the table's lengths can be
    /// stale, and following them could go round a loop), and a node proven again is proven
    /// without repeating them.
    fn extend_line(
        &mut self,
        pos: &mut Position,
        line: &mut Vec<Move>,
        budget: &mut u32,
        depth: usize,
        bound: u16,
    ) -> Option<()> {
        if depth > 2 * MAX_PLY {
            return None;
        }
        *budget = budget.saturating_sub(1);
        if *budget > 0 && (*budget).is_multiple_of(64) && self.past_deadline() {
            // Comparing tied defences is a nicety: past the deadline the line goes with the
            // first of them, so the answer still comes on time.
            *budget = 0;
        }
        let or_node = pos.side_to_move() == self.attacker;
        let mut list = MoveList::new();
        super::turn_moves(pos, or_node, &mut list);
        if !or_node && list.is_empty() {
            return Some(());
        }
        let mut proven = self.proven_children(pos, &list, or_node, bound)?;
        if or_node && proven.is_empty() {
            // The table still holds this node's proof but lost its proven checks: a cluster
            // full of one board's hands evicts the cheapest proofs. Proving the node again
            // stores them.
            self.proven_len_within(pos, bound as usize)?;
            proven = self.proven_children(pos, &list, or_node, bound)?;
        }
        if !or_node && self.limits.tsume_line {
            self.leave_out_useless(pos, &mut proven);
            if proven.is_empty() {
                // Only useless interpositions are left: under the convention this is mate.
                return Some(());
            }
        }
        if or_node {
            let &(m, l) = proven.iter().min_by_key(|&&(_, l)| l)?;
            line.push(m);
            return self.extend_after(pos, m, line, budget, depth + 1, l);
        }
        // The defender's replies, longest first. A reply's length is that of the proof the
        // table stored for it, an upper bound: a shorter mate found below it later is not
        // carried up to it. So when the line of the longest reply comes out shorter than the
        // next reply's length, that one is followed too (at most `LINE_CORRECTIONS` a line),
        // and the line whose length, capped at its reply's, is longest is kept.
        proven.sort_by_key(|&(_, l)| std::cmp::Reverse(l));
        let mut best: Option<(Vec<Move>, usize)> = None;
        let mut i = 0;
        while i < proven.len() {
            let claim = proven[i].1;
            let tied = proven[i..].iter().take_while(|&&(_, l)| l == claim).count();
            let replies = &proven[i..i + tied];
            i += tied;
            if let Some((_, value)) = &best {
                // A correction is a nicety too: none past the deadline.
                if *value > claim as usize || self.line_corrections == 0 || self.past_deadline() {
                    break;
                }
                self.line_corrections -= 1;
            }
            let Some(sub) = self.longest_of_tied(pos, replies, budget, depth) else {
                continue;
            };
            let value = sub.len().min(claim as usize + 1);
            if best.as_ref().is_none_or(|(_, v)| value > *v) {
                best = Some((sub, value));
            }
        }
        line.extend(best?.0);
        Some(())
    }

    /// The line after the best of `replies`, tied for length in the table: with `budget` left,
    /// each is followed to the end and the one that leaves the attacker the least to spare (then
    /// the longest) is kept; otherwise the first whose line can be extracted.
    fn longest_of_tied(
        &mut self,
        pos: &mut Position,
        replies: &[(Move, u16)],
        budget: &mut u32,
        depth: usize,
    ) -> Option<Vec<Move>> {
        let mut best: Option<(u32, usize, Vec<Move>)> = None;
        for &(m, l) in replies {
            let mut sub = vec![m];
            if self
                .extend_after(pos, m, &mut sub, budget, depth + 1, l)
                .is_none()
            {
                continue;
            }
            if replies.len() == 1 || *budget == 0 {
                return Some(sub);
            }
            let rank = (
                spare_after(pos, &sub, self.attacker),
                usize::MAX - sub.len(),
            );
            if best.as_ref().is_none_or(|b| rank < (b.0, b.1)) {
                best = Some((rank.0, rank.1, sub));
            }
        }
        best.map(|b| b.2)
    }

    /// Takes the useless interpositions (see `muda.rs`) out of a defender's proven replies, longest
    /// first: only those at least as long as the longest reply that counts can change the line,
    /// so the shorter ones stay untested. A drop is useless when the position after the checking
    /// piece takes it is proven without the piece in hand (by the table, or a brief new proof).
    fn leave_out_useless(&mut self, pos: &mut Position, proven: &mut Vec<(Move, u16)>) {
        // A stable sort: tied replies keep their order for the tie-break.
        proven.sort_by_key(|&(_, l)| std::cmp::Reverse(l));
        let mut kept = Vec::with_capacity(proven.len());
        let mut longest_counted: Option<u16> = None;
        for &(m, l) in proven.iter() {
            let matters = longest_counted.is_none_or(|c| l >= c);
            if matters && muda::is_useless(pos, m, &mut |p| self.mated_without(p, m.dropped())) {
                continue;
            }
            longest_counted.get_or_insert(l);
            kept.push((m, l));
        }
        *proven = kept;
    }

    /// Whether `pos`, a position after the capture of a useless-looking drop of `kind` with
    /// that piece taken out of the game, is mate. A proof of the real position (the defender
    /// holding the piece) holds without it and is read as it is; a new proof is stored apart
    /// ([`Solver::set_out_of_game`]).
    fn mated_without(&mut self, pos: &mut Position, kind: PieceType) -> bool {
        if self.salt == 0 {
            if let Some(p) = self.table.probe(self.key(pos), pos.hand(self.attacker)) {
                if p.is_proven() {
                    return true;
                }
            }
        }
        let saved = self.salt;
        self.set_out_of_game(Some(kind));
        let asked = (self.key(pos), pos.hand(self.attacker));
        let mated = match self.without_piece.get(&asked) {
            Some(&mated) => mated,
            None => {
                let mated = self.proven_len(pos, true).is_some();
                self.without_piece.insert(asked, mated);
                mated
            }
        };
        self.salt = saved;
        mated
    }

    /// (move, plies to mate after it) for the children in `list` the table proves, or `None`
    /// when an evasion (`or_node` false) cannot be proven.
    fn proven_children(
        &mut self,
        pos: &mut Position,
        list: &[Move],
        or_node: bool,
        bound: u16,
    ) -> Option<Vec<(Move, u16)>> {
        let mut proven: Vec<(Move, u16)> = Vec::new();
        for &m in list {
            pos.do_move(m);
            if or_node && self.path.contains_key(&pos.key()) {
                pos.undo_move(m);
                continue;
            }
            let mut len = self.proven_len(pos, !or_node);
            if !or_node && len.is_some_and(|l| l + 1 > bound) {
                // A defence the table knows only a longer mate against, though a mate within
                // `bound` exists: find the shorter one, or the line would pick this defence
                // for a resistance it does not have.
                len = self
                    .proven_len_within(pos, bound.saturating_sub(1) as usize)
                    .or(len);
            }
            pos.undo_move(m);
            match len {
                Some(l) => proven.push((m, l)),
                None if or_node => {}
                None => return None,
            }
        }
        Some(proven)
    }

    /// The length of the quickest mate the table's proofs give from `pos` (proven), worked out
    /// again over them: the quickest proven check at each attacker turn, the longest reply at
    /// each defender turn, each child's length worked out in turn (and kept in
    /// [`Solver::refined`]). `None` when the table does not prove `pos`.
    ///
    /// Why. A length the table stores is the one the proof had when it was found: a check
    /// proven later, or a reply whose mate a later proof shortened, is not carried up to the
    /// nodes above (the quicker knight drops [`Solver::prove_shortcuts`] proves on
    /// ミクロコスモス reach the root only this way).
    ///
    /// Only children the table gives a shorter length than this position's are worked out;
    /// the others count at their stored length. Lengths fall at every step, so no loop is
    /// followed and no path is needed. (Worked out over every proven child instead, muso026
    /// went through 4M positions in 21 s, each attacker hand a new position; this way, 39k in
    /// 0.09 s.) A position never takes more than its stored length: the proof that gave it
    /// may since have been replaced by a longer one. A defender's turn with a reply the table
    /// no longer proves keeps its stored length too. Past `budget` positions, or past the
    /// deadline, a position keeps the table's length.
    fn refine(&mut self, pos: &mut Position, budget: &mut u32) -> Option<u16> {
        let key = self.key(pos);
        let hand = pos.hand(self.attacker);
        if let Some(&len) = self.refined.get(&(key, hand)) {
            return Some(len);
        }
        // The table's length, or 0 for a mated defender; a mate in 0 has nothing to work out.
        let stored = self.proven_len(pos, false)?;
        if stored == 0 || *budget == 0 {
            return Some(stored);
        }
        *budget -= 1;
        if (*budget).is_multiple_of(1024) && self.past_deadline() {
            *budget = 0;
            return Some(stored);
        }
        let or_node = pos.side_to_move() == self.attacker;
        let mut list = MoveList::new();
        super::turn_moves(pos, or_node, &mut list);
        let mut best: Option<u16> = None;
        for &m in list.iter() {
            pos.do_move(m);
            let len = match self.proven_len(pos, false) {
                Some(len) if len < stored => self.refine(pos, budget),
                other => other,
            };
            pos.undo_move(m);
            let Some(len) = len else {
                if or_node {
                    continue;
                }
                best = None;
                break;
            };
            best = Some(match best {
                None => len + 1,
                Some(b) if or_node => b.min(len + 1),
                Some(b) => b.max(len + 1),
            });
        }
        // A proof that gave the stored length may have been replaced in the table since: the
        // stored length stands for it.
        let len = best.map_or(stored, |b| b.min(stored));
        self.refined.insert((key, hand), len);
        Some(len)
    }

    /// Proves `pos` (attacker to move) again, briefly, with mates of at most `bound` plies only.
    fn proven_len_within(&mut self, pos: &mut Position, bound: usize) -> Option<u16> {
        self.proven_len_in(pos, bound, 100_000)
    }

    /// [`Solver::proven_len_within`] with at most `nodes` nodes.
    fn proven_len_in(&mut self, pos: &mut Position, bound: usize, nodes: u64) -> Option<u16> {
        let saved = (
            self.nodes,
            self.aborted,
            self.limits.clone(),
            self.depth_limit,
        );
        self.aborted = false;
        self.limits = SolveLimits {
            nodes: Some(self.nodes + nodes),
            deadline: self.limits.deadline,
            ..SolveLimits::default()
        };
        self.depth_limit = bound;
        let key = pos.key();
        self.enter(key);
        self.forget_path_failures();
        let r = self.visit(pos, INF, INF, 0);
        self.forget_path_failures();
        self.leave(key);
        self.line_nodes += self.nodes - saved.0;
        (self.nodes, self.aborted, self.limits, self.depth_limit) = saved;
        (r.pn == 0 && r.len as usize <= bound).then_some(r.len)
    }

    /// Plies to mate from `pos` if the table proves it. With `reprove`, an entry the table lost
    /// (every evasion of a proven node is proven) is proven again, briefly.
    fn proven_len(&mut self, pos: &mut Position, reprove: bool) -> Option<u16> {
        let key = self.key(pos);
        let hand = pos.hand(self.attacker);
        if let Some(&len) = self.refined.get(&(key, hand)) {
            return Some(len);
        }
        match self.table.probe(key, hand) {
            Some(p) if p.is_proven() => return Some(p.len),
            Some(p) if p.is_disproven() => return None,
            _ => {}
        }
        if pos.side_to_move() != self.attacker && pos.in_check() && !has_evasion(pos) {
            // Mated: a mate in one found by the shortcut leaves no entry for this position.
            return Some(0);
        }
        if !reprove {
            return None;
        }
        self.proven_len_within(pos, MAX_PLY)
    }
}

impl Child {
    /// Takes what the table knows of the child at `ply`, except a proof too long to finish
    /// within `depth_limit`.
    fn set(&mut self, p: Probe, ply: usize, depth_limit: usize) {
        if p.is_proven() && ply + p.len as usize > depth_limit {
            return;
        }
        self.pn = p.pn;
        self.dn = p.dn;
        self.len = p.len;
        self.resolved_hand = p.hand;
    }
}

/// The numbers of a node and which child to search.
struct Summary {
    pn: u32,
    dn: u32,
    pn_sum: u64,
    dn_sum: u64,
    best: usize,
    /// The second-best child's pn (OR) or dn (AND).
    second: u32,
    /// What the best child adds to `dn_sum` (OR) or `pn_sum` (AND): its own number, or the
    /// largest of its group's.
    best_share: u64,
}

fn summarise(children: &[Child], or_node: bool) -> Summary {
    let mut s = Summary {
        pn: 0,
        dn: 0,
        pn_sum: 0,
        dn_sum: 0,
        best: 0,
        second: INF,
        best_share: 0,
    };
    let mut best_value = INF + 1;
    // The tie-break number of the best child so far (of the first child before there is one,
    // which any child's number beats).
    let mut best_tie = children
        .first()
        .map_or(INF, |b| if or_node { b.dn } else { b.pn });
    // Drops of a lance, bishop or rook on one line are much the same check whatever the
    // distance: their disproof numbers count as their largest, not their sum, or the attacker
    // would seem to have that many independent tries.
    let mut line_drops = [0u64; 3];
    // Children that share a subtree count by the largest of their numbers.
    let mut shared = 0u64;
    let mut queue = InterpositionQueue::default();
    for (i, c) in children.iter().enumerate() {
        if (!or_node && queue.waits(c)) || waits_for_promotion(children, c, or_node) {
            continue;
        }
        if c.shared {
            shared = shared.max(if or_node { c.dn } else { c.pn } as u64);
            if or_node {
                s.pn_sum += c.pn as u64;
            } else {
                s.dn_sum += c.dn as u64;
            }
        } else {
            s.pn_sum += c.pn as u64;
            match line_drop(c.m, or_node) {
                Some(k) => line_drops[k] = line_drops[k].max(c.dn as u64),
                None => s.dn_sum += c.dn as u64,
            }
        }
        let (value, tie) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
        if value < best_value || (value == best_value && tie < best_tie) {
            s.second = best_value.min(INF);
            best_value = value;
            best_tie = tie;
            s.best = i;
        } else if value < s.second {
            s.second = value;
        }
    }
    s.dn_sum += line_drops.iter().sum::<u64>();
    if or_node {
        s.dn_sum += shared;
    } else {
        s.pn_sum += shared;
    }
    if let Some(b) = children.get(s.best) {
        s.best_share = if b.shared {
            shared
        } else if or_node {
            line_drop(b.m, or_node).map_or(b.dn as u64, |k| line_drops[k])
        } else {
            b.pn as u64
        };
    }
    let best_value = best_value.min(INF);
    let cap = |sum: u64| sum.min(INF as u64 - 1) as u32;
    if or_node {
        s.pn = best_value;
        s.dn = if s.pn == 0 { INF } else { cap(s.dn_sum) };
    } else {
        s.dn = best_value;
        s.pn = if s.dn == 0 { INF } else { cap(s.pn_sum) };
    }
    s
}

/// Which of a defender's interpositions count in its node's numbers now, the node's children
/// taken in order (interpositions last, grouped by square). Those on one square wait until the
/// earlier ones there are proven: the defender's pieces on one square usually fall to the same
/// reply. Those on squares the defender does not cover, on any square, wait for one another:
/// they are mostly useless (the checker takes them), and counting each square made distant
/// checks look costly.
#[derive(Default)]
struct InterpositionQueue {
    square: Option<Square>,
    square_open: bool,
    far_open: bool,
}

impl InterpositionQueue {
    /// Whether the defender's move `c` waits behind an open interposition before it.
    fn waits(&mut self, c: &Child) -> bool {
        if c.far_drop {
            if self.far_open {
                return true;
            }
            self.far_open |= c.pn != 0;
        } else if c.m.is_drop() {
            if self.square == Some(c.m.to()) {
                if self.square_open {
                    return true;
                }
            } else {
                self.square = Some(c.m.to());
                self.square_open = false;
            }
            self.square_open |= c.pn != 0;
        }
        false
    }
}

/// Orders a defender's replies: his captures first, then his other moves on the board, then
/// his interpositions (drops), grouped by square, the squares nearest his king first; within
/// each group the generator's order (on one square the weakest piece first). Among replies whose
/// numbers tie, `summarise` searches the first.
/// - A capture (of the checker, or the king's of a piece beside it) takes an attacker's piece
///   and gives the defender one to drop: among replies that look alike, the one likeliest to
///   hold. Measured with `hayate mate --batch MZ --first` (the 207 muso/zuko rows): 186 solved
///   against 182 at 400k nodes a problem (0.99 of the nodes on the rows both solve), 188
///   against 186 at 800k, 164 against 166 at 200k; within 10 s a problem, muso048 added. The
///   king's moves last among the board moves instead: 184 at 400k, 1.03 of the nodes.
/// - `summarise` lets one drop per square at a time count, since the defender's pieces on one
///   square usually fall to the same reply. Next to the king an interposition is most often
///   protected, and the proof against it is the one the defence rests on; in board order (by
///   square index), as before, the squares nearest the king came first only when the check
///   came from one side. At 400k nodes: 182 solved against 179, 0.979 of the nodes; the
///   farthest first: 180, 1.054; on one square the strongest piece first: 166, 1.354.
fn order_replies(pos: &Position, children: &mut [Child]) {
    let king = pos.king_square(pos.side_to_move());
    children.sort_by_key(|c| {
        let to = c.m.to();
        if c.m.is_drop() {
            (2, king.map_or(0, |k| Square::distance(k, to)), to.index())
        } else if pos.piece_on(to).is_some() {
            (0, 0, 0)
        } else {
            (1, 0, 0)
        }
    });
}

/// Whether the non-promotion `c` among `children` still waits for its promotion: it counts once
/// the promotion has failed for the side to move.
fn waits_for_promotion(children: &[Child], c: &Child, or_node: bool) -> bool {
    if c.waits_for == NO_WAIT || c.is_resolved() {
        return false;
    }
    let w = &children[c.waits_for as usize];
    (if or_node { w.dn } else { w.pn }) != 0
}

/// Makes each non-promotion of a pawn, bishop or rook (and of a lance to the second rank) wait
/// for the same move with promotion, when both are among `children`. Promoting is almost always
/// at least as good for these pieces; the exceptions (a pawn-drop mate to avoid, a lance that
/// must keep its line) are still searched, once the promotion has failed.
fn link_non_promotions(pos: &Position, children: &mut [Child]) {
    let us = pos.side_to_move();
    for i in 0..children.len() {
        let m = children[i].m;
        if m.is_drop() || m.is_promotion() {
            continue;
        }
        let Some(piece) = pos.piece_on(m.from()) else {
            continue;
        };
        let delayable = match piece.piece_type() {
            PieceType::Pawn | PieceType::Bishop | PieceType::Rook => true,
            PieceType::Lance => m.to().relative_rank(us) == 1,
            _ => false,
        };
        if !delayable {
            continue;
        }
        let promoted = Move::normal(m.from(), m.to(), true);
        if let Some(j) = children.iter().position(|c| c.m == promoted) {
            children[i].waits_for = j as u16;
        }
    }
}

/// The group of an attacker's drop whose disproof number counts as a maximum (see
/// `summarise`): lances, bishops and rooks.
fn line_drop(m: Move, or_node: bool) -> Option<usize> {
    if !or_node || !m.is_drop() {
        return None;
    }
    match m.dropped() {
        PieceType::Lance => Some(0),
        PieceType::Bishop => Some(1),
        PieceType::Rook => Some(2),
        _ => None,
    }
}

/// The squares where an interposition counts on its own (next to the defender's king, or
/// covered by one of the defender's pieces) and the checking piece's square (`None` in double
/// check or out of check), for [`is_far_block`].
fn far_block_context(pos: &Position) -> (Bitboard, Option<Square>) {
    let us = pos.side_to_move();
    let Some(king) = pos.king_square(us) else {
        return (Bitboard::EMPTY, None);
    };
    let checker = pos.checkers().single();
    let mut near = attacks::king_attacks(king);
    if let Some(ch) = checker {
        let occ = pos.occupied();
        for sq in attacks::between(king, ch).and_not(near) {
            if pos.is_attacked(us, sq, occ) {
                near = near.with(sq);
            }
        }
    }
    (near, checker)
}

/// Whether the evasion `m` is a drop against a distant check on a square where it does not
/// count on its own (see [`far_block_context`]).
fn is_far_block(m: Move, near: Bitboard, checker: Option<Square>) -> bool {
    checker.is_some() && m.is_drop() && !near.contains(m.to())
}

/// GPS Shogi's df-pn+ additions to a check's first proof number, as KomoringHeights uses them
/// (`InitialPnDnPlusOrNode`), with the check played on `pos` and its piece on `to`:
/// - one where the defender covers `to` twice or more: the checker is likely taken;
/// - one unless the attacker's support of `to` (the checker counts) outnumbers the defender's
///   cover, or the check took a gold or silver: a check that can be taken for nothing, or
///   trades down, is seldom the mating one.
///
/// They go on top of the count of evasions, and into the count kept in the table with it.
fn dfpn_plus_extra(pos: &Position, to: Square) -> u32 {
    let defender = pos.side_to_move();
    let occ = pos.occupied();
    let attackers = pos.attackers_to_either(to, occ);
    let cover = (attackers & pos.pieces_of(defender)).count();
    let support = (attackers & pos.pieces_of(!defender)).count() + 1;
    let took_gold_or_silver = matches!(
        pos.captured_piece().map(|p| p.piece_type().unpromote()),
        Some(PieceType::Gold | PieceType::Silver)
    );
    let mut extra = 0;
    if cover >= 2 {
        extra += 1;
    }
    if support <= cover && !took_gold_or_silver {
        extra += 1;
    }
    extra
}

/// The disproof hand of a position where the attacker, holding `hand`, has no check: every kind
/// `hand` holds, as many times as there are, and none of the others.
fn no_check_disproof_hand(hand: Hand) -> Hand {
    let mut disproof = Hand::EMPTY;
    for pt in PieceType::HAND {
        if hand.has(pt) {
            disproof.set(pt, Hand::MAX[pt as usize] as u32);
        }
    }
    disproof
}

/// Every piece of every kind: the start of a minimum over disproof hands.
fn full_hand() -> Hand {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        h.set(pt, Hand::MAX[pt as usize] as u32);
    }
    h
}

/// Translates a child's proof (or disproof) hand to the parent, before the attacker's move `m`:
/// a drop used one more piece, a capture brought one in.
fn before_move(pos: &Position, m: Move, child_hand: Hand) -> Hand {
    if m.is_drop() {
        child_hand.plus_one(m.dropped())
    } else if let Some(captured) = pos.piece_on(m.to()) {
        child_hand.minus_one(captured.piece_type().unpromote())
    } else {
        child_hand
    }
}

/// The proof hand an AND node needs on top of `proof`: against a distant check, a defender
/// who lacks a kind might interpose it if the attacker held fewer, so the attacker must keep
/// every piece of each kind the defender lacks.
fn interposition_proof_hand(pos: &Position, attacker: Color, mut proof: Hand) -> Hand {
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.has_more_than_one() {
        return proof;
    }
    let Some(king) = pos.king_square(!attacker) else {
        return proof;
    };
    if attacks::between(king, checkers.lsb()).is_empty() {
        return proof;
    }
    let ours = pos.hand(attacker);
    let theirs = pos.hand(!attacker);
    for pt in PieceType::HAND {
        if !theirs.has(pt) {
            proof.set(pt, proof.count(pt).max(ours.count(pt)));
        }
    }
    proof
}

/// Pieces the attacker still holds after playing `line` from `pos`.
fn spare_after(pos: &Position, line: &[Move], attacker: Color) -> u32 {
    let mut p = pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker).total()
}

/// Whether `pos` is a tsume position with the defender to move: in check, the other side
/// without a king. (With both kings on the board the side in check may be the attacker, after
/// a counter-check.)
pub fn defender_to_move(pos: &Position) -> bool {
    pos.in_check() && pos.king_square(!pos.side_to_move()).is_none()
}

/// Checks a mating line move by move: each move legal, each attacker move a check, and the
/// defender left without a legal move at the end.
pub fn verify_mate_line(pos: &Position, line: &[Move]) -> Result<(), String> {
    verify_line(pos, line, pos.side_to_move(), false)
}

/// Checks a main line under the tsume convention as [`verify_mate_line`] does, except that the
/// defender may be left with drops that may be useless interpositions (無駄合: against a distant
/// check, off the king's squares, on a square no defender piece covers). That they are useless
/// is for the solver's proof to show, not for this check.
pub fn verify_tsume_line(pos: &Position, line: &[Move]) -> Result<(), String> {
    verify_line(pos, line, pos.side_to_move(), true)
}

/// The check of a line played by `attacker` against the other side, whichever moves first.
fn verify_line(
    pos: &Position,
    line: &[Move],
    attacker: Color,
    useless_drops_left: bool,
) -> Result<(), String> {
    let mut p = pos.clone();
    // With the defender to move, the empty line says he is mated already.
    if line.is_empty() && p.side_to_move() == attacker {
        return Err("the line is empty".into());
    }
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            return Err(format!("move {} ({m}) is illegal", i + 1));
        }
        let attacking = p.side_to_move() == attacker;
        if attacking && !p.gives_check(m) {
            return Err(format!("attacker move {} ({m}) is not a check", i + 1));
        }
        p.do_move(m);
    }
    if p.side_to_move() == attacker {
        return Err("the line ends with the defender to move".into());
    }
    let mut replies = MoveList::new();
    generate_legal(&p, &mut replies);
    if replies.is_empty() || (useless_drops_left && muda::only_droppable_replies(&p)) {
        Ok(())
    } else {
        Err(format!("the defender still has {} moves", replies.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The df-pn+ additions of the check `usi` played in `sfen`.
    fn extra_after(sfen: &str, usi: &str) -> u32 {
        let mut pos = Position::from_sfen(sfen).unwrap();
        let m = pos.parse_usi_move(usi).unwrap();
        pos.do_move(m);
        dfpn_plus_extra(&pos, m.to())
    }

    #[test]
    fn a_check_that_can_be_taken_for_nothing_starts_further_from_a_proof() {
        // G*5b next to the king on 5a: the king alone covers 5b and only the gold stands
        // there, so the check is unsupported.
        assert_eq!(extra_after("4k4/9/9/9/9/9/9/9/9 b G 1", "G*5b"), 1);
        // A gold on 4a covers 5b too: two covers.
        assert_eq!(extra_after("4kg3/9/9/9/9/9/9/9/9 b G 1", "G*5b"), 2);
        // A silver on 5c supports the gold: two against the king's one.
        assert_eq!(extra_after("4k4/9/4S4/9/9/9/9/9/9 b G 1", "G*5b"), 0);
        // Covered twice: the silver's support only matches the cover.
        assert_eq!(extra_after("4kg3/9/4S4/9/9/9/9/9/9 b G 1", "G*5b"), 2);
        // A knight on 4d supports it too: three against two, but still covered twice.
        assert_eq!(extra_after("4kg3/9/4S4/5N3/9/9/9/9/9 b G 1", "G*5b"), 1);
        // The rook takes a gold with check: unsupported, but it wins the gold.
        assert_eq!(extra_after("4k4/4g4/9/9/4R4/9/9/9/9 b - 1", "5e5b"), 0);
        // The same with a pawn taken.
        assert_eq!(extra_after("4k4/4p4/9/9/4R4/9/9/9/9 b - 1", "5e5b"), 1);
    }

    #[test]
    fn a_reply_that_leaves_no_check_is_disproven_for_the_kinds_held_only() {
        // A lone gold: every check is taken by the king, after which Black has no check.
        let mut pos = Position::from_sfen("k8/9/9/9/9/9/9/9/9 b G 1").unwrap();
        let mut solver = Solver::new(1);
        assert_eq!(
            solver.solve(&mut pos, SolveLimits::default()),
            Verdict::NoMate
        );
        // After G*8b Kx8b Black holds nothing and has no check: disproven...
        let after = Position::from_sfen("9/1k7/9/9/9/9/9/9/9 b - 1").unwrap();
        assert!(matches!(solver.known(&after), Some(Settled::NoMate(_))));
        // ...but not for a hand with a kind the disproof did not hold (a gold drops with check).
        let with_gold = Position::from_sfen("9/1k7/9/9/9/9/9/9/9 b G 1").unwrap();
        assert_eq!(solver.known(&with_gold), None);
        // A kind held counts as held any number of times.
        let mut one_pawn = Hand::EMPTY;
        one_pawn.set(PieceType::Pawn, 1);
        let d = no_check_disproof_hand(one_pawn);
        assert_eq!(
            d.count(PieceType::Pawn),
            Hand::MAX[PieceType::Pawn as usize] as u32
        );
        assert_eq!(d.count(PieceType::Gold), 0);
    }

    fn child(m: Move, pn: u32, dn: u32, waits_for: u16) -> Child {
        Child {
            m,
            key: 0,
            hand: Hand::EMPTY,
            pn,
            dn,
            len: 0,
            resolved_hand: Hand::EMPTY,
            path_dependent: false,
            depth_cut: false,
            waits_for,
            far_drop: false,
            shared: false,
            estimated: false,
        }
    }

    fn sq(usi: &str) -> Square {
        Square::from_usi(usi).unwrap()
    }

    #[test]
    fn children_that_share_a_subtree_count_by_their_largest_number() {
        let m = |to: &str| Move::normal(sq("5e"), sq(to), false);
        // An OR node: the disproof numbers of shared checks count once, by the largest.
        let mut checks = [child(m("5d"), 1, 3, NO_WAIT), child(m("4d"), 2, 5, NO_WAIT)];
        let plain = summarise(&checks, true);
        assert_eq!(plain.dn, 8);
        checks[0].shared = true;
        checks[1].shared = true;
        let s = summarise(&checks, true);
        assert_eq!(s.dn, 5);
        // The best child (pn 1) owns the whole shared number: nothing else adds to it.
        assert_eq!((s.best, s.dn_sum - s.best_share), (0, 0));
        // An AND node: the proof numbers, the same way; unshared replies still add up.
        let mut replies = [
            child(m("5d"), 3, 1, NO_WAIT),
            child(m("4d"), 4, 2, NO_WAIT),
            child(m("6d"), 2, 3, NO_WAIT),
        ];
        assert_eq!(summarise(&replies, false).pn, 9);
        replies[0].shared = true;
        replies[1].shared = true;
        let s = summarise(&replies, false);
        assert_eq!(s.pn, 6);
        assert_eq!((s.best, s.pn_sum - s.best_share), (0, 2));
    }

    /// An OR node R with checks A and B, A searched, and below A a reply leading to C. The
    /// links say C was last searched from B, and B from R: C's subtree hangs below both
    /// checks, so R counts A and B once. (R stands at ply 1: the walk goes at most as many
    /// links up as the top node's ply.)
    #[test]
    fn a_subtree_reached_through_two_checks_is_found_by_the_parent_links() {
        let hand = Hand::EMPTY;
        let id = |key| NodeId { key, hand };
        let (root, a, b, c) = (10u64 << 32, 11u64 << 32, 12u64 << 32, 13u64 << 32);
        let m = |to: &str| Move::normal(sq("5e"), sq(to), false);
        let with_key = |mut ch: Child, key| {
            ch.key = key;
            ch
        };
        let setup = |b_dn: u32| {
            let mut solver = Solver::new(1);
            solver.children = vec![
                with_key(child(m("5d"), 1, 1, NO_WAIT), a),
                with_key(child(m("4d"), 1, 1, NO_WAIT), b),
                with_key(child(m("4c"), 1, 1, NO_WAIT), c),
            ];
            solver.frames = vec![
                Frame {
                    id: id(root),
                    full: 1,
                    or_node: true,
                    base: 0,
                    searching: 0,
                    path: 0,
                },
                Frame {
                    id: id(a),
                    full: 2,
                    or_node: false,
                    base: 2,
                    searching: 2,
                    path: 0,
                },
            ];
            solver.path.insert(1, 1);
            solver.path.insert(2, 1);
            solver.links.store(id(c), id(b), 3, (1, 1, 0));
            solver.links.store(id(b), id(root), 1, (1, b_dn, 0));
            solver
        };
        let mut solver = setup(2);
        assert!(!solver.eliminate_double_count(2));
        assert!(solver.children[0].shared && solver.children[1].shared);
        assert!(!solver.children[2].shared);
        // B's disproof number owes much to other children of its own: not a double count.
        let mut solver = setup(1 + SIDE_BRANCH as u32 + 1);
        solver.eliminate_double_count(2);
        assert!(!solver.children[0].shared && !solver.children[1].shared);
        // C last searched from A itself: nothing to find.
        let mut solver = setup(2);
        solver.links.store(id(c), id(a), 2, (1, 1, 0));
        solver.eliminate_double_count(2);
        assert!(!solver.children[0].shared && !solver.children[1].shared);
    }

    #[test]
    fn a_non_promotion_counts_once_the_promotion_has_failed() {
        let promote = Move::normal(sq("2d"), sq("2b"), true);
        let stay = Move::normal(sq("2d"), sq("2b"), false);
        // A defender's move: the non-promotion adds to the proof number only once the
        // promotion is proven.
        let mut evasions = [child(promote, 3, 2, NO_WAIT), child(stay, 5, 1, 0)];
        assert_eq!(summarise(&evasions, false).pn, 3);
        evasions[0].pn = 0;
        evasions[0].dn = INF;
        let s = summarise(&evasions, false);
        assert_eq!((s.pn, s.dn, s.best), (5, 1, 1));
        // An attacker's move waits for the promotion's disproof, then is searched.
        let mut checks = [child(promote, 2, 4, NO_WAIT), child(stay, 1, 6, 0)];
        let s = summarise(&checks, true);
        assert_eq!((s.pn, s.dn, s.best), (2, 4, 0));
        checks[0].pn = INF;
        checks[0].dn = 0;
        let s = summarise(&checks, true);
        assert_eq!((s.pn, s.dn, s.best), (1, 6, 1));
    }

    #[test]
    fn interpositions_away_from_the_king_wait_for_one_another() {
        let king_move = Move::normal(sq("5a"), sq("4a"), false);
        let far = |to: &str| {
            let mut c = child(Move::drop(PieceType::Gold, sq(to)), 2, 1, NO_WAIT);
            c.far_drop = true;
            c
        };
        let mut evasions = [child(king_move, 3, 1, NO_WAIT), far("5c"), far("5d")];
        // Only the first far drop counts, whatever its square.
        assert_eq!(summarise(&evasions, false).pn, 5);
        evasions[1].pn = 0;
        evasions[1].dn = INF;
        assert_eq!(summarise(&evasions, false).pn, 5);
        evasions[2].pn = 0;
        evasions[2].dn = INF;
        assert_eq!(summarise(&evasions, false).pn, 3);
    }

    #[test]
    fn interpositions_count_on_their_own_next_to_the_king_or_where_covered() {
        // A rook checks up the file; the defender's gold on 6d covers 5d and 5e.
        let pos = Position::from_sfen("4k4/9/9/3g5/9/9/9/9/4R4 w p 1").unwrap();
        let (near, checker) = far_block_context(&pos);
        assert_eq!(checker, Some(sq("5i")));
        for (to, far) in [
            ("5b", false),
            ("5c", true),
            ("5d", false),
            ("5e", false),
            ("5f", true),
            ("5h", true),
        ] {
            let drop = Move::drop(PieceType::Pawn, sq(to));
            assert_eq!(is_far_block(drop, near, checker), far, "{to}");
        }
        let gold_blocks = Move::normal(sq("6d"), sq("5d"), false);
        assert!(!is_far_block(gold_blocks, near, checker));
    }

    /// The defender's replies in `sfen` as `order_replies` puts them, in USI.
    fn replies_in_order(sfen: &str) -> Vec<String> {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut list = MoveList::new();
        generate_legal(&pos, &mut list);
        let mut children: Vec<Child> = list.iter().map(|&m| child(m, 1, 1, NO_WAIT)).collect();
        order_replies(&pos, &mut children);
        children.iter().map(|c| c.m.to_string()).collect()
    }

    #[test]
    fn interpositions_come_last_by_square_nearest_the_king_first() {
        // A rook checks down the file from 5a at the king on 5i, who holds a pawn and a gold.
        let order = replies_in_order("4R4/9/9/9/9/9/9/9/4k4 w pg 1");
        // The king's moves first; then the drops from 5h (next to the king) to 5b, on each
        // square the pawn before the gold.
        let king_moves = order.iter().take_while(|m| !m.contains('*')).count();
        assert!(king_moves >= 1, "{order:?}");
        let drops: Vec<&str> = order[king_moves..].iter().map(|m| m.as_str()).collect();
        let expected: Vec<String> = "hgfedcb"
            .chars()
            .flat_map(|r| [format!("P*5{r}"), format!("G*5{r}")])
            .collect();
        assert_eq!(drops, expected, "{order:?}");
    }

    #[test]
    fn captures_come_first_then_the_other_moves_then_the_drops() {
        // A rook on 5e checks the king on 5a down the file. He can take it with the gold on
        // 4e, take the pawn on 6b with the king, step to 4a or 4b, or drop his pawn between.
        let order = replies_in_order("4k4/3P5/9/9/4Rg3/9/9/9/9 w p 1");
        let mut captures = order[..2].to_vec();
        captures.sort();
        assert_eq!(captures, ["4e5e", "5a6b"], "{order:?}");
        let mut steps = order[2..4].to_vec();
        steps.sort();
        assert_eq!(steps, ["5a4a", "5a4b"], "{order:?}");
        assert_eq!(order[4..], ["P*5b", "P*5c", "P*5d"], "{order:?}");
    }

    #[test]
    fn non_promotions_of_rooks_are_linked_to_their_promotions() {
        let pos = Position::from_sfen("4k4/9/9/7R1/9/9/9/9/4K4 b - 1").unwrap();
        let mut list = MoveList::new();
        generate_legal(&pos, &mut list);
        let mut children: Vec<Child> = list.iter().map(|&m| child(m, 1, 1, NO_WAIT)).collect();
        link_non_promotions(&pos, &mut children);
        let mut linked = 0;
        for c in &children {
            let promotable = !c.m.is_drop()
                && c.m.from() == sq("2d")
                && c.m.to().relative_rank(Color::Black) < 3;
            if promotable && !c.m.is_promotion() {
                let w = children[c.waits_for as usize].m;
                assert_eq!(w, Move::normal(c.m.from(), c.m.to(), true));
                linked += 1;
            } else {
                assert_eq!(c.waits_for, NO_WAIT, "{}", c.m);
            }
        }
        assert_eq!(linked, 3);
    }

    #[test]
    fn a_board_back_on_the_path_with_no_stronger_hand_fails_for_the_attacker() {
        // The defender's king steps back to where it stood: the attacker's position after it
        // has the board of a node on the path. Black holds a gold; the earlier node held
        // `earlier`.
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 w G 1").unwrap();
        let back = Move::normal(sq("5a"), sq("4a"), false);
        let after = {
            let mut p = pos.clone();
            p.do_move(back);
            p
        };
        let verdict = |earlier: Hand| {
            let mut solver = Solver::new(1);
            let key = solver.key(&after);
            solver.frames.push(Frame {
                id: NodeId { key, hand: earlier },
                full: 0,
                or_node: true,
                base: 0,
                searching: 0,
                path: 0,
            });
            count_in(&mut solver.path_boards, key);
            let c = solver.child(&pos, back, pos.board_key_after(back), 3);
            (c.pn, c.dn, c.path_dependent)
        };
        let gold = Hand::EMPTY.plus_one(PieceType::Gold);
        let gold_and_pawn = gold.plus_one(PieceType::Pawn);
        // Back with the same hand, or with less than the attacker had: a failure on this path.
        assert_eq!(verdict(gold), (INF, 0, true));
        assert_eq!(verdict(gold_and_pawn), (INF, 0, true));
        // Back with more than before (a pawn then, a gold now): open, as any new node.
        let pawn = Hand::EMPTY.plus_one(PieceType::Pawn);
        assert_eq!(verdict(pawn), (1, 1, false));
        assert_eq!(verdict(Hand::EMPTY), (1, 1, false));
    }

    /// A mate in three (two golds in hand and the bishop on 1四 against the king on 1二), a
    /// small solver and a node budget that proves it many times over.
    fn mate_in_three() -> (Position, Solver, SolveLimits) {
        let pos = Position::from_sfen("7n1/8k/9/8B/9/9/9/9/9 b 2G 1").unwrap();
        let limits = SolveLimits {
            nodes: Some(10_000),
            ..SolveLimits::default()
        };
        (pos, Solver::new(1), limits)
    }

    #[test]
    fn first_numbers_counted_at_an_expansion_are_read_back_at_the_next() {
        // 将棋図巧 No. 91: many checks, and replies to them, none settled at once.
        let sfen = "1k1ps4/s2R5/+b8/NNP6/3N5/1rL4n1/9/7P1/7+p+B b P4g2s3l13p 1";
        let mut pos = Position::from_sfen(sfen).unwrap();
        let mut solver = Solver::new(1);
        solver.attacker = Color::Black;
        let open = |s: &Solver| -> Vec<Child> {
            s.children
                .iter()
                .copied()
                .filter(|c| !c.is_resolved() && !c.path_dependent)
                .collect()
        };
        for or_node in [true, false] {
            if !or_node {
                let check = open(&solver)[0].m;
                solver.children.clear();
                pos.do_move(check);
            }
            let expand = |s: &mut Solver, pos: &mut Position| {
                s.children.clear();
                if or_node {
                    s.expand_or(pos, 0);
                } else {
                    s.expand_and(pos, 0);
                }
            };
            expand(&mut solver, &mut pos);
            let first = open(&solver);
            assert!(first.len() >= 2, "{first:?}");
            // Every check was counted (its evasions), and every reply that counts in the
            // node's numbers now (its checks).
            let mut counted = 0;
            for c in first.iter().filter(|c| or_node || c.estimated) {
                let kept = solver.table.counted(c.key, c.hand);
                assert_eq!(kept, Some(if or_node { c.pn } else { c.dn }), "{c:?}");
                // A count is not a searched node: the probes do not see it.
                assert_eq!(solver.table.probe(c.key, c.hand), None);
                counted += 1;
            }
            assert!(counted >= 2, "{first:?}");
            // The next expansion takes them from the table: the same numbers.
            expand(&mut solver, &mut pos);
            let again = open(&solver);
            assert_eq!(again.len(), first.len());
            for (a, b) in again.iter().zip(&first) {
                assert_eq!((a.m, a.pn, a.dn), (b.m, b.pn, b.dn));
            }
        }
    }

    #[test]
    fn proofs_with_a_piece_out_of_the_game_are_kept_apart_from_real_positions() {
        let (mut pos, mut solver, limits) = mate_in_three();
        solver.set_out_of_game(Some(PieceType::Rook));
        assert!(matches!(
            solver.solve(&mut pos, limits.clone()),
            Verdict::Mate(_)
        ));
        let hand = pos.hand(Color::Black);
        let proven = |s: &Solver| {
            s.table
                .probe(s.key(&pos), hand)
                .is_some_and(|p| p.is_proven())
        };
        assert!(proven(&solver), "found under its own salt");
        solver.set_out_of_game(Some(PieceType::Bishop));
        assert!(!proven(&solver), "not for a position missing another piece");
        solver.set_out_of_game(None);
        assert!(!proven(&solver), "not for the real position");
    }

    #[test]
    fn a_reply_the_table_makes_longer_than_it_is_does_not_take_the_line() {
        // bishop-line of tests/data/tsume_short.tsv, a mate in five.
        let mut pos = Position::from_sfen("9/5k3/9/3p5/6B2/9/9/9/9 b RG 1").unwrap();
        let limits = SolveLimits {
            nodes: Some(100_000),
            ..SolveLimits::default()
        };
        let mut solver = Solver::new(1);
        let Verdict::Mate(line) = solver.solve(&mut pos, limits.clone()) else {
            panic!("a mate");
        };
        assert_eq!(line.len(), 5);
        // After the first check: a reply the attacker mates at once, other than the main line's.
        pos.do_move(line[0]);
        let mut replies = MoveList::new();
        generate_legal(&pos, &mut replies);
        let short = replies
            .iter()
            .copied()
            .find(|&r| {
                pos.do_move(r);
                let len = solver.proven_len(&mut pos, false);
                pos.undo_move(r);
                r != line[1] && len == Some(1)
            })
            .expect("a reply mated in one");
        // A table that knows the root, and that reply only by a longer proof than its own (as
        // when its shorter proof came after the one stored above it). The first check is found
        // again with the other replies.
        let mut fresh = Solver::new(1);
        pos.do_move(short);
        let (key, hand) = (fresh.key(&pos), pos.hand(Color::Black));
        fresh.table.store(key, hand, 0, INF, 9, 1, 2);
        pos.undo_move(short);
        pos.undo_move(line[0]);
        let (key, hand) = (fresh.key(&pos), pos.hand(Color::Black));
        fresh.table.store(key, hand, 0, INF, 11, 1, 0);
        fresh.limits = limits;
        let found = fresh
            .mate_line(&mut pos, &mut 0, MAX_PLY as u16)
            .expect("a line");
        assert!(verify_mate_line(&pos, &found).is_ok());
        assert_eq!(found[0], line[0]);
        assert_ne!(found[1], short, "the overstated reply is not the main line");
        assert_eq!(found.len(), 5);
    }

    #[test]
    fn a_shortcut_that_failed_is_not_tried_again_with_no_more_plies() {
        // 将棋無双 No. 3, a 39-ply mate: its line has attacker turns with other checks.
        let mut pos = Position::from_sfen(
            "nn1S1R3/1L2p+b3/+P8/1L1R1g3/k1S2l3/+nP1G5/3n5/2P2+B3/9 b 2g2sl14p 1",
        )
        .unwrap();
        let mut solver = Solver::new(32);
        let limits = SolveLimits {
            nodes: Some(1_000_000),
            ..SolveLimits::default()
        };
        let Verdict::Mate(line) = solver.solve(&mut pos, limits) else {
            panic!("muso003 is a mate");
        };
        let mut failed = FailedShortcuts::default();
        solver.line_nodes = 0;
        solver.prove_shortcuts(&mut pos, &line, u64::MAX, &mut failed);
        let first_pass = solver.line_nodes;
        assert!(first_pass > 0 && !failed.is_empty(), "{first_pass}");
        // Along the same line nothing is tried again...
        solver.prove_shortcuts(&mut pos, &line, u64::MAX, &mut failed);
        assert_eq!(solver.line_nodes, first_pass);
        // ...which is the memory's doing: without it the tries are made again.
        solver.prove_shortcuts(&mut pos, &line, u64::MAX, &mut FailedShortcuts::default());
        assert!(solver.line_nodes > first_pass);
    }

    #[test]
    fn a_position_without_the_piece_is_proven_once_a_solve() {
        // A lone rook cannot mate a king in the open, and its disproof rests on repeated
        // checks, so the table keeps no answer: only the solver's memory of it does.
        let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b R 1").unwrap();
        let mut solver = Solver::new(1);
        solver.attacker = Color::Black;
        solver.line_nodes = 0;
        assert!(!solver.mated_without(&mut pos, PieceType::Pawn));
        let first = solver.line_nodes;
        assert!(first > 0);
        assert!(!solver.mated_without(&mut pos, PieceType::Pawn));
        assert_eq!(
            solver.line_nodes, first,
            "asked again, answered from memory"
        );
        // Without the memory the brief proof is made again.
        solver.without_piece.clear();
        assert!(!solver.mated_without(&mut pos, PieceType::Pawn));
        assert!(solver.line_nodes > first);
        // A new solve forgets it: the table may prove more by then.
        let _ = solver.solve(
            &mut pos,
            SolveLimits {
                nodes: Some(1_000),
                ..SolveLimits::default()
            },
        );
        assert!(solver.without_piece.is_empty());
    }

    #[test]
    fn a_node_limit_holds_to_the_node() {
        // 寿 takes millions of nodes: each of these limits stops it, at that node exactly (the
        // clock is read every 1024 nodes, the node count at every node).
        let kotobuki = "g3p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 \
                        b 4P3n 1";
        let mut pos = Position::from_sfen(kotobuki).unwrap();
        for n in [1, 200, 1024, 2500] {
            let mut solver = Solver::new(1);
            let limits = SolveLimits {
                nodes: Some(n),
                shorten: false,
                ..SolveLimits::default()
            };
            assert_eq!(solver.solve(&mut pos, limits), Verdict::Unknown);
            assert_eq!(solver.nodes(), n);
        }
    }

    #[test]
    fn a_long_solve_tells_how_it_goes() {
        let kotobuki = "g3p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 \
                        b 4P3n 1";
        let mut pos = Position::from_sfen(kotobuki).unwrap();
        let limits = SolveLimits {
            nodes: Some(20_000),
            shorten: false,
            ..SolveLimits::default()
        };
        let told = Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut solver = Solver::new(1);
        // At no interval it is told wherever the clock is read: every 1024 nodes, and at the
        // node limit. No test of time, only of where the clock is read.
        let into = told.clone();
        solver.report_progress(Duration::ZERO, move |p| into.lock().unwrap().push(p));
        assert_eq!(solver.solve(&mut pos, limits.clone()), Verdict::Unknown);
        let nodes: Vec<u64> = told.lock().unwrap().iter().map(|p| p.nodes).collect();
        let expected: Vec<u64> = (1..=19).map(|k| k * 1024).chain([20_000]).collect();
        assert_eq!(nodes, expected);
        assert_eq!(solver.work(), 20_000);
        assert!(told.lock().unwrap().iter().all(|p| p.hashfull <= 1000));
        assert!(told.lock().unwrap().last().unwrap().hashfull > 0);
        // Once stopped, or an hour apart, it is not told.
        solver.stop_reporting();
        solver.clear();
        solver.solve(&mut pos, limits.clone());
        let into = told.clone();
        solver.report_progress(Duration::from_secs(3600), move |p| {
            into.lock().unwrap().push(p)
        });
        solver.clear();
        solver.solve(&mut pos, limits);
        assert_eq!(told.lock().unwrap().len(), expected.len());
    }

    #[test]
    fn lengths_worked_out_again_pass_a_length_the_table_overstated() {
        let (mut pos, mut solver, limits) = mate_in_three();
        let Verdict::Mate(line) = solver.solve(&mut pos, limits.clone()) else {
            panic!("a mate in three");
        };
        assert_eq!(line.len(), 3);
        // As if the root had first been proven through a longer line, and kept that length
        // while its check G*2c was proven quicker later.
        let key = solver.key(&pos);
        let hand = pos.hand(Color::Black);
        solver.table.clear();
        solver.table.store(key, hand, 0, INF, 9, 1, 0);
        let check = pos.parse_usi_move("G*2c").unwrap();
        pos.do_move(check);
        assert_eq!(solver.prove_evasions(&mut pos, limits.clone()), Some(true));
        pos.undo_move(check);
        assert_eq!(solver.table.probe(key, hand).map(|p| p.len), Some(9));
        solver.limits = limits;
        let mut budget = REFINE_POSITIONS;
        assert_eq!(solver.refine(&mut pos, &mut budget), Some(3));
        assert!(budget < REFINE_POSITIONS);
        let line = solver.line_from(&mut pos, 9, true).expect("a line");
        assert!(verify_mate_line(&pos, &line).is_ok());
        assert_eq!(line.len(), 3);
        // With no positions to work out, the table's length stands.
        solver.refined.clear();
        assert_eq!(solver.refine(&mut pos, &mut 0), Some(9));
    }

    #[test]
    fn the_line_is_found_when_the_table_lost_the_proven_checks() {
        let (mut pos, mut solver, limits) = mate_in_three();
        assert!(matches!(
            solver.solve(&mut pos, limits.clone()),
            Verdict::Mate(_)
        ));
        // Only the root's proof is left, as when a full cluster evicted its children's.
        solver.table.clear();
        let key = solver.key(&pos);
        solver
            .table
            .store(key, pos.hand(Color::Black), 0, INF, 3, 1, 0);
        solver.limits = limits;
        let line = solver.mate_line(&mut pos, &mut 0, 3).expect("a line");
        assert!(verify_mate_line(&pos, &line).is_ok());
        assert_eq!(line.len(), 3);
    }
}
