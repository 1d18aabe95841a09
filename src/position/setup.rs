//! Positions written as USI writes them, the one reader for every place that takes a position
//! as text: the `position` command, opening files of `hayate match` and `hayate selfplay`, book
//! probes and line records, and the command line.
//!
//! ```text
//! [position] startpos                              [moves 7g7f 3c3d ...]
//! [position] sfen <board> <side> <hand> [<ply>]    [moves ...]
//! [position] <board> <side> <hand> [<ply>]         [moves ...]   (a bare SFEN)
//! [position] <handicap name>                       [moves ...]   (see HANDICAPS)
//! ```

use super::Position;
use crate::types::Move;

impl Position {
    /// Reads a position line (see the module documentation), playing its moves, so that the
    /// result keeps them as history (for repetition and [`Position::start_and_moves`]).
    ///
    /// # Errors
    /// A message naming the problem: an unreadable setup, a bad SFEN field, or the first
    /// malformed or illegal move.
    pub fn from_usi(line: &str) -> Result<Position, String> {
        Position::from_usi_words(&line.split_whitespace().collect::<Vec<_>>())
    }

    /// [`Position::from_usi`] on words already split.
    ///
    /// # Errors
    /// As [`Position::from_usi`].
    pub fn from_usi_words(words: &[&str]) -> Result<Position, String> {
        let words = match words {
            ["position", rest @ ..] => rest,
            _ => words,
        };
        let moves_at = words
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(words.len());
        let (setup, moves) = words.split_at(moves_at);
        let mut pos = match setup {
            ["startpos"] => Ok(Position::startpos()),
            ["sfen", sfen @ ..] => from_fields(sfen).ok_or_else(|| {
                "position sfen needs board, side, hand and an optional move number".to_string()
            })?,
            // A bare SFEN: only a board has a '/'.
            [board, ..] if board.contains('/') => from_fields(setup).ok_or_else(|| {
                "an SFEN needs board, side, hand and an optional move number".to_string()
            })?,
            [name] => Position::from_name(name),
            [] => return Err("position needs 'startpos' or 'sfen ...'".into()),
            _ => return Err(format!("cannot read position '{}'", setup.join(" "))),
        }
        .map_err(|e| e.to_string())?;
        for text in moves.iter().skip(1) {
            let m = pos.parse_usi_move(text)?;
            pos.do_move(m);
        }
        Ok(pos)
    }

    /// The position this one was played from, and the moves played since: the setup and the
    /// `moves` of the line [`Position::from_usi`] read.
    pub fn start_and_moves(&self) -> (Position, Vec<Move>) {
        let mut pos = self.clone();
        let mut moves = Vec::new();
        while let Some(m) = pos.last_move() {
            moves.push(m);
            pos.undo_move(m);
        }
        moves.reverse();
        (pos, moves)
    }
}

/// The SFEN fields `board side hand [ply]`, or `None` when there are too few or too many.
fn from_fields(fields: &[&str]) -> Option<Result<Position, super::SfenError>> {
    match *fields {
        [board, side, hand] => Some(Position::from_sfen_fields(board, side, hand, None)),
        [board, side, hand, ply] => Some(Position::from_sfen_fields(board, side, hand, Some(ply))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_position_line_reads() {
        let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
        for line in [
            "startpos moves 7g7f 3c3d",
            "position startpos moves 7g7f 3c3d",
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d",
            after,
        ] {
            let pos = Position::from_usi(line).unwrap();
            assert_eq!(pos.to_sfen(), after, "{line}");
        }
        let pos = Position::from_usi("2piece moves 4a3b").unwrap();
        let (start, moves) = pos.start_and_moves();
        assert_eq!(
            start.to_sfen(),
            Position::from_name("2piece").unwrap().to_sfen()
        );
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].to_string(), "4a3b");
    }

    #[test]
    fn a_bad_line_says_what_is_wrong() {
        for (line, says) in [
            ("", "startpos"),
            ("sfen 9/9 b", "board, side, hand"),
            ("bogus/sfen b - 1", "ranks"),
            ("startpos moves 7g7f 7g7f", "illegal move"),
            ("startpos moves xyz", "malformed move"),
            ("nosuchhandicap", "unknown start position"),
            ("startpos extra", "cannot read position"),
        ] {
            let e = Position::from_usi(line).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
    }
}
