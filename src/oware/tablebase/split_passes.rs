//! The thresholds and the cycle pass on one rank of a split build ([`super::split`]): each rank
//! scans the whole layer for a pass's seeds, then rounds of un-sowing from the positions that
//! joined in its own blocks, the predecessors exchanged so that every rank applies all of them.

use rayon::prelude::*;

use super::passes::LayerBuild;
use super::reachable::{self, unrank, Cursor};
use super::split::Split;
use super::unsow::predecessors;
use crate::retro::Progress;
use std::sync::atomic::AtomicU64;

/// Predecessors un-sown per task of a round.
const ROUND_TASK: usize = 1 << 10;

/// A predecessor to send: its rank in the layer and a flag, in one word.
#[inline]
fn update(p: u64, flag: bool) -> u64 {
    p << 1 | flag as u64
}

/// The rounds of one threshold or cycle pass from the positions that joined in this rank's
/// blocks (houses, and the flag their predecessors get): each round un-sows them, exchanges
/// the predecessors, and has `join` apply every rank's in this rank's copy; a predecessor that
/// joins (`Some(flag)` from `join`) is un-sown next round by the rank that owns it, if
/// `spreads` says so.
fn rounds(
    split: &Split,
    build: &LayerBuild,
    mut frontier: Vec<(u128, bool)>,
    join: impl Fn(usize, bool) -> Option<bool> + Sync,
    spreads: impl Fn(u128, bool) -> bool + Sync,
) {
    let part = split.part();
    loop {
        let mine: Vec<u64> = frontier
            .par_chunks(ROUND_TASK)
            .flat_map_iter(|task| {
                let mut out = Vec::new();
                for &(w, flag) in task {
                    predecessors(w, build.variant, |before| {
                        // A position no move leads to is not in the table (nor on a cycle).
                        if let Some(p) = reachable::rank(before) {
                            out.push(update(p, flag));
                        }
                    });
                }
                out
            })
            .collect();
        let all = split.all_gather_words(&mine);
        if all.is_empty() {
            return;
        }
        frontier = all
            .par_chunks(ROUND_TASK)
            .flat_map_iter(|task| {
                let mut out = Vec::new();
                for &u in task {
                    let p = u >> 1;
                    let Some(flag) = join(p as usize, u & 1 == 1) else {
                        continue;
                    };
                    if part.owns(p) {
                        let w = unrank(p, build.n);
                        if spreads(w, flag) {
                            out.push((w, flag));
                        }
                    }
                }
                out
            })
            .collect();
    }
}

/// The scan of a pass for its seeds over the whole layer, in parallel: `seeds` gets each
/// chunk's positions `lo..hi`, takes its seeds into the state and puts into `out` those that
/// joined in this rank's blocks (houses, flag).
fn scan(
    build: &LayerBuild,
    progress: &dyn Progress,
    seeds: impl Fn(usize, usize, &mut Vec<(u128, bool)>) + Sync,
) -> Vec<(u128, bool)> {
    build
        .chunks()
        .flat_map_iter(|c| {
            let (lo, hi) = build.chunk(c);
            let mut out = Vec::new();
            seeds(lo as usize, hi as usize, &mut out);
            progress.advance(hi - lo);
            out
        })
        .collect()
}

/// [`LayerBuild::threshold_pass`] of threshold `t` on one rank of a split build.
pub(super) fn threshold_pass(
    split: &Split,
    build: &LayerBuild,
    t: i32,
    exits_low: &[u8],
    exits_high: &[u8],
    progress: &dyn Progress,
) {
    let part = split.part();
    let frontier = scan(build, progress, |lo, hi, out| {
        let mut cursor = Cursor::new(build.n);
        for i in build.threshold_seeds(t, lo, hi, exits_low, exits_high) {
            build.join_seed(t, i, |joined_w| {
                if part.owns(i as u64) {
                    out.push((cursor.board(i as u64), joined_w));
                }
            });
        }
    });
    rounds(
        split,
        build,
        frontier,
        |p, joined_w| build.join_threshold(t, p, joined_w),
        |_, _| true,
    );
}

/// [`LayerBuild::cycle_pass`] of threshold `t` on one rank of a split build.
pub(super) fn cycle_pass(
    split: &Split,
    build: &LayerBuild,
    t: i32,
    sx: &[AtomicU64],
    sl: &[AtomicU64],
    progress: &dyn Progress,
) {
    let part = split.part();
    let frontier = scan(build, progress, |lo, hi, out| {
        let mut cursor = Cursor::new(build.n);
        for (i, mover) in build.cycle_seeds(t, lo, hi, sx, sl) {
            if build.cycle_seed(t, i, mover) && part.owns(i as u64) {
                let w = cursor.board(i as u64);
                if build.spreads(t, w, mover) {
                    out.push((w, mover));
                }
            }
        }
    });
    rounds(
        split,
        build,
        frontier,
        |p, mover| build.join_cycle(t, p, mover, sx, sl),
        |w, mover| build.spreads(t, w, mover),
    );
}
