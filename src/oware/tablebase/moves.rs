//! The moves pass of a layer's build: every position's legal moves played once, the captures
//! looked up in the solved layers below, and what they give (the best exits, the moves that stay
//! in the layer, the best exit's distance) kept in the position's state word.

use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::passes::LayerBuild;
use super::reachable::{self, next, unrank};
use super::state::{
    dec, distance_after, enc, CHUNK, COUNT_SHIFT, EXIT_DISTANCE_SHIFT, INSIDE_SHIFT, NO_DISTANCE,
};
use crate::oware::{Board, Move, RuleSet};
use crate::retro::{prefetch, Progress};

/// A solved layer as the build reads it: the lower bounds and the upper bounds, one value byte
/// (an `i8`) per position (the same slice twice where every value is exact), and the distances
/// (one byte per position, [`super::distance`]).
#[derive(Clone, Copy)]
pub(super) struct LayerRef<'a> {
    pub low: &'a [u8],
    pub high: &'a [u8],
    pub dist: &'a [u8],
}

/// A position's moves, played: the end of the game's value if it has no legal move, else the
/// moves that stay in the layer and the captures into the layers of a sweep (seeds captured,
/// child's rank in the layer of `n` less those seeds).
pub(super) struct Moves {
    pub end: Option<i32>,
    pub inside: u8,
    pub captures: [(u8, u64); 6],
    pub count: usize,
}

/// Plays every legal move of a position (`n` seeds) once, keeping the captures whose child is
/// in a layer of `sweep` (the others are not ranked).
#[inline]
pub(super) fn play_moves(houses: u128, n: u32, variant: RuleSet, sweep: &Range<u32>) -> Moves {
    let board = Board::from_relative_houses(houses, variant);
    let h = houses.to_le_bytes();
    let mut children = [(0u128, 0u8); 6];
    let mut mask = 0u8;
    if variant == RuleSet::Awari {
        // Each move played once: the child, its capture, and whether the opponent keeps seeds.
        let mut sown = 0u8;
        for k in 0..6 {
            if h[k] == 0 {
                continue;
            }
            sown |= 1 << k;
            let (child, captured) = board.sow_and_capture(Move::from_house(k));
            let child = child.relative_houses();
            children[k] = (child, captured);
            // After the move the opponent's row comes first.
            if child as u64 & 0xFFFF_FFFF_FFFF != 0 {
                mask |= 1 << k;
            }
        }
        // A move that starves the opponent is legal only when every move does.
        if mask == 0 {
            mask = sown;
        }
    } else {
        mask = board.legal_mask();
        for (k, c) in children.iter_mut().enumerate() {
            if mask & (1 << k) != 0 {
                let (child, captured) = board.sow_and_capture(Move::from_house(k));
                *c = (child.relative_houses(), captured);
            }
        }
    }
    let mut moves = Moves {
        end: None,
        inside: 0,
        captures: [(0, 0); 6],
        count: 0,
    };
    if mask == 0 {
        // The game is over: each player takes the seeds of their own row.
        let mine: i32 = h[..6].iter().map(|&s| s as i32).sum();
        moves.end = Some(2 * mine - n as i32);
        return moves;
    }
    for (k, &(child, captured)) in children.iter().enumerate() {
        if mask & (1 << k) == 0 {
            continue;
        }
        if captured == 0 {
            moves.inside += 1;
        } else if sweep.contains(&(n - captured as u32)) {
            let i = reachable::rank(child)
                .expect("a position after a move has an empty house in the row sown from");
            moves.captures[moves.count] = (captured, i);
            moves.count += 1;
        }
    }
    moves
}

/// What a position's moves give: its best exit for the lower bound and for the upper bound
/// (the mover's value by a capture, or the end of the game), the number of moves that stay in
/// the layer, and the distance of the best exit for the lower bound (see [`exit_distance`]).
/// Positions without an exit get `-n` for both (the least a mover can get).
#[inline]
fn exits(moves: &Moves, n: u32, lower: &[LayerRef<'_>]) -> (i32, i32, u8, u8) {
    exits_by(moves, n, |k| {
        let (captured, i) = moves.captures[k];
        let layer = &lower[(n - captured as u32) as usize];
        let i = i as usize;
        (layer.low[i], layer.high[i], layer.dist[i])
    })
}

/// [`exits`] with the child of capture `k` (of `moves.captures`) given by `child(k)`: its lower
/// bound, upper bound and distance bytes.
#[inline]
pub(super) fn exits_by(
    moves: &Moves,
    n: u32,
    child: impl Fn(usize) -> (u8, u8, u8),
) -> (i32, i32, u8, u8) {
    if let Some(v) = moves.end {
        return (v, v, 0, 0);
    }
    let (mut exit_low, mut exit_high) = (-(n as i32), -(n as i32));
    for (k, &(captured, _)) in moves.captures[..moves.count].iter().enumerate() {
        let (low, high, _) = child(k);
        let c = captured as i32;
        exit_low = exit_low.max(c - high as i8 as i32);
        exit_high = exit_high.max(c - low as i8 as i32);
    }
    let d = exit_distance(moves, &child, exit_low);
    (exit_low, exit_high, moves.inside, d)
}

/// The best exit for the lower bound and its distance ([`exit_distance`]) over the captures of
/// two sweeps, from each sweep's own (`-n` and 0 for a sweep without a capture, below any
/// capture's value): the better value, and for equal values the distance over both sweeps'
/// captures, as [`exit_distance`] combines them.
#[inline]
fn merge_exits(a: (i32, u8), b: (i32, u8)) -> (i32, u8) {
    match a.0.cmp(&b.0) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => match a.0.cmp(&0) {
            std::cmp::Ordering::Greater => (a.0, a.1.min(b.1)),
            std::cmp::Ordering::Less => (a.0, a.1.max(b.1)),
            std::cmp::Ordering::Equal => (0, NO_DISTANCE),
        },
    }
}

