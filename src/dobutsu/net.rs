//! Dobutsu Shogi's evaluation network: a small perceptron over the position seen from the side
//! to move, trained on the exact values of the solved game (`examples/train_dobutsu_net.rs`,
//! docs/evaluation.md), evaluated in integers by the search.
//!
//! [`INPUTS`] binary inputs ([`input`]): each piece by owner (the mover's or the enemy's), kind
//! and square; the pieces in hand (the first and second of each kind, each side); the squares
//! each side attacks; and each side's Try threat. The board is turned for Gote, so the mover
//! always plays up the board. [`HIDDEN`] hidden units with a clipped ReLU, then one output: the
//! logit of the mover's expected score, which [`Network::evaluate`] returns in hundredths of a
//! Chick, the linear evaluation's unit (the logit divided by [`LOGIT_PER_CENTI_CHICK`]), so the
//! search's margins and the WDL model keep their scale.
//!
//! The evaluation is computed whole at each call (about 30 active inputs of 158 on a 3x4
//! board), the inputs added up as they are found: the attack and Try inputs change with most
//! moves, so an accumulator kept up to date move by move would save little. [`evaluate`]
//! keeps each thread's last evaluations by position, as a search meets the same positions
//! again and again.
//!
//! The network file ([`Network::from_bytes`]), little-endian: the magic `PPDN`, the version
//! (u32), the input and hidden counts (u32 each), the input weights (i16, `INPUTS × HIDDEN`,
//! input-major), the hidden biases (i16), the output weights (i16) and the output bias (i32).
//! The hidden layer is scaled by [`QA`], the output weights by [`QB`].

use std::sync::LazyLock;

use crate::dobutsu::{Kind, Player, Position};

/// The number of inputs.
pub const INPUTS: usize = 158;
/// The number of hidden units.
pub const HIDDEN: usize = 64;
/// The most inputs a position sets (10 pieces, 12 hand inputs, 24 attacked squares, 2 Try).
pub const MAX_ACTIVE: usize = 48;
/// The scale of the input weights and hidden biases: the clipped ReLU's 1.0.
pub const QA: i32 = 255;
/// The scale of the output weights.
pub const QB: i32 = 64;
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

/// The active inputs of `pos` ([`input`]) into `out`; returns how many.
#[inline]
pub fn active_inputs(pos: &Position, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let mut list = List { out, n: 0 };
    for_each_input(pos, &mut list);
    list.n
}

/// What is done with each active input: listed ([`active_inputs`]) or added up (the
/// inference). A trait with an always-inlined method rather than a closure, so that the
/// inference's adds are compiled into its AVX2 version whatever the compiler's inlining says.
trait Inputs {
    fn add(&mut self, input: usize);
}

struct List<'a> {
    out: &'a mut [u16; MAX_ACTIVE],
    n: usize,
}

impl Inputs for List<'_> {
    #[inline(always)]
    fn add(&mut self, input: usize) {
        self.out[self.n] = input as u16;
        self.n += 1;
    }
}

/// The hidden sums, and the input weights they add.
struct Sums<'a> {
    acc: [i16; HIDDEN],
    w1: &'a [[i16; HIDDEN]; INPUTS],
}

impl Inputs for Sums<'_> {
    #[inline(always)]
    fn add(&mut self, input: usize) {
        for (a, w) in self.acc.iter_mut().zip(&self.w1[input]) {
            *a += w;
        }
    }
}

