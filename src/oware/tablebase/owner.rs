//! The passes of a layer's build on one rank of a split build ([`super::split`]), owner
//! computes: the rank holds its share of the layer (its state words, [`LayerBuild::part`]) and
//! reads only its share of the layers below (mapped from their files), and what it needs of
//! other ranks' positions goes to their owners in batches, one all-to-all a round.
//!
//! - **The moves pass**, in rounds of [`ROUND`] positions of each rank's share: each rank plays
//!   its positions' moves, sends each capture's child (its layer and its index there, 8 bytes)
//!   to the child's owner, answers the requests it gets from its own share of the layers below
//!   (the bounds and the distance, 2 bytes under awari, 3 under abapa), and finishes its
//!   positions' state words with the answers.
//! - **The thresholds and the cycle pass**: each rank finds the seeds in its own share and grows
//!   the sets from them depth-first, as the plain build does, but a predecessor that another
//!   rank owns is sent to it (its place in the owner's share and a flag, 8 bytes) instead of
//!   joining here; after the seeds of each group of [`SEED_GROUP`] chunks, and then until no
//!   rank has anything to send, a round: every rank takes the predecessors sent to it, grows
//!   the sets from those that join, and keeps what it finds for the others to send next.
//!
//! The sets grown are fixed points whatever the order their members join in, so the shares make
//! the same bytes as the plain build's layer.

use std::sync::atomic::AtomicU64;

use rayon::prelude::*;

use super::moves::{exits_by, play_moves, LayerRef, Moves};
use super::passes::LayerBuild;
use super::reachable::{self, next, reachable_len, unrank, Cursor};
use super::split::Split;
use super::state::CHUNK;
use super::unsow::predecessors;
use crate::retro::{prefetch, Progress};

/// Positions of each rank's share played per round of the moves pass (a multiple of
/// [`CHUNK`]): about 8 MiB of moves held while their lookups are answered.
pub(super) const ROUND: u64 = 1 << 16;

/// Chunks of each rank's share whose seeds are grown between two exchanges of a threshold or
/// cycle pass: half a million positions, whose predecessors for the other ranks are held until
/// the exchange.
const SEED_GROUP: u64 = 16;

/// Predecessors taken per task when a round's are applied.
const TASK: usize = 1 << 12;

/// Bits of a lookup that give the child's index in its layer (above them: the layer).
const PLACE_BITS: u32 = 40;

/// What each rank sends each other rank in a round: words, one list per rank.
pub(super) type Outbox = Vec<Vec<u64>>;

/// The outboxes of two tasks, one after the other.
pub(super) fn merge(mut a: Outbox, b: Outbox) -> Outbox {
    for (x, y) in a.iter_mut().zip(b) {
        x.extend(y);
    }
    a
}

/// The outboxes of a round's chunks (for `ranks` ranks) one after the other: where each
/// chunk's words start in what goes to each rank, and what goes to each.
pub(super) fn concat<'a>(
    ranks: usize,
    outs: impl Iterator<Item = &'a Outbox>,
) -> (Vec<Vec<usize>>, Outbox) {
    let mut all: Outbox = vec![Vec::new(); ranks];
    let starts = outs
        .map(|out| {
            let at = all.iter().map(Vec::len).collect();
            for (a, o) in all.iter_mut().zip(out) {
                a.extend_from_slice(o);
            }
            at
        })
        .collect();
    (starts, all)
}

