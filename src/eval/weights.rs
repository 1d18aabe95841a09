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
        0, 58, 287, 285, 449, 735, 870, 520, 0, 420, 420, 456, 420, 969, 1307,
    ],
    hand: [0, 67, 251, 320, 462, 805, 950, 552],
    attack_by_distance: [
        [0, 12, 54, 42, 28, 4, 0, 0, 0],
        [0, -80, 32, 25, 7, -10, 0, 0, 0],
        [0, 170, 82, 61, -10, -8, 0, 0, 0],
        [0, 58, 180, 76, 4, -40, 0, 0, 0],
        [0, 44, 12, -19, -52, -35, 0, 0, 0],
        [0, 120, 86, 15, -16, -51, 0, 0, 0],
    ],
    defend_by_distance: [
        [0, 34, -3, 22, 22, 50, 0, 0, 0],
        [0, 51, 7, -4, -32, -38, 0, 0, 0],
        [0, 86, 64, 54, 20, 16, 0, 0, 0],
        [0, 62, 15, 15, -36, -42, 0, 0, 0],
        [0, -68, -63, -72, -64, -66, 0, 0, 0],
        [0, 8, 13, 36, -60, -68, 0, 0, 0],
    ],
    near_own_king: [
        [
            [28, 0, 0, 34, 34],
            [-60, -4, 40, -18, 12],
            [60, 8, 28, 6, 10],
        ],
        [
            [12, 42, 0, 30, -4],
            [-60, 14, -18, 4, -4],
            [-12, 58, 20, 18, -4],
        ],
        [
            [-60, -50, 0, 26, 44],
            [-46, -16, -4, 18, 36],
            [44, 46, 18, 0, 36],
        ],
        [
            [-28, 18, 0, 8, 2],
            [12, 4, -26, -24, 8],
            [-18, -8, 8, 6, 20],
        ],
        [
            [-60, -22, 0, 4, -42],
            [30, 2, -10, -8, -16],
            [44, 20, -30, 2, -8],
        ],
        [
            [60, -56, 0, -60, 56],
            [-60, -60, -60, 60, 60],
            [-48, 56, -60, -60, 28],
        ],
    ],
    near_enemy_king: [
        [
            [42, 0, 0, -60, -60],
            [4, 36, 4, -60, 50],
            [-18, 12, -60, -60, -60],
        ],
        [
            [44, -60, 0, -60, -60],
            [60, -18, -60, -60, -60],
            [60, -60, -60, -60, 60],
        ],
        [
            [60, 0, 0, 60, -52],
            [60, 0, -16, 0, -44],
            [-60, 60, 60, -60, -60],
        ],
        [
            [60, 0, 0, 0, -36],
            [60, 0, 0, -32, -60],
            [-12, 60, 52, -60, -28],
        ],
        [
            [-60, -60, 0, -60, -60],
            [-60, -28, 12, 44, 60],
            [8, 60, 24, 60, 60],
        ],
        [
            [60, 0, 0, 0, -60],
            [-44, 0, 0, 0, 60],
            [-22, -60, -14, -56, -8],
        ],
    ],
    rank: [
        [0, 30, -16, 40, -8, -8, -12, -8, -20],
        [0, -120, -120, 8, -24, -24, -70, -66, -62],
        [-96, -24, 40, -8, 32, -18, -50, -28, -66],
        [-120, -52, -2, -52, -32, -10, 16, -24, -64],
        [32, 80, 110, -68, -88, -56, -96, -120, -104],
        [-56, -16, -88, 0, -76, -64, 4, -76, -60],
    ],
    mobility: [8, 6, -8, 2, 11, 7],
    king_attack_weight: [0, 6, 0, 2, 6, 14],
    king_attack_per_square: 3,
    hand_drop_threat: [0, 8, 4, 0, 2, 0, 0, 2],
    king_defence_per_attack: 2,
    king_danger_divisor: 6,
    king_weak_square: 2,
    king_weak_empty_square: 0,
    hanging_to_move: [-60, -60, -60, -60, 28, -28],
    hanging_waiting: [60, 60, 60, 60, 60, 60],
    king_rank: [0, 10, -12, -8, 46, 206, -60, -44, -120],
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
