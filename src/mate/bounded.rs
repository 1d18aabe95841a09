//! Mate within n plies: a depth-bounded proof-number search, for exact mate distances.
//!
//! `hayate tsume check` needs the exact length of lines (the quickest mate against the longest
//! defence), not only whether a mate exists. An exhaustive minimax gives that but grows with
//! every ply; this search answers "is there a mate within n plies?" best first, as df-pn does,
//! and a few such questions give the exact distance:
//!
//! - a proof within `n` comes with the length of its proof tree (the quickest proven check at
//!   an attacker turn, the longest proven defence at a defender turn), an upper bound `L` on
//!   the distance;
//! - the next question is "within `L - 2`?" (distances at one side's turn all have one parity);
//!   a disproof there makes `L` exact, a proof lowers `L`.
//!
//! What the table keeps of a position is monotone in the bound, so it is shared by every
//! question: a proof within `n` holds for every larger bound, a disproof within `n` for every
//! smaller one. It is monotone in the hands too (hand superiority, as in the df-pn table): a
//! mate within `n` stays a mate within `n` when the attacker holds more and the defender less,
//! since the attacker keeps every move and the defender loses drops; a disproof within `n`
//! holds for a smaller attacker's hand and a larger defender's. So the proofs and disproofs
//! are kept by board, each with the two hands it was found for (the df-pn solver's disproofs
//! with the widest hands its disproof hand allows), and a lookup takes the best of every entry
//! whose hands cover the position's. The answers stay exact: a bound from another hand is a
//! true bound, and a distance is claimed only once the proof and the disproof meet.
//! Proof and disproof numbers are kept by the whole position and the bound they were computed
//! for, and only guide the search. Within the last few plies of a bound a node may be settled
//! depth first instead, child after child (see [`DEPTH_FIRST_WITHIN`]), and the last plies of
//! all are settled in place, without a node for each child.
//!
//! The rules are those of the checker's exhaustive search: every attacker move is a check; the
//! defender's useless interpositions (無駄合, `muda.rs`) are no defence, so a defender turn whose
//! other replies are all mated is mated; repetitions are not special (the bound ends every
//! line, and a quickest mate never repeats a position).
//!
//! The oracle may prove a drop neither useless nor a defence. The search takes such a drop for
//! a defence, and keeps beside each failure how far it reaches on proven defences alone
//! (`Entry::sure_within`): an answer that only the unproven drops make says so
//! ([`BoundedSearch::took_an_unproven_drop`]). Proofs need no such care: a proof that answers a
//! drop that is useless after all is still a proof.

mod memory;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use memory::Memory;

use super::dfpn::Settled;
use super::{muda, KeyHasher};
use crate::movegen::{generate_checks, generate_legal, has_board_evasion, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::{Color, Hand, Move, PieceType};

/// Proof and disproof numbers at or above this are infinite.
const INF: u32 = 1 << 30;

/// The largest number an unsettled node takes. Sums are cut here, below the root's
/// thresholds (`INF - 1`), so that the root's search returns only settled or out of budget: an
/// attacker turn's disproof number is the sum of its checks', and down a deep bound such sums
/// compound, level on level. Uncut, they reached `INF` in zuko043's question "mate within 83
/// plies?" and muso030's "within 117?": the root came back open and was asked again, one node
/// at a time, until the budget ran out.
const NUMBER_CAP: u32 = INF - 2;

/// No proof known (as a proof length).
const NO_PROOF: u16 = u16::MAX;

/// No mate at all (as `none_within`): the line runs out of checks, or the df-pn solver
/// disproved it.
const NEVER: u16 = u16::MAX;

/// How far a node's failure reaches when a child's failure reaches `d` (a `none_within` or a
/// `sure_within`): one ply further, but "never" stays "never", and nothing else reaches it.
fn beyond(d: u16) -> u16 {
    match d {
        NEVER => NEVER,
        d => d.saturating_add(1).min(NEVER - 1),
    }
}

/// A node with at most this many plies left to its bound is settled depth first, one child
/// after another ([`BoundedSearch::settle_depth_first`]), once the caller asks for it
/// ([`BoundedSearch::depth_first_after`]): an attacker turn with a mate in three to find or rule
/// out, and a defender turn four plies from the bound.
const DEPTH_FIRST_WITHIN: u16 = 4;

/// What the search needs from its caller: whether a defender's drop is a useless
/// interposition, and a node count that may stop it.
pub trait Oracle {
    /// Whether the defender's reply `r` in `pos` is a useless interposition (asked only of the
    /// drops that `muda::may_be_useless` admits; the answer must not change between calls).
    fn is_useless(&mut self, pos: &mut Position, r: Move) -> bool;
    /// Counts one node; `false` once the budget is spent.
    fn tick(&mut self) -> bool;
    /// Whether the budget is spent: an `is_useless` answered then may be "no" for want of
    /// nodes, and nothing may be concluded from it.
    fn exhausted(&self) -> bool {
        false
    }
    /// Whether a drop that `is_useless` answered "no" for is proven a defence, not merely not
    /// proven useless within the oracle's nodes for such a question. Only a proven defence may
    /// make a sure disproof (see `Entry::sure_within`).
    fn is_proven_defence(&mut self, _pos: &Position, _r: Move) -> bool {
        true
    }
    /// Told of each drop `r` in `pos`, not proven a defence, that a failure just found takes
    /// for one and would be surer without: what an answer that rests on unproven drops rests
    /// on (the oracle may try those drops again, with more nodes).
    fn rests_on_unproven(&mut self, _pos: &Position, _r: Move) {}
    /// What an unbounded solver has settled of `pos`, whatever the path to it.
    fn known(&mut self, _pos: &Position) -> Option<Settled> {
        None
    }
    /// Starts loading what `known` will read of the position after `m` in `pos`, so that the
    /// lookups of a node's children, one after another, do not each wait for memory.
    fn prefetch_after(&mut self, _pos: &Position, _m: Move) {}
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The shortest proof found: a mate within this many plies (`NO_PROOF`: none).
    proof: u16,
    /// No mate within `none_within - 1` plies (0: nothing known, `NEVER`: no mate at all),
    /// taking every drop the oracle has not proven useless as a defence. This guides and ends
    /// the search.
    none_within: u16,
    /// The same, as far as it rests only on defences that are proven: on no drop the oracle
    /// answered "not useless" for want of nodes (see [`Oracle::is_proven_defence`]). Never above
    /// `none_within`. The answers the search gives its caller say whether they rest on this
    /// alone: a drop that a longer proof would show useless is no defence, and a length that
    /// counts it as one is too long (zuko047 was once given 29 plies where it has 27).
    sure_within: u16,
}

impl Entry {
    /// Whether it settles mate within `bound` plies either way.
    fn settles(self, bound: u16) -> bool {
        self.proof <= bound || self.none_within > bound
    }
}

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            proof: NO_PROOF,
            none_within: 0,
            sure_within: 0,
        }
    }
}

/// A position as the table sees it: the board (with the side to move) and the two hands.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Place {
    board: u64,
    attacker: Hand,
    defender: Hand,
}

/// What is known of one board with one pair of hands.
#[derive(Clone, Copy)]
struct HandEntry {
    attacker: Hand,
    defender: Hand,
    entry: Entry,
}

type KeyMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// The pairs of hands met on one board. Nearly every board is met with one pair only, which is
/// kept in place: a vector for every board cost an allocation, and every lookup a second load
/// from memory.
#[derive(Default)]
struct BoardHands {
    first: Option<HandEntry>,
    rest: Vec<HandEntry>,
}

impl BoardHands {
    fn iter(&self) -> impl Iterator<Item = &HandEntry> {
        self.first.iter().chain(self.rest.iter())
    }

    /// The entry for exactly these hands, a new one if there is none (counted in
    /// `rest_entries` when it is not the board's first).
    fn entry(&mut self, attacker: Hand, defender: Hand, rest_entries: &mut usize) -> &mut Entry {
        let new = HandEntry {
            attacker,
            defender,
            entry: Entry::default(),
        };
        let first = self.first.get_or_insert(new);
        if first.attacker == attacker && first.defender == defender {
            return &mut first.entry;
        }
        let i = match self
            .rest
            .iter()
            .position(|h| h.attacker == attacker && h.defender == defender)
        {
            Some(i) => i,
            None => {
                self.rest.push(new);
                *rest_entries += 1;
                self.rest.len() - 1
            }
        };
        &mut self.rest[i].entry
    }
}

/// Whether a check mates at once (see [`BoundedSearch::mate_at_once`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AtOnce {
    Mate,
    NoMate,
    /// No check mates at once unless a drop that the oracle could not settle is useless after
    /// all: "no mate within one" is not sure.
    NoMateUnlessADropIsUseless,
}

/// Whether a defender in check has a defence (see [`BoundedSearch::defended`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defended {
    /// No reply, or only useless interpositions: mated under the convention.
    Not,
    /// By a reply that is surely a defence.
    ByProven,
    /// Only by this drop, which the oracle took for a defence without proof.
    ByUnproven(Move),
}

/// A defender turn that the attacker does not mate at once after every defence (see
/// [`BoundedSearch::mated_at_once_after_each`]).
struct Refuted {
    /// How far the failure after the refuting defence reaches (as `none_within`).
    none_within: u16,
    /// How far it surely reaches, `None` when the defence is a drop not proven a defence.
    sure_within: Option<u16>,
    /// The refuting defence.
    by: Move,
}

