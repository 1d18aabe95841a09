//! Game records as GUIs write them: KI2 written and read back with every disambiguation mark,
//! Shift_JIS KIF and KI2 files, KIF variations read as the main line, and bad KI2 refused with
//! a reason rather than a panic.

use std::path::Path;

mod common;

use hayate::book::make::read_games;
use hayate::kifu::ki2::{self, ki2_move};
use hayate::kifu::{
    decode, encode_shift_jis, kif, save, Ending, Format, GameRecord, Outcome, RecordedMove,
};
use hayate::{Move, Position};
use rand::{Rng, SeedableRng};

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/kifu")
        .join(name)
}

fn record(sfen: &str, usi: &[&str]) -> GameRecord {
    let mut pos = Position::from_sfen(sfen).unwrap();
    let mut rec = GameRecord::empty();
    rec.start_sfen = pos.to_sfen();
    for u in usi {
        let m = pos.parse_usi_move(u).unwrap();
        pos.do_move(m);
        rec.moves.push(RecordedMove {
            mv: m,
            time_ms: 0,
            comment: None,
        });
    }
    rec
}

fn moves(rec: &GameRecord) -> Vec<Move> {
    rec.moves.iter().map(|m| m.mv).collect()
}

/// The KI2 text of each move of `usi` from `sfen`, after checking that the whole game written
/// as KI2 reads back to the same moves and start.
fn ki2_texts(sfen: &str, usi: &[&str]) -> Vec<String> {
    let rec = record(sfen, usi);
    let text = ki2::write(&rec).unwrap();
    let back = ki2::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(moves(&back), moves(&rec), "{text}");
    assert_eq!(back.start_sfen, rec.start_sfen, "{text}");
    let mut pos = Position::from_sfen(sfen).unwrap();
    let mut prev = None;
    let mut out = Vec::new();
    for m in &rec.moves {
        out.push(ki2_move(&pos, m.mv, prev).unwrap());
        prev = Some(m.mv.to());
        pos.do_move(m.mv);
    }
    out
}

/// Each of `cases` (a move and its expected text) played alone from `sfen`, written and read
/// back.
fn check_alone(sfen: &str, cases: &[(&str, &str)]) {
    for (usi, want) in cases {
        assert_eq!(
            ki2_texts(sfen, &[usi]),
            vec![want.to_string()],
            "{usi} in {sfen}"
        );
    }
}

#[test]
fn three_golds_to_one_square_are_told_right_left_and_straight() {
    // Golds on 6九, 5九 and 4九 can all reach 5八, all moving up.
    check_alone(
        "k8/9/9/9/9/9/9/9/3GGG2K b - 1",
        &[
            ("6i5h", "▲５八金左"),
            ("5i5h", "▲５八金直"),
            ("4i5h", "▲５八金右"),
        ],
    );
    // The same for White: its right is Black's left.
    check_alone(
        "3ggg2k/9/9/9/9/9/9/9/K8 w - 1",
        &[
            ("6a5b", "△５二金右"),
            ("5a5b", "△５二金直"),
            ("4a5b", "△５二金左"),
        ],
    );
}

#[test]
fn golds_moving_differently_are_told_up_sideways_and_back() {
    check_alone(
        "k8/9/9/9/9/9/4G4/5G3/4G3K b - 1",
        &[
            ("5i5h", "▲５八金上"),
            ("4h5h", "▲５八金寄"),
            ("5g5h", "▲５八金引"),
        ],
    );
    // Two golds side by side, one straight up and one sideways: the motion alone suffices.
    check_alone(
        "k8/9/9/9/9/9/9/5G3/4G3K b - 1",
        &[("5i5h", "▲５八金上"), ("4h5h", "▲５八金寄")],
    );
}

#[test]
fn silvers_need_side_and_motion_together_where_either_alone_is_not_enough() {
    // 4九 and 6九 move up, 4七 moves back; 4九 and 4七 are both on the right.
    check_alone(
        "k8/9/9/9/9/9/5S3/9/3S1S2K b - 1",
        &[
            ("4i5h", "▲５八銀右上"),
            ("6i5h", "▲５八銀左"),
            ("4g5h", "▲５八銀引"),
        ],
    );
}

