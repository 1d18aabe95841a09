//! Choosing a book move, under the options YaneuraOu uses (names and meanings as in its
//! `book.cpp`), so settings carry over between the two engines.

use super::BookMove;
use crate::rng::Rng;
use crate::types::Color;

/// The book options of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookOptions {
    /// `USI_OwnBook`: use the book at all.
    pub own_book: bool,
    /// `BookFile`, inside `BookDir`; `no_book` turns the book off.
    pub file: String,
    pub dir: String,
    /// `BookMoves`: consult the book up to this move number (plies).
    pub moves: u32,
    /// `BookIgnoreRate`: percent chance of ignoring the book on a move (variety).
    pub ignore_rate: u32,
    /// `NarrowBook`: drop rarely played moves (under a tenth of the position's plays).
    pub narrow: bool,
    /// `BookEvalDiff`: play only moves within this many centipawns of the book's best.
    pub eval_diff: i32,
    /// `BookEvalBlackLimit` / `BookEvalWhiteLimit`: play only moves valued at least this much
    /// for the side to move.
    pub eval_limit: [i32; 2],
    /// `BookDepthLimit`: play only moves searched at least this deep (0: no limit).
    pub depth_limit: i32,
    /// `IgnoreBookPly`: match positions whatever their move number.
    pub ignore_ply: bool,
    /// `FlippedBook`: also look for the colour-flipped position.
    pub flipped: bool,
    /// `ConsiderBookMoveCount`: choose in proportion to how often each move was played,
    /// instead of evenly among the moves left.
    pub consider_count: bool,
}

impl Default for BookOptions {
    fn default() -> BookOptions {
        BookOptions {
            own_book: true,
            file: "hayate_book.db".into(),
            dir: "book".into(),
            moves: 16,
            ignore_rate: 0,
            narrow: false,
            eval_diff: 30,
            eval_limit: [0, -140],
            // Books made from game records carry no depth; a limit is for books that do.
            depth_limit: 0,
            ignore_ply: false,
            flipped: true,
            consider_count: false,
        }
    }
}

/// Picks one of `moves` (all legal in the position, `side` to move) as the options say; `None`
/// when the options leave nothing to play, and the search decides.
pub fn choose(
    mut moves: Vec<BookMove>,
    side: Color,
    opts: &BookOptions,
    rng: &mut Rng,
) -> Option<BookMove> {
    if opts.ignore_rate > 0 && rng.below(100) < opts.ignore_rate as u64 {
        return None;
    }
    // A move without a value counts as even, one without a depth as unsearched.
    let value = |m: &BookMove| m.value.unwrap_or(0);
    if opts.depth_limit > 0 {
        moves.retain(|m| m.depth.unwrap_or(0) >= opts.depth_limit);
    }
    let limit = opts.eval_limit[side.index()];
    moves.retain(|m| value(m) >= limit);
    if opts.narrow {
        // Counts come from the book file: saturate rather than overflow.
        let total = moves.iter().fold(0u64, |t, m| t.saturating_add(m.count));
        moves.retain(|m| m.count.saturating_mul(10) >= total);
    }
    let best = moves.iter().map(value).max()?;
    moves.retain(|m| value(m) >= best.saturating_sub(opts.eval_diff.max(0)));
    let pick = if opts.consider_count {
        let total = moves
            .iter()
            .fold(0u64, |t, m| t.saturating_add(m.count.max(1)));
        let mut r = rng.below(total.max(1));
        moves
            .iter()
            .position(|m| {
                let c = m.count.max(1);
                if r < c {
                    true
                } else {
                    r -= c;
                    false
                }
            })
            .unwrap_or(0)
    } else {
        rng.below(moves.len() as u64) as usize
    };
    Some(moves.swap_remove(pick))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_move_syntax;

    fn mv(text: &str, value: i32, depth: i32, count: u64) -> BookMove {
        BookMove {
            value: Some(value),
            depth: Some(depth),
            count,
            ..BookMove::new(parse_move_syntax(text).unwrap())
        }
    }

    #[test]
    fn filters_follow_the_options() {
        let moves = vec![
            mv("7g7f", 40, 20, 5),
            mv("2g2f", 35, 10, 100),
            mv("5g5f", -200, 20, 1),
        ];
        let mut rng = Rng::seeded(7);
        let mut o = BookOptions {
            eval_diff: 0,
            ..BookOptions::default()
        };
        let pick = |o: &BookOptions, rng: &mut Rng| {
            choose(moves.clone(), Color::Black, o, rng).map(|m| m.mv.to_string())
        };
        assert_eq!(pick(&o, &mut rng).as_deref(), Some("7g7f"));
        o.depth_limit = 21;
        assert_eq!(pick(&o, &mut rng), None);
        o.depth_limit = 0;
        o.narrow = true;
        o.eval_diff = 10;
        // 7g7f was played in under a tenth of the games: only 2g2f stays.
        assert_eq!(pick(&o, &mut rng).as_deref(), Some("2g2f"));
        o.narrow = false;
        o.eval_limit = [50, 50];
        assert_eq!(pick(&o, &mut rng), None);
        o.eval_limit = [0, 0];
        o.ignore_rate = 100;
        assert_eq!(pick(&o, &mut rng), None);
    }

    #[test]
    fn huge_counts_from_a_file_saturate() {
        // Counts near u64::MAX (a damaged or hostile book) must neither overflow the sums of
        // NarrowBook and ConsiderBookMoveCount nor break the choice.
        let moves = vec![
            mv("7g7f", 40, 20, u64::MAX),
            mv("2g2f", 40, 20, u64::MAX - 1),
            mv("5g5f", 40, 20, u64::MAX / 3),
        ];
        let o = BookOptions {
            narrow: true,
            consider_count: true,
            ..BookOptions::default()
        };
        let mut rng = Rng::seeded(3);
        for _ in 0..20 {
            assert!(choose(moves.clone(), Color::Black, &o, &mut rng).is_some());
        }
        let mut e = super::super::BookEntry {
            ply: 1,
            moves: vec![mv("7g7f", 40, 20, u64::MAX)],
        };
        e.merge(e.clone());
        assert_eq!(e.moves[0].count, u64::MAX);
    }

    #[test]
    fn every_close_move_gets_played() {
        let moves = vec![mv("7g7f", 40, 20, 1), mv("2g2f", 35, 20, 1)];
        let o = BookOptions::default();
        let mut rng = Rng::seeded(1);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..50 {
            seen.insert(
                choose(moves.clone(), Color::White, &o, &mut rng)
                    .unwrap()
                    .mv,
            );
        }
        assert_eq!(seen.len(), 2);
    }
}
