//! The retrograde build of one layer (the positions with `n` seeds on the board that can follow a
//! move, ranked by [`super::reachable`]), from the layers below it. Every move leads into such a
//! position, and un-sowing skips the predecessors outside them: no move leads to those, so they
//! are on no cycle, and [`super::Tablebase`] answers them by their moves.
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
//!   where the cycle is cut. Every value has the parity of `n` (the seeds end split between the
//!   two sides), so thresholds run down to `-n + 2` by steps of 2: the threshold where a position
//!   joins `W` is a lower bound (the mover forces it without any repetition), the one where it
//!   joins `L` gives an upper bound. Then the **cycle pass** tightens them: for `t` rising from
//!   `-n + 1` by steps of 2 (a bound plus 1), `R_t` gathers the positions from which a side
//!   cannot secure `t` either by those forcing lines or by keeping the game for ever among
//!   positions where a cut (own rows) gives it at least `t` (see [`LayerBuild::cycle_pass`]);
//!   `R_t` only grows as `t` rises, so each position joins it once per side, and the threshold
//!   where it joins gives its bound. The bounds are equal where the value cannot depend on the
//!   history.
//!
//! **Distances.** Once the values are known, [`super::distance`] gives each position valued
//! exactly its plies to the end of the game, in 2-byte words that take the state words' place
//! ([`super::distance::exit_scratch`]).
//!
//! The passes run on all cores (rayon); each threshold's propagation is depth-first from the
//! seeds found by one scan of the layer, with atomic bytes for the shared state.

use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::distance;
use super::index::houses;
use super::reachable::{self, next, reachable_len, unrank, Cursor};
use super::split::{self, Part, Split};
use crate::oware::{Board, Move, RuleSet};
use crate::retro::{prefetch, Buffer, Phase, Progress};

/// A solved layer as the build reads it: the lower bounds and the upper bounds, one value byte
/// (an `i8`) per position (the same slice twice where every value is exact), and the distances
/// (one byte per position, [`super::distance`]).
#[derive(Clone, Copy)]
pub(super) struct LayerRef<'a> {
    pub low: &'a [u8],
    pub high: &'a [u8],
    pub dist: &'a [u8],
}

/// The bytes as atomic words of four (the length must be a multiple of 4, the start aligned to
/// 4, as a [`Buffer::zeroed`] mapping is).
fn words(bytes: &mut [u8]) -> &[AtomicU32] {
    assert!(bytes.len().is_multiple_of(4) && (bytes.as_ptr() as usize).is_multiple_of(4));
    // SAFETY: the start is aligned, the length is a multiple of 4, any bits are a valid
    // AtomicU32, and the exclusive borrow is held as long as the view lives.
    unsafe { std::slice::from_raw_parts(bytes.as_mut_ptr().cast::<AtomicU32>(), bytes.len() / 4) }
}

/// The bytes as atomic words of eight (the length must be a multiple of 8, the start aligned to
/// 8, as a [`Buffer::zeroed`] mapping is): the cycle pass's join thresholds, scanned eight at a
/// time while other threads lower some of them.
fn words64(bytes: &mut [u8]) -> &[AtomicU64] {
    assert!(bytes.len().is_multiple_of(8) && (bytes.as_ptr() as usize).is_multiple_of(8));
    // SAFETY: as for `words`, with 8 for 4.
    unsafe { std::slice::from_raw_parts(bytes.as_mut_ptr().cast::<AtomicU64>(), bytes.len() / 8) }
}

/// The bytes as atomic words of two (the length even, the start aligned to 2): the distance
/// pass's scratch words.
fn words16(bytes: &mut [u8]) -> &[AtomicU16] {
    assert!(bytes.len().is_multiple_of(2) && (bytes.as_ptr() as usize).is_multiple_of(2));
    // SAFETY: as for `words`, with 2 for 4.
    unsafe { std::slice::from_raw_parts(bytes.as_mut_ptr().cast::<AtomicU16>(), bytes.len() / 2) }
}

/// Where byte `k` (0-7) of a word of eight bytes in memory is in the word's value.
#[inline]
fn byte_shift(k: usize) -> u32 {
    if cfg!(target_endian = "little") {
        8 * k as u32
    } else {
        8 * (7 - k as u32)
    }
}