/// Gives `sink` each active input of `pos` ([`input`]).
#[inline(always)]
fn for_each_input(pos: &Position, sink: &mut impl Inputs) {
    let me = pos.side_to_move();
    let them = me.opponent();
    let mut push_bits = |base: usize, mut bits: u16| {
        while bits != 0 {
            sink.add(base + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    };
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

/// The largest input weight or hidden bias, in units of `1 / QA`: with at most [`MAX_ACTIVE`]
/// inputs and the bias, a hidden sum stays within ±24,990 and so fits an `i16`.
pub const WEIGHT_LIMIT: i32 = 2 * QA;

/// A quantized network ([`Network::from_bytes`] reads one).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Input weights, `[input][hidden]`, scaled by [`QA`], within [`WEIGHT_LIMIT`].
    w1: Box<[[i16; HIDDEN]; INPUTS]>,
    /// Hidden biases, scaled by [`QA`], within [`WEIGHT_LIMIT`].
    b1: [i16; HIDDEN],
    /// Output weights, scaled by [`QB`].
    w2: [i16; HIDDEN],
    /// Output bias, scaled by `QA × QB`.
    b2: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}x{HIDDEN}x1)")
    }
}

/// Why a network file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// Not a network file, or another version.
    #[error("not a Dobutsu network file of version {VERSION}")]
    Magic,
    /// Another shape than this build's.
    #[error("the network is {inputs}x{hidden}, this build needs {INPUTS}x{HIDDEN}")]
    Shape {
        /// Its inputs.
        inputs: u32,
        /// Its hidden units.
        hidden: u32,
    },
    /// An input weight or hidden bias beyond [`WEIGHT_LIMIT`].
    #[error("an input weight or hidden bias is beyond ±{WEIGHT_LIMIT}")]
    Range,
    /// Too short or too long.
    #[error("the network file has {0} bytes, not {len}", len = Network::FILE_LEN)]
    Length(usize),
}

const MAGIC: &[u8; 4] = b"PPDN";
const VERSION: u32 = 1;

impl Network {
    /// The length of a network file of this build's shape.
    pub const FILE_LEN: usize = 16 + 2 * (INPUTS * HIDDEN + 2 * HIDDEN) + 4;

