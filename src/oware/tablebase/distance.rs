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
//! The distance byte 255 marks a position without a distance: a bound that is not exact, a value of 0 before
//! the end (no side is ahead, so neither is bound to end the game), a side ahead whose every
//! move that keeps the value leads to such a position, a side behind with one such move, and a
//! distance beyond 254 plies.

use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::job::Job;
use super::owner;
use super::reachable::{self, next, reachable_len, unrank, Cursor};
use super::split::{Part, Split};
use super::state::{dec, distance_after, CHUNK, EXIT_DISTANCE_SHIFT, NO_DISTANCE};
use super::unsow::predecessors;
use super::words::{atomics, find_bytes};
use crate::oware::{Board, Move, RuleSet};
use crate::retro::{prefetch, Buffer, Phase, Progress};

/// In a position's scratch word (the side behind): its moves that keep the value, stay in the
/// layer and lead to a position not resolved yet (bits 0-7), and its best exit (bits 8-15,
/// [`NO_DISTANCE`] when an exit has no distance).
const EXIT_SHIFT: u32 = 8;

/// Chunks of a layer whose positions due at a level are found and resolved together: up to 2
/// MiB of found positions (2 bytes each) at once.
const GROUP: usize = 32;

/// The levels (0 to 254) a chunk of a layer may have positions due at, a bit each: set when a
/// position of the chunk is made due at a level, cleared once the positions due at that level
/// are found. A position due sooner later leaves its old level's bit set (the chunk is then
/// scanned at that level for nothing); a chunk whose bit is clear is not scanned at all.
#[derive(Default)]
struct Levels([AtomicU64; 4]);

impl Levels {
    /// Whether the chunk may have positions due at `level`.
    #[inline]
    fn has(&self, level: u8) -> bool {
        self.0[level as usize / 64].load(Relaxed) & 1 << (level % 64) != 0
    }

    /// A position of the chunk is due at `level` (a read first: the bit is mostly set).
    #[inline]
    fn add(&self, level: u8) {
        if !self.has(level) {
            self.0[level as usize / 64].fetch_or(1 << (level % 64), Relaxed);
        }
    }

    /// The positions due at `level` are found.
    #[inline]
    fn remove(&self, level: u8) {
        self.0[level as usize / 64].fetch_and(!(1 << (level % 64)), Relaxed);
    }
}

/// Blocks of positions of [`exit_scratch`]: 1 Mi, 4 MiB of state words (each block adds its 2
/// MiB of scratch words and 1 MiB of best exits before its state words go).
const SCRATCH_BLOCK: usize = 1 << 20;

/// Fills `scratch` (a word a position, as the distance pass reads them) with each position's
/// distance by the captures that keep its value, once its values are known (`low` and `high`,
/// the same slice where every value is exact), and gives the memory of the build's state words
/// (`state`, 4 bytes a position) back as it goes, a block of positions at a time, so that the two
/// never hold more than the state words alone. The build's moves pass left in each state word's
/// byte [`EXIT_DISTANCE_SHIFT`]` / 8` the distance by the captures of its best exit for the lower
/// bound, which keep the value only when it is that exit's; `exits(at, into)` puts those exits
/// (as the build's state bytes) of the positions from `at` on into `into`, or says it cannot.
/// Elsewhere the distance is what no such capture gives: [`NO_DISTANCE`] for the side ahead or a value
/// of 0, and 0 (no exit) for the side behind. A position without a legal move keeps its 0.
///
/// Returns false when `exits` gave nothing for a block: its positions were then taken as if no
/// exit kept the value.
pub(super) fn exit_scratch(
    low: &[u8],
    high: &[u8],
    state: &mut Buffer,
    scratch: &[AtomicU16],
    mut exits: impl FnMut(usize, &mut [u8]) -> bool,
) -> bool {
    let len = low.len();
    assert!(state.len() == 4 * len && scratch.len() == len);
    let mut read = true;
    let mut block = vec![0u8; SCRATCH_BLOCK.min(len)];
    for at in (0..len).step_by(SCRATCH_BLOCK) {
        let end = (at + SCRATCH_BLOCK).min(len);
        let exits_low = exits(at, &mut block[..end - at]).then_some(&block[..end - at]);
        read &= exits_low.is_some();
        scratch[at..end]
            .par_chunks(CHUNK as usize)
            .zip(state[4 * at..4 * end].par_chunks(4 * CHUNK as usize))
            .enumerate()
            .for_each(|(c, (out, words))| {
                let start = at + c * CHUNK as usize;
                for (j, (out, w)) in out.iter().zip(words.chunks_exact(4)).enumerate() {
                    let i = start + j;
                    let w = u32::from_ne_bytes([w[0], w[1], w[2], w[3]]);
                    let mut d = (w >> EXIT_DISTANCE_SHIFT) as u8;
                    if low[i] == high[i] {
                        let v = low[i] as i8 as i32;
                        if exits_low.is_none_or(|e| dec(e[i - at]) != v) {
                            d = if v < 0 { 0 } else { NO_DISTANCE };
                        }
                    }
                    out.store(d as u16, Relaxed);
                }
            });
        state.release(4 * at..4 * end);
    }
    read
}