#[test]
fn dragons_take_their_side_from_each_other_and_motion_first() {
    // Both move up to 2二, one along the file: no 直 for dragons, 右 and 左 between the two.
    check_alone(
        "k8/9/8+R/9/7+R1/9/9/9/K8 b - 1",
        &[("2e2b", "▲２二龍左"), ("1c2b", "▲２二龍右")],
    );
    // One slides sideways, one steps back.
    check_alone(
        "7+R1/4+R4/k8/9/9/9/9/9/K8 b - 1",
        &[("5b2b", "▲２二龍寄"), ("2a2b", "▲２二龍引")],
    );
    // Two horses, one stepping straight up and one sliding diagonally: 右 and 左.
    check_alone(
        "k8/9/7+B1/5+B3/9/9/9/9/K8 b - 1",
        &[("2c2b", "▲２二馬右"), ("4d2b", "▲２二馬左")],
    );
}

#[test]
fn knights_are_told_right_and_left() {
    check_alone(
        "k8/9/9/9/9/9/9/9/K5N1N b - 1",
        &[("3i2g", "▲２七桂左"), ("1i2g", "▲２七桂右")],
    );
}

#[test]
fn a_drop_is_marked_only_where_a_board_piece_could_also_go() {
    check_alone(
        "k8/9/9/9/9/9/9/9/4G3K b G 1",
        &[
            ("G*5h", "▲５八金打"),
            ("5i5h", "▲５八金"),
            ("G*1e", "▲１五金"),
        ],
    );
}

#[test]
fn an_optional_promotion_is_marked_either_way() {
    check_alone(
        "k8/8P/9/5S1P1/9/9/9/9/K8 b - 1",
        &[
            ("4d4c+", "▲４三銀成"),
            ("4d4c", "▲４三銀不成"),
            ("2d2c+", "▲２三歩成"),
            ("2d2c", "▲２三歩不成"),
            // A pawn on the last rank must promote: 成 with no choice.
            ("1b1a+", "▲１一歩成"),
            // Out of the zone no mark.
            ("4d5e", "▲５五銀"),
        ],
    );
}

/// A Shikenbisha game with a bishop exchange, recaptures, drops, promotions and a resignation.
const GAME: [&str; 37] = [
    "7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "3a2b", "5i6h", "8b4b", "6h7h", "5a6b",
    "5g5f", "6b7b", "4i5h", "7b8b", "9g9f", "9c9d", "3g3f", "7a7b", "2e2d", "2c2d", "2h2d", "P*2c",
    "2d2h", "4d4e", "8h3c+", "2b3c", "B*6e", "4e4f", "4g4f", "4b4f", "P*4g", "4f4b", "6e3b+",
    "4b4g", "3b4a",
];

