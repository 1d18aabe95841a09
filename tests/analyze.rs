//! `hayate analyze` on a short committed game: the KIF it writes is read back by our reader to
//! the same moves, every position carries a score and a legal reading line in ShogiHome's
//! comments, the SVG is well-formed XML with one point a move, and the JSON agrees with the
//! KIF. Searches are limited by nodes on one thread, never by time.

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use hayate::analyze::{self, AnalyzeOptions};
use hayate::kifu::{self, ki2, Ending};
use hayate::{Move, Position};

const GAME: &str = "tests/data/analyze/game.kif";
/// The same game as a `position` line.
const GAME_LINE: &str = "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d \
    8e8f 8g8f 8b8f 4i4h 3b4b 8h2b+ 3a2b 2d2b+ 8f8i+ 2b2a 5a6b P*2d B*7g 5i4i 7g9i P*8h 9i8h+ \
    B*8c N*7b 2a3a 4b5b";

/// Runs the binary with `args` and `stdin`; returns the exit code, stdout and stderr.
fn hayate(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hayate");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

// ---------------------------------------------------------------- a small JSON reader

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(m) => m.get(key).unwrap_or_else(|| panic!("no key {key}")),
            _ => panic!("not an object looking for {key}"),
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(v) => v,
            _ => panic!("not an array"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn num(&self) -> f64 {
        match self {
            Json::Num(n) => *n,
            _ => panic!("not a number: {self:?}"),
        }
    }
}

/// A strict reader of RFC 8259 JSON (enough to check what the analysis writes).
struct JsonReader<'a> {
    s: &'a [u8],
    at: usize,
}

impl JsonReader<'_> {
    fn parse(text: &str) -> Json {
        let mut r = JsonReader {
            s: text.as_bytes(),
            at: 0,
        };
        let v = r.value();
        r.ws();
        assert_eq!(r.at, r.s.len(), "trailing text after the JSON value");
        v
    }
    fn ws(&mut self) {
        while self.at < self.s.len() && b" \t\r\n".contains(&self.s[self.at]) {
            self.at += 1;
        }
    }
    fn eat(&mut self, c: u8) {
        self.ws();
        assert_eq!(
            self.s.get(self.at),
            Some(&c),
            "expected '{}' at {}",
            c as char,
            self.at
        );
        self.at += 1;
    }
    fn value(&mut self) -> Json {
        self.ws();
        match self.s[self.at] {
            b'{' => {
                self.at += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.s[self.at] == b'}' {
                    self.at += 1;
                    return Json::Obj(m);
                }
                loop {
                    self.ws();
                    let Json::Str(k) = self.value() else {
                        panic!("object key is not a string")
                    };
                    self.eat(b':');
                    let v = self.value();
                    assert!(m.insert(k, v).is_none(), "duplicate key");
                    self.ws();
                    match self.s[self.at] {
                        b',' => self.at += 1,
                        b'}' => {
                            self.at += 1;
                            return Json::Obj(m);
                        }
                        c => panic!("unexpected '{}' in object", c as char),
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut v = Vec::new();
                self.ws();
                if self.s[self.at] == b']' {
                    self.at += 1;
                    return Json::Arr(v);
                }
                loop {
                    v.push(self.value());
                    self.ws();
                    match self.s[self.at] {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Json::Arr(v);
                        }
                        c => panic!("unexpected '{}' in array", c as char),
                    }
                }
            }
            b'"' => {
                self.at += 1;
                let mut out = Vec::new();
                loop {
                    let c = self.s[self.at];
                    self.at += 1;
                    match c {
                        b'"' => return Json::Str(String::from_utf8(out).unwrap()),
                        b'\\' => {
                            let e = self.s[self.at];
                            self.at += 1;
                            let ch = match e {
                                b'"' => '"',
                                b'\\' => '\\',
                                b'/' => '/',
                                b'n' => '\n',
                                b'r' => '\r',
                                b't' => '\t',
                                b'b' => '\u{8}',
                                b'f' => '\u{c}',
                                b'u' => {
                                    let hex =
                                        std::str::from_utf8(&self.s[self.at..self.at + 4]).unwrap();
                                    self.at += 4;
                                    char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap()
                                }
                                _ => panic!("bad escape"),
                            };
                            out.extend(ch.to_string().as_bytes());
                        }
                        c if c < 0x20 => panic!("raw control character in a string"),
                        c => out.push(c),
                    }
                }
            }
            b't' | b'f' | b'n' => {
                for (word, v) in [
                    ("true", Json::Bool(true)),
                    ("false", Json::Bool(false)),
                    ("null", Json::Null),
                ] {
                    if self.s[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return v;
                    }
                }
                panic!("bad literal at {}", self.at)
            }
            _ => {
                let start = self.at;
                while self.at < self.s.len() && b"+-.eE0123456789".contains(&self.s[self.at]) {
                    self.at += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.at]).unwrap();
                Json::Num(t.parse().unwrap_or_else(|_| panic!("bad number '{t}'")))
            }
        }
    }
}

