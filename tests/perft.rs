//! Perft counts of `tests/data/perft.tsv` (agreed by YaneuraOu, rsshogi, haitaka, yasai and
//! cshogi). Rows above the node limit run only with `--ignored`.

use hayate::perft::{perft, perft_play_leaves};
use hayate::Position;

const DATA: &str = include_str!("data/perft.tsv");

/// Rows with more leaves than this are too slow for the default test run.
const DEFAULT_LIMIT: u64 = 200_000_000;

struct Row {
    name: &'static str,
    sfen: &'static str,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                name: f[0],
                sfen: f[1],
                depth: f[2].parse().unwrap(),
                nodes: f[3].parse().unwrap(),
            }
        })
        .collect()
}

fn check(filter: impl Fn(&Row) -> bool) {
    let mut ran = 0;
    for row in rows().iter().filter(|r| filter(r)) {
        let mut pos = Position::from_sfen(row.sfen).unwrap();
        let n = perft(&mut pos, row.depth);
        assert_eq!(n, row.nodes, "{} depth {}", row.name, row.depth);
        assert_eq!(
            pos.to_sfen(),
            Position::from_sfen(row.sfen).unwrap().to_sfen()
        );
        ran += 1;
    }
    assert!(ran > 0, "no perft row selected");
}

#[test]
fn startpos_to_depth_5() {
    check(|r| r.name == "startpos" && r.depth <= 5);
}

#[test]
fn matsuri_to_depth_3() {
    check(|r| r.name == "matsuri" && r.depth <= 3);
}

#[test]
fn max_moves_position_to_depth_3() {
    check(|r| r.name == "maxmoves" && r.depth <= 3);
}

#[test]
fn midgame_rows() {
    check(|r| {
        (r.name.starts_with("midgame") || r.name == "bench_opening" || r.name == "habu_kato")
            && r.nodes <= DEFAULT_LIMIT
    });
}

#[test]
fn pin_double_check_uchifuzume_and_handicap_rows() {
    check(|r| {
        matches!(
            r.name,
            "pin_checker" | "double_check" | "uchifuzume" | "handicap_2piece"
        ) && r.nodes <= DEFAULT_LIMIT
    });
}

#[test]
fn playing_every_leaf_gives_the_same_counts() {
    check(|r| {
        r.nodes < 2_000_000 && {
            let mut pos = Position::from_sfen(r.sfen).unwrap();
            perft_play_leaves(&mut pos, r.depth) == r.nodes
        }
    });
}

#[test]
#[ignore = "deep: several minutes"]
fn deep_rows() {
    check(|r| r.nodes > DEFAULT_LIMIT);
}
