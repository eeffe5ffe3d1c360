//! The Oware evaluation: a weighted sum of features of the position, each counted from the side to
//! move (its own value minus the opponent's unless said otherwise), in hundredths of a seed.
//!
//! [`Board::features`] lists the features house by house (the reference, and what the tuner
//! `examples/tune_eval.rs` fits the weights on); [`Board::evaluate`] computes the same sum on the
//! rows as words. The terms and how their weights were fitted: `docs/evaluation.md`.

use crate::oware::{Board, Side};

/// The number of evaluation features ([`Board::features`]).
pub const FEATURES: usize = 10;

/// The features' names, in the order of [`Board::features`] (used by the tuner's reports).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "store",
    "seeds",
    "empty",
    "small",
    "large",
    "reach",
    "threats",
    "tempo",
    "store_late",
    "rows_late",
];

impl Board {
    /// The evaluation's features, from the side to move, house by house (see `FEATURE_NAMES`):
    /// - `store`: seeds in its store minus the opponent's;
    /// - `seeds`: seeds in its row minus seeds in the opponent's row;
    /// - `empty`, `small`, `large`: its houses holding 0, 1-2, 12 or more seeds, minus the
    ///   opponent's;
    /// - `reach`: the seeds its houses' sowings put in the opponent's row on their first lap
    ///   (house `k` of `n` seeds: `n - (5 - k)`, from 0 to 6), minus the opponent's;
    /// - `threats`: its houses of 1-2 seeds on which one of the opponent's sowings of fewer than
    ///   12 seeds ends (captures the opponent could make if it were to move; the side to move's
    ///   own captures are left to the search);
    /// - `tempo`: 1 (the side to move);
    /// - `store_late`: `store` times the seeds in both stores, over 16 (a store lead weighs more
    ///   as the game nears its end);
    /// - `rows_late`: the row seed difference times the seeds in both stores, over 16 (the seeds
    ///   of one's row are one's own at an end where no one can feed).
    pub fn features(&self) -> [i32; FEATURES] {
        let me = self.side_to_move();
        let opp = me.opponent();
        let houses = self.houses();
        let row = |side: Side| -> [i32; 6] {
            let first = side.first_house();
            std::array::from_fn(|k| houses[first + k] as i32)
        };
        let (mine, theirs) = (row(me), row(opp));
        let (my_store, their_store) = (self.store(me) as i32, self.store(opp) as i32);
        let mut f = [0i32; FEATURES];
        f[0] = my_store - their_store;
        let rows: i32 = mine.iter().sum::<i32>() - theirs.iter().sum::<i32>();
        f[1] = rows;
        let count = |r: &[i32; 6], p: fn(i32) -> bool| r.iter().filter(|&&n| p(n)).count() as i32;
        f[2] = count(&mine, |n| n == 0) - count(&theirs, |n| n == 0);
        f[3] = count(&mine, |n| matches!(n, 1 | 2)) - count(&theirs, |n| matches!(n, 1 | 2));
        f[4] = count(&mine, |n| n >= 12) - count(&theirs, |n| n >= 12);
        let reach =
            |r: &[i32; 6]| -> i32 { (0..6).map(|k| (r[k] - (5 - k as i32)).clamp(0, 6)).sum() };
        f[5] = reach(&mine) - reach(&theirs);
        f[6] = threats(&theirs, &mine);
        f[7] = 1;
        let stores = my_store + their_store;
        f[8] = f[0] * stores / 16;
        f[9] = rows * stores / 16;
        f
    }
}

/// The houses of `target` holding 1 or 2 seeds that a sowing of fewer than 12 seeds from a house
/// of `attacker` ends on (each counted once).
fn threats(attacker: &[i32; 6], target: &[i32; 6]) -> i32 {
    let mut hit = [false; 6];
    for (k, &n) in attacker.iter().enumerate() {
        let last = k as i32 + n;
        if n > 0 && n < 12 && (6..12).contains(&last) {
            let j = (last - 6) as usize;
            if matches!(target[j], 1 | 2) {
                hit[j] = true;
            }
        }
    }
    hit.iter().filter(|&&h| h).count() as i32
}

