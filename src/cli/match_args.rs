//! `hayate match`: the arguments of a tournament, and the runner drawn with a progress bar.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{ArgAction, ArgMatches, Args, CommandFactory, FromArgMatches, Parser};

use super::progress::{LineWriter, Progress};
use super::{match_toml, Failure, Outcome};
use crate::arena::engine::EngineConfig;
use crate::arena::game::GameRules;
use crate::arena::stats::{self, Sprt};
use crate::arena::tc::TimeControl;
use crate::arena::{self, MatchConfig, Schedule};
use crate::position::EnteringKingRule;

/// The openings `hayate match` plays when none are given: the balanced positions shipped in
/// `book/openings.sfen`, looked for as the engine looks for its book.
pub const DEFAULT_OPENINGS: &str = "openings.sfen";

/// The arguments of `hayate match` (its help is the doc of `Command::Match`).
#[derive(Clone, Debug, Args)]
#[command(args_override_self = true)]
pub struct MatchArgs {
    /// An engine: cmd=PATH [name=NAME] [dir=DIR] [option.NAME=VALUE ...] [tc=TC] (repeat
    /// --engine for each engine)
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    pub engine: Vec<String>,
    /// The words of each `--engine`, grouped (clap's derive gives them flat: see
    /// [`MatchArgs::from_matches`]).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// Read settings and [[engine]] tables from a TOML file; options after it override the
    /// file's, and engines keep their order
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Games per pair (each opening is played twice, colours swapped)
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub games: u32,
    /// Time control: byoyomi=MS | time=MS,inc=MS | time=MS,byoyomi=MS | time=MS | movetime=MS |
    /// nodes=N | depth=N; tc= inside --engine overrides it
    #[arg(long, value_name = "TC", default_value = "byoyomi=1000", value_parser = TimeControl::parse)]
    pub tc: TimeControl,
    /// The first engine plays each of the others (default: a round robin)
    #[arg(long)]
    pub gauntlet: bool,
    /// Lines of 'sfen ...' / 'startpos moves ...' / handicap names (# comments) [default: the
    /// balanced positions of book/openings.sfen]
    #[arg(long, value_name = "FILE", overrides_with = "handicap")]
    pub openings: Option<PathBuf>,
    /// Start every game from a handicap position (e.g. 2piece)
    #[arg(long, value_name = "NAME", overrides_with = "openings")]
    pub handicap: Option<String>,
    /// Shuffle the openings with this seed
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// After each opening, up to N random board moves that lose nothing by static exchange, new
    /// for each pair of games (both colours start from the same position): a long match at a
    /// fixed node count then plays no game twice
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_plies: usize,
    /// Games at once
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub concurrency: usize,
    /// Keep engine processes between games (default: fresh ones per game)
    #[arg(long)]
    pub reuse: bool,
    /// Write each game as DIR/game-NNNN.csa and .kifu
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Draw after N plies (0: no limit)
    #[arg(long, value_name = "N", default_value_t = GameRules::default().max_plies)]
    pub max_plies: u32,
    /// Time a move may overrun before it loses on time
    #[arg(long, value_name = "MS", default_value_t = GameRules::default().margin_ms)]
    pub margin: u64,
    /// Entering-king rule: CSARule27, CSARule24, TryRule or NoEnteringKing
    #[arg(long, value_name = "RULE", default_value = "CSARule27", value_parser = parse_rule)]
    pub rule: EnteringKingRule,
    /// Adjudicate a loss after N moves at or below -CP (confirmed by the opponent)
    #[arg(long, value_name = "CP,N", value_parser = parse_pair::<i32, u32>)]
    pub resign: Option<(i32, u32)>,
    /// Adjudicate a draw after N plies with both scores within CP
    #[arg(long, value_name = "CP,N", value_parser = parse_pair::<i32, u32>)]
    pub draw: Option<(i32, u32)>,
    /// Stop when the penta-nomial SPRT decides: elo0=E0 elo1=E1 alpha=A beta=B
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,
}

