//! The composer's own variations (変化), given with the problem's record, held to the rules.
//!
//! A variation leaves the line it branches off (the intended line, or another variation) at
//! one ply, with a move of its own:
//!
//! - At a defender turn, another defence and the composer's line after it: the mate that
//!   defence allows. The rules play a variation as they play the main line (every check the
//!   quickest, every defence one of the longest), so the line after the defence is held to
//!   them as the intended line is, with the exact distance of the position after the defence.
//!   That distance, counted from the problem's position, set against the main line's length,
//!   says what the variation is: shorter (早詰), as variations are; as long, with nothing left
//!   in hand (変同), a minor flaw.
//! - At an attacker turn, a try (紛れ): another check. The check either fails (a defence
//!   escapes mate after it: the line's own reply, when it shows one that does) or mates too,
//!   and then the report names it at that turn of the main line (余詰, 最終手余詰, 迂回...),
//!   and the composer's line past it, showing its mate, is held to the rules as a defence's
//!   is. The moves after a failing try's reply are the composer's illustration and are not
//!   held to anything.

use super::intended::{play_in_tsume, IntendedFinding};
use super::{Alternative, CheckLimits, Checker, FirstProof, Report};
use crate::mate::Verdict;
use crate::position::Position;
use crate::types::{Hand, Move};

/// One of the record's variations and what the check found of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComposerVariation {
    /// The whole line from the problem's position: the line it branches off up to `ply`, then
    /// its own moves.
    pub line: Vec<Move>,
    /// The ply of its first move of its own, from 1: where it branches off.
    pub ply: usize,
    pub finding: VariationFinding,
}

/// What the check found of a variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariationFinding {
    /// Another defence, and the composer's line after it held to the rules as an intended
    /// line is (`Solution`: the line is the main line from there; the plies of the others count
    /// from the problem's position).
    Defence {
        finding: IntendedFinding,
        /// The plies from the problem's position to the mate after the defence, played as the
        /// rules play it, when settled.
        plies: Option<usize>,
        /// Whether `plies` rests on proofs alone: not on drops taken for defences without
        /// proof (see `Report::length_sure`).
        sure: bool,
        /// What the attacker holds at the end of the line, when it is a mate.
        spare: Option<Hand>,
    },
    /// Another defence that is a useless interposition (無駄合): no defence under the rules,
    /// so no variation.
    UselessDefence,
    /// Another defence after which there is no mate at all: the line it branches off is no
    /// solution there.
    Escapes,
    /// A try that fails: `refutation` escapes mate after it (`None` when none was found within
    /// the budget, only that one does). `shown`: whether the line's own reply is one that
    /// escapes (`None` when the line stops at the try, or the reply was not settled).
    FailedTry {
        refutation: Option<Move>,
        shown: Option<bool>,
    },
    /// A try that mates too. `called`: what the report calls this check at this turn of the
    /// main line (余詰, 最終手余詰, 迂回..., or [`UNSETTLED`] when it could not settle whether
    /// its mate keeps off the main line), when the variation branches off the main line and
    /// the report names it. When the composer's line goes on past the try (showing its mate),
    /// that line is held to the rules as a defence's is: `line` what was found of it, `plies`
    /// the plies from the problem's position to the mate after the try, played as the rules
    /// play it.
    MatingTry {
        called: Option<&'static str>,
        plies: Option<usize>,
        line: Option<IntendedFinding>,
    },
    /// Not a legal line of play, or an attacker's move in it that gives no check, at `ply`.
    NotLegal { ply: usize, why: String },
    /// Not settled: the budget ran out.
    Unknown { why: String },
}

impl VariationFinding {
    /// The finding's name in the JSON report: that of the line's finding for a defence.
    pub fn name(&self) -> &'static str {
        match self {
            VariationFinding::Defence { finding, .. } => finding.name(),
            VariationFinding::UselessDefence => "useless_defence",
            VariationFinding::Escapes => "escapes",
            VariationFinding::FailedTry { .. } => "refuted",
            VariationFinding::MatingTry { .. } => "mates",
            VariationFinding::NotLegal { .. } => "not_legal",
            VariationFinding::Unknown { .. } => "unknown",
        }
    }
}

