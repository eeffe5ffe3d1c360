//! The retrograde build of one layer (all positions with `n` seeds on the board), from the
//! layers below it.
//!
//! **Moves pass.** Every position's legal moves are played once: a capture leaves the layer for a
//! smaller, solved one, whose value gives the move's value at once (the seeds captured minus the
//! child's value for its mover); a position without a legal move ends the game (each player takes
//! their own row). What a position can get by leaving the layer, its best *exit*, and the number
//! of its moves that stay in the layer are kept.
//!
//! **Thresholds.** The moves that stay in the layer form cycles. For each threshold `t` from `n`
//! down, the positions whose mover can force a result of at least `t` in a finite number of plies
//! (set `W_t`), and those whose opponent can force the mover to at most `-t` (set `L_t`), are
//! grown from their seeds by the moves taken backwards (un-sowing): a position joins `W_t` when
//! its best exit reaches `t` or a move leads into `L_t`; it joins `L_t` when its best exit is at
//! most `-t` and every move that stays in the layer leads into `W_t` (a count per position of the
//! moves not yet in `W` says when). Both sets only grow as `t` falls, so each position joins each
//! set once, and its value is the threshold where it joins.
//!
//! - `awari`: a game that never ends splits the seeds left evenly (a margin of 0), so thresholds
//!   run down to 1 and the positions in neither set are worth 0; every value is exact.
//! - `abapa`: a game ended by the cycle rule gives each player their own row, which depends on
//!   where the cycle is cut. Thresholds run down to `-n + 1`: the threshold where a position joins
//!   `W` is a lower bound (the mover forces it without any repetition), the one where it joins `L`
//!   gives an upper bound; they are equal where the value cannot depend on the history.
//!
//! The passes run on all cores (rayon); each threshold's propagation is depth-first from the
//! seeds found by one scan of the layer, with atomic bytes for the shared state.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{houses, layer_len, next, rank, unrank, word};
use super::{Phase, Progress};
use crate::oware::{Board, Move, Variant};

/// A solved layer as the build reads it: the lower bounds and the upper bounds, one value byte
/// (an `i8`) per position (the same slice twice where every value is exact).
#[derive(Clone, Copy)]
pub(super) struct LayerRef<'a> {
    pub low: &'a [u8],
    pub high: &'a [u8],
}

/// A built layer: the value bytes (`i8`) per position; `high` is empty where every value is exact
/// (`awari`).
pub(super) struct Built {
    pub low: Vec<u8>,
    pub high: Vec<u8>,
    /// Positions whose lower and upper bounds differ.
    pub bounded: u64,
}

/// Positions per task of a pass.
const CHUNK: u64 = 1 << 15;

/// The state byte of a value while building: the value plus 64 (so 16..=112), with
/// [`ASSIGNED`] set once the position has joined its set (before, it holds the best exit).
#[inline]
fn enc(v: i32) -> u8 {
    (v + 64) as u8
}

#[inline]
fn dec(b: u8) -> i32 {
    (b & !ASSIGNED) as i32 - 64
}

const ASSIGNED: u8 = 0x80;

/// The bytes as atomics, for the passes that share them between threads.
fn atomics(v: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and the exclusive borrow
    // of `v` is held for as long as the atomic view lives.
    unsafe { &*(v as *mut [u8] as *const [AtomicU8]) }
}

/// The houses sown after house `h` of the mover's row, in order (eleven houses, `h` skipped).
const AFTER: [[usize; 11]; 6] = {
    let mut a = [[0usize; 11]; 6];
    let mut h = 0;
    while h < 6 {
        let mut k = 0;
        while k < 11 {
            a[h][k] = (h + 1 + k) % 12;
            k += 1;
        }
        h += 1;
    }
    a
};

/// Calls `f` with every position (word of houses, its mover's row first) that has a legal move
/// without capture leading to `child` (one call per such position and move).
#[inline]
pub(super) fn predecessors(child: u128, variant: Variant, mut f: impl FnMut(u128)) {
    let c = houses(child);
    // The position before, from its mover's side: the child's second row first.
    let mut p = [0u8; 12];
    p[..6].copy_from_slice(&c[6..]);
    p[6..].copy_from_slice(&c[..6]);
    let fed = c[..6].iter().any(|&s| s > 0);
    let opponent_had_seeds = p[6..].iter().any(|&s| s > 0);
    for h in 0..6 {
        if p[h] != 0 {
            continue;
        }
        let mut work = p;
        for (k, &house) in AFTER[h].iter().cycle().enumerate() {
            if work[house] == 0 {
                break;
            }
            work[house] -= 1;
            work[h] = k as u8 + 1;
            let before = word(&work);
            let board = Board::from_relative_houses(before, variant);
            let legal = match variant {
                // Feeding: with the opponent's row empty, only a move that feeds it is legal.
                Variant::Abapa => fed || opponent_had_seeds,
                // A move that starves the opponent is legal only when every move does.
                Variant::Awari => fed || board.legal_mask() & (1 << h) != 0,
            };
            if !legal {
                continue;
            }
            let (after, captured) = board.play(Move::from_house(h));
            if captured == 0 {
                debug_assert_eq!(after.relative_houses(), child);
                f(before);
            }
        }
    }
}

