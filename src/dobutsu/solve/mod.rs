//! Dobutsu Shogi strongly solved: every position reachable from the start, classified by
//! retrograde analysis as a win, loss or draw for the side to move, with the number of plies to
//! the end under perfect play (the winner ends fastest, the loser lasts longest).
//!
//! The state definition is Tanaka's (see [`Position::outcome`]): positions are normalised so that
//! Sente moves ([`Position::normalized`]); a position the rules decide at the start of the turn
//! (the mover can capture the enemy Lion, or has lost to a Try, or has no move) is counted but not
//! expanded. Left-right mirror images are merged into one entry; the figures are given both ways
//! ([`Figures::merged`], [`Figures::unmerged`]); Tanaka's published counts (246,803,167
//! positions, ...) are the merged ones: this analysis reproduces all of them exactly.
//!
//! Rooms: [`index`] numbers the positions densely, [`enumerate`] is the forward pass,
//! [`retro`] the backward pass, [`file`](mod@file) the result file; [`Solution`] answers probes.
//! Passes report through a [`Progress`]; nothing here prints.

pub mod enumerate;
pub mod file;
pub mod index;
pub mod rank;
pub mod retro;

use std::fmt;

use rayon::prelude::*;

use crate::dobutsu::{Move, Position};
use crate::game::Outcome;
use crate::retro::{Buffer, Progress, Storage};
use enumerate::Census;
use index::Index;
use rank::Rank;

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// Win, loss or draw.
    pub outcome: Outcome,
    /// Plies to the end under perfect play (0 for a draw).
    pub plies: u8,
}

impl Value {
    /// The value of a byte of the table (0 a draw, odd a win, even a loss).
    fn from_byte(b: u8) -> Value {
        let outcome = match b {
            0 => Outcome::Draw,
            b if b % 2 == 1 => Outcome::Win,
            _ => Outcome::Loss,
        };
        Value { outcome, plies: b }
    }

    /// The value of the position before a move into a position of this value.
    pub fn before_move(self) -> Value {
        match self.outcome {
            Outcome::Draw => self,
            Outcome::Win => Value {
                outcome: Outcome::Loss,
                plies: self.plies + 1,
            },
            Outcome::Loss => Value {
                outcome: Outcome::Win,
                plies: self.plies + 1,
            },
        }
    }

    /// An order of preference for the mover: larger is better (fast wins, then draws, then
    /// slow losses).
    pub fn preference(self) -> i32 {
        match self.outcome {
            Outcome::Win => 1000 - self.plies as i32,
            Outcome::Draw => 0,
            Outcome::Loss => -1000 + self.plies as i32,
        }
    }
}

impl fmt::Display for Value {
    /// `win in 5`, `loss in 78`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome {
            Outcome::Win => write!(f, "win in {}", self.plies),
            Outcome::Loss => write!(f, "loss in {}", self.plies),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// A solved piece set: the undecided reachable positions and their values. Built by
/// [`analyse`] or loaded by [`file::load`]; probed with [`Solution::probe`].
///
/// Its storage has two sections: the bitset of the positions stored over the [`Index`]
/// (little-endian 64-bit words), and one value byte per set bit in index order.
pub struct Solution {
    index: Index,
    storage: Storage,
    rank: Rank,
    words: usize,
}

impl Solution {
    fn new(index: Index, storage: Storage) -> Solution {
        let words = storage.section(0).len() / 8;
        let mut s = Solution {
            index,
            storage,
            rank: Rank::new(0, |_| 0),
            words,
        };
        s.rank = Rank::new(words, |w| s.word(w));
        s
    }

    #[inline]
    fn word(&self, w: usize) -> u64 {
        let bits = self.storage.section(0);
        u64::from_le_bytes(bits[8 * w..8 * w + 8].try_into().expect("8 bytes"))
    }

    #[inline]
    fn byte(&self, r: usize) -> u8 {
        self.storage.section(1)[r]
    }

    /// The piece set's index.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The number of undecided reachable positions stored (mirror images merged).
    pub fn len(&self) -> u64 {
        self.rank.count()
    }

    /// Whether no position is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of any position (either side to move, either mirror image): decided positions
    /// by the rules, the others from the table; `None` for a position the start cannot reach
    /// (or with another piece set).
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if let Some((outcome, plies)) = retro::decided_distance(pos) {
            return Some(Value { outcome, plies });
        }
        let i = self.index.index_of(pos)?;
        let w = (i / 64) as usize;
        if w >= self.words {
            return None;
        }
        let word = self.word(w);
        if word >> (i % 64) & 1 == 0 {
            return None;
        }
        Some(Value::from_byte(
            self.byte(self.rank.rank(word, i) as usize),
        ))
    }

