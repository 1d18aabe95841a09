//! SFEN in and out, and the named start positions.

use std::fmt;

use super::Position;
use crate::bitboard::Bitboard;
use crate::types::{Color, Hand, Piece, PieceType, Square};

pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The handicap starts by name, with their SFEN. The handicap giver is White and moves first.
pub const HANDICAPS: [(&str, &str); 12] = [
    (
        "lance",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "right_lance",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "bishop",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "rook",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "rook_lance",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "2piece",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "3piece",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "4piece",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "6piece",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "8piece",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "10piece",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    ("3pawns", "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1"),
];

/// The largest SFEN move number accepted: far beyond any game, and leaving `do_move` room to
/// count on from it without overflowing.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000_000;

/// Why an SFEN string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    MissingField(&'static str),
    WrongRankCount(usize),
    WrongRankLength {
        rank: char,
        squares: usize,
    },
    UnknownPiece(char),
    BadPromotion(String),
    BadSide(String),
    BadHand(String),
    TooManyPieces {
        kind: PieceType,
        count: u32,
        max: u32,
    },
    TwoKings(Color),
    DeadPiece {
        square: Square,
        piece: String,
    },
    Nifu {
        color: Color,
        file: u8,
    },
    OpponentInCheck,
    BadMoveNumber(String),
    TrailingText(String),
    UnknownName(String),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::MissingField(what) => write!(f, "SFEN lacks the {what}"),
            SfenError::WrongRankCount(n) => write!(f, "SFEN board has {n} ranks, not 9"),
            SfenError::WrongRankLength { rank, squares } => {
                write!(f, "SFEN rank {rank} has {squares} squares, not 9")
            }
            SfenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}' in SFEN board"),
            SfenError::BadPromotion(s) => write!(f, "bad promotion mark in SFEN board: {s}"),
            SfenError::BadSide(s) => write!(f, "side to move must be 'b' or 'w', not '{s}'"),
            SfenError::BadHand(s) => write!(f, "bad SFEN hand: {s}"),
            SfenError::TooManyPieces { kind, count, max } => write!(
                f,
                "SFEN has {count} pieces of kind {} on the board and in hand; at most {max} exist",
                kind.letter()
            ),
            SfenError::TwoKings(c) => write!(f, "SFEN has two {c:?} kings"),
            SfenError::DeadPiece { square, piece } => {
                write!(f, "{piece} on {square} could never move (dead piece)")
            }
            SfenError::Nifu { color, file } => {
                write!(
                    f,
                    "two unpromoted {color:?} pawns on file {} (nifu)",
                    file + 1
                )
            }
            SfenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            SfenError::BadMoveNumber(s) => write!(
                f,
                "bad SFEN move number '{s}' (a whole number up to {MAX_MOVE_NUMBER})"
            ),
            SfenError::TrailingText(s) => write!(f, "unexpected text after SFEN: '{s}'"),
            SfenError::UnknownName(s) => write!(f, "unknown start position '{s}'"),
        }
    }
}

impl std::error::Error for SfenError {}

