//! Evaluation weights. `DEFAULT` is what the engine plays with; `hayate tune` fits these numbers
//! to labelled positions and prints a new `DEFAULT` to paste here.

use crate::types::PieceType;

/// Every tunable number of the evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Board value of each kind, indexed by piece type (the king's is 0: it is never captured,
    /// and tsume positions lack one).
    pub piece: [i32; PieceType::NUM],
    /// Value of a piece in hand, indexed by piece type.
    pub hand: [i32; 8],
    /// Bonus by Chebyshev distance (0..=8) to the enemy king, per kind class.
    pub attack_by_distance: [[i32; 9]; 6],
    /// Bonus by Chebyshev distance to the own king, per kind class.
    pub defend_by_distance: [[i32; 9]; 6],
    /// Pawn bonus by relative rank (0 = the far rank).
    pub pawn_advance: [i32; 9],
    /// Bonus per square a piece attacks or may move to, per class.
    pub mobility: [i32; 6],
    /// King attack units per piece attacking the king's neighbourhood, per class.
    pub king_attack_weight: [i32; 6],
    /// King attack units per attacked square of the neighbourhood.
    pub king_attack_per_square: i32,
    /// Units per kind in the enemy hand (indexed by piece type), scaled by empty squares near
    /// the king.
    pub hand_drop_threat: [i32; 8],
    /// Units removed per own attack on the king's neighbourhood.
    pub king_defence_per_attack: i32,
    /// The king penalty is units squared divided by this.
    pub king_danger_divisor: i32,
    /// King placement by distance from the own back rank (0 = back rank).
    pub king_rank: [i32; 9],
    pub tempo: i32,
}

pub const DEFAULT: Weights = Weights {
    piece: [
        0, 90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395,
    ],
    hand: [0, 105, 345, 440, 550, 925, 1070, 600],
    attack_by_distance: [
        [0, 40, 20, 8, 0, 0, 0, 0, 0],
        [0, 40, 30, 15, 5, 0, 0, 0, 0],
        [0, 70, 50, 25, 10, 0, 0, 0, 0],
        [0, 90, 60, 30, 10, 0, 0, 0, 0],
        [0, 60, 40, 25, 10, 5, 0, 0, 0],
        [0, 120, 80, 45, 20, 5, 0, 0, 0],
    ],
    defend_by_distance: [
        [0, 10, 5, 0, 0, 0, 0, 0, 0],
        [0, 5, 5, 0, 0, 0, 0, 0, 0],
        [0, 50, 30, 10, 0, 0, 0, 0, 0],
        [0, 70, 45, 15, 0, 0, 0, 0, 0],
        [0, 10, 5, 0, 0, 0, 0, 0, 0],
        [0, 40, 25, 10, 0, 0, 0, 0, 0],
    ],
    pawn_advance: [0, 30, 20, 12, 6, 2, 0, 0, 0],
    mobility: [0, 2, 1, 2, 3, 3],
    king_attack_weight: [2, 4, 6, 6, 6, 8],
    king_attack_per_square: 3,
    hand_drop_threat: [0, 1, 2, 3, 4, 3, 4, 4],
    king_defence_per_attack: 2,
    king_danger_divisor: 6,
    king_rank: [0, 10, 40, 80, 110, 110, 60, 20, 0],
    tempo: 20,
};

impl Weights {
    /// Every number, for the tuner, with the range it may take.
    pub fn params_mut(&mut self) -> Vec<(&mut i32, i32, i32)> {
        let mut v: Vec<(&mut i32, i32, i32)> = Vec::new();
        // The king's value and the unused slots stay fixed.
        for (i, p) in self.piece.iter_mut().enumerate() {
            if i != 0 && i != PieceType::King as usize {
                v.push((p, 10, 3000));
            }
        }
        for p in self.hand.iter_mut().skip(1) {
            v.push((p, 10, 3000));
        }
        for row in self
            .attack_by_distance
            .iter_mut()
            .chain(self.defend_by_distance.iter_mut())
        {
            for p in row.iter_mut().skip(1).take(5) {
                v.push((p, -300, 300));
            }
        }
        for p in self.pawn_advance.iter_mut().skip(1).take(6) {
            v.push((p, -100, 200));
        }
        for p in self.mobility.iter_mut() {
            v.push((p, -10, 30));
        }
        for p in self.king_attack_weight.iter_mut() {
            v.push((p, 0, 40));
        }
        v.push((&mut self.king_attack_per_square, 0, 20));
        for p in self.hand_drop_threat.iter_mut().skip(1) {
            v.push((p, 0, 30));
        }
        v.push((&mut self.king_defence_per_attack, 0, 20));
        v.push((&mut self.king_danger_divisor, 1, 100));
        for p in self.king_rank.iter_mut().skip(1) {
            v.push((p, -200, 400));
        }
        v.push((&mut self.tempo, 0, 100));
        v
    }

    /// Rust source for this set, to replace `DEFAULT`.
    pub fn to_rust(&self) -> String {
        format!("pub const DEFAULT: Weights = {self:#?};\n")
    }
}

#[inline(always)]
pub fn piece_value(pt: PieceType) -> i32 {
    DEFAULT.piece[pt.index()]
}

#[inline(always)]
pub fn hand_value(pt: PieceType) -> i32 {
    DEFAULT.hand[pt.index()]
}

/// Classes of kinds for the king-distance, mobility and attack tables.
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
