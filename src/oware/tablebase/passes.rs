//! The passes of a layer's build after its moves pass: the thresholds (the sets `W_t` and `L_t`
//! grown by un-sowing from their seeds) and, under abapa, the cycle pass (the sets `R_t`); see
//! the build module (`build.rs`) for what they compute.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::reachable::{self, next, unrank, Cursor};
use super::split::Part;
use super::state::{
    assign, bound, count, dec, enc, ASSIGNED, CHUNK, COUNT_MASK, COUNT_SHIFT, EXIT_DISTANCE_SHIFT,
    INSIDE_SHIFT,
};
use super::unsow::predecessors;
use super::words::{find_bytes, find_in_words, lower_byte};
use crate::oware::RuleSet;
use crate::retro::{prefetch, Buffer, Progress};

/// The margin of a game cut at the position with houses `w` (`n` seeds), for its mover: its row
/// less the opponent's.
#[inline]
fn cut_margin(w: u128, n: u32) -> i32 {
    let mine: i32 = w.to_le_bytes()[..6].iter().map(|&x| x as i32).sum();
    2 * mine - n as i32
}

/// The shared state of the build of one layer (all positions with `n` seeds), between its
/// passes.
pub(super) struct LayerBuild<'a> {
    pub variant: RuleSet,
    pub n: u32,
    /// Positions in the layer.
    pub len: u64,
    /// Whether every value is exact (`awari`): then one state byte holds both bounds.
    pub exact: bool,
    /// [`high_shift`].
    pub hs: u32,
    /// Per position, its state word (see [`COUNT_SHIFT`]).
    pub state: &'a [AtomicU32],
    /// The blocks of the layer whose positions `state` holds, one after the other ([`Part::WHOLE`]
    /// unless split: then this rank's share, [`super::owner`]).
    pub part: Part,
}

