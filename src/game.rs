//! The small trait that the search (and, later, retrograde analysis) is written against.
//!
//! A game implements [`Game`] on its position type. The search never looks inside a position: it
//! asks for the legal moves, plays them, asks whether the game is over and for a static evaluation.
//! Oware implements it in [`crate::oware`]; Dobutsu Shogi can implement it the same way.

use std::fmt::{Debug, Display};

/// Result of a finished game, seen from the side to move in the final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// Neither side has won.
    Draw,
    /// The side to move has lost.
    Loss,
}

impl Outcome {
    /// The same outcome seen from the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// The cycle rule shared by the games: a game ends when the same position (and side to move) has
/// occurred `repetitions` times since the last irreversible move, or when `no_progress_limit` plies
/// have been played without one. What the game's value is then is up to the game
/// ([`Game::cycle_outcome`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleRule {
    /// Occurrences of one position (counting the current one) that end the game; at least 2.
    pub repetitions: u32,
    /// Plies without an irreversible move that end the game; 0 disables the limit.
    pub no_progress_limit: u32,
}

impl Default for CycleRule {
    /// Three occurrences, 500 plies: the Abapa tournament rule as the Aualé GUI applies it.
    fn default() -> Self {
        CycleRule {
            repetitions: 3,
            no_progress_limit: 500,
        }
    }
}

/// A two-player, zero-sum, perfect-information game position, as the search sees it.
///
/// Positions are values: [`Game::play`] returns a new position and never changes `self`, so the
/// search can keep the parent on its stack (Oware positions are 16 bytes).
pub trait Game: Clone + Send + Sync + 'static {
    /// One move; `Display` gives the game's notation.
    type Move: Copy + Eq + Debug + Display + Send + Sync + 'static;
    /// The evaluation weights ([`Game::evaluate`]), settable at run time.
    type Weights: Clone + Debug + Default + Send + Sync + 'static;

    /// Appends the legal moves of this position to `out` (which the caller clears). Callers check
    /// [`Game::outcome`] first: a position whose game is over may still list moves (in Oware, a
    /// store above 24 ends the game whatever the houses hold). Empty only when the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move. Returns the new position and whether the move was irreversible (a
    /// capture in Oware), which restarts the cycle rule's count.
    fn play(&self, mv: Self::Move) -> (Self, bool);

    /// The outcome if the game is over by the position alone (not counting the cycle rule), seen
    /// from the side to move.
    fn outcome(&self) -> Option<Outcome>;

    /// The outcome when the cycle rule ends the game in this position, seen from the side to move.
    fn cycle_outcome(&self) -> Outcome;

    /// Static evaluation from the side to move, in centipawn-like units (in Oware 100 = one seed of
    /// expected margin).
    fn evaluate(&self, weights: &Self::Weights) -> i32;

    /// A cheap ordering hint for the move that led from `self` to `child`: larger is searched
    /// earlier (in Oware, the seeds it captured).
    fn order_hint(&self, child: &Self) -> i32;

    /// A 64-bit hash of everything the game's value depends on (for Oware: houses, stores and side
    /// to move). Used for repetition detection and the transposition table.
    fn key(&self) -> u64;

    /// The side to move: 0 for the first player (South), 1 for the second.
    fn side(&self) -> usize;
}
