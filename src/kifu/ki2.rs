//! KI2 records: the notation of books, magazines and Kifu for Windows, `▲７六歩 △３四歩 ▲同　銀`.
//!
//! KI2 gives no origin square, so a move names its piece by what a reader sees on the board,
//! following the rules of the Japan Shogi Association that Kifu for Windows and ShogiGUI use:
//! - `同` for a move to the last move's square;
//! - when more than one piece of the kind can reach the square, first the motion alone (`上`
//!   forward, `引` backward, `寄` sideways), then the side alone (`右`, `左` from the mover's
//!   point of view, or `直` for a piece stepping straight forward), then both (`右上`);
//! - for a horse or dragon the side is that of the other candidate, not of the target square
//!   (the association's rule: no `直` for them);
//! - `打` for a drop only when a piece on the board could also move there;
//! - `成` or `不成` when promotion is optional.
//!
//! The header is KIF's (`kif::Header`): `手合割` with the handicap names, or a board diagram.

use super::japanese::{piece_name, FILES, NAMES, RANKS};
use super::kif::{board_diagram, handicap_name, Header};
use super::{Ending, GameRecord, RecordedMove};
use crate::position::Position;
use crate::types::{Color, Move, PieceType, Square};

/// Where a candidate stands, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Right,
    Left,
    Straight,
}

/// How a candidate moves, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Motion {
    Up,
    Down,
    Sideways,
}

/// The marks after the piece name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Marks {
    side: Option<Side>,
    motion: Option<Motion>,
}

impl Marks {
    fn text(self) -> String {
        let side = match self.side {
            Some(Side::Right) => "右",
            Some(Side::Left) => "左",
            Some(Side::Straight) => "直",
            None => "",
        };
        let motion = match self.motion {
            Some(Motion::Up) => "上",
            Some(Motion::Down) => "引",
            Some(Motion::Sideways) => "寄",
            None => "",
        };
        format!("{side}{motion}")
    }
}

/// Ranks gained toward the opponent moving `from` to `to`.
fn forward(c: Color, from: Square, to: Square) -> i32 {
    let d = from.rank() as i32 - to.rank() as i32;
    match c {
        Color::Black => d,
        Color::White => -d,
    }
}

/// How far `a` stands to the right of `b` from `c`'s side: Black's right is file 1.
fn rightward(c: Color, a: Square, b: Square) -> i32 {
    let d = b.file() as i32 - a.file() as i32;
    match c {
        Color::Black => d,
        Color::White => -d,
    }
}

fn motion_of(c: Color, from: Square, to: Square) -> Motion {
    match forward(c, from, to) {
        d if d > 0 => Motion::Up,
        d if d < 0 => Motion::Down,
        _ => Motion::Sideways,
    }
}

/// Horses and dragons take their side from each other, not from the target square.
fn sides_by_candidates(pt: PieceType) -> bool {
    matches!(pt, PieceType::Horse | PieceType::Dragon)
}

/// The squares of the mover's pieces of kind `pt` that can move to `to` legally.
fn candidates(pos: &Position, pt: PieceType, to: Square) -> Vec<Square> {
    let c = pos.side_to_move();
    Square::all()
        .filter(|&sq| {
            pos.piece_on(sq)
                .is_some_and(|p| p.color() == c && p.piece_type() == pt)
        })
        .filter(|&sq| {
            pos.is_legal(Move::normal(sq, to, false)) || pos.is_legal(Move::normal(sq, to, true))
        })
        .collect()
}

/// Whether the piece on `from`, one of `cands`, fits `marks` for a move to `to`.
fn fits(c: Color, pt: PieceType, cands: &[Square], from: Square, to: Square, marks: Marks) -> bool {
    let side_fits = match marks.side {
        None => true,
        Some(Side::Straight) => from.file() == to.file() && forward(c, from, to) > 0,
        Some(side) if sides_by_candidates(pt) => {
            let sign = if side == Side::Right { 1 } else { -1 };
            cands
                .iter()
                .filter(|&&o| o != from)
                .all(|&o| sign * rightward(c, from, o) > 0)
        }
        Some(Side::Right) => rightward(c, from, to) > 0,
        Some(Side::Left) => rightward(c, from, to) < 0,
    };
    side_fits && marks.motion.is_none_or(|m| motion_of(c, from, to) == m)
}

