//! The small `Copy` values every other module speaks in.

mod color;
mod hand;
mod moves;
mod piece;
mod square;

pub use color::Color;
pub use hand::Hand;
pub use moves::Move;
pub use piece::{Piece, PieceType};
pub use square::Square;