/// The distance to the end by the captures whose value for the mover (the seeds captured minus
/// the child's upper bound) is `value`, the best exit for the lower bound: the least `1 + d`
/// over them when `value` is positive (the side ahead hurries, [`NO_DISTANCE`] without
/// one), the most when it is negative (the side behind delays, 0 without one), and
/// [`NO_DISTANCE`] when `value` is 0 or a capture needed has no distance. When a position's
/// exact value is its best exit, these are the captures that keep it; else none does. Called
/// for positions with a legal move ([`exits`] gives 0 to those without).
#[inline]
fn exit_distance(moves: &Moves, child: &impl Fn(usize) -> (u8, u8, u8), value: i32) -> u8 {
    if value == 0 {
        return NO_DISTANCE;
    }
    let mut d = if value > 0 { NO_DISTANCE } else { 0 };
    for (k, &(captured, _)) in moves.captures[..moves.count].iter().enumerate() {
        let (_, high, dist) = child(k);
        if captured as i32 - high as i8 as i32 != value {
            continue;
        }
        let e = distance_after(dist);
        d = if value > 0 { d.min(e) } else { d.max(e) };
    }
    d
}

/// Asks the processor for the bytes a position's captures will read.
#[inline]
fn prefetch_exits(moves: &Moves, n: u32, lower: &[LayerRef<'_>]) {
    for &(captured, i) in &moves.captures[..moves.count] {
        let layer = &lower[(n - captured as u32) as usize];
        prefetch(&layer.low[i as usize]);
        prefetch(&layer.high[i as usize]);
        prefetch(&layer.dist[i as usize]);
    }
}

impl LayerBuild<'_> {
    /// A sweep of the moves pass: every position's moves played once, its best exits by the
    /// captures into the layers of `sweep` stored in its state word (with the number of its
    /// moves that stay in the layer and the exit's distance), merged with the earlier sweeps'
    /// unless `first`.
    pub(super) fn moves_pass(
        &self,
        lower: &[LayerRef<'_>],
        sweep: &Range<u32>,
        first: bool,
        progress: &dyn Progress,
    ) {
        let (n, variant) = (self.n, self.variant);
        self.chunks().for_each(|c| {
            let (start, end) = self.chunk(c);
            let mut h = unrank(start, n);
            // Batches of positions: their moves played and their lookups asked for first, so
            // that the reads of the smaller layers overlap.
            const BATCH: usize = 16;
            let mut batch: Vec<Moves> = Vec::with_capacity(BATCH);
            let mut i = start as usize;
            while i < end as usize {
                batch.clear();
                let take = BATCH.min(end as usize - i);
                for _ in 0..take {
                    let moves = play_moves(h, n, variant, sweep);
                    prefetch_exits(&moves, n, lower);
                    batch.push(moves);
                    next(&mut h);
                }
                for moves in &batch {
                    let (mut el, mut eh, inside, mut d) = exits(moves, n, lower);
                    if !first {
                        if moves.end.is_some() {
                            // The first sweep gave the end of the game.
                            i += 1;
                            continue;
                        }
                        let s = self.state[i].load(Relaxed);
                        let before = (dec(s as u8), (s >> EXIT_DISTANCE_SHIFT) as u8);
                        (el, d) = merge_exits(before, (el, d));
                        eh = eh.max(dec((s >> self.hs) as u8));
                    }
                    self.state[i].store(self.word(el, eh, inside, d), Relaxed);
                    i += 1;
                }
            }
            progress.advance(end - start);
        });
    }

    /// The state word after the moves pass of a position with best exits `low` and `high`,
    /// `inside` moves that stay in the layer, and `d` the distance of its best exit for the
    /// lower bound.
    #[inline]
    pub(super) fn word(&self, low: i32, high: i32, inside: u8, d: u8) -> u32 {
        enc(low) as u32
            | (enc(high) as u32) << self.hs
            | (inside as u32) << COUNT_SHIFT
            | (inside as u32) << INSIDE_SHIFT
            | (d as u32) << EXIT_DISTANCE_SHIFT
    }

    /// Copies the state words' byte at `shift` (a best exit, after the moves pass) into `exits`,
    /// one byte per position (`exits` may be longer than the layer).
    pub(super) fn copy_exits(&self, exits: &mut [u8], shift: u32) {
        let len = self.len as usize;
        exits[..len]
            .par_chunks_mut(CHUNK as usize)
            .zip(self.state.par_chunks(CHUNK as usize))
            .for_each(|(bytes, words)| {
                for (b, w) in bytes.iter_mut().zip(words) {
                    *b = (w.load(Relaxed) >> shift) as u8;
                }
            });
    }
}
