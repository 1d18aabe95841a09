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
    /// Extra value of the second, third and fourth-or-later piece of a kind in hand (indexed
    /// by piece type, then by the count capped at 4; counts 0 and 1 read 0): the first pawn
    /// in hand is a weapon, the fifth mostly ballast.
    pub hand_count: [[i32; 5]; 8],
    /// King placement by distance from the centre file (0 = the 5th file).
    pub king_file: [i32; 5],
    /// Penalty per file without an own pawn on the king's file (0) and beside it (1): an open
    /// file there lets a rook or a lance in.
    pub king_open_file: [i32; 2],
}

pub const DEFAULT: Weights = Weights {
    piece: [
        0, 10, 239, 227, 341, 597, 692, 422, 0, 390, 402, 386, 356, 853, 1101,
    ],
    hand: [0, 79, 335, 300, 418, 509, 712, 472],
    attack_by_distance: [
        [0, -58, 64, 40, 28, 16, 0, 0, 0],
        [0, -244, -102, 39, 51, 32, 0, 0, 0],
        [0, 124, 100, 37, 0, 4, 0, 0, 0],
        [0, 96, 158, 78, 28, 20, 0, 0, 0],
        [0, 6, -10, 23, 20, 1, 0, 0, 0],
        [0, 120, 140, 145, 102, 55, 0, 0, 0],
    ],
    defend_by_distance: [
        [0, 28, 17, 28, 28, 8, 0, 0, 0],
        [0, 37, 5, 30, 14, 18, 0, 0, 0],
        [0, 76, 24, 78, 58, 46, 0, 0, 0],
        [0, 12, 19, 47, 42, 28, 0, 0, 0],
        [0, -10, -11, 20, 20, 34, 0, 0, 0],
        [0, 62, -25, 44, -36, -34, 0, 0, 0],
    ],
    near_own_king: [
        [
            [58, 84, 0, 18, 10],
            [68, 90, 12, 14, 12],
            [108, 86, 24, 26, 16],
        ],
        [
            [-38, 34, 0, 64, 16],
            [8, 18, -6, 70, 28],
            [6, 60, 22, 20, 36],
        ],
        [
            [52, -8, 0, 14, 48],
            [0, 6, 0, -18, 80],
            [42, 56, 48, 52, 86],
        ],
        [
            [8, -14, 0, -4, 12],
            [-16, 4, -14, 22, 30],
            [-22, 16, 10, 26, -6],
        ],
        [
            [-64, 34, 0, 40, 38],
            [44, 70, 26, 52, 56],
            [84, 90, 22, 32, 54],
        ],
        [
            [-226, -114, 0, -56, -38],
            [-300, -54, -104, 102, -22],
            [88, -24, 58, 92, 38],
        ],
    ],
    near_enemy_king: [
        [
            [46, 0, 0, -284, -116],
            [14, 76, 66, 94, -68],
            [-36, -58, -52, -98, -278],
        ],
        [
            [170, -38, 0, -300, -300],
            [154, -4, 172, -74, -300],
            [68, -22, 58, -300, 220],
        ],
        [
            [156, 0, 0, -72, -148],
            [58, 0, 8, 0, 212],
            [-64, 38, 80, 48, -70],
        ],
        [
            [136, 0, 0, 0, 84],
            [154, 0, 0, 84, -58],
            [16, 94, 18, -164, -86],
        ],
        [
            [62, -64, 0, -96, 200],
            [-6, -70, 8, -46, 208],
            [46, -8, -28, 16, 226],
        ],
        [
            [112, 0, 0, 0, 46],
            [26, 0, 0, 0, 232],
            [60, 14, 66, -24, 50],
        ],
    ],
    rank: [
        [0, -2, 50, 50, -6, -6, -6, 28, -16],
        [0, -138, 4, -54, -94, -114, -94, -84, -76],
        [-164, -60, -6, -92, -46, -32, -40, -28, -66],
        [-146, -116, -62, -164, -106, -66, -44, -16, -24],
        [-80, -46, -66, -180, -200, -176, -178, -170, -200],
        [-200, -158, -200, -180, -200, -160, -116, -150, -92],
    ],
    mobility: [16, 12, 4, 6, 11, 7],
    king_attack_weight: [0, 10, 2, 0, 12, 12],
    king_attack_per_square: 3,
    hand_drop_threat: [0, 4, 0, 0, 4, 4, 8, 6],
    king_defence_per_attack: 2,
    king_danger_divisor: 6,
    king_weak_square: 2,
    king_weak_empty_square: 0,
    hanging_to_move: [-16, 8, 16, 42, 60, 54],
    hanging_waiting: [126, 186, 218, 228, 382, 356],
    king_rank: [0, -38, -104, -200, 74, -126, -200, -200, -200],
    tempo: 20,
    hand_count: [
        [0, 0, 0, 0, 0],
        [0, 0, 20, 14, -38],
        [0, 0, -200, -300, 204],
        [0, 0, -118, -300, -300],
        [0, 0, -164, -300, -300],
        [0, 0, -58, 0, 0],
        [0, 0, -300, 0, 0],
        [0, 0, -122, 0, 0],
    ],
    king_file: [0, 6, 22, -8, -188],
    king_open_file: [36, 38],
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
        for (i, row) in self.hand_count.iter_mut().enumerate() {
            // Bishops and rooks come in pairs at most.
            let top = if i >= PieceType::Bishop as usize {
                2
            } else {
                4
            };
            for p in row.iter_mut().take(top + 1).skip(2) {
                v.push((p, -300, 300));
            }
        }
        for p in self.king_file.iter_mut().skip(1) {
            v.push((p, -300, 300));
        }
        for p in self.king_open_file.iter_mut() {
            v.push((p, -200, 200));
        }
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
