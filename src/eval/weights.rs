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
        0, 50, 271, 269, 401, 687, 814, 464, 0, 396, 364, 432, 396, 949, 1251,
    ],
    hand: [0, 67, 231, 268, 406, 749, 894, 496],
    attack_by_distance: [
        [0, -20, 54, 42, 28, 4, 0, 0, 0],
        [0, -136, -8, 41, 27, 10, 0, 0, 0],
        [0, 186, 102, 65, -10, -8, 0, 0, 0],
        [0, 114, 228, 96, 20, -28, 0, 0, 0],
        [0, -12, -12, -19, -48, -35, 0, 0, 0],
        [0, 120, 82, 19, 0, -51, 0, 0, 0],
    ],
    defend_by_distance: [
        [0, 34, 1, 22, 22, 50, 0, 0, 0],
        [0, 51, 7, 4, -20, -26, 0, 0, 0],
        [0, 86, 64, 58, 28, 28, 0, 0, 0],
        [0, 62, 15, 19, -28, -34, 0, 0, 0],
        [0, -68, -63, -68, -56, -54, 0, 0, 0],
        [0, -32, -19, 28, -56, -60, 0, 0, 0],
    ],
    near_own_king: [
        [
            [64, -20, 0, 34, 34],
            [-116, 20, 48, -14, 12],
            [116, 28, 36, 6, 10],
        ],
        [
            [52, 54, 0, 42, -8],
            [-92, 18, -14, 4, -4],
            [4, 62, 20, 22, 4],
        ],
        [
            [-92, -50, 0, 30, 52],
            [-58, -24, -4, 22, 40],
            [28, 46, 22, 8, 48],
        ],
        [
            [-44, 14, 0, 8, -2],
            [28, 4, -26, -24, 8],
            [-14, 0, 12, 10, 20],
        ],
        [
            [-116, -6, 0, 8, -34],
            [42, 30, 2, -4, -12],
            [48, 44, -18, 6, 0],
        ],
        [
            [116, -16, 0, -68, 72],
            [-116, -100, -108, 112, 88],
            [-8, 0, -100, -72, 52],
        ],
    ],
    near_enemy_king: [
        [
            [46, 0, 0, -116, -68],
            [12, 60, 28, -76, 54],
            [-22, 12, -72, -116, -116],
        ],
        [
            [100, -116, 0, -116, -116],
            [116, 38, -76, -116, -116],
            [116, -84, -116, -116, 116],
        ],
        [
            [100, 0, 0, 116, -52],
            [116, 0, -68, 0, 12],
            [-104, 92, 88, -96, -116],
        ],
        [
            [60, 0, 0, 0, 20],
            [116, 0, 0, 16, -72],
            [-24, 76, 52, -116, -84],
        ],
        [
            [-48, -112, 0, -116, -116],
            [-84, -68, -44, 4, 116],
            [8, 76, 52, 92, 116],
        ],
        [
            [104, 0, 0, 0, -116],
            [-20, 0, 0, 0, 104],
            [2, -44, 2, -56, 40],
        ],
    ],
    rank: [
        [0, 38, 0, 48, -4, -8, -12, -20, -28],
        [0, -176, -120, -28, -52, -68, -82, -66, -62],
        [-68, -44, 16, -64, 8, -30, -62, -32, -66],
        [-140, -64, -26, -88, -72, -34, 0, -28, -64],
        [-4, 40, 86, -84, -112, -88, -120, -148, -152],
        [-112, -72, -144, -56, -132, -112, -36, -116, -68],
    ],
    mobility: [8, 6, -8, 2, 11, 7],
    king_attack_weight: [0, 6, 0, 0, 6, 14],
    king_attack_per_square: 3,
    hand_drop_threat: [0, 8, 4, 0, 2, 0, 0, 2],
    king_defence_per_attack: 2,
    king_danger_divisor: 6,
    king_weak_square: 2,
    king_weak_empty_square: 0,
    hanging_to_move: [-28, -36, -36, -68, 76, 28],
    hanging_waiting: [116, 116, 116, 116, 116, 116],
    king_rank: [0, 10, -20, -64, 22, 190, -116, -100, -176],
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
