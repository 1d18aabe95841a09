//! KIF records in UTF-8 (`.kifu`), as ShogiHome and other GUIs read them.

use super::japanese::{kif_move, piece_name, FILES, NAMES, RANKS};
use super::{Ending, GameRecord, RecordedMove};
use crate::position::{Position, STARTPOS};
use crate::types::{Color, Move, PieceType, Square};

fn ending_word(e: Ending) -> &'static str {
    match e {
        Ending::Resign => "投了",
        Ending::Mate => "詰み",
        Ending::Sennichite | Ending::PerpetualCheck { .. } => "千日手",
        Ending::Declaration => "入玉勝ち",
        Ending::WrongDeclaration { .. } | Ending::IllegalMove { .. } | Ending::Crash { .. } => {
            "反則負け"
        }
        Ending::TimeUp { .. } => "切れ負け",
        Ending::MaxMoves => "持将棋",
        Ending::AdjudicatedLoss { .. } | Ending::AdjudicatedDraw => "中断",
    }
}

fn hms(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn hand_text(pos: &Position, c: Color) -> String {
    let h = pos.hand(c);
    let kanji = [
        "", "", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三",
        "十四", "十五", "十六", "十七", "十八",
    ];
    let parts: Vec<String> = PieceType::HAND
        .iter()
        .filter(|&&pt| h.count(pt) > 0)
        .map(|&pt| format!("{}{}", piece_name(pt), kanji[h.count(pt) as usize]))
        .collect();
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

/// The board diagram (BOD) with both hands and the side to move, as KIF and KI2 write a start
/// position that has no handicap name.
pub(super) fn board_diagram(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str(&format!("後手の持駒：{}\n", hand_text(pos, Color::White)));
    s.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 0..9u8 {
        s.push('|');
        for file in (0..9).rev() {
            match pos.piece_on(Square::new(file, rank)) {
                None => s.push_str(" ・"),
                Some(p) => {
                    s.push(if p.color() == Color::White { 'v' } else { ' ' });
                    s.push_str(board_name(p.piece_type()));
                }
            }
        }
        s.push_str(&format!("|{}\n", RANKS[rank as usize]));
    }
    s.push_str("+---------------------------+\n");
    s.push_str(&format!("先手の持駒：{}\n", hand_text(pos, Color::Black)));
    if pos.side_to_move() == Color::White {
        s.push_str("後手番\n");
    }
    s
}

/// The record as KIF text.
pub fn write(rec: &GameRecord) -> Result<String, String> {
    write_annotated(rec, &[])
}

/// The record as KIF text with comments of the caller's: `notes[0]` on the start position
/// (after the move list header, where GUIs keep the start position's comment), `notes[i]` on
/// move `i`. Each note is a list of lines, each written as a `*` comment line; a missing entry
/// is no comment.
pub fn write_annotated(rec: &GameRecord, notes: &[Vec<String>]) -> Result<String, String> {
    write_with_variations(rec, notes, &[])
}

/// A line that branches off a record's main line (KIF's `変化`): from the main line's move
/// `ply` on, it is played instead.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variation {
    /// The ply of the main line whose move it replaces, from 1.
    pub ply: usize,
    pub moves: Vec<Move>,
    /// Comment lines on its moves: `notes[i]` after `moves[i]`; a missing entry is no comment.
    pub notes: Vec<Vec<String>>,
    /// How it ends, written as the word after its last move (`詰み` for a mate).
    pub ending: Option<Ending>,
}

/// The record as KIF text, with comments as [`write_annotated`] writes them, and `variations`
/// after the main line as `変化：N手` blocks.
///
/// The lines make one tree: variations that share moves past the main line share them in the
/// record too (a block branches off the variation before it where they part), and one that is
/// the beginning of another is written as part of it, its comments where its moves are. GUIs
/// read a block as branching off the line read last at its ply (ShogiHome goes back along
/// the current line), so the blocks come in the order of a depth-first walk of the tree: after
/// a line, the branches off it from the latest branch point back, each followed by its own;
/// the variations of one move in the order given. A move with another branch after it is
/// marked `+`, as Kifu for Windows marks it. Every variation must branch off the main line:
/// its ply within the main line, and its first move another than the main line's there.
pub fn write_with_variations(
    rec: &GameRecord,
    notes: &[Vec<String>],
    variations: &[Variation],
) -> Result<String, String> {
    let start = Position::from_sfen(&rec.start_sfen).map_err(|e| e.to_string())?;
    for v in variations {
        let main = rec.moves.get(v.ply.wrapping_sub(1)).map(|m| m.mv);
        if main.is_none() || v.moves.is_empty() || v.moves.first().copied() == main {
            return Err(format!(
                "a variation at ply {} does not branch off the main line of {} moves",
                v.ply,
                rec.moves.len()
            ));
        }
    }
    let mut tree = MoveTree::new();
    let mut main_nodes = Vec::with_capacity(rec.moves.len());
    let mut at = MoveTree::ROOT;
    for m in &rec.moves {
        at = tree.child(at, m.mv);
        main_nodes.push(at);
    }
    for v in variations {
        let mut at = match v.ply {
            1 => MoveTree::ROOT,
            ply => main_nodes[ply - 2],
        };
        for (i, &m) in v.moves.iter().enumerate() {
            at = tree.child(at, m);
            tree.nodes[at]
                .notes
                .extend(v.notes.get(i).into_iter().flatten().cloned());
        }
        tree.nodes[at].ending = tree.nodes[at].ending.or(v.ending);
    }
    let mut pos = start.clone();
    let mut s = String::new();
    s.push_str(FIRST_LINE_UTF8);
    s.push('\n');
    s.push_str(&format!("開始日時：{}\n", rec.start_time));
    s.push_str(&format!("棋戦：{}\n", rec.event));
    s.push_str(&format!("持ち時間：{}\n", rec.time_control));
    // GUIs set up the even game and the standard handicaps from their names.
    if let Some(name) = handicap_name(&rec.start_sfen) {
        s.push_str(&format!("手合割：{name}\n"));
    } else {
        s.push_str(&board_diagram(&pos));
    }
    s.push_str(&format!("先手：{}\n後手：{}\n", rec.black, rec.white));
    s.push_str("手数----指手---------消費時間--\n");
    write_notes(&mut s, notes.first());
    // The main line, as a record's moves are written (with their times and comments).
    let mut total = [0u64; 2];
    let mut prev_to = None;
    let mut branch_points = Vec::new();
    for (i, m) in rec.moves.iter().enumerate() {
        let c = pos.side_to_move().index();
        total[c] += m.time_ms;
        let text = kif_move(&pos, m.mv, prev_to);
        let parent = if i == 0 {
            MoveTree::ROOT
        } else {
            main_nodes[i - 1]
        };
        let others = tree.nodes[parent].children.len() > 1;
        s.push_str(&format!(
            "{:>4} {}   ({:>2}:{:02}/{}){}\n",
            i + 1,
            text,
            m.time_ms / 60000,
            m.time_ms / 1000 % 60,
            hms(total[c]),
            if others { "+" } else { "" }
        ));
        if let Some(cm) = &m.comment {
            s.push_str(&format!("**{}\n", cm.replace(['\n', '\r'], " ")));
        }
        write_notes(&mut s, notes.get(i + 1));
        if !pos.is_legal(m.mv) {
            return Err(format!("illegal move {} in record", m.mv));
        }
        if others {
            branch_points.push((
                tree.nodes[parent].children[1..].to_vec(),
                i + 1,
                pos.clone(),
                prev_to,
            ));
        }
        prev_to = Some(m.mv.to());
        pos.do_move(m.mv);
    }
    if let Some(e) = rec.ending {
        s.push_str(&format!(
            "{:>4} {}   ( 0:00/{})\n",
            rec.moves.len() + 1,
            ending_word(e),
            hms(total[pos.side_to_move().index()])
        ));
        s.push_str(&format!("*{}\n", e.describe()));
        s.push_str(&result_line(e, rec.moves.len(), pos.side_to_move()));
    }
    tree.write_branches(&mut s, branch_points)?;
    Ok(s)
}

/// Writes comment lines, each a `*` line.
fn write_notes(s: &mut String, lines: Option<&Vec<String>>) {
    for line in lines.into_iter().flatten() {
        s.push_str(&format!("*{}\n", line.replace(['\n', '\r'], " ")));
    }
}

/// The moves of a record and its variations as one tree, for [`write_with_variations`].
struct MoveTree {
    /// `nodes[0]` is the start position; every other node is a move, after its parent's.
    nodes: Vec<TreeNode>,
}

#[derive(Default)]
struct TreeNode {
    mv: Option<Move>,
    /// The moves after this one: the line's own first, then its branches in the order given.
    children: Vec<usize>,
    notes: Vec<String>,
    ending: Option<Ending>,
}

/// Branches still to be written off a line: the moves (siblings of the line's move there),
/// their ply, and the position and the last move's square before them.
type BranchPoint = (Vec<usize>, usize, Position, Option<Square>);

impl MoveTree {
    const ROOT: usize = 0;

    fn new() -> MoveTree {
        MoveTree {
            nodes: vec![TreeNode::default()],
        }
    }

    /// The node of `m` after `parent`, made if it is new.
    fn child(&mut self, parent: usize, m: Move) -> usize {
        if let Some(&c) = self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].mv == Some(m))
        {
            return c;
        }
        self.nodes.push(TreeNode {
            mv: Some(m),
            ..TreeNode::default()
        });
        let c = self.nodes.len() - 1;
        self.nodes[parent].children.push(c);
        c
    }

    /// Writes the branches off a line just written, the latest branch point first, each
    /// branch followed by the branches off it.
    fn write_branches(&self, s: &mut String, points: Vec<BranchPoint>) -> Result<(), String> {
        for (siblings, ply, pos, prev_to) in points.into_iter().rev() {
            for (k, &first) in siblings.iter().enumerate() {
                let more = k + 1 < siblings.len();
                s.push_str(&format!("\n変化：{ply}手\n"));
                self.write_branch(s, first, more, ply, pos.clone(), prev_to)?;
            }
        }
        Ok(())
    }

    /// Writes the line from `first` (a move at `ply` in `pos`), following each move's first
    /// child, and then the branches off it; `more` when another branch follows `first`.
    fn write_branch(
        &self,
        s: &mut String,
        first: usize,
        more: bool,
        ply: usize,
        mut pos: Position,
        mut prev_to: Option<Square>,
    ) -> Result<(), String> {
        let mut points = Vec::new();
        let (mut at, mut ply, mut more) = (first, ply, more);
        loop {
            let node = &self.nodes[at];
            let Some(m) = node.mv else {
                return Err("a variation without a move".into());
            };
            if !pos.is_legal(m) {
                return Err(format!("illegal move {m} in a variation at ply {ply}"));
            }
            s.push_str(&format!(
                "{:>4} {}   ( 0:00/00:00:00){}\n",
                ply,
                kif_move(&pos, m, prev_to),
                if more { "+" } else { "" }
            ));
            write_notes(s, Some(&node.notes));
            prev_to = Some(m.to());
            pos.do_move(m);
            let Some((&next, others)) = node.children.split_first() else {
                if let Some(e) = node.ending {
                    s.push_str(&format!(
                        "{:>4} {}   ( 0:00/00:00:00)\n",
                        ply + 1,
                        ending_word(e)
                    ));
                }
                break;
            };
            if !others.is_empty() {
                points.push((others.to_vec(), ply + 1, pos.clone(), prev_to));
            }
            at = next;
            ply += 1;
            more = !others.is_empty();
        }
        self.write_branches(s, points)
    }
}