/// The distances of `job`'s layer: `low` and `high` are its bounds (the same slice where every
/// value is exact); `scratch` holds, one word per position, the distance by the captures that
/// keep the value ([`exit_scratch`]; then overwritten). One byte per position, [`NO_DISTANCE`] for
/// none. With `job.split`, one rank of a split build ([`super::split`]): `low`, `high` and
/// `scratch` are its share of the layer, and so are the distances returned.
pub(super) fn distances(job: Job<'_>, low: &[u8], high: &[u8], scratch: &[AtomicU16]) -> Buffer {
    let Job {
        variant,
        n,
        progress,
        split,
    } = job;
    // This rank's share of the layer (the whole layer unless split).
    let part = job.part();
    let len = low.len() as u64;
    let mut dist = Buffer::zeroed(len as usize);
    let chunks = len.div_ceil(CHUNK) as usize;
    // Per chunk, the levels it may have positions due at.
    let due: Vec<Levels> = (0..chunks).map(|_| Levels::default()).collect();
    {
        let pass = Pass {
            variant,
            n,
            len,
            part,
            low,
            high,
            dist: atomics(&mut dist),
            scratch,
            due: &due,
            last_due: AtomicU8::new(0),
        };
        progress.start(Some(n), Phase::Distances, Some(len));
        if let Some(split) = split {
            pass.owned_exits(split, progress);
            pass.owned_levels(split);
            progress.finish();
            return dist;
        }
        (0..chunks as u64).into_par_iter().for_each(|c| {
            pass.exits(c);
            progress.advance(pass.chunk(c).1 - pass.chunk(c).0);
        });
        let mut level = 0u8;
        // The chunks are taken a group at a time, to bound the memory of the positions found.
        let mut found: Vec<Vec<u16>> = vec![Vec::new(); GROUP.min(chunks)];
        while level < NO_DISTANCE && level <= pass.last_due.load(Relaxed) {
            for group in (0..chunks).step_by(GROUP) {
                let found = &mut found[..GROUP.min(chunks - group)];
                // First the group's positions due at `level`, while no distance changes; then
                // their predecessors, which only become due later (so a group's resolutions
                // never add a position due at `level` to a group after it).
                found.par_iter_mut().enumerate().for_each(|(k, f)| {
                    f.clear();
                    if due[group + k].has(level) {
                        pass.find_due((group + k) as u64, level, f);
                    }
                });
                found
                    .par_iter()
                    .enumerate()
                    .for_each(|(k, f)| pass.resolve((group + k) as u64, level, f));
            }
            level += 1;
        }
        progress.finish();
    }
    dist
}

