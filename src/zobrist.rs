//! Zobrist hashing keys.
//!
//! A position's key is the XOR of a key per piece on its square (and [`SIDE`] when White is to
//! move) plus, for the hands, the sum of one key per piece held. Adding hand keys (rather than
//! XOR-ing one key per count) lets `do_move` update the hand part with a single addition or
//! subtraction. The keys are drawn at build time by `build.rs`.

include!(concat!(env!("OUT_DIR"), "/zobrist_keys.rs"));

use crate::types::{Color, Piece, PieceType, Square};

#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

#[inline(always)]
pub fn hand(color: Color, pt: PieceType) -> u64 {
    HAND[color.index()][pt.index()]
}