impl MatchArgs {
    /// The arguments from clap's matches, with the words of each `--engine` kept together.
    ///
    /// # Errors
    /// clap's, for a value that does not parse.
    pub fn from_matches(m: &ArgMatches) -> Result<MatchArgs, clap::Error> {
        let mut a = MatchArgs::from_arg_matches(m)?;
        a.engines = m
            .get_occurrences::<String>("engine")
            .map(|groups| groups.map(|g| g.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(a)
    }
}

/// Reads `hayate match` arguments (after `match`) with clap.
fn parse_line(args: impl IntoIterator<Item = String>) -> Result<MatchArgs, clap::Error> {
    let words = std::iter::once("hayate match".to_string()).chain(args);
    let m = MatchLine::command().try_get_matches_from(words)?;
    MatchArgs::from_matches(&m)
}

/// `hayate match`'s arguments alone, for reading them again with a `--config` file spliced in.
#[derive(Debug, Parser)]
#[command(name = "hayate match", args_override_self = true)]
struct MatchLine {
    #[command(flatten)]
    args: MatchArgs,
}

fn parse_rule(text: &str) -> Result<EnteringKingRule, String> {
    EnteringKingRule::from_usi(text)
        .ok_or_else(|| "takes NoEnteringKing, CSARule24, CSARule27 or TryRule".into())
}

fn parse_pair<A: std::str::FromStr, B: std::str::FromStr>(text: &str) -> Result<(A, B), String> {
    let (a, b) = text.split_once(',').ok_or("takes CP,N")?;
    match (a.parse(), b.parse()) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(_), _) => Err(format!("'{a}' is not a score")),
        (_, Err(_)) => Err(format!("'{b}' is not a count")),
    }
}

/// Parses `hayate match` arguments (after `match`), the `--config` file spliced in where it is
/// named. No default openings: see [`parse_with_default_openings`].
///
/// # Errors
/// clap's message for bad usage, or ours for a bad engine, SPRT or configuration file.
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let a = parse_line(args.iter().cloned()).map_err(|e| e.to_string())?;
    with_config_file(a, args).and_then(config)
}

/// [`parse`], then the shipped openings (`book/openings.sfen`) when neither `--openings` nor
/// `--handicap` chose a start, so every match starts from real shogi. Without that file,
/// games start from the start position.
///
/// # Errors
/// As [`parse`], and an openings file that cannot be read.
pub fn parse_with_default_openings(args: &[String]) -> Result<MatchConfig, String> {
    with_default_openings(parse(args)?)
}

fn with_default_openings(mut cfg: MatchConfig) -> Result<MatchConfig, String> {
    if cfg.openings.is_empty() {
        let path = crate::book::resolve("book", DEFAULT_OPENINGS);
        if path.is_file() {
            cfg.openings = read_openings(&path)?;
        }
    }
    Ok(cfg)
}

