//! Dobutsu Shogi's evaluation network: a small perceptron over the position seen from the side
//! to move, trained on the exact values of the solved game (`examples/train_dobutsu_net.rs`,
//! docs/evaluation.md), evaluated in integers by the search.
//!
//! [`INPUTS`] binary inputs ([`input`]): each piece by owner (the mover's or the enemy's), kind
//! and square; the pieces in hand (the first and second of each kind, each side); the squares
//! each side attacks; and each side's Try threat. The board is turned for Gote, so the mover
//! always plays up the board. [`HIDDEN`] hidden units with a clipped ReLU, then one output: the
//! logit of the mover's expected score, which [`evaluate_with`] returns in hundredths of a
//! Chick, the linear evaluation's unit (the logit divided by [`LOGIT_PER_CENTI_CHICK`]), so the
//! search's margins and the WDL model keep their scale.
//!
//! A position alone is evaluated whole (about 30 active inputs of 158 on a 3x4 board), the
//! inputs added up as they are found. The search evaluates every child of the nodes it
//! expands: there [`parent`] sums the parent's inputs once, seen from the children's side to
//! move, and [`evaluate_child`] adds and removes only the inputs a move changes (the pieces
//! moved, taken or dropped, the squares attacked, the Try threats; about 10). [`evaluate`] and
//! [`evaluate_child`] keep each thread's last evaluations by position, as a search meets the
//! same positions again and again.
//!
//! The integer inference and the file are [`crate::nnue`]'s (the file under the magic `PPDN`).

use std::sync::LazyLock;

use crate::dobutsu::{Kind, Player, Position};
use crate::nnue::{self, ActiveInputs, InputSink, QA, QB, WEIGHT_LIMIT};

/// The number of inputs.
pub const INPUTS: usize = 158;
/// The number of hidden units.
pub const HIDDEN: usize = 64;
/// The most inputs a position sets (10 pieces, 12 hand inputs, 24 attacked squares, 2 Try).
pub const MAX_ACTIVE: usize = 48;
/// The file's magic.
pub const MAGIC: &[u8; 4] = b"PPDN";
/// The logit of the expected score per hundredth of a Chick: the `K` that fits the linear
/// evaluation to the solution's values (docs/evaluation.md), so both evaluations share a unit.
pub const LOGIT_PER_CENTI_CHICK: f32 = 0.006;

/// The first input of each group.
pub mod input {
    /// The mover's pieces: `12 × (Kind code − 1) + square`, the square seen from the mover
    /// (Gote's board turned by 180 degrees).
    pub const MINE: usize = 0;
    /// The enemy's pieces, as [`MINE`].
    pub const THEIRS: usize = 60;
    /// The mover's hand: Giraffe, Elephant, Chick, each as its first and second copy.
    pub const MY_HAND: usize = 120;
    /// The enemy's hand, as [`MY_HAND`].
    pub const THEIR_HAND: usize = 126;
    /// The squares the mover's pieces attack.
    pub const MY_ATTACKS: usize = 132;
    /// The squares the enemy's pieces attack.
    pub const THEIR_ATTACKS: usize = 144;
    /// The mover's Lion can step to an empty square of the far rank that no enemy attacks.
    pub const MY_TRY: usize = 156;
    /// The same for the enemy's Lion, as if it were to move.
    pub const THEIR_TRY: usize = 157;
}

/// The squares of a bitboard seen from `me` (turned by 180 degrees for Gote).
#[inline(always)]
fn seen_from(bits: u16, me: Player) -> u16 {
    match me {
        Player::Sente => bits,
        Player::Gote => bits.reverse_bits() >> 4,
    }
}

/// The network's shape.
pub type Network = nnue::Network<INPUTS, HIDDEN>;

// A hidden sum of the bias and every active input stays within ±24,990 and so fits an `i16`.
const _: () = assert!((MAX_ACTIVE as i32 + 1) * WEIGHT_LIMIT <= i16::MAX as i32);

/// The active inputs of `pos` ([`input`]) into `out`; returns how many.
#[inline]
pub fn active_inputs(pos: &Position, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let mut list = List { out, n: 0 };
    pos.for_each_active(&mut list);
    list.n
}

/// The active inputs, listed.
struct List<'a> {
    out: &'a mut [u16; MAX_ACTIVE],
    n: usize,
}

impl InputSink for List<'_> {
    #[inline(always)]
    fn add(&mut self, input: usize) {
        self.out[self.n] = input as u16;
        self.n += 1;
    }
}

impl ActiveInputs for Position {
    #[inline(always)]
    fn for_each_active(&self, sink: &mut impl InputSink) {
        for_each_input(self, self.side_to_move(), sink);
    }
}

