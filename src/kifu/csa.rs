//! CSA V2.2 records: written by the match runner, read back for checking and replay.

use super::{Ending, GameRecord, RecordedMove};
use crate::position::{Position, STARTPOS};
use crate::types::{Color, Move, Piece, PieceType, Square};

fn csa_piece(pt: PieceType) -> &'static str {
    match pt {
        PieceType::Pawn => "FU",
        PieceType::Lance => "KY",
        PieceType::Knight => "KE",
        PieceType::Silver => "GI",
        PieceType::Gold => "KI",
        PieceType::Bishop => "KA",
        PieceType::Rook => "HI",
        PieceType::King => "OU",
        PieceType::ProPawn => "TO",
        PieceType::ProLance => "NY",
        PieceType::ProKnight => "NK",
        PieceType::ProSilver => "NG",
        PieceType::Horse => "UM",
        PieceType::Dragon => "RY",
    }
}

fn parse_csa_piece(s: &str) -> Option<PieceType> {
    PieceType::ALL.into_iter().find(|&pt| csa_piece(pt) == s)
}

fn sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// `+7776FU`: the mover's sign, origin (`00` for a drop), target, and the kind after the move.
pub fn csa_move(pos: &Position, m: Move) -> String {
    let c = sign(pos.side_to_move());
    let to = m.to();
    if m.is_drop() {
        return format!(
            "{c}00{}{}{}",
            to.file() + 1,
            to.rank() + 1,
            csa_piece(m.dropped())
        );
    }
    let from = m.from();
    let pt = pos
        .piece_on(from)
        .map_or(PieceType::Pawn, |p| p.piece_type());
    let after = if m.is_promotion() { pt.promote() } else { pt };
    format!(
        "{c}{}{}{}{}{}",
        from.file() + 1,
        from.rank() + 1,
        to.file() + 1,
        to.rank() + 1,
        csa_piece(after)
    )
}

fn ending_line(e: Ending) -> &'static str {
    match e {
        Ending::Resign => "%TORYO",
        // A mated side resigns in CSA records: readers then know the winner.
        Ending::Mate => "%TORYO",
        Ending::Sennichite => "%SENNICHITE",
        Ending::PerpetualCheck { .. } => "%OUTE_SENNICHITE",
        Ending::Declaration => "%KACHI",
        Ending::IllegalMove { .. } => "%ILLEGAL_MOVE",
        Ending::WrongDeclaration {
            loser: Color::Black,
        }
        | Ending::Crash {
            loser: Color::Black,
        } => "%+ILLEGAL_ACTION",
        Ending::WrongDeclaration {
            loser: Color::White,
        }
        | Ending::Crash {
            loser: Color::White,
        } => "%-ILLEGAL_ACTION",
        Ending::TimeUp { .. } => "%TIME_UP",
        Ending::MaxMoves => "%MAX_MOVES",
        Ending::AdjudicatedLoss { .. } | Ending::AdjudicatedDraw => "%CHUDAN",
    }
}

