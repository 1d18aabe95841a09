//! The neural evaluation, its trainer and the self-play data they learn from.

mod common;

use std::process::Command;

use hayate::eval::nnue::{self, simd::Path, Accumulator, Network};
use hayate::search::{self, Histories, Limits, SearchOptions, Shared};
use hayate::selfplay::{psv, record};
use hayate::trainer::{self, data, FloatNet};
use hayate::tt::TranspositionTable;
use hayate::Position;

const SAMPLE: &str = "tests/data/selfplay_sample.hsp";

fn sample() -> Vec<record::GameRecord> {
    let bytes = std::fs::read(SAMPLE).expect("the committed sample");
    record::read_all(&bytes).expect("the sample reads")
}

#[test]
fn the_committed_sample_replays_and_writes_back_byte_for_byte() {
    let games = sample();
    assert_eq!(games.len(), 60);
    let mut bytes = Vec::new();
    record::write_all(&mut bytes, &games).unwrap();
    assert_eq!(bytes, std::fs::read(SAMPLE).unwrap());
    let positions: usize = games.iter().map(|g| g.moves.len()).sum();
    // About 3.6 bytes a position, with the start positions.
    assert!(
        bytes.len() < positions * 4,
        "{} bytes for {positions}",
        bytes.len()
    );
}