    /// Reads a network file (the module docs give the format).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        if bytes.len() < 16 || &bytes[..4] != MAGIC || u32_at(4) != VERSION {
            return Err(NetworkError::Magic);
        }
        let (inputs, hidden) = (u32_at(8), u32_at(12));
        if (inputs as usize, hidden as usize) != (INPUTS, HIDDEN) {
            return Err(NetworkError::Shape { inputs, hidden });
        }
        if bytes.len() != Self::FILE_LEN {
            return Err(NetworkError::Length(bytes.len()));
        }
        let mut at = 16;
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut w1 = Box::new([[0; HIDDEN]; INPUTS]);
        for row in w1.iter_mut() {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        let b1 = std::array::from_fn(|_| next());
        let w2 = std::array::from_fn(|_| next());
        let b2 = u32_at(Self::FILE_LEN - 4) as i32;
        let within = |w: &i16| i32::from(*w).abs() <= WEIGHT_LIMIT;
        if !w1.iter().flatten().chain(&b1).all(within) {
            return Err(NetworkError::Range);
        }
        Ok(Network { w1, b1, w2, b2 })
    }

    /// The file of this network ([`Network::from_bytes`] reads it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::FILE_LEN);
        out.extend_from_slice(MAGIC);
        for x in [VERSION, INPUTS as u32, HIDDEN as u32] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let mut push = |v: i16| out.extend_from_slice(&v.to_le_bytes());
        self.w1.iter().flatten().for_each(|&w| push(w));
        self.b1.iter().for_each(|&w| push(w));
        self.w2.iter().for_each(|&w| push(w));
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// A network of the float weights a trainer holds (`w1[input][hidden]`), quantized: each
    /// weight rounded to its scale, the input weights and hidden biases clamped to
    /// [`WEIGHT_LIMIT`], the output weights to an `i16`.
    pub fn quantize(
        w1: &[[f32; HIDDEN]],
        b1: &[f32; HIDDEN],
        w2: &[f32; HIDDEN],
        b2: f32,
    ) -> Network {
        assert_eq!(w1.len(), INPUTS);
        let q = |x: f32, scale: i32| {
            let limit = if scale == QA { WEIGHT_LIMIT } else { 32767 } as f32;
            (x * scale as f32).round().clamp(-limit, limit) as i16
        };
        let mut qw1 = Box::new([[0; HIDDEN]; INPUTS]);
        for (row, src) in qw1.iter_mut().zip(w1) {
            for (w, &x) in row.iter_mut().zip(src) {
                *w = q(x, QA);
            }
        }
        Network {
            w1: qw1,
            b1: b1.map(|x| q(x, QA)),
            w2: w2.map(|x| q(x, QB)),
            b2: (b2 * (QA * QB) as f32).round() as i32,
        }
    }

    /// The output before scaling: the logit times `QA × QB`.
    #[inline]
    pub fn output(&self, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, as just checked.
            return unsafe { self.output_avx2(pos) };
        }
        self.output_portable(pos)
    }

    /// [`Network::output`] compiled for AVX2: 16 hidden sums an instruction instead of 8.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(&self, pos: &Position) -> i32 {
        self.output_portable(pos)
    }

    #[inline(always)]
    fn output_portable(&self, pos: &Position) -> i32 {
        let mut sums = Sums {
            acc: self.b1,
            w1: &self.w1,
        };
        for_each_input(pos, &mut sums);
        let acc = sums.acc;
        let mut out = 0;
        for (a, w) in acc.iter().zip(&self.w2) {
            out += i32::from((*a).clamp(0, QA as i16)) * i32::from(*w);
        }
        out + self.b2
    }

    /// The evaluation of `pos` from the side to move, in hundredths of a Chick.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        const DIVISOR: i64 = ((QA * QB) as f32 * LOGIT_PER_CENTI_CHICK * 1000.0) as i64;
        (i64::from(self.output(pos)) * 1000 / DIVISOR) as i32
    }

    /// The same computed in floats from the quantized weights, with no integer rounding but the
    /// weights' own: the reference the tests hold the integer path to.
    pub fn evaluate_float(&self, pos: &Position) -> f32 {
        let mut active = [0u16; MAX_ACTIVE];
        let n = active_inputs(pos, &mut active);
        let mut logit = self.b2 as f32 / (QA * QB) as f32;
        for h in 0..HIDDEN {
            let mut x = f32::from(self.b1[h]) / QA as f32;
            for &i in &active[..n] {
                x += f32::from(self.w1[i as usize][h]) / QA as f32;
            }
            logit += x.clamp(0.0, 1.0) * (f32::from(self.w2[h]) / QB as f32);
        }
        logit / LOGIT_PER_CENTI_CHICK
    }
}

/// The network file built into the engine (`data/dobutsu.nnue`, docs/evaluation.md).
pub const DEFAULT_FILE: &[u8] = include_bytes!("../../data/dobutsu.nnue");

/// The built-in file's checksum (`crate::retro::file::Checksum`, as the trainer prints it).
pub const CHECKSUM: &str = "7644ec66611f6b34";

