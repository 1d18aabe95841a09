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
    /// Bonus for a piece close to its own king, per class, by |file offset| (0..=2) and rank
    /// offset (-2..=2, positive towards the enemy), as castles place golds and silvers.
    pub near_own_king: [[[i32; 5]; 3]; 6],
    /// The same around the enemy king (positive rank offset: beyond the king, seen from the
    /// attacker).
    pub near_enemy_king: [[[i32; 5]; 3]; 6],
    /// Bonus by relative rank (0 = the far rank), per kind class.
    pub rank: [[i32; 9]; 6],
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
    /// King attack units per neighbour square the enemy attacks and no other own piece guards,
    /// and extra units when such a square is empty and the enemy holds pieces in hand.
    pub king_weak_square: i32,
    pub king_weak_empty_square: i32,
    /// Penalty for an undefended attacked piece, per class, when its side is to move and when
    /// the enemy is.
    pub hanging_to_move: [i32; 6],
    pub hanging_waiting: [i32; 6],
    /// King placement by distance from the own back rank (0 = back rank).
    pub king_rank: [i32; 9],
    pub tempo: i32,
}

pub const DEFAULT: Weights = Weights {
    piece: [
        0, 82, 315, 345, 509, 795, 930, 580, 0, 480, 480, 516, 480, 989, 1367,
    ],
    hand: [0, 71, 297, 380, 506, 865, 1010, 564],
    attack_by_distance: [
        [0, 56, 54, 60, 30, 0, 0, 0, 0],
        [0, -20, -4, 43, -9, -38, 0, 0, 0],
        [0, 130, 70, 81, -22, -28, 0, 0, 0],
        [0, 62, 120, 78, -2, -38, 0, 0, 0],
        [0, 104, 44, 5, -22, -27, 0, 0, 0],
        [0, 120, 134, 27, 12, -15, 0, 0, 0],
    ],
    defend_by_distance: [
        [0, 32, -1, 0, -4, 48, 0, 0, 0],
        [0, 23, -9, -28, -24, -50, 0, 0, 0],
        [0, 74, 74, 50, 4, 8, 0, 0, 0],
        [0, 54, 23, 25, -16, 2, 0, 0, 0],
        [0, -50, -55, -60, -36, -60, 0, 0, 0],
        [0, 68, 29, 20, -28, -28, 0, 0, 0],
    ],
    near_own_king: [[[0; 5]; 3]; 6],
    near_enemy_king: [[[0; 5]; 3]; 6],
    rank: [
        [0, -18, -40, 28, -12, -8, -10, 52, 40],
        [0, -60, -60, 12, -28, 36, -44, -36, -60],
        [-40, 20, 28, 52, 48, -14, -18, 4, -44],
        [-60, -4, 26, -56, -8, 2, 36, 4, -20],
        [52, 60, 60, -36, -44, -44, -36, -60, -44],
        [4, -28, -28, 56, -16, -60, 60, -16, -60],
    ],
    mobility: [-6, 6, -3, 2, 11, 13],
    king_attack_weight: [0, 2, 6, 8, 2, 18],
    king_attack_per_square: 3,
    hand_drop_threat: [0, 8, 4, 0, 0, 0, 0, 0],
    king_defence_per_attack: 2,
    king_danger_divisor: 6,
    king_weak_square: 0,
    king_weak_empty_square: 0,
    hanging_to_move: [0; 6],
    hanging_waiting: [0; 6],
    king_rank: [0, 30, 12, 52, 50, 170, 0, 16, -60],
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
        for table in self
            .near_own_king
            .iter_mut()
            .chain(self.near_enemy_king.iter_mut())
        {
            for row in table.iter_mut() {
                for p in row.iter_mut() {
                    v.push((p, -300, 300));
                }
            }
        }
        for row in self.rank.iter_mut() {
            for p in row.iter_mut() {
                v.push((p, -200, 200));
            }
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
        v.push((&mut self.king_weak_square, 0, 40));
        v.push((&mut self.king_weak_empty_square, 0, 40));
        for p in self
            .hanging_to_move
            .iter_mut()
            .chain(self.hanging_waiting.iter_mut())
        {
            v.push((p, -100, 1000));
        }
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