/// The first line [`write`] and its kin give a record: a comment that names the encoding.
const FIRST_LINE_UTF8: &str = "# KIF形式棋譜ファイル (UTF-8)";

/// KIF text as [`write`] gives it, as the bytes of a `.kif` file: in Shift_JIS, which GUIs
/// expect of that extension (`.kifu` is UTF-8), its first line saying so.
pub fn to_shift_jis(text: &str) -> Result<Vec<u8>, String> {
    let text = match text.strip_prefix(FIRST_LINE_UTF8) {
        Some(rest) => format!("# KIF形式棋譜ファイル (Shift_JIS){rest}"),
        None => text.to_string(),
    };
    super::encode_shift_jis(&text)
}

/// The closing `まで…` line that readers take the result from.
pub(super) fn result_line(e: Ending, n: usize, to_move: Color) -> String {
    let side = |c: Color| {
        if c == Color::Black {
            "先手"
        } else {
            "後手"
        }
    };
    let text = match e {
        Ending::Sennichite => "千日手".to_string(),
        Ending::MaxMoves => "持将棋".to_string(),
        Ending::AdjudicatedDraw => "中断".to_string(),
        Ending::Declaration => format!("{}の入玉勝ち", side(to_move)),
        Ending::WrongDeclaration { loser }
        | Ending::IllegalMove { loser }
        | Ending::Crash { loser } => {
            format!("{}の反則負け", side(loser))
        }
        _ => match e.outcome(to_move) {
            super::Outcome::BlackWin => "先手の勝ち".to_string(),
            super::Outcome::WhiteWin => "後手の勝ち".to_string(),
            super::Outcome::Draw => "千日手".to_string(),
        },
    };
    format!("まで{n}手で{text}\n")
}