/// The moves pass of `build` on one rank: every position of its share played, its captures
/// looked up in the layers below by their owners (`lower`: the layers, of which this rank
/// reads only its share), its state word written.
pub(super) fn moves_pass(
    build: &LayerBuild<'_>,
    lower: &[LayerRef<'_>],
    split: &Split,
    progress: &dyn Progress,
) {
    let (n, variant, part) = (build.n, build.variant, build.part);
    let ranks = split.ranks();
    // Every rank makes as many rounds as rank 0, whose share is the largest.
    let rounds = part.of(0).share_of(reachable_len(n)).div_ceil(ROUND);
    let width = if build.exact { 2 } else { 3 };
    let all = 0..n;
    for round in 0..rounds {
        let first = (round * ROUND).min(build.len).div_ceil(CHUNK);
        let last = ((round + 1) * ROUND).min(build.len).div_ceil(CHUNK);
        // Each chunk's moves, and its lookups per owner.
        let played: Vec<(Vec<Moves>, Outbox)> = (first..last)
            .into_par_iter()
            .map(|c| {
                let (start, end) = build.chunk(c);
                let mut h = unrank(part.global(start), n);
                let mut out = vec![Vec::new(); ranks];
                let moves: Vec<Moves> = (start..end)
                    .map(|_| {
                        let m = play_moves(h, n, variant, &all);
                        next(&mut h);
                        for &(captured, i) in &m.captures[..m.count] {
                            let layer = (n - captured as u32) as u64;
                            out[part.owner(i)].push(layer << PLACE_BITS | i);
                        }
                        m
                    })
                    .collect();
                (moves, out)
            })
            .collect();
        let (starts, asked) = concat(ranks, played.iter().map(|(_, out)| out));
        let asked = split.all_to_all_words(asked);
        let answers: Vec<Vec<u8>> = asked
            .par_iter()
            .map(|words| {
                let mut bytes = Vec::with_capacity(words.len() * width);
                for &w in words {
                    let layer = &lower[(w >> PLACE_BITS) as usize];
                    let j = (w & ((1 << PLACE_BITS) - 1)) as usize;
                    bytes.push(layer.low[j]);
                    if width == 3 {
                        bytes.push(layer.high[j]);
                    }
                    bytes.push(layer.dist[j]);
                }
                bytes
            })
            .collect();
        let answers = split.all_to_all(answers);
        played
            .par_iter()
            .zip(starts)
            .enumerate()
            .for_each(|(k, ((moves, _), mut at))| {
                let (start, end) = build.chunk(first + k as u64);
                for (i, m) in (start..end).zip(moves) {
                    // The answers to this position's lookups, in the order asked.
                    let mut child = [(0u8, 0u8, 0u8); 6];
                    for (c, &(_, g)) in child.iter_mut().zip(&m.captures[..m.count]) {
                        let o = part.owner(g);
                        let b = &answers[o][at[o] * width..(at[o] + 1) * width];
                        *c = (b[0], b[width - 2], b[width - 1]);
                        at[o] += 1;
                    }
                    let (el, eh, inside, d) = exits_by(m, n, |c| child[c]);
                    let s = build.word(el, eh, inside, d);
                    build.state[i as usize].store(s, std::sync::atomic::Ordering::Relaxed);
                }
                progress.advance(end - start);
            });
    }
}

/// Grows a set on this rank from the positions on `stack` (houses, flag) by their
/// predecessors, depth-first, as [`LayerBuild::grow`] does: a predecessor in this rank's share
/// is passed to `join` (its place in the share, the flag; `Some(flag)` when it joins) and goes
/// on the stack if it joins and `spread` says so; one another rank owns goes into `out` for its
/// owner (its place there and the flag).
fn grow(
    build: &LayerBuild<'_>,
    me: usize,
    stack: &mut Vec<(u128, bool)>,
    out: &mut Outbox,
    join: &(impl Fn(usize, bool) -> Option<bool> + Sync),
    spread: &(impl Fn(u128, bool) -> bool + Sync),
) {
    let part = build.part;
    let mut preds: Vec<(u128, usize, bool)> = Vec::new();
    while !stack.is_empty() {
        preds.clear();
        let from = stack.len().saturating_sub(8);
        for (w, flag) in stack.drain(from..) {
            predecessors(w, build.variant, |before| {
                // A position no move leads to is not in the table (nor on a cycle).
                let Some(p) = reachable::rank(before) else {
                    return;
                };
                let (o, j) = (part.owner(p), part.local(p));
                if o == me {
                    prefetch(&build.state[j as usize]);
                    preds.push((before, j as usize, flag));
                } else {
                    out[o].push(j << 1 | flag as u64);
                }
            });
        }
        for &(before, j, flag) in &preds {
            if let Some(f) = join(j, flag) {
                if spread(before, f) {
                    stack.push((before, f));
                }
            }
        }
    }
}

/// One round of a threshold or cycle pass: every rank takes the predecessors sent to it
/// (`out`), has `join` apply each and grows from those that join and `spread` ([`grow`]); what
/// it finds for the other ranks, to send next.
fn round(
    build: &LayerBuild<'_>,
    split: &Split,
    out: Outbox,
    join: &(impl Fn(usize, bool) -> Option<bool> + Sync),
    spread: &(impl Fn(u128, bool) -> bool + Sync),
) -> Outbox {
    let (me, ranks, part, n) = (split.rank(), split.ranks(), build.part, build.n);
    let got = split.all_to_all_words(out);
    got.par_iter()
        .flat_map(|words| words.par_chunks(TASK))
        .map(|task| {
            let mut stack = Vec::new();
            let mut out = vec![Vec::new(); ranks];
            for &u in task {
                let j = (u >> 1) as usize;
                if let Some(f) = join(j, u & 1 == 1) {
                    let w = unrank(part.global(j as u64), n);
                    if spread(w, f) {
                        stack.push((w, f));
                    }
                }
            }
            grow(build, me, &mut stack, &mut out, join, spread);
            out
        })
        .reduce(|| vec![Vec::new(); ranks], merge)
}

/// A threshold or cycle pass on one rank: the seeds of each group of [`SEED_GROUP`] chunks of
/// the share (`seeds` pushes those of a chunk on the stack, their boards from the cursor) grown
/// ([`grow`]), a round after each group (as many groups on every rank), then rounds while any
/// rank has predecessors to send.
fn pass(
    build: &LayerBuild<'_>,
    split: &Split,
    seeds: &(impl Fn(u64, &mut Cursor, &mut Vec<(u128, bool)>) + Sync),
    join: &(impl Fn(usize, bool) -> Option<bool> + Sync),
    spread: &(impl Fn(u128, bool) -> bool + Sync),
    progress: &dyn Progress,
) {
    let (me, ranks) = (split.rank(), split.ranks());
    let chunks = build.len.div_ceil(CHUNK);
    let most = build
        .part
        .of(0)
        .share_of(reachable_len(build.n))
        .div_ceil(CHUNK);
    let grow_chunk = |c: u64| {
        let (lo, hi) = build.chunk(c);
        let mut stack = Vec::new();
        let mut out = vec![Vec::new(); ranks];
        seeds(c, &mut Cursor::new(build.n), &mut stack);
        grow(build, me, &mut stack, &mut out, join, spread);
        progress.advance(hi - lo);
        out
    };
    let mut out = vec![Vec::new(); ranks];
    for g in 0..most.div_ceil(SEED_GROUP) {
        let group = (g * SEED_GROUP).min(chunks)..((g + 1) * SEED_GROUP).min(chunks);
        let found = group
            .into_par_iter()
            .map(grow_chunk)
            .reduce(|| vec![Vec::new(); ranks], merge);
        out = round(build, split, merge(out, found), join, spread);
    }
    while split.any(out.iter().any(|o| !o.is_empty())) {
        out = round(build, split, out, join, spread);
    }
}

/// [`LayerBuild::threshold_pass`] of threshold `t` on one rank (`exits_low`, `exits_high`: its
/// share's best exits).
pub(super) fn threshold_pass(
    build: &LayerBuild<'_>,
    t: i32,
    exits_low: &[u8],
    exits_high: &[u8],
    split: &Split,
    progress: &dyn Progress,
) {
    let part = build.part;
    let join = |j: usize, joined_w: bool| build.join_threshold(t, j, joined_w);
    let spread = |_: u128, _: bool| true;
    let seeds = |c: u64, cursor: &mut Cursor, stack: &mut Vec<(u128, bool)>| {
        let (lo, hi) = build.chunk(c);
        for i in build.threshold_seeds(t, lo as usize, hi as usize, exits_low, exits_high) {
            build.join_seed(t, i, |joined_w| {
                stack.push((cursor.board(part.global(i as u64)), joined_w))
            });
        }
    };
    pass(build, split, &seeds, &join, &spread, progress);
}

/// [`LayerBuild::cycle_pass`] of threshold `t` on one rank (`sx`, `sl`: its share's join
/// thresholds).
pub(super) fn cycle_pass(
    build: &LayerBuild<'_>,
    t: i32,
    sx: &[AtomicU64],
    sl: &[AtomicU64],
    split: &Split,
    progress: &dyn Progress,
) {
    let part = build.part;
    let join = |j: usize, mover: bool| build.join_cycle(t, j, mover, sx, sl);
    let spread = |w: u128, mover: bool| build.spreads(t, w, mover);
    let seeds = |c: u64, cursor: &mut Cursor, stack: &mut Vec<(u128, bool)>| {
        let (lo, hi) = build.chunk(c);
        for (i, mover) in build.cycle_seeds(t, lo as usize, hi as usize, sx, sl) {
            if build.cycle_seed(t, i, mover) {
                let w = cursor.board(part.global(i as u64));
                if spread(w, mover) {
                    stack.push((w, mover));
                }
            }
        }
    };
    pass(build, split, &seeds, &join, &spread, progress);
}
