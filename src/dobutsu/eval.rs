//! Dobutsu Shogi's static evaluation: material on the board and in hand, the Lions' safety and
//! advance, and Try threats, from the side to move, in centipawn-like units.

use crate::dobutsu::{Kind, Player, Position};

/// The evaluation's weights, in hundredths of a Chick on the board. The piece values and Lion terms
/// were set by hand; the mobility weight was chosen by self-play matches (docs/evaluation.md has
/// them, with the command).
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
    /// Per square the pieces on the board attack that does not hold one of their own (mobility).
    pub mobility: i32,
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
            mobility: 20,
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
            mobility: 0,
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
    let them = me.opponent();
    let mut score = 0;
    for kind in [Kind::Giraffe, Kind::Elephant, Kind::Chick, Kind::Hen] {
        let on_board =
            pos.pieces(me, kind).count_ones() as i32 - pos.pieces(them, kind).count_ones() as i32;
        score += w.value(kind) * on_board;
        if kind != Kind::Hen {
            let in_hand = pos.in_hand(me, kind) as i32 - pos.in_hand(them, kind) as i32;
            score += (w.value(kind) + w.in_hand) * in_hand;
        }
    }
    let (my_attacks, their_attacks) = (pos.attacks(me), pos.attacks(them));
    if w.mobility != 0 {
        let reach = |attacks: u16, owner| (attacks & !pos.occupied_by(owner)).count_ones() as i32;
        score += w.mobility * (reach(my_attacks, me) - reach(their_attacks, them));
    }
    score + lion_terms(pos, me, their_attacks, w, true)
        - lion_terms(pos, them, my_attacks, w, false)
}

/// The Lion terms of `owner`, whose enemy attacks `enemy_attacks` (`to_move` when `owner` is the
/// side to move).
fn lion_terms(
    pos: &Position,
    owner: Player,
    enemy_attacks: u16,
    w: &Weights,
    to_move: bool,
) -> i32 {
    let Some(lion) = pos.lion(owner) else {
        return 0;
    };
    let advance = (lion.rank() as i32 - owner.home_rank() as i32).abs();
    let mut score = w.lion_advance * advance;
    if enemy_attacks >> lion.index() & 1 != 0 {
        score += w.lion_attacked;
    }
    let steps = Position::lion_steps(lion);
    score += w.lion_net * (steps & enemy_attacks).count_ones() as i32;
    if to_move {
        let far: u16 = 0b111 << (3 * owner.opponent().home_rank());
        if steps & far & !enemy_attacks & !pos.occupied_by(owner) != 0 {
            score += w.try_threat;
        }
    }
    score
}
