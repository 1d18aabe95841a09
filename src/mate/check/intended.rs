//! The composer's intended line (作意), given with the problem, held to the rules.
//!
//! A problem file (KIF, KI2, CSA) often carries its solution. The check says whether that line
//! is a solution under the rules: a legal line of checks that ends in mate, where every check
//! mates as fast as any check there and every defence is one of the longest. Where it is not,
//! it names the first ply that fails and what does better there.
//!
//! Along a line that has been a solution so far, the exact distance falls by one a ply: from
//! the problem's exact length `n`, the position before ply `i` is `n - i + 1` plies from mate.
//! So each ply takes one question of the bounded search, and along the main line (the usual
//! case: the 作意 is the main line) the answers are already in its table.
//!
//! Without the exact length (a long problem whose "no quicker mate" ran out of nodes), only the
//! defences are held to the line's own length: proofs, which come cheaply. A line that passes
//! is a forced mate in its plies, and bounds the problem's length from above.

use super::{Checker, Report, Status};
use crate::mate::Verdict;
use crate::movegen::{generate_legal, MoveList};
use crate::position::Position;
use crate::types::{Color, Hand, Move};

/// What the check found of the intended line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntendedFinding {
    /// A solution: every check mates as fast as any, every defence is one of the longest, and
    /// it ends in mate. It is as long as the main line.
    Solution,
    /// Not a line of checks that ends in mate: at `ply` (from 1), for the reason given.
    NotAMate { ply: usize, why: String },
    /// At the attacker turn `ply` a quicker mate than the line's: `plies` plies from there (the
    /// line takes more), along `line`.
    QuickerMate {
        ply: usize,
        plies: usize,
        line: Vec<Move>,
    },
    /// At the defender turn `ply` the line's defence is not one of the longest: `line` starts
    /// with one that lasts longer, `plies` plies from there to mate (`None`: not known, only
    /// that it lasts longer than the line; no mate at all when the problem has none).
    LongerDefence {
        ply: usize,
        plies: Option<usize>,
        line: Vec<Move>,
    },
    /// At the defender turn `ply` the line interposes a piece for nothing (無駄合), which the
    /// rules leave out.
    UselessInterposition { ply: usize },
    /// A mate as fast as the main line, every defence one of the longest, but it leaves the
    /// attacker more in hand at its end than the main line does: of equally long defences the
    /// rules take the one that leaves the least (nothing, in a sound problem), so this is a
    /// variation, not the main line. `ply` is where the two part.
    MoreInHand { ply: usize },
    /// A forced mate in as many plies as the line has, every defence at each of its defender
    /// turns mated within what the line leaves; found when the problem's exact length is not
    /// known, so a quicker mate is not ruled out.
    ForcedMate,
    /// Not settled: the budget ran out (at `ply`, when it did on the way), or the problem has
    /// no mate and no refutation of the line's first check was proven.
    Unknown { ply: Option<usize>, why: String },
}

impl IntendedFinding {
    pub fn name(&self) -> &'static str {
        match self {
            IntendedFinding::Solution => "solution",
            IntendedFinding::NotAMate { .. } => "not_a_mate",
            IntendedFinding::QuickerMate { .. } => "quicker_mate",
            IntendedFinding::LongerDefence { .. } => "longer_defence",
            IntendedFinding::UselessInterposition { .. } => "useless_interposition",
            IntendedFinding::MoreInHand { .. } => "more_in_hand",
            IntendedFinding::ForcedMate => "forced_mate",
            IntendedFinding::Unknown { .. } => "unknown",
        }
    }

    /// Why, for a line that is no mate or a finding not settled.
    pub fn why(&self) -> Option<&str> {
        match self {
            IntendedFinding::NotAMate { why, .. } | IntendedFinding::Unknown { why, .. } => {
                Some(why)
            }
            _ => None,
        }
    }

    /// The line that does better at the finding's ply, when it names one.
    pub fn better_line(&self) -> Option<&[Move]> {
        match self {
            IntendedFinding::QuickerMate { line, .. }
            | IntendedFinding::LongerDefence { line, .. } => Some(line),
            _ => None,
        }
    }

    /// The ply the finding is about, when it names one.
    pub fn ply(&self) -> Option<usize> {
        match self {
            IntendedFinding::Solution | IntendedFinding::ForcedMate => None,
            IntendedFinding::NotAMate { ply, .. }
            | IntendedFinding::QuickerMate { ply, .. }
            | IntendedFinding::LongerDefence { ply, .. }
            | IntendedFinding::UselessInterposition { ply }
            | IntendedFinding::MoreInHand { ply } => Some(*ply),
            IntendedFinding::Unknown { ply, .. } => *ply,
        }
    }
}