/// The whole record as CSA V2.2 text.
pub fn write(rec: &GameRecord) -> Result<String, String> {
    let mut pos = Position::from_sfen(&rec.start_sfen).map_err(|e| e.to_string())?;
    let mut s = String::new();
    s.push_str("V2.2\n");
    s.push_str(&format!(
        "N+{}\nN-{}\n",
        one_line(&rec.black),
        one_line(&rec.white)
    ));
    s.push_str(&format!(
        "$EVENT:{}\n$START_TIME:{}\n",
        one_line(&rec.event),
        rec.start_time
    ));
    s.push_str(&format!("'time control: {}\n", one_line(&rec.time_control)));
    if Position::from_sfen(STARTPOS).map(|p| p.to_sfen()) == Ok(pos.to_sfen()) {
        s.push_str("PI\n");
    } else {
        for rank in 0..9 {
            s.push_str(&format!("P{}", rank + 1));
            for file in (0..9).rev() {
                match pos.piece_on(Square::new(file, rank)) {
                    None => s.push_str(" * "),
                    Some(p) => {
                        s.push_str(&format!("{}{}", sign(p.color()), csa_piece(p.piece_type())))
                    }
                }
            }
            s.push('\n');
        }
        for c in Color::ALL {
            let h = pos.hand(c);
            if !h.is_empty() {
                s.push_str(&format!("P{}", sign(c)));
                for pt in PieceType::HAND {
                    for _ in 0..h.count(pt) {
                        s.push_str(&format!("00{}", csa_piece(pt)));
                    }
                }
                s.push('\n');
            }
        }
    }
    s.push(sign(pos.side_to_move()));
    s.push('\n');
    for m in &rec.moves {
        s.push_str(&csa_move(&pos, m.mv));
        s.push('\n');
        s.push_str(&format!("T{}\n", m.time_ms / 1000));
        if let Some(c) = &m.comment {
            s.push_str(&format!("'** {}\n", one_line(c)));
        }
        if !pos.is_legal(m.mv) {
            return Err(format!("illegal move {} in record", m.mv));
        }
        pos.do_move(m.mv);
    }
    if let Some(e) = rec.ending {
        s.push_str(ending_line(e));
        s.push('\n');
        s.push_str(&format!("'{}\n", e.describe()));
    }
    Ok(s)
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// Reads a CSA record: players, start position (`PI` or `P1`..`P9` with hands), moves and
/// the ending. Comments and times are skipped.
pub fn read(text: &str) -> Result<GameRecord, String> {
    let mut rec = GameRecord::empty();
    let mut board: [Option<Piece>; 81] = [None; 81];
    let mut hands: Vec<(Color, PieceType)> = Vec::new();
    let mut explicit_board = false;
    // The side `00AL` gives every piece left over.
    let mut rest_to: Option<Color> = None;
    let mut pos: Option<Position> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        let err = |what: &str| format!("CSA line {}: {what}: '{line}'", n + 1);
        if line.is_empty()
            || line.starts_with('\'')
            || line.starts_with('V')
            || line.starts_with('T')
            || line.starts_with('$')
        {
            if let Some(v) = line.strip_prefix("$EVENT:") {
                rec.event = v.to_string();
            }
            continue;
        }
        if let Some(v) = line.strip_prefix("N+") {
            rec.black = v.to_string();
        } else if let Some(v) = line.strip_prefix("N-") {
            rec.white = v.to_string();
        } else if line == "PI" {
            explicit_board = false;
        } else if let Some(rest) = line.strip_prefix("P+").or_else(|| line.strip_prefix("P-")) {
            let c = if line.starts_with("P+") {
                Color::Black
            } else {
                Color::White
            };
            for chunk in rest.as_bytes().chunks(4) {
                let chunk = std::str::from_utf8(chunk).map_err(|_| err("bad hand"))?;
                // `00AL`: every piece not placed otherwise, as tsume give the defender.
                if chunk == "00AL" {
                    rest_to = Some(c);
                    continue;
                }
                // Pieces in hand are unpromoted and never the king.
                let pt = chunk
                    .get(2..4)
                    .and_then(parse_csa_piece)
                    .filter(|pt| pt.is_hand_type())
                    .ok_or_else(|| err("bad hand piece"))?;
                hands.push((c, pt));
            }
        } else if line.len() >= 2 && line.starts_with('P') && line.as_bytes()[1].is_ascii_digit() {
            explicit_board = true;
            // `P1`..`P9`: any other digit names no rank.
            let rank = match line.as_bytes()[1] {
                d @ b'1'..=b'9' => (d - b'1') as usize,
                _ => return Err(err("bad rank")),
            };
            let cells = &line[2..];
            for (i, cell) in cells.as_bytes().chunks(3).enumerate().take(9) {
                let cell = std::str::from_utf8(cell).map_err(|_| err("bad cell"))?;
                if cell.trim() == "*" || cell.trim().is_empty() {
                    continue;
                }
                let c = match cell.as_bytes()[0] {
                    b'+' => Color::Black,
                    b'-' => Color::White,
                    _ => return Err(err("bad cell")),
                };
                let pt = cell
                    .get(1..3)
                    .and_then(parse_csa_piece)
                    .ok_or_else(|| err("bad piece"))?;
                let file = 8 - i;
                board[file * 9 + rank] = Some(Piece::new(c, pt));
            }
        } else if line == "+" || line == "-" {
            // A second start (the next game of a file of games, after its `/` line) would
            // restart the position under the moves already read.
            if pos.is_some() {
                return Err(err(
                    "a second start position: one game per record (split a file of games at its '/' lines)",
                ));
            }
            let side = if line == "+" { "b" } else { "w" };
            let sfen = if explicit_board {
                board_sfen(&board, side, &hands)
            } else {
                let mut s = STARTPOS.replace(" b ", &format!(" {side} "));
                if !hands.is_empty() {
                    s = board_sfen(&startpos_board(), side, &hands);
                }
                s
            };
            let mut p = Position::from_sfen(&sfen).map_err(|e| err(&e.to_string()))?;
            if let Some(c) = rest_to {
                p = p
                    .with_the_rest_in_hand(c)
                    .map_err(|e| err(&e.to_string()))?;
            }
            rec.start_sfen = p.to_sfen();
            pos = Some(p);
        } else if line.starts_with('+') || line.starts_with('-') {
            let p = pos
                .as_mut()
                .ok_or_else(|| err("move before the side to move"))?;
            let m = parse_csa_move(p, line).ok_or_else(|| err("illegal or malformed move"))?;
            p.do_move(m);
            rec.moves.push(RecordedMove::untimed(m));
        } else if line.starts_with('%') {
            let loser = pos.as_ref().map_or(Color::Black, |p| p.side_to_move());
            rec.ending = Some(match line {
                "%TORYO" => Ending::Resign,
                "%TSUMI" => Ending::Mate,
                // Who gave perpetual check is read from the moves themselves.
                "%SENNICHITE" | "%OUTE_SENNICHITE" => match &pos {
                    Some(p) => super::repetition_ending(p),
                    None => Ending::Sennichite,
                },
                "%KACHI" => Ending::Declaration,
                "%ILLEGAL_MOVE" => Ending::IllegalMove { loser },
                "%+ILLEGAL_ACTION" => Ending::Crash {
                    loser: Color::Black,
                },
                "%-ILLEGAL_ACTION" => Ending::Crash {
                    loser: Color::White,
                },
                "%TIME_UP" => Ending::TimeUp { loser },
                "%MAX_MOVES" | "%JISHOGI" => Ending::MaxMoves,
                _ => Ending::AdjudicatedDraw,
            });
        }
    }
    Ok(rec)
}

