//! Oware's notation for the protocol and the records ([`Notation`]): the diagram, moves as house
//! letters, and the board drawn for `d`.

use std::fmt::Write as _;

use crate::game::{self, Notation};
use crate::oware::{parse_moves, Board, Move, NotationError, Rules, Side};

impl Notation for Board {
    type Error = NotationError;
    const CYCLE_COUNT: &'static str = "plies since the last capture";

    fn parse_position(text: &str, rules: &Rules) -> Result<Board, NotationError> {
        Ok(text.parse::<Board>()?.with_variant(rules.variant))
    }

    fn write_position(&self) -> String {
        self.to_string()
    }

    /// Moves given as separate words (`F f B e`), run together (`FfBe`) or mixed.
    fn parse_moves(&self, words: &[&str]) -> Result<Vec<Move>, NotationError> {
        parse_moves(words.iter().copied())
    }

    /// Run together (`FfBe`): the Aualé GUI keeps only the first of space-separated moves.
    fn write_moves(moves: &[Move]) -> String {
        moves.iter().map(|m| m.letter()).collect()
    }

    /// North's row on top (`f` to `a`, as North sees it from across the table) and South's below
    /// (`A` to `F`), then the diagram, the variant and the side to move.
    fn diagram(&self, _counters: crate::game::MoveCounters) -> String {
        let h = self.houses();
        let row = |range: &mut dyn Iterator<Item = usize>| -> String {
            range
                .map(|i| format!("{:>3}", h[i]))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut s = String::new();
        let _ = writeln!(s, "     f   e   d   c   b   a");
        let _ = writeln!(
            s,
            "  {} | North store {:>2}",
            row(&mut (6..12).rev()),
            self.store(Side::North)
        );
        let _ = writeln!(
            s,
            "  {} | South store {:>2}",
            row(&mut (0..6)),
            self.store(Side::South)
        );
        let _ = writeln!(s, "     A   B   C   D   E   F");
        let _ = writeln!(s, "position {self}");
        let _ = writeln!(s, "variant {}", self.variant());
        let _ = write!(
            s,
            "side to move {}",
            match self.side_to_move() {
                Side::South => "South",
                Side::North => "North",
            }
        );
        s
    }

    fn describe_end(end: &game::GameEnd<Board>) -> String {
        let stores = end.stores();
        format!(
            "({}), final stores South {} North {}",
            end.oware_reason(),
            stores[0],
            stores[1]
        )
    }
}