/// The ply at which each of `variations` branches off the lines before it (`intended`
/// first, then the variations in order): one past the longest part it shares with any of
/// them. `None` for a line that is one of them, or a part of one.
pub(super) fn branch_plies(intended: &[Move], variations: &[Vec<Move>]) -> Vec<Option<usize>> {
    let shared = |a: &[Move], b: &[Move]| a.iter().zip(b).take_while(|(x, y)| x == y).count();
    variations
        .iter()
        .enumerate()
        .map(|(j, line)| {
            let k = std::iter::once(intended)
                .chain(variations[..j].iter().map(Vec::as_slice))
                .map(|other| shared(line, other))
                .max()
                .unwrap_or(0);
            (k < line.len()).then_some(k + 1)
        })
        .collect()
}

/// The name the report gives the check `mv` at the attacker turn `ply` of its main line, if
/// it gives one.
fn called(report: &Report, ply: usize, mv: Move) -> Option<&'static str> {
    let lists: [(&'static str, &[Alternative]); 6] = [
        ("余詰", &report.cooks),
        ("最終手余詰", &report.last_move_alternatives),
        ("成生非限定", &report.promotion_choices),
        ("打ち場所非限定", &report.drop_choices),
        ("迂回", &report.detours),
        ("手順前後", &report.transpositions),
    ];
    let named = lists
        .into_iter()
        .find(|(_, alts)| alts.iter().any(|a| a.ply == ply && a.mv == mv))
        .map(|(name, _)| name);
    // A check the report could not settle is named among its unsettled checks.
    let unsettled = || {
        report.unsettled_checks.iter().any(|l| {
            l.len() == ply
                && l[ply - 1] == mv
                && report.main_line.get(..ply - 1) == Some(&l[..ply - 1])
        })
    };
    named.or_else(|| unsettled().then_some(UNSETTLED))
}

/// What [`VariationFinding::MatingTry`] calls a check that the report names among its
/// unsettled checks.
pub const UNSETTLED: &str = "unsettled";

impl Checker {
    /// Holds the variation `line` (from `problem`, the problem's position), which branches off
    /// at `ply`, to the rules; `report` is the problem's own.
    pub(super) fn composer_variation(
        &mut self,
        problem: &Position,
        line: &[Move],
        ply: usize,
        report: &Report,
    ) -> VariationFinding {
        let mut p = problem.clone();
        // The line it branches off, up to the branch: a line of checks (the intended line's
        // own finding says more of it).
        for (i, &m) in line[..ply - 1].iter().enumerate() {
            if let Err(why) = play_in_tsume(&mut p, m, self.attacker) {
                return VariationFinding::NotLegal { ply: i + 1, why };
            }
        }
        let m = line[ply - 1];
        if !p.is_legal(m) {
            return VariationFinding::NotLegal {
                ply,
                why: format!("{m} is not a legal move"),
            };
        }
        let on_main_line =
            report.main_line.len() >= ply && report.main_line[..ply - 1] == line[..ply - 1];
        if p.side_to_move() == self.attacker {
            let called_there = on_main_line.then(|| called(report, ply, m)).flatten();
            self.try_at(&mut p, m, &line[ply..], ply, called_there)
        } else {
            self.defence_at(&mut p, m, &line[ply..], ply)
        }
    }

    /// The defence `d` at `p` (the defender to move), at `ply`, and the composer's line
    /// `rest` after it.
    fn defence_at(
        &mut self,
        p: &mut Position,
        d: Move,
        rest: &[Move],
        ply: usize,
    ) -> VariationFinding {
        if self.is_useless(p, d) {
            return VariationFinding::UselessDefence;
        }
        p.do_move(d);
        // First whether it mates at all (a quick disproof where it does not).
        let solver_length = match self.solve_within(p, None, false) {
            Verdict::NoMate => return VariationFinding::Escapes,
            Verdict::Unknown => return out_of_nodes(),
            Verdict::Mate(line) => line.len(),
        };
        let (plies, finding) = self.line_after(p, rest, solver_length, ply);
        if matches!(finding, IntendedFinding::Unknown { .. }) && plies.is_none() {
            return out_of_nodes();
        }
        let spare = match finding {
            IntendedFinding::NotAMate { .. } => None,
            _ => {
                let mut end = p.clone();
                for &m in rest {
                    end.do_move(m);
                }
                Some(end.hand(self.attacker))
            }
        };
        VariationFinding::Defence {
            finding,
            plies,
            sure: !self.unproven_drop,
            spare,
        }
    }

