//! Oware's rule set, and what Oware reads from a finished game: why it ended in Oware's terms and
//! the final stores. The game in progress is the generic [`crate::game::GameState`].

use std::fmt;

use crate::game::{self, CycleRule};
use crate::oware::{Board, RuleSet, Side, HALF_SEEDS};

/// The rules a game is played under: the variant and the cycle rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Abapa (default) or Awari.
    pub variant: RuleSet,
    /// The cycle rule: repetitions of a position since the last capture that end the game (3 by
    /// default; some GUIs end at the first repetition, 2), and plies without capture that end it
    /// (500 by default; 0 disables).
    pub cycle: CycleRule,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            variant: RuleSet::Abapa,
            cycle: CycleRule::default(),
        }
    }
}

/// An Oware game in progress.
pub type GameState = game::GameState<Board>;
/// How an Oware game ended.
pub type GameEnd = game::GameEnd<Board>;

/// Why an Oware game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A player captured more than 24 seeds.
    Majority,
    /// Both players captured 24.
    EvenSplit,
    /// The player to move had no legal move (could not feed the opponent, or had no seeds); each
    /// player took the seeds of their own row.
    NoMoves,
    /// The same position occurred `Repetitions` times since the last capture.
    Repetition,
    /// `NoCaptureLimit` plies passed without a capture.
    NoCaptureLimit,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Majority => "a player captured more than 24 seeds",
            EndReason::EvenSplit => "both players captured 24 seeds",
            EndReason::NoMoves => {
                "the player to move cannot move or feed; each player takes their own row"
            }
            EndReason::Repetition => "cycle rule: the position repeated",
            EndReason::NoCaptureLimit => "cycle rule: no capture within the ply limit",
        })
    }
}

impl EndReason {
    /// Why `board` has ended the game by the rules, if it has.
    pub fn of_position(board: &Board) -> Option<EndReason> {
        board.final_stores()?;
        let (s, n) = (board.store(Side::South), board.store(Side::North));
        Some(if s > HALF_SEEDS || n > HALF_SEEDS {
            EndReason::Majority
        } else if s == HALF_SEEDS && n == HALF_SEEDS {
            EndReason::EvenSplit
        } else {
            EndReason::NoMoves
        })
    }
}

impl game::GameEnd<Board> {
    /// Why the game ended, in Oware's terms.
    pub fn oware_reason(&self) -> EndReason {
        match self.reason {
            game::EndReason::Repetition => EndReason::Repetition,
            game::EndReason::NoProgressLimit => EndReason::NoCaptureLimit,
            game::EndReason::Rules => {
                EndReason::of_position(&self.position).unwrap_or(EndReason::NoMoves)
            }
        }
    }

    /// The final seed counts, `[South, North]`, with the seeds left on the board shared out by
    /// the rule that ended the game (own rows under Abapa's cycle rule and when a player cannot
    /// move; split evenly under Awari's cycle rule).
    pub fn stores(&self) -> [u8; 2] {
        let b = &self.position;
        match self.reason {
            game::EndReason::Rules => b.final_stores().unwrap_or_else(|| b.stores_with_own_rows()),
            _ => b.cycle_stores(),
        }
    }
}

impl game::GameState<Board> {
    /// The current position (a copy: Oware boards are 16 bytes).
    pub fn board(&self) -> Board {
        *self.position()
    }

    /// Keys of the positions since the last capture, oldest first, current last.
    pub fn keys_since_capture(&self) -> &[u64] {
        self.keys_since_irreversible()
    }
}