fn startpos_board() -> [Option<Piece>; 81] {
    let p = Position::startpos();
    let mut b = [None; 81];
    for sq in Square::all() {
        b[sq.index()] = p.piece_on(sq);
    }
    b
}

fn board_sfen(board: &[Option<Piece>; 81], side: &str, hands: &[(Color, PieceType)]) -> String {
    let s = crate::position::board_to_sfen(board);
    let mut h = String::new();
    for (c, pt) in hands {
        let l = pt.letter();
        h.push(if *c == Color::Black {
            l
        } else {
            l.to_ascii_lowercase()
        });
    }
    format!(
        "{s} {side} {} 1",
        if h.is_empty() { "-".to_string() } else { h }
    )
}

fn parse_csa_move(pos: &Position, line: &str) -> Option<Move> {
    let b = line.as_bytes();
    if b.len() < 7 {
        return None;
    }
    let digit = |i: usize| (b[i] as char).to_digit(10).map(|d| d as u8);
    let (ff, fr, tf, tr) = (digit(1)?, digit(2)?, digit(3)?, digit(4)?);
    let after = parse_csa_piece(line.get(5..7)?)?;
    if tf == 0 || tr == 0 {
        return None;
    }
    let to = Square::new(tf - 1, tr - 1);
    let m = if ff == 0 && fr == 0 {
        Move::drop(after, to)
    } else {
        if ff == 0 || fr == 0 {
            return None;
        }
        let from = Square::new(ff - 1, fr - 1);
        let before = pos.piece_on(from)?.piece_type();
        // The kind after the move is the kind before it, or its promotion.
        let promote = before != after;
        if promote && !(before.can_promote() && before.promote() == after) {
            return None;
        }
        Move::normal(from, to, promote)
    };
    pos.is_legal(m).then_some(m)
}