/// The side mark that describes `from` among `cands`, when one does.
fn side_of(c: Color, pt: PieceType, cands: &[Square], from: Square, to: Square) -> Option<Side> {
    [Side::Straight, Side::Right, Side::Left]
        .into_iter()
        .filter(|&s| s != Side::Straight || !sides_by_candidates(pt))
        .find(|&s| {
            fits(
                c,
                pt,
                cands,
                from,
                to,
                Marks {
                    side: Some(s),
                    motion: None,
                },
            )
        })
}

/// The shortest marks that single out `from` among the candidates, in the association's order
/// of preference: motion, side, both.
fn disambiguation(pos: &Position, m: Move) -> Result<String, String> {
    let (from, to) = (m.from(), m.to());
    let c = pos.side_to_move();
    let pt = pos
        .piece_on(from)
        .ok_or_else(|| format!("no piece on the origin of {m}"))?
        .piece_type();
    let cands = candidates(pos, pt, to);
    if cands.len() <= 1 {
        return Ok(String::new());
    }
    let motion = Some(motion_of(c, from, to));
    let side = side_of(c, pt, &cands, from, to);
    let options = [
        Marks { side: None, motion },
        Marks { side, motion: None },
        Marks { side, motion },
    ];
    options
        .into_iter()
        .filter(|o| o.side.is_some() || o.motion.is_some())
        .find(|&o| {
            cands
                .iter()
                .filter(|&&sq| fits(c, pt, &cands, sq, to, o))
                .eq(std::iter::once(&from))
        })
        .map(Marks::text)
        .ok_or_else(|| format!("move {m} cannot be told apart from the other candidates in KI2"))
}

fn sign(c: Color) -> &'static str {
    match c {
        Color::Black => "▲",
        Color::White => "△",
    }
}

/// The KI2 text of `m` played in `pos`, with its sign: `▲７六歩`, `△同　銀右`, `▲５五角打`.
/// `previous_to` is the last move's target (for `同`).
pub fn ki2_move(pos: &Position, m: Move, previous_to: Option<Square>) -> Result<String, String> {
    if !pos.is_legal(m) {
        return Err(format!("illegal move {m} in record"));
    }
    let to = m.to();
    let dest = if previous_to == Some(to) {
        "同　".to_string()
    } else {
        format!("{}{}", FILES[to.file() as usize], RANKS[to.rank() as usize])
    };
    let mark = sign(pos.side_to_move());
    if m.is_drop() {
        let pt = m.dropped();
        let suffix = if candidates(pos, pt, to).is_empty() {
            ""
        } else {
            "打"
        };
        return Ok(format!("{mark}{dest}{}{suffix}", piece_name(pt)));
    }
    let pt = pos
        .piece_on(m.from())
        .map_or(PieceType::Pawn, |p| p.piece_type());
    let promotion = if m.is_promotion() {
        "成"
    } else if pos.is_legal(Move::normal(m.from(), to, true)) {
        "不成"
    } else {
        ""
    };
    Ok(format!(
        "{mark}{dest}{}{}{promotion}",
        piece_name(pt),
        disambiguation(pos, m)?
    ))
}

/// A line of moves from `pos` as one string of signed KI2 moves, `▲７六歩△３四歩▲同　歩`: the
/// form ShogiHome writes a reading line (`#読み筋=`) in. The first move names its square (the
/// line stands apart from the move before it); later ones use `同` for a recapture.
pub fn write_line(pos: &Position, moves: &[Move]) -> Result<String, String> {
    let mut pos = pos.clone();
    let mut prev_to = None;
    let mut s = String::new();
    for &m in moves {
        s.push_str(&ki2_move(&pos, m, prev_to)?);
        prev_to = Some(m.to());
        pos.do_move(m);
    }
    Ok(s)
}

/// Reads a line written as [`write_line`] writes it (signs `▲△` or `☗☖`, spaces between moves
/// allowed), played from `pos`. Every move must be legal and its sign the side to move's.
pub fn read_line(pos: &Position, text: &str) -> Result<Vec<Move>, String> {
    let mut pos = pos.clone();
    let mut prev_to = None;
    let mut moves = Vec::new();
    let signs = ['▲', '△', '☗', '☖'];
    let mut rest = text.trim();
    while let Some(c) = rest.chars().next() {
        let black = match c {
            '▲' | '☗' => true,
            '△' | '☖' => false,
            _ => return Err(format!("'{rest}' does not start with ▲ or △")),
        };
        if black != (pos.side_to_move() == Color::Black) {
            return Err(format!("'{rest}': not that side's move"));
        }
        let body = &rest[c.len_utf8()..];
        let end = body.find(signs).unwrap_or(body.len());
        let word = body[..end].trim_end_matches([' ', '\u{3000}']);
        let m = parse_move(&pos, word, prev_to).map_err(|e| format!("'{word}': {e}"))?;
        prev_to = Some(m.to());
        pos.do_move(m);
        moves.push(m);
        rest = body[end..].trim_start();
    }
    Ok(moves)
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "先手",
        Color::White => "後手",
    }
}