/// The finding when the budget runs out, at `ply` if on the way along the line.
fn out_of_nodes(ply: Option<usize>) -> IntendedFinding {
    IntendedFinding::Unknown {
        ply,
        why: "the budget ran out".into(),
    }
}

/// The intended line and what the check found of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Intended {
    pub line: Vec<Move>,
    pub finding: IntendedFinding,
    /// The first ply at which the line and the main line part (one of them may end there), when
    /// the main line was worked out and they do.
    pub parts_from_main_line_at: Option<usize>,
    /// What the attacker holds at the end of the line (駒余り when not empty); `None` when the
    /// line is not a mate.
    pub spare: Option<Hand>,
}

impl Intended {
    /// The finding in a few words, for a batch's row: `作意 solution`, `作意 quicker_mate at
    /// 5`, and so on.
    pub fn brief(&self) -> String {
        match self.finding.ply() {
            Some(ply) => format!("作意 {} at {ply}", self.finding.name()),
            None => format!("作意 {}", self.finding.name()),
        }
    }
}

/// How many moves of `line` from the position `sfen` are legal one after another.
pub(super) fn legal_prefix(sfen: &str, line: &[Move]) -> usize {
    let Ok(mut p) = Position::from_sfen(sfen) else {
        return 0;
    };
    line.iter()
        .take_while(|&&m| {
            let legal = p.is_legal(m);
            if legal {
                p.do_move(m);
            }
            legal
        })
        .count()
}

/// Plays `m` at `p` as a move of a tsume line: legal, and a check when the attacker plays it.
pub(super) fn play_in_tsume(p: &mut Position, m: Move, attacker: Color) -> Result<(), String> {
    if !p.is_legal(m) {
        return Err(format!("{m} is not a legal move"));
    }
    let checks = p.side_to_move() == attacker;
    p.do_move(m);
    if checks && !p.in_check() {
        return Err(format!("{m} gives no check"));
    }
    Ok(())
}

impl Checker {
    /// `line` played from `pos` as a line of checks that ends in mate under the rules: the
    /// defender left with no move but useless interpositions (無駄合), as the checker proves
    /// them (a line that ends with a distant check mates though drops between are legal). The
    /// position at its end, or the ply where it is not such a line and why.
    pub(super) fn replay_as_mate(
        &mut self,
        pos: &Position,
        line: &[Move],
    ) -> Result<Position, (usize, String)> {
        let mut p = pos.clone();
        for (i, &m) in line.iter().enumerate() {
            play_in_tsume(&mut p, m, self.attacker).map_err(|why| (i + 1, why))?;
        }
        let not_a_mate = || (line.len(), "the line does not end in mate".to_string());
        if p.side_to_move() == self.attacker {
            return Err(not_a_mate());
        }
        let mut replies = MoveList::new();
        generate_legal(&p, &mut replies);
        for &r in replies.iter() {
            if !self.is_useless(&mut p, r) {
                return Err(not_a_mate());
            }
        }
        Ok(p)
    }