/// Lowers byte `i` of `words` to `v` if it is above.
#[inline]
fn lower_byte(words: &[AtomicU64], i: usize, v: u8) {
    let sh = byte_shift(i % 8);
    let _ = words[i / 8].fetch_update(Relaxed, Relaxed, |w| {
        ((w >> sh) as u8 > v).then_some((w & !(0xFF << sh)) | (v as u64) << sh)
    });
}

/// Calls `f` with every `i` in `lo..hi` whose byte in `words` is `x` (`lo` a multiple of 8).
#[inline]
fn find_in_words(words: &[AtomicU64], lo: usize, hi: usize, x: u8, mut f: impl FnMut(usize)) {
    for (k, word) in words[lo / 8..hi.div_ceil(8)].iter().enumerate() {
        let w = word.load(Relaxed);
        if !has_byte(w, x) {
            continue;
        }
        for j in 0..8 {
            let i = lo + 8 * k + j;
            if i < hi && (w >> byte_shift(j)) as u8 == x {
                f(i);
            }
        }
    }
}

/// A built layer: the value bytes (`i8`) per position; `high` is empty where every value is exact
/// (`awari`); the distance bytes ([`super::distance`]).
pub(super) struct Built {
    pub low: Buffer,
    pub high: Buffer,
    pub dist: Buffer,
    /// Positions whose lower and upper bounds differ.
    pub bounded: u64,
}

impl Built {
    /// The values of a layer without distances: `high` is empty when the variant is exact
    /// (awari), otherwise `bounded` counts the positions whose bytes differ.
    fn new(low: Buffer, high: Buffer) -> Built {
        let bounded = if high.is_empty() {
            0
        } else {
            low.par_iter()
                .zip(high.par_iter())
                .filter(|(l, h)| l != h)
                .count() as u64
        };
        Built {
            low,
            high,
            dist: Buffer::zeroed(0),
            bounded,
        }
    }
}

/// Positions per task of a pass.
pub(super) const CHUNK: u64 = 1 << 15;

/// The state byte of a value while building: the value plus 64 (so 16..=112), with
/// [`ASSIGNED`] set once the position has joined its set (before, it holds the best exit).
#[inline]
fn enc(v: i32) -> u8 {
    (v + 64) as u8
}

#[inline]
pub(super) fn dec(b: u8) -> i32 {
    (b & !ASSIGNED) as i32 - 64
}

const ASSIGNED: u8 = 0x80;

/// The value of a state byte once assigned ([`ASSIGNED`]), `unset` before.
#[inline]
fn bound(b: u8, unset: i32) -> i32 {
    if b & ASSIGNED != 0 {
        dec(b)
    } else {
        unset
    }
}