/// One-character board names for the KIF diagram.
fn board_name(pt: PieceType) -> &'static str {
    match pt {
        PieceType::ProLance => "杏",
        PieceType::ProKnight => "圭",
        PieceType::ProSilver => "全",
        PieceType::Dragon => "龍",
        _ => piece_name(pt),
    }
}

pub(super) fn board_kind(ch: &str) -> Option<PieceType> {
    match ch {
        "杏" => Some(PieceType::ProLance),
        "圭" => Some(PieceType::ProKnight),
        "全" => Some(PieceType::ProSilver),
        _ => NAMES.iter().find(|(n, _)| *n == ch).map(|(_, pt)| *pt),
    }
}

/// Japanese handicap names (`手合割`) with the names [`Position::from_name`] knows.
const HANDICAP_NAMES: [(&str, &str); 13] = [
    ("平手", "startpos"),
    ("香落ち", "lance"),
    ("右香落ち", "right_lance"),
    ("角落ち", "bishop"),
    ("飛車落ち", "rook"),
    ("飛落ち", "rook"),
    ("飛香落ち", "rook_lance"),
    ("二枚落ち", "2piece"),
    ("三枚落ち", "3piece"),
    ("四枚落ち", "4piece"),
    ("六枚落ち", "6piece"),
    ("八枚落ち", "8piece"),
    ("十枚落ち", "10piece"),
];

