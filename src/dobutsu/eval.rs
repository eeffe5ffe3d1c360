//! Dobutsu Shogi's static evaluation, from the side to move, in hundredths of a Chick: a linear
//! sum of [`FEATURES`] features (pieces by kind and square, pieces in hand, the Lions' safety and
//! Try threats, mobility, and the mover's pieces the enemy attacks), whose weights were fitted
//! to the exact values of the solved game (`examples/tune_dobutsu.rs`, docs/evaluation.md).
//!
//! [`features`] and [`evaluate`] run the same code (`Sink`): the tuner reads the features, the
//! search the weighted sum, so the two cannot disagree.

use crate::dobutsu::{Kind, Player, Position};

/// The number of features (and weights).
pub const FEATURES: usize = 60;

/// The first feature of each group; a group's features follow in the order its doc gives.
pub mod feature {
    /// A piece on the board, by kind (Lion, Giraffe, Elephant, Chick, Hen: `Kind` code − 1) and
    /// cell, 8 cells a kind: `2 × rank + centre` with the rank counted from its owner's home
    /// rank (0-3) and `centre` 1 on the `b` file (the `a` and `c` files are one cell, as the
    /// game is left-right symmetric). The mover's count minus the enemy's.
    pub const BOARD: usize = 0;
    /// Pieces in hand: Giraffe, Elephant, Chick, each as its first and its second copy (holds at
    /// least 1, holds 2). The mover's minus the enemy's.
    pub const HAND: usize = 40;
    /// 1: the side to move.
    pub const TEMPO: usize = 46;
    /// The mover's Lion attacked (1), minus the enemy's.
    pub const LION_ATTACKED: usize = 47;
    /// The mover threatens a Try: its Lion can step to an empty square of the far rank that no
    /// enemy piece attacks.
    pub const TRY: usize = 48;
    /// The enemy would threaten a Try if it were to move: −1 (the mover must stop it).
    pub const ENEMY_TRY: usize = 49;
    /// Squares next to the own Lion that the enemy attacks, the mover's minus the enemy's.
    pub const LION_NET: usize = 50;
    /// Squares the pieces on the board attack that hold none of their own, the mover's minus
    /// the enemy's.
    pub const MOBILITY: usize = 51;
    /// The mover's pieces the enemy attacks, by kind: Giraffe, Elephant, Chick, Hen.
    pub const THREATENED: usize = 52;
    /// Of those, the ones the mover does not defend, by kind as [`THREATENED`].
    pub const HANGING: usize = 56;
}

/// The features' names, in index order (the tuner's report).
pub fn feature_names() -> Vec<String> {
    let mut names = Vec::with_capacity(FEATURES);
    for kind in "LGECH".chars() {
        for cell in 0..8 {
            names.push(format!(
                "{kind}@r{}{}",
                cell / 2 + 1,
                ["edge", "mid"][cell % 2]
            ));
        }
    }
    for kind in "GEC".chars() {
        names.push(format!("hand {kind}1"));
        names.push(format!("hand {kind}2"));
    }
    for name in [
        "tempo",
        "lion attacked",
        "try",
        "enemy try",
        "lion net",
        "mobility",
    ] {
        names.push(name.to_string());
    }
    for group in ["threatened", "hanging"] {
        for kind in "GECH".chars() {
            names.push(format!("{group} {kind}"));
        }
    }
    names
}

/// The evaluation's weights, one per feature ([`feature`]), in hundredths of a Chick, and
/// whether the search evaluates with the network instead ([`crate::dobutsu::net`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The weight of each feature.
    pub table: [i32; FEATURES],
    /// The search evaluates with the built-in network, not with `table` (the `EvalNetwork`
    /// option).
    pub network: bool,
}

/// The fitted weights (`examples/tune_dobutsu.rs fit`, docs/evaluation.md).
const FITTED: [i32; FEATURES] = [
    -85, 3, 30, -6, 125, 30, 45, 45, // Lion
    322, 285, 402, 378, 413, 502, 266, 399, // Giraffe
    288, 289, 422, 380, 364, 332, 320, 222, // Elephant
    166, -35, 150, 113, 109, 142, -107, -99, // Chick
    400, 400, 411, 404, 465, 402, 334, 398, // Hen
    512, 385, 439, 286, 329, 173, // hand: G1 G2 E1 E2 C1 C2
    111, -200, 940, 236, -19, 32, // tempo, lion attacked, try, enemy try, lion net, mobility
    61, -52, -3, -8, // threatened G E C H
    -88, -50, -63, -11, // hanging G E C H
];

impl Default for Weights {
    /// The network, with the fitted weights behind it when it is turned off.
    fn default() -> Self {
        Weights {
            table: FITTED,
            network: true,
        }
    }
}

impl Weights {
    /// The hand-set evaluation the fitted one replaced: Chick 100, Elephant 300, Giraffe and
    /// Hen 400, 40 more in hand, 15 a rank of Lion advance, Lion attacked -200, Try threat 900,
    /// Lion net -20, mobility 20.
    pub fn hand_set() -> Weights {
        let mut table = [0; FEATURES];
        for (k, value) in [0, 400, 300, 100, 400].into_iter().enumerate() {
            for cell in 0..8 {
                let lion_advance = if k == 0 { 15 * (cell / 2) as i32 } else { 0 };
                table[feature::BOARD + 8 * k + cell] = value + lion_advance;
            }
        }
        for (h, value) in [400, 300, 100].into_iter().enumerate() {
            table[feature::HAND + 2 * h] = value + 40;
            table[feature::HAND + 2 * h + 1] = value + 40;
        }
        table[feature::LION_ATTACKED] = -200;
        table[feature::TRY] = 900;
        table[feature::LION_NET] = -20;
        table[feature::MOBILITY] = 20;
        Weights {
            table,
            network: false,
        }
    }