/// The closing `まで…` line, detailed enough for [`read`] to give back the same outcome.
fn result_line(e: Ending, n: usize, to_move: Color) -> String {
    let text = match e {
        Ending::Resign | Ending::Mate => format!("{}の勝ち", side_name(!to_move)),
        Ending::Sennichite | Ending::PerpetualCheck { .. } => "千日手".into(),
        Ending::MaxMoves => "持将棋".into(),
        Ending::AdjudicatedDraw => "中断".into(),
        Ending::Declaration => format!("{}の入玉勝ち", side_name(to_move)),
        Ending::WrongDeclaration { loser }
        | Ending::IllegalMove { loser }
        | Ending::Crash { loser } => format!("{}の反則負け", side_name(loser)),
        Ending::TimeUp { loser } => format!("時間切れにより{}の勝ち", side_name(!loser)),
        Ending::AdjudicatedLoss { loser } => format!("{}の勝ち", side_name(!loser)),
    };
    format!("まで{n}手で{text}\n")
}

/// The width a terminal gives `s`: full-width characters take two columns.
fn display_width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Moves on one line of the move text, as Kifu for Windows lays them out.
const MOVES_PER_LINE: usize = 6;

/// The record as KI2 text (UTF-8: save it as `.ki2u`, or as `.ki2` through
/// [`super::encode_shift_jis`], which is what GUIs expect of that extension).
pub fn write(rec: &GameRecord) -> Result<String, String> {
    let mut pos = Position::from_sfen(&rec.start_sfen).map_err(|e| e.to_string())?;
    let mut s = String::new();
    s.push_str(&format!("開始日時：{}\n", rec.start_time));
    s.push_str(&format!("棋戦：{}\n", rec.event));
    s.push_str(&format!("持ち時間：{}\n", rec.time_control));
    match handicap_name(&rec.start_sfen) {
        Some(name) => s.push_str(&format!("手合割：{name}\n")),
        None => s.push_str(&board_diagram(&pos)),
    }
    s.push_str(&format!("先手：{}\n後手：{}\n", rec.black, rec.white));
    let mut line: Vec<String> = Vec::new();
    let flush = |line: &mut Vec<String>, s: &mut String| {
        if line.is_empty() {
            return;
        }
        let last = line.len() - 1;
        for (i, w) in line.iter().enumerate() {
            s.push_str(w);
            if i < last {
                s.push_str(&" ".repeat(12usize.saturating_sub(display_width(w)).max(1)));
            }
        }
        s.push('\n');
        line.clear();
    };
    let mut prev_to = None;
    for m in &rec.moves {
        line.push(ki2_move(&pos, m.mv, prev_to)?);
        prev_to = Some(m.mv.to());
        pos.do_move(m.mv);
        // A comment belongs to the move that ends the line above it.
        if let Some(c) = &m.comment {
            flush(&mut line, &mut s);
            s.push_str(&format!("*{}\n", c.replace(['\n', '\r'], " ")));
        } else if line.len() == MOVES_PER_LINE {
            flush(&mut line, &mut s);
        }
    }
    flush(&mut line, &mut s);
    match rec.ending {
        Some(e) => s.push_str(&result_line(e, rec.moves.len(), pos.side_to_move())),
        // A game of no moves and no ending still needs a line after the header, or it would
        // read back as no record at all.
        None if rec.moves.is_empty() => s.push_str("まで0手\n"),
        None => {}
    }
    Ok(s)
}

/// The colour a side word names: 先手 and 下手 are Black, 後手 and 上手 White.
fn side_word(text: &str) -> Option<Color> {
    let black = ["先手", "下手", "▲", "☗"]
        .iter()
        .filter_map(|w| text.find(w))
        .min();
    let white = ["後手", "上手", "△", "☖"]
        .iter()
        .filter_map(|w| text.find(w))
        .min();
    match (black, white) {
        (Some(b), Some(w)) => Some(if b < w { Color::Black } else { Color::White }),
        (Some(_), None) => Some(Color::Black),
        (None, Some(_)) => Some(Color::White),
        (None, None) => None,
    }
}