impl Position {
    /// Parses an SFEN string (the four fields; the move number may be missing).
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        let mut fields = sfen.split_whitespace();
        let board = fields.next().ok_or(SfenError::MissingField("board"))?;
        let side = fields
            .next()
            .ok_or(SfenError::MissingField("side to move"))?;
        let hand = fields.next().unwrap_or("-");
        let ply = fields.next();
        if let Some(rest) = fields.next() {
            return Err(SfenError::TrailingText(rest.to_string()));
        }
        Position::from_sfen_fields(board, side, hand, ply)
    }

    /// Parses SFEN given as separate fields.
    pub fn from_sfen_fields(
        board: &str,
        side: &str,
        hand: &str,
        ply: Option<&str>,
    ) -> Result<Position, SfenError> {
        let mut pos = Position::empty();
        parse_board(&mut pos, board)?;
        pos.side = match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => return Err(SfenError::BadSide(side.to_string())),
        };
        parse_hand(&mut pos, hand)?;
        pos.game_ply = match ply {
            None => 1,
            Some(s) => s
                .parse()
                .ok()
                .filter(|&n| n <= MAX_MOVE_NUMBER)
                .ok_or_else(|| SfenError::BadMoveNumber(s.to_string()))?,
        };
        check_piece_counts(&pos)?;
        check_rules(&pos)?;
        let (board_key, hand_key) = pos.compute_keys();
        pos.st.board_key = board_key;
        pos.st.hand_key = hand_key;
        pos.st.hands = pos.hands;
        pos.update_check_info();
        // The side that just moved may not have left its king in check.
        let them = !pos.side;
        if let Some(k) = pos.kings[them.index()] {
            if pos.is_attacked(pos.side, k, pos.occupied()) {
                return Err(SfenError::OpponentInCheck);
            }
        }
        Ok(pos)
    }

    /// `startpos` or a handicap name from [`HANDICAPS`].
    pub fn from_name(name: &str) -> Result<Position, SfenError> {
        if name == "startpos" {
            return Ok(Position::startpos());
        }
        HANDICAPS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, sfen)| Position::from_sfen(sfen).expect("handicap SFEN parses"))
            .ok_or_else(|| SfenError::UnknownName(name.to_string()))
    }

    /// The same board and side to move with other hands: a new position without history, its
    /// ply count at 1. For tsume work (the defender's hand completed, a piece taken out of the
    /// attacker's); refused as an SFEN would be, for example with too many pieces of a kind.
    pub fn with_hands(&self, hands: [Hand; 2]) -> Result<Position, SfenError> {
        Position::from_sfen(&format!(
            "{} {} {} 1",
            board_to_sfen(&self.board),
            self.side.to_sfen(),
            hands_to_sfen(hands)
        ))
    }

    /// The same position with every piece that is on neither the board nor in a hand put in
    /// `c`'s hand: the tsume convention for the defender's hand (KIF's `残り全部`, CSA's
    /// `00AL`).
    pub fn with_the_rest_in_hand(&self, c: Color) -> Result<Position, SfenError> {
        let mut count = [0u32; PieceType::NUM];
        for sq in self.occupied() {
            if let Some(p) = self.piece_on(sq) {
                count[p.piece_type().unpromote() as usize] += 1;
            }
        }
        let mut hands = [self.hand(Color::Black), self.hand(Color::White)];
        for pt in PieceType::HAND {
            let held = count[pt as usize] + hands[0].count(pt) + hands[1].count(pt);
            let missing = (Hand::MAX[pt as usize] as u32).saturating_sub(held);
            let h = &mut hands[c.index()];
            h.set(pt, h.count(pt) + missing);
        }
        self.with_hands(hands)
    }

    /// The SFEN of the current position.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        s.push_str(&board_to_sfen(&self.board));
        s.push(' ');
        s.push(self.side.to_sfen());
        s.push(' ');
        s.push_str(&hands_to_sfen(self.hands));
        s.push(' ');
        s.push_str(&self.sfen_move_number().to_string());
        s
    }

    /// The move number an SFEN of this position carries. A position read at the largest move
    /// number and played on from there counts past it; its SFEN keeps to what the reader
    /// accepts, so that it reads back.
    pub fn sfen_move_number(&self) -> u32 {
        self.game_ply.min(MAX_MOVE_NUMBER)
    }

    /// The board drawn for people, with hands, side, SFEN and key (the USI `d` command).
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("White hand: {:?}\n", self.hands[1]));
        s.push_str("  9  8  7  6  5  4  3  2  1\n+---------------------------+\n");
        for rank in 0..9 {
            s.push('|');
            for file in (0..9).rev() {
                match self.board[Square::new(file, rank).index()] {
                    None => s.push_str(" . "),
                    Some(p) => {
                        let t = p.to_sfen();
                        s.push_str(&format!("{t:>3}"));
                    }
                }
            }
            s.push_str(&format!("| {}\n", (b'a' + rank) as char));
        }
        s.push_str("+---------------------------+\n");
        s.push_str(&format!("Black hand: {:?}\n", self.hands[0]));
        s.push_str(&format!("Side to move: {:?}\n", self.side));
        s.push_str(&format!("SFEN: {}\n", self.to_sfen()));
        s.push_str(&format!("Key: {:016x}\n", self.key()));
        let checkers: Vec<String> = self.checkers().iter().map(|sq| sq.to_string()).collect();
        s.push_str(&format!(
            "Checkers: {}\n",
            if checkers.is_empty() {
                "-".into()
            } else {
                checkers.join(" ")
            }
        ));
        s
    }
}

/// The board field of an SFEN for squares indexed as [`Square::index`].
pub fn board_to_sfen(board: &[Option<Piece>; 81]) -> String {
    let mut s = String::with_capacity(64);
    for rank in 0..9 {
        if rank > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for file in (0..9).rev() {
            match board[Square::new(file, rank).index()] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&p.to_sfen());
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
    }
    s
}