    /// Every legal move ([`Position::legal_moves`]) with the value it leads to, from the
    /// mover's view (`None` where the table does not know the position after it).
    pub fn move_values(&self, pos: &Position) -> Vec<(Move, Option<Value>)> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| (mv, self.probe(&pos.play(mv).0).map(Value::before_move)))
            .collect()
    }

    /// A best move: the fastest win, else a draw, else the slowest loss; the first such move in
    /// [`Position::legal_moves`] order. `None` when there is no move or the table knows none of
    /// the positions after the moves.
    pub fn best_move(&self, pos: &Position) -> Option<(Move, Value)> {
        let mut best: Option<(Move, Value)> = None;
        for (mv, v) in self.move_values(pos) {
            if let Some(v) = v {
                if best.is_none_or(|(_, b)| v.preference() > b.preference()) {
                    best = Some((mv, v));
                }
            }
        }
        best
    }

    /// Counts of the stored positions by value: `(wins, draws, losses)` and per distance,
    /// mirror images merged and (second) counted apart.
    pub fn value_counts(&self) -> (ValueCounts, ValueCounts) {
        (0..self.words.div_ceil(1024))
            .into_par_iter()
            .map(|chunk| {
                let mut merged = ValueCounts::default();
                let mut unmerged = ValueCounts::default();
                let w0 = chunk * 1024;
                let mut r = self.rank.before_word(w0) as usize;
                for w in w0..(w0 + 1024).min(self.words) {
                    let mut word = self.word(w);
                    while word != 0 {
                        let b = word.trailing_zeros() as u64;
                        word &= word - 1;
                        let i = w as u64 * 64 + b;
                        let weight = if self.index.may_be_symmetric(i) {
                            let p = self.index.placement(i);
                            if p.mirrored() == p {
                                1
                            } else {
                                2
                            }
                        } else {
                            2
                        };
                        let v = self.byte(r);
                        merged.add(v, 1);
                        unmerged.add(v, weight);
                        r += 1;
                    }
                }
                (merged, unmerged)
            })
            .reduce(
                || (ValueCounts::default(), ValueCounts::default()),
                |a, b| (a.0.merge(&b.0), a.1.merge(&b.1)),
            )
    }
}

/// The search probes the solution for the exact value of every position of a real game: the
/// table's distances are plies of the game as played (a Lion capture available counts its ply).
impl crate::game::Oracle<Position> for Solution {
    #[inline]
    fn probe(&self, pos: &Position) -> Option<(Outcome, u32)> {
        Solution::probe(self, pos).map(|v| (v.outcome, u32::from(v.plies)))
    }

    fn check_files(&self) -> Result<(), crate::retro::file::TableError> {
        self.storage.check_length()
    }
}

/// Counts of positions per table byte (0 draw, odd wins, even losses, by distance).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueCounts {
    /// `by_byte[b]`: positions with byte `b`.
    pub by_byte: Vec<u64>,
}

impl Default for ValueCounts {
    fn default() -> ValueCounts {
        ValueCounts {
            by_byte: vec![0; 256],
        }
    }
}

impl ValueCounts {
    fn add(&mut self, b: u8, n: u64) {
        self.by_byte[b as usize] += n;
    }
    fn merge(mut self, o: &ValueCounts) -> ValueCounts {
        for (a, b) in self.by_byte.iter_mut().zip(&o.by_byte) {
            *a += b;
        }
        self
    }
    /// Positions won by the side to move.
    pub fn wins(&self) -> u64 {
        self.by_byte.iter().skip(1).step_by(2).sum()
    }
    /// Drawn positions.
    pub fn draws(&self) -> u64 {
        self.by_byte[0]
    }
    /// Positions lost by the side to move.
    pub fn losses(&self) -> u64 {
        self.by_byte.iter().skip(2).step_by(2).sum()
    }
    /// The longest distance.
    pub fn max_distance(&self) -> u8 {
        (1..256).rev().find(|&b| self.by_byte[b] != 0).unwrap_or(0) as u8
    }
}

/// What the analysis found, to compare with Tanaka's figures.
#[derive(Clone, Debug)]
pub struct Figures {
    /// The forward pass's counts, mirror images merged.
    pub merged: Census,
    /// The same, mirror images counted apart.
    pub unmerged: Census,
    /// Undecided positions by value, merged.
    pub values_merged: ValueCounts,
    /// Undecided positions by value, counted apart.
    pub values_unmerged: ValueCounts,
    /// The value of the start position.
    pub start: Value,
    /// Sweeps of the forward pass.
    pub sweeps: u32,
}

/// Enumerates the positions reachable from `start` and solves them. `start` sets the piece set
/// (any start with at most two Giraffes, Elephants and Chicks over both sides and both Lions).
///
/// # Panics
/// If `start` is decided by the rules or has a captured Lion.
pub fn analyse(start: &Position, progress: &dyn Progress) -> (Solution, Figures) {
    let index = Index::new(piece_totals(start));
    let reachable = enumerate::enumerate(&index, start, progress);
    let bits = reachable.undecided;
    let rank = Rank::new(bits.len(), |w| bits[w]);
    let values = retro::solve(&index, &bits, &rank, progress).values;
    let solution = Solution {
        index,
        words: bits.len(),
        storage: Storage::owned(vec![Buffer::from_words(bits), Buffer::from(values)]),
        rank,
    };
    let (values_merged, values_unmerged) = solution.value_counts();
    let start = solution.probe(start).expect("the start is reachable");
    let figures = Figures {
        merged: reachable.merged,
        unmerged: reachable.unmerged,
        values_merged,
        values_unmerged,
        start,
        sweeps: reachable.sweeps,
    };
    (solution, figures)
}

/// The Giraffes, Elephants and Chicks (with Hens) of a position, over both sides and hands.
pub fn piece_totals(pos: &Position) -> [u8; 3] {
    use crate::dobutsu::{Kind, Player};
    let mut t = [0u8; 3];
    for p in Player::BOTH {
        for (k, kind) in [Kind::Giraffe, Kind::Elephant, Kind::Chick]
            .iter()
            .enumerate()
        {
            t[k] += pos.pieces(p, *kind).count_ones() as u8 + pos.in_hand(p, *kind);
        }
        t[2] += pos.pieces(p, Kind::Hen).count_ones() as u8;
    }
    t
}
