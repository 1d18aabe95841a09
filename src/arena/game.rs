//! One game between two USI engines, with every rule applied by the position core.

use std::time::{Duration, Instant};

use super::engine::{UsiProcess, WaitError};
use super::tc::{go_command, TimeControl};
use crate::kifu::{Ending, GameRecord, RecordedMove};
use crate::position::{EnteringKingRule, Position, Sennichite};
use crate::types::Move;

/// The rules and limits of a game.
#[derive(Clone, Debug)]
pub struct GameRules {
    pub entering_king: EnteringKingRule,
    /// Plies after which the game is a draw (0: no limit).
    pub max_plies: u32,
    /// How far past its allowance a move may go before it loses on time.
    pub margin_ms: u64,
    /// Resign adjudication: a side whose engine scores at most `-cp` for `moves` moves in a row,
    /// confirmed by the opponent's score, loses. `None` to disable.
    pub resign: Option<(i32, u32)>,
    /// Draw adjudication after this many plies with both scores within ±`cp`. `None` to disable.
    pub draw: Option<(i32, u32)>,
    /// How long a move under a node or depth limit may take before the engine counts as hung.
    pub hang_ms: u64,
}

impl Default for GameRules {
    fn default() -> GameRules {
        GameRules {
            entering_king: EnteringKingRule::Csa27,
            max_plies: 320,
            margin_ms: 1000,
            resign: None,
            draw: None,
            hang_ms: 60_000,
        }
    }
}

/// The last score an engine reported, in centipawns from its own view (mates as ±30000).
fn last_score(lines: &[String]) -> Option<i32> {
    let mut score = None;
    for l in lines.iter().filter(|l| l.starts_with("info ")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        if let Some(i) = w.iter().position(|&x| x == "score") {
            match (w.get(i + 1), w.get(i + 2)) {
                (Some(&"cp"), Some(v)) => score = v.parse().ok(),
                (Some(&"mate"), Some(v)) => {
                    score = Some(if v.starts_with('-') { -30000 } else { 30000 })
                }
                _ => {}
            }
        }
    }
    score
}

fn last_pv_comment(lines: &[String]) -> Option<String> {
    let l = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info ") && l.contains(" score "))?;
    let w: Vec<&str> = l.split_whitespace().collect();
    let i = w.iter().position(|&x| x == "score")?;
    let score = match (w.get(i + 1), w.get(i + 2)) {
        (Some(&"cp"), Some(v)) => v.to_string(),
        (Some(&"mate"), Some(v)) => format!("mate{v}"),
        _ => return None,
    };
    let pv = l.split(" pv ").nth(1).unwrap_or("");
    Some(format!("{score} {pv}").trim().to_string())
}