/// The ending a `まで…` line states, judged against the final position.
pub(super) fn parse_result(line: &str, pos: &Position) -> Option<Ending> {
    let tail = line.split_once("手で").map_or(line, |(_, t)| t);
    let to_move = pos.side_to_move();
    let who = side_word(tail);
    let e = if tail.contains("千日手") {
        super::repetition_ending(pos)
    } else if tail.contains("持将棋") {
        Ending::MaxMoves
    } else if tail.contains("中断") {
        Ending::AdjudicatedDraw
    } else if tail.contains("入玉勝ち") {
        Ending::Declaration
    } else if tail.contains("反則負け") {
        Ending::IllegalMove {
            loser: who.unwrap_or(!to_move),
        }
    } else if tail.contains("反則勝ち") {
        Ending::IllegalMove {
            loser: !who.unwrap_or(to_move),
        }
    } else if tail.contains("切れ負け") {
        Ending::TimeUp {
            loser: who.unwrap_or(to_move),
        }
    } else if tail.contains("時間切れ") {
        Ending::TimeUp {
            loser: !who.unwrap_or(!to_move),
        }
    } else if tail.contains('詰') {
        Ending::Mate
    } else if tail.contains("の勝ち") || tail.contains("の負け") {
        let mut winner = who?;
        if tail.contains("の負け") {
            winner = !winner;
        }
        if winner == to_move {
            // The side to move won: the last mover lost without the record saying how.
            Ending::AdjudicatedLoss { loser: !to_move }
        } else if crate::movegen::count_legal(pos) == 0 {
            Ending::Mate
        } else {
            Ending::Resign
        }
    } else {
        return None;
    };
    Some(e)
}

/// Ending words some tools write in place of a move, as KIF does: `△投了`.
fn ending_word(word: &str, to_move: Color) -> Option<Ending> {
    Some(match word {
        "投了" => Ending::Resign,
        "詰み" => Ending::Mate,
        "千日手" => Ending::Sennichite,
        "持将棋" => Ending::MaxMoves,
        "中断" => Ending::AdjudicatedDraw,
        "入玉勝ち" => Ending::Declaration,
        "反則負け" => Ending::IllegalMove { loser: to_move },
        "切れ負け" => Ending::TimeUp { loser: to_move },
        _ => return None,
    })
}

/// A file or rank character: full-width or ASCII digits, or kanji numerals.
fn coordinate(ch: char) -> Option<u8> {
    let n = FILES
        .iter()
        .position(|f| f.starts_with(ch))
        .or_else(|| RANKS.iter().position(|r| r.starts_with(ch)))
        .or_else(|| {
            ch.to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .map(|d| d as usize - 1)
        })?;
    Some(n as u8)
}

/// Piece names a KI2 move may use: KIF's, and the one-character board names of the promoted
/// minor pieces that some tools write.
fn piece_prefix(text: &str) -> Option<(PieceType, &str)> {
    NAMES
        .iter()
        .copied()
        .chain([("杏", PieceType::ProLance), ("圭", PieceType::ProKnight)])
        .find_map(|(n, pt)| text.strip_prefix(n).map(|r| (pt, r)))
}