// ---------------------------------------------------------------- a small XML checker

/// Checks that `text` is well-formed XML: one root element, tags closed in order, attribute
/// values quoted, entities known. Returns the elements' names with their attributes, in order.
fn xml_elements(text: &str) -> Vec<(String, BTreeMap<String, String>)> {
    let mut stack: Vec<String> = Vec::new();
    let mut elements = Vec::new();
    let mut roots = 0;
    let mut rest = text;
    let check_text = |t: &str| {
        assert!(!t.contains('<'));
        let mut parts = t.split('&');
        parts.next();
        for p in parts {
            let (name, _) = p.split_once(';').expect("an entity without ';'");
            assert!(
                ["amp", "lt", "gt", "quot", "apos"].contains(&name) || name.starts_with('#'),
                "unknown entity &{name};"
            );
        }
    };
    while let Some(open) = rest.find('<') {
        let before = &rest[..open];
        if stack.is_empty() {
            assert!(
                before.trim().is_empty(),
                "text outside the root: {before:?}"
            );
        }
        check_text(before);
        rest = &rest[open..];
        if let Some(r) = rest.strip_prefix("<?") {
            let end = r.find("?>").expect("unclosed <?");
            rest = &r[end + 2..];
            continue;
        }
        if let Some(r) = rest.strip_prefix("<!--") {
            let end = r.find("-->").expect("unclosed comment");
            rest = &r[end + 3..];
            continue;
        }
        let end = rest.find('>').expect("unclosed tag");
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.trim()),
                "mismatched </{name}>"
            );
            continue;
        }
        let (body, closed) = match tag.strip_suffix('/') {
            Some(b) => (b, true),
            None => (tag, false),
        };
        let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
        let name = &body[..name_end];
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == ':' || c == '-'),
            "bad tag name {name:?}"
        );
        let mut attrs = BTreeMap::new();
        let mut a = body[name_end..].trim_start();
        while !a.is_empty() {
            let eq = a.find('=').expect("attribute without a value");
            let key = a[..eq].trim();
            let v = &a[eq + 1..];
            let q = v.chars().next().expect("attribute value");
            assert!(q == '"' || q == '\'', "unquoted attribute {key}");
            let close = v[1..].find(q).expect("unclosed attribute value") + 1;
            let value = &v[1..close];
            check_text(value);
            assert!(attrs.insert(key.to_string(), value.to_string()).is_none());
            a = v[close + 1..].trim_start();
        }
        if stack.is_empty() {
            roots += 1;
        }
        elements.push((name.to_string(), attrs));
        if !closed {
            stack.push(name.to_string());
        }
    }
    assert!(
        rest.trim().is_empty() && stack.is_empty(),
        "unclosed {stack:?}"
    );
    assert_eq!(roots, 1, "one root element");
    elements
}

// ---------------------------------------------------------------- the KIF's comments

/// The comment lines (without `*`) of each node of an analysed KIF: index 0 the start
/// position, index i move i.
fn comments_by_node(kif: &str) -> Vec<Vec<String>> {
    let mut nodes: Vec<Vec<String>> = Vec::new();
    let mut in_moves = false;
    for line in kif.lines() {
        if line.starts_with("手数----") {
            in_moves = true;
            nodes.push(Vec::new());
            continue;
        }
        if !in_moves {
            continue;
        }
        if let Some(c) = line.strip_prefix('*') {
            nodes.last_mut().unwrap().push(c.to_string());
        } else if line
            .trim_start()
            .split(' ')
            .next()
            .is_some_and(|n| n.parse::<u32>().is_ok())
            && !line.contains("投了")
        {
            nodes.push(Vec::new());
        }
    }
    nodes
}

