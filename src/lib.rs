//! Hayate: a shogi engine speaking the USI protocol.

pub mod analyze;
pub mod arena;
pub mod attacks;
pub mod bitboard;
pub mod book;
pub mod cli;
pub mod eval;
/// The fuzz targets' bodies, shared with the corpus replay test; not an API.
#[doc(hidden)]
pub mod fuzzing;
pub mod json;
pub mod kifu;
pub mod mate;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod trainer;
pub mod tt;
pub mod types;
pub mod usi;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use position::Position;
pub use types::{Color, Hand, Move, Piece, PieceType, Square};