/// One child of a node, as the node sees it within its bound.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    key: u64,
    place: Place,
    pn: u32,
    dn: u32,
    /// What the table knows of it whatever the bound.
    known: Entry,
    /// A drop that may be a useless interposition (asked when it would refute the check).
    may_be_useless: bool,
    /// A drop asked about and not proven useless, nor proven a defence.
    unproven: bool,
}

/// The depth-bounded search and its table.
#[derive(Default)]
pub struct BoundedSearch {
    /// Proofs and disproofs by board, each with its hands, for every bound.
    table: KeyMap<u64, BoardHands>,
    /// Proof and disproof numbers of unsettled positions, by position and bound.
    numbers: KeyMap<(u64, u16), (u32, u32)>,
    attacker: Option<Color>,
    aborted: bool,
    /// The last defender turn disproven (its position's key) and the defence that refuted it
    /// (see `search`'s `killer`).
    refuted_by: Option<(u64, Move)>,
    check_counts: CheckCounts,
    /// See [`BoundedSearch::took_an_unproven_drop`].
    unproven_drop: bool,
    /// The nodes visited so far.
    visits: u64,
    /// From this many visits on, nodes near the bound's end are settled depth first.
    depth_first_from: u64,
    memory: Memory,
}

/// The number of the attacker's checks in positions after a defence (a defence's first
/// disproof number, see `search`), kept so that a defender turn searched again does not count
/// them again: on zuko037 at 1.5M nodes a quarter of the 4.7M counts were of a position counted
/// before, and counting was a fifth of the check's instructions. A cache indexed by the key's
/// low bits that keeps the latest count of each slot with the rest of the key, so it forgets
/// but never answers for another position (but one with the same 64-bit key, which the
/// tables take for the same position too). The count is the position's own, so the search
/// goes node for node as if it counted every time.
#[derive(Default)]
struct CheckCounts {
    /// Each slot: the key's bits above `SLOT_BITS`, and the count in the low `SLOT_BITS` bits
    /// (0 for an empty slot).
    slots: Vec<u64>,
}

/// A count fits below the key's bits.
const _: () = assert!(MAX_MOVES < 1 << CheckCounts::SLOT_BITS);

impl CheckCounts {
    /// 2^15 slots, 256 KB, taken from the allocator when first used. Small enough to stay in
    /// the processor's cache: 2^20 slots (8 MB) kept more counts and took 4% fewer
    /// instructions on zuko037, but more time, their loads missing the cache.
    const SLOT_BITS: u32 = 15;
    const LOW: u64 = (1 << Self::SLOT_BITS) - 1;

    /// The number of checks the side to move has in `pos`, whose key is `key`.
    fn count(&mut self, pos: &Position, key: u64) -> u32 {
        if self.slots.is_empty() {
            self.slots = vec![0; 1 << Self::SLOT_BITS];
        }
        let slot = &mut self.slots[(key & Self::LOW) as usize];
        if *slot & Self::LOW != 0 && (*slot ^ key) & !Self::LOW == 0 {
            return (*slot & Self::LOW) as u32;
        }
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        // At least 1: a first disproof number, and 0 marks an empty slot.
        let count = checks.len().max(1) as u64;
        *slot = (key & !Self::LOW) | count;
        count as u32
    }
}

impl BoundedSearch {
    /// A search for the attacker `attacker` (the side to move at the problem's start).
    pub fn new(attacker: Color) -> BoundedSearch {
        BoundedSearch {
            table: KeyMap::default(),
            numbers: KeyMap::default(),
            attacker: Some(attacker),
            aborted: false,
            refuted_by: None,
            check_counts: CheckCounts::default(),
            unproven_drop: false,
            visits: 0,
            depth_first_from: u64::MAX,
            memory: Memory::default(),
        }
    }

    /// Settles the nodes near the bound's end depth first once `visits` more nodes have been
    /// visited (`None`: never).
    pub fn depth_first_after(&mut self, visits: Option<u64>) {
        self.depth_first_from = visits.map_or(u64::MAX, |v| self.visits.saturating_add(v));
    }

    /// The exact number of plies to mate from `pos` (either side to move; at the defender's
    /// turn he is in check) if it is at most `bound`: `Some(None)` when there is no mate within
    /// `bound`, `None` when the oracle's budget ran out first. An answer that rests on a drop
    /// not proven a defence says so (see [`BoundedSearch::took_an_unproven_drop`]).
    pub fn distance(
        &mut self,
        pos: &mut Position,
        bound: u16,
        oracle: &mut impl Oracle,
    ) -> Option<Option<u16>> {
        let place = self.place(pos);
        self.import(pos, place, oracle);
        loop {
            let e = self.lookup(place);
            let ask = if e.proof <= bound {
                // Exact once a mate two plies shorter (the same side's turn) is surely ruled
                // out.
                if e.proof < 2 || e.none_within > e.proof - 2 {
                    self.unproven_drop |= e.proof >= 2 && e.sure_within <= e.proof - 2;
                    return Some(Some(e.proof));
                }
                e.proof - 2
            } else if e.none_within > bound {
                self.unproven_drop |= e.sure_within <= bound;
                return Some(None);
            } else {
                bound
            };
            self.mates_within(pos, ask, oracle)?;
        }
    }

    /// Whether the attacker mates from `pos` within `bound` plies; `None` when the budget ran
    /// out. A "no" that rests on a drop not proven a defence says so (see
    /// [`BoundedSearch::took_an_unproven_drop`]).
    pub fn mates_within(
        &mut self,
        pos: &mut Position,
        bound: u16,
        oracle: &mut impl Oracle,
    ) -> Option<bool> {
        if self.aborted {
            return None;
        }
        let place = self.place(pos);
        self.import(pos, place, oracle);
        self.search(pos, bound, INF - 1, INF - 1, None, oracle);
        if self.aborted {
            return None;
        }
        let (pn, dn) = self.numbers(pos.key(), self.place(pos), bound);
        debug_assert!(pn == 0 || dn == 0, "the root came back open: {pn}/{dn}");
        // Should the root ever come back open, that is no answer, never "no mate".
        match (pn, dn) {
            (0, _) => Some(true),
            (_, 0) => {
                self.unproven_drop |= self.lookup(self.place(pos)).sure_within <= bound;
                Some(false)
            }
            _ => None,
        }
    }

    /// Whether an answer given since the last call rests on a drop that the oracle took for a
    /// defence without proving it one: exact if such drops are defences, and perhaps not if
    /// one is a useless interposition after all. Asking clears it.
    pub fn took_an_unproven_drop(&mut self) -> bool {
        std::mem::take(&mut self.unproven_drop)
    }

    /// Forgets what rests on drops the oracle took for defences without proof: every failure
    /// falls back to what is sure of it (`Entry::sure_within`), and the numbers of the searches
    /// left open go. Once the oracle has settled some of those drops, a search asks about them
    /// again and finds what rests on proofs; a drop settled useless would have made some of the
    /// failures forgotten false. Proofs stay: they rest on no defence's being one.
    pub fn forget_unsure_failures(&mut self) {
        for hands in self.table.values_mut() {
            for h in hands.first.iter_mut().chain(hands.rest.iter_mut()) {
                h.entry.none_within = h.entry.sure_within;
            }
        }
        self.numbers.clear();
    }

    /// Lets the search go on after its oracle's budget ran out, once the oracle has a new one.
    /// What the table holds still stands: a search that runs out stores nothing it has not
    /// settled, and nothing it concluded from a useless-drop question its oracle could no longer
    /// answer (see [`Oracle::exhausted`]).
    pub fn resume(&mut self) {
        self.aborted = false;
    }

    /// The oracle's answer whether the defender's drop `r` is a useless interposition. An
    /// answer given for want of nodes is no answer: the search stops there.
    fn is_useless(&mut self, pos: &mut Position, r: Move, oracle: &mut impl Oracle) -> bool {
        let useless = oracle.is_useless(pos, r);
        if !useless && oracle.exhausted() {
            self.aborted = true;
        }
        useless
    }

    /// Whether the table knows, surely, that the attacker never mates from `pos`.
    pub fn never_mates(&self, pos: &Position) -> bool {
        self.lookup(self.place(pos)).sure_within == NEVER
    }

    /// The shortest mate from `pos` that the table holds a proof of, in plies (`None`: none).
    pub fn proof_known(&self, pos: &Position) -> Option<u16> {
        let proof = self.lookup(self.place(pos)).proof;
        (proof != NO_PROOF).then_some(proof)
    }

    /// A line from `pos` along the proofs known, within the plies of the proof known for
    /// `pos`: at an attacker turn the check with the quickest proof, at a defender turn the
    /// reply with the slowest (a reply with none is one the proof left out as a useless
    /// interposition). Each position on the way first takes in what the oracle's solver has
    /// proven of it ([`BoundedSearch::import`]): the table took in such proofs without the
    /// children below them. `None` when the walk meets a position with no proven move to
    /// follow; the caller checks that the line ends in mate.
    pub fn proven_line(&mut self, pos: &Position, oracle: &mut impl Oracle) -> Option<Vec<Move>> {
        let mut proof_of = |s: &mut BoundedSearch, p: &Position| {
            let place = s.place(p);
            s.import(p, place, oracle);
            s.lookup(place).proof
        };
        let mut p = pos.clone();
        let mut left = proof_of(self, &p);
        if left == NO_PROOF {
            return None;
        }
        let mut line = Vec::new();
        let mut moves = MoveList::new();
        loop {
            let or_node = Some(p.side_to_move()) == self.attacker;
            moves.clear();
            if or_node {
                generate_checks(&p, &mut moves);
            } else {
                generate_legal(&p, &mut moves);
            }
            let mut best: Option<(Move, u16)> = None;
            for &m in moves.iter() {
                p.do_move(m);
                let proof = proof_of(self, &p);
                p.undo_move(m);
                // Proofs strictly shorter than what is left: the walk always ends.
                if proof >= left {
                    continue;
                }
                let better = best.is_none_or(|(_, b)| if or_node { proof < b } else { proof > b });
                if better {
                    best = Some((m, proof));
                }
            }
            match best {
                Some((m, proof)) => {
                    p.do_move(m);
                    line.push(m);
                    left = proof;
                }
                // The end: mate, or only useless drops left, when the defender is to move.
                None if !or_node => return Some(line),
                None => return None,
            }
        }
    }