/// A position seen from `.1` as if it were to move: the inputs its children have in common
/// with it when `.1` is their side to move.
struct SeenBy<'a>(&'a Position, Player);

impl ActiveInputs for SeenBy<'_> {
    #[inline(always)]
    fn for_each_active(&self, sink: &mut impl InputSink) {
        for_each_input(self.0, self.1, sink);
    }
}

/// Gives `sink` each active input of `pos` ([`input`]) seen from `me`.
#[inline(always)]
fn for_each_input(pos: &Position, me: Player, sink: &mut impl InputSink) {
    let them = me.opponent();
    let mut push_bits = |base: usize, bits: u16| sink.add_group(base, bits);
    for (k, kind) in Kind::ALL.into_iter().enumerate() {
        push_bits(input::MINE + 12 * k, seen_from(pos.pieces(me, kind), me));
        push_bits(
            input::THEIRS + 12 * k,
            seen_from(pos.pieces(them, kind), me),
        );
    }
    let hand_bits = |owner: Player| {
        let mut bits = 0u16;
        for (h, kind) in Kind::DROPPABLE.into_iter().enumerate() {
            // 0, 1 or 2 held: the first copy's bit, then the second's.
            bits |= [0b00, 0b01, 0b11][pos.in_hand(owner, kind).min(2) as usize] << (2 * h);
        }
        bits
    };
    push_bits(input::MY_HAND, hand_bits(me));
    push_bits(input::THEIR_HAND, hand_bits(them));
    let (my_attacks, their_attacks) = (pos.attacks(me), pos.attacks(them));
    push_bits(input::MY_ATTACKS, seen_from(my_attacks, me));
    push_bits(input::THEIR_ATTACKS, seen_from(their_attacks, me));
    let try_threat = |owner: Player, enemy_attacks: u16| {
        pos.lion(owner).is_some_and(|lion| {
            let far: u16 = 0b111 << (3 * owner.opponent().home_rank());
            Position::lion_steps(lion) & far & !enemy_attacks & !pos.occupied_by(owner) != 0
        })
    };
    push_bits(
        input::MY_TRY,
        u16::from(try_threat(me, their_attacks)) | u16::from(try_threat(them, my_attacks)) << 1,
    );
}

/// The output of `net` for `pos` before scaling: the logit times `QA × QB`.
#[inline]
pub fn output(net: &Network, pos: &Position) -> i32 {
    net.output_of(pos)
}

/// The evaluation of `pos` by `net` from the side to move, in hundredths of a Chick.
#[inline]
pub fn evaluate_with(net: &Network, pos: &Position) -> i32 {
    scaled(output(net, pos))
}

/// A network output (the logit times `QA × QB`) in hundredths of a Chick.
#[inline(always)]
fn scaled(output: i32) -> i32 {
    const DIVISOR: i64 = ((QA * QB) as f32 * LOGIT_PER_CENTI_CHICK * 1000.0) as i64;
    (i64::from(output) * 1000 / DIVISOR) as i32
}

/// What the evaluations of a position's children share ([`parent`], [`evaluate_child`]): the
/// built-in network's hidden sums of the position seen from its children's side to move.
#[derive(Clone, Debug)]
pub struct Parent(nnue::Accumulated<HIDDEN>);

/// [`Parent`] of `pos`: about as costly as one evaluation, after which each child costs the
/// inputs its move changes (the pieces moved, taken or dropped, the squares attacked, the Try)
/// instead of all of them.
#[inline]
pub fn parent(pos: &Position) -> Parent {
    Parent(DEFAULT.accumulate(&SeenBy(pos, pos.side_to_move().opponent())))
}

/// [`evaluate`] of `child`, a position reached by one move from `parent`'s: the same value,
/// through the same cache, computed from the parent's sums on a miss.
#[inline]
pub fn evaluate_child(child: &Position, parent: &Parent) -> i32 {
    cached(child, || scaled(DEFAULT.output_from(&parent.0, child)))
}

/// The network file built into the engine (`data/dobutsu.nnue`, docs/evaluation.md).
pub const DEFAULT_FILE: &[u8] = include_bytes!("../../data/dobutsu.nnue");

/// The built-in file's checksum (`crate::retro::file::Checksum`, as the trainer prints it).
pub const CHECKSUM: &str = "7644ec66611f6b34";

/// The network built into the engine, read once.
pub static DEFAULT: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(DEFAULT_FILE, MAGIC).expect("the built-in network is valid")
});

/// Entries of each thread's cache of the built-in network's evaluations (16 bytes each).
const CACHE_ENTRIES: usize = 1 << 15;

