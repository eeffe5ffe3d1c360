//! The distances of one layer, by retrograde analysis once its values are known: for every
//! position whose value is exact, the plies to the end of the game (no legal move for the side
//! to move: the seeds left go to their rows) when both sides keep the value, the side ahead on
//! the board (a positive value) ending it as soon as it can and the other lasting as long as it
//! can; see [`super::Tablebase::distance`]. A move keeps the value when its value for the mover
//! (the seeds it captures minus the child's upper bound) is the position's; such a move leads to
//! a position valued exactly.
//!
//! Distances are levels of a breadth-first search backwards. A capture leaves the layer for a
//! smaller one whose distances are known, so the moves pass gives each position its best exit:
//! the least `1 + d` over the captures that keep the value (the side ahead), or the most (the
//! side behind, which also counts the moves that keep the value and stay in the layer). Then
//! level `L` resolves the positions due at `L`, and un-sowing from them makes their
//! predecessors due at `L + 1` (the side ahead) or, once its last such move is resolved, at
//! `max(exit, L + 1)` (the side behind).
//!
//! [`NONE`] marks a position without a distance: a bound that is not exact, a value of 0 before
//! the end (no side is ahead, so neither is bound to end the game), a side ahead whose every
//! move that keeps the value leads to such a position, a side behind with one such move, and a
//! distance beyond 254 plies.

use std::sync::atomic::{AtomicU32, AtomicU8, AtomicUsize, Ordering::Relaxed};

use rayon::prelude::*;

use super::build::{atomics, find_bytes, predecessors, LayerRef, CHUNK};
use super::index::{houses, word};
use super::reachable::{self, next, unrank};
use crate::oware::{Board, Move, Variant};
use crate::retro::{Buffer, Phase, Progress};

/// The distance byte of a position without a distance.
pub const NONE: u8 = 255;

/// In a position's scratch word (the side behind): its moves that keep the value, stay in the
/// layer and lead to a position not resolved yet (bits 0-7), and its best exit (bits 8-15,
/// [`NONE`] when an exit has no distance).
const EXIT_SHIFT: u32 = 8;

/// `1 + d` for a child at distance `d`, [`NONE`] when it has none or the sum does not fit.
#[inline]
fn after(d: u8) -> u8 {
    if d >= NONE - 1 {
        NONE
    } else {
        d + 1
    }
}

/// The distances of the layer of `n` seeds (`len` positions): `low` and `high` are its bounds
/// (the same slice where every value is exact), `lower` the layers below it with their
/// distances; `scratch` holds one word per position (its contents are overwritten). One byte per
/// position, [`NONE`] for none.
#[allow(clippy::too_many_arguments)]
pub(super) fn distances(
    variant: Variant,
    n: u32,
    len: u64,
    low: &[u8],
    high: &[u8],
    lower: &[LayerRef<'_>],
    scratch: &[AtomicU32],
    progress: &dyn Progress,
) -> Buffer {
    let mut dist = Buffer::zeroed(len as usize);
    let chunks = len.div_ceil(CHUNK) as usize;
    // Per chunk, the positions due at a level and not yet resolved.
    let due: Vec<AtomicUsize> = (0..chunks).map(|_| AtomicUsize::new(0)).collect();
    {
        let pass = Pass {
            variant,
            n,
            len,
            low,
            high,
            dist: atomics(&mut dist),
            scratch,
            due: &due,
            last_due: AtomicU8::new(0),
        };
        progress.start(Some(n), Phase::Distances, Some(len));
        (0..chunks as u64).into_par_iter().for_each(|c| {
            pass.exits(c, lower);
            progress.advance(pass.chunk(c).1 - pass.chunk(c).0);
        });
        let mut level = 0u8;
        let mut found: Vec<Vec<u16>> = vec![Vec::new(); chunks];
        while level < NONE && level <= pass.last_due.load(Relaxed) {
            // First the positions due at `level`, while no distance changes; then their
            // predecessors, which only become due later.
            found.par_iter_mut().enumerate().for_each(|(c, f)| {
                f.clear();
                if due[c].load(Relaxed) > 0 {
                    pass.find_due(c as u64, level, f);
                }
            });
            found
                .par_iter()
                .enumerate()
                .for_each(|(c, f)| pass.resolve(c as u64, level, f));
            level += 1;
        }
        progress.finish();
    }
    dist
}

/// The state of the distance pass of one layer.
struct Pass<'a> {
    variant: Variant,
    n: u32,
    len: u64,
    low: &'a [u8],
    high: &'a [u8],
    /// The distance of each position once resolved; before, the level it is due at
    /// ([`NONE`]: not due). A position is resolved at the level it is due at when that level
    /// comes: no distance ever falls to a level already passed.
    dist: &'a [AtomicU8],
    scratch: &'a [AtomicU32],
    due: &'a [AtomicUsize],
    /// The highest level any position was made due at.
    last_due: AtomicU8,
}