/// The bytes as atomics, for the passes that share them between threads.
pub(super) fn atomics(v: &mut [u8]) -> &[AtomicU8] {
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
pub(super) fn predecessors(child: u128, variant: RuleSet, mut f: impl FnMut(u128)) {
    const ROW: u128 = 0xFFFF_FFFF_FFFF;
    // The position before, from its mover's side: the child's second row first (as a word, and
    // as bytes for the tests; a word read back from bytes just stored would wait for them).
    let swapped = (child >> 48) | (child & ROW) << 48;
    let p = houses(swapped);
    // Whether the opponent has seeds after the move. A move without capture only adds seeds to
    // the opponent's row, so with none after it the opponent had none before either: under
    // abapa the move did not feed an empty row and was illegal; under awari it starved the
    // opponent and was legal only if every move did.
    let fed = child & ROW != 0;
    if !fed && variant == RuleSet::Abapa {
        return;
    }
    for h in 0..6 {
        if p[h] != 0 {
            continue;
        }
        // The board before: the seeds left in the houses sown from (house `h` is never among
        // them) as bytes, for the test, and the whole board as a word kept in step (a word read
        // back from bytes just stored would wait for the stores; testing the word's bytes is
        // slower).
        let mut left = p;
        let mut before = swapped;
        for &house in AFTER[h].iter().cycle() {
            if left[house] == 0 {
                break;
            }
            left[house] -= 1;
            before = before - (1u128 << (8 * house)) + (1u128 << (8 * h));
            // The last seed landed in `house`: a capture if it is the opponent's and now holds 2
            // or 3, unless the capture would take every seed of the opponent's row (a grand
            // slam), which abapa forbids (the move is played, nothing is taken) and awari allows.
            // Such a house holds seeds, so the opponent is fed.
            if house >= 6 && matches!(p[house], 2 | 3) {
                if variant == RuleSet::Abapa && takes_the_row(&p[6..], house - 6) {
                    f(before);
                }
                continue;
            }
            if fed {
                f(before);
                continue;
            }
            // Awari, the opponent not fed: legal only when every move starves it.
            let board = Board::from_relative_houses(before, variant);
            if board.legal_mask() & (1 << h) == 0 {
                continue;
            }
            let (after, captured) = board.sow_and_capture(Move::from_house(h));
            if captured == 0 {
                debug_assert_eq!(after.relative_houses(), child);
                f(before);
            }
        }
    }
}

/// Whether a capture that ends in house `k` of the opponent's row `row` (six houses, after the
/// sowing) would take every seed of the row: the houses after `k` are empty, and going back from
/// `k` the houses of 2 or 3 seeds reach the empty ones before them (the capture's run, as
/// [`Board::sow_and_capture`] takes it). `row[k]` holds 2 or 3.
#[inline]
fn takes_the_row(row: &[u8], k: usize) -> bool {
    let run = row[..=k]
        .iter()
        .rev()
        .take_while(|&&x| matches!(x, 2 | 3))
        .count();
    row[..k + 1 - run].iter().all(|&x| x == 0) && row[k + 1..].iter().all(|&x| x == 0)
}

/// A position's moves, played: the end of the game's value if it has no legal move, else the
/// moves that stay in the layer and the captures into the layers of a sweep (seeds captured,
/// child's rank in the layer of `n` less those seeds).
struct Moves {
    end: Option<i32>,
    inside: u8,
    captures: [(u8, u64); 6],
    count: usize,
}

/// Plays every legal move of a position (`n` seeds) once, keeping the captures whose child is
/// in a layer of `sweep` (the others are not ranked).
#[inline]
fn play_moves(houses: u128, n: u32, variant: RuleSet, sweep: &Range<u32>) -> Moves {
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
    if let Some(v) = moves.end {
        return (v, v, 0, 0);
    }
    let (mut exit_low, mut exit_high) = (-(n as i32), -(n as i32));
    for &(captured, i) in &moves.captures[..moves.count] {
        let layer = &lower[(n - captured as u32) as usize];
        let c = captured as i32;
        exit_low = exit_low.max(c - layer.high[i as usize] as i8 as i32);
        exit_high = exit_high.max(c - layer.low[i as usize] as i8 as i32);
    }
    let d = exit_distance(moves, n, lower, exit_low);
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
            std::cmp::Ordering::Equal => (0, distance::NONE),
        },
    }
}

