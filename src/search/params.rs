//! Every margin, reduction and budget of the search, named in one place so that it can be read,
//! changed and tuned. Depths are in plies, margins in centipawns. Each one can also be set
//! through the hidden USI option `Param_<name>` (for tuning matches: `hayate match --engine
//! ... option.Param_lmr_divisor=2.0`).

macro_rules! search_params {
    ($( $(#[$doc:meta])* $name:ident : $ty:ty = $default:expr, )*) => {
        /// The search's numbers. [`DEFAULT`] is what the engine plays with.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct SearchParams {
            $( $(#[$doc])* pub $name: $ty, )*
        }

        pub const DEFAULT: SearchParams = SearchParams {
            $( $name: $default, )*
        };

        impl SearchParams {
            /// Every parameter's name.
            pub const NAMES: &'static [&'static str] = &[$( stringify!($name) ),*];

            /// Sets the parameter `name` from its text.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
                match name {
                    $( stringify!($name) => {
                        self.$name = value.trim().parse().map_err(|_| {
                            format!("search parameter {name}: bad value '{value}'")
                        })?;
                    } )*
                    _ => return Err(format!("unknown search parameter '{name}'")),
                }
                Ok(())
            }
        }
    };
}

search_params! {
    // Iterative deepening.
    /// Half-width of the first aspiration window; it grows by half on each failure.
    aspiration_delta: i32 = 30,
    /// Aspiration windows start at this depth (full window below).
    aspiration_min_depth: i32 = 4,

    // The root.
    /// Root moves that check are extended below this depth.
    root_check_extension_below: i32 = 6,
    /// Root moves after this many (past the principal variation's) may be reduced.
    root_lmr_after: usize = 2,

    // Late move reductions: `base + ln(depth) · ln(move number) / divisor`.
    lmr_base: f64 = 0.5,
    lmr_divisor: f64 = 2.2,
    lmr_min_depth: i32 = 3,
    /// One ply less reduction per this much history.
    lmr_history_divisor: i32 = 12000,
    /// Drops within this king distance of the enemy king are reduced one ply less (0: off).
    lmr_drop_near_king: u32 = 0,
    /// Whether checking moves are reduced at all (one ply less than other moves).
    lmr_reduce_checks: bool = true,
    /// Quiet moves are reduced one ply more when the table move is a capture or promotion
    /// (the node's best is then probably tactical, and quiet moves rarely beat it).
    lmr_tt_tactical: bool = false,
    /// Late moves are reduced one ply more where the static evaluation is not improving on
    /// the one two plies earlier (the position is getting worse for the side to move, so its
    /// quiet moves are less likely to matter).
    lmr_not_improving: bool = false,

    // Extensions.
    /// Checks are extended only when they do not lose material by static exchange.
    check_extension_needs_see: bool = true,

    // Razoring: at depth up to `razor_max_depth` (0: off), a node whose static evaluation is
    // below alpha by `razor_base + razor_per_depth · depth²` is resolved by quiescence, and
    // kept there if quiescence agrees that it fails low.
    razor_max_depth: i32 = 0,
    razor_base: i32 = 300,
    razor_per_depth: i32 = 100,

    // Reverse futility pruning.
    rfp_max_depth: i32 = 6,
    rfp_margin_per_depth: i32 = 100,
    rfp_improving_bonus: i32 = 40,

    // Null move: reduction `base + depth / depth_divisor + min((eval − beta) / eval_divisor,
    // eval_max)`.
    null_min_depth: i32 = 3,
    null_base_reduction: i32 = 3,
    null_depth_divisor: i32 = 4,
    null_eval_divisor: i32 = 200,
    null_eval_max: i32 = 3,
    /// When the null move's search finds that passing lets the opponent mate (a threat of
    /// mate, 詰めろ), the node's late moves are reduced one ply less and not pruned by move
    /// count: a defence may be any quiet move.
    null_mate_threat: bool = false,

    /// ProbCut: from this depth (0: off), a capture whose reduced search beats beta plus the
    /// margin cuts the node.
    probcut_min_depth: i32 = 0,
    probcut_margin: i32 = 200,
    probcut_improving_margin: i32 = 50,
    probcut_reduction: i32 = 4,

    /// Internal iterative reduction: nodes without a table move this deep lose a ply.
    iir_min_depth: i32 = 4,

    // Singular extension of the table move.
    singular_min_depth: i32 = 8,
    /// The table entry may be this much shallower than the node.
    singular_tt_depth_slack: i32 = 3,
    /// The other moves must fail below the table value minus this times depth.
    singular_margin_per_depth: i32 = 2,
    /// When another move also comes close and the table value is at least beta, the table
    /// move is searched one ply shallower (a negative extension).
    singular_negative_extension: bool = false,

    // Pruning of quiet moves near the leaves.
    /// Late move pruning: after `(base + depth²) / (improving ? 1 : 2) + extra` moves.
    lmp_max_depth: i32 = 5,
    lmp_base: i32 = 3,
    lmp_extra: usize = 2,
    /// Futility: the static evaluation plus `base + per_depth · depth` is still below alpha.
    futility_max_depth: i32 = 6,
    futility_base: i32 = 150,
    futility_per_depth: i32 = 110,
    /// Quiet moves that lose more than `per_depth · depth` by static exchange.
    see_quiet_max_depth: i32 = 6,
    see_quiet_per_depth: i32 = 50,
    /// Quiet moves whose history is below `-per_depth · depth`.
    history_prune_max_depth: i32 = 4,
    history_prune_per_depth: i32 = 4000,
    /// Captures with a bad order score that lose more than `per_depth · depth`.
    see_tactical_max_depth: i32 = 6,
    see_tactical_per_depth: i32 = 120,

    // History.
    /// Bonus `min(per_depth · depth − offset, max)`.
    history_bonus_per_depth: i32 = 300,
    history_bonus_offset: i32 = 200,
    history_bonus_max: i32 = 2500,
    /// Capture history: captures are ordered within their class (winning or losing by SEE)
    /// by how well the same capture has done, and cut-offs teach it.
    capture_history: bool = false,

    // Quiescence.
    /// Captures that cannot lift the stand-pat within this margin of alpha are skipped.
    qsearch_delta_margin: i32 = 250,
    /// Quiescence stops at this many plies.
    qsearch_max_depth: u32 = 12,
    /// Quiet checks are searched at the first ply of quiescence.
    qsearch_checks: bool = false,

    // Mate in one.
    /// The main search looks for a mate in one only at nodes the table does not know.
    mate_in_one_tt_miss_only: bool = true,
    /// Quiescence looks for a mate in one (at nodes the table does not know).
    qsearch_mate_in_one: bool = true,

    // Mate search by df-pn.
    /// At PV nodes this deep, a df-pn run of `base + per_depth · depth` nodes.
    pv_mate_min_depth: i32 = 6,
    pv_mate_base_nodes: u64 = 64,
    pv_mate_nodes_per_depth: u64 = 32,
    /// At the root between iterations, from this depth: a share (1/n) of the nodes searched
    /// since the last run, at least `min_nodes`.
    root_mate_min_depth: i32 = 5,
    root_mate_share: u64 = 32,
    root_mate_min_nodes: u64 = 1_000,
    /// The opponent's mate after the best root move: 1/share of the nodes since the last
    /// check, at least `min_nodes`; a move is checked again only with `growth` times more.
    safety_share: u64 = 8,
    safety_min_nodes: u64 = 2_000,
    safety_growth: u64 = 4,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_set_by_name_and_bad_values_refused() {
        let mut p = DEFAULT;
        p.set("lmr_divisor", "2.5").unwrap();
        assert_eq!(p.lmr_divisor, 2.5);
        p.set("null_min_depth", " 4 ").unwrap();
        assert_eq!(p.null_min_depth, 4);
        assert!(p.set("null_min_depth", "deep").is_err());
        assert!(p.set("no_such_thing", "1").is_err());
        assert_eq!(p.null_min_depth, 4);
        assert!(SearchParams::NAMES.contains(&"qsearch_max_depth"));
    }
}
