//! Learning from games: `hayate selfplay`, `hayate train` (the NNUE), and the older fits of
//! the hand-written evaluation, `hayate tune` and `hayate learn`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::progress::Progress;
use super::{Failure, Outcome};
use crate::eval::nnue::Network;
use crate::eval::{learn as kp_learn, tune as weights_tune, DEFAULT};
use crate::selfplay::{self, Report};
use crate::trainer::{self, data, FloatNet};

#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The self-play file to write (resumed where it stopped); with --export, the output
    #[arg(long, value_name = "FILE", default_value = "selfplay.hsp")]
    pub out: String,
    /// Games the file should hold
    #[arg(long, value_name = "N", default_value_t = selfplay::Options::default().games)]
    pub games: usize,
    /// Nodes per move
    #[arg(long, value_name = "N", default_value_t = selfplay::Options::default().nodes)]
    pub nodes: u64,
    /// Games played at once
    #[arg(long, value_name = "N", default_value_t = selfplay::Options::default().threads)]
    pub threads: usize,
    /// Lines of 'sfen ...' / 'startpos moves ...' / bare SFENs / handicap names
    #[arg(long, value_name = "FILE", default_value = "book/openings.sfen")]
    pub openings: String,
    /// Random board moves (losing nothing by exchange) after the opening, up to N
    #[arg(long, value_name = "N", default_value_t = selfplay::Options::default().random_plies)]
    pub random_plies: usize,
    /// A game longer than N plies is a draw
    #[arg(long, value_name = "N", default_value_t = selfplay::Options::default().max_plies)]
    pub max_plies: usize,
    /// A side scoring below -CP resigns
    #[arg(long, value_name = "CP", default_value_t = selfplay::Options::default().resign)]
    pub resign: i32,
    /// Hash table size per thread
    #[arg(long, value_name = "MB", default_value_t = selfplay::Options::default().hash_mb)]
    pub hash: usize,
    /// The run's seed (each game's start depends on it and the game's number alone)
    #[arg(long, value_name = "N", default_value_t = selfplay::Options::default().seed)]
    pub seed: u64,
    /// The evaluation: classic, nnue (the shipped net) or a net file [default: classic]
    #[arg(long, value_name = "EVAL")]
    pub eval: Option<String>,
    /// Instead of playing, export a self-play FILE to --out as FORMAT (psv: YaneuraOu
    /// PackedSfenValue records, 40 bytes a position)
    #[arg(long, num_args = 2, value_names = ["FORMAT", "FILE"])]
    pub export: Option<Vec<String>>,
}

/// `hayate selfplay`.
pub fn selfplay(a: SelfplayArgs) -> Outcome {
    if let Some(export) = &a.export {
        let [format, input] = export.as_slice() else {
            return Err("--export takes FORMAT FILE".into());
        };
        if format != "psv" {
            return Err(format!("unknown export format {format} (known: psv)").into());
        }
        let n = selfplay::psv::export_file(input, &a.out)?;
        eprintln!("{}: {n} records", a.out);
        return Ok(());
    }
    let net = match a.eval.as_deref() {
        None | Some("classic") => None,
        Some("nnue") => Some(Network::shipped()),
        Some(file) => Some(Arc::new(Network::load(file)?)),
    };
    let opts = selfplay::Options {
        games: a.games,
        nodes: a.nodes.max(1),
        threads: a.threads.max(1),
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        resign: a.resign,
        hash_mb: a.hash.max(1),
        seed: a.seed,
        net,
    };
    let openings = &a.openings;
    let positions = std::fs::read_to_string(openings)
        .map_err(|e| format!("{openings}: {e}"))
        .and_then(|t| selfplay::parse_openings(&t).map_err(|e| format!("{openings}: {e}")))?;
    let progress = Progress::new("selfplay", "games", opts.games as u64);
    let mut resumed = false;
    selfplay::run(&a.out, &positions, &opts, &mut |r| match r {
        Report::Note(line) => progress.note(&line),
        Report::Progress { games, positions } => {
            if !resumed {
                progress.resume_at(games as u64);
                resumed = true;
            }
            progress.update(games as u64, &format!("{positions} positions"));
        }
    })?;
    Ok(())
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Self-play files
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// The net to write (after each epoch)
    #[arg(long, value_name = "NET", required = true)]
    pub out: String,
    /// Passes over the data
    #[arg(long, value_name = "N", default_value_t = trainer::Options::default().epochs)]
    pub epochs: usize,
    /// Positions per step
    #[arg(long, value_name = "N", default_value_t = trainer::Options::default().batch)]
    pub batch: usize,
    /// Adam's learning rate
    #[arg(long, value_name = "X", default_value_t = trainer::Options::default().rate)]
    pub rate: f32,
    /// The rate's factor after each epoch
    #[arg(long, value_name = "X", default_value_t = trainer::Options::default().rate_decay)]
    pub decay: f32,
    /// λ: the share of the search score in the target (the rest is the game result)
    #[arg(long, value_name = "X", default_value_t = trainer::Options::default().score_share)]
    pub score_share: f32,
    /// Threads (the result is the same for the same seed and thread count)
    #[arg(long, value_name = "N", default_value_t = trainer::Options::default().threads)]
    pub threads: usize,
    #[arg(long, value_name = "N", default_value_t = trainer::Options::default().seed)]
    pub seed: u64,
    /// Start from this net instead of random weights
    #[arg(long, value_name = "NET")]
    pub init: Option<String>,
    /// Train instead on N quiet positions near the games' ones, scored by the hand-written
    /// evaluation
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub distill: usize,
    /// Give the net a second layer (the head) if it has none; its output starts at zero, so a
    /// net given with --init evaluates as before until it is trained
    #[arg(long)]
    pub head: bool,
}

