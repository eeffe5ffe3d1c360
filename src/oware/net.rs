//! Oware's evaluation network: a small perceptron ([`crate::nnue`]) over the houses and stores
//! seen from the side to move, trained on exact tablebase values and on the results and
//! searches of self-play games (`examples/train_oware_net.rs`, docs/evaluation.md), evaluated
//! in integers by the search.
//!
//! [`INPUTS`] binary inputs ([`input`]), [`ACTIVE`] of them set in every position: each of the
//! twelve houses (the mover's `A`-`F` or `a`-`f` first, then the opponent's) by its seeds, one
//! input for each count from 0 to 14 and one for 15 or more; each store by its seeds, 0 to 24.
//! [`HIDDEN`] hidden units with a clipped ReLU, then one output: the logit of the mover's
//! expected score (win 1, draw 1/2, loss 0), which [`evaluate_with`] returns in hundredths
//! of a seed, the linear evaluation's unit (the logit divided by [`LOGIT_PER_CENTI_SEED`]), so
//! the search's margins and the WDL model keep their scale.
//!
//! A sowing changes up to all twelve houses, so the evaluation is computed whole at each call
//! (fourteen rows of weights added), and [`evaluate`] keeps each thread's last evaluations by
//! position. The file is [`crate::nnue`]'s format under the magic `PPON`.

use std::sync::LazyLock;

use crate::nnue::{self, QA, QB};
use crate::oware::Board;

/// The number of inputs.
pub const INPUTS: usize = 242;
/// The number of hidden units.
pub const HIDDEN: usize = 64;
/// The inputs every position sets: twelve houses and two stores.
pub const ACTIVE: usize = 14;
/// The logit of the expected score per hundredth of a seed: the `K` that best fits the linear
/// evaluation to the trainer's labels (docs/evaluation.md), so both evaluations share a unit.
pub const LOGIT_PER_CENTI_SEED: f32 = 0.003;
/// The largest magnitude of an evaluation, below every proven score (10000 minus the plies).
pub const EVAL_LIMIT: i32 = 7900;
/// The file's magic.
pub const MAGIC: &[u8; 4] = b"PPON";

/// The first input of each group.
pub mod input {
    /// House `k` (0-11, the mover's row first) holding `n` seeds: `16 × k + min(n, 15)`.
    pub const HOUSES: usize = 0;
    /// The mover's store of `s` seeds: `MY_STORE + min(s, 24)`.
    pub const MY_STORE: usize = 192;
    /// The opponent's store, as [`MY_STORE`].
    pub const THEIR_STORE: usize = 217;
}

/// The network's shape.
pub type Network = nnue::Network<INPUTS, HIDDEN>;

// A hidden sum of the bias and every active input fits an `i16`.
const _: () = assert!((ACTIVE as i32 + 1) * nnue::WEIGHT_LIMIT <= i16::MAX as i32);

/// The active inputs of `board` ([`input`]), in order.
#[inline(always)]
pub fn active_inputs(board: &Board) -> [u16; ACTIVE] {
    let bytes = board.relative_bytes();
    std::array::from_fn(|i| match i {
        0..12 => (input::HOUSES + 16 * i + usize::from(bytes[i].min(15))) as u16,
        12 => (input::MY_STORE + usize::from(bytes[12].min(24))) as u16,
        _ => (input::THEIR_STORE + usize::from(bytes[13].min(24))) as u16,
    })
}

/// The output of `net` for `board` before scaling: the logit times `QA × QB`.
#[inline]
pub fn output(net: &Network, board: &Board) -> i32 {
    net.output_of(board)
}

impl nnue::ActiveInputs for Board {
    #[inline(always)]
    fn for_each_active(&self, sink: &mut impl nnue::InputSink) {
        for i in active_inputs(self) {
            sink.add(usize::from(i));
        }
    }
}

