//! Draws the Zobrist keys from `rand`'s `StdRng` with a fixed seed and writes them as Rust
//! constants, so the keys are part of the binary (no start-up work, no lazy check on the hot
//! path) and identical in every build: `Cargo.lock` pins the `rand` version.

use std::fmt::Write as _;
use std::path::Path;

use rand::{Rng, SeedableRng};

const SEED: u64 = 0x4841_5941_5445_2020; // "HAYATE  "

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut rng = rand::rngs::StdRng::seed_from_u64(SEED);
    let mut out = String::new();
    out.push_str("/// Piece-on-square keys, indexed by `Piece::index()` then square.\n");
    out.push_str("pub static PIECE_SQUARE: [[u64; 81]; 32] = [\n");
    for piece in 0..32 {
        out.push_str("    [");
        for _ in 0..81 {
            // Index 0 and unused piece codes never occur; drawing them anyway keeps the stream simple.
            let key: u64 = rng.gen();
            let _ = piece;
            write!(out, "{key:#x}, ").unwrap();
        }
        out.push_str("],\n");
    }
    out.push_str("];\n");
    out.push_str("/// Hand keys, added once per piece held, indexed by colour then piece type.\n");
    out.push_str("pub static HAND: [[u64; 8]; 2] = [\n");
    for _ in 0..2 {
        out.push_str("    [");
        for _ in 0..8 {
            let key: u64 = rng.gen();
            write!(out, "{key:#x}, ").unwrap();
        }
        out.push_str("],\n");
    }
    out.push_str("];\n");
    let side: u64 = rng.gen();
    writeln!(
        out,
        "/// XOR-ed in when White is to move.\npub const SIDE: u64 = {side:#x};"
    )
    .unwrap();
    let path = Path::new(&std::env::var("OUT_DIR").unwrap()).join("zobrist_keys.rs");
    std::fs::write(path, out).unwrap();
}