/// `hayate train`.
pub fn train(a: TrainArgs) -> Outcome {
    let opts = trainer::Options {
        epochs: a.epochs,
        batch: a.batch.max(1),
        rate: a.rate,
        rate_decay: a.decay,
        score_share: a.score_share,
        threads: a.threads.max(1),
        seed: a.seed,
    };
    let loaded = std::time::Instant::now();
    let (train, valid_samples, report, games) = data::load_games(&a.files)?;
    eprintln!(
        "{} games, {} positions: {} to train on, {} to validate ({:.1} s to load)",
        report.games,
        report.positions,
        train.len(),
        valid_samples.len(),
        loaded.elapsed().as_secs_f64()
    );
    let train = if a.distill > 0 {
        let began = std::time::Instant::now();
        let d = data::distill(&games, a.distill, opts.seed, opts.threads);
        eprintln!(
            "{} positions near the training games, scored by the hand-written evaluation, train on ({:.1} s)",
            d.len(),
            began.elapsed().as_secs_f64()
        );
        d
    } else {
        train
    };
    if let Some(l) = trainer::classic_loss(&valid_samples, opts.score_share) {
        eprintln!("the hand-written evaluation's validation loss: {l:.6}");
    }
    if train.is_empty() {
        return Err("no positions to train on".into());
    }
    let mut net = match &a.init {
        Some(path) => FloatNet::from_quantised(&Network::load(path)?),
        None => FloatNet::random(opts.seed),
    };
    if a.head {
        net.add_head(&train, opts.seed);
    }
    if a.init.is_some() && !valid_samples.is_empty() {
        // The starting net on the same validation set: the yardstick a new net must beat
        // (with `--epochs 0`, the only thing printed).
        let l = trainer::loss(&net, &valid_samples, opts.score_share, opts.threads);
        eprintln!("the starting net's validation loss: {l:.6}");
    }
    let epochs = opts.epochs;
    let per_epoch = train.len() as u64;
    let progress = Progress::new("train", "positions", per_epoch * epochs as u64);
    let mut failed = None;
    trainer::train(
        &mut net,
        &train,
        &valid_samples,
        &opts,
        &mut |r, net| {
            let valid = r
                .valid_loss
                .map_or(String::new(), |v| format!(", valid {v:.6}"));
            let valid = match trainer::classic_difference(net, &valid_samples) {
                Some(d) => format!("{valid} ({d:.0} cp from the hand-written evaluation)"),
                None => valid,
            };
            progress.note(&format!(
                "epoch {}/{epochs}: train {:.6}{valid}, {:.0} positions/s, rate {:.6}",
                r.epoch, r.train_loss, r.positions_per_second, r.rate
            ));
            if let Err(e) = std::fs::write(&a.out, net.quantise().to_bytes()) {
                failed = Some(format!("{}: {e}", a.out));
            }
        },
        &mut |epoch, done, _rate| {
            let before = (epoch as u64).saturating_sub(1) * per_epoch;
            progress.update(
                before + (done * per_epoch as f64) as u64,
                &format!("epoch {epoch}/{epochs}"),
            );
        },
    );
    progress.finish();
    match failed {
        Some(e) => Err(Failure::Job(e)),
        None => Ok(()),
    }
}

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Labelled positions: lines of sfen<TAB>score<TAB>result
    pub file: String,
    /// Passes over the data
    #[arg(default_value_t = 8)]
    pub passes: usize,
}