/// The evaluation of `board` by `net` from the side to move, in hundredths of a seed, within
/// ±[`EVAL_LIMIT`].
#[inline]
pub fn evaluate_with(net: &Network, board: &Board) -> i32 {
    const DIVISOR: i64 = ((QA * QB) as f32 * LOGIT_PER_CENTI_SEED * 1000.0) as i64;
    ((i64::from(output(net, board)) * 1000 / DIVISOR) as i32).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The network file built into the engine (`data/oware.nnue`, docs/evaluation.md).
pub const DEFAULT_FILE: &[u8] = include_bytes!("../../data/oware.nnue");

/// The built-in file's checksum (`crate::retro::file::Checksum`, as the trainer prints it).
pub const CHECKSUM: &str = "c70e7810db892373";

/// The network built into the engine, read once.
pub static DEFAULT: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(DEFAULT_FILE, MAGIC).expect("the built-in network is valid")
});

/// Entries of each thread's cache of the built-in network's evaluations (16 bytes each).
const CACHE_ENTRIES: usize = 1 << 15;

thread_local! {
    /// The last evaluations by the built-in network, by position: a search meets the same
    /// position many times (transpositions, and each iteration again). Direct-mapped: an entry
    /// holds the position's key and its evaluation.
    static CACHE: std::cell::RefCell<Box<[(u64, i32)]>> =
        std::cell::RefCell::new(vec![(u64::MAX, 0); CACHE_ENTRIES].into_boxed_slice());
}