/// The start position named by a `手合割` value, or an error naming it. `歩三兵` is read too.
pub fn handicap_sfen(name: &str) -> Result<String, String> {
    let name = name.trim();
    let internal = if name == "歩三兵" {
        "3pawns"
    } else {
        HANDICAP_NAMES
            .iter()
            .find(|(j, _)| *j == name)
            .map(|(_, n)| *n)
            .ok_or_else(|| format!("unknown handicap (手合割) '{name}'"))?
    };
    Position::from_name(internal)
        .map(|p| p.to_sfen())
        .map_err(|e| e.to_string())
}

/// The `手合割` name of a start position, when it is the even game or a standard handicap:
/// GUIs set the board up from this line, so writers use it rather than a diagram.
pub fn handicap_name(sfen: &str) -> Option<&'static str> {
    let target = Position::from_sfen(sfen).ok()?.to_sfen();
    let mut names: Vec<(&'static str, &'static str)> = HANDICAP_NAMES.to_vec();
    names.push(("歩三兵", "3pawns"));
    names
        .into_iter()
        .find_map(|(j, n)| (Position::from_name(n).ok()?.to_sfen() == target).then_some(j))
}

/// The header lines KIF and KI2 share: players, event, `手合割`, and a board diagram (BOD)
/// with hands and the side to move.
#[derive(Default)]
pub(super) struct Header {
    rows: Vec<String>,
    hands: [String; 2],
    white_first: bool,
    handicap: Option<String>,
}

