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

use crate::game::Outcome;

/// Beyond every score: the window of a search that knows nothing yet is (`-INF`, `INF`).
pub(crate) const INF: i32 = MATE + 1;
/// Static evaluations are clamped inside this bound: weights at the ends of their range can give
/// values beyond `MATE` that would read as proven results (or below `-INF`, leaving no move).
const MAX_EVAL: i32 = MATE_BOUND - 1;

/// An evaluation kept inside [`MAX_EVAL`].
#[inline]
pub(crate) fn clamp_eval(eval: i32) -> i32 {
    eval.clamp(-MAX_EVAL, MAX_EVAL)
}

/// `score` kept inside an oracle's `bounds` of the position, unless it is a proven result (the
/// search's own proof of a result by the rules stands).
#[inline]
pub(crate) fn within(bounds: Option<(i32, i32)>, score: i32) -> i32 {
    match bounds {
        Some((low, high)) if score.abs() < MATE_BOUND => score.clamp(low, high),
        _ => score,
    }
}

/// The score of a position known without search ([`crate::game::Game::proven`]) at `ply`: its
/// outcome, `plies` later.
#[inline]
pub(crate) fn proven_score((outcome, plies): (Outcome, u8), ply: usize) -> i32 {
    outcome_score(outcome, ply + plies as usize)
}

/// The score of `outcome` reached at `ply`: a win sooner is worth more, a loss later less bad.
pub(crate) fn outcome_score(outcome: Outcome, ply: usize) -> i32 {
    match outcome {
        Outcome::Win => MATE - ply as i32,
        Outcome::Loss => -(MATE - ply as i32),
        Outcome::Draw => 0,
    }
}

/// The score at `ply` of a position an oracle values `(outcome, plies to the end)`.
pub(crate) fn oracle_score((outcome, plies): (Outcome, u32), ply: usize) -> i32 {
    outcome_score(outcome, (ply + plies as usize).min(MAX_DISTANCE - 1))
}

/// Converts an internal score to the reported one.
pub(crate) fn to_score(s: i32) -> crate::search::Score {
    use crate::search::Score;
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-((MATE + s + 1) / 2))
    } else {
        Score::Cp(s)
    }
}