    /// Holds the intended `line` from `pos` (the problem, completed) to the rules, with the
    /// report of the problem's own check for the exact length and the main line.
    pub(super) fn intended(&mut self, pos: &Position, line: &[Move], report: &Report) -> Intended {
        let parts_from_main_line_at = (!report.main_line.is_empty())
            .then(|| {
                let same = line
                    .iter()
                    .zip(&report.main_line)
                    .take_while(|(a, b)| a == b)
                    .count();
                (same < line.len().max(report.main_line.len())).then_some(same + 1)
            })
            .flatten();
        let (finding, spare) = match self.replay_as_mate(pos, line) {
            Err((ply, why)) => (IntendedFinding::NotAMate { ply, why }, None),
            Ok(end) => {
                let spare = end.hand(self.attacker);
                let mut finding = self.judge(pos, line, report);
                // A solution is one of the mates the main line was chosen from, the one that
                // leaves the least in hand: leaving more, it is not the main line.
                if let (IntendedFinding::Solution, Some(ply)) = (&finding, parts_from_main_line_at)
                {
                    if spare.total() > report.spare.total() {
                        finding = IntendedFinding::MoreInHand { ply };
                    }
                }
                (finding, Some(spare))
            }
        };
        Intended {
            line: line.to_vec(),
            finding,
            parts_from_main_line_at,
            spare,
        }
    }

    /// The finding for a line of checks that ends in mate.
    fn judge(&mut self, pos: &Position, line: &[Move], report: &Report) -> IntendedFinding {
        if report.status == Status::NoMate {
            // Its first check is refuted; the report names the refutation when it found one.
            let refutation = report
                .refutations
                .iter()
                .find(|(m, _)| *m == line[0])
                .and_then(|(_, r)| *r);
            return match refutation {
                Some(r) if line.get(1) != Some(&r) => IntendedFinding::LongerDefence {
                    ply: 2,
                    plies: None,
                    line: vec![r],
                },
                // The line's own defence refutes its first check: a later one falls short.
                Some(_) => self.later_escape(pos, line),
                None => IntendedFinding::Unknown {
                    ply: Some(2),
                    why: "the problem has no mate, but no refutation of this check was proven"
                        .into(),
                },
            };
        }
        let Some(n) = report.length else {
            return self.forced_at_its_length(pos, line);
        };
        self.judge_exact(pos, line, n, 0)
    }

    /// The finding for `line`, a line of checks that ends in mate from `pos` (attacker to
    /// move), whose exact distance is `n`: each ply held to the distance left there. The plies
    /// the finding names count from `offset` (its first move is ply `offset + 1`), so that a
    /// line from a later position (a variation's) names the plies of the whole record.
    pub(super) fn judge_exact(
        &mut self,
        pos: &Position,
        line: &[Move],
        n: usize,
        offset: usize,
    ) -> IntendedFinding {
        let mut p = pos.clone();
        for (i, &m) in line.iter().enumerate() {
            let here = i + 1;
            let ply = offset + here;
            // The exact distance here, the line having been a solution up to this ply. It
            // stays at 1 or more: the check at distance 1 mates, and nothing follows a mate.
            let Some(value) = (n + 1).checked_sub(here).filter(|&v| v > 0) else {
                return IntendedFinding::Unknown {
                    ply: Some(ply),
                    why: "the line runs past the exact length".into(),
                };
            };
            let value = value as u16;
            let attacker_turn = p.side_to_move() == self.attacker;
            p.do_move(m);
            if attacker_turn {
                // No check mates quicker than `value` plies: this one is the quickest when the
                // defence after it is mated within `value - 1`.
                match self.mates_within(&mut p, value - 1) {
                    Some(true) => {}
                    Some(false) => {
                        p.undo_move(m);
                        return match self.principal(&mut p, value) {
                            Some((line, _)) => IntendedFinding::QuickerMate {
                                ply,
                                plies: value as usize,
                                line,
                            },
                            None => out_of_nodes(Some(ply)),
                        };
                    }
                    None => return out_of_nodes(Some(ply)),
                }
            } else {
                // No defence lasts longer than `value - 1` plies after it: this one is one of
                // the longest unless it is mated within `value - 3`.
                let shorter = if value >= 3 {
                    self.mates_within(&mut p, value - 3)
                } else {
                    Some(false)
                };
                p.undo_move(m);
                match shorter {
                    None => return out_of_nodes(Some(ply)),
                    Some(false) => {
                        if self.is_useless(&mut p, m) {
                            return IntendedFinding::UselessInterposition { ply };
                        }
                    }
                    Some(true) => return self.longest_instead(&mut p, ply, value),
                }
                p.do_move(m);
            }
            if self.aborted {
                return out_of_nodes(Some(ply));
            }
        }
        IntendedFinding::Solution
    }