/// What a position's moves give: its best exit for the lower bound and for the upper bound
/// (the mover's value by a capture, or the end of the game), and the number of moves that stay in
/// the layer. Positions without an exit get `-n` for both (the least a mover can get).
#[inline]
fn moves_of(houses: u128, n: u32, variant: Variant, lower: &[LayerRef<'_>]) -> (i32, i32, u8) {
    let board = Board::from_relative_houses(houses, variant);
    let mask = board.legal_mask();
    if mask == 0 {
        // The game is over: each player takes the seeds of their own row.
        let h = houses.to_le_bytes();
        let mine: i32 = h[..6].iter().map(|&s| s as i32).sum();
        let v = 2 * mine - n as i32;
        return (v, v, 0);
    }
    let (mut exit_low, mut exit_high, mut inside) = (-(n as i32), -(n as i32), 0u8);
    for k in 0..6 {
        if mask & (1 << k) == 0 {
            continue;
        }
        let (child, captured) = board.play(Move::from_house(k));
        if captured == 0 {
            inside += 1;
            continue;
        }
        let layer = &lower[(n - captured as u32) as usize];
        let i = rank(child.relative_houses()) as usize;
        let c = captured as i32;
        exit_low = exit_low.max(c - layer.high[i] as i8 as i32);
        exit_high = exit_high.max(c - layer.low[i] as i8 as i32);
    }
    (exit_low, exit_high, inside)
}

/// Builds the layer of `n` seeds; `lower` holds the layers of 0 to `n - 1` seeds.
pub(super) fn build_layer(
    variant: Variant,
    n: u32,
    lower: &[LayerRef<'_>],
    progress: &dyn Progress,
) -> Built {
    assert_eq!(
        lower.len(),
        n as usize,
        "the layers below {n} seeds come first"
    );
    let len = layer_len(n);
    let exact = variant == Variant::Awari;
    let mut low = vec![0u8; len as usize];
    let mut high = if exact {
        Vec::new()
    } else {
        vec![0u8; len as usize]
    };
    let mut count = vec![0u8; len as usize];
    {
        let low_a = atomics(&mut low);
        let high_a = if exact { low_a } else { atomics(&mut high) };
        let count_a = atomics(&mut count);
        let chunks = len.div_ceil(CHUNK);

        progress.start(n, Phase::Moves, len);
        (0..chunks).into_par_iter().for_each(|c| {
            let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(len));
            let mut h = houses(unrank(start, n));
            for i in start..end {
                let (el, eh, inside) = moves_of(word(&h), n, variant, lower);
                low_a[i as usize].store(enc(el), Relaxed);
                if !exact {
                    high_a[i as usize].store(enc(eh), Relaxed);
                }
                count_a[i as usize].store(inside, Relaxed);
                next(&mut h);
            }
            progress.advance(end - start);
        });
        progress.finish();

        let last = if exact { 1 } else { -(n as i32) + 1 };
        let thresholds = (n as i32 - last + 1).max(0) as u64;
        progress.start(n, Phase::Values, len * thresholds);
        for t in (last..=n as i32).rev() {
            (0..chunks).into_par_iter().for_each(|c| {
                let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(len));
                let mut stack: Vec<(u128, bool)> = Vec::new();
                for i in start..end {
                    let i = i as usize;
                    let l = low_a[i].load(Relaxed);
                    if l == enc(t)
                        && low_a[i]
                            .compare_exchange(l, l | ASSIGNED, Relaxed, Relaxed)
                            .is_ok()
                    {
                        stack.push((unrank(i as u64, n), true));
                    }
                    if count_a[i].load(Relaxed) == 0 {
                        let hb = high_a[i].load(Relaxed);
                        if hb == enc(-t)
                            && high_a[i]
                                .compare_exchange(hb, hb | ASSIGNED, Relaxed, Relaxed)
                                .is_ok()
                        {
                            stack.push((unrank(i as u64, n), false));
                        }
                    }
                    while let Some((w, joined_w)) = stack.pop() {
                        predecessors(w, variant, |before| {
                            let p = rank(before) as usize;
                            if joined_w {
                                // One more move of `p` leads into W_t.
                                let left = count_a[p].fetch_sub(1, Relaxed);
                                debug_assert!(left > 0);
                                if left == 1 {
                                    let hb = high_a[p].load(Relaxed);
                                    if hb & ASSIGNED == 0
                                        && dec(hb) <= -t
                                        && high_a[p]
                                            .compare_exchange(
                                                hb,
                                                ASSIGNED | enc(-t),
                                                Relaxed,
                                                Relaxed,
                                            )
                                            .is_ok()
                                    {
                                        stack.push((before, false));
                                    }
                                }
                            } else {
                                // A move of `p` leads into L_t: p is in W_t.
                                let l = low_a[p].load(Relaxed);
                                if l & ASSIGNED == 0
                                    && low_a[p]
                                        .compare_exchange(l, ASSIGNED | enc(t), Relaxed, Relaxed)
                                        .is_ok()
                                {
                                    stack.push((before, true));
                                }
                            }
                        });
                    }
                }
                progress.advance(end - start);
            });
        }
        progress.finish();
    }
    drop(count);

    // The bytes become values: unassigned lower bounds are -n (awari: 0), upper bounds n.
    let unset_low = if exact { 0 } else { -(n as i32) };
    low.par_iter_mut().for_each(|b| {
        *b = if *b & ASSIGNED != 0 {
            dec(*b)
        } else {
            unset_low
        } as i8 as u8;
    });
    high.par_iter_mut().for_each(|b| {
        *b = if *b & ASSIGNED != 0 {
            dec(*b)
        } else {
            n as i32
        } as i8 as u8;
    });
    let bounded = if exact {
        0
    } else {
        low.par_iter()
            .zip(high.par_iter())
            .filter(|(l, h)| l != h)
            .count() as u64
    };
    Built { low, high, bounded }
}