/// With `--config FILE`: the file's settings as arguments in its place, read again. A file
/// cannot name another, so this happens once.
fn with_config_file(a: MatchArgs, raw: &[String]) -> Result<MatchArgs, String> {
    let Some(path) = &a.config else {
        return Ok(a);
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read configuration {}: {e}", path.display()))?;
    let from_file = match_toml::to_args(&text)?;
    let (at, len) = raw
        .iter()
        .enumerate()
        .find_map(|(i, w)| match w.as_str() {
            "--config" => Some((i, 2)),
            w if w.starts_with("--config=") => Some((i, 1)),
            _ => None,
        })
        .ok_or("--config given but not found")?;
    let mut spliced: Vec<String> = raw[..at].to_vec();
    spliced.extend(from_file);
    spliced.extend(raw[(at + len).min(raw.len())..].iter().cloned());
    parse_line(spliced).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_openings(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    Ok(opening_lines(&text))
}

/// The opening lines of an `--openings` file's text: blank lines and `#` comments left out.
/// Each is read by `Position::from_usi` when the match is checked.
pub fn opening_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The match the arguments describe.
fn config(a: MatchArgs) -> Result<MatchConfig, String> {
    let engines = a
        .engines
        .iter()
        .map(|words| EngineConfig::parse(&words.iter().map(String::as_str).collect::<Vec<_>>()))
        .collect::<Result<Vec<_>, _>>()?;
    let openings = match (&a.openings, &a.handicap) {
        (Some(file), _) => read_openings(file)?,
        (None, Some(name)) => vec![name.clone()],
        (None, None) => Vec::new(),
    };
    let sprt = match &a.sprt {
        Some(words) => Some(Sprt::parse(
            &words.iter().map(String::as_str).collect::<Vec<_>>(),
        )?),
        None => None,
    };
    Ok(MatchConfig {
        engines,
        schedule: if a.gauntlet {
            Schedule::Gauntlet
        } else {
            Schedule::RoundRobin
        },
        games: a.games,
        tc: a.tc,
        rules: GameRules {
            entering_king: a.rule,
            max_plies: a.max_plies,
            margin_ms: a.margin,
            resign: a.resign,
            draw: a.draw,
            ..GameRules::default()
        },
        concurrency: a.concurrency,
        reuse: a.reuse,
        openings,
        shuffle_seed: a.seed,
        random_plies: a.random_plies,
        out: a.out,
        sprt,
    })
}

/// Runs `hayate match`: the per-game lines and the summary on stdout (scripts read them), and
/// on a terminal a bar on stderr with the score and Elo so far.
pub fn run(a: MatchArgs, raw: &[OsString]) -> Outcome {
    let raw: Vec<String> = raw
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let cfg = with_config_file(a, &raw)
        .and_then(config)
        .and_then(with_default_openings)?;
    let n = cfg.engines.len();
    let pairs = match cfg.schedule {
        Schedule::Gauntlet => n.saturating_sub(1),
        Schedule::RoundRobin => n * n.saturating_sub(1) / 2,
    };
    let progress = Progress::bar_only("match", "games", pairs as u64 * u64::from(cfg.games));
    let mut out = LineWriter::new(&progress);
    arena::run_reporting(&cfg, &mut out, &|p| {
        let (elo, margin) = stats::elo_with_error(&p.pair.wld);
        progress.set_total(p.total as u64);
        progress.update(
            p.done as u64,
            &format!(
                "{} vs {}: {}-{}-{}, Elo {elo:+.0} +/- {margin:.0}",
                p.names.0, p.names.1, p.pair.wld.wins, p.pair.wld.losses, p.pair.wld.draws
            ),
        );
    })
    .map_err(Failure::Input)?;
    progress.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn engines_are_groups_of_key_values() {
        let cfg = parse(&words(
            "--engine cmd=a name=x option.Hash=64 tc=depth=3 --engine cmd=b --games 4 \
             --gauntlet --resign 3000,4 --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --reuse",
        ))
        .unwrap();
        assert_eq!(cfg.engines.len(), 2);
        assert_eq!(cfg.engines[0].name, "x");
        assert_eq!(cfg.engines[0].options, vec![("Hash".into(), "64".into())]);
        assert_eq!(cfg.engines[1].name, "b");
        assert_eq!(cfg.games, 4);
        assert_eq!(cfg.schedule, Schedule::Gauntlet);
        assert_eq!(cfg.rules.resign, Some((3000, 4)));
        assert!(cfg.sprt.is_some() && cfg.reuse);
        assert!(cfg.openings.is_empty());
    }

    #[test]
    fn bad_arguments_are_named() {
        for (args, says) in [
            ("--frobnicate", "--frobnicate"),
            ("--tc byoyomi=fast", "--tc"),
            ("--engine name=x", "cmd=PATH"),
            ("--resign 3000", "--resign"),
            ("--rule Sometimes", "--rule"),
            ("--sprt elo0=0", "--sprt"),
        ] {
            let e = parse(&words(args)).unwrap_err();
            assert!(e.contains(says), "{args}: {e}");
        }
    }

    #[test]
    fn a_configuration_file_is_spliced_in_where_it_is_named() {
        let dir = std::env::temp_dir().join(format!("hayate-match-toml-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("match.toml");
        std::fs::write(
            &file,
            "games = 20\nmax_plies = 256\n[[engine]]\ncmd = \"b\"\n[[engine]]\ncmd = \"c\"\n",
        )
        .unwrap();
        let f = file.to_str().unwrap();
        let cfg = parse(&words(&format!(
            "--engine cmd=a --games 6 --config {f} --engine cmd=d --max-plies 100"
        )))
        .unwrap();
        let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "d"]);
        // The file's games override the earlier --games; the later --max-plies overrides it.
        assert_eq!(cfg.games, 20);
        assert_eq!(cfg.rules.max_plies, 100);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
