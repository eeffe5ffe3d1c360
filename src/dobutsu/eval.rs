//! Dobutsu Shogi's static evaluation: material on the board and in hand, the Lions' safety and
//! advance, and Try threats, from the side to move, in centipawn-like units.

use crate::dobutsu::{Kind, Player, Position, Square};

/// The evaluation's weights, in hundredths of a Chick on the board. The defaults are the values
/// self-play matches kept (see the module's tests and the commit log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A Chick on the board.
    pub chick: i32,
    /// A Hen on the board.
    pub hen: i32,
    /// An Elephant on the board.
    pub elephant: i32,
    /// A Giraffe on the board.
    pub giraffe: i32,
    /// Added to a piece's value while it is in hand (a drop goes anywhere).
    pub in_hand: i32,
    /// Per rank the Lion has advanced from its home rank.
    pub lion_advance: i32,
    /// The Lion of the side to move stands attacked (it must move or be defended).
    pub lion_attacked: i32,
    /// A Try threat: the Lion can step to an empty or enemy square of the far rank that no enemy
    /// piece attacks (the game is won if nothing changes).
    pub try_threat: i32,
    /// Per square next to the own Lion that the enemy attacks.
    pub lion_net: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            chick: 100,
            hen: 400,
            elephant: 300,
            giraffe: 400,
            in_hand: 40,
            lion_advance: 15,
            lion_attacked: -200,
            try_threat: 900,
            lion_net: -20,
        }
    }
}

impl Weights {
    /// Material only: the piece values, every other term zero (the baseline the full evaluation
    /// is matched against).
    pub fn material_only() -> Weights {
        Weights {
            lion_advance: 0,
            lion_attacked: 0,
            try_threat: 0,
            lion_net: 0,
            ..Weights::default()
        }
    }

    fn value(&self, kind: Kind) -> i32 {
        match kind {
            Kind::Chick => self.chick,
            Kind::Hen => self.hen,
            Kind::Elephant => self.elephant,
            Kind::Giraffe => self.giraffe,
            Kind::Lion => 0,
        }
    }
}

/// The evaluation of `pos` from the side to move: the mover's terms minus the opponent's.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let me = pos.side_to_move();
    let mut score = 0;
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let v = w.value(p.kind);
            score += if p.owner == me { v } else { -v };
        }
    }
    for kind in [Kind::Giraffe, Kind::Elephant, Kind::Chick] {
        let v = w.value(kind) + w.in_hand;
        score += v * (pos.in_hand(me, kind) as i32 - pos.in_hand(me.opponent(), kind) as i32);
    }
    score + lion_terms(pos, me, w, true) - lion_terms(pos, me.opponent(), w, false)
}

/// The Lion terms of `owner` (`to_move` when it is the side to move).
fn lion_terms(pos: &Position, owner: Player, w: &Weights, to_move: bool) -> i32 {
    let Some(lion) = pos.lion(owner) else {
        return 0;
    };
    let enemy = owner.opponent();
    let far = enemy.home_rank();
    let advance = (lion.rank() as i32 - owner.home_rank() as i32).abs();
    let mut score = w.lion_advance * advance;
    if pos.is_attacked(lion, enemy) {
        score += w.lion_attacked;
    }
    let mut net = 0;
    let mut try_open = false;
    for sq in neighbours(lion) {
        let attacked = pos.is_attacked(sq, enemy);
        net += i32::from(attacked);
        let free = pos.piece_at(sq).is_none_or(|p| p.owner == enemy);
        if to_move && sq.rank() == far && free && !attacked {
            try_open = true;
        }
    }
    score += w.lion_net * net;
    if try_open {
        score += w.try_threat;
    }
    score
}

/// The squares a Lion on `sq` reaches.
fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    let (f, r) = (sq.file() as i8, sq.rank() as i8);
    (-1..=1i8)
        .flat_map(move |df| (-1..=1i8).map(move |dr| (df, dr)))
        .filter(|&d| d != (0, 0))
        .filter_map(move |(df, dr)| {
            let (nf, nr) = (f + df, r + dr);
            (nf >= 0 && nr >= 0)
                .then(|| Square::new(nf as u8, nr as u8))
                .flatten()
        })
}