impl Header {
    /// Takes `line` into `rec` or the header when it is a header line; says whether it was.
    pub(super) fn take(&mut self, rec: &mut GameRecord, line: &str) -> bool {
        // Handicap games name the sides 下手 (Black) and 上手 (White).
        let value = |keys: &[&str]| keys.iter().find_map(|k| line.strip_prefix(k));
        if let Some(v) = value(&["先手：", "下手："]) {
            rec.black = v.to_string();
        } else if let Some(v) = value(&["後手：", "上手："]) {
            rec.white = v.to_string();
        } else if let Some(v) = value(&["棋戦："]) {
            rec.event = v.to_string();
        } else if let Some(v) = value(&["開始日時："]) {
            rec.start_time = v.to_string();
        } else if let Some(v) = value(&["持ち時間："]) {
            rec.time_control = v.to_string();
        } else if let Some(v) = value(&["手合割："]) {
            self.handicap = Some(v.trim().to_string());
        } else if let Some(v) = value(&["後手の持駒：", "上手の持駒："]) {
            self.hands[1] = v.to_string();
        } else if let Some(v) = value(&["先手の持駒：", "下手の持駒："]) {
            self.hands[0] = v.to_string();
        } else if line == "後手番" || line == "上手番" {
            self.white_first = true;
        } else if line == "先手番" || line == "下手番" {
            self.white_first = false;
        } else if line.starts_with('|') {
            self.rows.push(line.to_string());
        } else {
            return false;
        }
        true
    }

    /// Whether a board diagram was read.
    pub(super) fn has_diagram(&self) -> bool {
        !self.rows.is_empty()
    }

    /// The start position: the diagram when there is one, else the handicap, else the even
    /// game. `その他` (another position) needs the diagram.
    pub(super) fn start_sfen(&self) -> Result<String, String> {
        if !self.rows.is_empty() {
            return diagram_sfen(&self.rows, &self.hands, self.white_first);
        }
        match self.handicap.as_deref() {
            None | Some("") => Ok(STARTPOS.to_string()),
            Some(h) => handicap_sfen(h),
        }
    }
}

/// Reads a KIF record written by [`write`] or by common GUIs: `手合割` or a board diagram
/// with hands, then numbered moves. Variations (`変化：`) follow the main line in KIF, so the
/// reader stops at the first one: the record is the main line.
pub fn read(text: &str) -> Result<GameRecord, String> {
    let mut rec = GameRecord::empty();
    let mut header = Header::default();
    let mut pos: Option<Position> = None;
    let mut prev_to: Option<Square> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end().trim_start_matches('\u{feff}');
        let err = |what: &str| format!("KIF line {}: {what}: '{line}'", n + 1);
        if line.starts_with("変化：") || line.starts_with("変化:") {
            break;
        }
        if line.starts_with('*') || line.starts_with('#') || line.starts_with('&') {
            continue;
        }
        if pos.is_none() && header.take(&mut rec, line) {
            continue;
        }
        if line.starts_with("まで") {
            // The closing line says how the game ended when no ending word in the move list
            // does (a record cut at a resignation that was not written down).
            if let (None, Some(p)) = (rec.ending, pos.as_ref()) {
                rec.ending = super::ki2::parse_result(line, p);
            }
            continue;
        }
        if line.starts_with("手数") && pos.is_none() {
            let sfen = header.start_sfen().map_err(|e| err(&e))?;
            let p = Position::from_sfen(&sfen).map_err(|e| err(&e.to_string()))?;
            rec.start_sfen = p.to_sfen();
            pos = Some(p);
        } else if let Some(p) = pos.as_mut() {
            match move_line(p, line, prev_to).map_err(|()| err("illegal or malformed move"))? {
                None => {}
                Some(Played::End(e)) => rec.ending = Some(e),
                Some(Played::Move(m)) => {
                    prev_to = Some(m.to());
                    p.do_move(m);
                    rec.moves.push(RecordedMove::untimed(m));
                }
            }
        }
    }
    let p = match pos {
        Some(p) => p,
        // A board diagram alone (BOD, as problems are passed around): a record without moves.
        None if header.has_diagram() => {
            let p = Position::from_sfen(&header.start_sfen()?)
                .map_err(|e| format!("KIF diagram: {e}"))?;
            rec.start_sfen = p.to_sfen();
            p
        }
        None => return Err("KIF has no move list header (手数----指手----)".into()),
    };
    if matches!(rec.ending, Some(Ending::Sennichite)) {
        rec.ending = Some(super::repetition_ending(&p));
    }
    Ok(rec)
}

