//! Evaluation weights. Hand-set from the values the engines of the field use (pawn about 90,
//! rook about 1000) and adjusted by self-play; see the README for how they were tuned.

use crate::types::PieceType;

/// Board value of each kind, indexed by piece type.
const PIECE: [i32; PieceType::NUM] = [
    0,    // none
    90,   // pawn
    315,  // lance
    405,  // knight
    495,  // silver
    855,  // bishop
    990,  // rook
    540,  // gold
    0,    // king: never captured, so it adds nothing (and tsume positions lack one)
    540,  // promoted pawn
    540,  // promoted lance
    540,  // promoted knight
    540,  // promoted silver
    945,  // horse
    1395, // dragon
];

/// Value of a piece in hand, indexed by piece type: a little above the board value.
const HAND: [i32; 8] = [0, 105, 345, 440, 550, 925, 1070, 600];

#[inline(always)]
pub fn piece_value(pt: PieceType) -> i32 {
    PIECE[pt.index()]
}

#[inline(always)]
pub fn hand_value(pt: PieceType) -> i32 {
    HAND[pt.index()]
}

/// Classes of kinds for the king-distance tables.
pub fn kind_class(pt: PieceType) -> usize {
    match pt {
        PieceType::Pawn => 0,
        PieceType::Lance | PieceType::Knight => 1,
        PieceType::Silver => 2,
        PieceType::Gold
        | PieceType::ProPawn
        | PieceType::ProLance
        | PieceType::ProKnight
        | PieceType::ProSilver => 3,
        PieceType::Bishop | PieceType::Rook => 4,
        _ => 5, // horse, dragon
    }
}

/// Bonus by Chebyshev distance (0..=8) to the enemy king, per class.
pub const ATTACK_BY_DISTANCE: [[i32; 9]; 6] = [
    [0, 40, 20, 8, 0, 0, 0, 0, 0],
    [0, 40, 30, 15, 5, 0, 0, 0, 0],
    [0, 70, 50, 25, 10, 0, 0, 0, 0],
    [0, 90, 60, 30, 10, 0, 0, 0, 0],
    [0, 60, 40, 25, 10, 5, 0, 0, 0],
    [0, 120, 80, 45, 20, 5, 0, 0, 0],
];

/// Bonus by Chebyshev distance to the own king, per class.
pub const DEFEND_BY_DISTANCE: [[i32; 9]; 6] = [
    [0, 10, 5, 0, 0, 0, 0, 0, 0],
    [0, 5, 5, 0, 0, 0, 0, 0, 0],
    [0, 50, 30, 10, 0, 0, 0, 0, 0],
    [0, 70, 45, 15, 0, 0, 0, 0, 0],
    [0, 10, 5, 0, 0, 0, 0, 0, 0],
    [0, 40, 25, 10, 0, 0, 0, 0, 0],
];

/// Pawn bonus by relative rank (0 = the far rank).
pub const PAWN_ADVANCE: [i32; 9] = [0, 30, 20, 12, 6, 2, 0, 0, 0];

pub const ROOK_MOBILITY: i32 = 4;
pub const BISHOP_MOBILITY: i32 = 4;

pub const KING_ATTACKER: i32 = 18;
pub const KING_HAND_HOLE: i32 = 4;
pub const KING_DEFENDER: i32 = 22;
pub const KING_DANGER_SCALE: i32 = 160;
pub const KING_ZONE_ENEMY_CONTROL: i32 = 25;

/// King placement by distance from the own back rank (0 = back rank).
pub const KING_RANK: [i32; 9] = [0, 10, 40, 80, 110, 110, 60, 20, 0];

pub const TEMPO: i32 = 20;
