//! Every margin, reduction and budget of the search, named in one place so that it can be read,
//! changed and tuned. Depths are in plies, margins in centipawns.

/// The search's numbers. [`DEFAULT`] is what the engine plays with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    // Iterative deepening.
    /// Half-width of the first aspiration window; it grows by half on each failure.
    pub aspiration_delta: i32,
    /// Aspiration windows start at this depth (full window below).
    pub aspiration_min_depth: i32,

    // The root.
    /// Root moves that check are extended below this depth.
    pub root_check_extension_below: i32,
    /// Root moves after this many (past the principal variation's) may be reduced.
    pub root_lmr_after: usize,

    // Late move reductions: `base + ln(depth) · ln(move number) / divisor`.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    pub lmr_min_depth: i32,
    /// One ply less reduction per this much history.
    pub lmr_history_divisor: i32,
    /// Drops within this king distance of the enemy king are reduced one ply less.
    pub lmr_drop_near_king: usize,

    // Reverse futility pruning.
    pub rfp_max_depth: i32,
    pub rfp_margin_per_depth: i32,
    pub rfp_improving_bonus: i32,

    // Null move: reduction `base + depth / depth_divisor + min((eval − beta) / eval_divisor,
    // eval_max)`.
    pub null_min_depth: i32,
    pub null_base_reduction: i32,
    pub null_depth_divisor: i32,
    pub null_eval_divisor: i32,
    pub null_eval_max: i32,

    /// Internal iterative reduction: nodes without a table move this deep lose a ply.
    pub iir_min_depth: i32,

    // Singular extension of the table move.
    pub singular_min_depth: i32,
    /// The table entry may be this much shallower than the node.
    pub singular_tt_depth_slack: i32,
    /// The other moves must fail below the table value minus this times depth.
    pub singular_margin_per_depth: i32,

    // Pruning of quiet moves near the leaves.
    /// Late move pruning: after `(base + depth²) / (improving ? 1 : 2) + extra` moves.
    pub lmp_max_depth: i32,
    pub lmp_base: i32,
    pub lmp_extra: usize,
    /// Futility: the static evaluation plus `base + per_depth · depth` is still below alpha.
    pub futility_max_depth: i32,
    pub futility_base: i32,
    pub futility_per_depth: i32,
    /// Quiet moves that lose more than `per_depth · depth` by static exchange.
    pub see_quiet_max_depth: i32,
    pub see_quiet_per_depth: i32,
    /// Quiet moves whose history is below `-per_depth · depth`.
    pub history_prune_max_depth: i32,
    pub history_prune_per_depth: i32,
    /// Captures with a bad order score that lose more than `per_depth · depth`.
    pub see_tactical_max_depth: i32,
    pub see_tactical_per_depth: i32,

    // History.
    /// Bonus `min(per_depth · depth − offset, max)`.
    pub history_bonus_per_depth: i32,
    pub history_bonus_offset: i32,
    pub history_bonus_max: i32,

    // Quiescence.
    /// Captures that cannot lift the stand-pat within this margin of alpha are skipped.
    pub qsearch_delta_margin: i32,
    /// Quiescence stops at this many plies.
    pub qsearch_max_depth: u32,

    // Mate search by df-pn.
    /// At PV nodes this deep, a df-pn run of `base + per_depth · depth` nodes.
    pub pv_mate_min_depth: i32,
    pub pv_mate_base_nodes: u64,
    pub pv_mate_nodes_per_depth: u64,
    /// At the root between iterations, from this depth: a share (1/n) of the nodes searched
    /// since the last run, at least `min_nodes`.
    pub root_mate_min_depth: i32,
    pub root_mate_share: u64,
    pub root_mate_min_nodes: u64,
    /// The opponent's mate after the best root move: 1/share of the nodes since the last
    /// check, at least `min_nodes`; a move is checked again only with `growth` times more.
    pub safety_share: u64,
    pub safety_min_nodes: u64,
    pub safety_growth: u64,
}

pub const DEFAULT: SearchParams = SearchParams {
    aspiration_delta: 30,
    aspiration_min_depth: 4,
    root_check_extension_below: 6,
    root_lmr_after: 2,
    lmr_base: 0.5,
    lmr_divisor: 2.2,
    lmr_min_depth: 3,
    lmr_history_divisor: 12000,
    lmr_drop_near_king: 0,
    rfp_max_depth: 6,
    rfp_margin_per_depth: 100,
    rfp_improving_bonus: 40,
    null_min_depth: 3,
    null_base_reduction: 3,
    null_depth_divisor: 4,
    null_eval_divisor: 200,
    null_eval_max: 3,
    iir_min_depth: 4,
    singular_min_depth: 8,
    singular_tt_depth_slack: 3,
    singular_margin_per_depth: 2,
    lmp_max_depth: 5,
    lmp_base: 3,
    lmp_extra: 2,
    futility_max_depth: 6,
    futility_base: 150,
    futility_per_depth: 110,
    see_quiet_max_depth: 6,
    see_quiet_per_depth: 50,
    history_prune_max_depth: 4,
    history_prune_per_depth: 4000,
    see_tactical_max_depth: 6,
    see_tactical_per_depth: 120,
    history_bonus_per_depth: 300,
    history_bonus_offset: 200,
    history_bonus_max: 2500,
    qsearch_delta_margin: 250,
    qsearch_max_depth: 12,
    pv_mate_min_depth: 6,
    pv_mate_base_nodes: 64,
    pv_mate_nodes_per_depth: 32,
    root_mate_min_depth: 5,
    root_mate_share: 32,
    root_mate_min_nodes: 1_000,
    safety_share: 8,
    safety_min_nodes: 2_000,
    safety_growth: 4,
};

impl Default for SearchParams {
    fn default() -> SearchParams {
        DEFAULT
    }
}