/// What a numbered line of a KIF move list holds.
enum Played {
    Move(Move),
    /// An ending word (`投了`, `詰み`, ...) in the place of a move.
    End(Ending),
}

/// The move or ending on a line of a KIF move list in `p` (the position before it), `None`
/// when the line is not numbered; `Err` when its move is illegal or malformed.
fn move_line(p: &Position, line: &str, prev_to: Option<Square>) -> Result<Option<Played>, ()> {
    let t = line.trim_start();
    let Some((num, rest)) = t.split_once(' ') else {
        return Ok(None);
    };
    if num.parse::<u32>().is_err() {
        return Ok(None);
    }
    // Only ASCII spaces separate fields: `同　` holds an ideographic space. Some tools
    // write `同 歩(23)` with an ASCII one: the two words are one move.
    let mut words = rest.split(' ').filter(|w| !w.is_empty());
    let first = words.next().unwrap_or("");
    let joined;
    let mv_text = if first == "同" {
        joined = format!("同{}", words.next().unwrap_or(""));
        joined.as_str()
    } else {
        first
    };
    let ending = match mv_text {
        "投了" => Some(Ending::Resign),
        "詰み" => Some(Ending::Mate),
        "千日手" => Some(Ending::Sennichite),
        "入玉勝ち" => Some(Ending::Declaration),
        "反則負け" => Some(Ending::IllegalMove {
            loser: p.side_to_move(),
        }),
        "切れ負け" => Some(Ending::TimeUp {
            loser: p.side_to_move(),
        }),
        // The side to move wins: the move before was illegal (KIF's own word for it).
        "反則勝ち" => Some(Ending::IllegalMove {
            loser: !p.side_to_move(),
        }),
        "持将棋" => Some(Ending::MaxMoves),
        "中断" => Some(Ending::AdjudicatedDraw),
        _ => None,
    };
    if let Some(e) = ending {
        return Ok(Some(Played::End(e)));
    }
    parse_kif_move(p, mv_text, prev_to)
        .map(|m| Some(Played::Move(m)))
        .ok_or(())
}

/// Reads a KIF record as [`read`] does, and its variations too (the `変化：N手` blocks after
/// the main line), each as the line it makes branching off the main line
/// ([`Variation`], with its comments and its ending). A block branches off the line read
/// last, as GUIs read it (see [`write_with_variations`]); one whose moves cannot be played
/// there but can off the main line (as some tools write them) branches off the main line. A
/// block that comes back to the main line whole, or only carries it on past its end, is no
/// variation and is left out.
pub fn read_with_variations(text: &str) -> Result<(GameRecord, Vec<Variation>), String> {
    let rec = read(text)?;
    let variations = variations_from_blocks(text, &rec, block_line)?;
    Ok((rec, variations))
}

/// One variation block as read: its moves, the comment lines on each, and its ending.
pub(super) type BlockLine = (Vec<Move>, Vec<Vec<String>>, Option<Ending>);

/// A record format's reader of one variation block: its moves played from `pos`, the position
/// at the block's ply, `prev_to` the square of the move before (for `同`); `lines` are the
/// block's lines with their numbers in the text.
pub(super) type BlockReader = fn(
    pos: Position,
    prev_to: Option<Square>,
    lines: &[(usize, &str)],
) -> Result<BlockLine, String>;