    /// For a problem without mate whose intended line (a mate) has its first check refuted by
    /// its own first defence: the first later defender turn where the line's defence is mated
    /// and another escapes. The line's position after a defence that escapes has no mate, so
    /// neither has the one after the line's next check: some reply there escapes too. Walking
    /// on, each position after the line's defence is solved until one is a mate (the line ends
    /// in one, so one is); the defence there is the mistake, and a reply that escapes is
    /// named. Each solve has the checker's share of nodes; one that runs out leaves it unknown.
    fn later_escape(&mut self, pos: &Position, line: &[Move]) -> IntendedFinding {
        let mut p = pos.clone();
        p.do_move(line[0]);
        p.do_move(line[1]);
        // `p`: after the line's defence at `ply`, with no mate.
        let mut ply = 2;
        while ply + 2 <= line.len() {
            let (check, defence) = (line[ply], line[ply + 1]);
            p.do_move(check);
            p.do_move(defence);
            let cap = self.share();
            match self.solve_within(&mut p, cap, false) {
                Verdict::NoMate => ply += 2,
                Verdict::Unknown => return out_of_nodes(Some(ply + 2)),
                Verdict::Mate(_) => {
                    p.undo_move(defence);
                    p.undo_move(check);
                    return match self.refutation(&mut p, check, None) {
                        Some(r) => IntendedFinding::LongerDefence {
                            ply: ply + 2,
                            plies: None,
                            line: vec![r],
                        },
                        None => out_of_nodes(Some(ply + 2)),
                    };
                }
            }
        }
        // Not reached for a line that ends in mate: its last defence is mated at once.
        out_of_nodes(None)
    }

    /// Without the problem's exact length, what can still be settled: whether the line is a
    /// forced mate in as many plies as it has, every defence at each of its defender turns
    /// mated within the plies the line leaves there. Those are proofs, which the bounded search
    /// finds far more cheaply than the disproofs an exact length needs. A defence that lasts
    /// longer is named (`LongerDefence` without a length: longer than the line's); when none
    /// does, the line is a `ForcedMate`.
    fn forced_at_its_length(&mut self, pos: &Position, line: &[Move]) -> IntendedFinding {
        let mut p = pos.clone();
        for (i, &m) in line.iter().enumerate() {
            let ply = i + 1;
            if p.side_to_move() != self.attacker {
                let left = (line.len() - i) as u16;
                match self.mates_within(&mut p, left) {
                    Some(true) => {}
                    Some(false) => return self.lasting_longer(&mut p, ply, left),
                    None => return out_of_nodes(Some(ply)),
                }
            }
            p.do_move(m);
        }
        IntendedFinding::ForcedMate
    }

    /// A defence at `p` (the defender to move) that is not mated within `left - 1` plies, for
    /// the ply where the intended line, `left` plies from there, is shown not to be forced.
    fn lasting_longer(&mut self, p: &mut Position, ply: usize, left: u16) -> IntendedFinding {
        let mut replies = MoveList::new();
        generate_legal(p, &mut replies);
        for &r in replies.iter() {
            p.do_move(r);
            let mated = self.mates_within(p, left - 1);
            p.undo_move(r);
            if mated == Some(false) && !self.is_useless(p, r) {
                return IntendedFinding::LongerDefence {
                    ply,
                    plies: None,
                    line: vec![r],
                };
            }
            if self.aborted {
                break;
            }
        }
        out_of_nodes(Some(ply))
    }