#[test]
fn a_real_looking_game_round_trips_with_recaptures_drops_and_promotions() {
    let texts = ki2_texts(hayate::position::STARTPOS, &GAME);
    assert_eq!(texts[21], "△同　歩");
    assert_eq!(texts[22], "▲同　飛");
    assert_eq!(texts[23], "△２三歩");
    assert_eq!(texts[26], "▲３三角成");
    assert_eq!(texts[27], "△同　銀");
    assert_eq!(texts[34], "▲３二角成");
    // With an ending and comments, and several moves to a line.
    let mut rec = record(hayate::position::STARTPOS, &GAME);
    rec.black = "先手の人".into();
    rec.white = "後手の人".into();
    rec.start_time = "2024/01/02 10:00:00".into();
    rec.moves[4].comment = Some("居飛車".into());
    rec.ending = Some(Ending::Resign);
    let text = ki2::write(&rec).unwrap();
    assert!(text.contains("▲７六歩    △３四歩"), "{text}");
    assert!(text.contains("*居飛車\n"), "{text}");
    assert!(text.ends_with("まで37手で先手の勝ち\n"), "{text}");
    let back = ki2::read(&text).unwrap();
    assert_eq!(moves(&back), moves(&rec));
    assert_eq!(back.black, "先手の人");
    assert_eq!(back.white, "後手の人");
    assert_eq!(back.start_time, "2024/01/02 10:00:00");
    assert_eq!(back.moves[4].comment.as_deref(), Some("居飛車"));
    assert_eq!(back.ending, Some(Ending::Resign));
    assert_eq!(back.outcome(), Some(Outcome::BlackWin));
    // Its Shift_JIS form, as a `.ki2` file is saved, reads the same.
    let sjis = encode_shift_jis(&text).unwrap();
    assert_ne!(sjis, text.as_bytes());
    let back = ki2::read(&decode(&sjis).unwrap()).unwrap();
    assert_eq!(moves(&back), moves(&rec));
    // The KIF of the same game reads back the same too.
    let back = kif::read(&kif::write(&rec).unwrap()).unwrap();
    assert_eq!(moves(&back), moves(&rec));
}

#[test]
fn endings_round_trip_through_the_closing_line() {
    use hayate::Color::{Black, White};
    for e in [
        Ending::Resign,
        Ending::MaxMoves,
        Ending::AdjudicatedDraw,
        Ending::IllegalMove { loser: White },
        Ending::TimeUp { loser: Black },
        Ending::TimeUp { loser: White },
        Ending::AdjudicatedLoss { loser: Black },
    ] {
        let mut rec = record(hayate::position::STARTPOS, &GAME[..10]);
        rec.ending = Some(e);
        let back = ki2::read(&ki2::write(&rec).unwrap()).unwrap();
        assert_eq!(back.outcome(), rec.outcome(), "{e:?}");
    }
    // A mate is read as one from the final position.
    let mut rec = GameRecord::empty();
    rec.start_sfen = "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1".into();
    rec.ending = Some(Ending::Mate);
    let back = ki2::read(&ki2::write(&rec).unwrap()).unwrap();
    assert_eq!(back.ending, Some(Ending::Mate));
    assert_eq!(back.start_sfen, rec.start_sfen);
}

#[test]
fn a_handicap_ki2_in_shift_jis_is_read() {
    let text = decode(&std::fs::read(data("handicap_sjis.ki2")).unwrap()).unwrap();
    assert_eq!(Format::sniff(&text), Some(Format::Ki2));
    let rec = ki2::read(&text).unwrap();
    assert_eq!(
        rec.start_sfen,
        Position::from_name("lance").unwrap().to_sfen()
    );
    assert_eq!(rec.black, "生徒");
    assert_eq!(rec.white, "師範");
    assert_eq!(rec.moves.len(), 20);
    assert_eq!(rec.moves[0].mv.to_string(), "3c3d");
    // ▲５八金左: the gold from 6九.
    assert_eq!(rec.moves[11].mv.to_string(), "6i5h");
    assert_eq!(rec.moves[14].comment.as_deref(), Some("穴熊"));
    assert_eq!(rec.moves[19].mv.to_string(), "4i4h");
    assert_eq!(rec.outcome(), Some(Outcome::BlackWin));
    // Written again it names the handicap and reads back the same.
    let again = ki2::write(&rec).unwrap();
    assert!(again.contains("手合割：香落ち"), "{again}");
    assert_eq!(moves(&ki2::read(&again).unwrap()), moves(&rec));
    // KIF names the handicap too, so GUIs set the board up from it.
    let kif_text = kif::write(&rec).unwrap();
    assert!(kif_text.contains("手合割：香落ち"), "{kif_text}");
    let back = kif::read(&kif_text).unwrap();
    assert_eq!(back.start_sfen, rec.start_sfen);
    assert_eq!(moves(&back), moves(&rec));
    // `hayate book from-records` reads it through the same path.
    let games = read_games(&data("handicap_sjis.ki2")).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves, moves(&rec));
}

