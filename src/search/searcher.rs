//! One search thread: iterative deepening over the root moves, alpha-beta and quiescence.

use std::sync::atomic::Ordering as AtomicOrdering;

use super::movepick::{is_tactical, MovePicker, Ordering};
use super::see::see;
use super::{
    draw_value, Info, Limits, Score, SearchOptions, Shared, Value, MAX_PLY, VALUE_INFINITE,
    VALUE_MATE, VALUE_MATE_IN_MAX_PLY, VALUE_SUPERIOR,
};
use crate::eval::kp::Accumulator;
use crate::eval::nnue;
use crate::eval::{evaluate_with_table, piece_value};
use crate::mate::{mate_in_one, SolveLimits, Solver, Verdict};
use crate::movegen::{generate_checks, MoveList};
use crate::position::{EnteringKingRule, Position, Repetition};
use crate::tt::{TranspositionTable, TtEntry, BOUND_EXACT, BOUND_LOWER, BOUND_NONE, BOUND_UPPER};
use crate::types::{Color, Move};

use super::history::{ContKey, History};
use super::params::SearchParams;

/// The outcome of the main thread's iterations.
#[derive(Clone, Debug)]
pub struct RootResult {
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: Value,
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: Value,
    prev_score: Value,
    pv: Vec<Move>,
    seldepth: usize,
    /// The largest df-pn budget in which the opponent's mate after this move was sought.
    safety_budget: u64,
    /// The opponent mates after this move: it keeps its losing score and is searched no more.
    refuted: bool,
}

/// What the search keeps for one ply of the current line.
#[derive(Clone, Copy)]
struct Frame {
    killers: [Option<Move>; 2],
    /// The continuation key of the move made at this ply.
    cont_key: ContKey,
    /// The corrected static evaluation of the node (for "improving").
    eval: Value,
    /// The move a singular-extension search leaves out here.
    excluded: Option<Move>,
    /// Passing here lets the opponent mate (the null move's search found it): the node's
    /// moves are reduced and pruned less.
    mate_threat: bool,
    /// The king–piece table's sums of the node, updated move by move.
    kp: Accumulator,
    /// The neural net's accumulators of the node, when the net evaluates.
    nnue: nnue::Accumulator,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            killers: [None; 2],
            cont_key: ContKey::NONE,
            eval: 0,
            excluded: None,
            mate_threat: false,
            kp: Accumulator::default(),
            nnue: nnue::Accumulator::default(),
        }
    }
}

pub struct Searcher<'a> {
    pos: Position,
    tt: &'a TranspositionTable,
    shared: &'a Shared,
    options: &'a SearchOptions,
    params: &'a SearchParams,
    limits: &'a Limits,
    id: usize,
    root_color: Color,
    nodes: u64,
    flushed_nodes: u64,
    seldepth: usize,
    history: &'a mut History,
    /// One frame per ply of the current line.
    stack: Vec<Frame>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: [[u8; 64]; 64],
    /// The df-pn solver for long mates at the root and at PV nodes, made on first use (main
    /// thread only); its table lives for the whole `go`, so each call resumes the last one's work.
    mate_solver: Option<Box<Solver>>,
    /// `nodes` when the root was last given to df-pn.
    mate_checked_at: u64,
    /// The node count at the last safety check of the best root move.
    safety_checked_at: u64,
}

/// What the steps before the move loop learn about a node.
struct NodeInfo {
    key: u64,
    tte: Option<TtEntry>,
    tt_move: Option<Move>,
    excluded: Option<Move>,
    in_check: bool,
    /// The evaluation as the table keeps it, before correction.
    raw_eval: Value,
    static_eval: Value,
    improving: bool,
    /// The null move found that passing here lets the opponent mate (`Frame::mate_threat`).
    mate_threat: bool,
}

/// Table size of the search's mate solver.
const MATE_SOLVER_MB: usize = 16;

fn value_to_tt(v: Value, ply: usize) -> Value {
    if v >= VALUE_MATE_IN_MAX_PLY {
        v + ply as Value
    } else if v <= -VALUE_MATE_IN_MAX_PLY {
        v - ply as Value
    } else {
        v
    }
}

fn value_from_tt(v: Value, ply: usize) -> Value {
    if v >= VALUE_MATE_IN_MAX_PLY {
        v - ply as Value
    } else if v <= -VALUE_MATE_IN_MAX_PLY {
        v + ply as Value
    } else {
        v
    }
}