impl Pass<'_> {
    fn chunk(&self, c: u64) -> (u64, u64) {
        (c * CHUNK, ((c + 1) * CHUNK).min(self.len))
    }

    /// The exact value of position `i` of the layer.
    #[inline]
    fn exact(&self, i: usize) -> Option<i8> {
        (self.low[i] == self.high[i]).then_some(self.low[i] as i8)
    }

    /// Makes position `i` due at `level` if that is sooner than it was.
    #[inline]
    fn make_due(&self, i: usize, level: u8) {
        if level == NONE {
            return;
        }
        let old = self.dist[i].fetch_min(level, Relaxed);
        if old == NONE {
            self.due[i / CHUNK as usize].fetch_add(1, Relaxed);
        }
        if level < old {
            self.last_due.fetch_max(level, Relaxed);
        }
    }

    /// The moves pass over chunk `c`: each position's best exit, and the moves of the side
    /// behind that stay in the layer and keep the value.
    fn exits(&self, c: u64, lower: &[LayerRef<'_>]) {
        let (start, end) = self.chunk(c);
        let mut h = houses(unrank(start, self.n));
        for i in start as usize..end as usize {
            let w = word(&h);
            next(&mut h);
            self.dist[i].store(NONE, Relaxed);
            self.scratch[i].store(0, Relaxed);
            let Some(v) = self.exact(i) else { continue };
            let board = Board::from_relative_houses(w, self.variant);
            let mask = board.legal_mask();
            if mask == 0 {
                self.make_due(i, 0);
                continue;
            }
            if v == 0 {
                continue;
            }
            let (mut exit, mut inside) = (if v > 0 { NONE } else { 0 }, 0u32);
            for k in (0..6).filter(|k| mask & (1 << k) != 0) {
                let (child, captured) = board.sow_and_capture(Move::from_house(k));
                if captured == 0 && v > 0 {
                    // Reached backwards, from the child.
                    continue;
                }
                let r = reachable::rank(child.relative_houses())
                    .expect("a position after a move has an empty house in the row sown from")
                    as usize;
                if captured == 0 {
                    // The move keeps the value when the child's upper bound is -v.
                    if v < 0 && self.high[r] as i8 == -v {
                        inside += 1;
                    }
                    continue;
                }
                let layer = &lower[(self.n - captured as u32) as usize];
                if captured as i8 - layer.high[r] as i8 != v {
                    continue;
                }
                let d = after(layer.dist[r]);
                exit = if v > 0 { exit.min(d) } else { exit.max(d) };
            }
            if v > 0 || inside == 0 {
                self.make_due(i, exit);
            } else {
                self.scratch[i].store(inside | (exit as u32) << EXIT_SHIFT, Relaxed);
            }
        }
    }

    /// The positions of chunk `c` due at `level`, as offsets in the chunk, into `found`.
    fn find_due(&self, c: u64, level: u8, found: &mut Vec<u16>) {
        let (start, end) = self.chunk(c);
        // SAFETY: the bytes are those of `dist`, and no thread changes a distance while the
        // positions due at a level are looked for (the resolutions run after).
        let bytes: &[u8] = unsafe {
            std::slice::from_raw_parts(
                self.dist.as_ptr().add(start as usize).cast::<u8>(),
                (end - start) as usize,
            )
        };
        find_bytes(bytes, level, level, |j| found.push(j as u16));
        self.due[c as usize].fetch_sub(found.len(), Relaxed);
    }

    /// Makes the predecessors of the positions of chunk `c` resolved at `level` (offsets
    /// `found`) due.
    fn resolve(&self, c: u64, level: u8, found: &[u16]) {
        let start = self.chunk(c).0 as usize;
        for &j in found {
            let i = start + j as usize;
            let Some(v) = self.exact(i).filter(|&v| v != 0) else {
                // The end of the game with a value of 0: no predecessor keeps its value into it
                // by a move that stays in the layer (it is 0 too, and has no distance).
                continue;
            };
            let child = unrank(i as u64, self.n);
            predecessors(child, self.variant, |before| {
                let Some(p) = reachable::rank(before) else {
                    return;
                };
                let p = p as usize;
                // The move keeps p's value -v when p is valued exactly -v.
                if self.exact(p) != Some(-v) {
                    return;
                }
                let due = after(level);
                if v < 0 {
                    // p is ahead.
                    self.make_due(p, due);
                    return;
                }
                let old = self.scratch[p].fetch_sub(1, Relaxed);
                debug_assert!(old & 0xFF > 0);
                if old & 0xFF == 1 {
                    let exit = (old >> EXIT_SHIFT) as u8;
                    self.make_due(p, if exit == NONE { NONE } else { exit.max(due) });
                }
            });
        }
    }
}