#[test]
fn a_shift_jis_kif_from_shogigui_is_read() {
    let bytes = std::fs::read(data("shogigui_sjis.kif")).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the file is Shift_JIS"
    );
    let text = decode(&bytes).unwrap();
    let rec = kif::read(&text).unwrap();
    assert_eq!(rec.black, "羽生　善治");
    assert_eq!(rec.white, "四間飛車党");
    assert_eq!(rec.event, "練習対局");
    let usi: Vec<String> = rec.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(
        usi,
        ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "2b3c", "8h3c+", "2a3c"]
    );
    assert_eq!(rec.outcome(), Some(Outcome::WhiteWin));
    let games = read_games(&data("shogigui_sjis.kif")).unwrap();
    assert_eq!(games[0].moves, moves(&rec));
    assert_eq!(games[0].outcome, Some(Outcome::WhiteWin));
}

#[test]
fn a_kif_with_variations_is_read_as_its_main_line() {
    let rec = kif::read(&std::fs::read_to_string(data("variations.kifu")).unwrap()).unwrap();
    let usi: Vec<String> = rec.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(rec.ending, Some(Ending::Resign));
    assert_eq!(rec.outcome(), Some(Outcome::BlackWin));
    // KI2 variations are skipped the same way.
    let ki2_text = "▲７六歩 △３四歩\nまで2手で中断\n\n変化：2手\n△８四歩\n";
    assert_eq!(ki2::read(ki2_text).unwrap().moves.len(), 2);
}

#[test]
fn kif_quirks_of_other_tools_are_read() {
    // `同 歩` with an ASCII space, no ending word but a closing line, a byte-order mark.
    let text = "\u{feff}手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同 銀(31)\nまで4手で後手の勝ち\n";
    let rec = kif::read(text).unwrap();
    assert_eq!(rec.moves[3].mv.to_string(), "3a2b");
    assert_eq!(rec.outcome(), Some(Outcome::WhiteWin));
    assert_eq!(Format::sniff(text), Some(Format::Kif));
}

#[test]
fn a_handicap_kif_without_a_diagram_starts_from_the_handicap() {
    let text = "手合割：二枚落ち\n手数----指手---------消費時間--\n   1 ５二玉(51)\n";
    let rec = kif::read(text).unwrap();
    assert_eq!(
        rec.start_sfen,
        Position::from_name("2piece").unwrap().to_sfen()
    );
    assert_eq!(rec.moves[0].mv.to_string(), "5a5b");
    let e = kif::read("手合割：謎落ち\n手数----指手--\n").unwrap_err();
    assert!(e.contains("unknown handicap"), "{e}");
}

#[test]
fn records_are_recognised_by_content() {
    assert_eq!(Format::sniff("手数----指手--\n"), Some(Format::Kif));
    assert_eq!(Format::sniff("▲７六歩\n"), Some(Format::Ki2));
    assert_eq!(Format::sniff("V2.2\nPI\n+\n+7776FU\n"), Some(Format::Csa));
    assert_eq!(Format::sniff("startpos moves 7g7f 3c3d\n"), None);
    assert_eq!(Format::from_extension("KI2"), Some(Format::Ki2));
    assert!(decode(&[0x82, 0xa0, 0xff, 0xff]).is_err());
}