    /// Material only: the hand-set piece values on the board and in hand, every other weight
    /// zero (the baseline the full evaluation is matched against).
    pub fn material_only() -> Weights {
        let mut table = Weights::hand_set().table;
        for cell in 0..8 {
            table[feature::BOARD + cell] = 0;
        }
        for w in &mut table[feature::TEMPO..] {
            *w = 0;
        }
        Weights {
            table,
            network: false,
        }
    }

    /// The fitted linear evaluation, without the network.
    pub fn linear() -> Weights {
        Weights {
            network: false,
            ..Weights::default()
        }
    }

    /// The mobility weight (the `Mobility` option).
    pub fn mobility(&self) -> i32 {
        self.table[feature::MOBILITY]
    }
}

/// Where the features go: the weighted sum ([`evaluate`]) or the feature vector ([`features`]).
trait Sink {
    fn add(&mut self, feature: usize, count: i32);
}

struct Sum<'a> {
    weights: &'a [i32; FEATURES],
    score: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.score += self.weights[feature] * count;
    }
}

impl Sink for [i32; FEATURES] {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self[feature] += count;
    }
}

/// The linear evaluation of `pos` from the side to move: the features weighted by `w` (whatever
/// `w.network` says; [`Weights::network`] is the search's choice, made in `Game::evaluate`).
#[inline]
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let mut sum = Sum {
        weights: &w.table,
        score: 0,
    };
    add_features(pos, &mut sum);
    sum.score
}

/// The features of `pos` from the side to move ([`feature`]): `evaluate(pos, w)` is their dot
/// product with `w.table`.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let mut x = [0; FEATURES];
    add_features(pos, &mut x);
    x
}

/// The cell of each square ([`feature::BOARD`]) seen from each player (by [`Player::index`]).
const CELLS: [[u8; 16]; 2] = {
    let mut cells = [[0; 16]; 2];
    let mut sq = 0;
    while sq < 12 {
        let (rank, centre) = (sq / 3, (sq % 3 == 1) as u8);
        cells[0][sq] = 2 * rank as u8 + centre;
        cells[1][sq] = 2 * (3 - rank) as u8 + centre;
        sq += 1;
    }
    cells
};

/// The cell of square `sq` (0-11) seen from `owner`.
#[inline(always)]
fn cell(sq: u32, owner: Player) -> usize {
    CELLS[owner.index()][sq as usize & 15] as usize
}

#[inline(always)]
fn add_features(pos: &Position, sink: &mut impl Sink) {
    let me = pos.side_to_move();
    let them = me.opponent();
    for (k, kind) in Kind::ALL.into_iter().enumerate() {
        for (owner, sign) in [(me, 1), (them, -1)] {
            let mut bits = pos.pieces(owner, kind);
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                sink.add(feature::BOARD + 8 * k + cell(sq, owner), sign);
            }
        }
    }
    for (h, kind) in Kind::DROPPABLE.into_iter().enumerate() {
        let (mine, theirs) = (pos.in_hand(me, kind), pos.in_hand(them, kind));
        sink.add(
            feature::HAND + 2 * h,
            i32::from(mine >= 1) - i32::from(theirs >= 1),
        );
        sink.add(
            feature::HAND + 2 * h + 1,
            i32::from(mine >= 2) - i32::from(theirs >= 2),
        );
    }
    sink.add(feature::TEMPO, 1);
    let (my_attacks, their_attacks) = (pos.attacks(me), pos.attacks(them));
    let (mine, theirs) = (pos.occupied_by(me), pos.occupied_by(them));
    let reach = |attacks: u16, own: u16| (attacks & !own).count_ones() as i32;
    sink.add(
        feature::MOBILITY,
        reach(my_attacks, mine) - reach(their_attacks, theirs),
    );
    lion_features(pos, me, their_attacks, mine, 1, sink);
    lion_features(pos, them, my_attacks, theirs, -1, sink);
    for (t, kind) in [Kind::Giraffe, Kind::Elephant, Kind::Chick, Kind::Hen]
        .into_iter()
        .enumerate()
    {
        let attacked = pos.pieces(me, kind) & their_attacks;
        if attacked != 0 {
            sink.add(feature::THREATENED + t, attacked.count_ones() as i32);
            sink.add(
                feature::HANGING + t,
                (attacked & !my_attacks).count_ones() as i32,
            );
        }
    }
}

/// The Lion features of `owner` (whose pieces stand on `own` and whose enemy attacks
/// `enemy_attacks`), added with `sign` (1 for the side to move).
#[inline(always)]
fn lion_features(
    pos: &Position,
    owner: Player,
    enemy_attacks: u16,
    own: u16,
    sign: i32,
    sink: &mut impl Sink,
) {
    let Some(lion) = pos.lion(owner) else {
        return;
    };
    if enemy_attacks >> lion.index() & 1 != 0 {
        sink.add(feature::LION_ATTACKED, sign);
    }
    let steps = Position::lion_steps(lion);
    sink.add(
        feature::LION_NET,
        sign * (steps & enemy_attacks).count_ones() as i32,
    );
    let far: u16 = 0b111 << (3 * owner.opponent().home_rank());
    if steps & far & !enemy_attacks & !own != 0 {
        sink.add(
            if sign == 1 {
                feature::TRY
            } else {
                feature::ENEMY_TRY
            },
            sign,
        );
    }
}