    /// Records what the caller knows: no mate from `pos` within `plies` plies, `sure` when
    /// that rests on no drop taken for a defence without proof.
    pub fn rule_out(&mut self, pos: &Position, plies: u16, sure: bool) {
        let place = self.place(pos);
        let none_within = plies.saturating_add(1);
        self.fail(place, none_within, if sure { none_within } else { 0 });
    }

    fn place(&self, pos: &Position) -> Place {
        let attacker = self.attacker.expect("the search has its attacker");
        Place {
            board: pos.board_key(),
            attacker: pos.hand(attacker),
            defender: pos.hand(!attacker),
        }
    }

    /// The best of what is known of `place`'s board with hands that cover its own: the
    /// shortest proof among the hands where the attacker holds no more and the defender no
    /// less, the longest disproof among those where the attacker holds no less and the
    /// defender no more.
    fn lookup(&self, place: Place) -> Entry {
        let mut best = Entry::default();
        for h in self
            .table
            .get(&place.board)
            .into_iter()
            .flat_map(BoardHands::iter)
        {
            if h.entry.proof < best.proof
                && place.attacker.dominates(h.attacker)
                && h.defender.dominates(place.defender)
            {
                best.proof = h.entry.proof;
            }
            if h.entry.none_within > best.sure_within
                && h.attacker.dominates(place.attacker)
                && place.defender.dominates(h.defender)
            {
                best.none_within = best.none_within.max(h.entry.none_within);
                best.sure_within = best.sure_within.max(h.entry.sure_within);
            }
        }
        best
    }

    /// (pn, dn) of the position `key` (at `place`) within `bound` plies.
    fn numbers(&self, key: u64, place: Place, bound: u16) -> (u32, u32) {
        self.numbers_with(key, self.lookup(place), bound)
    }

    /// (pn, dn) within `bound` plies of the position `key` of which the table knows `e`.
    fn numbers_with(&self, key: u64, e: Entry, bound: u16) -> (u32, u32) {
        self.numbers_or(key, e, bound, (1, 1))
    }

    /// The same, with `first` for a position not searched yet within `bound`.
    fn numbers_or(&self, key: u64, e: Entry, bound: u16, first: (u32, u32)) -> (u32, u32) {
        if e.proof <= bound {
            return (0, INF);
        }
        if e.none_within > bound {
            return (INF, 0);
        }
        self.numbers.get(&(key, bound)).copied().unwrap_or(first)
    }

    /// Takes into the table what the oracle's unbounded solver has settled of `pos`: its proofs
    /// are mates within their proof tree's length (an upper bound on the distance, which the
    /// table needs only as a bound), its disproofs hold for every bound, and for every hand
    /// their disproof hand covers ([`solver_disproof_place`]). This spares the bounded search
    /// most of the first proof and the refutation of checks that never mate.
    fn import(&mut self, pos: &Position, place: Place, oracle: &mut impl Oracle) {
        match oracle.known(pos) {
            Some(Settled::Mate(len)) => self.prove(place, len),
            // The solver answers every drop, so its disproofs are sure.
            Some(Settled::NoMate(hand)) => {
                self.fail(solver_disproof_place(place, hand), NEVER, NEVER)
            }
            None => {}
        }
    }

    /// The entry for exactly `place`'s hands.
    fn entry(&mut self, place: Place) -> &mut Entry {
        self.make_room_in_table();
        self.table.entry(place.board).or_default().entry(
            place.attacker,
            place.defender,
            &mut self.memory.rest_entries,
        )
    }

    fn prove(&mut self, place: Place, length: u16) {
        let e = self.entry(place);
        e.proof = e.proof.min(length);
    }

    /// Records that there is no mate within `none_within - 1` plies, and surely none within
    /// `sure_within - 1` (see [`Entry::sure_within`]).
    fn fail(&mut self, place: Place, none_within: u16, sure_within: u16) {
        debug_assert!(sure_within <= none_within);
        let e = self.entry(place);
        e.none_within = e.none_within.max(none_within);
        e.sure_within = e.sure_within.max(sure_within);
    }

