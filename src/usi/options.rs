//! The engine options, named as YaneuraOu names them so that GUIs and users find them.

use crate::book::BookOptions;
use crate::eval::nnue::Network;
use crate::position::EnteringKingRule;
use crate::search::{SearchOptions, TimeOptions};

/// The values of every option.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub ponder: bool,
    pub search: SearchOptions,
    pub book: BookOptions,
    /// Whether the neural net evaluates (`UseNNUE`); otherwise the hand-written evaluation.
    pub use_nnue: bool,
    /// `EvalFile`: a net file of the shipped architecture, or [`INTERNAL_NET`].
    pub eval_file: String,
    /// The net `EvalFile` names, once read.
    pub net: std::sync::Arc<Network>,
}

/// The `EvalFile` value that means the net compiled into the binary.
pub const INTERNAL_NET: &str = "<internal>";

/// Whether the net evaluates unless `UseNNUE` says otherwise.
pub const USE_NNUE_BY_DEFAULT: bool = true;

pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(4)
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 256,
            ponder: false,
            search: SearchOptions {
                threads: default_threads(),
                ..SearchOptions::default()
            },
            book: BookOptions::default(),
            use_nnue: USE_NNUE_BY_DEFAULT,
            eval_file: INTERNAL_NET.to_string(),
            net: Network::shipped(),
        }
        .with_evaluation()
    }
}

/// The `option` lines `usi` prints.
pub fn declarations() -> Vec<String> {
    let d = Options::default();
    let t = TimeOptions::default();
    let b = &d.book;
    let check = |name: &str, def: bool| format!("option name {name} type check default {def}");
    let spin = |name: &str, def: i64, min: i64, max: i64| {
        format!("option name {name} type spin default {def} min {min} max {max}")
    };
    vec![
        spin("USI_Hash", d.hash_mb as i64, 1, 65536),
        "option name USI_Ponder type check default false".into(),
        spin("Threads", d.search.threads as i64, 1, 256),
        spin("MultiPV", 1, 1, 800),
        spin("NetworkDelay", t.network_delay as i64, 0, 10000),
        spin("NetworkDelay2", t.network_delay2 as i64, 0, 10000),
        spin("MinimumThinkingTime", t.minimum_thinking_time as i64, 0, 60000),
        spin("SlowMover", t.slow_mover as i64, 1, 1000),
        spin("MaxMovesToDraw", 0, 0, 100000),
        "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule27 var TryRule".into(),
        spin("DrawValueBlack", -2, -30000, 30000),
        spin("DrawValueWhite", -2, -30000, 30000),
        spin("ResignValue", 99999, 0, 99999),
        check("USI_OwnBook", b.own_book),
        // A combo lists the usual names for GUIs; any file name is accepted.
        format!(
            "option name BookFile type combo default {} var no_book var hayate_book.db var standard_book.db var user_book1.db var book.bin",
            b.file
        ),
        format!("option name BookDir type string default {}", b.dir),
        spin("BookMoves", b.moves as i64, 0, 10000),
        spin("BookIgnoreRate", b.ignore_rate as i64, 0, 100),
        check("NarrowBook", b.narrow),
        spin("BookEvalDiff", b.eval_diff as i64, 0, 99999),
        spin("BookEvalBlackLimit", b.eval_limit[0] as i64, -99999, 99999),
        spin("BookEvalWhiteLimit", b.eval_limit[1] as i64, -99999, 99999),
        spin("BookDepthLimit", b.depth_limit as i64, 0, 99999),
        check("IgnoreBookPly", b.ignore_ply),
        check("FlippedBook", b.flipped),
        check("ConsiderBookMoveCount", b.consider_count),
        check("UseNNUE", d.use_nnue),
        format!("option name EvalFile type string default {INTERNAL_NET}"),
    ]
}

impl Options {
    /// The search evaluates with the net when `UseNNUE` is on.
    fn with_evaluation(mut self) -> Options {
        self.search.net = self.use_nnue.then(|| self.net.clone());
        self
    }