/// The hand field of an SFEN: Black's pieces (upper case), then White's, rook first, `-` for
/// none.
pub fn hands_to_sfen(hands: [Hand; 2]) -> String {
    let mut s = String::new();
    for c in Color::ALL {
        for pt in PieceType::HAND {
            let n = hands[c.index()].count(pt);
            if n > 1 {
                s.push_str(&n.to_string());
            }
            if n > 0 {
                let l = pt.letter();
                s.push(if c == Color::White {
                    l.to_ascii_lowercase()
                } else {
                    l
                });
            }
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::WrongRankCount(ranks.len()));
    }
    for (rank, text) in ranks.iter().enumerate() {
        let rank_name = (b'a' + rank as u8) as char;
        // Squares are written from file 9 down to file 1.
        let mut file: i32 = 8;
        let mut promoted = false;
        let mut squares = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if promoted {
                    return Err(SfenError::BadPromotion(format!("'+' before '{c}'")));
                }
                if d == 0 {
                    return Err(SfenError::UnknownPiece(c));
                }
                file -= d as i32;
                squares += d as usize;
                continue;
            }
            if c == '+' {
                if promoted {
                    return Err(SfenError::BadPromotion("'++'".into()));
                }
                promoted = true;
                continue;
            }
            let pt = PieceType::from_letter(c).ok_or(SfenError::UnknownPiece(c))?;
            let color = if c.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            let pt = if promoted {
                if !pt.can_promote() {
                    return Err(SfenError::BadPromotion(format!("'+{c}' cannot promote")));
                }
                pt.promote()
            } else {
                pt
            };
            promoted = false;
            squares += 1;
            if file < 0 || squares > 9 {
                return Err(SfenError::WrongRankLength {
                    rank: rank_name,
                    squares: squares.max(10),
                });
            }
            let sq = Square::new(file as u8, rank as u8);
            if pt == PieceType::King {
                if pos.kings[color.index()].is_some() {
                    return Err(SfenError::TwoKings(color));
                }
                pos.kings[color.index()] = Some(sq);
            }
            pos.put_piece(Piece::new(color, pt), sq);
            file -= 1;
        }
        if promoted {
            return Err(SfenError::BadPromotion("'+' at the end of a rank".into()));
        }
        if squares != 9 {
            return Err(SfenError::WrongRankLength {
                rank: rank_name,
                squares,
            });
        }
    }
    Ok(())
}

fn parse_hand(pos: &mut Position, hand: &str) -> Result<(), SfenError> {
    if hand == "-" {
        return Ok(());
    }
    let mut count: Option<u32> = None;
    for c in hand.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 18 {
                return Err(SfenError::BadHand(format!(
                    "count {n} is more than any piece has"
                )));
            }
            count = Some(n);
            continue;
        }
        let pt = PieceType::from_letter(c)
            .filter(|pt| pt.is_hand_type())
            .ok_or_else(|| SfenError::BadHand(format!("'{c}' is not a piece that can be held")))?;
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(SfenError::BadHand(format!("zero count before '{c}'")));
        }
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let h = &mut pos.hands[color.index()];
        // Repeated letters (`ppp`) add up, as some engines write hands that way.
        let total = h.count(pt) + n;
        let max = Hand::MAX[pt.index()] as u32;
        if total > max {
            return Err(SfenError::TooManyPieces {
                kind: pt,
                count: total,
                max,
            });
        }
        h.set(pt, total);
    }
    if let Some(n) = count {
        return Err(SfenError::BadHand(format!(
            "count {n} without a piece letter"
        )));
    }
    Ok(())
}

fn check_piece_counts(pos: &Position) -> Result<(), SfenError> {
    for pt in PieceType::HAND {
        let mut count = pos.hands[0].count(pt) + pos.hands[1].count(pt);
        for sq in Square::all() {
            if let Some(p) = pos.board[sq.index()] {
                if p.piece_type().unpromote() == pt {
                    count += 1;
                }
            }
        }
        let max = Hand::MAX[pt.index()] as u32;
        if count > max {
            return Err(SfenError::TooManyPieces {
                kind: pt,
                count,
                max,
            });
        }
    }
    Ok(())
}

fn check_rules(pos: &Position) -> Result<(), SfenError> {
    for sq in Square::all() {
        if let Some(p) = pos.board[sq.index()] {
            if Position::must_promote(p.color(), p.piece_type(), sq) {
                return Err(SfenError::DeadPiece {
                    square: sq,
                    piece: p.to_sfen(),
                });
            }
        }
    }
    for c in Color::ALL {
        let pawns = pos.pieces(c, PieceType::Pawn);
        for file in 0..9 {
            if (pawns & Bitboard::file(file)).has_more_than_one() {
                return Err(SfenError::Nifu { color: c, file });
            }
        }
    }
    Ok(())
}