#[test]
fn malformed_ki2_is_refused_with_a_reason() {
    for (text, want) in [
        ("", "no moves"),
        ("先手：誰か\n", "no moves"),
        ("▲７六歩 ▲３四歩\n", "side not to move"),
        ("▲７六金\n", "no piece can move there"),
        ("▲同　歩\n", "同 with no previous move"),
        ("▲５八金\n", "2 pieces can move there"),
        ("▲５八金引\n", "no piece with these marks"),
        ("▲７六歩X\n", "unexpected 'X'"),
        ("▲\n", "no target square"),
        ("▲７\n", "no target square"),
        ("▲７六\n", "no piece name"),
        ("▲７六歩\nこんにちは\n", "not a line of moves"),
        ("手合割：謎落ち\n▲７六歩\n", "unknown handicap"),
        ("▲７六歩打\n", "illegal drop"),
        ("▲７六歩成\n", "must promote"),
        ("▲７六歩成不成\n", "both 成 and 不成"),
        ("▲５五角打右\n", "a drop takes no other mark"),
        (
            "▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲１一角\n",
            "no piece can move there",
        ),
        ("▲７六歩 △投了 ▲２六歩\n", "after the end"),
        ("▲７六歩(99)\n", "no piece with these marks"),
        ("▲７六歩(0)\n", "bad origin"),
    ] {
        let e = ki2::read(text).expect_err(text);
        assert!(e.contains(want), "{text:?}: {e}");
    }
    // A pawn to 1一 with no 成 cannot be played.
    let e = ki2::read("後手の持駒：なし\n|v玉 ・ ・ ・ ・ ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ 歩|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九\n先手の持駒：なし\n▲１一歩\n").unwrap_err();
    assert!(e.contains("must promote"), "{e}");
}

#[test]
fn mangled_ki2_never_panics() {
    let rec = record(hayate::position::STARTPOS, &GAME);
    let text = ki2::write(&rec).unwrap();
    // Every prefix of a good record.
    for (i, _) in text.char_indices() {
        let _ = ki2::read(&text[..i]);
    }
    // Random characters from KI2's alphabet put in random places.
    let alphabet: Vec<char> =
        "▲△同　 １２３４５６７八九一歩金銀飛角龍馬成不打右左直上引寄()0\n*まで手で勝ち|・v"
            .chars()
            .collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(15);
    let chars: Vec<char> = text.chars().collect();
    for _ in 0..3000 {
        let mut c = chars.clone();
        for _ in 0..rng.gen_range(1..6) {
            let at = rng.gen_range(0..c.len());
            c[at] = alphabet[rng.gen_range(0..alphabet.len())];
        }
        let s: String = c.into_iter().collect();
        let _ = ki2::read(&s);
        let _ = kif::read(&s);
    }
}

// Tsume records: the defender's "all the rest", and a board diagram alone.

/// The tsume problem of `tests/data/kifu/tsume_sjis.kif` with the defender holding the rest.
const TSUME_WITH_THE_REST: &str = "p8/k8/9/S8/9/9/9/9/9 b GN2r2b3g3s3n4l17p 1";

#[test]
fn a_tsume_kif_gives_the_defender_all_the_rest() {
    // As Kifu for Windows writes a problem: Shift_JIS, `後手の持駒：残り全部`, the solution.
    let text = decode(&std::fs::read(data("tsume_sjis.kif")).unwrap()).unwrap();
    assert_eq!(Format::sniff(&text), Some(Format::Kif));
    let rec = kif::read(&text).unwrap();
    assert_eq!(rec.start_sfen, TSUME_WITH_THE_REST);
    let usi: Vec<String> = moves(&rec).iter().map(|m| m.to_string()).collect();
    assert_eq!(usi, ["N*8d", "9b8a", "G*7b"]);
    assert_eq!(rec.ending, Some(Ending::Mate));
}

