//! Helpers shared by the integration tests.
#![allow(dead_code)]

use hayate::movegen::{generate_legal, MoveList};
use hayate::{Move, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

pub fn legal_moves(p: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    generate_legal(p, &mut list);
    list.to_vec()
}

/// The legal moves as sorted USI text.
pub fn legal_usi(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(p).iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

pub fn play(p: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let m = p.parse_usi_move(text).unwrap_or_else(|e| panic!("{e}"));
        p.do_move(m);
    }
}

pub const STARTS: [&str; 5] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
];

/// Positions reached by random games that prefer captures (so hands fill and drops, nifu and
/// uchifuzume come up), from several starts.
pub fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut p = pos(STARTS[rng.gen_range(0..STARTS.len())]);
        let plies = rng.gen_range(0..160);
        for _ in 0..plies {
            let moves = legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| !m.is_drop() && p.piece_on(m.to()).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.gen_bool(0.6) {
                captures[rng.gen_range(0..captures.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            p.do_move(m);
            if rng.gen_range(0..12) == 0 {
                out.push(p.clone());
            }
        }
        out.push(p);
    }
    out.truncate(count);
    out
}

/// A scratch directory under the system's temporary directory, unique to this test process
/// and removed (with everything in it) when dropped, so test runs leave nothing behind.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("hayate-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        TempDir(d)
    }
}

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One rank of an SFEN board from its squares in SFEN order (file 9 to file 1): the pieces'
/// letters, with runs of empty squares as digits.
pub fn sfen_rank<'a, S: AsRef<str> + 'a>(
    squares: impl IntoIterator<Item = &'a Option<S>>,
) -> String {
    let (mut s, mut empty) = (String::new(), 0);
    for sq in squares {
        match sq {
            None => empty += 1,
            Some(p) => {
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s += p.as_ref();
            }
        }
    }
    if empty > 0 {
        s += &empty.to_string();
    }
    s
}