/// Plays one game from `start` (an SFEN with optional `moves`) and returns its record. The
/// engines are indexed by colour. An engine that crashes or hangs is left dead for the caller
/// to restart.
pub fn play(
    engines: [&mut UsiProcess; 2],
    tcs: [TimeControl; 2],
    start_sfen: &str,
    opening: &[Move],
    rules: &GameRules,
) -> GameRecord {
    let [black, white] = engines;
    let mut engines = [black, white];
    let mut pos = Position::from_sfen(start_sfen).expect("openings are checked before the match");
    let mut moves: Vec<RecordedMove> = Vec::new();
    for &m in opening {
        pos.do_move(m);
        moves.push(RecordedMove {
            mv: m,
            time_ms: 0,
            comment: Some("opening".into()),
        });
    }
    let mut remaining = [tcs[0].initial(), tcs[1].initial()];
    let mut low_streak = [0u32; 2];
    let mut draw_streak = 0u32;
    let mut last_scores = [None::<i32>; 2];
    // The reply each engine is pondering on, if it is.
    let mut pondering = [None::<Move>; 2];
    let start_ply = pos.game_ply();
    let names = [engines[0].name.clone(), engines[1].name.clone()];
    let mut record = GameRecord {
        black: names[0].clone(),
        white: names[1].clone(),
        event: "hayate match".into(),
        start_time: now_text(),
        time_control: if tcs[0] == tcs[1] {
            tcs[0].to_string()
        } else {
            format!("{} / {}", tcs[0], tcs[1])
        },
        start_sfen: Position::from_sfen(start_sfen)
            .map(|p| p.to_sfen())
            .unwrap_or_default(),
        moves: Vec::new(),
        ending: None,
    };
    for e in engines.iter_mut() {
        if e.new_game().is_err() {
            // Handled below: the first `go` to a dead engine ends the game as a crash.
        }
    }
    let ending = loop {
        let side = pos.side_to_move();
        let c = side.index();
        if crate::movegen::count_legal(&pos) == 0 {
            break Ending::Mate;
        }
        if rules.max_plies > 0 && pos.game_ply() - start_ply >= rules.max_plies {
            break Ending::MaxMoves;
        }
        let engine = &mut engines[c];
        // A pondering engine whose guess was the move just played goes on with `ponderhit`;
        // a wrong guess is stopped and its answer thrown away, as a GUI does.
        let guessed = pondering[c].take();
        if guessed.is_some() && guessed == moves.last().map(|m| m.mv) {
            if engine.send("ponderhit").is_err() {
                break Ending::Crash { loser: side };
            }
        } else {
            if guessed.is_some() && stop_pondering(engine, rules).is_err() {
                break Ending::Crash { loser: side };
            }
            let position_cmd = position_command(&record.start_sfen, moves.iter().map(|m| m.mv));
            let go = go_command(tcs, remaining, c);
            if engine.send(&position_cmd).is_err() || engine.send(&go).is_err() {
                break Ending::Crash { loser: side };
            }
        }
        let started = Instant::now();
        let allowance = tcs[c].allowance(remaining[c]);
        let wait = allowance
            .unwrap_or(rules.hang_ms)
            .saturating_add(rules.margin_ms);
        // A huge time control means no deadline to speak of: a year.
        let deadline = started
            .checked_add(Duration::from_millis(wait))
            .unwrap_or_else(|| started + Duration::from_secs(365 * 86_400));
        let lines = match engine.wait_for(|l| l.starts_with("bestmove"), deadline) {
            Ok(lines) => lines,
            Err(WaitError::Timeout) => {
                engine.kill();
                break if allowance.is_some() {
                    Ending::TimeUp { loser: side }
                } else {
                    Ending::Crash { loser: side }
                };
            }
            Err(WaitError::Closed) => break Ending::Crash { loser: side },
        };
        let used = started.elapsed().as_millis() as u64;
        if let Some(a) = allowance {
            if used > a.saturating_add(rules.margin_ms) {
                break Ending::TimeUp { loser: side };
            }
        }
        remaining[c] = tcs[c].after_move(remaining[c], used);
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("")
            .to_string();
        match best.as_str() {
            "resign" => break Ending::Resign,
            "win" => {
                if pos.can_declare_win(rules.entering_king) {
                    break Ending::Declaration;
                }
                break Ending::WrongDeclaration { loser: side };
            }
            _ => {}
        }
        let Ok(m) = pos.parse_usi_move(&best) else {
            break Ending::IllegalMove { loser: side };
        };
        pos.do_move(m);
        moves.push(RecordedMove {
            mv: m,
            time_ms: used,
            comment: last_pv_comment(&lines),
        });
        if engines[c].ponder {
            // Think on the opponent's time about the reply the engine expects.
            let guess = lines
                .last()
                .and_then(|l| l.split_whitespace().skip_while(|&w| w != "ponder").nth(1))
                .and_then(|g| pos.parse_usi_move(g).ok());
            if let Some(g) = guess {
                let cmd = position_command(
                    &record.start_sfen,
                    moves.iter().map(|m| m.mv).chain(std::iter::once(g)),
                );
                let go = go_command(tcs, remaining, c).replacen("go", "go ponder", 1);
                if engines[c].send(&cmd).is_ok() && engines[c].send(&go).is_ok() {
                    pondering[c] = Some(g);
                }
            }
        }
        if let Some(s) = pos.sennichite() {
            break match s {
                Sennichite::Draw => Ending::Sennichite,
                // The side to move now is the one that did not just move.
                Sennichite::WinForSideToMove => Ending::PerpetualCheck { loser: side },
                Sennichite::LossForSideToMove => Ending::PerpetualCheck { loser: !side },
            };
        }
        // Adjudication by score.
        last_scores[c] = last_score(&lines);
        if let Some((cp, n)) = rules.resign {
            if let (Some(me), Some(them)) = (last_scores[c], last_scores[1 - c]) {
                // Scores and limits come from outside: `-cp` saturates.
                if me <= cp.saturating_neg() && them >= cp {
                    low_streak[c] += 1;
                } else {
                    low_streak[c] = 0;
                }
                if low_streak[c] >= n {
                    break Ending::AdjudicatedLoss { loser: side };
                }
            }
        }
        if let Some((cp, n)) = rules.draw {
            if last_scores
                .iter()
                .all(|s| s.is_some_and(|v| v.saturating_abs() <= cp))
            {
                draw_streak += 1;
                if draw_streak >= n {
                    break Ending::AdjudicatedDraw;
                }
            } else {
                draw_streak = 0;
            }
        }
    };
    // An engine still pondering is stopped, so that a reused process starts the next game idle.
    for (c, e) in engines.iter_mut().enumerate() {
        if pondering[c].is_some() {
            let _ = stop_pondering(e, rules);
        }
    }
    record.moves = moves;
    record.ending = Some(ending);
    record
}

/// `position sfen ... moves ...` for the game so far.
fn position_command(start_sfen: &str, moves: impl Iterator<Item = Move>) -> String {
    let mut cmd = format!("position sfen {start_sfen}");
    for (i, m) in moves.enumerate() {
        cmd.push_str(if i == 0 { " moves " } else { " " });
        cmd.push_str(&m.to_string());
    }
    cmd
}

/// Stops a ponder search and waits for its `bestmove`, which is thrown away. An engine that does
/// not answer `stop` within the margin counts as hung.
fn stop_pondering(engine: &mut UsiProcess, rules: &GameRules) -> Result<(), WaitError> {
    engine.send("stop").map_err(|_| WaitError::Closed)?;
    let deadline = Instant::now() + Duration::from_millis(rules.margin_ms.max(1000));
    engine
        .wait_for(|l| l.starts_with("bestmove"), deadline)
        .map(|_| ())
}

/// Local time as `YYYY/MM/DD HH:MM:SS` (UTC; the standard library has no time zones).
pub fn now_text() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = secs / 86400;
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}/{m:02}/{d:02} {:02}:{:02}:{:02}",
        secs / 3600 % 24,
        secs / 60 % 60,
        secs % 60
    )
}

/// Days since 1970-01-01 to a calendar date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
    }

    #[test]
    fn scores_from_info_lines() {
        let lines = vec![
            "info depth 3 score cp 120 pv 7g7f".to_string(),
            "info depth 4 score mate -3 pv 1a1b".to_string(),
            "bestmove 7g7f".to_string(),
        ];
        assert_eq!(last_score(&lines), Some(-30000));
        assert_eq!(last_pv_comment(&lines).as_deref(), Some("mate-3 1a1b"));
    }
}