impl LayerBuild<'_> {
    /// The positions of chunk `c` of the layer, as a range of ranks.
    pub(super) fn chunk(&self, c: u64) -> (u64, u64) {
        (c * CHUNK, ((c + 1) * CHUNK).min(self.len))
    }

    /// The chunks of the layer, in parallel.
    pub(super) fn chunks(&self) -> rayon::range::Iter<u64> {
        (0..self.len.div_ceil(CHUNK)).into_par_iter()
    }

    /// A pass over the layer's chunks in parallel: in each chunk of positions `lo..hi`, `seed`
    /// pushes the positions that join a set at once (each as its houses and a flag, its board
    /// from the `cursor`), then [`LayerBuild::grow`] takes their moves backwards with `join`.
    /// The seeds go first, then what they add: the sets are the same in any order, and a deep
    /// stack lets the reads of one batch of predecessors overlap the next.
    fn chunk_pass(
        &self,
        progress: &dyn Progress,
        seed: impl Fn(usize, usize, &mut Cursor, &mut Vec<(u128, bool)>) + Sync,
        join: impl Fn(u128, usize, bool, &mut Vec<(u128, bool)>) + Sync,
    ) {
        self.chunks().for_each(|c| {
            let (lo, hi) = self.chunk(c);
            let (lo, hi) = (lo as usize, hi as usize);
            let mut stack = Vec::new();
            let mut cursor = Cursor::new(self.n);
            seed(lo, hi, &mut cursor, &mut stack);
            self.grow(&mut stack, &join);
            progress.advance((hi - lo) as u64);
        });
    }

    /// The pass of threshold `t`: the positions whose best exit gives `W_t` or `L_t` at once
    /// (found by a scan of `exits_low` and `exits_high`), and from each, what its moves taken
    /// backwards add to the sets.
    pub(super) fn threshold_pass(
        &self,
        t: i32,
        exits_low: &[u8],
        exits_high: &[u8],
        progress: &dyn Progress,
    ) {
        self.chunk_pass(
            progress,
            |lo, hi, cursor, stack| {
                for i in self.threshold_seeds(t, lo, hi, exits_low, exits_high) {
                    self.join_seed(t, i, |joined_w| {
                        stack.push((cursor.board(i as u64), joined_w))
                    });
                }
            },
            |before, p, joined_w, stack| {
                if let Some(w) = self.join_threshold(t, p, joined_w) {
                    stack.push((before, w));
                }
            },
        );
    }

    /// The positions of `lo..hi` whose best exit may put them in `W_t` or `L_t` at once (their
    /// exit is `t`, or `-t` for the upper bound).
    pub(super) fn threshold_seeds(
        &self,
        t: i32,
        lo: usize,
        hi: usize,
        exits_low: &[u8],
        exits_high: &[u8],
    ) -> Vec<usize> {
        let mut found = Vec::new();
        if self.exact {
            find_bytes(&exits_low[lo..hi], enc(t), enc(-t), |j| found.push(lo + j));
        } else {
            find_bytes(&exits_low[lo..hi], enc(t), enc(t), |j| found.push(lo + j));
            find_bytes(&exits_high[lo..hi], enc(-t), enc(-t), |j| {
                found.push(lo + j)
            });
        }
        found
    }

    /// Puts the seed `i` ([`LayerBuild::threshold_seeds`]) in `W_t` when its best exit reaches
    /// `t`, in `L_t` when its best exit for the upper bound is `-t` and none of its moves stays
    /// outside `W_t`; `joined` is called with each set it joins (`true` for `W_t`).
    #[inline]
    pub(super) fn join_seed(&self, t: i32, i: usize, mut joined: impl FnMut(bool)) {
        let state = &self.state[i];
        if assign(state, 0, t, |b| b == enc(t)) {
            joined(true);
        }
        let s = state.load(Relaxed);
        if count(s) == 0 && assign(state, self.hs, -t, |b| b == enc(-t)) {
            joined(false);
        }
    }

    /// A move of `p` leads into a position that joined `W_t` (`joined_w`; else `L_t`): the set
    /// `p` joins by it, if any (`Some(true)` for `W_t`).
    #[inline]
    pub(super) fn join_threshold(&self, t: i32, p: usize, joined_w: bool) -> Option<bool> {
        let state = &self.state[p];
        if joined_w {
            // One more move of `p` leads into W_t; with none left outside it, p is in L_t if
            // its exits allow.
            let old = state.fetch_sub(1 << COUNT_SHIFT, Relaxed);
            debug_assert!(count(old) > 0);
            (count(old) == 1 && assign(state, self.hs, -t, |b| dec(b) <= -t)).then_some(false)
        } else {
            // A move of `p` leads into L_t: p is in W_t.
            assign(state, 0, t, |_| true).then_some(true)
        }
    }

    /// Takes up to eight positions off `stack` and puts in `preds` their predecessors in the
    /// layer (houses, rank, and the flag their position had on the stack), their state words
    /// asked for first, so that the reads overlap.
    #[inline]
    fn pop_predecessors(
        &self,
        stack: &mut Vec<(u128, bool)>,
        preds: &mut Vec<(u128, usize, bool)>,
    ) {
        preds.clear();
        let from = stack.len().saturating_sub(8);
        for (w, flag) in stack.drain(from..) {
            predecessors(w, self.variant, |before| {
                // A position no move leads to is not in the table (nor on a cycle).
                let Some(p) = reachable::rank(before) else {
                    return;
                };
                let p = p as usize;
                prefetch(&self.state[p]);
                preds.push((before, p, flag));
            });
        }
    }

    /// Grows a set from the positions on `stack` (each with a flag: the set it joined) by their
    /// predecessors, depth-first, until no position joins: `join` gets each predecessor (houses,
    /// rank, the flag of the position it leads to) and pushes it on the stack if it joins. The
    /// predecessors of the next positions on the stack are found, and their state words asked
    /// for, before `join` reads this batch's, so that the reads have time to arrive.
    #[inline]
    fn grow(
        &self,
        stack: &mut Vec<(u128, bool)>,
        mut join: impl FnMut(u128, usize, bool, &mut Vec<(u128, bool)>),
    ) {
        let (mut ready, mut next) = (Vec::new(), Vec::new());
        loop {
            if ready.is_empty() {
                if stack.is_empty() {
                    return;
                }
                self.pop_predecessors(stack, &mut ready);
            }
            self.pop_predecessors(stack, &mut next);
            for &(before, p, flag) in &ready {
                join(before, p, flag, stack);
            }
            std::mem::swap(&mut ready, &mut next);
        }
    }

    /// Prepares the cycle pass (`abapa`), once the thresholds have given each position its
    /// bounds by forcing an exit (`low_A` and `high_A`, kept in its state bytes, unassigned): the
    /// count of moves back to all those that stay in the layer, and the thresholds from which a
    /// position is in `R` whatever its moves lead to, as [`enc`] bytes, in `sx` (for the mover's
    /// side) and in place of the best exits for the upper bound (`exits_high`, for the other
    /// side): with `cut` the margin of a game cut there ([`cut_margin`]), `max(low_A, cut) + 1`
    /// for the mover's side (out of `A` and unsafe; `low_A + 1` without a move that stays in the
    /// layer), `max(-high_A, min(-cut, -exit)) + 1` for the other side (out of `A`, and unsafe or
    /// with an exit that gives the mover more than `-t`).
    pub(super) fn cycle_start(&self, sx: &mut [u8], exits_high: &mut [u8]) {
        let n = self.n as i32;
        sx.par_chunks_mut(CHUNK as usize)
            .zip(exits_high.par_chunks_mut(CHUNK as usize))
            .zip(self.state.par_chunks(CHUNK as usize))
            .enumerate()
            .for_each(|(c, ((sx, sl), words))| {
                let mut h = unrank(self.part.global(self.chunk(c as u64).0), self.n);
                for (j, st) in words.iter().enumerate() {
                    let cut = cut_margin(h, self.n);
                    next(&mut h);
                    let s = st.load(Relaxed);
                    let low = bound(s as u8, -n);
                    let high = bound((s >> 8) as u8, n);
                    let exit = dec(sl[j]);
                    let inside = (s >> INSIDE_SHIFT) & COUNT_MASK;
                    // Without a move that stays in the layer, out of A is in R.
                    sx[j] = enc(if inside == 0 { low } else { low.max(cut) } + 1);
                    sl[j] = enc((-high).max((-cut).min(-exit)) + 1);
                    let s = (s & (0xFF << EXIT_DISTANCE_SHIFT))
                        | enc(low) as u32
                        | (enc(high) as u32) << 8
                        | inside << COUNT_SHIFT
                        | inside << INSIDE_SHIFT;
                    st.store(s, Relaxed);
                }
            });
    }

    /// The cycle pass of threshold `t` (`abapa`, `t` rising from `-n + 1`): grows `R_t`, the
    /// complement of `Y_t`, the positions from which one side (`X`) secures at least `t` by forcing
    /// an exit worth that (the set `A` of the thresholds, with [`LayerBuild::threshold_pass`]'s
    /// `W_t` for `X` to move and `L_t` for the other side) or by keeping the game for ever among
    /// positions where a cut gives `X` at least `t` (safe: the mover's row less the opponent's is
    /// at least `t` with `X` to move, at most `-t` with the other side to move). A position is in
    /// `R_t` when it is out of `A` and, with `X` to move, unsafe or every move stays in the layer
    /// and leads into `R_t`; with the other side to move, unsafe, or an exit gives the mover more
    /// than `-t`, or a move leads into `R_t`. `R_t` only grows as `t` rises; the threshold where a
    /// position joins gives its new bound (`t - 1` for the lower, `1 - t` for the upper). The seeds
    /// are the positions whose threshold in `sx` (the mover's side) or `sl` (the other) is `t`
    /// ([`LayerBuild::cycle_start`]; lowered for a position that leaves `A` later with its moves
    /// into `R` already decided).
    pub(super) fn cycle_pass(
        &self,
        t: i32,
        sx: &[AtomicU64],
        sl: &[AtomicU64],
        progress: &dyn Progress,
    ) {
        self.chunk_pass(
            progress,
            |lo, hi, cursor, stack| {
                for (i, mover) in self.cycle_seeds(t, lo, hi, sx, sl) {
                    if self.cycle_seed(t, i, mover) {
                        self.push_joined(t, cursor.board(i as u64), mover, stack);
                    }
                }
            },
            |before, p, mover, stack| {
                if let Some(side) = self.join_cycle(t, p, mover, sx, sl) {
                    self.push_joined(t, before, side, stack);
                }
            },
        );
    }

    /// The seeds of the cycle pass of threshold `t` in `lo..hi` (`lo` a multiple of 8): the
    /// positions whose threshold in `sx` (`true`: the mover's side) or `sl` is `t`.
    pub(super) fn cycle_seeds(
        &self,
        t: i32,
        lo: usize,
        hi: usize,
        sx: &[AtomicU64],
        sl: &[AtomicU64],
    ) -> Vec<(usize, bool)> {
        let mut found = Vec::new();
        find_in_words(sx, lo, hi, enc(t), |i| found.push((i, true)));
        find_in_words(sl, lo, hi, enc(t), |i| found.push((i, false)));
        found
    }

    /// Puts the seed `i` of the cycle pass in `R_t` for its mover's side (`mover`) or the other;
    /// whether it joined now.
    #[inline]
    pub(super) fn cycle_seed(&self, t: i32, i: usize, mover: bool) -> bool {
        if mover {
            assign(&self.state[i], 0, t - 1, |_| true)
        } else {
            assign(&self.state[i], 8, 1 - t, |_| true)
        }
    }

    /// Puts a position that joined `R_t` (`w`, for its mover's side if `mover`) on `stack`, for
    /// its predecessors, unless it joined for its mover's side as unsafe (a cut there gives its
    /// mover less than `t`): then every predecessor is unsafe for the other side at `t` (a move
    /// without capture gives the opponent's row what the mover's row loses, so the predecessor's
    /// margin is at least minus this one's), and joins by its own threshold in
    /// [`LayerBuild::cycle_start`] no later than the move would make it.
    #[inline]
    fn push_joined(&self, t: i32, w: u128, mover: bool, stack: &mut Vec<(u128, bool)>) {
        if self.spreads(t, w, mover) {
            stack.push((w, mover));
        }
    }

    /// Whether a position that joined `R_t` ([`LayerBuild::push_joined`]) makes its
    /// predecessors join: unless it joined for its mover's side as unsafe.
    #[inline]
    pub(super) fn spreads(&self, t: i32, w: u128, mover: bool) -> bool {
        !mover || cut_margin(w, self.n) >= t
    }

    /// A move of `p` leads into a position that joined `R_t` for its mover's side (`mover`;
    /// else for the other side): the side `p` joins for by it, if any (`Some(true)`: its
    /// mover's); where `p` is still in `A`, its threshold in `sx` or `sl` is lowered instead.
    #[inline]
    pub(super) fn join_cycle(
        &self,
        t: i32,
        p: usize,
        mover: bool,
        sx: &[AtomicU64],
        sl: &[AtomicU64],
    ) -> Option<bool> {
        let state = &self.state[p];
        if mover {
            // A move of `p` (the other side to move) leads into R_t: p is in R_t once out of
            // A, that is from -high_A + 1 on.
            let b = (state.load(Relaxed) >> 8) as u8;
            if b & ASSIGNED != 0 {
                return None;
            }
            if dec(b) > -t {
                return assign(state, 8, 1 - t, |_| true).then_some(false);
            }
            lower_byte(sl, p, enc(1 - dec(b)));
        } else {
            // One more move of `p` (X to move) leads into R_t; with none left outside it, p is
            // in R_t once out of A, that is from low_A + 1 on.
            let old = state.fetch_sub(1 << COUNT_SHIFT, Relaxed);
            debug_assert!(count(old) > 0);
            let b = old as u8;
            if count(old) != 1 || b & ASSIGNED != 0 {
                return None;
            }
            if dec(b) < t {
                return assign(state, 0, t - 1, |_| true).then_some(true);
            }
            lower_byte(sx, p, enc(dec(b) + 1));
        }
        None
    }

    /// The states as values, `unset_low` and `unset_high` where a bound's byte was not assigned:
    /// the lower bounds and the upper bounds (empty where every value is exact), a byte a
    /// position.
    pub(super) fn values(&self, unset_low: i32, unset_high: i32) -> (Buffer, Buffer) {
        let exact = self.exact;
        let value = |b: u8, unset: i32| bound(b, unset) as i8 as u8;
        let mut low = Buffer::zeroed(self.len as usize);
        low.par_iter_mut()
            .zip(self.state.par_iter())
            .for_each(|(b, s)| *b = value(s.load(Relaxed) as u8, unset_low));
        let mut high = Buffer::zeroed(if exact { 0 } else { self.len as usize });
        high.par_iter_mut()
            .zip(self.state.par_iter())
            .for_each(|(b, s)| *b = value((s.load(Relaxed) >> 8) as u8, unset_high));
        (low, high)
    }
}
