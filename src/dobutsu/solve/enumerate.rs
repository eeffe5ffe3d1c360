//! The forward pass: every position reachable from a start position, by sweeps over a bitset.
//!
//! A position is *seen* once some expanded position has a move to it (or it is the start), and
//! *expanded* (its moves generated) once. Each sweep expands every seen position not yet
//! expanded, in index order, both cores taking chunks of the bitset; positions seen during a
//! sweep are expanded in the same sweep if their word comes later, else in the next. The pass
//! ends with a sweep that finds nothing to expand. Positions decided by
//! [`Position::outcome`] are counted and marked, not expanded.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{Decoder, Index, Placement};
use crate::dobutsu::{Kind, Player, Position};
use crate::game::Outcome;
use crate::retro::{prefetch, Phase, Progress};

/// Words of the bitset per unit of parallel work.
const CHUNK_WORDS: usize = 512;

/// Counts of reachable positions by how [`Position::outcome`] classifies them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Decided: the mover can capture the enemy Lion.
    pub lion_captures: u64,
    /// Decided: the enemy Lion stands on the mover's home rank and cannot be captured (a Try).
    pub try_losses: u64,
    /// Decided: the mover's Lion stands unattacked on the enemy home rank (never reached from
    /// the start; counted to show it).
    pub try_wins: u64,
    /// Decided: the mover has no legal move.
    pub no_moves: u64,
    /// Not decided by the rules: the retrograde analysis classifies them.
    pub undecided: u64,
}

impl Census {
    /// All positions counted.
    pub fn total(&self) -> u64 {
        self.lion_captures + self.try_losses + self.try_wins + self.no_moves + self.undecided
    }

    fn add(self, o: Census) -> Census {
        Census {
            lion_captures: self.lion_captures + o.lion_captures,
            try_losses: self.try_losses + o.try_losses,
            try_wins: self.try_wins + o.try_wins,
            no_moves: self.no_moves + o.no_moves,
            undecided: self.undecided + o.undecided,
        }
    }

    fn count(&mut self, pos: &Position, outcome: Option<Outcome>, weight: u64) {
        let field = match outcome {
            None => &mut self.undecided,
            Some(Outcome::Win) => {
                let lion = pos.lion(Player::Gote).expect("both Lions on the board");
                if pos.is_attacked(lion, Player::Sente) {
                    &mut self.lion_captures
                } else {
                    &mut self.try_wins
                }
            }
            Some(_) => {
                if pos.pieces(Player::Gote, Kind::Lion) & 0x007 != 0 {
                    &mut self.try_losses
                } else {
                    &mut self.no_moves
                }
            }
        };
        *field += weight;
    }
}

/// The reachable set: the undecided positions as a bitset over the index (the first
/// [`Index::solvable_len`] indices), and the census, with mirror images merged and without.
pub struct Reachable {
    /// Bit `i` of word `i / 64` is set when index `i` is reachable and undecided.
    pub undecided: Vec<u64>,
    /// Counts with each pair of mirror images counted once.
    pub merged: Census,
    /// Counts with mirror images counted apart (a position that is its own mirror image once).
    pub unmerged: Census,
    /// How many sweeps the pass took.
    pub sweeps: u32,
}

/// Runs the forward pass from `start` (any side to move; the piece set must be `index`'s).
///
/// # Panics
/// If `start` does not fit the index (a captured Lion, another piece set).
pub fn enumerate(index: &Index, start: &Position, progress: &dyn Progress) -> Reachable {
    let words = index.len().div_ceil(64) as usize;
    let seen: Vec<AtomicU64> = (0..words)
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();
    let mut expanded = vec![0u64; words];
    let mut decided = vec![0u64; words];
    let first = index.index_of(start).expect("the start fits the index");
    seen[(first / 64) as usize].fetch_or(1 << (first % 64), Relaxed);
    progress.start(None, Phase::Enumerate, None);
    let mut merged = Census::default();
    let mut unmerged = Census::default();
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let (m, u) = expanded
            .par_chunks_mut(CHUNK_WORDS)
            .zip(decided.par_chunks_mut(CHUNK_WORDS))
            .enumerate()
            .map(|(chunk, (exp, dec))| {
                let mut moves = Vec::with_capacity(80);
                let mut children = Vec::with_capacity(80);
                let mut decoder = Decoder::new(index);
                let mut m = Census::default();
                let mut u = Census::default();
                for j in 0..exp.len() {
                    let w = chunk * CHUNK_WORDS + j;
                    loop {
                        let fresh = seen[w].load(Relaxed) & !exp[j];
                        if fresh == 0 {
                            break;
                        }
                        exp[j] |= fresh;
                        let mut bits = fresh;
                        while bits != 0 {
                            let b = bits.trailing_zeros();
                            bits &= bits - 1;
                            let i = w as u64 * 64 + b as u64;
                            let p = decoder.placement(i);
                            let pos = p.position();
                            let outcome = pos.outcome();
                            m.count(&pos, outcome, 1);
                            let weight = if p.mirrored() == p { 1 } else { 2 };
                            u.count(&pos, outcome, weight);
                            if outcome.is_some() {
                                dec[j] |= 1 << b;
                                continue;
                            }
                            moves.clear();
                            pos.legal_moves(&mut moves);
                            // All children's indices first, prefetching their words, so
                            // that the cache misses overlap.
                            children.clear();
                            for &mv in &moves {
                                let child = pos.play(mv).0.flipped();
                                let c = index.index(&Placement::from_key(child.key()));
                                prefetch(&seen[(c / 64) as usize]);
                                children.push(c);
                            }
                            for &c in &children {
                                let (cw, cb) = ((c / 64) as usize, 1u64 << (c % 64));
                                if seen[cw].load(Relaxed) & cb == 0 {
                                    seen[cw].fetch_or(cb, Relaxed);
                                }
                            }
                        }
                    }
                }
                progress.advance(m.total());
                (m, u)
            })
            .reduce(
                || (Census::default(), Census::default()),
                |a, b| (a.0.add(b.0), a.1.add(b.1)),
            );
        merged = merged.add(m);
        unmerged = unmerged.add(u);
        if m.total() == 0 {
            break;
        }
    }
    progress.finish();
    drop(seen);
    let solvable_words = index.solvable_len().div_ceil(64) as usize;
    let mut undecided = expanded;
    undecided.truncate(solvable_words);
    undecided
        .par_iter_mut()
        .zip(decided.par_iter())
        .for_each(|(u, d)| *u &= !d);
    Reachable {
        undecided,
        merged,
        unmerged,
        sweeps,
    }
}