fn field<'a>(lines: &'a [String], key: &str) -> Option<&'a str> {
    lines.iter().find_map(|l| l.strip_prefix(key))
}

fn usi_moves(pos: &Position, list: &Json) -> Vec<Move> {
    let mut p = pos.clone();
    list.arr()
        .iter()
        .map(|m| {
            let m = p.parse_usi_move(m.str()).expect("a legal PV move");
            p.do_move(m);
            m
        })
        .collect()
}

#[test]
fn analyze_writes_kif_json_and_svg_that_agree() {
    let original = kifu::kif::read(&kifu::read_text(GAME.as_ref()).unwrap()).unwrap();
    let dir = common::TempDir::new("analyze");
    let (kif_path, svg_path) = (dir.join("game.kif"), dir.join("game.svg"));
    let (code, json_text, err) = hayate(
        &[
            "analyze",
            "--nodes",
            "3000",
            "--threads",
            "1",
            "--hash",
            "16",
            "--json",
            "--kif",
            kif_path.to_str().unwrap(),
            "--svg",
            svg_path.to_str().unwrap(),
            GAME,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let n = original.moves.len();
    assert_eq!(n, 32);
    assert!(err.contains(&format!("analyze: {}/{} positions", n + 1, n + 1)));
    assert!(err.contains("平均損失"), "the summary on stderr: {err}");

    // The KIF reads back to the same game. A `.kif` file is Shift_JIS, as GUIs read it.
    let bytes = std::fs::read(&kif_path).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "game.kif is not UTF-8"
    );
    let kif = kifu::decode(&bytes).unwrap();
    assert!(
        kif.starts_with("# KIF形式棋譜ファイル (Shift_JIS)\n"),
        "{kif}"
    );
    let back = kifu::kif::read(&kif).unwrap();
    let moves = |r: &kifu::GameRecord| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(moves(&back), moves(&original));
    assert_eq!(back.start_sfen, original.start_sfen);
    assert_eq!(back.ending, Some(Ending::Resign));
    assert_eq!(
        (back.black.as_str(), back.white.as_str()),
        ("Sente & \"Black\"", "後手 <White>")
    );

    // Every node, the start and each move, carries a score and a legal line from its position.
    let nodes = comments_by_node(&kif);
    assert_eq!(nodes.len(), n + 1);
    let json = JsonReader::parse(&json_text);
    let positions = json.get("positions").arr();
    let jmoves = json.get("moves").arr();
    assert_eq!((positions.len(), jmoves.len()), (n + 1, n));
    let mut pos = Position::from_sfen(&original.start_sfen).unwrap();
    for (i, lines) in nodes.iter().enumerate() {
        if i > 0 {
            pos.do_move(original.moves[i - 1].mv);
        }
        let score: i32 = field(lines, "#評価値=")
            .unwrap_or_else(|| panic!("node {i} has no #評価値=: {lines:?}"))
            .parse()
            .unwrap();
        let pv_ja = field(lines, "#読み筋=").unwrap_or_else(|| panic!("node {i}: no #読み筋="));
        let pv = ki2::read_line(&pos, pv_ja).unwrap_or_else(|e| panic!("node {i}: {e}"));
        assert!(!pv.is_empty());
        assert!(field(lines, "#深さ=").is_some() && field(lines, "#ノード数=").is_some());
        assert!(field(lines, "#エンジン=").is_some_and(|e| e.starts_with("Hayate")));
        let situation = ["互角", "先手有望", "先手有利", "先手優勢", "先手勝勢"]
            .iter()
            .chain(&["後手有望", "後手有利", "後手優勢", "後手勝勢"])
            .filter(|w| lines.iter().any(|l| l == *w))
            .count();
        assert_eq!(situation, 1, "node {i}: one situation word");

        // The JSON says the same.
        let p = &positions[i];
        assert_eq!(p.get("ply").num() as usize, i);
        assert_eq!(p.get("score_cp").num() as i32, score, "node {i}");
        assert_eq!(p.get("pv_ja").str(), pv_ja);
        assert_eq!(
            usi_moves(&pos, p.get("pv")),
            pv,
            "node {i}: USI and Japanese lines"
        );
        assert_eq!(
            p.get("depth").num() as i64,
            field(lines, "#深さ=").unwrap().parse::<i64>().unwrap()
        );
        if i > 0 {
            let m = &jmoves[i - 1];
            assert_eq!(m.get("move").str(), original.moves[i - 1].mv.to_string());
            let mark = lines.iter().find(|l| l.starts_with('【'));
            match m.get("label") {
                Json::Null => assert!(mark.is_none(), "move {i}: {mark:?}"),
                label => {
                    let mark = mark.unwrap_or_else(|| panic!("move {i} is not marked"));
                    assert!(mark.starts_with(&format!("【{}】", label.str())));
                    assert!(mark.contains(&format!("最善手={}", m.get("better_ja").str())));
                    assert!(mark.contains(&format!("損失={}", m.get("loss").num())));
                    assert!(m.get("loss").num() >= analyze::INACCURACY as f64);
                }
            }
        }
    }

    // The summary counts the marked moves.
    for (side, parity) in [("black", 1), ("white", 0)] {
        let s = json.get("summary").get(side);
        let mine: Vec<&Json> = jmoves
            .iter()
            .filter(|m| m.get("ply").num() as usize % 2 == parity)
            .collect();
        assert_eq!(s.get("moves").num() as usize, mine.len());
        for (key, sev) in [
            ("inaccuracies", "inaccuracy"),
            ("mistakes", "mistake"),
            ("blunders", "blunder"),
        ] {
            let count = mine
                .iter()
                .filter(|m| m.get("severity") == &Json::Str(sev.into()))
                .count();
            assert_eq!(s.get(key).num() as usize, count, "{side} {key}");
        }
        let total: f64 = mine.iter().map(|m| m.get("loss").num()).sum();
        let avg = s.get("average_loss").num();
        assert!(
            (avg - total / mine.len() as f64).abs() < 0.06,
            "{side} average {avg}"
        );
    }

    // The graph: well-formed, one point a move, mistakes marked as the JSON says.
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let elements = xml_elements(&svg);
    assert_eq!(elements[0].0, "svg");
    let points: Vec<&BTreeMap<String, String>> = elements
        .iter()
        .filter(|(name, _)| name == "circle")
        .map(|(_, a)| a)
        .collect();
    assert_eq!(points.len(), n);
    let polyline = elements
        .iter()
        .find(|(name, _)| name == "polyline")
        .expect("the evaluation line");
    assert_eq!(polyline.1["points"].split_whitespace().count(), n);
    for (i, p) in points.iter().enumerate() {
        assert_eq!(p["data-ply"], (i + 1).to_string());
        assert_eq!(
            p["data-score"].parse::<i32>().unwrap(),
            positions[i + 1].get("score_cp").num() as i32
        );
        let class = match jmoves[i].get("severity") {
            Json::Null => "move".to_string(),
            s => format!("move {}", s.str()),
        };
        assert_eq!(p["class"], class);
    }
}

#[test]
fn a_position_line_on_stdin_is_analysed() {
    let (code, kif, err) = hayate(
        &[
            "analyze",
            "--hash",
            "16",
            "--depth",
            "3",
            "--multipv",
            "2",
            "-",
        ],
        "position startpos moves 7g7f 3c3d 8h2b+\n",
    );
    assert_eq!(code, 0, "{err}");
    let rec = kifu::kif::read(&kif).unwrap();
    assert_eq!(rec.moves.len(), 3);
    let nodes = comments_by_node(&kif);
    assert_eq!(nodes.len(), 4);
    assert!(nodes
        .iter()
        .all(|l| l.iter().any(|x| x.starts_with("候補2："))));
}

#[test]
fn the_library_reads_every_form_and_reports_progress() {
    let kif = analyze::read_record(&kifu::read_text(GAME.as_ref()).unwrap(), Some("kif")).unwrap();
    let sniffed = analyze::read_record(&kifu::read_text(GAME.as_ref()).unwrap(), None).unwrap();
    let line = analyze::read_record(GAME_LINE, None).unwrap();
    let moves = |r: &kifu::GameRecord| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(moves(&kif), moves(&line));
    assert_eq!(moves(&sniffed), moves(&line));
    let csa = kifu::csa::write(&kif).unwrap();
    assert_eq!(
        moves(&analyze::read_record(&csa, None).unwrap()),
        moves(&line)
    );
    let ki2 = kifu::ki2::write(&kif).unwrap();
    assert_eq!(
        moves(&analyze::read_record(&ki2, None).unwrap()),
        moves(&line)
    );

    let mut short = line.clone();
    short.moves.truncate(4);
    let options = AnalyzeOptions {
        depth: Some(2),
        hash_mb: 16,
        ..AnalyzeOptions::default()
    };
    let mut seen = Vec::new();
    let a = analyze::analyze(&short, &options, &mut |done, total| {
        seen.push((done, total))
    })
    .unwrap();
    assert_eq!(seen, (0..=5).map(|d| (d, 5)).collect::<Vec<_>>());
    assert_eq!(a.positions.len(), 5);
    assert!(a
        .positions
        .iter()
        .all(|p| p.best.is_some() && !p.pv().is_empty()));
}

#[test]
fn a_mate_is_shown_as_a_mate() {
    let (code, kif, err) = hayate(
        &["analyze", "--hash", "16", "--depth", "3", "--json", "-"],
        "sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1 moves G*5b\n",
    );
    assert_eq!(code, 0, "{err}");
    let json = JsonReader::parse(&kif);
    let p = json.get("positions").arr();
    assert_eq!(p[0].get("score").get("mate").num(), 1.0);
    assert_eq!(p[0].get("score").get("winner").str(), "black");
    assert_eq!(p[1].get("score").get("mate").num(), 0.0);
    assert_eq!(p[1].get("score_cp").num() as i32, analyze::MATE_CP);
    let (_, kif, _) = hayate(
        &["analyze", "--hash", "16", "--depth", "3", "-"],
        "sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1 moves G*5b\n",
    );
    let nodes = comments_by_node(&kif);
    assert!(nodes[0].iter().any(|l| l == "#詰み=先手勝ち:1手"));
    assert!(nodes[1].iter().any(|l| l == "#詰み=先手勝ち"));
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let line = "startpos moves 7g7f\n";
    let cases: [(&[&str], &str, &str); 10] = [
        (&["analyze", "/no/such/record.kif"], "", "cannot read"),
        // An output that could never be written is refused before the analysis.
        (
            &["analyze", "-o", "/no/such/dir/out.kif", "-"],
            line,
            "no folder",
        ),
        (
            &["analyze", "--kif", "/no/such/dir/out.kif", "-"],
            line,
            "no folder",
        ),
        (
            &["analyze", "--svg", "/no/such/dir/out.svg", "-"],
            line,
            "no folder",
        ),
        (&["analyze", "--kif", "/", "-"], line, "is a folder"),
        (
            &["analyze", "--nodes", "100", "-"],
            "this is not a game\n",
            "not a CSA",
        ),
        (
            &["analyze", "--nodes", "100", "-"],
            "startpos moves 7g7f 7g7f\n",
            "illegal",
        ),
        (&["analyze", "--frobnicate", "-"], "", "--frobnicate"),
        (&["analyze", "--nodes", "lots", "-"], "", "--nodes"),
        (&["analyze"], "", "<RECORD>"),
    ];
    for (args, stdin, says) in cases {
        let (code, _, err) = hayate(args, stdin);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let (code, help, _) = hayate(&["analyze", "--help"], "");
    assert_eq!(code, 0);
    assert!(help.contains("hayate analyze"));
    // A KIF with an illegal move is bad input too.
    let bad = "手合割：平手\n手数----指手---------消費時間--\n   1 ７五歩(77)\n";
    let (code, _, err) = hayate(&["analyze", "--nodes", "100", "-"], bad);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn reading_lines_round_trip() {
    let mut pos = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+"] {
        let m = pos.parse_usi_move(m).unwrap();
        pos.do_move(m);
    }
    let line: Vec<Move> = {
        let mut p = pos.clone();
        ["3a2b", "B*4e", "5a4b"]
            .iter()
            .map(|t| {
                let m = p.parse_usi_move(t).unwrap();
                p.do_move(m);
                m
            })
            .collect()
    };
    let text = ki2::write_line(&pos, &line).unwrap();
    assert_eq!(text, "△２二銀▲４五角△４二玉");
    assert_eq!(ki2::read_line(&pos, &text).unwrap(), line);
    assert!(ki2::read_line(&pos, "▲７六歩").is_err(), "not Black's move");
}