/// Evaluation weights, in hundredths of a seed per unit of each feature of [`Board::features`]
/// (the same order in [`Weights::to_array`]). Settable through the protocol's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per seed of store difference (100: one seed is the unit).
    pub capture: i32,
    /// Per seed of row difference.
    pub row_seeds: i32,
    /// Per empty house.
    pub empty: i32,
    /// Per house holding 1 or 2 seeds, which the opponent may capture.
    pub small_house: i32,
    /// Per house holding 12 or more seeds, which laps the board.
    pub big_house: i32,
    /// Per seed a first lap of sowing puts in the opponent's row.
    pub reach: i32,
    /// Per house of the side to move the opponent could capture.
    pub threats: i32,
    /// For the side to move.
    pub tempo: i32,
    /// Per unit of `store_late` (store difference times seeds stored, over 16).
    pub store_late: i32,
    /// Per unit of `rows_late` (row difference times seeds stored, over 16).
    pub rows_late: i32,
    /// The search evaluates with the built-in network ([`crate::oware::net`]), not with these
    /// weights (the `EvalNetwork` option).
    pub network: bool,
}

impl Default for Weights {
    /// The network, with the fitted linear weights behind it when it is turned off.
    fn default() -> Self {
        Weights {
            network: true,
            ..Weights::linear()
        }
    }
}

impl Weights {
    /// The fitted linear weights (docs/evaluation.md), the network off.
    pub fn linear() -> Weights {
        Weights::from_array([68, 22, -195, -22, 52, -55, -69, -59, 24, -3])
    }

    /// The weights in the order of [`Board::features`].
    pub fn to_array(&self) -> [i32; FEATURES] {
        [
            self.capture,
            self.row_seeds,
            self.empty,
            self.small_house,
            self.big_house,
            self.reach,
            self.threats,
            self.tempo,
            self.store_late,
            self.rows_late,
        ]
    }

    /// The weights from an array in the order of [`Board::features`], the network off.
    pub fn from_array(a: [i32; FEATURES]) -> Weights {
        Weights {
            capture: a[0],
            row_seeds: a[1],
            empty: a[2],
            small_house: a[3],
            big_house: a[4],
            reach: a[5],
            threats: a[6],
            tempo: a[7],
            store_late: a[8],
            rows_late: a[9],
            network: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_of_positions_worked_out_by_hand() {
        // South: 13 1 2 0 0 12, North 1 1 2 0 0 16. Reach: A 13 -> 6 and F 12 -> 6 against
        // f 16 -> 6; North's sowings end in its own row or lap it (f): no threat.
        let laps: Board = "13-1-2-0-0-12-1-1-2-0-0-16-0-0-S".parse().expect("diagram");
        assert_eq!(laps.features(), [0, 8, 0, -1, 1, 6, 0, 1, 0, 0]);
        // North's a (6 seeds) ends on South's A (1 seed): one threat. Late terms: -1 * 41 / 16
        // and -5 * 41 / 16, rounded toward zero.
        let late: Board = "1-0-0-0-0-0-6-0-0-0-0-0-20-21-S".parse().expect("diagram");
        assert_eq!(late.features(), [-1, -5, 0, 1, 0, -1, 1, 1, -2, -12]);
        // Seen from North, every difference changes sign, and the threat is South's sowing,
        // which ends in South's own row.
        let north: Board = "1-0-0-0-0-0-6-0-0-0-0-0-20-21-N".parse().expect("diagram");
        assert_eq!(north.features(), [1, 5, 0, -1, 0, 1, 0, 1, 2, 12]);
    }

    /// The largest magnitude each feature takes in a position that is not over (no store above
    /// 24): see `docs/evaluation.md`.
    const FEATURE_BOUNDS: [i32; FEATURES] = [24, 48, 6, 6, 4, 36, 6, 1, 36, 36];

    #[test]
    fn default_evaluation_stays_far_from_proven_scores() {
        // Proven scores start at 10000 minus the plies (ScoreMateAsCp sends them as cp).
        let bound: i32 = Weights::default()
            .to_array()
            .iter()
            .zip(FEATURE_BOUNDS)
            .map(|(w, b)| w.abs() * b)
            .sum();
        assert!(bound < 8000, "bound {bound}");
    }

    #[test]
    fn weights_round_trip_through_the_array() {
        let a = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(Weights::from_array(a).to_array(), a);
    }
}
