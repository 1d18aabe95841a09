//! The direct check generator (`generate_checks`, which generates only checking moves) against
//! its slow reference (every legal move filtered by `gives_check`): the same moves in the same
//! order, so the mate solver's node counts do not depend on which one it uses. On the classical
//! problems, on positions reached from them by random play (attacker and defender moves, so the
//! defender is sometimes the side to move and the attacker's king is sometimes missing), on
//! random games with both kings (some in check), and on random placements of every piece.
//! Wherever the side to move is in check, the evasion counter (`count_evasions`, which the
//! solver uses for a check's first proof number) is held to the listed evasions the same way,
//! and so is the test for any reply (`has_evasion`, which stops at the first), mates included,
//! and so is the test for a reply on the board (`has_board_evasion`).

mod common;

use hayate::bitboard::Bitboard;
use hayate::movegen::{
    count_evasions, generate_checks, generate_checks_by_filter, generate_legal, has_board_evasion,
    has_evasion, MoveList,
};
use hayate::types::Move;
use hayate::Position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The counts the test reports, so a test that silently stops covering a case fails.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    checks: usize,
    in_check_with_checks: usize,
    discovered: usize,
    drops: usize,
    evasion_positions: usize,
    evasion_drops: usize,
    mated: usize,
}

fn compare(p: &Position, seen: &mut Seen) {
    let mut fast = MoveList::new();
    generate_checks(p, &mut fast);
    let mut slow = MoveList::new();
    generate_checks_by_filter(p, &mut slow);
    assert_eq!(&fast[..], &slow[..], "{}", p.to_sfen());
    seen.positions += 1;
    seen.checks += fast.len();
    if p.in_check() && !fast.is_empty() {
        seen.in_check_with_checks += 1;
    }
    let shields = p.blockers(!p.side_to_move());
    seen.discovered += fast
        .iter()
        .filter(|m| !m.is_drop() && shields.contains(m.from()))
        .count();
    seen.drops += fast.iter().filter(|m| m.is_drop()).count();
    if p.in_check() {
        compare_evasions(p, seen);
    }
}

/// The evasion counter against the listed evasions: board moves, drops, and the squares of
/// the drops.
fn compare_evasions(p: &Position, seen: &mut Seen) {
    let moves = legal_moves(p);
    let drops: Vec<&Move> = moves.iter().filter(|m| m.is_drop()).collect();
    let squares = drops.iter().fold(Bitboard::EMPTY, |b, m| b.with(m.to()));
    let count = count_evasions(p);
    assert_eq!(
        (
            count.board_moves as usize,
            count.drops as usize,
            count.drop_squares
        ),
        (moves.len() - drops.len(), drops.len(), squares),
        "{}",
        p.to_sfen()
    );
    assert_eq!(has_evasion(p), !moves.is_empty(), "{}", p.to_sfen());
    assert_eq!(
        has_board_evasion(p),
        moves.len() > drops.len(),
        "{}",
        p.to_sfen()
    );
    seen.mated += moves.is_empty() as usize;
    seen.evasion_positions += 1;
    seen.evasion_drops += drops.len();
}

fn legal_moves(p: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    generate_legal(p, &mut list);
    list.to_vec()
}