#[test]
fn selfplay_games_round_trip_and_end_by_the_rules() {
    let dir = common::TempDir::new("selfplay");
    let out = dir.join("games.hsp");
    let run = |games: &str| {
        Command::new(env!("CARGO_BIN_EXE_hayate"))
            .args([
                "selfplay",
                "--games",
                games,
                "--nodes",
                "300",
                "--threads",
                "2",
            ])
            .args(["--seed", "5", "--out"])
            .arg(&out)
            .status()
            .unwrap()
    };
    assert!(run("2").success());
    // Resumable: a second run adds only the games still missing.
    assert!(run("3").success());
    let games = record::read_all(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(games.len(), 3);
    for g in &games {
        assert!(!g.moves.is_empty());
        // Reading replayed every move legally; the scores are the search's.
        assert!(g.scores.iter().all(|s| s.abs() <= record::SCORE_LIMIT));
        let mut pos = Position::from_sfen(&g.start).unwrap();
        for &m in &g.moves {
            assert!(pos.is_legal(m));
            pos.do_move(m);
        }
        let mut list = hayate::movegen::MoveList::new();
        hayate::movegen::generate_legal(&pos, &mut list);
        if list.is_empty() {
            // Mated: the side to move lost.
            assert_eq!(g.outcome.points(pos.side_to_move()), 0.0);
        }
    }
    // A damaged tail is cut off and the run goes on from the whole games.
    let mut bytes = std::fs::read(&out).unwrap();
    bytes.extend_from_slice(&[1, 200]);
    std::fs::write(&out, &bytes).unwrap();
    assert!(run("3").success());
    assert_eq!(
        record::read_all(&std::fs::read(&out).unwrap())
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn a_psv_export_decodes_back_to_the_same_positions() {
    let games = sample();
    let dir = common::TempDir::new("psv");
    let out = dir.join("sample.psv");
    let status = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(["selfplay", "--export", "psv", SAMPLE, "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len() % psv::RECORD_BYTES, 0);
    let mut records = bytes.chunks_exact(psv::RECORD_BYTES);
    for g in &games {
        let mut pos = Position::from_sfen(&g.start).unwrap();
        for (&m, &score) in g.moves.iter().zip(&g.scores) {
            let rec: &[u8; psv::RECORD_BYTES] = records.next().unwrap().try_into().unwrap();
            let (back, s, mv, result) = psv::decode(rec).unwrap();
            assert_eq!(back.to_sfen(), pos.to_sfen());
            assert_eq!(i32::from(s), score);
            assert_eq!(mv, Some(m));
            let points = g.outcome.points(pos.side_to_move());
            assert_eq!(
                result,
                if points > 0.5 {
                    1
                } else if points < 0.5 {
                    -1
                } else {
                    0
                }
            );
            pos.do_move(m);
        }
    }
    assert!(records.next().is_none());
}

/// A net trained on the sample for a few epochs (with a head if `head`), with its float
/// original.
fn trained(head: bool) -> (FloatNet, data::Samples, data::Samples, f64) {
    let (train, valid, _) = data::load(&[SAMPLE.to_string()]).unwrap();
    let opts = trainer::Options {
        epochs: 4,
        batch: 256,
        threads: 2,
        ..trainer::Options::default()
    };
    let mut net = FloatNet::random(opts.seed);
    if head {
        net.add_head(&train, opts.seed);
    }
    let before = trainer::loss(&net, &train, opts.score_share, 2);
    trainer::train(
        &mut net,
        &train,
        &valid,
        &opts,
        &mut |_, _| {},
        &mut |_, _, _| {},
    );
    (net, train, valid, before)
}

#[test]
fn training_on_the_sample_lowers_the_loss_and_the_quantised_net_stays_close() {
    // The quantised net gives the float net's centipawns within a stated tolerance: 4 cp on
    // average, 15 cp at worst, over the validation positions (measured: 3.1 and 9.7).
    quantised_net_stays_close(false, 4.0, 15.0);
}

#[test]
fn a_net_with_a_head_trains_and_its_quantised_form_stays_close() {
    // The head's inputs are rounded to 1/256 and its weights to 1/512: 6 cp on average, 25 cp
    // at worst.
    quantised_net_stays_close(true, 6.0, 25.0);
}

fn quantised_net_stays_close(head: bool, mean_limit: f64, worst_limit: f64) {
    let (net, train, valid, before) = trained(head);
    let share = trainer::Options::default().score_share;
    let after = trainer::loss(&net, &train, share, 2);
    assert!(after < before * 0.8, "training loss {before} -> {after}");
    assert!(!valid.is_empty());
    let q = net.quantise();
    assert_eq!(q.head.is_some(), head);
    // The file keeps the net as it is.
    assert_eq!(
        Network::from_bytes(&q.to_bytes()).unwrap().to_bytes(),
        q.to_bytes()
    );
    let (mut sum, mut worst) = (0f64, 0f64);
    for i in 0..valid.len() {
        let (us, them) = valid.sides(i);
        let float = net.centipawns(us, them) as f64;
        let mut acc = [[0i16; nnue::HIDDEN]; 2];
        for (side, feats) in [(0, us), (1, them)] {
            acc[side].copy_from_slice(&q.b1);
            for &f in feats {
                for (a, w) in acc[side]
                    .iter_mut()
                    .zip(&q.w1[f as usize * nnue::HIDDEN..(f as usize + 1) * nnue::HIDDEN])
                {
                    *a += w;
                }
            }
        }
        let quant = q.output(&acc[0], &acc[1]) as f64;
        assert_eq!(
            q.output_on(Path::Portable, &acc[0], &acc[1]) as f64,
            quant,
            "the portable path"
        );
        sum += (float - quant).abs();
        worst = worst.max((float - quant).abs());
    }
    let mean = sum / valid.len() as f64;
    assert!(
        mean < mean_limit && worst < worst_limit,
        "mean {mean:.2} cp, worst {worst:.2} cp"
    );
}

#[test]
fn avx2_and_portable_paths_agree_on_random_positions() {
    let net = Network::shipped();
    for pos in common::random_positions(300, 21) {
        let acc = Accumulator::new(&pos, &net);
        let us = pos.side_to_move();
        let (a, b) = (&acc.sides[us.index()], &acc.sides[(!us).index()]);
        assert_eq!(
            net.output_on(Path::Avx2, a, b),
            net.output_on(Path::Portable, a, b)
        );
    }
}

#[test]
fn a_search_with_the_net_keeps_its_accumulators_equal_to_a_full_refresh() {
    // Test builds check the incremental accumulators against a full refresh at every
    // evaluation (a debug assertion in the searcher); this search runs thousands of them.
    let options = SearchOptions {
        threads: 1,
        net: Some(Network::shipped()),
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let tt = TranspositionTable::new(16);
    for sfen in common::STARTS {
        let pos = common::pos(sfen);
        let shared = Shared::default();
        let best = search::search(
            &pos,
            &limits,
            &options,
            &tt,
            &Histories::default(),
            &shared,
            &|_| {},
        );
        assert!(!matches!(best, search::BestMove::Move { best, .. } if !pos.is_legal(best)));
    }
}

#[test]
fn hayate_train_writes_a_net_the_engine_loads_and_refuses_bad_input() {
    let dir = common::TempDir::new("train");
    let net = dir.join("net.nnue");
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(["train", SAMPLE, "--epochs", "1", "--threads", "2", "--out"])
        .arg(&net)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("epoch 1/1: train"));
    assert!(Network::load(net.to_str().unwrap()).is_ok());
    // A missing file, a file that is not self-play data, and a bad number: exit code 2.
    for args in [
        vec!["train", "/no/such/file.hsp", "--out", "x.nnue"],
        vec!["train", "tests/data/perft.tsv", "--out", "x.nnue"],
        vec!["train", SAMPLE, "--epochs", "many", "--out", "x.nnue"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // The engine loads it through EvalFile, and says why it refuses a bad one.
    let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "setoption name EvalFile value {}\nsetoption name EvalFile value tests/data/perft.tsv\nsetoption name UseNNUE value true\nisready\nposition startpos\ngo depth 3\n",
        net.display()
    )
    .unwrap();
    let reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut refused = false;
    for line in std::io::BufRead::lines(reader) {
        let line = line.unwrap();
        refused |= line.starts_with("info string") && line.contains("EvalFile");
        if line.starts_with("bestmove") {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    let _ = child.wait();
    assert!(refused);
}