    /// The proof-number search of `pos` within `bound` plies, until its proof number reaches
    /// `th_pn` or its disproof number `th_dn`; the result is in the table. At a defender turn,
    /// `killer` is the defence that refuted the check disproven last among this check's
    /// siblings (a killer move): the same king step or capture often refutes the next check
    /// too, so it is tried first.
    fn search(
        &mut self,
        pos: &mut Position,
        bound: u16,
        th_pn: u32,
        th_dn: u32,
        killer: Option<Move>,
        oracle: &mut impl Oracle,
    ) {
        let key = pos.key();
        let place = self.place(pos);
        if self.lookup(place).settles(bound) {
            return;
        }
        // Searched within this bound before: its children were taken from the oracle then.
        // What the oracle's solver learns between two questions of the checker is not asked
        // for again here; on the 1M-node batch that changed no report.
        let revisit = self.numbers.contains_key(&(key, bound));
        if !oracle.tick() {
            self.aborted = true;
            return;
        }
        self.visits += 1;
        let or_node = Some(pos.side_to_move()) == self.attacker;
        // At an attacker turn, the refutation of the last of its checks disproven, passed on
        // to the next check searched.
        let mut killer = if or_node { None } else { killer };
        let mut moves = MoveList::new();
        if or_node {
            if bound == 0 {
                self.fail(place, 1, 1);
                return;
            }
            generate_checks(pos, &mut moves);
            if moves.is_empty() {
                // No check: no mate within any bound.
                self.fail(place, NEVER, NEVER);
                return;
            }
            if bound < 3 {
                // Only a mate at once fits (the attacker's distances are odd). Most nodes of a
                // bounded tree are such leaves: trying the checks here, without a node and a
                // table entry for each, is what makes "no mate within n" affordable.
                match self.mate_at_once(pos, &moves, oracle) {
                    AtOnce::Mate => self.prove(place, 1),
                    _ if self.aborted => {}
                    AtOnce::NoMate => self.fail(place, 3, 3),
                    // "No mate within none" is all that is sure.
                    AtOnce::NoMateUnlessADropIsUseless => self.fail(place, 3, 1),
                }
                return;
            }
        } else {
            generate_legal(pos, &mut moves);
            let defended = self.defended(pos, &moves, oracle);
            if self.aborted {
                return;
            }
            if defended == Defended::Not {
                // Mate, or only useless interpositions left: mate under the convention.
                self.prove(place, 0);
                return;
            }
            if bound < 2 {
                // Not mated, and the defender's distances are even: no mate within 1.
                match defended {
                    Defended::ByUnproven(r) => {
                        oracle.rests_on_unproven(pos, r);
                        self.fail(place, 2, 0);
                    }
                    _ => self.fail(place, 2, 2),
                }
                return;
            }
            if bound < 4 {
                // Every defence leaves at most two plies, so only a mate at once after each
                // fits: settled in place, as the attacker's last turns are.
                match self.mated_at_once_after_each(pos, &moves, killer, oracle) {
                    _ if self.aborted => {}
                    None => self.prove(place, 2),
                    Some(refuted) => {
                        self.refuted_by = Some((key, refuted.by));
                        let sure = refuted.sure_within.map_or(0, |s| s.saturating_add(1));
                        self.fail(place, refuted.none_within.saturating_add(1), sure);
                    }
                }
                return;
            }
        }
        if bound <= DEPTH_FIRST_WITHIN && self.visits >= self.depth_first_from {
            self.settle_depth_first(pos, bound, &moves, killer, oracle);
            return;
        }
        if !revisit {
            for &m in moves.iter() {
                oracle.prefetch_after(pos, m);
            }
        }
        let mut children: Vec<Child> = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            pos.do_move(m);
            let child_place = self.place(pos);
            if !revisit {
                self.import(pos, child_place, oracle);
            }
            let child_key = pos.key();
            // A defence's first disproof number is the number of the attacker's checks after
            // it: every one must fail, so the defence after which he has the fewest is the
            // likeliest refutation, and "no mate within n" needs one at every defender turn.
            // On six classics (muso009, 032, 036, 041, 069, zuko005) the checker reached the
            // exact length in 41-56% fewer nodes than with 1 for every defence (counting the
            // df-pn solve before it); the count of the defender's replies as a check's first
            // proof number saved less alone, and nothing consistent on top of this. Counted
            // only while it is needed: not once the defence is settled or searched within
            // the bound. Two defences come before any such count, with 1: the killer, and a
            // defence after which a shorter mate has been ruled out already (at a smaller
            // bound, or with this bound from another path): what failed before is the
            // likeliest to fail again. Together, 0.936 of the nodes of the composer's check
            // on 19 classics it settles within 5M nodes (geometric mean; 0.968 the killer
            // alone, 0.962 the other alone).
            let dn = if or_node
                || Some(m) == killer
                || self.numbers.contains_key(&(child_key, bound - 1))
            {
                1
            } else {
                let known = self.lookup(child_place);
                if known.none_within > 1 || known.settles(bound - 1) {
                    1
                } else {
                    self.check_counts.count(pos, child_key)
                }
            };
            children.push(Child {
                mv: m,
                key: child_key,
                place: child_place,
                pn: 1,
                dn,
                known: Entry::default(),
                may_be_useless: false,
                unproven: false,
            });
            pos.undo_move(m);
            let c = children.last_mut().unwrap();
            c.may_be_useless = !or_node && muda::may_be_useless(pos, m);
        }
        let child_bound = bound - 1;
        loop {
            // Refresh the children from the table; a refuting drop that is useless is dropped.
            let mut i = 0;
            while i < children.len() {
                let known = self.lookup(children[i].place);
                // Until a child is searched within this bound, its first numbers stand. A child
                // settled before and forgotten since, for want of memory, is open again: its
                // last numbers (a 0 and an infinity) would say it is anything but, and an
                // attacker turn whose checks all said so would come back open.
                let (pn, dn) = (children[i].pn, children[i].dn);
                let first = if pn == 0 || dn == 0 { (1, 1) } else { (pn, dn) };
                let (cpn, cdn) = self.numbers_or(children[i].key, known, child_bound, first);
                children[i].known = known;
                children[i].pn = cpn;
                children[i].dn = cdn;
                i += 1;
            }
            // A refuting drop that may be useless is asked about only when no other defence
            // refutes: the proof that it is useless is often the dearest part of a node
            // (tens of thousands of nodes when it fails), and another refutation settles the
            // node without it (`failure_depth` leaves the drops out).
            let refuted = children.iter().any(|c| c.dn == 0 && !c.may_be_useless);
            let mut i = 0;
            while i < children.len() && !or_node && !refuted {
                if children[i].dn == 0 && children[i].may_be_useless {
                    if self.is_useless(pos, children[i].mv, oracle) {
                        children.swap_remove(i);
                        continue;
                    }
                    if self.aborted {
                        return;
                    }
                    children[i].may_be_useless = false;
                    children[i].unproven = !oracle.is_proven_defence(pos, children[i].mv);
                }
                i += 1;
            }
            if children.is_empty() {
                // Only useless drops were left to refute it (the others are proven).
                self.prove(place, 0);
                return;
            }
            let (pn, dn, best, second) = if or_node {
                combine(&children, |c| (c.pn, c.dn))
            } else {
                let (dn, pn, best, second) = combine(&children, |c| (c.dn, c.pn));
                (pn, dn, best, second)
            };
            if pn == 0 {
                let length = self.proof_length(&children, or_node);
                self.prove(place, length);
                return;
            }
            if dn == 0 {
                if !or_node {
                    self.refuted_by = self.refutation(&children).map(|r| (key, r));
                }
                let (none_within, sure_within) = self.failure_depth(&children, or_node);
                debug_assert!(none_within > bound);
                if !or_node && sure_within < none_within {
                    for c in refuting(&children).filter(|c| c.unproven) {
                        oracle.rests_on_unproven(pos, c.mv);
                    }
                }
                self.fail(place, none_within, sure_within);
                return;
            }
            if pn >= th_pn || dn >= th_dn || self.aborted {
                self.make_room_for_numbers();
                self.numbers.insert((key, bound), (pn, dn));
                return;
            }
            let c = children[best];
            // The 1+ε trick (ε = 1/2, as in the df-pn solver): the best child runs until its
            // number passes one and a half times the second best's, not merely the second
            // best's, which saves most of the back-and-forth between close siblings.
            let second = second.saturating_add(1 + second / 2);
            let (cth_pn, cth_dn) = if or_node {
                (
                    th_pn.min(second),
                    (th_dn - dn).saturating_add(c.dn).min(INF - 1),
                )
            } else {
                (
                    (th_pn - pn).saturating_add(c.pn).min(INF - 1),
                    th_dn.min(second),
                )
            };
            pos.do_move(c.mv);
            let pass = if or_node { killer } else { None };
            self.search(pos, child_bound, cth_pn, cth_dn, pass, oracle);
            pos.undo_move(c.mv);
            if self.aborted {
                return;
            }
            // A check disproven by this search left its refutation as its last act (one
            // settled from the table left none).
            if let Some((k, r)) = self.refuted_by {
                if or_node && k == c.key && self.lookup(c.place).none_within > child_bound {
                    killer = Some(r);
                }
            }
        }
    }

    /// Settles `pos` within `bound` plies by searching its `moves` (its checks or its replies)
    /// one after another, each to its end: at an attacker turn until a check mates, at a
    /// defender turn until a defence refutes surely (one whose failure rests on no drop taken
    /// for a defence without proof; a refutation that is not sure is kept while the next
    /// defences are tried for one that is, since a failure that is not sure costs "sound"
    /// verdicts). The best-first search expands every check of an attacker turn before it
    /// goes deeper into any (each a node, with its defences' checks counted), and at a
    /// defender turn moves from one defence to another as their numbers pass each other.
    /// Near the bound's end the subtrees are small and the defence with the fewest checks
    /// after it nearly always refutes, so that breadth costs more than it finds (the nodes
    /// and the verdicts measured are in benches/TSUME.md).
    ///
    /// The order: at an attacker turn the checks known to mate within the bound first, then as
    /// generated; at a defender turn the `killer` (see `search`) and the defences after which a
    /// shorter mate is already ruled out first, then by the number of the attacker's checks
    /// after each, those known mated last but one, and the drops that may be useless last (a
    /// refutation by any other defence spares the proof that they are useless). What is
    /// learnt goes to the table as the best-first search would have stored it: an attacker
    /// turn's failure reaches as far as its shortest-reaching check's, a defender turn's as
    /// far as its farthest-reaching refutation's, and surely as far as its farthest-reaching
    /// proven one's.
    fn settle_depth_first(
        &mut self,
        pos: &mut Position,
        bound: u16,
        moves: &MoveList,
        killer: Option<Move>,
        oracle: &mut impl Oracle,
    ) {
        let key = pos.key();
        let place = self.place(pos);
        let or_node = Some(pos.side_to_move()) == self.attacker;
        let child_bound = bound - 1;
        for &m in moves.iter() {
            oracle.prefetch_after(pos, m);
        }
        // (rank, move, a drop that may be useless), sorted by rank.
        let mut order: Vec<(u32, Move, bool)> = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            let may_be_useless = !or_node && muda::may_be_useless(pos, m);
            pos.do_move(m);
            let child_place = self.place(pos);
            self.import(pos, child_place, oracle);
            let known = self.lookup(child_place);
            let rank = if or_node {
                u32::from(known.proof > child_bound)
            } else if may_be_useless {
                u32::MAX
            } else if Some(m) == killer || known.none_within > child_bound {
                0
            } else if known.proof <= child_bound {
                u32::MAX - 1
            } else if known.none_within > 1 {
                1
            } else {
                1 + self.check_counts.count(pos, pos.key())
            };
            pos.undo_move(m);
            order.push((rank, m, may_be_useless));
        }
        order.sort_by_key(|&(rank, _, _)| rank);
        let mut killer = if or_node { None } else { killer };
        // An attacker turn's failure reaches as far as its shortest-reaching check's.
        let (mut none_within, mut sure_within) = (NEVER, NEVER);
        // A defender turn's proof is as long as its longest defence's.
        let mut longest = 0;
        // A defender turn's failure: how far its refutations reach, how far the proven ones
        // surely do, and the drops not proven defences among them.
        let mut refuted: Option<(u16, Option<u16>)> = None;
        let mut unproven = Vec::new();
        for &(_, m, may_be_useless) in &order {
            // Once refuted, a drop that may be useless is not worth its question.
            if refuted.is_some() && may_be_useless {
                continue;
            }
            pos.do_move(m);
            let child_place = self.place(pos);
            let child_key = pos.key();
            let mut known = self.lookup(child_place);
            if !known.settles(child_bound) {
                let pass = if or_node { killer } else { None };
                self.search(pos, child_bound, INF - 1, INF - 1, pass, oracle);
                if self.aborted {
                    pos.undo_move(m);
                    return;
                }
                known = self.lookup(child_place);
            }
            pos.undo_move(m);
            if or_node {
                if known.proof <= child_bound {
                    self.prove(place, known.proof + 1);
                    return;
                }
                none_within = none_within.min(known.none_within);
                sure_within = sure_within.min(known.sure_within);
                // The defence that refuted this check, first for the next.
                if let Some((k, r)) = self.refuted_by {
                    if k == child_key {
                        killer = Some(r);
                    }
                }
                continue;
            }
            if known.proof <= child_bound {
                longest = longest.max(known.proof);
                continue;
            }
            let mut proven = true;
            if may_be_useless {
                if self.is_useless(pos, m, oracle) {
                    continue;
                }
                if self.aborted {
                    return;
                }
                proven = oracle.is_proven_defence(pos, m);
            }
            if refuted.is_none() {
                self.refuted_by = Some((key, m));
            }
            if !proven {
                unproven.push(m);
            }
            let sure = proven.then_some(known.sure_within);
            let (none, best_sure) = refuted.unwrap_or((0, None));
            refuted = Some((none.max(known.none_within), best_sure.max(sure)));
            // A refutation that rests on drops not proven defences (its own, or some below
            // it) is not the end: the best-first search would often have found another
            // defence that refutes surely among those it had searched, and a failure that is
            // not sure costs "sound" verdicts. The next defences are tried for one that is.
            if sure == Some(known.none_within) {
                break;
            }
        }
        match refuted {
            _ if or_node => self.fail(place, beyond(none_within), beyond(sure_within)),
            Some((none, sure)) => {
                let sure = sure.map_or(0, beyond);
                if sure < beyond(none) {
                    for &r in &unproven {
                        oracle.rests_on_unproven(pos, r);
                    }
                }
                self.fail(place, beyond(none), sure);
            }
            // Every defence mated, or a useless interposition.
            None => self.prove(place, longest + 1),
        }
    }

    /// The defence that refutes a disproven defender turn: of its refuting defences, the one
    /// whose failure reaches farthest (the one `failure_depth` counts).
    fn refutation(&self, children: &[Child]) -> Option<Move> {
        refuting(children)
            .max_by_key(|c| c.known.none_within)
            .map(|c| c.mv)
    }

    /// How far a disproven node's failure reaches (as `none_within`): as far as its shortest
    /// reaching check allows, or its longest reaching defence, plus one. It is often beyond
    /// the bound searched (a check that runs out of checks fails at every bound), and the next
    /// question, or the same position at another distance from the root, finds it settled.
    /// Second, how far it surely reaches (as `sure_within`): a defence that is a drop not
    /// proven a defence counts for nothing there.
    fn failure_depth(&self, children: &[Child], or_node: bool) -> (u16, u16) {
        let depths = refuting(children).map(|c| c.known.none_within);
        let sure = refuting(children).map(|c| c.known.sure_within);
        if or_node {
            (
                beyond(depths.min().unwrap_or(0)),
                beyond(sure.min().unwrap_or(0)),
            )
        } else {
            // A defender turn is surely refuted only by a sure defence.
            let sure = refuting(children)
                .filter(|c| !c.unproven)
                .map(|c| c.known.sure_within)
                .max();
            (beyond(depths.max().unwrap_or(0)), sure.map_or(0, beyond))
        }
    }

    /// Whether the defender, to move in `pos` with `replies`, has a defence under the
    /// convention: not when he has no reply or only drops the oracle proves useless. Only
    /// when every reply is a drop that may be useless are they asked about, in order, up to
    /// the first that is not proven useless. (The budget may run out while it asks: the caller
    /// looks.)
    fn defended(
        &mut self,
        pos: &mut Position,
        replies: &MoveList,
        oracle: &mut impl Oracle,
    ) -> Defended {
        if !replies.iter().all(|&r| muda::may_be_useless(pos, r)) {
            return Defended::ByProven;
        }
        match replies.iter().find(|&&r| !self.is_useless(pos, r, oracle)) {
            None => Defended::Not,
            Some(&r) if oracle.is_proven_defence(pos, r) => Defended::ByProven,
            Some(&r) => Defended::ByUnproven(r),
        }
    }

    /// Whether one of the `checks` in `pos` mates at once: the defender has no reply, or only
    /// useless interpositions.
    fn mate_at_once(
        &mut self,
        pos: &mut Position,
        checks: &MoveList,
        oracle: &mut impl Oracle,
    ) -> AtOnce {
        let mut replies = MoveList::new();
        let Some(king) = pos.king_square(!pos.side_to_move()) else {
            return AtOnce::NoMate;
        };
        let mut answer = AtOnce::NoMate;
        // Most checks leave the king a step or another move on the board, and so no mate even
        // under the convention: those are passed over before the replies are listed, the most
        // of them before the check is played. A check that is not passed over is looked at as
        // before, in the same order, so the useless drops asked about are the same.
        let flights = super::Flights::new(pos, king);
        for &m in checks.iter() {
            if flights.escape_after(pos, m) {
                continue;
            }
            pos.do_move(m);
            if has_board_evasion(pos) {
                pos.undo_move(m);
                continue;
            }
            replies.clear();
            generate_legal(pos, &mut replies);
            let defended = self.defended(pos, &replies, oracle);
            if let Defended::ByUnproven(r) = defended {
                oracle.rests_on_unproven(pos, r);
                answer = AtOnce::NoMateUnlessADropIsUseless;
            }
            pos.undo_move(m);
            if defended == Defended::Not {
                return AtOnce::Mate;
            }
        }
        answer
    }

    /// Whether the attacker mates at once after every defence in `replies` (the defender to
    /// move in `pos`, with bound 2 or 3): `None` when he does, or else how far the failure
    /// after the first refuting defence reaches, surely and not, and that defence. The
    /// `killer` (see `search`) is tried first. A refuting drop that is a useless interposition
    /// is no defence. What is learnt of each defence goes to the table, as its own node would
    /// have stored it.
    fn mated_at_once_after_each(
        &mut self,
        pos: &mut Position,
        replies: &MoveList,
        killer: Option<Move>,
        oracle: &mut impl Oracle,
    ) -> Option<Refuted> {
        let mut checks = MoveList::new();
        // The drops that may be useless last: a refutation by another reply spares the proof
        // that they are.
        let (drops, mut others): (Vec<Move>, Vec<Move>) =
            replies.iter().partition(|&&r| muda::may_be_useless(pos, r));
        if let Some(k) = others.iter().position(|&r| Some(r) == killer) {
            others.swap(0, k);
        }
        for &r in replies.iter() {
            oracle.prefetch_after(pos, r);
        }
        for (i, &r) in others.iter().chain(drops.iter()).enumerate() {
            let may_be_useless = i >= others.len();
            pos.do_move(r);
            let place = self.place(pos);
            self.import(pos, place, oracle);
            let known = self.lookup(place);
            // No mate within one is none within two: the attacker's distances are odd.
            let odd = |d: u16| if d >= 2 { d.max(3) } else { d };
            // (none_within, sure_within) after the defence.
            let failure = if known.proof <= 1 {
                None
            } else if known.none_within >= 2 {
                Some((odd(known.none_within), odd(known.sure_within)))
            } else {
                checks.clear();
                generate_checks(pos, &mut checks);
                if checks.is_empty() {
                    self.fail(place, NEVER, NEVER);
                    Some((NEVER, NEVER))
                } else {
                    match self.mate_at_once(pos, &checks, oracle) {
                        AtOnce::Mate => {
                            self.prove(place, 1);
                            None
                        }
                        _ if self.aborted => None,
                        AtOnce::NoMate => {
                            self.fail(place, 3, 3);
                            Some((3, 3))
                        }
                        AtOnce::NoMateUnlessADropIsUseless => {
                            self.fail(place, 3, 1);
                            Some((3, 1))
                        }
                    }
                }
            };
            pos.undo_move(r);
            let refuted = |none_within, sure_within| Refuted {
                none_within,
                sure_within,
                by: r,
            };
            if self.aborted {
                return Some(refuted(0, None));
            }
            if let Some((d, sure)) = failure {
                if !(may_be_useless && self.is_useless(pos, r, oracle)) {
                    if self.aborted {
                        return Some(refuted(0, None));
                    }
                    let proven = !may_be_useless || oracle.is_proven_defence(pos, r);
                    if !proven {
                        oracle.rests_on_unproven(pos, r);
                    }
                    return Some(refuted(d, proven.then_some(sure)));
                }
            }
        }
        None
    }

    /// The length of a proven node's proof tree: one more than its quickest proven check, or
    /// than its longest defence.
    fn proof_length(&self, children: &[Child], or_node: bool) -> u16 {
        let lengths = children.iter().filter(|c| c.pn == 0).map(|c| c.known.proof);
        let sub = if or_node {
            lengths.min()
        } else {
            lengths.max()
        };
        sub.unwrap_or(0).saturating_add(1)
    }
}

