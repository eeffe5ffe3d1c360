//! The score bands the search and its transposition table share: proven results sit at the top
//! and bottom of the scale, beyond every evaluation.

/// Score of a win at the root; a win in `p` plies scores `MATE - p`.
pub(crate) const MATE: i32 = 1_000_000;
/// The longest distance to the end a proven score can carry, in plies: far beyond the search's
/// depth, for the distances an [`crate::game::Oracle`] knows (Dobutsu Shogi's longest is in the
/// hundreds).
pub(crate) const MAX_DISTANCE: usize = 1000;
/// Scores at least this far from zero are proven results.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_DISTANCE as i32;