/// The variations of `text` (KIF or KI2, whose blocks both start with a `変化：N手` line),
/// `rec` being its main line, each block read by `read_block`: as [`read_with_variations`]
/// gives them, flattened to lines off the main line.
pub(super) fn variations_from_blocks(
    text: &str,
    rec: &GameRecord,
    read_block: BlockReader,
) -> Result<Vec<Variation>, String> {
    let start = Position::from_sfen(&rec.start_sfen).map_err(|e| e.to_string())?;
    let main: Vec<Move> = rec.moves.iter().map(|m| m.mv).collect();
    // Each block: its ply, and its lines with their numbers in the text.
    let mut blocks: Vec<(usize, Vec<(usize, &str)>)> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end().trim_start_matches('\u{feff}');
        let header = line
            .strip_prefix("変化：")
            .or_else(|| line.strip_prefix("変化:"));
        if let Some(h) = header {
            let ply = h
                .trim()
                .trim_end_matches('手')
                .trim()
                .parse()
                .map_err(|_| format!("line {}: a variation without its ply: '{line}'", n + 1))?;
            blocks.push((ply, Vec::new()));
        } else if let Some((_, lines)) = blocks.last_mut() {
            lines.push((n, line));
        }
    }
    let mut variations = Vec::new();
    let mut current = main.clone();
    // The block read off `base`, a line from the start, at its ply.
    let read_off = |base: &[Move], ply: usize, lines: &[(usize, &str)]| {
        if ply == 0 || ply > base.len() {
            return Err(format!(
                "a variation at ply {ply} off a line of {} moves",
                base.len()
            ));
        }
        let mut pos = start.clone();
        for &m in &base[..ply - 1] {
            pos.do_move(m);
        }
        let prev_to = ply.checked_sub(2).map(|i| base[i].to());
        read_block(pos, prev_to, lines)
    };
    for (ply, lines) in blocks {
        let (moves, notes, ending) = match read_off(&current, ply, &lines) {
            Ok(line) => line,
            Err(e) => {
                let line = read_off(&main, ply, &lines).map_err(|_| e)?;
                current = main.clone();
                line
            }
        };
        current.truncate(ply - 1);
        current.extend_from_slice(&moves);
        let k = current
            .iter()
            .zip(&main)
            .take_while(|(a, b)| a == b)
            .count();
        if k == current.len() || k == main.len() {
            // The main line, a part of it, or the main line carried on past its end: no branch.
            continue;
        }
        // Comments only for the block's own moves, where they stand in the flattened line.
        let mut flat_notes = vec![Vec::new(); (ply - 1).saturating_sub(k)];
        flat_notes.extend(notes);
        let mut notes: Vec<Vec<String>> = flat_notes
            .into_iter()
            .skip(k.saturating_sub(ply - 1))
            .collect();
        // A move without a comment past the last one with one has no entry, as written.
        while notes.last().is_some_and(Vec::is_empty) {
            notes.pop();
        }
        variations.push(Variation {
            ply: k + 1,
            moves: current[k..].to_vec(),
            notes,
            ending,
        });
    }
    Ok(variations)
}

/// A KIF variation block's moves (with their comments) and its ending, played from `pos`, the
/// position at its ply.
fn block_line(
    mut pos: Position,
    mut prev_to: Option<Square>,
    lines: &[(usize, &str)],
) -> Result<BlockLine, String> {
    let (mut moves, mut notes, mut ending) = (Vec::new(), Vec::<Vec<String>>::new(), None);
    for &(n, line) in lines {
        if let Some(c) = line.strip_prefix('*') {
            if let Some(last) = notes.last_mut() {
                last.push(c.to_string());
            }
            continue;
        }
        match move_line(&pos, line, prev_to) {
            Err(()) => {
                return Err(format!(
                    "KIF line {}: illegal or malformed move: '{line}'",
                    n + 1
                ))
            }
            Ok(None) => {}
            Ok(Some(Played::End(e))) => ending = Some(e),
            Ok(Some(Played::Move(m))) => {
                prev_to = Some(m.to());
                pos.do_move(m);
                moves.push(m);
                notes.push(Vec::new());
            }
        }
    }
    Ok((moves, notes, ending))
}