/// The network built into the engine, read once.
pub static DEFAULT: LazyLock<Network> =
    LazyLock::new(|| Network::from_bytes(DEFAULT_FILE).expect("the built-in network is valid"));

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
    let key = pos.key();
    // A multiplicative hash's high bits pick the entry (u64::MAX is no position's code).
    let slot =
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CACHE_ENTRIES.trailing_zeros())) as usize;
    CACHE.with_borrow_mut(|cache| {
        let entry = &mut cache[slot];
        if entry.0 != key {
            *entry = (key, DEFAULT.evaluate(pos));
        }
        entry.1
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dobutsu::eval::Weights;
    use crate::game::Outcome;

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
        assert_eq!(net.output(&threat), QA * 38);
        assert_eq!(net.evaluate(&threat), 98);
        assert_eq!(net.evaluate(&none), 0);
        // Seen from the Gote side to move, the threat is the enemy's.
        let theirs = Position::from_fen("2l/1L1/3/3[] b - - 0 1").unwrap();
        assert!(inputs(&theirs).contains(&(input::THEIR_TRY as u16)));
        assert_eq!(net.evaluate(&theirs), 0);
    }

    /// The integer inference against a float computation from the same weights: equal but for
    /// the final rounding, on every position of the walk.
    #[test]
    fn integer_inference_equals_the_float_reference() {
        let net = &*DEFAULT;
        let mut differ = 0;
        for pos in walk() {
            let (int, float) = (net.evaluate(&pos), net.evaluate_float(&pos));
            assert!(
                (int as f32 - float).abs() < 1.0,
                "{pos:?}: {int} against {float}"
            );
            differ += usize::from(int != float.trunc() as i32);
        }
        assert!(differ < 10, "{differ} truncations differ");
    }

    /// The cache returns what the network computes, also for positions that share an entry
    /// (the walk's 6,000 positions over 32,768 entries collide) and when asked again.
    #[test]
    fn the_cached_evaluation_is_the_networks() {
        let positions = walk();
        for _ in 0..2 {
            for pos in &positions {
                assert_eq!(evaluate(pos), DEFAULT.evaluate(pos), "{pos:?}");
            }
        }
    }

    /// The built-in network file: its length, its checksum (docs/evaluation.md gives the command
    /// that made it), and a write of it reads back the same.
    #[test]
    fn the_built_in_network_is_the_committed_file() {
        assert_eq!(DEFAULT_FILE.len(), Network::FILE_LEN);
        let mut sum = crate::retro::file::Checksum::default();
        sum.update(DEFAULT_FILE);
        assert_eq!(format!("{:016x}", sum.finish()), CHECKSUM);
        assert_eq!(DEFAULT.to_bytes(), DEFAULT_FILE);
        assert_eq!(
            Network::from_bytes(&DEFAULT_FILE[..100]),
            Err(NetworkError::Length(100))
        );
        let mut bad = DEFAULT_FILE.to_vec();
        bad[16..18].copy_from_slice(&(WEIGHT_LIMIT as i16 + 1).to_le_bytes());
        assert_eq!(Network::from_bytes(&bad), Err(NetworkError::Range));
        bad[0] = b'X';
        assert_eq!(Network::from_bytes(&bad), Err(NetworkError::Magic));
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
        let (mut won, mut lost) = (Vec::new(), Vec::new());
        let (mut err_net, mut err_linear, mut n) = (0.0, 0.0, 0);
        let p =
            |eval: i32| 1.0 / (1.0 + (-f64::from(LOGIT_PER_CENTI_CHICK) * f64::from(eval)).exp());
        for line in text.lines() {
            let (fen, value) = line.split_once('\t').unwrap();
            let pos = Position::from_fen(fen).unwrap();
            let (net, lin) = (evaluate(&pos), crate::dobutsu::evaluate(&pos, &linear));
            let y = match value.split(' ').next().unwrap() {
                "win" => Outcome::Win,
                "loss" => Outcome::Loss,
                _ => Outcome::Draw,
            };
            let target = match y {
                Outcome::Win => 1.0,
                Outcome::Draw => 0.5,
                Outcome::Loss => 0.0,
            };
            err_net += (p(net) - target) * (p(net) - target);
            err_linear += (p(lin) - target) * (p(lin) - target);
            n += 1;
            match y {
                Outcome::Win => won.push((net, lin)),
                Outcome::Loss => lost.push((net, lin)),
                Outcome::Draw => {}
            }
        }
        assert_eq!(n, 2000);
        let pairs = won.len().min(lost.len());
        let share = |pick: fn(&(i32, i32)) -> i32| {
            let right: f64 = won
                .iter()
                .zip(&lost)
                .map(|(w, l)| match pick(w).cmp(&pick(l)) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                })
                .sum();
            right / pairs as f64
        };
        let (net, lin) = (share(|x| x.0), share(|x| x.1));
        assert!(pairs > 700, "{pairs} pairs");
        assert!(
            net >= 0.97,
            "network {net:.4}, linear {lin:.4} over {pairs} pairs"
        );
        assert!(lin < 0.95, "linear {lin:.4}");
        assert!(err_net < 0.6 * err_linear, "{err_net} against {err_linear}");
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