/// The state of the distance pass of one layer.
struct Pass<'a> {
    variant: RuleSet,
    n: u32,
    /// Positions in the share.
    len: u64,
    /// The positions of the layer the share holds ([`Part::WHOLE`] unless split).
    part: Part,
    low: &'a [u8],
    high: &'a [u8],
    /// The distance of each position once resolved; before, the level it is due at
    /// ([`NO_DISTANCE`]: not due). A position is resolved at the level it is due at when that level
    /// comes: no distance ever falls to a level already passed.
    dist: &'a [AtomicU8],
    /// Per position, first the distance by the captures that keep its value, then its count
    /// and its best exit (the side behind, see [`EXIT_SHIFT`]).
    scratch: &'a [AtomicU16],
    /// Per chunk, the levels it may have positions due at ([`Levels`]).
    due: &'a [Levels],
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
        if level == NO_DISTANCE {
            return;
        }
        let old = self.dist[i].fetch_min(level, Relaxed);
        if level < old {
            self.due[i / CHUNK as usize].add(level);
            self.last_due.fetch_max(level, Relaxed);
        }
    }

    /// The exits pass over chunk `c`: each position's best exit (from the build's moves pass),
    /// and the moves of the side behind that stay in the layer and keep the value.
    fn exits(&self, c: u64) {
        let (start, end) = self.chunk(c);
        let mut after = unrank(start, self.n);
        for i in start as usize..end as usize {
            let w = after;
            next(&mut after);
            let Some((v, exit)) = self.exit_start(i) else {
                continue;
            };
            // The side behind: its moves that stay in the layer and keep the value (the
            // child's upper bound is -v) are waited for (and counted even when an exit has no
            // distance, as their resolutions count down).
            let mut inside = 0u16;
            inside_children(w, self.variant, |r| {
                if self.high[r as usize] as i8 == -v {
                    inside += 1;
                }
            });
            self.behind(i, exit, inside);
        }
    }

    /// The start of position `i`'s exits pass: its distance by the captures that keep the
    /// value (`exit_scratch`, 0 for no legal move) taken out of its scratch word, and the
    /// position made due where that decides it; for the side behind, its value and that exit,
    /// for [`Pass::behind`] once its moves inside the layer are counted.
    #[inline]
    fn exit_start(&self, i: usize) -> Option<(i8, u8)> {
        let d = self.scratch[i].load(Relaxed) as u8;
        self.dist[i].store(NO_DISTANCE, Relaxed);
        self.scratch[i].store(0, Relaxed);
        let v = self.exact(i)?;
        if v == 0 {
            if d == 0 {
                // The game ends here, drawn.
                self.make_due(i, 0);
            }
            return None;
        }
        if v > 0 {
            self.make_due(i, d);
            return None;
        }
        Some((v, d))
    }

    /// The side behind at `i`, with best exit `exit` and `inside` moves that stay in the layer
    /// and keep the value: due at its exit when there is none, else waiting for them.
    #[inline]
    fn behind(&self, i: usize, exit: u8, inside: u16) {
        if inside == 0 {
            self.make_due(i, exit);
        } else {
            self.scratch[i].store(inside | (exit as u16) << EXIT_SHIFT, Relaxed);
        }
    }

    /// The exits pass on one rank of a split build, in rounds of [`owner::ROUND`] positions of
    /// each share: the upper bounds of the children of the side behind inside the layer are
    /// asked of their owners.
    fn owned_exits(&self, split: &Split, progress: &dyn Progress) {
        let (part, ranks) = (self.part, split.ranks());
        let rounds = part
            .of(0)
            .share_of(reachable_len(self.n))
            .div_ceil(owner::ROUND);
        for round in 0..rounds {
            let first = (round * owner::ROUND).min(self.len).div_ceil(CHUNK);
            let last = ((round + 1) * owner::ROUND).min(self.len).div_ceil(CHUNK);
            // Per chunk: the side behind's positions (place, value, exit, children asked), and
            // the children asked of each rank.
            type Behind = Vec<(usize, i8, u8, u8)>;
            let asked: Vec<(Behind, Vec<Vec<u64>>)> = (first..last)
                .into_par_iter()
                .map(|c| {
                    let (start, end) = self.chunk(c);
                    let mut h = unrank(part.global(start), self.n);
                    let mut behind = Vec::new();
                    let mut out = vec![Vec::new(); ranks];
                    for i in start as usize..end as usize {
                        let w = h;
                        next(&mut h);
                        if let Some((v, exit)) = self.exit_start(i) {
                            let mut k = 0;
                            inside_children(w, self.variant, |r| {
                                out[part.owner(r)].push(part.local(r));
                                k += 1;
                            });
                            behind.push((i, v, exit, k));
                        }
                    }
                    (behind, out)
                })
                .collect();
            let (starts, out) = owner::concat(ranks, asked.iter().map(|(_, o)| o));
            let got = split.all_to_all_words(out);
            let answers: Vec<Vec<u8>> = got
                .par_iter()
                .map(|words| words.iter().map(|&j| self.high[j as usize]).collect())
                .collect();
            let answers = split.all_to_all(answers);
            asked
                .par_iter()
                .zip(starts)
                .enumerate()
                .for_each(|(k, ((behind, _), mut at))| {
                    let (start, end) = self.chunk(first + k as u64);
                    let mut h = unrank(part.global(start), self.n);
                    let mut pos = start as usize;
                    for &(i, v, exit, _) in behind {
                        // The children again, in the order asked, for their owners.
                        while pos < i {
                            next(&mut h);
                            pos += 1;
                        }
                        let mut inside = 0u16;
                        inside_children(h, self.variant, |r| {
                            let o = part.owner(r);
                            if answers[o][at[o]] as i8 == -v {
                                inside += 1;
                            }
                            at[o] += 1;
                        });
                        self.behind(i, exit, inside);
                    }
                    progress.advance(end - start);
                });
        }
    }

    /// The levels on one rank of a split build: each level's positions due are found in the
    /// share, a group of [`OWNED_GROUP`] chunks at a time (as many groups on every rank), and
    /// un-sown; a predecessor another rank owns is sent to it (its place there and the child's
    /// value) and settled there.
    fn owned_levels(&self, split: &Split) {
        let (part, me, ranks) = (self.part, split.rank(), split.ranks());
        let chunks = self.due.len();
        let most = part.of(0).share_of(reachable_len(self.n)).div_ceil(CHUNK) as usize;
        let groups = most.div_ceil(OWNED_GROUP).max(1);
        let mut level = 0u8;
        loop {
            let last = split.all_gather_u64(self.last_due.load(Relaxed) as u64);
            if level == NO_DISTANCE || last.iter().all(|&l| l < level as u64) {
                return;
            }
            let due = distance_after(level);
            for g in 0..groups {
                let range = (g * OWNED_GROUP).min(chunks)..((g + 1) * OWNED_GROUP).min(chunks);
                let found: Vec<(usize, Vec<u16>)> = range
                    .into_par_iter()
                    .map(|c| {
                        let mut f = Vec::new();
                        if self.due[c].has(level) {
                            self.find_due(c as u64, level, &mut f);
                        }
                        (c, f)
                    })
                    .collect();
                let out = found
                    .par_iter()
                    .map(|(c, found)| {
                        let start = self.chunk(*c as u64).0 as usize;
                        let mut out = vec![Vec::new(); ranks];
                        let mut cursor = Cursor::new(self.n);
                        for &j in found {
                            let i = start + j as usize;
                            let Some(v) = self.exact(i).filter(|&v| v != 0) else {
                                continue;
                            };
                            let w = cursor.board(part.global(i as u64));
                            predecessors(w, self.variant, |before| {
                                if let Some(p) = reachable::rank(before) {
                                    let (o, l) = (part.owner(p), part.local(p));
                                    if o == me {
                                        self.settle(l as usize, v, due);
                                    } else {
                                        out[o].push(l << 8 | v as u8 as u64);
                                    }
                                }
                            });
                        }
                        out
                    })
                    .reduce(|| vec![Vec::new(); ranks], owner::merge);
                split.all_to_all_words(out).par_iter().for_each(|words| {
                    for &u in words {
                        self.settle((u >> 8) as usize, u as u8 as i8, due);
                    }
                });
            }
            level += 1;
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
        // No position becomes due at a level once its positions are looked for.
        self.due[c as usize].remove(level);
    }

    /// Makes the predecessors of the positions of chunk `c` resolved at `level` (offsets
    /// `found`) due.
    fn resolve(&self, c: u64, level: u8, found: &[u16]) {
        let start = self.chunk(c).0 as usize;
        let due = distance_after(level);
        // The predecessors of several positions at once (with the child's value), their bytes
        // asked for first, so that the reads overlap.
        let mut preds: Vec<(usize, i8)> = Vec::new();
        let mut cursor = Cursor::new(self.n);
        for group in found.chunks(8) {
            preds.clear();
            self.predecessors_of(start, group, &mut preds, &mut cursor);
            for &(p, v) in &preds {
                self.settle(p, v, due);
            }
        }
    }

    /// Puts in `preds` the predecessors in the layer of the positions `start + j` for `j` in
    /// `found` that keep their value into them (rank, and the child's value), their bytes asked
    /// for first.
    #[inline]
    fn predecessors_of(
        &self,
        start: usize,
        found: &[u16],
        preds: &mut Vec<(usize, i8)>,
        cursor: &mut Cursor,
    ) {
        for &j in found {
            let i = start + j as usize;
            let Some(v) = self.exact(i).filter(|&v| v != 0) else {
                // The end of the game with a value of 0: no predecessor keeps its value
                // into it by a move that stays in the layer (it is 0 too, and has no
                // distance).
                continue;
            };
            predecessors(cursor.board(i as u64), self.variant, |before| {
                if let Some(p) = reachable::rank(before) {
                    let p = p as usize;
                    prefetch(&self.low[p]);
                    prefetch(&self.high[p]);
                    prefetch(&self.scratch[p]);
                    prefetch(&self.dist[p]);
                    preds.push((p, v));
                }
            });
        }
    }

    /// A move of `p` leads to a position of value `v` resolved at the level before `due`:
    /// where the move keeps `p`'s value, `p` becomes due at `due` (the side ahead) or, with its
    /// last such move resolved, at its best exit or `due`, the later (the side behind).
    #[inline]
    fn settle(&self, p: usize, v: i8, due: u8) {
        // The move keeps p's value -v when p is valued exactly -v.
        if self.exact(p) != Some(-v) {
            return;
        }
        if v < 0 {
            // p is ahead.
            self.make_due(p, due);
            return;
        }
        let old = self.scratch[p].fetch_sub(1, Relaxed);
        debug_assert!(old & 0xFF > 0);
        if old & 0xFF == 1 {
            let exit = (old >> EXIT_SHIFT) as u8;
            self.make_due(
                p,
                if exit == NO_DISTANCE {
                    NO_DISTANCE
                } else {
                    exit.max(due)
                },
            );
        }
    }
}

/// Chunks of a share whose positions due at a level one rank of a split build un-sows between
/// two exchanges ([`Pass::owned_levels`]): 4 Mi positions.
const OWNED_GROUP: usize = 128;

/// Calls `f` with the rank of the child of every legal move of the position with houses `w`
/// that stays in the layer (no capture).
#[inline]
fn inside_children(w: u128, variant: RuleSet, mut f: impl FnMut(u64)) {
    let board = Board::from_relative_houses(w, variant);
    let mask = board.legal_mask();
    for k in (0..6).filter(|k| mask & (1 << k) != 0) {
        let (child, captured) = board.sow_and_capture(Move::from_house(k));
        if captured != 0 {
            continue;
        }
        f(reachable::rank(child.relative_houses())
            .expect("a position after a move has an empty house in the row sown from"));
    }
}