thread_local! {
    /// The last evaluations by the built-in network, by position: a search meets the same
    /// position many times (transpositions, and each iteration again). Direct-mapped: an entry
    /// holds the exact position code and its evaluation.
    static CACHE: std::cell::RefCell<Box<[(u64, i32)]>> =
        std::cell::RefCell::new(vec![(u64::MAX, 0); CACHE_ENTRIES].into_boxed_slice());
}

/// The evaluation of `pos` by the built-in network ([`DEFAULT`]), through this thread's cache.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    cached(pos, || evaluate_with(&DEFAULT, pos))
}

/// The evaluation of `pos` from this thread's cache, or made by `compute` and kept.
#[inline(always)]
fn cached(pos: &Position, compute: impl FnOnce() -> i32) -> i32 {
    let key = pos.key();
    // A multiplicative hash's high bits pick the entry (u64::MAX is no position's code).
    let slot =
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CACHE_ENTRIES.trailing_zeros())) as usize;
    CACHE.with_borrow_mut(|cache| {
        let entry = &mut cache[slot];
        if entry.0 != key {
            *entry = (key, compute());
        }
        entry.1
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dobutsu::eval::Weights;

    /// Positions along games of pseudo-random moves from the start (a fixed linear congruential
    /// sequence picks the moves), as `dobutsu::game`'s tests walk.
    fn walk() -> Vec<Position> {
        let mut seen = Vec::new();
        let mut state = 12345u64;
        for _ in 0..100 {
            let mut pos = Position::start();
            for _ in 0..60 {
                seen.push(pos);
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = pos.play(moves[(state >> 33) as usize % moves.len()]).0;
            }
        }
        seen
    }

    fn inputs(pos: &Position) -> Vec<u16> {
        let mut active = [0; MAX_ACTIVE];
        let n = active_inputs(pos, &mut active);
        active[..n].to_vec()
    }

    /// The start position's inputs, worked out by hand: Sente's Elephant a1 (square 0), Lion
    /// b1, Giraffe c1, Chick b2; Gote's Giraffe a4, Lion b4, Elephant c4, Chick b3, seen from
    /// Sente (the board is only turned for Gote to move); no hands; the squares each side
    /// attacks (Sente: a1, b1, c1, a2, b2, c2 and b3); no Try threat.
    #[test]
    fn the_start_positions_inputs_are_the_pieces_and_attacks() {
        let start = Position::start();
        let mut expected = vec![
            input::MINE + 1,         // Lion b1
            input::MINE + 12 + 2,    // Giraffe c1
            input::MINE + 24,        // Elephant a1
            input::MINE + 36 + 4,    // Chick b2
            input::THEIRS + 10,      // Lion b4
            input::THEIRS + 12 + 9,  // Giraffe a4
            input::THEIRS + 24 + 11, // Elephant c4
            input::THEIRS + 36 + 7,  // Chick b3
        ];
        let mut attacks = |base: usize, by: Player| {
            let mut bits = start.attacks(by);
            while bits != 0 {
                expected.push(base + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        };
        attacks(input::MY_ATTACKS, Player::Sente);
        attacks(input::THEIR_ATTACKS, Player::Gote);
        expected.sort();
        let mut got: Vec<usize> = inputs(&start).iter().map(|&i| i as usize).collect();
        got.sort();
        assert_eq!(got, expected);
        assert_eq!(start.attacks(Player::Sente), 0b0000_1011_1111);
    }

    /// The inputs are the mover's view: a position and the same one turned round with the
    /// colours swapped (the other side to move) have the same inputs, and so the same value.
    #[test]
    fn the_inputs_are_the_same_for_the_flipped_position() {
        for pos in walk() {
            assert_eq!(inputs(&pos), inputs(&pos.flipped()), "{pos:?}");
            assert_eq!(evaluate(&pos), evaluate(&pos.flipped()));
        }
    }

    /// A network with one hidden unit on the mover's Try threat, worked out by hand: with the
    /// threat the unit is 1.0 (QA), its output weight 0.6 (rounded to 38/64), so the logit is
    /// 0.59375 and the evaluation 0.59375 / 0.006 = 98.96, truncated to 98 hundredths of a Chick;
    /// without it, 0.
    #[test]
    fn a_hand_made_network_gives_its_hand_worked_value() {
        let mut w1 = vec![[0.0; HIDDEN]; INPUTS];
        w1[input::MY_TRY][0] = 1.0;
        let mut w2 = [0.0; HIDDEN];
        w2[0] = 0.6;
        let net = Network::quantize(&w1, &[0.0; HIDDEN], &w2, 0.0);
        // Sente's Lion on b3 steps to a4 or c4, empty and not attacked by the lone Gote Lion.
        let threat = Position::from_fen("2l/1L1/3/3[] w - - 0 1").unwrap();
        let none = Position::from_fen("2l/3/1L1/3[] w - - 0 1").unwrap();
        assert!(inputs(&threat).contains(&(input::MY_TRY as u16)));
        assert_eq!(output(&net, &threat), QA * 38);
        assert_eq!(evaluate_with(&net, &threat), 98);
        assert_eq!(evaluate_with(&net, &none), 0);
        // Seen from the Gote side to move, the threat is the enemy's.
        let theirs = Position::from_fen("2l/1L1/3/3[] b - - 0 1").unwrap();
        assert!(inputs(&theirs).contains(&(input::THEIR_TRY as u16)));
        assert_eq!(evaluate_with(&net, &theirs), 0);
    }

    /// The integer inference against a float computation from the same weights: equal but for
    /// the final rounding, on every position of the walk.
    #[test]
    fn integer_inference_equals_the_float_reference() {
        crate::nnue::testing::integer_matches_float(
            &walk(),
            |pos| evaluate_with(&DEFAULT, pos),
            |pos| DEFAULT.logit_float(&inputs(pos)) / LOGIT_PER_CENTI_CHICK,
        );
    }

    /// The cache returns what the network computes, also for positions that share an entry
    /// (the walk's 6,000 positions over 32,768 entries collide) and when asked again.
    #[test]
    fn the_cached_evaluation_is_the_networks() {
        crate::nnue::testing::cache_matches(&walk(), evaluate, |pos| evaluate_with(&DEFAULT, pos));
    }

    /// A child's output computed from its parent's sums is the network's own: on every move
    /// of every position of the walk (drops, captures, promotions; a move changes the pieces,
    /// the hands, the attacked squares and the Try threats), and through the cache.
    #[test]
    fn a_child_from_its_parents_sums_is_evaluated_as_alone() {
        let (mut children, mut moves) = (0, Vec::new());
        for pos in walk() {
            let parent = parent(&pos);
            moves.clear();
            pos.legal_moves(&mut moves);
            for &mv in &moves {
                let child = pos.play(mv).0;
                assert_eq!(
                    DEFAULT.output_from(&parent.0, &child),
                    output(&DEFAULT, &child),
                    "{pos} then {mv}"
                );
                assert_eq!(evaluate_child(&child, &parent), evaluate(&child));
                children += 1;
            }
        }
        assert!(children > 10_000, "{children} children");
    }

    /// The built-in network file: its length, its checksum (docs/evaluation.md gives the command
    /// that made it), and a write of it reads back the same.
    #[test]
    fn the_built_in_network_is_the_committed_file() {
        crate::nnue::testing::check_built_in::<INPUTS, HIDDEN>(DEFAULT_FILE, MAGIC, CHECKSUM);
    }

    /// The held-out sample (`tests/data/dobutsu-net-holdout.tsv`: validation positions the
    /// trainer drew apart from its training set, 1,000 uniform over the solution and 1,000 from
    /// random walks, with their exact values): the network ranks a won position above a lost one
    /// in at least 97% of the 745 pairs (each won position with the next lost one in file
    /// order); and the mean squared error of `sigmoid(K × eval)` against the value is under 0.6
    /// times the linear evaluation's (the measured figures: docs/lab/).
    #[test]
    fn the_network_prefers_won_positions_to_lost_ones_on_held_out_positions() {
        let text = include_str!("../../tests/data/dobutsu-net-holdout.tsv");
        let linear = Weights::linear();
        let positions = text.lines().map(|line| {
            let (fen, value) = line.split_once('\t').unwrap();
            let pos = Position::from_fen(fen).unwrap();
            let target = match value.split(' ').next().unwrap() {
                "win" => 1.0,
                "loss" => 0.0,
                _ => 0.5,
            };
            let lin = crate::dobutsu::evaluate(&pos, &linear);
            (evaluate(&pos), lin, target)
        });
        let h = crate::nnue::testing::holdout(positions, LOGIT_PER_CENTI_CHICK);
        assert_eq!(h.n, 2000);
        assert!(h.pairs > 700, "{h:?}");
        assert!(h.net >= 0.97, "{h:?}");
        assert!(h.linear < 0.95, "{h:?}");
        assert!(h.net_error < 0.6 * h.linear_error, "{h:?}");
    }

    /// `EvalNetwork`: the default weights evaluate with the network, [`Weights::linear`] with the
    /// fitted linear sum.
    #[test]
    fn the_search_evaluates_with_the_network_by_default() {
        use crate::game::Game;
        for pos in walk().into_iter().step_by(7) {
            assert_eq!(Game::evaluate(&pos, &Weights::default()), evaluate(&pos));
            assert_eq!(
                Game::evaluate(&pos, &Weights::linear()),
                crate::dobutsu::evaluate(&pos, &Weights::default())
            );
        }
    }
}