/// The distance to the end by the captures whose value for the mover (the seeds captured minus
/// the child's upper bound) is `value`, the best exit for the lower bound: the least `1 + d`
/// over them when `value` is positive (the side ahead hurries, [`distance::NONE`] without
/// one), the most when it is negative (the side behind delays, 0 without one), and
/// [`distance::NONE`] when `value` is 0 or a capture needed has no distance. When a position's
/// exact value is its best exit, these are the captures that keep it; else none does. Called
/// for positions with a legal move ([`exits`] gives 0 to those without).
#[inline]
fn exit_distance(moves: &Moves, n: u32, lower: &[LayerRef<'_>], value: i32) -> u8 {
    if value == 0 {
        return distance::NONE;
    }
    let mut d = if value > 0 { distance::NONE } else { 0 };
    for &(captured, i) in &moves.captures[..moves.count] {
        let layer = &lower[(n - captured as u32) as usize];
        if captured as i32 - layer.high[i as usize] as i8 as i32 != value {
            continue;
        }
        let e = distance::after(layer.dist[i as usize]);
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

/// Whether one of the eight bytes of `w` is `x` (the bit trick of a zero byte in `w ^ x...x`).
#[inline]
fn has_byte(w: u64, x: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let y = w ^ (ONES * x as u64);
    y.wrapping_sub(ONES) & !y & HIGH != 0
}

/// Calls `f` with the offset of every byte of `bytes` equal to `a` or to `b`, eight bytes at a
/// time (most words hold neither).
#[inline]
pub(super) fn find_bytes(bytes: &[u8], a: u8, b: u8, mut f: impl FnMut(usize)) {
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut words {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        if has_byte(w, a) || has_byte(w, b) {
            for (j, &x) in chunk.iter().enumerate() {
                if x == a || x == b {
                    f(at + j);
                }
            }
        }
        at += 8;
    }
    for (j, &x) in words.remainder().iter().enumerate() {
        if x == a || x == b {
            f(at + j);
        }
    }
}

/// The state of a position while its layer is built, one word: byte 0 the lower bound's state
/// byte (see [`enc`]), byte [`high_shift`]` / 8` the upper bound's (the same byte where values are
/// exact), bits 16-19 the moves that stay in the layer and do not lead into `W` yet (the cycle
/// pass: into `R`), bits 20-23 the moves that stay in the layer (for the cycle pass), byte 3 the
/// distance of the best exit for the lower bound ([`exit_distance`], read by the distance pass).
const COUNT_SHIFT: u32 = 16;

/// The count's bits, shifted down.
const COUNT_MASK: u32 = 0xF;

/// Where the moves that stay in the layer are kept, the count's starting value.
const INSIDE_SHIFT: u32 = 20;

/// The count of moves in a state word.
#[inline]
fn count(s: u32) -> u32 {
    (s >> COUNT_SHIFT) & COUNT_MASK
}

/// Where the best exit's distance is in a state word.
pub(super) const EXIT_DISTANCE_SHIFT: u32 = 24;

/// Where the upper bound's byte is in a state word: byte 0 under awari (one exact value),
/// byte 1 under abapa.
fn high_shift(exact: bool) -> u32 {
    if exact {
        0
    } else {
        8
    }
}

/// The margin of a game cut at the position with houses `w` (`n` seeds), for its mover: its row
/// less the opponent's.
#[inline]
fn cut_margin(w: u128, n: u32) -> i32 {
    let mine: i32 = w.to_le_bytes()[..6].iter().map(|&x| x as i32).sum();
    2 * mine - n as i32
}

/// Sets the state byte at `shift` to `ASSIGNED | value` if it is not assigned yet and `ok` holds
/// for it; whether this call set it.
#[inline]
fn assign(state: &AtomicU32, shift: u32, value: i32, ok: impl Fn(u8) -> bool) -> bool {
    let mut s = state.load(Relaxed);
    loop {
        let b = (s >> shift) as u8;
        if b & ASSIGNED != 0 || !ok(b) {
            return false;
        }
        let new = (s & !(0xFF << shift)) | ((ASSIGNED | enc(value)) as u32) << shift;
        match state.compare_exchange_weak(s, new, Relaxed, Relaxed) {
            Ok(_) => return true,
            Err(now) => s = now,
        }
    }
}

/// Builds the layer of `n` seeds; `lower` holds the layers of 0 to `n - 1` seeds. The moves pass
/// reads them in `sweeps`: ranges of seeds that together make `0..n` (one, `0..n`, unless memory
/// is short, [`super::estimate::sweeps`]), each a pass over the whole layer that looks up only
/// the captures into its layers; after each, `done_with` gets its range, and the caller may let
/// the memory of those layers go (they are not read again for this layer).
///
/// With `split`, this is one rank of a build split over several ([`super::split`]): each pass
/// works on the rank's blocks of the layer and the ranks exchange what they found, so that every
/// rank returns the whole layer, the same bytes as without `split`.
///
/// # Panics
/// If `lower` does not hold `n` layers or the sweeps do not make `0..n` in order.
#[allow(clippy::too_many_arguments)]
pub(super) fn build_layer(
    variant: RuleSet,
    n: u32,
    lower: &[LayerRef<'_>],
    sweeps: &[Range<u32>],
    done_with: &dyn Fn(Range<u32>),
    progress: &dyn Progress,
    split: Option<&Split>,
    checkpoint: &dyn Checkpoint,
) -> Built {
    assert_eq!(
        lower.len(),
        n as usize,
        "the layers below {n} seeds come first"
    );
    assert!(
        sweeps.first().is_some_and(|s| s.start == 0)
            && sweeps.last().is_some_and(|s| s.end == n)
            && sweeps.windows(2).all(|w| w[0].end == w[1].start),
        "the sweeps {sweeps:?} make 0..{n}"
    );
    let len = reachable_len(n);
    let exact = variant == RuleSet::Awari;
    // A checkpoint holds the whole layer: a split build neither saves nor resumes one.
    let checkpoint: &dyn Checkpoint = if split.is_some() {
        &NoCheckpoint
    } else {
        checkpoint
    };
    let mut exit_dist = Buffer::zeroed(len as usize);
    let mut low = Buffer::zeroed(len as usize);
    let mut high = Buffer::zeroed(if exact { 0 } else { len as usize });
    let resumed = checkpoint.resume(n, Pass::Values, &mut [&mut exit_dist, &mut low, &mut high]);
    // The distance pass's scratch words, 2 bytes a position, each starting as the distance by
    // the captures that keep the position's value.
    let mut scratch_bytes = Buffer::zeroed(2 * len as usize);
    let scratch = words16(&mut scratch_bytes);
    let mut built = if resumed {
        scratch
            .par_chunks(CHUNK as usize)
            .zip(exit_dist.par_chunks(CHUNK as usize))
            .for_each(|(words, d)| {
                for (w, &d) in words.iter().zip(d) {
                    w.store(d as u16, Relaxed);
                }
            });
        drop(exit_dist);
        Built::new(low, high)
    } else {
        drop((exit_dist, low, high));
        let layer = LayerValues {
            variant,
            n,
            split,
            progress,
            checkpoint,
        };
        let mut state = Buffer::zeroed(4 * len as usize);
        let (built, exits) = layer.values(lower, sweeps, done_with, &mut state);
        let high: &[u8] = if exact { &built.low } else { &built.high };
        let exits_from = |at: usize, into: &mut [u8]| match &exits {
            Exits::Held(b) => {
                into.copy_from_slice(&b[at..at + into.len()]);
                true
            }
            Exits::Parked => checkpoint.unpark(n, at as u64, into),
        };
        let read = distance::exit_scratch(&built.low, high, &mut state, scratch, exits_from);
        if matches!(exits, Exits::Parked) {
            checkpoint.unparked(n);
        }
        drop((state, exits));
        // Without the best exits, the layer is not kept (the checkpoint says so), nor its values.
        if read && checkpoint.keeps(n) {
            let mut exit_dist = Buffer::zeroed(len as usize);
            exit_dist
                .par_chunks_mut(CHUNK as usize)
                .zip(scratch.par_chunks(CHUNK as usize))
                .for_each(|(d, words)| {
                    for (d, w) in d.iter_mut().zip(words) {
                        *d = w.load(Relaxed) as u8;
                    }
                });
            checkpoint.save(n, Pass::Values, &[&exit_dist, &built.low, &built.high]);
        }
        built
    };
    let high: &[u8] = if exact { &built.low } else { &built.high };
    built.dist = distance::distances(variant, n, len, &built.low, high, scratch, progress, split);
    built
}

/// Where a layer's best exits for the lower bound wait while its values are found.
enum Exits {
    /// In memory.
    Held(Buffer),
    /// Out of memory, in the checkpoint ([`Checkpoint::park`]).
    Parked,
}

/// A pass of a layer's build after which a [`Checkpoint`] keeps what the build holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// The moves pass: its one section is the state words (4 bytes a position).
    Moves = 1,
    /// The values: each position's distance by the captures that keep its value (what the
    /// distance pass starts from), its lower bound and, under abapa, its upper bound (1 byte a
    /// position each; none under awari).
    Values = 2,
}

/// Where a layer's build keeps what it holds after its long passes ([`Pass`]), so that a build
/// stopped in the middle of a layer goes on after the last pass kept instead of from the
/// layer's start. The build decides what is kept and when; this stores the bytes
/// ([`super::file::PassFiles`] in files). A build that resumes gives the same layer.
pub trait Checkpoint: Sync {
    /// Fills `sections` with what was kept after `pass` of the layer of `seeds` seeds, if that
    /// is what is kept, whole and of these lengths: whether it did. When it did not, the
    /// sections may hold anything.
    fn resume(&self, seeds: u32, pass: Pass, sections: &mut [&mut [u8]]) -> bool;

    /// Keeps `sections`, what the build of the layer of `seeds` seeds holds after `pass`, in
    /// place of what was kept for it before.
    fn save(&self, seeds: u32, pass: Pass, sections: &[&[u8]]);

    /// Whether [`Checkpoint::save`] keeps anything of the layer of `seeds` seeds (if not, the
    /// build does not gather what it would save).
    fn keeps(&self, seeds: u32) -> bool;

    /// Holds `bytes` of the layer of `seeds` seeds (its best exits, 1 byte a position) out of
    /// memory until the build reads them back with [`Checkpoint::unpark`], in place of what was
    /// parked before: whether it did (if not, the build keeps them in memory, 1 byte a position
    /// more at its peak). None by default.
    fn park(&self, _seeds: u32, _bytes: &[u8]) -> bool {
        false
    }

    /// Reads `into.len()` of the bytes parked for the layer of `seeds` seeds back into `into`,
    /// from the `at`-th: whether it could. When it could not, the build goes on without them to
    /// a layer that is wrong and keeps no checkpoint of its values: the implementation must make
    /// its caller drop that layer.
    fn unpark(&self, _seeds: u32, _at: u64, _into: &mut [u8]) -> bool {
        false
    }

    /// The build of the layer of `seeds` seeds has read back all it parked: what holds those
    /// bytes may let them go.
    fn unparked(&self, _seeds: u32) {}
}

/// No checkpoint: nothing kept, nothing resumed.
pub struct NoCheckpoint;

impl Checkpoint for NoCheckpoint {
    fn resume(&self, _: u32, _: Pass, _: &mut [&mut [u8]]) -> bool {
        false
    }

    fn save(&self, _: u32, _: Pass, _: &[&[u8]]) {}

    fn keeps(&self, _: u32) -> bool {
        false
    }
}

/// The build of one layer up to its values, with what it needs besides the layers below.
struct LayerValues<'a> {
    variant: RuleSet,
    n: u32,
    split: Option<&'a Split<'a>>,
    progress: &'a dyn Progress,
    checkpoint: &'a dyn Checkpoint,
}

impl LayerValues<'_> {
    /// The passes' view of the layer, its state words in `state`.
    fn layer_build<'b>(&self, state: &'b mut Buffer, part: Part) -> LayerBuild<'b> {
        let exact = self.variant == RuleSet::Awari;
        LayerBuild {
            variant: self.variant,
            n: self.n,
            len: reachable_len(self.n),
            exact,
            hs: high_shift(exact),
            state: words(state),
            part,
        }
    }

    /// The moves pass (unless the checkpoint has it), the thresholds and, under abapa, the cycle
    /// pass: the layer's values, and its best exits for the lower bound, with its state words
    /// (in `state_bytes`) holding the distance by the captures of each one, for the distance
    /// pass ([`distance::exit_scratch`]).
    fn values(
        &self,
        lower: &[LayerRef<'_>],
        sweeps: &[Range<u32>],
        done_with: &dyn Fn(Range<u32>),
        state_bytes: &mut Buffer,
    ) -> (Built, Exits) {
        let (variant, n, split, progress) = (self.variant, self.n, self.split, self.progress);
        let len = reachable_len(n);
        let exact = variant == RuleSet::Awari;
        let part = split.map_or(Part::WHOLE, Split::part);
        // Under abapa, the bytes of the upper bound's exits and of the cycle pass's join
        // thresholds (a multiple of 8, for its scans).
        let cycle_len = if exact {
            0
        } else {
            len.next_multiple_of(8) as usize
        };
        if !self
            .checkpoint
            .resume(n, Pass::Moves, &mut [&mut *state_bytes])
        {
            *state_bytes = Buffer::zeroed(4 * len as usize);
            {
                let build = self.layer_build(state_bytes, part);
                let own = part.share_of(len);
                progress.start(Some(n), Phase::Moves, Some(own * sweeps.len() as u64));
                for (k, sweep) in sweeps.iter().enumerate() {
                    build.moves_pass(lower, sweep, k == 0, progress);
                    done_with(sweep.clone());
                }
                if let Some(s) = split {
                    s.share(build.state);
                }
                progress.finish();
            }
            self.checkpoint.save(n, Pass::Moves, &[&**state_bytes]);
        } else {
            for sweep in sweeps {
                done_with(sweep.clone());
            }
        }
        let build = self.layer_build(state_bytes, part);
        // The best exits, copied out of the state words once the layers below are let go, kept
        // apart for the scans for seeds (read while the states change); under abapa, the upper
        // bound's too.
        let mut exits_low = Buffer::zeroed(len as usize);
        let mut exits_high = Buffer::zeroed(cycle_len);
        build.copy_exits(&mut exits_low, 0);
        if !exact {
            build.copy_exits(&mut exits_high, build.hs);
        }

        // Under abapa every value, bound, best exit and cut game's margin has the parity of
        // `n` (the `n` seeds end split between the two sides): a threshold of the other parity
        // adds nothing to `W` and `L` (none of its seeds is found), while the cycle pass joins
        // only at the thresholds of the other parity (its thresholds in `sx` and `sl` are such
        // a bound plus 1). Each pass runs only at its own; awari's values have no such parity
        // (its cycle rule splits the seeds left evenly).
        let (last, step) = if exact { (1, 1) } else { (-(n as i32) + 2, 2) };
        let thresholds = ((n as i32 - last) / step + 1).max(0) as u64;
        // Abapa's cycle pass scans as many thresholds once more.
        let passes = if exact { 1 } else { 2 };
        progress.start(Some(n), Phase::Values, Some(passes * len * thresholds));
        {
            let high: &[u8] = if exact { &exits_low } else { &exits_high };
            for t in (last..=n as i32).rev().step_by(step as usize) {
                match split {
                    Some(s) => split::threshold_pass(s, &build, t, &exits_low, high, progress),
                    None => build.threshold_pass(t, &exits_low, high, progress),
                }
            }
        }
        // The best exits are read again once the values are known: parked out of memory
        // meanwhile where the checkpoint can.
        let exits_low = if self.checkpoint.park(n, &exits_low) {
            drop(exits_low);
            Exits::Parked
        } else {
            Exits::Held(exits_low)
        };
        if !exact {
            let mut sx = Buffer::zeroed(cycle_len);
            build.cycle_start(&mut sx, &mut exits_high);
            let (sx, sl) = (words64(&mut sx), words64(&mut exits_high));
            for t in (last - 1..=n as i32).step_by(2) {
                match split {
                    Some(s) => split::cycle_pass(s, &build, t, sx, sl, progress),
                    None => build.cycle_pass(t, sx, sl, progress),
                }
            }
        }
        progress.finish();
        drop(exits_high);
        let built = if exact {
            build.values(0, 0)
        } else {
            // A position that never joins `R` stays in `Y_n`.
            build.values(n as i32, -(n as i32))
        };
        (built, exits_low)
    }
}

