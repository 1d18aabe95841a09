//! The composer's report as a KIF record, so that a GUI steps through it: the main line (n手詰),
//! and each line the report speaks of as a variation (変化) where it leaves the main line: 余詰
//! and the minor flaws with their mating lines, the checks and drops left unsettled, and the
//! intended line (作意) where it is not the main line. The summary that `hayate tsume check`
//! prints is the comment on the start position; each line says what it is on the move it is
//! about (an alternative's own move, the unsettled check or drop at the end of its line).
//!
//! ShogiHome, ShogiGUI and Kifu for Windows read such variations; `hayate tsume check` reads
//! the file back as a problem with the main line as its intended line.

use super::{intended, usi, Alternative, Report, Status};
use crate::kifu::kif::{write_with_variations, Variation};
use crate::kifu::{Ending, GameRecord, RecordedMove};
use crate::mate::{ply_count, verify_tsume_line};
use crate::position::Position;
use crate::types::Move;

impl Report {
    /// The report as KIF text (UTF-8): see the module's comment. `verbose` adds the 早詰 of the
    /// variations, as the summary shows them.
    pub fn kif(&self, verbose: bool) -> Result<String, String> {
        let start = Position::from_sfen(&self.sfen).map_err(|e| e.to_string())?;
        let mut lines = Vec::new();
        // The record's main line: the main line under the rules; else the line within the
        // proven bound; else, for 不詰, the first check with its refutation.
        let refuted: Vec<Vec<Move>> = self
            .refutations
            .iter()
            .map(|(m, r)| std::iter::once(*m).chain(*r).collect())
            .collect();
        let main: Vec<Move> = if !self.main_line.is_empty() {
            self.main_line.clone()
        } else if let Some((_, line)) = &self.length_at_most {
            line.clone()
        } else if self.status == Status::NoMate {
            refuted.first().cloned().unwrap_or_default()
        } else {
            Vec::new()
        };
        if self.main_line.is_empty() && self.status == Status::NoMate {
            for line in refuted.iter().skip(1) {
                lines.push((line.clone(), "不詰: refuted".to_string(), 0));
            }
        }
        let mut sections: Vec<(&str, &[Alternative])> = vec![
            ("余詰", &self.cooks),
            ("最終手余詰 (minor)", &self.last_move_alternatives),
            ("成生非限定 (minor)", &self.promotion_choices),
            ("打ち場所非限定 (minor)", &self.drop_choices),
            (
                "迂回 (a detour back to the main line, not a flaw)",
                &self.detours,
            ),
            ("手順前後 (minor)", &self.transpositions),
            ("変同 (minor)", &self.equal_variations),
        ];
        if verbose {
            sections.push(("早詰 in a variation", &self.early_mates));
        }
        for (title, alts) in sections {
            for a in alts {
                let mut note = format!(
                    "{title} at ply {}: {}",
                    a.ply,
                    a.length
                        .map_or("a longer mate, or a detour".to_string(), |n| format!(
                            "{} to mate",
                            ply_count(n)
                        ))
                );
                if a.unproven_interposition {
                    note.push_str(" (if the drop is a defence)");
                }
                if a.kept_off_the_main_line {
                    note.push_str(super::KEPT_OFF_THE_MAIN_LINE);
                }
                // Alternatives are lines from the position before their ply of the main line.
                let before = &self.main_line[..a.ply.saturating_sub(1).min(self.main_line.len())];
                let line = before.iter().chain(&a.line).copied().collect();
                lines.push((line, note, a.ply.saturating_sub(1)));
            }
        }
        for (drops, note) in [
            (
                &self.unsettled_checks,
                "unsettled: whether this check mates, or whether its mate keeps off the main line",
            ),
            (
                &self.unsettled_drops,
                "unsettled: a drop proven neither a useless interposition nor a defence, taken \
                 for a defence",
            ),
            (
                &self.drops_proven_useless,
                "a drop taken for a defence and proven a useless interposition after the check",
            ),
        ] {
            // Each ends with the check or the drop it is about.
            for line in drops {
                lines.push((line.clone(), note.to_string(), line.len().saturating_sub(1)));
            }
        }
        let mut start_notes: Vec<Vec<String>> =
            vec![self.human(verbose).lines().map(str::to_string).collect()];
        if let Some(i) = &self.intended {
            // Only the legal part of a line given from outside can be written.
            let legal = &i.line[..intended::legal_prefix(&self.sfen, &i.line)];
            let note = format!("作意 ({})", i.brief());
            match branch(&main, legal) {
                Some((ply, _)) => lines.push((legal.to_vec(), note, ply - 1)),
                None => start_notes[0].push(format!("{note}: along the main line")),
            }
        }
        // The record's own variations, each with what the check found of it.
        let jp = self.lines_in_words();
        for v in &self.variations {
            let legal = &v.line[..intended::legal_prefix(&self.sfen, &v.line)];
            if legal.len() >= v.ply {
                let note = format!(
                    "変化 of the record at ply {}: {}",
                    v.ply,
                    self.variation_finding_human(v, &jp)
                );
                lines.push((legal.to_vec(), note, v.ply - 1));
            }
        }
        let mut variations = Vec::new();
        for (line, note, at) in lines {
            let Some((ply, moves)) = branch(&main, &line) else {
                // Along the main line, or past its end, where no variation can branch off.
                start_notes[0].push(format!("{note}: {}", usi(&line)));
                continue;
            };
            let ending = ends_in_mate(&start, &line).then_some(Ending::Mate);
            // The note on the move it is about (a move of the main line's part: the first).
            let mut notes = vec![Vec::new(); at.saturating_sub(ply - 1)];
            notes.push(vec![note]);
            variations.push(Variation {
                ply,
                moves,
                notes,
                ending,
            });
        }
        let mut record = GameRecord::empty();
        record.start_sfen = self.sfen.clone();
        record.event = "hayate tsume check".to_string();
        record.moves = main.iter().map(|&mv| RecordedMove::untimed(mv)).collect();
        record.ending = ends_in_mate(&start, &main).then_some(Ending::Mate);
        write_with_variations(&record, &start_notes, &variations)
    }
}

/// Where `line` (from the start position) leaves `main`: the ply of its first move that is not
/// the main line's, and its moves from there. `None` when it never leaves it (it is the main
/// line, or a part of it) or leaves it only past its end.
fn branch(main: &[Move], line: &[Move]) -> Option<(usize, Vec<Move>)> {
    let k = line.iter().zip(main).take_while(|(a, b)| a == b).count();
    (k < line.len() && k < main.len()).then(|| (k + 1, line[k..].to_vec()))
}

/// Whether `line`, played from `start`, is a mate under the tsume convention: every attacker
/// move a check, and at its end no defence but useless interpositions (so a line can end in
/// 詰み with a drop still legal between a far checker and the king).
fn ends_in_mate(start: &Position, line: &[Move]) -> bool {
    !line.is_empty() && verify_tsume_line(start, line).is_ok()
}