fn diagram_sfen(rows: &[String], hands: &[String; 2], white_first: bool) -> Result<String, String> {
    if rows.len() != 9 {
        return Err(format!("KIF board has {} ranks", rows.len()));
    }
    let mut board = String::new();
    for (r, row) in rows.iter().enumerate() {
        if r > 0 {
            board.push('/');
        }
        let cells: Vec<char> = row.chars().skip(1).take(18).collect();
        let mut empty = 0;
        for pair in cells.chunks(2) {
            let (mark, ch) = (pair[0], pair.get(1).copied().unwrap_or('・'));
            if ch == '・' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            let pt = board_kind(&ch.to_string())
                .ok_or_else(|| format!("unknown piece '{ch}' in KIF board"))?;
            let mut t = if pt.is_promoted() {
                format!("+{}", pt.letter())
            } else {
                pt.letter().to_string()
            };
            if mark == 'v' {
                t = t.to_lowercase();
            }
            board.push_str(&t);
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    let mut hand = String::new();
    // `残り全部` ("all the rest"), as tsume records give the defender's hand.
    let mut rest = None;
    for (i, h) in hands.iter().enumerate() {
        let h = h.trim_matches([' ', '　']);
        if h == "残り全部" {
            rest = Some([Color::Black, Color::White][i]);
            continue;
        }
        if h.is_empty() || h == "なし" {
            continue;
        }
        for part in h.split(['　', ' ']).filter(|p| !p.is_empty()) {
            let mut chars = part.chars();
            let first = chars.next().map(|c| c.to_string()).unwrap_or_default();
            let pt = board_kind(&first)
                .filter(|pt| pt.is_hand_type())
                .ok_or_else(|| format!("bad KIF hand '{part}'"))?;
            let count = kanji_number(chars.as_str()).unwrap_or(1);
            let l = if i == 0 {
                pt.letter()
            } else {
                pt.letter().to_ascii_lowercase()
            };
            for _ in 0..count {
                hand.push(l);
            }
        }
    }
    let sfen = format!(
        "{board} {} {} 1",
        if white_first { "w" } else { "b" },
        if hand.is_empty() { "-".into() } else { hand }
    );
    match rest {
        None => Ok(sfen),
        Some(c) => Position::from_sfen(&sfen)
            .and_then(|p| p.with_the_rest_in_hand(c))
            .map(|p| p.to_sfen())
            .map_err(|e| format!("KIF diagram: {e}")),
    }
}

fn kanji_number(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    let digit = |c: char| {
        "一二三四五六七八九"
            .chars()
            .position(|k| k == c)
            .map(|i| i as u32 + 1)
    };
    match s.chars().collect::<Vec<_>>().as_slice() {
        ['十'] => Some(10),
        ['十', d] => Some(10 + digit(*d)?),
        [d] => digit(*d),
        _ => None,
    }
}

fn parse_kif_move(pos: &Position, text: &str, prev_to: Option<Square>) -> Option<Move> {
    let (to, rest) = if let Some(r) = text
        .strip_prefix("同　")
        .or_else(|| text.strip_prefix("同"))
    {
        (prev_to?, r)
    } else {
        let mut cs = text.char_indices();
        let (_, f) = cs.next()?;
        let (i, r) = cs.next()?;
        // Full-width digits as KIF writes them, or ASCII ones as some tools do (1..=9: a 0
        // names no file).
        let file = FILES.iter().position(|x| x.starts_with(f)).or_else(|| {
            f.to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .map(|d| d as usize - 1)
        })?;
        let rank = RANKS.iter().position(|x| x.starts_with(r))?;
        (
            Square::new(file as u8, rank as u8),
            &text[i + r.len_utf8()..],
        )
    };
    let (pt, rest) = NAMES
        .iter()
        .find_map(|(n, pt)| rest.strip_prefix(n).map(|r| (*pt, r)))?;
    if rest.starts_with('打') {
        // `５五馬打` names a kind no hand holds: is_legal refuses it with the other bad drops.
        let m = Move::drop(pt, to);
        return pos.is_legal(m).then_some(m);
    }
    let promote = rest.starts_with('成');
    let open = rest.find('(')?;
    let digits: Vec<u32> = rest[open + 1..]
        .chars()
        .filter_map(|c| c.to_digit(10))
        .collect();
    if digits.len() < 2 || digits[0] == 0 || digits[1] == 0 {
        return None;
    }
    let from = Square::new(digits[0] as u8 - 1, digits[1] as u8 - 1);
    let m = Move::normal(from, to, promote);
    pos.is_legal(m).then_some(m)
}