/// The shared state of the build of one layer (all positions with `n` seeds), between its
/// passes.
pub(super) struct LayerBuild<'a> {
    pub variant: RuleSet,
    pub n: u32,
    /// Positions in the layer.
    len: u64,
    /// Whether every value is exact (`awari`): then one state byte holds both bounds.
    exact: bool,
    /// [`high_shift`].
    hs: u32,
    /// Per position, its state word (see [`COUNT_SHIFT`]).
    state: &'a [AtomicU32],
    /// The blocks of the layer this build's moves pass plays ([`Part::WHOLE`] unless split).
    part: Part,
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

    /// A sweep of the moves pass: every position's moves played once, its best exits by the
    /// captures into the layers of `sweep` stored in its state word (with the number of its
    /// moves that stay in the layer and the exit's distance), merged with the earlier sweeps'
    /// unless `first`.
    fn moves_pass(
        &self,
        lower: &[LayerRef<'_>],
        sweep: &Range<u32>,
        first: bool,
        progress: &dyn Progress,
    ) {
        let (n, variant) = (self.n, self.variant);
        let part = self.part;
        self.chunks().filter(|&c| part.owns_chunk(c)).for_each(|c| {
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
                    let s = enc(el) as u32
                        | (enc(eh) as u32) << self.hs
                        | (inside as u32) << COUNT_SHIFT
                        | (inside as u32) << INSIDE_SHIFT
                        | (d as u32) << EXIT_DISTANCE_SHIFT;
                    self.state[i].store(s, Relaxed);
                    i += 1;
                }
            }
            progress.advance(end - start);
        });
    }

    /// Copies the state words' byte at `shift` (a best exit, after the moves pass) into `exits`,
    /// one byte per position (`exits` may be longer than the layer).
    fn copy_exits(&self, exits: &mut [u8], shift: u32) {
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

    /// The pass of threshold `t`: the positions whose best exit gives `W_t` or `L_t` at once
    /// (found by a scan of `exits_low` and `exits_high`), and from each, what its moves taken
    /// backwards add to the sets.
    fn threshold_pass(&self, t: i32, exits_low: &[u8], exits_high: &[u8], progress: &dyn Progress) {
        self.chunks().for_each(|c| {
            let (lo, hi) = self.chunk(c);
            let (lo, hi) = (lo as usize, hi as usize);
            let mut stack = Vec::new();
            let mut cursor = Cursor::new(self.n);
            // The seeds first, then what they add: the sets are the same in any order, and a
            // deep stack lets the reads of one batch of predecessors overlap the next.
            for i in self.threshold_seeds(t, lo, hi, exits_low, exits_high) {
                self.join_seed(t, i, |joined_w| {
                    stack.push((cursor.board(i as u64), joined_w))
                });
            }
            self.grow(&mut stack, |before, p, joined_w, stack| {
                if let Some(w) = self.join_threshold(t, p, joined_w) {
                    stack.push((before, w));
                }
            });
            progress.advance((hi - lo) as u64);
        });
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
    fn cycle_start(&self, sx: &mut [u8], exits_high: &mut [u8]) {
        let n = self.n as i32;
        sx.par_chunks_mut(CHUNK as usize)
            .zip(exits_high.par_chunks_mut(CHUNK as usize))
            .zip(self.state.par_chunks(CHUNK as usize))
            .enumerate()
            .for_each(|(c, ((sx, sl), words))| {
                let mut h = unrank(self.chunk(c as u64).0, self.n);
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
    fn cycle_pass(&self, t: i32, sx: &[AtomicU64], sl: &[AtomicU64], progress: &dyn Progress) {
        self.chunks().for_each(|c| {
            let (lo, hi) = self.chunk(c);
            let (lo, hi) = (lo as usize, hi as usize);
            let mut stack = Vec::new();
            let mut cursor = Cursor::new(self.n);
            // The seeds first, as in the thresholds.
            for (i, mover) in self.cycle_seeds(t, lo, hi, sx, sl) {
                if self.cycle_seed(t, i, mover) {
                    self.push_joined(t, cursor.board(i as u64), mover, &mut stack);
                }
            }
            self.grow(&mut stack, |before, p, mover, stack| {
                if let Some(side) = self.join_cycle(t, p, mover, sx, sl) {
                    self.push_joined(t, before, side, stack);
                }
            });
            progress.advance((hi - lo) as u64);
        });
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

    /// The states as values, `unset_low` and `unset_high` where a bound's byte was not assigned.
    fn values(&self, unset_low: i32, unset_high: i32) -> Built {
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
        Built::new(low, high)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::oware::tablebase::index::{layer_len, unrank};

    /// Un-sowing ([`predecessors`]) gives every board of up to 10 seeds exactly the boards whose
    /// legal moves without capture lead to it, once per such move: the rules played forwards
    /// ([`Board::legal_mask`], [`Board::sow_and_capture`]), grand slams included.
    #[test]
    fn predecessors_are_the_moves_without_capture_played_backwards() {
        for variant in [RuleSet::Abapa, RuleSet::Awari] {
            let mut grand_slams = 0;
            for n in 0..=10 {
                let mut forward: HashMap<u128, Vec<u128>> = HashMap::new();
                for r in 0..layer_len(n) {
                    let before = unrank(r, n);
                    let board = Board::from_relative_houses(before, variant);
                    for k in 0..6 {
                        if board.legal_mask() & (1 << k) == 0 {
                            continue;
                        }
                        let (after, captured) = board.sow_and_capture(Move::from_house(k));
                        if captured > 0 {
                            continue;
                        }
                        let under_awari = Board::from_relative_houses(before, RuleSet::Awari);
                        grand_slams +=
                            usize::from(under_awari.sow_and_capture(Move::from_house(k)).1 > 0);
                        forward
                            .entry(after.relative_houses())
                            .or_default()
                            .push(before);
                    }
                }
                for r in 0..layer_len(n) {
                    let child = unrank(r, n);
                    let mut back = Vec::new();
                    predecessors(child, variant, |b| back.push(b));
                    let mut played = forward.remove(&child).unwrap_or_default();
                    back.sort_unstable();
                    played.sort_unstable();
                    assert_eq!(back, played, "{variant:?} {:?}", houses(child));
                }
                assert!(forward.is_empty());
            }
            // Abapa's grand slams (moves that would take the whole row, so take nothing) are
            // among the moves checked; awari has none (they capture).
            assert_eq!(grand_slams > 0, variant == RuleSet::Abapa, "{variant:?}");
        }
    }
}