/// The hands the df-pn solver's disproof of `place` holds for, from its disproof hand, as the
/// place to keep it under: an attacker who holds no more than the disproof hand (and no more
/// than there is off the board), the defender holding the rest. Every piece in play is on the
/// board or in a hand, so what the attacker holds beyond `place`'s comes out of the defender's;
/// the solver's table, keyed by the board and the attacker's hand, rests on the same.
fn solver_disproof_place(place: Place, disproof: Hand) -> Place {
    let mut attacker = place.attacker;
    let mut defender = place.defender;
    for pt in PieceType::HAND {
        let held = place.attacker.count(pt);
        let more = disproof
            .count(pt)
            .saturating_sub(held)
            .min(place.defender.count(pt));
        attacker.set(pt, held + more);
        defender.set(pt, place.defender.count(pt) - more);
    }
    Place {
        attacker,
        defender,
        ..place
    }
}

/// The disproven children that count: a drop that may be useless refutes nothing until it is
/// shown not to be.
fn refuting(children: &[Child]) -> impl Iterator<Item = &Child> {
    children.iter().filter(|c| c.dn == 0 && !c.may_be_useless)
}

/// The OR combination of `children` by `(own, other)` numbers: the smallest `own`, the sum of
/// `other` (at most [`NUMBER_CAP`]), the index of the child with the smallest `own` and the
/// second smallest `own`. A child whose `other` is `INF` is settled with `own` 0, which
/// settles the node whatever the sum.
fn combine(children: &[Child], numbers: impl Fn(&Child) -> (u32, u32)) -> (u32, u32, usize, u32) {
    let mut best = 0;
    let mut min = INF;
    let mut second = INF;
    let mut sum: u32 = 0;
    for (i, c) in children.iter().enumerate() {
        let (own, other) = numbers(c);
        sum = sum.saturating_add(other).min(NUMBER_CAP);
        if own < min {
            second = min;
            min = own;
            best = i;
        } else if own < second {
            second = own;
        }
    }
    (min, sum, best, second)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn check_counts_answer_only_for_the_key_they_were_counted_for() {
        let checks = |p: &Position| {
            let mut list = MoveList::new();
            generate_checks(p, &mut list);
            list.len() as u32
        };
        let a = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R 1").unwrap();
        let (na, nb) = (checks(&a), checks(&b));
        assert!(na != nb && na > 1 && nb > 1, "{na} {nb}");
        let mut counts = CheckCounts::default();
        assert_eq!(counts.count(&a, a.key()), na);
        // Kept: asked again (with another position, to see that it is not counted again).
        assert_eq!(counts.count(&b, a.key()), na);
        // Another key in the same slot is counted, and takes the slot.
        let other = a.key() ^ 1 << 40;
        assert_eq!(counts.count(&b, other), nb);
        assert_eq!(counts.count(&a, a.key()), na);
    }

    /// A proof found with some hands answers for an attacker who holds more and a defender
    /// who holds less, a disproof for the reverse, and neither crosses over.
    #[test]
    fn results_cover_the_hands_they_dominate() {
        let mut s = BoundedSearch::new(Color::Black);
        let gold = Hand::EMPTY.plus_one(PieceType::Gold);
        let two_golds = gold.plus_one(PieceType::Gold);
        let place = |attacker, defender| Place {
            board: 7,
            attacker,
            defender,
        };
        s.prove(place(gold, gold), 9);
        assert_eq!(s.lookup(place(two_golds, Hand::EMPTY)).proof, 9);
        assert_eq!(s.lookup(place(gold, gold)).proof, 9);
        assert_eq!(s.lookup(place(Hand::EMPTY, two_golds)).proof, NO_PROOF);
        s.fail(place(gold, gold), 6, 4);
        assert_eq!(s.lookup(place(Hand::EMPTY, two_golds)).none_within, 6);
        assert_eq!(s.lookup(place(Hand::EMPTY, two_golds)).sure_within, 4);
        assert_eq!(s.lookup(place(two_golds, Hand::EMPTY)).none_within, 0);
        assert_eq!(s.lookup(place(two_golds, Hand::EMPTY)).sure_within, 0);
        // What is sure comes from every entry that covers the hands, as the rest does: here
        // a smaller attacker's hand, known surely to a farther bound.
        s.fail(place(Hand::EMPTY, two_golds), 6, 6);
        assert_eq!(s.lookup(place(Hand::EMPTY, two_golds)).sure_within, 6);
        assert_eq!(s.lookup(place(gold, gold)).sure_within, 4);
        // Another board knows nothing.
        let other = Place {
            board: 8,
            ..place(two_golds, Hand::EMPTY)
        };
        assert_eq!(s.lookup(other).proof, NO_PROOF);
    }

    /// The df-pn solver's disproof hand, read as the bounded table's hands: the attacker may
    /// hold up to the disproof hand, as far as the defender's pieces go, and the defender then
    /// holds the rest.
    #[test]
    fn the_solvers_disproof_hand_becomes_both_hands() {
        let hand = |sfen_hand: &str, color: Color| {
            Position::from_sfen(&format!("8k/9/9/9/9/9/9/9/9 b {sfen_hand} 1"))
                .unwrap()
                .hand(color)
        };
        let place = Place {
            board: 1,
            attacker: hand("G", Color::Black),
            defender: hand("2gs", Color::White),
        };
        let disproof = hand("4GB", Color::Black);
        let wider = solver_disproof_place(place, disproof);
        assert_eq!(wider.board, 1);
        assert_eq!(wider.attacker, hand("3G", Color::Black));
        assert_eq!(wider.defender, hand("s", Color::White));
    }

    /// An oracle out of nodes: it can no longer prove a drop useless, and says so.
    struct Exhausted;

    impl Oracle for Exhausted {
        fn is_useless(&mut self, _pos: &mut Position, _r: Move) -> bool {
            false
        }

        fn tick(&mut self) -> bool {
            true
        }

        fn exhausted(&self) -> bool {
            true
        }
    }

    /// An oracle for which every drop that may be useless is.
    struct AllUseless;

    impl Oracle for AllUseless {
        fn is_useless(&mut self, _pos: &mut Position, _r: Move) -> bool {
            true
        }

        fn tick(&mut self) -> bool {
            true
        }
    }

    /// The rook's check along the first rank leaves the king only drops between them, each
    /// taken back with mate: mate under the convention. An oracle out of nodes cannot say so,
    /// and the search must not take its "no" for an answer: it stops, stores nothing, and
    /// after `resume` a new question gets the right one.
    #[test]
    fn a_useless_drop_question_without_nodes_settles_nothing() {
        let mut pos = Position::from_sfen("R7k/7pp/9/9/9/9/9/9/9 w p 1").unwrap();
        let mut s = BoundedSearch::new(Color::Black);
        assert_eq!(s.mates_within(&mut pos, 1, &mut Exhausted), None);
        assert_eq!(s.mates_within(&mut pos, 1, &mut AllUseless), None);
        s.resume();
        assert_eq!(s.mates_within(&mut pos, 1, &mut AllUseless), Some(true));
    }

    /// An oracle that answers alike for every drop that may be useless: useless, or not, and
    /// then proven a defence or not (its proofs that they are ran out of nodes). Also the
    /// checker's tests' (`check.rs`).
    pub(in crate::mate) struct Alike {
        pub useless: bool,
        pub proven: bool,
    }

    impl Oracle for Alike {
        fn is_useless(&mut self, _pos: &mut Position, _r: Move) -> bool {
            self.useless
        }

        fn tick(&mut self) -> bool {
            true
        }

        fn is_proven_defence(&mut self, _pos: &Position, _r: Move) -> bool {
            self.proven
        }
    }

    /// An `Alike` that keeps the drops it is told a failure rests on.
    struct Told {
        alike: Alike,
        drops: Vec<Move>,
    }

    impl Oracle for Told {
        fn is_useless(&mut self, pos: &mut Position, r: Move) -> bool {
            self.alike.is_useless(pos, r)
        }

        fn tick(&mut self) -> bool {
            true
        }

        fn is_proven_defence(&mut self, pos: &Position, r: Move) -> bool {
            self.alike.is_proven_defence(pos, r)
        }

        fn rests_on_unproven(&mut self, _pos: &Position, r: Move) {
            self.drops.push(r);
        }
    }

    /// An answer that rests on unproven drops has told the oracle of the drops it rests on
    /// (which the checker tries again), at the last turns settled in place and in the main
    /// search alike; one that rests on proven defences tells of none.
    #[test]
    fn the_drops_an_answer_rests_on_are_told() {
        let mut pos = Position::from_sfen("R7k/7pp/9/9/9/9/9/9/9 w 3p 1").unwrap();
        for bound in 0..=8 {
            for proven in [false, true] {
                let mut s = BoundedSearch::new(Color::Black);
                let mut told = Told {
                    alike: Alike {
                        useless: false,
                        proven,
                    },
                    drops: Vec::new(),
                };
                s.distance(&mut pos, bound, &mut told);
                let flagged = s.took_an_unproven_drop();
                assert_eq!(flagged, !proven, "within {bound}");
                assert_eq!(told.drops.is_empty(), proven, "within {bound}");
                assert!(told.drops.iter().all(|m| m.is_drop()));
            }
        }
    }

    /// "Not mated at once" rests on the drops between the rook and the king being defences:
    /// without a proof that they are, the search says that its "no mate" rests on them, where
    /// an oracle that proves them defences gets a plain "no mate" and one that proves them
    /// useless gets "mate". (The exhaustive comparison in `check.rs` holds the rest of the search to the
    /// same rule on real drops.)
    #[test]
    fn a_no_mate_that_rests_on_an_unproven_drop_says_so() {
        let mut pos = Position::from_sfen("R7k/7pp/9/9/9/9/9/9/9 w p 1").unwrap();
        {
            let bound = 1;
            let mut s = BoundedSearch::new(Color::Black);
            let mut unproven = Alike {
                useless: false,
                proven: false,
            };
            assert_eq!(s.mates_within(&mut pos, bound, &mut unproven), Some(false));
            assert!(s.took_an_unproven_drop());
            assert!(!s.took_an_unproven_drop(), "asking clears it");
            assert_eq!(s.distance(&mut pos, bound, &mut unproven), Some(None));
            assert!(s.took_an_unproven_drop());
            let mut s = BoundedSearch::new(Color::Black);
            let mut proven = Alike {
                useless: false,
                proven: true,
            };
            assert_eq!(s.mates_within(&mut pos, bound, &mut proven), Some(false));
            assert_eq!(s.distance(&mut pos, bound, &mut proven), Some(None));
            assert!(!s.took_an_unproven_drop());
            let mut s = BoundedSearch::new(Color::Black);
            assert_eq!(s.mates_within(&mut pos, bound, &mut proven), Some(false));
            assert!(!s.took_an_unproven_drop());
            let mut s = BoundedSearch::new(Color::Black);
            assert_eq!(s.mates_within(&mut pos, bound, &mut AllUseless), Some(true));
        }
    }

    /// The failures that took drops for defences without proof go when they are forgotten,
    /// and with them the answers that rested on them; proofs and sure failures stay.
    #[test]
    fn forgotten_failures_are_those_that_rest_on_unproven_drops() {
        let mut pos = Position::from_sfen("R7k/7pp/9/9/9/9/9/9/9 w 3p 1").unwrap();
        let unproven = || Alike {
            useless: false,
            proven: false,
        };
        let mut s = BoundedSearch::new(Color::Black);
        assert_eq!(s.distance(&mut pos, 8, &mut unproven()), Some(Some(6)));
        assert!(s.took_an_unproven_drop());
        // The drops turn out useless: until the failures are forgotten, the table still says
        // there is no mate within 4.
        assert_eq!(s.distance(&mut pos, 8, &mut AllUseless), Some(Some(6)));
        assert!(s.took_an_unproven_drop());
        s.forget_unsure_failures();
        assert_eq!(s.distance(&mut pos, 8, &mut AllUseless), Some(Some(0)));
        assert!(!s.took_an_unproven_drop());
        // They turn out defences: the answer is the same, and now sure.
        let mut s = BoundedSearch::new(Color::Black);
        assert_eq!(s.distance(&mut pos, 8, &mut unproven()), Some(Some(6)));
        assert!(s.took_an_unproven_drop());
        s.forget_unsure_failures();
        assert_eq!(s.lookup(s.place(&pos)).proof, 6, "proofs stay");
        let mut proven = Alike {
            useless: false,
            proven: true,
        };
        assert_eq!(s.distance(&mut pos, 8, &mut proven), Some(Some(6)));
        assert!(!s.took_an_unproven_drop());
        // A sure failure stays: a rook alone, and no piece for the defender to drop.
        let mut alone = Position::from_sfen("R8/9/9/9/9/9/9/9/8k b - 1").unwrap();
        let mut s = BoundedSearch::new(Color::Black);
        assert_eq!(s.mates_within(&mut alone, 5, &mut proven), Some(false));
        let sure = s.lookup(s.place(&alone));
        s.forget_unsure_failures();
        assert_eq!(s.lookup(s.place(&alone)).none_within, sure.none_within);
        assert!(sure.none_within > 5);
    }

    /// Three pawns to drop between the rook and the king, each taken by the rook: mated in
    /// six plies if the drops are defences, mated now if they are useless. With drops proven
    /// neither, every answer is the first and those that the second would change say that
    /// they rest on an unproven drop: at the last turns settled in place (within 2 and 3) and
    /// in the main search (within 4 and more).
    #[test]
    fn every_answer_that_an_unproven_drop_would_change_says_so() {
        let mut pos = Position::from_sfen("R7k/7pp/9/9/9/9/9/9/9 w 3p 1").unwrap();
        for bound in 0..=8 {
            let mut distance = |oracle: &mut dyn FnMut(&mut BoundedSearch, &mut Position) -> _| {
                let mut s = BoundedSearch::new(Color::Black);
                let d = oracle(&mut s, &mut pos);
                (d, s.took_an_unproven_drop())
            };
            let (defences, _) = distance(&mut |s, p| {
                s.distance(
                    p,
                    bound,
                    &mut Alike {
                        useless: false,
                        proven: true,
                    },
                )
            });
            let (useless, _) = distance(&mut |s, p| s.distance(p, bound, &mut AllUseless));
            let (unproven, said) = distance(&mut |s, p| {
                s.distance(
                    p,
                    bound,
                    &mut Alike {
                        useless: false,
                        proven: false,
                    },
                )
            });
            assert_eq!(defences, Some((bound >= 6).then_some(6)), "within {bound}");
            assert_eq!(useless, Some(Some(0)), "within {bound}");
            assert_eq!(unproven, defences, "within {bound}");
            assert!(said, "within {bound}");
        }
    }

    /// A defender turn refuted only by a drop proven neither useless nor a defence is refuted
    /// as far as the drop's line goes, but surely not at all; a proven defence beside it makes
    /// it sure as far as that one goes. An attacker turn is surely refuted as far as its
    /// shortest sure refutation.
    #[test]
    fn only_proven_defences_make_a_sure_failure() {
        let s = BoundedSearch::new(Color::Black);
        let child = |none_within, sure_within, unproven| Child {
            mv: Move::drop(
                PieceType::Pawn,
                crate::types::Square::from_usi("5a").unwrap(),
            ),
            key: 0,
            place: Place {
                board: 0,
                attacker: Hand::EMPTY,
                defender: Hand::EMPTY,
            },
            pn: INF,
            dn: 0,
            known: Entry {
                proof: NO_PROOF,
                none_within,
                sure_within,
            },
            may_be_useless: false,
            unproven,
        };
        let drop = child(NEVER, NEVER, true);
        assert_eq!(s.failure_depth(&[drop], false), (NEVER, 0));
        assert_eq!(
            s.failure_depth(&[drop, child(7, 5, false)], false),
            (NEVER, 6)
        );
        assert_eq!(
            s.failure_depth(&[child(9, 3, false), child(7, 5, false)], true),
            (8, 4)
        );
    }

    /// An oracle whose solver has disproven every position, for every attacker's hand up to
    /// its disproof hand.
    struct Disproving(Hand);

    impl Oracle for Disproving {
        fn is_useless(&mut self, _pos: &mut Position, _r: Move) -> bool {
            false
        }

        fn tick(&mut self) -> bool {
            true
        }

        fn known(&mut self, _pos: &Position) -> Option<Settled> {
            Some(Settled::NoMate(self.0))
        }
    }

    /// The solver's disproof, taken in at one position, answers for the same board with the
    /// hands its disproof hand covers, and for no others.
    #[test]
    fn a_disproof_from_the_solver_covers_its_disproof_hand() {
        let at = |hands: &str| Position::from_sfen(&format!("8k/9/9/9/9/9/9/9/9 b {hands} 1"));
        let at = |hands: &str| at(hands).unwrap();
        let mut s = BoundedSearch::new(Color::Black);
        let mut oracle = Disproving(at("2G").hand(Color::Black));
        assert_eq!(s.mates_within(&mut at("G3g"), 5, &mut oracle), Some(false));
        assert!(s.never_mates(&at("2G2g")));
        assert!(!s.never_mates(&at("3Gg")));
    }

    /// Sums are cut below the root's thresholds (`INF - 1`): down a deep bound the disproof
    /// numbers compound, and a root whose numbers reached its thresholds would come back from
    /// its search open. A settled child still settles the node whatever the sum.
    #[test]
    fn sums_stay_below_the_roots_thresholds() {
        let child = |pn: u32, dn: u32| Child {
            mv: Move::drop(
                PieceType::Gold,
                crate::types::Square::from_usi("5b").unwrap(),
            ),
            key: 0,
            place: Place {
                board: 0,
                attacker: Hand::EMPTY,
                defender: Hand::EMPTY,
            },
            pn,
            dn,
            known: Entry::default(),
            unproven: false,
            may_be_useless: false,
        };
        let open = [child(3, INF / 2), child(1, INF / 2 + 5), child(2, INF - 2)];
        let (pn, dn, best, second) = combine(&open, |c| (c.pn, c.dn));
        assert_eq!((pn, best, second), (1, 1, 2));
        assert!(
            dn < INF - 1,
            "an open node's sum {dn} reaches the root's thresholds"
        );
        assert_eq!(dn, NUMBER_CAP);
        let settled = [child(3, INF / 2), child(0, INF)];
        assert_eq!(combine(&settled, |c| (c.pn, c.dn)).0, 0);
        // The defender's side: the sum of proof numbers, the smallest disproof number.
        let (dn, pn, _, _) = combine(&open, |c| (c.dn, c.pn));
        assert_eq!((dn, pn), (INF / 2, 6));
    }

    /// Counts the questions about useless drops and answers "not useless".
    #[derive(Default)]
    struct CountingOracle {
        asked: usize,
    }

    impl Oracle for CountingOracle {
        fn is_useless(&mut self, _pos: &mut Position, _r: Move) -> bool {
            self.asked += 1;
            false
        }

        fn tick(&mut self) -> bool {
            true
        }
    }

    /// Plies to mate from `pos` within `bound` by a plain minimax: every check, every reply,
    /// and every drop a defence (what the search plays by with an oracle that proves no drop
    /// useless). Memoised on the position and the bound.
    fn minimax(
        pos: &mut Position,
        bound: u16,
        attacker: Color,
        memo: &mut HashMap<(u64, u16), Option<u16>>,
    ) -> Option<u16> {
        if let Some(&d) = memo.get(&(pos.key(), bound)) {
            return d;
        }
        let mut moves = MoveList::new();
        let d = if pos.side_to_move() == attacker {
            // The quickest check that mates within the bound, if any.
            generate_checks(pos, &mut moves);
            let mut quickest: Option<u16> = None;
            for &m in moves.iter().take_while(|_| bound > 0) {
                pos.do_move(m);
                let k = minimax(pos, bound - 1, attacker, memo);
                pos.undo_move(m);
                quickest = match (quickest, k) {
                    (Some(q), Some(k)) => Some(q.min(k + 1)),
                    (q, k) => q.or(k.map(|k| k + 1)),
                };
            }
            quickest
        } else {
            // The longest defence, if every one is mated within the bound (none: mated now).
            generate_legal(pos, &mut moves);
            let mut longest = Some(0);
            for &r in moves.iter() {
                let k = match bound {
                    0 => None,
                    _ => {
                        pos.do_move(r);
                        let k = minimax(pos, bound - 1, attacker, memo);
                        pos.undo_move(r);
                        k
                    }
                };
                let Some(k) = k else {
                    longest = None;
                    break;
                };
                longest = longest.map(|l: u16| l.max(k + 1));
            }
            longest
        };
        memo.insert((pos.key(), bound), d);
        d
    }

    /// A random problem: the defender's king near his edge, a few pieces of both sides about
    /// it, and a small hand for each; `None` when the SFEN is illegal or the king is in check.
    fn random_problem(rng: &mut impl rand::Rng) -> Option<Position> {
        use crate::position::board_to_sfen;
        use crate::types::{Piece, Square};
        let mut board = [None; 81];
        // Rank `r` from the top, column `c` from the left (the ninth file).
        // Drawn as `usize`: the draws, and so the problems (90 mates), stay those measured.
        let at = |c: usize, r: usize| Square::new(8 - c as u8, r as u8).index();
        let (rank, column) = (rng.gen_range(0..2), rng.gen_range(0..9));
        board[at(column, rank)] = Some(Piece::new(Color::White, PieceType::King));
        let (black, white) = (
            |k| Piece::new(Color::Black, k),
            |k| Piece::new(Color::White, k),
        );
        use PieceType::*;
        let pieces = [
            black(Pawn),
            black(Silver),
            black(Gold),
            black(Lance),
            black(Knight),
            black(Bishop),
            black(Rook),
            white(Pawn),
            white(Silver),
            white(Gold),
            white(Knight),
            white(Bishop),
        ];
        for _ in 0..rng.gen_range(2..6) {
            let square = at(rng.gen_range(0..9), rng.gen_range(0..5));
            if board[square].is_none() {
                board[square] = Some(pieces[rng.gen_range(0..pieces.len())]);
            }
        }
        let board = board_to_sfen(&board);
        let hands = ["G", "S", "GS", "2G", "GN", "BG", "RS", "N", "SP", "R"];
        let hand = hands[rng.gen_range(0..hands.len())];
        let defender = ["", "p", "g", "sp"][rng.gen_range(0..4)];
        // Not legal with the attacker to move if the defender's king stands in check.
        let as_defender = format!("{board} w {hand}{defender} 1");
        if Position::from_sfen(&as_defender).ok()?.in_check() {
            return None;
        }
        Position::from_sfen(&format!("{board} b {hand}{defender} 1")).ok()
    }

    /// The distances the search gives (with every drop a defence) are those of a plain
    /// minimax, on random problems within 7 plies, and so are its answers to the bounds asked
    /// upwards: the nodes settled in place near the bound's end and those searched best first
    /// above them, and the table they share, give the same answers as the definition (a
    /// failure stored as reaching farther than it does answers a larger bound wrongly).
    #[test]
    fn distances_agree_with_a_plain_minimax() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let bound = 7;
        let (mut tried, mut mates, mut long_mates) = (0, 0, 0);
        while tried < 600 {
            let Some(mut pos) = random_problem(&mut rng) else {
                continue;
            };
            tried += 1;
            let mut memo = HashMap::new();
            let expected = minimax(&mut pos, bound, Color::Black, &mut memo);
            // Best first throughout, and depth first near the bound's end from the start.
            for depth_first in [None, Some(0)] {
                let mut s = BoundedSearch::new(Color::Black);
                s.depth_first_after(depth_first);
                let got = s.distance(&mut pos, bound, &mut CountingOracle::default());
                assert_eq!(got, Some(expected), "{} {depth_first:?}", pos.to_sfen());
                // The bounds asked upwards with one table: a failure that claims to reach
                // farther than it does would answer a larger bound wrongly.
                let mut s = BoundedSearch::new(Color::Black);
                s.depth_first_after(depth_first);
                for b in [1, 3, 5, 7] {
                    let answer = s.mates_within(&mut pos, b, &mut CountingOracle::default());
                    let mate = minimax(&mut pos, b, Color::Black, &mut memo).is_some();
                    assert_eq!(answer, Some(mate), "{} within {b}", pos.to_sfen());
                }
                // Every drop was proven a defence, so no answer rests on one that was not.
                assert!(!s.took_an_unproven_drop());
            }
            mates += expected.is_some() as u32;
            long_mates += expected.is_some_and(|d| d > 3) as u32;
        }
        // Enough mates, and of them enough longer than a mate settled in place.
        assert!(
            mates >= 60 && long_mates >= 15,
            "{mates} mates, {long_mates} long"
        );
    }

    /// An oracle that proves no drop useless and has `left` nodes.
    struct Budget {
        left: u64,
    }

    impl Oracle for Budget {
        fn is_useless(&mut self, _pos: &mut Position, _r: Move) -> bool {
            false
        }

        fn tick(&mut self) -> bool {
            self.left = self.left.saturating_sub(1);
            self.left > 0
        }

        fn exhausted(&self) -> bool {
            self.left == 0
        }
    }

    /// A search whose memory is far too small for its tables forgets again and again (its
    /// numbers, and the table's cheapest entries, see `bounded/memory.rs`), and still gives
    /// the distances of a plain minimax, both best first and depth first near the bound's end,
    /// with its maps within the limit as the limit counts them. Forgetting costs nodes, and a
    /// node may need more of its children's results at once than the limit holds, so each
    /// search has a budget: it answers exactly or not at all.
    #[test]
    fn a_search_that_forgets_for_want_of_memory_stays_exact() {
        use rand::SeedableRng;
        // Room for a few hundred boards: most of these searches need more.
        let limit = 20_000;
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let bound = 7;
        let (mut tried, mut forgetful, mut answered, mut mates) = (0, 0, 0, 0);
        while tried < 300 {
            let Some(mut pos) = random_problem(&mut rng) else {
                continue;
            };
            tried += 1;
            let expected = minimax(&mut pos, bound, Color::Black, &mut HashMap::new());
            for depth_first in [None, Some(0)] {
                let mut s = BoundedSearch::new(Color::Black);
                s.depth_first_after(depth_first);
                s.limit_memory(Some(limit));
                let mut budget = Budget { left: 20_000 };
                let got = s.distance(&mut pos, bound, &mut budget);
                // No answer only when the nodes ran out (a search that came back open for
                // what it forgot would give none too).
                assert!(got.is_some() || budget.left == 0, "{}", pos.to_sfen());
                if got.is_some() {
                    assert_eq!(got, Some(expected), "{} {depth_first:?}", pos.to_sfen());
                    answered += 1;
                    mates += expected.is_some() as u32;
                }
                assert!(s.memory_bytes() <= limit, "{} bytes", s.memory_bytes());
                forgetful += (s.times_forgotten() > 0) as u32;
            }
        }
        // 308 of the 600 searches forgot, 499 answered, 86 of them mates.
        assert!(
            forgetful >= 200 && answered >= 400 && mates >= 60,
            "{forgetful} forgot, {answered} answered, {mates} mates"
        );
    }

    /// A distant rook's check that the king simply walks away from (a lone rook never mates):
    /// the drops between them (on 5三 and 5四, away from the king and uncovered) may be
    /// useless, but at the defender turns settled in place (bounds 2 and 3) the king's
    /// refutation makes the question needless. Deeper, the search asks only when a drop is
    /// the one refutation it has, which depends on the order it finds them in.
    #[test]
    fn a_refuting_king_move_spares_the_useless_drop_question() {
        let sfen = "4k4/9/9/9/4R4/9/9/9/9 w G 1";
        for bound in 0..=7 {
            let mut pos = Position::from_sfen(sfen).unwrap();
            let mut s = BoundedSearch::new(Color::Black);
            let mut oracle = CountingOracle::default();
            assert_eq!(s.mates_within(&mut pos, bound, &mut oracle), Some(false));
            if bound <= 3 {
                assert_eq!(oracle.asked, 0, "within {bound}");
            }
        }
    }

    /// A lone rook's check of a king in the open, the defender to move: every king step
    /// refutes it. The killer passed down is the one tried first, so it is the refutation
    /// found, at a defender turn searched best first (bound 5), depth first (bound 4, see
    /// [`DEPTH_FIRST_WITHIN`]) and at one settled in place (bound 3); without a killer the
    /// search would pick another.
    #[test]
    fn the_killer_is_the_first_defence_tried() {
        let sfen = "9/9/9/9/4k4/9/9/9/4R4 w - 1";
        for bound in [3, 4, 5] {
            let refutation = |killer: Option<Move>| {
                let mut pos = Position::from_sfen(sfen).unwrap();
                let mut s = BoundedSearch::new(Color::Black);
                s.depth_first_after(Some(0));
                let mut oracle = CountingOracle::default();
                s.search(&mut pos, bound, INF - 1, INF - 1, killer, &mut oracle);
                assert!(s.lookup(s.place(&pos)).none_within > bound);
                assert_eq!(s.refuted_by.map(|(key, _)| key), Some(pos.key()));
                s.refuted_by.map(|(_, r)| r)
            };
            let unaided = refutation(None).expect("a refutation");
            let mut replies = MoveList::new();
            generate_legal(&Position::from_sfen(sfen).unwrap(), &mut replies);
            assert!(replies.len() > 2);
            let other = *replies.iter().rev().find(|&&r| r != unaided).unwrap();
            assert_eq!(refutation(Some(other)), Some(other), "within {bound}");
        }
    }

    /// The same check, searched within 5 plies after the table has learnt that one king step
    /// leaves no mate within one ply (as a search at a smaller bound would have): that step
    /// is tried first, and refutes.
    #[test]
    fn a_defence_that_failed_before_is_tried_first() {
        let sfen = "9/9/9/9/4k4/9/9/9/4R4 w - 1";
        let mut replies = MoveList::new();
        generate_legal(&Position::from_sfen(sfen).unwrap(), &mut replies);
        for &r in replies.iter() {
            let mut pos = Position::from_sfen(sfen).unwrap();
            let mut s = BoundedSearch::new(Color::Black);
            let mut oracle = CountingOracle::default();
            pos.do_move(r);
            s.rule_out(&pos, 1, true);
            pos.undo_move(r);
            s.search(&mut pos, 5, INF - 1, INF - 1, None, &mut oracle);
            assert_eq!(s.refuted_by, Some((pos.key(), r)));
            // Depth first (bound 4) too.
            let mut s = BoundedSearch::new(Color::Black);
            s.depth_first_after(Some(0));
            pos.do_move(r);
            s.rule_out(&pos, 1, true);
            pos.undo_move(r);
            s.search(&mut pos, 4, INF - 1, INF - 1, None, &mut oracle);
            assert_eq!(s.refuted_by, Some((pos.key(), r)), "depth first");
        }
    }
}
