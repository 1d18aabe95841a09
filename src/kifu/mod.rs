//! Game records: CSA V2.2, KIF and KI2 writers and readers, and Japanese move notation.
//! Readers take UTF-8 or Shift_JIS bytes (see [`decode`]), as the GUIs write them.

pub mod csa;
pub mod japanese;
pub mod ki2;
pub mod kif;

use crate::position::Position;
use crate::types::{Color, Move};

/// The record formats the readers know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csa,
    Kif,
    Ki2,
}

impl Format {
    /// The format a file name's extension names: `.csa`, `.kif`/`.kifu`, `.ki2`/`.ki2u`.
    pub fn from_extension(ext: &str) -> Option<Format> {
        match ext.to_ascii_lowercase().as_str() {
            "csa" => Some(Format::Csa),
            "kif" | "kifu" => Some(Format::Kif),
            "ki2" | "ki2u" => Some(Format::Ki2),
            _ => None,
        }
    }

    /// The format a record's text looks like, for files whose name says nothing (`.txt`,
    /// stdin): KIF has its move list header, KI2 its lines of `▲`/`△` moves, CSA its `V2`,
    /// `PI` or `+7776FU` lines; a board diagram alone (BOD) is read as KIF. Anything else (an
    /// opening line like `startpos moves ...`) is no record format.
    pub fn sniff(text: &str) -> Option<Format> {
        let lines = || {
            text.lines()
                .map(|l| l.trim().trim_start_matches('\u{feff}'))
        };
        if lines().any(|l| l.starts_with("手数----") || l.starts_with("手数＝")) {
            return Some(Format::Kif);
        }
        if lines().any(|l| l.starts_with(['▲', '△', '☗', '☖'])) {
            return Some(Format::Ki2);
        }
        // A board diagram alone (BOD): KIF's header without its move list.
        if lines().any(|l| {
            [
                "後手の持駒：",
                "先手の持駒：",
                "上手の持駒：",
                "下手の持駒：",
            ]
            .iter()
            .any(|k| l.starts_with(k))
        }) {
            return Some(Format::Kif);
        }
        let csa_move = |l: &str| {
            let b = l.as_bytes();
            b.len() >= 7 && (b[0] == b'+' || b[0] == b'-') && b[1..5].iter().all(u8::is_ascii_digit)
        };
        if lines().any(|l| l.starts_with("V2") || l == "PI" || l.starts_with("P1") || csa_move(l)) {
            return Some(Format::Csa);
        }
        None
    }

    /// Reads one record of this format.
    pub fn read(self, text: &str) -> Result<GameRecord, String> {
        match self {
            Format::Csa => csa::read(text),
            Format::Kif => kif::read(text),
            Format::Ki2 => ki2::read(text),
        }
    }
}

/// A record file's text. UTF-8 (with or without a byte-order mark) is taken as it is; anything
/// else is decoded as Shift_JIS (Windows code page 932), which ShogiGUI, Kifu for Windows and
/// 81Dojo write `.kif` and `.ki2` files in. Bytes that are neither are refused, not guessed.
pub fn decode(bytes: &[u8]) -> Result<String, String> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok(s.to_string());
    }
    let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
    if had_errors {
        return Err("the record is neither UTF-8 nor Shift_JIS text".into());
    }
    Ok(text.into_owned())
}

/// `text` in Shift_JIS, for `.kif` and `.ki2` files that GUIs read in that encoding; a
/// character Shift_JIS lacks is refused rather than written as an entity.
pub fn encode_shift_jis(text: &str) -> Result<Vec<u8>, String> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
    if unmappable {
        return Err("the record has characters Shift_JIS cannot write".into());
    }
    Ok(bytes.into_owned())
}

/// Saves a KIF or KI2 record's `text` (as the writers give it, in UTF-8) to `path`, in the
/// encoding GUIs expect of the file's extension: Shift_JIS for `.kif` and `.ki2` (ShogiGUI and
/// Shogidokoro read nothing else there, and ShogiHome goes by the extension too), UTF-8 for
/// `.kifu`, `.ki2u` and anything else. A character Shift_JIS lacks (a player's name read from
/// a UTF-8 record, say) is written as `?` rather than losing the file, which may hold an hour
/// of analysis; the answer is how many were, for the caller to say so.
pub fn save(path: &std::path::Path, text: &str) -> Result<usize, String> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let kif = ext.eq_ignore_ascii_case("kif");
    let (bytes, replaced) = if kif || ext.eq_ignore_ascii_case("ki2") {
        let mut replaced = 0;
        let text: String = text
            .chars()
            .map(|c| {
                let mut one = [0u8; 4];
                if encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut one)).2 {
                    replaced += 1;
                    '?'
                } else {
                    c
                }
            })
            .collect();
        let bytes = if kif {
            kif::to_shift_jis(&text)?
        } else {
            encode_shift_jis(&text)?
        };
        (bytes, replaced)
    } else {
        (text.as_bytes().to_vec(), 0)
    };
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(replaced)
}

/// The warning for a record that [`save`] wrote with `replaced` characters as `?`, if any.
pub fn save_warning(path: &std::path::Path, replaced: usize) -> Option<String> {
    (replaced > 0).then(|| {
        format!(
            "{}: {replaced} character(s) that Shift_JIS lacks written as '?' (a .kifu file keeps them)",
            path.display()
        )
    })
}

/// Reads a record file's text, decoded by [`decode`].
pub fn read_text(path: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

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

impl RecordedMove {
    /// A move as a record without times or comments gives it.
    pub fn untimed(mv: Move) -> RecordedMove {
        RecordedMove {
            mv,
            time_ms: 0,
            comment: None,
        }
    }
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