/// `hayate tune`: the weights found, printed as Rust.
pub fn tune(a: TuneArgs) -> Outcome {
    let (samples, bad) = weights_tune::load(&a.file, weights_tune::SCORE_SHARE)?;
    eprintln!("{} samples ({bad} lines skipped)", samples.len());
    if samples.is_empty() {
        return Err(format!("no usable samples in {}", a.file).into());
    }
    let progress = Progress::new("tune", "passes", a.passes as u64);
    let w = weights_tune::tune(&samples, &DEFAULT, a.passes, &mut |pass, e| {
        progress.note(&format!("pass {pass}: error {e:.6}"));
        progress.update(pass as u64, &format!("error {e:.6}"));
    });
    progress.finish();
    out!("{}", w.to_rust());
    Ok(())
}

#[derive(Debug, Args)]
pub struct LearnArgs {
    /// Labelled positions: lines of sfen<TAB>score<TAB>result
    pub file: String,
    /// The table to write (the format of src/eval/kp.bin)
    #[arg(value_name = "OUT.bin")]
    pub out: PathBuf,
    /// Also report the error on these positions (with the game result in it, as tune does)
    #[arg(long, value_name = "FILE")]
    pub valid: Option<String>,
    #[arg(long, value_name = "N", default_value_t = kp_learn::Options::default().epochs)]
    pub epochs: usize,
    #[arg(long, value_name = "X", default_value_t = kp_learn::Options::default().rate)]
    pub rate: f32,
    #[arg(long, value_name = "X", default_value_t = kp_learn::Options::default().decay)]
    pub decay: f32,
    /// The share of the search score in the target (the rest is the game result)
    #[arg(long, value_name = "X", default_value_t = kp_learn::Options::default().score_share)]
    pub score_share: f64,
    #[arg(long, value_name = "N", default_value_t = kp_learn::Options::default().batch)]
    pub batch: usize,
    #[arg(long, value_name = "N", default_value_t = kp_learn::Options::default().seed)]
    pub seed: u64,
}

/// `hayate learn`.
pub fn learn(a: LearnArgs) -> Outcome {
    let opts = kp_learn::Options {
        epochs: a.epochs,
        rate: a.rate,
        decay: a.decay,
        batch: a.batch.max(1),
        seed: a.seed,
        score_share: a.score_share,
    };
    let load = |path: &str, share: f64| -> Result<kp_learn::Data, Failure> {
        let (d, bad) = kp_learn::Data::load(path, &DEFAULT, share)?;
        eprintln!("{path}: {} samples ({bad} lines skipped)", d.len());
        Ok(d)
    };
    let train = load(&a.file, opts.score_share)?;
    if train.is_empty() {
        return Err(format!("no usable samples in {}", a.file).into());
    }
    // The validation error is the one `hayate tune` reports, with the game result in it.
    let valid = match &a.valid {
        Some(v) => Some(load(v, weights_tune::SCORE_SHARE)?),
        None => None,
    };
    let zero = vec![0f32; crate::eval::kp::LEN];
    let show = |t: &[f32]| match &valid {
        Some(v) => format!("train {:.6}, valid {:.6}", train.error(t), v.error(t)),
        None => format!("train {:.6}", train.error(t)),
    };
    eprintln!("without the table: {}", show(&zero));
    let progress = Progress::new("learn", "epochs", opts.epochs as u64);
    let t = kp_learn::learn(&train, &opts, &mut |epoch, t| {
        let errors = show(t);
        progress.note(&format!("epoch {epoch}: {errors}"));
        progress.update(epoch as u64, &errors);
    });
    progress.finish();
    std::fs::write(&a.out, kp_learn::to_bytes(&t))
        .map_err(|e| Failure::Job(format!("{}: {e}", a.out.display())))
}