/// The evaluation of `board` by the built-in network ([`DEFAULT`]), through this thread's cache.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    // The key is a 64-bit hash of the whole position, so two positions sharing an entry and a
    // key is as unlikely as a transposition table's collision.
    let key = board.key();
    let slot = (key >> (64 - CACHE_ENTRIES.trailing_zeros())) as usize;
    CACHE.with_borrow_mut(|cache| {
        let entry = &mut cache[slot];
        if entry.0 != key {
            *entry = (key, evaluate_with(&DEFAULT, board));
        }
        entry.1
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oware::{RuleSet, Side, Weights};

    /// Positions along games of pseudo-random moves from the start (a fixed linear congruential
    /// sequence picks the moves).
    fn walk() -> Vec<Board> {
        let mut seen = Vec::new();
        let mut state = 12345u64;
        for _ in 0..100 {
            let mut board = Board::start(RuleSet::Abapa);
            for _ in 0..80 {
                if board.outcome().is_some() {
                    break;
                }
                seen.push(board);
                let moves = board.legal_move_list();
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = moves.as_slice()[(state >> 33) as usize % moves.len()];
                board = board.sow_and_capture(mv).0;
            }
        }
        seen
    }

    /// The inputs of a position worked out by hand, North to move: North's houses `a`-`f`
    /// first (inputs 0-95), then South's `A`-`F`, then North's store of 16 and South's of 3.
    #[test]
    fn the_inputs_are_the_houses_and_stores_from_the_mover() {
        let board: Board = "0-1-2-3-4-0-16-1-0-0-0-2-3-16-N".parse().expect("diagram");
        let expected: [usize; ACTIVE] = [
            15, // a: 16 seeds, counted as 15
            16 + 1,
            32,
            48,
            64,
            80 + 2,
            96,
            112 + 1,
            128 + 2,
            144 + 3,
            160 + 4,
            176,
            input::MY_STORE + 16,
            input::THEIR_STORE + 3,
        ];
        assert_eq!(active_inputs(&board).map(usize::from), expected);
    }

    /// A position and the same one with the rows, stores and side to move swapped have the same
    /// inputs, and so the same value.
    #[test]
    fn the_inputs_are_the_same_for_the_swapped_position() {
        for board in walk() {
            let (h, me) = (board.houses(), board.side_to_move());
            let swapped = Board::new(
                std::array::from_fn(|i| h[(i + 6) % 12]),
                [board.store(Side::North), board.store(Side::South)],
                me.opponent(),
                RuleSet::Abapa,
            )
            .expect("48 seeds");
            assert_eq!(active_inputs(&board), active_inputs(&swapped), "{board}");
            assert_eq!(evaluate(&board), evaluate(&swapped));
        }
    }

    /// A network with one hidden unit on the mover's store holding 10 seeds, worked out by
    /// hand: with it the unit is 1.0, its output weight 0.7 (rounded to 45/64), so the logit is
    /// 0.703125 and the evaluation 0.703125 / 0.003 = 234.375, truncated to 234; without it, 0.
    #[test]
    fn a_hand_made_network_gives_its_hand_worked_value() {
        let mut w1 = vec![[0.0; HIDDEN]; INPUTS];
        w1[input::MY_STORE + 10][0] = 1.0;
        let mut w2 = [0.0; HIDDEN];
        w2[0] = 0.7;
        let net = Network::quantize(&w1, &[0.0; HIDDEN], &w2, 0.0);
        let ten: Board = "4-4-4-4-4-2-4-4-4-4-0-0-10-0-S".parse().expect("diagram");
        assert_eq!(output(&net, &ten), QA * 45);
        assert_eq!(evaluate_with(&net, &ten), 234);
        // North to move: the 10 seeds are the opponent's store.
        let north: Board = "4-4-4-4-4-2-4-4-4-4-0-0-10-0-N".parse().expect("diagram");
        assert_eq!(evaluate_with(&net, &north), 0);
    }

    /// The integer inference against a float computation from the same weights: equal but for
    /// the final rounding, on every position of the walk.
    #[test]
    fn integer_inference_equals_the_float_reference() {
        crate::nnue::testing::integer_matches_float(
            &walk(),
            |board| evaluate_with(&DEFAULT, board),
            |board| {
                (DEFAULT.logit_float(&active_inputs(board)) / LOGIT_PER_CENTI_SEED)
                    .clamp(-EVAL_LIMIT as f32, EVAL_LIMIT as f32)
            },
        );
    }

    /// The cache returns what the network computes, also for positions that share an entry
    /// and when asked again.
    #[test]
    fn the_cached_evaluation_is_the_networks() {
        crate::nnue::testing::cache_matches(&walk(), evaluate, |board| {
            evaluate_with(&DEFAULT, board)
        });
    }

    /// The built-in network file: its length, its checksum (docs/evaluation.md gives the command
    /// that made it), and a write of it reads back the same.
    #[test]
    fn the_built_in_network_is_the_committed_file() {
        crate::nnue::testing::check_built_in::<INPUTS, HIDDEN>(DEFAULT_FILE, MAGIC, CHECKSUM);
    }

    /// The held-out sample (`tests/data/oware-net-holdout.tsv`: validation positions the
    /// trainer kept apart from its training set, 1,000 of self-play games and 1,000 of random
    /// walks, whose result the 20-seed tablebase proves): the network ranks a won position
    /// above a lost one in at least 99% of the pairs (each won position with the next lost one
    /// in file order), where the linear evaluation ranks under 96%; and the mean squared error
    /// of `sigmoid(K × eval)` against the result is under half the linear evaluation's (the
    /// measured figures: docs/lab/).
    #[test]
    fn the_network_prefers_won_positions_to_lost_ones_on_held_out_positions() {
        let text = include_str!("../../tests/data/oware-net-holdout.tsv");
        let linear = Weights::linear();
        let positions = text.lines().map(|line| {
            let (diagram, value) = line.split_once('\t').expect("a tab");
            let board: Board = diagram.parse().expect("diagram");
            let target = match value {
                "win" => 1.0,
                "loss" => 0.0,
                _ => 0.5,
            };
            (evaluate(&board), board.evaluate(&linear), target)
        });
        let h = crate::nnue::testing::holdout(positions, LOGIT_PER_CENTI_SEED);
        assert_eq!(h.n, 2000);
        assert!(h.pairs > 800, "{h:?}");
        assert!(h.net >= 0.99, "{h:?}");
        assert!(h.linear < 0.96, "{h:?}");
        assert!(h.net_error < 0.5 * h.linear_error, "{h:?}");
    }

    /// `EvalNetwork`: the default weights evaluate with the network, [`Weights::linear`] with
    /// the fitted linear sum.
    #[test]
    fn the_search_evaluates_with_the_network_by_default() {
        use crate::game::Game;
        let linear = Weights::linear();
        assert!(Weights::default().network && !linear.network);
        for board in walk().into_iter().step_by(7) {
            assert_eq!(
                Game::evaluate(&board, &Weights::default()),
                evaluate(&board)
            );
            assert_eq!(Game::evaluate(&board, &linear), board.evaluate(&linear));
        }
    }
}