#[test]
fn a_board_diagram_alone_is_a_record_without_moves() {
    let text = decode(&std::fs::read(data("tsume_sjis.kif")).unwrap()).unwrap();
    let diagram: String = text
        .lines()
        .take_while(|l| !l.starts_with("手数"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(Format::sniff(&diagram), Some(Format::Kif));
    let rec = kif::read(&diagram).unwrap();
    assert_eq!(rec.start_sfen, TSUME_WITH_THE_REST);
    assert!(rec.moves.is_empty());
    // A diagram cut short is refused with a reason.
    let cut: String = diagram.lines().take(8).map(|l| format!("{l}\n")).collect();
    assert!(kif::read(&cut).unwrap_err().contains("ranks"));
    // The rest is what neither the board nor the other hand holds: none left here.
    let full = diagram.replace(
        "先手の持駒：金　桂　",
        "先手の持駒：飛二　角二　金四　銀三　桂四　香四　歩十七　",
    );
    let rec = kif::read(&full).unwrap();
    assert_eq!(rec.start_sfen, "p8/k8/9/S8/9/9/9/9/9 b 2R2B4G3S4N4L17P 1");
}

#[test]
fn csa_00al_gives_a_side_all_the_rest() {
    // Board rows of nine three-character cells (` * ` for an empty square).
    let row = |first: &str| format!("{first}{}\n", " * ".repeat(8));
    let empty = " * ".repeat(9);
    let text = format!(
        "V2.2\n{}{}P3{empty}\n{}P5{empty}\nP6{empty}\nP7{empty}\nP8{empty}\nP9{empty}\n\
         P+00KI00KE\nP-00AL\n+\n+0084KE\n-9281OU\n+0072KI\n%TSUMI\n",
        row("P1-FU"),
        row("P2-OU"),
        row("P4+GI"),
    );
    let text = text.as_str();
    assert_eq!(Format::sniff(text), Some(Format::Csa));
    let rec = Format::Csa.read(text).unwrap();
    assert_eq!(rec.start_sfen, TSUME_WITH_THE_REST);
    assert_eq!(rec.moves.len(), 3);
}

fn usi_line(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// Each variation's ply and moves in USI.
fn plies_and_lines(variations: &[kif::Variation]) -> Vec<(usize, Vec<String>)> {
    variations
        .iter()
        .map(|v| (v.ply, usi_line(&v.moves)))
        .collect()
}

/// A variation of `rec` at `ply`: the main line up to it, then `usi` played from there.
fn variation(rec: &GameRecord, ply: usize, usi: &[&str], note: &str) -> kif::Variation {
    let mut pos = Position::from_sfen(&rec.start_sfen).unwrap();
    for m in &rec.moves[..ply - 1] {
        pos.do_move(m.mv);
    }
    let moves: Vec<Move> = usi
        .iter()
        .map(|u| {
            let m = pos.parse_usi_move(u).unwrap();
            pos.do_move(m);
            m
        })
        .collect();
    kif::Variation {
        ply,
        moves,
        notes: vec![vec![note.to_string()]],
        ending: None,
    }
}

#[test]
fn variations_are_written_as_guis_read_them_and_read_back() {
    let rec = record(
        hayate::position::STARTPOS,
        &["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e"],
    );
    let at2a = variation(&rec, 2, &["8c8d", "2g2f"], "first at 2");
    let at2b = variation(&rec, 2, &["4c4d"], "second at 2");
    let mut at4 = variation(&rec, 4, &["4c4d", "2f2e"], "at 4");
    at4.ending = Some(Ending::Resign);
    let text =
        kif::write_with_variations(&rec, &[], &[at2a.clone(), at2b.clone(), at4.clone()]).unwrap();
    // The latest branch point first, each ply's variations in the order given, and a move
    // with another branch after it marked `+`.
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("変化")).collect();
    assert_eq!(headers, ["変化：4手", "変化：2手", "変化：2手"], "{text}");
    let marked: Vec<&str> = text.lines().filter(|l| l.ends_with('+')).collect();
    assert_eq!(marked.len(), 3, "{text}");
    assert!(marked[0].starts_with("   2 ３四歩(33)"), "{text}");
    assert!(marked[1].starts_with("   4 ８四歩(83)"), "{text}");
    assert!(marked[2].starts_with("   2 ８四歩(83)"), "{text}");
    assert!(
        text.contains("   5 ２五歩(26)   ( 0:00/00:00:00)\n   6 投了"),
        "{text}"
    );
    assert!(text.contains("*second at 2\n"), "{text}");
    // Read back, each is the same line off the main line, in the order written.
    let (back, variations) = kif::read_with_variations(&text).unwrap();
    assert_eq!(moves(&back), moves(&rec));
    assert_eq!(variations, [at4, at2a, at2b]);
    // The plain reader still takes the main line alone.
    assert_eq!(moves(&kif::read(&text).unwrap()), moves(&rec));
}

#[test]
fn a_variation_branches_off_the_line_read_last() {
    // The second block branches at ply 3 off the first block's line (7六歩 8四歩), as GUIs
    // read it: off the main line it is 7六歩 8四歩 6六歩, from ply 2.
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)+\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)+\n   3 ２六歩(27)\n\n変化：3手\n   3 ６六歩(67)\n*nested\n   4 ８五歩(84)\n";
    let (rec, variations) = kif::read_with_variations(text).unwrap();
    assert_eq!(usi_line(&moves(&rec)), ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(variations.len(), 2);
    assert_eq!(variations[0].ply, 2);
    assert_eq!(usi_line(&variations[0].moves), ["8c8d", "2g2f"]);
    assert_eq!(variations[1].ply, 2);
    assert_eq!(usi_line(&variations[1].moves), ["8c8d", "6g6f", "8d8e"]);
    // Its comment stays on its own move, the third ply.
    assert_eq!(variations[1].notes[1], ["nested"]);
    // Blocks written off the main line in the order of their plies (as the test file here
    // is) cannot be played off the line before them, and are read off the main line.
    let text = std::fs::read_to_string(data("variations.kifu")).unwrap();
    let (_, variations) = kif::read_with_variations(&text).unwrap();
    assert_eq!(
        plies_and_lines(&variations),
        [
            (2, vec!["8c8d".to_string(), "2g2f".to_string()]),
            (3, vec!["6g6f".to_string(), "8c8d".to_string()])
        ]
    );
}

#[test]
fn a_ki2_records_variations_read_as_kifs_do() {
    // The same tree as the KIF test above, in KI2: moves several to a line, the nested block
    // off the line read last, and a third block off the main line with a recapture (同).
    let text = "手合割：平手\n▲７六歩 △３四歩 ▲２六歩\nまで3手で中断\n\n変化：2手\n△８四歩 ▲２六歩\n\n変化：3手\n▲６六歩\n*nested\n△８五歩\n\n変化：3手\n▲２二角成 △同　銀\n";
    let (rec, variations) = ki2::read_with_variations(text).unwrap();
    assert_eq!(moves(&rec), moves(&ki2::read(text).unwrap()));
    assert_eq!(usi_line(&moves(&rec)), ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(
        plies_and_lines(&variations),
        [
            (2, vec!["8c8d".to_string(), "2g2f".to_string()]),
            (
                2,
                vec!["8c8d".to_string(), "6g6f".to_string(), "8d8e".to_string()]
            ),
            (3, vec!["8h2b+".to_string(), "3a2b".to_string()]),
        ]
    );
    assert_eq!(variations[1].notes[1], ["nested"]);
    // A block that cannot be played off either line is an error.
    let bad = text.replace("△同　銀", "△同　金");
    assert!(ki2::read_with_variations(&bad).is_err());
}

#[test]
fn variations_that_do_not_branch_off_the_main_line_are_refused() {
    let rec = record(hayate::position::STARTPOS, &["7g7f", "3c3d"]);
    let good = variation(&rec, 2, &["8c8d"], "");
    let mut past_the_end = good.clone();
    past_the_end.ply = 3;
    let mut at_zero = good.clone();
    at_zero.ply = 0;
    let same = variation(&rec, 2, &["3c3d"], "");
    let empty = kif::Variation {
        ply: 1,
        ..kif::Variation::default()
    };
    // 8四歩 is White's move: at ply 1 it is Black's turn.
    let mut illegal = good.clone();
    illegal.ply = 1;
    for bad in [past_the_end, at_zero, same, empty, illegal] {
        assert!(
            kif::write_with_variations(&rec, &[], std::slice::from_ref(&bad)).is_err(),
            "{bad:?}"
        );
    }
    // Blocks that cannot be read are refused with the line, never a panic.
    let main = kif::write(&rec).unwrap();
    for block in [
        "変化：手\n",
        "変化：0手\n   1 ７六歩(77)\n",
        "変化：5手\n   5 ７六歩(77)\n",
        "変化：2手\n   2 ７六歩(77)\n",
    ] {
        let text = format!("{main}\n{block}");
        assert!(kif::read_with_variations(&text).is_err(), "{block}");
    }
}

#[test]
fn variations_that_share_moves_are_one_tree() {
    let rec = record(
        hayate::position::STARTPOS,
        &["7g7f", "3c3d", "2g2f", "8c8d"],
    );
    let mut deep = variation(&rec, 2, &["8c8d", "2g2f", "4c4d"], "");
    deep.notes = vec![vec![], vec![], vec!["deep".into()]];
    // The beginning of `deep`: written as part of it, its comment on its own last move.
    let mut prefix = variation(&rec, 2, &["8c8d", "2g2f"], "");
    prefix.notes = vec![vec![], vec!["prefix".into()]];
    // Parts from `deep` at ply 3: a block off `deep`'s line, right after it.
    let mut other = variation(&rec, 2, &["8c8d", "6g6f"], "");
    other.notes = vec![vec![], vec!["other".into()]];
    let text =
        kif::write_with_variations(&rec, &[], &[deep.clone(), prefix, other.clone()]).unwrap();
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("変化")).collect();
    assert_eq!(headers, ["変化：2手", "変化：3手"], "{text}");
    assert!(
        text.contains("   3 ２六歩(27)   ( 0:00/00:00:00)+\n*prefix\n   4 ４四歩(43)"),
        "{text}"
    );
    assert!(
        text.ends_with("変化：3手\n   3 ６六歩(67)   ( 0:00/00:00:00)\n*other\n"),
        "{text}"
    );
    let (_, variations) = kif::read_with_variations(&text).unwrap();
    assert_eq!(
        plies_and_lines(&variations),
        [
            (2, vec!["8c8d".into(), "2g2f".into(), "4c4d".into()]),
            (2, vec!["8c8d".into(), "6g6f".into()])
        ]
    );
    assert_eq!(
        variations[0].notes,
        [vec![], vec!["prefix".to_string()], vec!["deep".to_string()]]
    );
    // The block off the variation keeps only its own move's comment.
    assert_eq!(variations[1].notes, [vec![], vec!["other".to_string()]]);
}

#[test]
fn a_saved_record_takes_the_encoding_its_extension_asks_for() {
    let dir = common::TempDir::new("kifu-save");
    let rec =
        kif::read(&decode(&std::fs::read(data("shogigui_sjis.kif")).unwrap()).unwrap()).unwrap();
    let mut text = kif::write(&rec).unwrap();
    // A player's name that Shift_JIS cannot write, as a UTF-8 record may give it.
    text = text.replacen("\n", "\n*対局者 ♔😀\n", 1);
    for (name, sjis) in [
        ("a.kif", true),
        ("a.KIF", true),
        ("a.ki2", true),
        ("a.kifu", false),
        ("a.ki2u", false),
        ("a.txt", false),
    ] {
        let path = dir.join(name);
        let replaced = save(&path, &text).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        if sjis {
            assert_eq!(
                replaced, 2,
                "{name}: the king and the face cannot be written"
            );
            assert!(std::str::from_utf8(&bytes).is_err(), "{name} is not UTF-8");
            let (back, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
            assert!(!bad, "{name} is clean Shift_JIS");
            assert!(back.contains("*対局者 ??\n"), "{name}: {back}");
            if name.to_ascii_lowercase().ends_with(".kif") {
                assert!(
                    back.starts_with("# KIF形式棋譜ファイル (Shift_JIS)"),
                    "{back}"
                );
                let again = kif::read(&back).unwrap();
                assert_eq!(moves(&again), moves(&rec));
            }
        } else {
            assert_eq!(replaced, 0);
            assert_eq!(bytes, text.as_bytes(), "{name} is the UTF-8 text as it was");
        }
    }
    // A place that cannot be written is an error, not a panic.
    assert!(save(&dir.join("no/such/dir/a.kif"), &text).is_err());
}
