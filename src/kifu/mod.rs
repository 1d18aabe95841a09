//! Game records: CSA V2.2 and KIF (UTF-8) writers and readers, and Japanese move notation.

pub mod csa;
pub mod japanese;
pub mod kif;

use crate::position::Position;
use crate::types::{Color, Move};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move resigned.
    Resign,
    /// The side to move is checkmated.
    Mate,
    /// Fourfold repetition, a draw.
    Sennichite,
    /// Fourfold repetition under perpetual check by `loser`.
    PerpetualCheck { loser: Color },
    /// The side to move declared a win correctly.
    Declaration,
    /// `loser` declared a win wrongly.
    WrongDeclaration { loser: Color },
    /// `loser` played an illegal move.
    IllegalMove { loser: Color },
    /// `loser` ran out of time.
    TimeUp { loser: Color },
    /// `loser` crashed, hung or broke the protocol.
    Crash { loser: Color },
    /// The maximum game length: a draw.
    MaxMoves,
    /// Adjudicated by score: `loser` lost.
    AdjudicatedLoss { loser: Color },
    /// Adjudicated a draw.
    AdjudicatedDraw,
}

/// The result from Black's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWin,
    WhiteWin,
    Draw,
}

impl Outcome {
    pub fn loss_for(c: Color) -> Outcome {
        match c {
            Color::Black => Outcome::WhiteWin,
            Color::White => Outcome::BlackWin,
        }
    }

    pub fn win_for(c: Color) -> Outcome {
        Outcome::loss_for(!c)
    }
}

impl Ending {
    /// The outcome, given the side to move when the game ended.
    pub fn outcome(self, to_move: Color) -> Outcome {
        match self {
            Ending::Resign | Ending::Mate => Outcome::loss_for(to_move),
            Ending::Declaration => Outcome::win_for(to_move),
            Ending::Sennichite | Ending::MaxMoves | Ending::AdjudicatedDraw => Outcome::Draw,
            Ending::PerpetualCheck { loser }
            | Ending::WrongDeclaration { loser }
            | Ending::IllegalMove { loser }
            | Ending::TimeUp { loser }
            | Ending::Crash { loser }
            | Ending::AdjudicatedLoss { loser } => Outcome::loss_for(loser),
        }
    }

    /// Words for people and logs.
    pub fn describe(self) -> &'static str {
        match self {
            Ending::Resign => "resignation",
            Ending::Mate => "mate",
            Ending::Sennichite => "sennichite",
            Ending::PerpetualCheck { .. } => "perpetual check",
            Ending::Declaration => "entering-king declaration",
            Ending::WrongDeclaration { .. } => "wrong declaration",
            Ending::IllegalMove { .. } => "illegal move",
            Ending::TimeUp { .. } => "time forfeit",
            Ending::Crash { .. } => "engine crash or protocol breach",
            Ending::MaxMoves => "maximum length",
            Ending::AdjudicatedLoss { .. } => "adjudication (score)",
            Ending::AdjudicatedDraw => "adjudication (draw)",
        }
    }
}

/// The ending of a game stopped by repetition, judged from its final position: a perpetual
/// check loses, anything else is a draw.
pub fn repetition_ending(pos: &Position) -> Ending {
    match pos.sennichite() {
        Some(crate::position::Sennichite::LossForSideToMove) => Ending::PerpetualCheck {
            loser: pos.side_to_move(),
        },
        Some(crate::position::Sennichite::WinForSideToMove) => Ending::PerpetualCheck {
            loser: !pos.side_to_move(),
        },
        _ => Ending::Sennichite,
    }
}

/// One move of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedMove {
    pub mv: Move,
    pub time_ms: u64,
    /// Engine score and PV, for the record's comments.
    pub comment: Option<String>,
}

/// A finished (or read back) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub black: String,
    pub white: String,
    pub event: String,
    pub start_time: String,
    pub time_control: String,
    /// The SFEN the game started from.
    pub start_sfen: String,
    pub moves: Vec<RecordedMove>,
    pub ending: Option<Ending>,
}

impl GameRecord {
    /// A record of no game yet, from the start position: what readers fill in.
    pub fn empty() -> GameRecord {
        GameRecord {
            black: String::new(),
            white: String::new(),
            event: String::new(),
            start_time: String::new(),
            time_control: String::new(),
            start_sfen: crate::position::STARTPOS.to_string(),
            moves: Vec::new(),
            ending: None,
        }
    }

    /// The start position with every move played.
    pub fn final_position(&self) -> Result<Position, String> {
        let mut pos = Position::from_sfen(&self.start_sfen).map_err(|e| e.to_string())?;
        for (i, m) in self.moves.iter().enumerate() {
            if !pos.is_legal(m.mv) {
                return Err(format!("move {} ({}) is illegal", i + 1, m.mv));
            }
            pos.do_move(m.mv);
        }
        Ok(pos)
    }

    /// The side to move at the end.
    pub fn side_to_move_at_end(&self) -> Color {
        let start = Position::from_sfen(&self.start_sfen)
            .map(|p| p.side_to_move())
            .unwrap_or(Color::Black);
        if self.moves.len().is_multiple_of(2) {
            start
        } else {
            !start
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.ending.map(|e| e.outcome(self.side_to_move_at_end()))
    }
}
