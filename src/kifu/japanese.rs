//! Japanese move notation as KIF writes it: `７六歩(77)`, `同　歩(23)`, `２二角成(88)`, `５五角打`.

use crate::position::Position;
use crate::types::{Move, PieceType, Square};

pub const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
pub const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// The KIF name of a piece kind.
pub fn piece_name(pt: PieceType) -> &'static str {
    match pt {
        PieceType::Pawn => "歩",
        PieceType::Lance => "香",
        PieceType::Knight => "桂",
        PieceType::Silver => "銀",
        PieceType::Gold => "金",
        PieceType::Bishop => "角",
        PieceType::Rook => "飛",
        PieceType::King => "玉",
        PieceType::ProPawn => "と",
        PieceType::ProLance => "成香",
        PieceType::ProKnight => "成桂",
        PieceType::ProSilver => "成銀",
        PieceType::Horse => "馬",
        PieceType::Dragon => "龍",
    }
}

/// Names a reader accepts, longest first (成香 before 香), with their kinds.
pub const NAMES: [(&str, PieceType); 17] = [
    ("成香", PieceType::ProLance),
    ("成桂", PieceType::ProKnight),
    ("成銀", PieceType::ProSilver),
    ("歩", PieceType::Pawn),
    ("香", PieceType::Lance),
    ("桂", PieceType::Knight),
    ("銀", PieceType::Silver),
    ("金", PieceType::Gold),
    ("角", PieceType::Bishop),
    ("飛", PieceType::Rook),
    ("玉", PieceType::King),
    ("王", PieceType::King),
    ("と", PieceType::ProPawn),
    ("馬", PieceType::Horse),
    ("龍", PieceType::Dragon),
    ("竜", PieceType::Dragon),
    ("全", PieceType::ProSilver),
];

/// The square in KIF form: `７六`.
pub fn square_name(sq: Square) -> String {
    format!("{}{}", FILES[sq.file() as usize], RANKS[sq.rank() as usize])
}

/// The KIF text of `m` played in `pos`; `previous_to` is the last move's target (for `同`).
pub fn kif_move(pos: &Position, m: Move, previous_to: Option<Square>) -> String {
    let to = m.to();
    let dest = if previous_to == Some(to) {
        "同　".to_string()
    } else {
        square_name(to)
    };
    if m.is_drop() {
        return format!("{dest}{}打", piece_name(m.dropped()));
    }
    let from = m.from();
    let pt = pos
        .piece_on(from)
        .map_or(PieceType::Pawn, |p| p.piece_type());
    let promo = if m.is_promotion() { "成" } else { "" };
    format!(
        "{dest}{}{promo}({}{})",
        piece_name(pt),
        from.file() + 1,
        from.rank() + 1
    )
}