    /// A defence at `p` (the defender to move, `value` plies from mate) that is one of the
    /// longest, with a line, for the ply where the intended line's defence is shorter.
    fn longest_instead(&mut self, p: &mut Position, ply: usize, value: u16) -> IntendedFinding {
        let mut replies = MoveList::new();
        generate_legal(p, &mut replies);
        for &r in replies.iter() {
            p.do_move(r);
            let sub = match self.longest_defence(p, value) {
                Some(k) => self.principal(p, k),
                None => None,
            };
            p.undo_move(r);
            if self.aborted {
                break;
            }
            let Some((mut line, _)) = sub else {
                continue;
            };
            if self.is_useless(p, r) {
                continue;
            }
            line.insert(0, r);
            return IntendedFinding::LongerDefence {
                ply,
                plies: Some(value as usize),
                line,
            };
        }
        out_of_nodes(Some(ply))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{check_problem, with_defender_holding_the_rest, CheckLimits};
    use super::*;

    /// Without the exact length, the line's defences are still held to its own length: the
    /// main line is a forced mate in its plies (whether a quicker one exists stays unknown),
    /// and a line whose defence is mated sooner than another is shown a defence that lasts
    /// longer than it, at that ply.
    #[test]
    fn without_the_exact_length_the_defences_are_held_to_the_lines_length() {
        let sfen = "9/5p1k1/5Bl1g/9/9/9/9/9/9 b GSN 1";
        let limits = CheckLimits {
            nodes: 200_000,
            ..CheckLimits::default()
        };
        let full = check_problem(sfen, &limits).unwrap();
        assert_eq!(full.length, Some(5));
        let early = &full.early_mates[0];
        assert_eq!(early.ply, 2);
        // The report as it would be had the exact length run out: no main line, and so no
        // alternatives along one.
        let mut report = full.clone();
        report.length = None;
        report.main_line.clear();
        for alts in report.attacker_alternatives_mut() {
            alts.clear();
        }
        report.equal_variations.clear();
        report.early_mates.clear();
        let pos = with_defender_holding_the_rest(&Position::from_sfen(sfen).unwrap()).unwrap();
        let attacker = pos.side_to_move();
        let mut checker = Checker::new(attacker, 200_000);
        let solution = checker.intended(&pos, &full.main_line, &report);
        assert_eq!(solution.finding, IntendedFinding::ForcedMate);
        let mut short = full.main_line[..early.ply - 1].to_vec();
        short.extend(&early.line);
        let mut checker = Checker::new(attacker, 200_000);
        let wrong = checker.intended(&pos, &short, &report);
        let IntendedFinding::LongerDefence {
            ply: 2,
            plies: None,
            line,
        } = &wrong.finding
        else {
            panic!("{:?}", wrong.finding);
        };
        // A forced line tightens the bound of a report without the exact length, and is told.
        let mut bounded = report.clone();
        bounded.length_at_most = Some((7, Vec::new()));
        super::super::tighten_with_forced_line(&mut bounded, &solution);
        assert_eq!(bounded.length_at_most, Some((5, full.main_line.clone())));
        bounded.length_at_most = Some((3, Vec::new()));
        super::super::tighten_with_forced_line(&mut bounded, &solution);
        assert_eq!(bounded.length_at_most, Some((3, Vec::new())));
        bounded.intended = Some(solution.clone());
        assert!(bounded
            .human(false)
            .contains("作意: a forced mate in its 5 plies"));
        // The defence named is one the line's length does not mate: the main line's is one.
        assert_ne!(line[0], early.mv);
        let mut p = pos.clone();
        p.do_move(full.main_line[0]);
        p.do_move(line[0]);
        let mut checker = Checker::new(attacker, 200_000);
        assert_eq!(
            checker.mates_within(&mut p, early.line.len() as u16 - 1),
            Some(false)
        );
    }
}