    /// Applies `setoption name <name> value <value>`. Errors are the text of an `info string`;
    /// on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let number = |min: i64, max: i64| -> Result<i64, String> {
            let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
            let n: i64 = v
                .trim()
                .parse()
                .map_err(|_| format!("option {name}: '{v}' is not a number"))?;
            if n < min || n > max {
                return Err(format!("option {name}: {n} is outside {min}..{max}"));
            }
            Ok(n)
        };
        let check = || -> Result<bool, String> {
            match value.map(str::trim) {
                Some("true") => Ok(true),
                Some("false") => Ok(false),
                other => Err(format!(
                    "option {name}: '{}' is not true or false",
                    other.unwrap_or("")
                )),
            }
        };
        let s = &mut self.search;
        match name {
            "USI_Hash" | "Hash" => self.hash_mb = number(1, 65536)? as usize,
            "USI_Ponder" => self.ponder = check()?,
            "Threads" | "NumberOfThreads" => s.threads = number(1, 256)? as usize,
            "MultiPV" | "USI_MultiPV" => s.multipv = number(1, 800)? as usize,
            "NetworkDelay" => s.time.network_delay = number(0, 10000)? as u64,
            "NetworkDelay2" => s.time.network_delay2 = number(0, 10000)? as u64,
            "MinimumThinkingTime" => s.time.minimum_thinking_time = number(0, 60000)? as u64,
            "SlowMover" => s.time.slow_mover = number(1, 1000)? as u64,
            "MaxMovesToDraw" => s.max_moves_to_draw = number(0, 100000)? as u32,
            "EnteringKingRule" => {
                let v = value.unwrap_or("");
                s.entering_king_rule = EnteringKingRule::from_usi(v.trim())
                    .ok_or_else(|| format!("option EnteringKingRule: unknown rule '{v}'"))?;
            }
            "DrawValueBlack" => s.draw_value[0] = number(-30000, 30000)? as i32,
            "DrawValueWhite" => s.draw_value[1] = number(-30000, 30000)? as i32,
            "ResignValue" => s.resign_value = number(0, 99999)? as i32,
            "USI_OwnBook" | "OwnBook" => self.book.own_book = check()?,
            "BookFile" => self.book.file = value.unwrap_or("").trim().to_string(),
            "BookDir" => self.book.dir = value.unwrap_or("").trim().to_string(),
            "BookMoves" => self.book.moves = number(0, 10000)? as u32,
            "BookIgnoreRate" => self.book.ignore_rate = number(0, 100)? as u32,
            "NarrowBook" => self.book.narrow = check()?,
            "BookEvalDiff" => self.book.eval_diff = number(0, 99999)? as i32,
            "BookEvalBlackLimit" => self.book.eval_limit[0] = number(-99999, 99999)? as i32,
            "BookEvalWhiteLimit" => self.book.eval_limit[1] = number(-99999, 99999)? as i32,
            "BookDepthLimit" => self.book.depth_limit = number(0, 99999)? as i32,
            "IgnoreBookPly" => self.book.ignore_ply = check()?,
            "FlippedBook" => self.book.flipped = check()?,
            "ConsiderBookMoveCount" => self.book.consider_count = check()?,
            "UseNNUE" => self.use_nnue = check()?,
            // Hidden options for tuning matches: every search parameter by name.
            p if p.starts_with("Param_") => {
                let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
                s.params.set(&p["Param_".len()..], v)?;
            }
            "EvalFile" => {
                let file = value.unwrap_or("").trim();
                self.net = if file.is_empty() || file == INTERNAL_NET {
                    Network::shipped()
                } else {
                    std::sync::Arc::new(
                        Network::load(file).map_err(|e| format!("option EvalFile: {e}"))?,
                    )
                };
                self.eval_file = file.to_string();
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        self.search.net = self.use_nnue.then(|| self.net.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_and_rejecting() {
        let mut o = Options::default();
        o.set("USI_Hash", Some("64")).unwrap();
        assert_eq!(o.hash_mb, 64);
        assert!(o.set("USI_Hash", Some("lots")).is_err());
        assert!(o.set("USI_Hash", Some("0")).is_err());
        assert_eq!(o.hash_mb, 64);
        o.set("EnteringKingRule", Some("CSARule24")).unwrap();
        assert_eq!(o.search.entering_king_rule, EnteringKingRule::Csa24);
        assert!(o.set("EnteringKingRule", Some("Whatever")).is_err());
        assert!(o.set("NoSuchOption", Some("1")).is_err());
        o.set("USI_Ponder", Some("true")).unwrap();
        assert!(o.ponder);
        o.set("UseNNUE", Some("true")).unwrap();
        assert!(o.search.net.is_some());
        assert!(o.set("EvalFile", Some("/no/such/net.nnue")).is_err());
        assert!(o.search.net.is_some());
        o.set("UseNNUE", Some("false")).unwrap();
        assert!(o.search.net.is_none());
    }
}