/// Random play from `start`, preferring checks for the side that starts (the attacker), as a
/// mate search walks; every position on the way is compared.
fn walk(start: &Position, plies: usize, rng: &mut StdRng, seen: &mut Seen) {
    let mut p = start.clone();
    let attacker = p.side_to_move();
    for _ in 0..plies {
        compare(&p, seen);
        let moves = legal_moves(&p);
        if moves.is_empty() {
            return;
        }
        let mut checks = MoveList::new();
        generate_checks(&p, &mut checks);
        let m = if p.side_to_move() == attacker && !checks.is_empty() && rng.gen_bool(0.7) {
            checks[rng.gen_range(0..checks.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        p.do_move(m);
    }
    compare(&p, seen);
}

#[test]
fn direct_checks_match_the_filtered_legal_moves_on_the_classics_and_after_random_play() {
    let text = include_str!("data/tsume_classics.tsv");
    let mut rng = StdRng::seed_from_u64(41);
    let mut seen = Seen::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let sfen = line.split('\t').nth(1).expect("name<TAB>sfen");
        let p = common::pos(sfen);
        compare(&p, &mut seen);
        for _ in 0..6 {
            walk(&p, 30, &mut rng, &mut seen);
        }
    }
    eprintln!("{seen:?}");
    assert!(seen.positions > 20_000, "{seen:?}");
    assert!(seen.discovered > 1_000, "{seen:?}");
    assert!(seen.drops > 10_000, "{seen:?}");
    assert!(seen.evasion_positions > 5_000, "{seen:?}");
    assert!(seen.evasion_drops > 5_000, "{seen:?}");
    assert!(seen.mated > 50, "{seen:?}");
}

#[test]
fn direct_checks_match_the_filtered_legal_moves_in_random_games() {
    let mut seen = Seen::default();
    for p in common::random_positions(3000, 42) {
        compare(&p, &mut seen);
    }
    // Both kings on the board and the side to move in check, with checking evasions (rare in
    // games: the random placements have many more).
    assert!(seen.in_check_with_checks > 5, "{seen:?}");
    assert!(seen.discovered > 0, "{seen:?}");
}

/// A random legal position: each of the 38 pieces other than the kings on a random square (of
/// a random side, promoted at times) or in a random hand, the defender's king on the board and
/// the attacker's (the side to move's) usually, but not always (as in tsume). `None` when the
/// rules reject it.
fn random_placement(rng: &mut StdRng) -> Option<Position> {
    const PIECES: [(char, usize); 7] = [
        ('R', 2),
        ('B', 2),
        ('G', 4),
        ('S', 4),
        ('N', 4),
        ('L', 4),
        ('P', 18),
    ];
    let mut board: [[Option<String>; 9]; 9] = Default::default();
    let mut put = |rng: &mut StdRng, piece: String| loop {
        let (r, f) = (rng.gen_range(0..9), rng.gen_range(0..9));
        if board[r][f].is_none() {
            board[r][f] = Some(piece);
            return (r, f);
        }
    };
    let black_to_move = rng.gen_bool(0.5);
    let (defender_king, attacker_king) = if black_to_move {
        ("k", "K")
    } else {
        ("K", "k")
    };
    put(rng, defender_king.into());
    if rng.gen_bool(0.8) {
        put(rng, attacker_king.into());
    }
    let on_board = rng.gen_range(0.1..0.7);
    let mut hands = [[0usize; 7]; 2];
    for (i, &(letter, count)) in PIECES.iter().enumerate() {
        for _ in 0..count {
            let black = rng.gen_bool(0.5);
            // Fewer pawns on the board, or two on a file (nifu) would reject most positions.
            let p = if letter == 'P' {
                on_board / 3.0
            } else {
                on_board
            };
            if rng.gen_bool(p) {
                let promotable = letter != 'G';
                let mut s = String::new();
                if promotable && rng.gen_bool(0.2) {
                    s.push('+');
                }
                s.push(if black {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
                put(rng, s);
            } else {
                hands[!black as usize][i] += 1;
            }
        }
    }
    let ranks: Vec<String> = board.iter().map(common::sfen_rank).collect();
    let mut hand = String::new();
    for (side, counts) in hands.iter().enumerate() {
        for (i, &n) in counts.iter().enumerate() {
            if n > 1 {
                hand += &n.to_string();
            }
            if n > 0 {
                let c = PIECES[i].0;
                hand.push(if side == 0 { c } else { c.to_ascii_lowercase() });
            }
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    let side = if black_to_move { 'b' } else { 'w' };
    Position::from_sfen(&format!("{} {side} {hand} 1", ranks.join("/"))).ok()
}

#[test]
fn direct_checks_match_the_filtered_legal_moves_on_random_placements() {
    let mut rng = StdRng::seed_from_u64(43);
    let mut seen = Seen::default();
    let mut placed = 0;
    while placed < 20_000 {
        let Some(p) = random_placement(&mut rng) else {
            continue;
        };
        placed += 1;
        compare(&p, &mut seen);
        // A few plies on, where pins, shields and hands have changed.
        walk(&p, 4, &mut rng, &mut seen);
    }
    eprintln!("{seen:?}");
    assert!(seen.in_check_with_checks > 500, "{seen:?}");
    assert!(seen.discovered > 1_000, "{seen:?}");
    assert!(seen.drops > 10_000, "{seen:?}");
}