/// Parses one move (its sign already checked and removed) in `pos`.
fn parse_move(pos: &Position, text: &str, prev_to: Option<Square>) -> Result<Move, String> {
    let (to, rest) = if let Some(r) = text.strip_prefix('同') {
        let to = prev_to.ok_or("同 with no previous move")?;
        (to, r.trim_start_matches(['　', ' ']))
    } else {
        let mut cs = text.chars();
        let (f, r) = (cs.next(), cs.next());
        let file = f.and_then(coordinate).ok_or("no target square")?;
        let rank = r.and_then(coordinate).ok_or("no target square")?;
        (Square::new(file, rank), cs.as_str())
    };
    // `７六同歩`: some tools write both the square and 同.
    let rest = rest.trim_start_matches(['同', '　']);
    let (pt, mut rest) = piece_prefix(rest).ok_or("no piece name")?;
    let mut marks = Marks::default();
    let (mut drop, mut promote, mut no_promote) = (false, false, false);
    let mut origin: Option<Square> = None;
    while !rest.is_empty() {
        let mut take = |word: &str| match rest.strip_prefix(word) {
            Some(r) => {
                rest = r;
                true
            }
            None => false,
        };
        if take("不成") || take("生") {
            no_promote = true;
        } else if take("成") {
            promote = true;
        } else if take("打") {
            drop = true;
        } else if take("右") {
            marks.side = Some(Side::Right);
        } else if take("左") {
            marks.side = Some(Side::Left);
        } else if take("直") {
            marks.side = Some(Side::Straight);
        } else if take("上") || take("行") || take("入") {
            marks.motion = Some(Motion::Up);
        } else if take("引") {
            marks.motion = Some(Motion::Down);
        } else if take("寄") {
            marks.motion = Some(Motion::Sideways);
        } else if rest.starts_with('(') {
            // An origin in KIF style, `(77)`, as tsume tools add it.
            let inner: Vec<u32> = rest[1..]
                .chars()
                .take_while(|&c| c != ')')
                .filter_map(|c| c.to_digit(10))
                .collect();
            match inner.as_slice() {
                [f @ 1..=9, r @ 1..=9] => {
                    origin = Some(Square::new(*f as u8 - 1, *r as u8 - 1));
                }
                _ => return Err("bad origin".into()),
            }
            let close = rest.find(')').ok_or("bad origin")?;
            rest = &rest[close + 1..];
        } else {
            let bad: String = rest.chars().next().into_iter().collect();
            return Err(format!("unexpected '{bad}'"));
        }
    }
    if promote && no_promote {
        return Err("both 成 and 不成".into());
    }
    let drop_move = Move::drop(pt, to);
    if drop {
        if promote || no_promote || marks != Marks::default() || origin.is_some() {
            return Err("a drop takes no other mark".into());
        }
        return if pos.is_legal(drop_move) {
            Ok(drop_move)
        } else {
            Err("illegal drop".into())
        };
    }
    if promote && !pt.can_promote() {
        return Err(format!("{} cannot promote", piece_name(pt)));
    }
    let c = pos.side_to_move();
    let cands = candidates(pos, pt, to);
    let found: Vec<Square> = cands
        .iter()
        .copied()
        .filter(|&sq| fits(c, pt, &cands, sq, to, marks) && origin.is_none_or(|o| o == sq))
        .collect();
    match found.as_slice() {
        [] if marks == Marks::default() && !promote && !no_promote && origin.is_none() => {
            // No piece on the board can go there: a drop needs no 打.
            if pos.is_legal(drop_move) {
                Ok(drop_move)
            } else {
                Err("no piece can move there".into())
            }
        }
        [] => Err("no piece with these marks can move there".into()),
        [from] => {
            let m = Move::normal(*from, to, promote);
            if pos.is_legal(m) {
                Ok(m)
            } else {
                Err("the piece must promote there (成)".into())
            }
        }
        many => Err(format!(
            "{} pieces can move there: the move needs 右/左/直/上/引/寄",
            many.len()
        )),
    }
}

/// Splits a move line at its signs: `▲７六歩    △３四歩` gives `▲７六歩`, `△３四歩`.
fn split_moves(line: &str) -> Vec<&str> {
    let starts: Vec<usize> = line
        .char_indices()
        .filter(|(_, c)| matches!(c, '▲' | '△' | '☗' | '☖'))
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let end = starts.get(k + 1).copied().unwrap_or(line.len());
            line[i..end].trim_end_matches([' ', '　', '\t'])
        })
        .collect()
}