impl<'a> Searcher<'a> {
    pub fn new(
        pos: Position,
        tt: &'a TranspositionTable,
        shared: &'a Shared,
        options: &'a SearchOptions,
        limits: &'a Limits,
        history: &'a mut History,
        id: usize,
    ) -> Searcher<'a> {
        let params = &options.params;
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (params.lmr_base + (d as f64).ln() * (m as f64).ln() / params.lmr_divisor)
                    as u8;
            }
        }
        let root_color = pos.side_to_move();
        Searcher {
            pos,
            tt,
            shared,
            options,
            limits,
            id,
            root_color,
            nodes: 0,
            flushed_nodes: 0,
            seldepth: 0,
            params,
            history,
            stack: vec![Frame::default(); MAX_PLY + 4],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr,
            mate_solver: None,
            mate_checked_at: 0,
            safety_checked_at: 0,
        }
    }

    /// Iterative deepening. Only the main thread (`report` given) reports and manages time.
    pub fn iterate(
        &mut self,
        root: Vec<Move>,
        report: Option<&(dyn Fn(&Info) + Sync)>,
    ) -> Option<RootResult> {
        let mut rms: Vec<RootMove> = root
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -VALUE_INFINITE,
                prev_score: -VALUE_INFINITE,
                pv: vec![mv],
                seldepth: 0,
                safety_budget: 0,
                refuted: false,
            })
            .collect();
        if rms.is_empty() {
            return None;
        }
        self.refresh_root();
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let multipv = if self.id == 0 {
            self.options.multipv.clamp(1, rms.len())
        } else {
            1
        };
        let mut completed = 0;
        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth {
            for rm in rms.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = rms[pv_idx].prev_score;
                let mut delta: Value = self.params.aspiration_delta;
                let (mut alpha, mut beta) = if depth >= self.params.aspiration_min_depth
                    && prev.abs() < VALUE_MATE_IN_MAX_PLY
                {
                    (
                        (prev - delta).max(-VALUE_INFINITE),
                        (prev + delta).min(VALUE_INFINITE),
                    )
                } else {
                    (-VALUE_INFINITE, VALUE_INFINITE)
                };
                loop {
                    let v = self.root_search(&mut rms, pv_idx, depth, alpha, beta);
                    // Stable sort keeps the earlier order among equal scores.
                    rms[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.shared.stopped() {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-VALUE_INFINITE);
                    } else if v >= beta {
                        beta = (v + delta).min(VALUE_INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                rms[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.shared.stopped() {
                    break;
                }
            }
            if let Some(report) = report {
                if !self.shared.stopped() || completed == 0 {
                    self.report(report, &rms[..multipv], depth);
                }
            }
            if self.shared.stopped() {
                break;
            }
            completed = depth;
            if self.id == 0
                && depth >= self.params.root_mate_min_depth
                && self.mate_at_root(&mut rms, depth, report)
            {
                break;
            }
            // A refuted best move leaves its successor without a score: search once more.
            let refuted = self.id == 0
                && depth >= self.params.root_mate_min_depth
                && multipv == 1
                && self.refute_best(&mut rms);
            if self.id == 0 && !refuted && self.should_stop_after_iteration(&rms) {
                break;
            }
            depth += 1;
        }
        let best = &rms[0];
        Some(RootResult {
            best: best.mv,
            ponder: best.pv.get(1).copied(),
            score: best.score,
        })
    }

    fn report(&mut self, report: &(dyn Fn(&Info) + Sync), lines: &[RootMove], depth: i32) {
        let elapsed = self.shared.elapsed_ms();
        self.flush_nodes();
        let nodes = self.shared.nodes.load(AtomicOrdering::Relaxed);
        let hashfull = self.tt.hashfull();
        for (i, rm) in lines.iter().enumerate() {
            if rm.score == -VALUE_INFINITE {
                continue;
            }
            report(&Info {
                depth,
                seldepth: rm.seldepth.max(depth as usize),
                score: Score::from_value(rm.score),
                nodes,
                time_ms: elapsed,
                hashfull,
                multipv: i + 1,
                pv: rm.pv.clone(),
            });
        }
    }

    /// Between iterations, gives df-pn about a thirty-second of the nodes searched since the
    /// last call. A proven mate goes to the front with its line and `score mate`, and ends the
    /// search: nothing can beat it.
    fn mate_at_root(
        &mut self,
        rms: &mut [RootMove],
        depth: i32,
        report: Option<&(dyn Fn(&Info) + Sync)>,
    ) -> bool {
        if rms[0].score >= VALUE_MATE_IN_MAX_PLY {
            return false;
        }
        let p = self.params;
        let budget = (self.nodes.saturating_sub(self.mate_checked_at) / p.root_mate_share)
            .max(p.root_mate_min_nodes);
        self.mate_checked_at = self.nodes;
        let Some(line) = self.prove_mate(budget) else {
            return false;
        };
        let Some(i) = rms.iter().position(|rm| rm.mv == line[0]) else {
            return false;
        };
        rms[i].score = VALUE_MATE - line.len() as Value;
        rms[i].pv = line;
        rms[..=i].rotate_right(1);
        if let Some(report) = report {
            self.report(report, &rms[..1], depth);
        }
        true
    }

    /// Between iterations, asks df-pn whether the best root move lets the opponent mate by
    /// continuous checks. Such mates run far beyond the search's horizon in shogi (sacrificial
    /// drop checks are not extended), and a material lead means nothing against them. A refuted
    /// move takes its losing mate score, goes last and is searched no more; its successor is
    /// checked in turn. The budget grows with the search, and a move is checked again only with
    /// a budget four times larger. True when a move was refuted.
    fn refute_best(&mut self, rms: &mut Vec<RootMove>) -> bool {
        let p = self.params;
        let budget = (self.nodes.saturating_sub(self.safety_checked_at) / p.safety_share)
            .max(p.safety_min_nodes);
        self.safety_checked_at = self.nodes;
        let mut refuted = false;
        for _ in 0..3 {
            let rm = &rms[0];
            let others_left = rms.iter().skip(1).any(|r| !r.refuted);
            if rm.refuted
                || !others_left
                || rm.score >= VALUE_MATE_IN_MAX_PLY
                || rm.safety_budget.saturating_mul(p.safety_growth) > budget
            {
                break;
            }
            let m = rm.mv;
            rms[0].safety_budget = budget;
            self.pos.do_move(m);
            let line = self.prove_mate(budget);
            self.pos.undo_move(m);
            let Some(line) = line else {
                break;
            };
            let mut rm = rms.remove(0);
            rm.refuted = true;
            rm.score = -VALUE_MATE + (line.len() + 1) as Value;
            rm.prev_score = rm.score;
            rm.pv = std::iter::once(m).chain(line).collect();
            rms.push(rm);
            refuted = true;
        }
        refuted
    }

    fn should_stop_after_iteration(&self, rms: &[RootMove]) -> bool {
        if self.shared.pondering.load(AtomicOrdering::Relaxed) || self.limits.infinite {
            return false;
        }
        // A forced line needs no more thought once found deeply enough.
        if rms.len() == 1 && self.limits.uses_clock() {
            return true;
        }
        match self.shared.allotment() {
            Some((optimum, _)) => self.shared.elapsed_ms() >= optimum,
            None => false,
        }
    }

    fn flush_nodes(&mut self) {
        let new = self.nodes - self.flushed_nodes;
        self.shared.nodes.fetch_add(new, AtomicOrdering::Relaxed);
        self.flushed_nodes = self.nodes;
    }

    /// Called every 1024 nodes: count nodes, and let the main thread stop on time or nodes.
    fn check_limits(&mut self) {
        self.flush_nodes();
        if self.id != 0 {
            return;
        }
        if let Some(n) = self.limits.nodes {
            if self.shared.nodes.load(AtomicOrdering::Relaxed) >= n {
                self.shared.stop.store(true, AtomicOrdering::Relaxed);
            }
        }
        if self.shared.pondering.load(AtomicOrdering::Relaxed) {
            return;
        }
        if let Some((_, maximum)) = self.shared.allotment() {
            if self.shared.elapsed_ms() >= maximum {
                self.shared.stop.store(true, AtomicOrdering::Relaxed);
            }
        }
    }

    fn root_search(
        &mut self,
        rms: &mut [RootMove],
        pv_idx: usize,
        depth: i32,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        let mut best = -VALUE_INFINITE;
        let in_check = self.pos.in_check();
        // The first move searched gets the full window (refuted moves are skipped).
        let mut first = true;
        for (i, rm) in rms.iter_mut().enumerate().skip(pv_idx) {
            if rm.refuted {
                continue;
            }
            let m = rm.mv;
            self.nodes += 1;
            let gives_check = self.pos.gives_check(m);
            let new_depth = depth - 1
                + i32::from(
                    gives_check && !in_check && depth < self.params.root_check_extension_below,
                );
            // Late quiet root moves are searched a little shallower first.
            let r = if i > pv_idx + self.params.root_lmr_after
                && depth >= self.params.lmr_min_depth
                && !in_check
                && !gives_check
                && !is_tactical(&self.pos, m)
            {
                (self.lmr[(depth as usize).min(63)][(i - pv_idx).min(63)] as i32 - 1)
                    .clamp(0, new_depth - 1)
            } else {
                0
            };
            self.do_move(0, m);
            self.stack[0].cont_key = ContKey::after(&self.pos, m);
            self.seldepth = 1;
            let v = if first {
                -self.search(-beta, -alpha, new_depth, 1, false, false)
            } else {
                let mut v = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true, false);
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, 1, true, false);
                }
                if v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, 1, false, false);
                }
                v
            };
            self.pos.undo_move(m);
            if self.shared.stopped() {
                return best.max(alpha);
            }
            if first || v > alpha {
                rm.score = v;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                for k in 1..self.pv_len[1] {
                    match self.pv[1][k] {
                        Some(pm) => rm.pv.push(pm),
                        None => break,
                    }
                }
            } else {
                rm.score = -VALUE_INFINITE;
            }
            first = false;
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for k in ply + 1..child_len {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len;
    }

    /// The continuation keys of the moves one and two plies before the node at `ply`.
    fn cont_parents(&self, ply: usize) -> [ContKey; 2] {
        [
            if ply >= 1 {
                self.stack[ply - 1].cont_key
            } else {
                ContKey::NONE
            },
            if ply >= 2 {
                self.stack[ply - 2].cont_key
            } else {
                ContKey::NONE
            },
        ]
    }

    fn quiet_score(&self, ply: usize, m: Move) -> i32 {
        self.history
            .quiet_score(&self.pos, m, self.cont_parents(ply))
    }

    /// The main alpha-beta search of a node at `ply` with `depth` plies left.
    fn search(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
        skip_null: bool,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.shared.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 4 {
            return self.evaluate(ply);
        }

        // Step 1. Game-ending rules: repetition, the move limit, the entering-king declaration.
        if let Some(v) = self.game_end(ply) {
            return v;
        }

        // Step 2. Mate distance pruning.
        alpha = alpha.max(-VALUE_MATE + ply as Value);
        beta = beta.min(VALUE_MATE - ply as Value - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 3. Transposition table and static evaluation.
        let mut node = match self.probe(alpha, beta, depth, ply, pv_node) {
            Ok(node) => node,
            Err(v) => return v,
        };

        // Steps 4-6. Mates and cuts decided before any move is tried.
        if let Some(v) = self.prune_node(&node, beta, depth, ply, pv_node, cut_node, skip_null) {
            return v;
        }
        node.mate_threat = self.stack[ply].mate_threat;

        // Step 6b. Internal iterative reduction: a node without a table move is probably new
        // and ordered poorly; search it a little shallower.
        let depth = if node.tt_move.is_none() && depth >= self.params.iir_min_depth {
            depth - 1
        } else {
            depth
        };

        // Step 6c. Singular extension.
        let singular = match self.singular_move(&node, beta, depth, ply, cut_node) {
            Ok(s) => s,
            Err(v) => return v,
        };

        // Steps 7-11. The moves.
        let (best_value, best_move) =
            match self.search_moves(&node, alpha, beta, depth, ply, pv_node, cut_node, singular) {
                Ok(best) => best,
                Err(v) => return v,
            };
        if node.excluded.is_some() {
            // A verdict on all moves but one is no verdict on the position.
            return best_value;
        }

        // Step 12. Teach the correction history and store the result.
        self.record(&node, best_value, best_move, beta, depth, ply, pv_node);
        best_value
    }

    /// Step 1: the value of a node that the rules end (repetition, the move limit, the try
    /// rule, an entering-king declaration), if they do.
    fn game_end(&self, ply: usize) -> Option<Value> {
        let us = self.pos.side_to_move();
        match self.pos.repetition(ply + 16) {
            Repetition::None => {}
            Repetition::Draw => return Some(draw_value(self.options, self.root_color, us)),
            Repetition::Win => return Some(VALUE_MATE - ply as Value),
            Repetition::Loss => return Some(-VALUE_MATE + ply as Value),
            Repetition::Superior => return Some(VALUE_SUPERIOR),
            Repetition::Inferior => return Some(-VALUE_SUPERIOR),
        }
        if self.options.max_moves_to_draw > 0
            && self.pos.game_ply() > self.options.max_moves_to_draw
        {
            return Some(draw_value(self.options, self.root_color, us));
        }
        if let Some(v) = self.try_rule_loss(ply) {
            return Some(v);
        }
        let rule = self.options.entering_king_rule;
        if rule != EnteringKingRule::None
            && rule != EnteringKingRule::Try
            && self.pos.can_declare_win(rule)
        {
            return Some(VALUE_MATE - ply as Value - 1);
        }
        None
    }

    /// Step 3: the table entry (a cut-off where its bound allows one outside the PV) and the
    /// static evaluation.
    fn probe(
        &mut self,
        alpha: Value,
        beta: Value,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> Result<NodeInfo, Value> {
        let key = self.pos.key();
        let tte = self.tt.probe(key);
        let tt_move = tte.and_then(|e| e.mv).filter(|&m| self.pos.is_legal(m));
        let excluded = self.stack[ply].excluded;
        if let Some(e) = tte {
            let v = value_from_tt(e.value, ply);
            if !pv_node
                && excluded.is_none()
                && e.depth >= depth
                && (e.bound == BOUND_EXACT
                    || (e.bound == BOUND_LOWER && v >= beta)
                    || (e.bound == BOUND_UPPER && v <= alpha))
            {
                return Err(v);
            }
        }
        let in_check = self.pos.in_check();
        // The table keeps the uncorrected evaluation; the correction changes as the search
        // learns.
        let raw_eval = if in_check {
            -VALUE_INFINITE
        } else {
            match tte {
                Some(e) if e.bound != BOUND_NONE || e.eval != 0 => e.eval,
                _ => self.evaluate(ply),
            }
        };
        let static_eval = if in_check {
            raw_eval
        } else {
            self.corrected(raw_eval)
        };
        self.stack[ply].eval = static_eval;
        if excluded.is_none() {
            // A singular search at this ply keeps what the node's own null move found.
            self.stack[ply].mate_threat = false;
        }
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].eval;
        Ok(NodeInfo {
            key,
            tte,
            tt_move,
            excluded,
            in_check,
            raw_eval,
            static_eval,
            improving,
            mate_threat: false,
        })
    }

    /// Steps 4-6: a mate in one, a df-pn mate at deep PV nodes, reverse futility and the null
    /// move. A search without the table move (singular extension) only asks whether another
    /// move comes close: no shortcuts there.
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
        &mut self,
        node: &NodeInfo,
        beta: Value,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        skip_null: bool,
    ) -> Option<Value> {
        if node.in_check || node.excluded.is_some() {
            return None;
        }
        let p = self.params;
        let static_eval = node.static_eval;

        // Step 4. Mate in one: a checking move that leaves no reply. A node the table knows
        // was searched before, and a mate there would be in the table already.
        if !(p.mate_in_one_tt_miss_only && node.tte.is_some()) {
            if let Some(m) = mate_in_one(&mut self.pos) {
                self.update_pv_single(ply, m);
                return Some(VALUE_MATE - ply as Value - 1);
            }
        }

        // Step 4b. At PV nodes deep enough to afford it, a short df-pn run finds mates by
        // continuous checks far beyond the search horizon.
        if pv_node && depth >= p.pv_mate_min_depth && ply + 64 < MAX_PLY {
            let budget = p.pv_mate_base_nodes + p.pv_mate_nodes_per_depth * depth as u64;
            if let Some(line) = self.prove_mate(budget).filter(|l| ply + l.len() < MAX_PLY) {
                for (k, &m) in line.iter().enumerate() {
                    self.pv[ply][ply + k] = Some(m);
                }
                self.pv_len[ply] = ply + line.len();
                return Some(VALUE_MATE - (ply + line.len()) as Value);
            }
        }

        // Step 4c. Razoring: far below alpha at low depth, let quiescence decide whether a
        // capture can save the node; if it cannot, the node fails low without its quiet moves.
        if !pv_node
            && depth <= p.razor_max_depth
            && static_eval.abs() < VALUE_MATE_IN_MAX_PLY
            && static_eval + p.razor_base + p.razor_per_depth * depth * depth < beta - 1
        {
            let v = self.qsearch(beta - 1, beta, ply, 0);
            if self.shared.stopped() {
                return Some(0);
            }
            if v < beta && v.abs() < VALUE_MATE_IN_MAX_PLY {
                return Some(v);
            }
        }

        // Step 5. Reverse futility: far above beta at low depth, assume it holds.
        if !pv_node
            && depth <= p.rfp_max_depth
            && static_eval.abs() < VALUE_MATE_IN_MAX_PLY
            && static_eval - p.rfp_margin_per_depth * depth
                + p.rfp_improving_bonus * i32::from(node.improving)
                >= beta
        {
            return Some(static_eval);
        }

        // Step 6. Null move search: pass, and if a reduced search still fails high, cut.
        if !pv_node
            && !skip_null
            && depth >= p.null_min_depth
            && static_eval >= beta
            && beta.abs() < VALUE_MATE_IN_MAX_PLY
            && self.pos.last_move().is_some()
        {
            let r = p.null_base_reduction
                + depth / p.null_depth_divisor
                + ((static_eval - beta) / p.null_eval_divisor).min(p.null_eval_max);
            self.pos.do_null_move();
            self.copy_accumulators(ply);
            self.stack[ply].cont_key = ContKey::NONE;
            let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node, true);
            self.pos.undo_null_move();
            if self.shared.stopped() {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= VALUE_MATE_IN_MAX_PLY { beta } else { v });
            }
            if p.null_mate_threat && v <= -VALUE_MATE_IN_MAX_PLY {
                self.stack[ply].mate_threat = true;
            }
        }

        // Step 6a. ProbCut.
        if !pv_node && p.probcut_min_depth > 0 && depth >= p.probcut_min_depth {
            return self.probcut(node, beta, depth, ply, cut_node);
        }
        None
    }

    /// Step 6a. ProbCut: a capture that wins material and whose search `probcut_reduction`
    /// plies shallower beats beta by a margin would almost surely beat beta at full depth, so
    /// the node is cut. Quiescence screens each capture first, which is cheap.
    #[inline(never)]
    fn probcut(
        &mut self,
        node: &NodeInfo,
        beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<Value> {
        let p = self.params;
        if beta.abs() >= VALUE_MATE_IN_MAX_PLY {
            return None;
        }
        let probcut_beta =
            beta + p.probcut_margin - p.probcut_improving_margin * i32::from(node.improving);
        // A table entry nearly as deep that puts the node below that bound makes it futile.
        if node.tte.is_some_and(|e| {
            e.depth >= depth - 3
                && e.bound != BOUND_NONE
                && value_from_tt(e.value, ply) < probcut_beta
        }) {
            return None;
        }
        let needed = probcut_beta - node.static_eval;
        let mut picker = MovePicker::empty();
        picker.fill_quiescence(
            &self.pos,
            node.tt_move.filter(|&m| is_tactical(&self.pos, m)),
        );
        while let Some((m, _)) = picker.next() {
            if see(&self.pos, m) < needed {
                continue;
            }
            self.do_move(ply, m);
            self.stack[ply].cont_key = ContKey::after(&self.pos, m);
            let mut v = -self.qsearch(-probcut_beta, -probcut_beta + 1, ply + 1, 0);
            if v >= probcut_beta {
                v = -self.search(
                    -probcut_beta,
                    -probcut_beta + 1,
                    depth - p.probcut_reduction,
                    ply + 1,
                    !cut_node,
                    false,
                );
            }
            self.pos.undo_move(m);
            if self.shared.stopped() {
                return Some(0);
            }
            if v >= probcut_beta {
                self.tt.store(
                    node.key,
                    TtEntry {
                        mv: Some(m),
                        value: value_to_tt(v, ply),
                        eval: node.raw_eval,
                        depth: depth - p.probcut_reduction + 1,
                        bound: BOUND_LOWER,
                    },
                );
                return Some(v);
            }
        }
        None
    }

    /// Step 6c. Singular extension: when the table move is the only good move here (every
    /// other move fails low against a margin below its value at half depth), it is searched
    /// one ply deeper. When even the others beat beta, the node is a cut whatever is played
    /// (`Err` with its value). When another move comes close and the table value is at least
    /// beta, the table move is not that special: with `singular_negative_extension` it is
    /// searched one ply shallower. The answer is the table move and its extension.
    fn singular_move(
        &mut self,
        node: &NodeInfo,
        beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Result<Option<(Move, i32)>, Value> {
        let p = self.params;
        let (Some(tm), Some(e)) = (node.tt_move, node.tte) else {
            return Ok(None);
        };
        let tt_value = value_from_tt(e.value, ply);
        if ply == 0
            || node.excluded.is_some()
            || depth < p.singular_min_depth
            || e.depth < depth - p.singular_tt_depth_slack
            || e.bound & BOUND_LOWER == 0
            || tt_value.abs() >= VALUE_MATE_IN_MAX_PLY
        {
            return Ok(None);
        }
        let singular_beta = tt_value - p.singular_margin_per_depth * depth;
        self.stack[ply].excluded = Some(tm);
        let v = self.search(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
            true,
        );
        self.stack[ply].excluded = None;
        if self.shared.stopped() {
            return Err(0);
        }
        if v < singular_beta {
            Ok(Some((tm, 1)))
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if p.singular_negative_extension && tt_value >= beta {
            Ok(Some((tm, -1)))
        } else {
            Ok(None)
        }
    }

    /// Step 8: whether move `m` (number `move_count`) may be skipped at shallow depth.
    #[allow(clippy::too_many_arguments)]
    fn prunable(
        &self,
        node: &NodeInfo,
        m: Move,
        alpha: Value,
        depth: i32,
        move_count: usize,
        tactical: bool,
        order_score: i32,
    ) -> bool {
        let p = self.params;
        if tactical {
            return depth <= p.see_tactical_max_depth
                && order_score < 0
                && see(&self.pos, m) < -p.see_tactical_per_depth * depth;
        }
        let lmp_limit = (p.lmp_base + depth * depth) as usize / if node.improving { 1 } else { 2 }
            + p.lmp_extra;
        (depth <= p.lmp_max_depth && move_count > lmp_limit && !node.mate_threat)
            || (depth <= p.futility_max_depth
                && node.static_eval + p.futility_base + p.futility_per_depth * depth <= alpha
                && order_score < (1 << 26))
            || (depth <= p.see_quiet_max_depth && see(&self.pos, m) < -p.see_quiet_per_depth * depth)
            // A quiet move with a bad record here and in these continuations.
            || (depth <= p.history_prune_max_depth && order_score < -p.history_prune_per_depth * depth)
    }

    /// Steps 7-11: every move, best first, with pruning, extensions and late move reductions.
    /// Returns the best value and move, or (`Err`) the node's value when it has no move (mate)
    /// or the search was stopped.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        node: &NodeInfo,
        mut alpha: Value,
        beta: Value,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        singular: Option<(Move, i32)>,
    ) -> Result<(Value, Option<Move>), Value> {
        let p = self.params;
        let tt_tactical = node.tt_move.is_some_and(|t| is_tactical(&self.pos, t));
        let counter = self.history.counter_move(&self.pos);
        let killers = self.stack[ply].killers;
        let mut picker = MovePicker::empty();
        {
            let hist = |m: Move| self.quiet_score(ply, m);
            let capture_hist = |m: Move| {
                if p.capture_history {
                    self.history.capture_score(&self.pos, m)
                } else {
                    0
                }
            };
            picker.fill_main(
                &self.pos,
                &Ordering {
                    tt_move: node.tt_move,
                    killers,
                    counter,
                    history: &hist,
                    capture_history: &capture_hist,
                },
            );
        }
        if picker.is_empty() {
            // No legal move: mated (or, never in practice, stalemated: also a loss).
            return Err(-VALUE_MATE + ply as Value);
        }
        let in_check = node.in_check;
        let mut best_value = -VALUE_INFINITE;
        let mut best_move = None;
        let mut move_count = 0;
        let mut quiets: [Option<Move>; 64] = [None; 64];
        let mut quiet_count = 0;
        let mut captures: [Option<Move>; 32] = [None; 32];
        let mut capture_count = 0;
        while let Some((m, order_score)) = picker.next() {
            if Some(m) == node.excluded {
                continue;
            }
            move_count += 1;
            let tactical = is_tactical(&self.pos, m);
            let gives_check = self.pos.gives_check(m);

            // Step 8. Pruning at shallow depth.
            if ply > 0
                && best_value > -VALUE_MATE_IN_MAX_PLY
                && !in_check
                && !gives_check
                && self.prunable(node, m, alpha, depth, move_count, tactical, order_score)
            {
                continue;
            }

            // Step 9. Extensions: the singular one (which may be negative) and checks, one
            // ply at most.
            let singular_ext = match singular {
                Some((s, e)) if s == m => e,
                _ => 0,
            };
            let check_ext =
                i32::from(gives_check && (!p.check_extension_needs_see || see(&self.pos, m) >= 0));
            let ext = (singular_ext + check_ext).min(1);
            let new_depth = depth - 1 + ext;
            // The history that late-move reductions weigh, read only where they apply (and
            // before the move is made).
            let reducible = move_count > 1
                && depth >= p.lmr_min_depth
                && !tactical
                && !in_check
                && (p.lmr_reduce_checks || !gives_check);
            let drop_near_king = p.lmr_drop_near_king > 0
                && m.is_drop()
                && self
                    .pos
                    .king_square(!self.pos.side_to_move())
                    .is_some_and(|k| {
                        crate::types::Square::distance(m.to(), k) <= p.lmr_drop_near_king
                    });
            let stat = if reducible {
                self.quiet_score(ply, m)
            } else {
                0
            };

            self.do_move(ply, m);
            self.stack[ply].cont_key = ContKey::after(&self.pos, m);
            let mut v;
            if move_count == 1 {
                v = -self.search(
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !pv_node && !cut_node,
                    false,
                );
            } else {
                // Step 10. Late move reductions.
                let mut r = 0;
                if reducible {
                    r = self.lmr[(depth as usize).min(63)][move_count.min(63)] as i32;
                    r += i32::from(!pv_node) + i32::from(cut_node)
                        - i32::from(order_score >= (1 << 26));
                    r -= i32::from(gives_check) + i32::from(drop_near_king);
                    r += i32::from(p.lmr_tt_tactical && tt_tactical);
                    r += i32::from(p.lmr_not_improving && !node.improving);
                    r -= i32::from(node.mate_threat);
                    r -= stat / p.lmr_history_divisor;
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true, false);
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node, false);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, false, false);
                }
            }
            self.pos.undo_move(m);
            if self.shared.stopped() {
                return Err(0);
            }

            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        // Step 11. A cut-off: remember the quiet move that caused it.
                        if !tactical {
                            self.reward_quiet(ply, m, depth, &quiets[..quiet_count]);
                        }
                        if p.capture_history {
                            self.reward_capture(m, tactical, depth, &captures[..capture_count]);
                        }
                        break;
                    }
                    alpha = v;
                }
            }
            if !tactical && quiet_count < quiets.len() {
                quiets[quiet_count] = Some(m);
                quiet_count += 1;
            } else if tactical && capture_count < captures.len() {
                captures[capture_count] = Some(m);
                capture_count += 1;
            }
        }
        if best_value == -VALUE_INFINITE && (move_count > 0 || node.excluded.is_some()) {
            // Every move was pruned (or the only move was left out): fail low at alpha.
            best_value = alpha;
        }
        Ok((best_value, best_move))
    }

    /// Step 12: teaches the correction history how far the static evaluation was off (only
    /// where the result says something about the position's quiet value: no capture as the
    /// best move, and the bound on the informative side of the evaluation), and stores the
    /// result in the table.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        node: &NodeInfo,
        best_value: Value,
        best_move: Option<Move>,
        beta: Value,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) {
        let bound = if best_value >= beta {
            BOUND_LOWER
        } else if pv_node && best_move.is_some() {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        let informative = match bound {
            BOUND_LOWER => best_value > node.static_eval,
            BOUND_UPPER => best_value < node.static_eval,
            _ => true,
        };
        if !node.in_check
            && informative
            && best_move.is_none_or(|m| !is_tactical(&self.pos, m))
            && best_value.abs() < VALUE_MATE_IN_MAX_PLY
        {
            self.history
                .correction
                .update(&self.pos, best_value - node.raw_eval, depth);
        }
        self.tt.store(
            node.key,
            TtEntry {
                mv: best_move.or(node.tt_move),
                value: value_to_tt(best_value, ply),
                eval: if node.in_check { 0 } else { node.raw_eval },
                depth,
                bound,
            },
        );
    }

    /// The root's accumulators, summed afresh: the net's when it evaluates, else the
    /// king–piece table's.
    fn refresh_root(&mut self) {
        match &self.options.net {
            Some(net) => self.stack[0].nnue = nnue::Accumulator::new(&self.pos, net),
            None => self.stack[0].kp = Accumulator::new(&self.pos),
        }
    }

    /// A null move changes no piece: the node after it has the same accumulators.
    fn copy_accumulators(&mut self, ply: usize) {
        if self.options.net.is_some() {
            self.stack[ply + 1].nnue = self.stack[ply].nnue;
        } else {
            self.stack[ply + 1].kp = self.stack[ply].kp;
        }
    }

    /// Makes `m` at `ply`, with the accumulators of the node it leads to.
    fn do_move(&mut self, ply: usize, m: Move) {
        self.pos.do_move(m);
        self.tt.prefetch(self.pos.key());
        match &self.options.net {
            Some(net) => {
                let (before, after) = self.stack.split_at_mut(ply + 1);
                before[ply]
                    .nnue
                    .after_into(&self.pos, m, net, &mut after[0].nnue);
            }
            None => self.stack[ply + 1].kp = self.stack[ply].kp.after(&self.pos, m),
        }
    }

    /// The static evaluation of the node at `ply`, from the accumulators kept move by move.
    fn evaluate(&self, ply: usize) -> Value {
        match &self.options.net {
            Some(net) => {
                debug_assert_eq!(
                    self.stack[ply].nnue,
                    nnue::Accumulator::new(&self.pos, net),
                    "{:?}",
                    self.pos
                );
                self.stack[ply]
                    .nnue
                    .evaluate(self.pos.side_to_move(), net)
                    .clamp(-nnue::EVAL_LIMIT, nnue::EVAL_LIMIT)
            }
            None => {
                let kp = self.stack[ply].kp;
                debug_assert_eq!(kp, Accumulator::new(&self.pos), "{:?}", self.pos);
                evaluate_with_table(&self.pos, kp.value_black())
            }
        }
    }

    /// The static evaluation with the correction history's adjustment, kept out of the mate
    /// range.
    fn corrected(&self, raw: Value) -> Value {
        (raw + self.history.correction.get(&self.pos))
            .clamp(-VALUE_MATE_IN_MAX_PLY + 1, VALUE_MATE_IN_MAX_PLY - 1)
    }

    /// Under the try rule the game is over, lost for the side to move, once the enemy king
    /// stands on our king's start square.
    fn try_rule_loss(&self, ply: usize) -> Option<Value> {
        if self.options.entering_king_rule != EnteringKingRule::Try {
            return None;
        }
        let them = !self.pos.side_to_move();
        (self.pos.king_square(them) == Some(crate::position::try_square(them)))
            .then_some(-VALUE_MATE + ply as Value)
    }

    /// Runs the df-pn solver for the side to move within `budget` nodes (main thread only):
    /// the mating line if it proves one.
    fn prove_mate(&mut self, budget: u64) -> Option<Vec<Move>> {
        if self.id != 0 {
            return None;
        }
        let solver = self
            .mate_solver
            .get_or_insert_with(|| Box::new(Solver::new(MATE_SOLVER_MB)));
        let verdict = solver.solve(
            &mut self.pos,
            SolveLimits {
                nodes: Some(budget),
                ..SolveLimits::default()
            },
        );
        match verdict {
            Verdict::Mate(line) => Some(line),
            _ => None,
        }
    }

    fn update_pv_single(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        self.pv_len[ply] = ply + 1;
    }

    fn reward_quiet(&mut self, ply: usize, m: Move, depth: i32, tried: &[Option<Move>]) {
        let killers = &mut self.stack[ply].killers;
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let p = self.params;
        let bonus =
            (p.history_bonus_per_depth * depth - p.history_bonus_offset).min(p.history_bonus_max);
        let parents = self.cont_parents(ply);
        self.history.update(&self.pos, m, parents, bonus);
        for q in tried.iter().flatten() {
            if *q != m {
                self.history.update(&self.pos, *q, parents, -bonus);
            }
        }
        self.history.set_counter_move(&self.pos, m);
    }

    /// After a cut-off by `m`: its capture history rises if it is a capture or promotion, and
    /// that of every capture tried before it falls.
    fn reward_capture(&mut self, m: Move, tactical: bool, depth: i32, tried: &[Option<Move>]) {
        let p = self.params;
        let bonus =
            (p.history_bonus_per_depth * depth - p.history_bonus_offset).min(p.history_bonus_max);
        if tactical {
            self.history.update_capture(&self.pos, m, bonus);
        }
        for c in tried.iter().flatten() {
            self.history.update_capture(&self.pos, *c, -bonus);
        }
    }

    fn qsearch(&mut self, mut alpha: Value, beta: Value, ply: usize, qdepth: u32) -> Value {
        self.pv_len[ply.min(MAX_PLY)] = ply.min(MAX_PLY);
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.shared.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 4 {
            return self.evaluate(ply);
        }
        if let Some(v) = self.try_rule_loss(ply) {
            return v;
        }
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let tte = self.tt.probe(key);
        let tt_move = tte.and_then(|e| e.mv).filter(|&m| self.pos.is_legal(m));
        if let Some(e) = tte {
            let v = value_from_tt(e.value, ply);
            if e.depth >= 0
                && (e.bound == BOUND_EXACT
                    || (e.bound == BOUND_LOWER && v >= beta)
                    || (e.bound == BOUND_UPPER && v <= alpha))
            {
                return v;
            }
        }
        let mut best;
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            best = -VALUE_INFINITE;
            stand_pat = -VALUE_INFINITE;
        } else {
            raw_eval = match tte {
                Some(e) if e.bound != BOUND_NONE || e.eval != 0 => e.eval,
                _ => self.evaluate(ply),
            };
            stand_pat = self.corrected(raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            if self.params.qsearch_mate_in_one
                && tte.is_none()
                && mate_in_one(&mut self.pos).is_some()
            {
                return VALUE_MATE - ply as Value - 1;
            }
            if qdepth >= self.params.qsearch_max_depth {
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
        }
        let tt_move = if in_check {
            tt_move
        } else {
            tt_move.filter(|&m| is_tactical(&self.pos, m))
        };
        let mut picker = MovePicker::empty();
        picker.fill_quiescence(&self.pos, tt_move);
        if in_check && picker.is_empty() {
            return -VALUE_MATE + ply as Value;
        }
        let mut best_move = None;
        // After the captures, at its first ply, quiescence may also try the quiet checks that
        // lose nothing (`qsearch_checks`): in shogi a check is often the only way to keep the
        // initiative.
        let try_checks = !in_check && qdepth == 0 && self.params.qsearch_checks;
        let mut checks: Option<(MoveList, usize)> = None;
        loop {
            let m = if let Some((m, _)) = picker.next() {
                if !in_check {
                    // Delta pruning and losing exchanges.
                    let gain = self
                        .pos
                        .piece_on(m.to())
                        .map_or(0, |p| piece_value(p.piece_type()));
                    if stand_pat + gain + self.params.qsearch_delta_margin < alpha
                        && !m.is_promotion()
                    {
                        continue;
                    }
                    if see(&self.pos, m) < 0 {
                        continue;
                    }
                }
                m
            } else if try_checks {
                let (list, next) = checks.get_or_insert_with(|| {
                    let mut list = MoveList::new();
                    generate_checks(&self.pos, &mut list);
                    (list, 0)
                });
                let Some(&m) = list.get(*next) else {
                    break;
                };
                *next += 1;
                if is_tactical(&self.pos, m) || see(&self.pos, m) < 0 {
                    continue;
                }
                m
            } else {
                break;
            };
            self.do_move(ply, m);
            let v = -self.qsearch(-beta, -alpha, ply + 1, qdepth + 1);
            self.pos.undo_move(m);
            if self.shared.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else {
            BOUND_UPPER
        };
        self.tt.store(
            key,
            TtEntry {
                mv: best_move.or(tt_move),
                value: value_to_tt(best, ply),
                eval: raw_eval,
                depth: 0,
                bound,
            },
        );
        best
    }
}