    /// The composer's line `rest` from `p`, a position with a mate (the solver's line
    /// `solver_length` plies long), after the variation's own move at `ply`: the exact
    /// distance of `p`, sought from the line's length when it is a mate (most variations are
    /// as long as they say), as plies from the problem's position; and the line walked with
    /// it (`unknown` when the budget runs out first). Whether the distance rests on drops
    /// taken for defences without proof is left in `unproven_drop`.
    fn line_after(
        &mut self,
        p: &mut Position,
        rest: &[Move],
        solver_length: usize,
        ply: usize,
    ) -> (Option<usize>, IntendedFinding) {
        let replayed = self.replay_as_mate(p, rest);
        let first = FirstProof {
            solver_length: if replayed.is_ok() {
                rest.len()
            } else {
                solver_length
            },
            depth: None,
            length_at_most: None,
        };
        self.unproven_drop = false;
        let Some(v) = self.exact_distance(p, &first, CheckLimits::MAX_PLIES) else {
            let why = "the budget ran out".to_string();
            return (None, IntendedFinding::Unknown { ply: None, why });
        };
        let plies = Some(ply + v as usize);
        let sure = !self.unproven_drop;
        let finding = match replayed {
            Err((k, why)) => IntendedFinding::NotAMate { ply: ply + k, why },
            Ok(end) => match self.judge_exact(p, rest, v as usize, ply) {
                // Of mates as long, the rules take one that leaves the least in hand, as the
                // main line does.
                IntendedFinding::Solution => match self.principal(p, v) {
                    None => IntendedFinding::Unknown {
                        ply: None,
                        why: "the budget ran out".into(),
                    },
                    Some((best, least)) if end.hand(self.attacker).total() > least => {
                        let same = rest.iter().zip(&best).take_while(|(a, b)| a == b).count();
                        IntendedFinding::MoreInHand {
                            ply: ply + 1 + same,
                        }
                    }
                    Some(_) => IntendedFinding::Solution,
                },
                other => other,
            },
        };
        // The walk's questions do not change what the distance rests on.
        self.unproven_drop = !sure;
        (plies, finding)
    }

    /// The check `t` at `p` (the attacker to move), at `ply`, and the composer's line `rest`
    /// after it, whose first move (when there is one) is the defence the composer shows.
    /// `called`: what the report calls `t` there.
    fn try_at(
        &mut self,
        p: &mut Position,
        t: Move,
        rest: &[Move],
        ply: usize,
        called: Option<&'static str>,
    ) -> VariationFinding {
        p.do_move(t);
        if !p.in_check() {
            return VariationFinding::NotLegal {
                ply,
                why: format!("{t} gives no check"),
            };
        }
        let cap = self.nodes_left();
        match self.mates_at_all(p, &[], cap) {
            None => out_of_nodes(),
            Some(Some(_)) if rest.is_empty() => VariationFinding::MatingTry {
                called,
                plies: None,
                line: None,
            },
            Some(Some(first)) => {
                let (plies, line) = self.line_after(p, rest, first.len(), ply);
                VariationFinding::MatingTry {
                    called,
                    plies,
                    line: Some(line),
                }
            }
            Some(None) => {
                let shown = match rest.first() {
                    None => None,
                    Some(&d) if !p.is_legal(d) => {
                        return VariationFinding::NotLegal {
                            ply: ply + 1,
                            why: format!("{d} is not a legal move"),
                        }
                    }
                    Some(&d) => {
                        p.do_move(d);
                        let cap = self.share();
                        let v = self.solve_within(p, cap, false);
                        p.undo_move(d);
                        match v {
                            Verdict::NoMate => Some(true),
                            Verdict::Mate(_) => Some(false),
                            Verdict::Unknown => None,
                        }
                    }
                };
                let refutation = if shown == Some(true) {
                    rest.first().copied()
                } else {
                    p.undo_move(t);
                    let for_check = self.nodes_left();
                    self.refutation(p, t, Some(for_check))
                };
                VariationFinding::FailedTry { refutation, shown }
            }
        }
    }
}

fn out_of_nodes() -> VariationFinding {
    VariationFinding::Unknown {
        why: "the budget ran out".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variation_branches_off_the_line_it_shares_most_with() {
        let m = |s: &str| crate::position::parse_move_syntax(s).unwrap();
        let intended = vec![m("7g7f"), m("3c3d"), m("2g2f")];
        let variations = vec![
            vec![m("7g7f"), m("8c8d")],
            vec![m("7g7f"), m("8c8d"), m("2g2f"), m("8d8e")],
            vec![m("7g7f"), m("8c8d"), m("2g2f")],
            vec![m("7g7f")],
        ];
        // The second shares two moves with the first; the last two are parts of lines before.
        assert_eq!(
            branch_plies(&intended, &variations),
            vec![Some(2), Some(3), None, None]
        );
    }
}