/// Reads a KI2 record: KIF's header (`手合割` with handicap names, or a board diagram), moves
/// several to a line, `*` comments, and the closing `まで…` line. Variations (`変化：`) follow
/// the main line, so the reader stops at the first: the record is the main line
/// ([`read_with_variations`] reads them too).
pub fn read(text: &str) -> Result<GameRecord, String> {
    let mut rec = GameRecord::empty();
    let mut header = Header::default();
    let mut pos: Option<Position> = None;
    let mut prev_to: Option<Square> = None;
    let mut saw_moves = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_start_matches('\u{feff}').trim_end();
        let err = |what: &str| format!("KI2 line {}: {what}: '{line}'", n + 1);
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('&') {
            continue;
        }
        if trimmed.starts_with("変化：") || trimmed.starts_with("変化:") {
            break;
        }
        if let Some(c) = trimmed.strip_prefix('*') {
            if let Some(m) = rec.moves.last_mut() {
                let c = c.trim();
                m.comment = Some(match m.comment.take() {
                    Some(old) => format!("{old} {c}"),
                    None => c.to_string(),
                });
            }
            continue;
        }
        if pos.is_none() && header.take(&mut rec, line) {
            continue;
        }
        let starts_moves = trimmed.starts_with(['▲', '△', '☗', '☖']);
        let is_result = trimmed.starts_with("まで");
        if !starts_moves && !is_result {
            if saw_moves {
                return Err(err("not a line of moves"));
            }
            // Other header lines (終了日時, 場所, 戦型, ...) carry nothing the record keeps.
            continue;
        }
        if pos.is_none() {
            let sfen = header.start_sfen().map_err(|e| err(&e))?;
            let p = Position::from_sfen(&sfen).map_err(|e| err(&e.to_string()))?;
            rec.start_sfen = p.to_sfen();
            pos = Some(p);
        }
        let Some(p) = pos.as_mut() else {
            continue;
        };
        saw_moves = true;
        if is_result {
            rec.ending = parse_result(trimmed, p).or(rec.ending);
            continue;
        }
        for word in split_moves(trimmed) {
            let mut chars = word.chars();
            let mover = match chars.next() {
                Some('▲' | '☗') => Color::Black,
                _ => Color::White,
            };
            let body = chars.as_str();
            if let Some(e) = ending_word(body, p.side_to_move()) {
                rec.ending = Some(e);
                continue;
            }
            if rec.ending.is_some() {
                return Err(err("a move after the end of the game"));
            }
            if mover != p.side_to_move() {
                return Err(err(&format!(
                    "'{word}' is played by the side not to move (move {})",
                    rec.moves.len() + 1
                )));
            }
            let m = parse_move(p, body, prev_to)
                .map_err(|e| err(&format!("move {} '{word}': {e}", rec.moves.len() + 1)))?;
            prev_to = Some(m.to());
            p.do_move(m);
            rec.moves.push(RecordedMove::untimed(m));
        }
    }
    let Some(p) = pos else {
        return Err("KI2 has no moves (no ▲/△ line) and no まで line".into());
    };
    if matches!(rec.ending, Some(Ending::Sennichite)) {
        rec.ending = Some(super::repetition_ending(&p));
    }
    Ok(rec)
}

/// Reads a KI2 record as [`read`] does, and its variations too (the `変化：N手` blocks after the
/// main line, their moves written as the main line's), each as the line it makes branching off
/// the main line, as [`super::kif::read_with_variations`] reads KIF's.
pub fn read_with_variations(
    text: &str,
) -> Result<(GameRecord, Vec<super::kif::Variation>), String> {
    let rec = read(text)?;
    let variations = super::kif::variations_from_blocks(text, &rec, block_line)?;
    Ok((rec, variations))
}

/// A KI2 variation block's moves (with their comments) and its ending, played from `pos`, the
/// position at its ply: moves several to a line, `同` after the move before it.
fn block_line(
    mut pos: Position,
    mut prev_to: Option<Square>,
    lines: &[(usize, &str)],
) -> Result<super::kif::BlockLine, String> {
    let (mut moves, mut notes, mut ending) = (Vec::new(), Vec::<Vec<String>>::new(), None);
    for &(n, line) in lines {
        let trimmed = line.trim_start();
        if let Some(c) = trimmed.strip_prefix('*') {
            if let Some(last) = notes.last_mut() {
                last.push(c.to_string());
            }
            continue;
        }
        if trimmed.starts_with("まで") {
            ending = parse_result(trimmed, &pos).or(ending);
            continue;
        }
        if !trimmed.starts_with(['▲', '△', '☗', '☖']) {
            continue;
        }
        for word in split_moves(trimmed) {
            let mut chars = word.chars();
            let black = matches!(chars.next(), Some('▲' | '☗'));
            let body = chars.as_str();
            if let Some(e) = ending_word(body, pos.side_to_move()) {
                ending = Some(e);
                continue;
            }
            let err = |what: String| format!("KI2 line {}: {what}: '{line}'", n + 1);
            if ending.is_some() {
                return Err(err("a move after the end".into()));
            }
            if black != (pos.side_to_move() == Color::Black) {
                return Err(err(format!("'{word}' is played by the side not to move")));
            }
            let m = parse_move(&pos, body, prev_to).map_err(|e| err(format!("'{word}': {e}")))?;
            prev_to = Some(m.to());
            pos.do_move(m);
            moves.push(m);
            notes.push(Vec::new());
        }
    }
    Ok((moves, notes, ending))
}
