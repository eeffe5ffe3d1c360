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
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::checkpoint::{Checkpoint, NoCheckpoint, Pass};
use super::distance;
use super::job::Job;
use super::moves::LayerRef;
use super::owner;
use super::passes::LayerBuild;
use super::split::Part;
use super::state::{high_shift, CHUNK};
use super::words::{words, words16, words64};
use crate::retro::{Buffer, Phase};

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

/// Builds the layer of `n` seeds; `lower` holds the layers of 0 to `n - 1` seeds. The moves pass
/// reads them in `sweeps`: ranges of seeds that together make `0..n` (one, `0..n`, unless memory
/// is short, [`super::estimate::sweeps`]), each a pass over the whole layer that looks up only
/// the captures into its layers; after each, `done_with` gets its range, and the caller may let
/// the memory of those layers go (they are not read again for this layer).
///
/// With `job.split`, this is one rank of a build split over several ([`super::split`]): `lower`
/// holds the layers below (this rank reads only its share of them), the moves pass runs in one sweep
/// ([`super::owner`]), and the rank returns its share of the layer (its `bounded` counts the
/// share's), the same bytes as the plain build's at those positions.
///
/// # Panics
/// If `lower` does not hold `n` layers or the sweeps do not make `0..n` in order.
pub(super) fn build_layer(
    job: Job<'_>,
    lower: &[LayerRef<'_>],
    sweeps: &[Range<u32>],
    done_with: &dyn Fn(Range<u32>),
    checkpoint: &dyn Checkpoint,
) -> Built {
    let n = job.n;
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
    let (len, exact) = (job.share_len(), job.exact());
    // A checkpoint holds the whole layer: a split build neither saves nor resumes one, but
    // parks its share's best exits.
    let park_only = ParkOnly(checkpoint);
    let checkpoint: &dyn Checkpoint = if job.split.is_some() {
        &park_only
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
        let layer = LayerValues { job, checkpoint };
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
    built.dist = distance::distances(job, &built.low, high, scratch);
    built
}

/// A [`Checkpoint`] that only parks bytes ([`Checkpoint::park`]): it keeps and resumes nothing.
struct ParkOnly<'a>(&'a dyn Checkpoint);

impl Checkpoint for ParkOnly<'_> {
    fn resume(&self, seeds: u32, pass: Pass, sections: &mut [&mut [u8]]) -> bool {
        NoCheckpoint.resume(seeds, pass, sections)
    }

    fn save(&self, _: u32, _: Pass, _: &[&[u8]]) {}

    fn keeps(&self, _: u32) -> bool {
        false
    }

    fn park(&self, seeds: u32, bytes: &[u8]) -> bool {
        self.0.park(seeds, bytes)
    }

    fn unpark(&self, seeds: u32, at: u64, into: &mut [u8]) -> bool {
        self.0.unpark(seeds, at, into)
    }

    fn unparked(&self, seeds: u32) {
        self.0.unparked(seeds)
    }
}

/// Where a layer's best exits for the lower bound wait while its values are found.
enum Exits {
    /// In memory.
    Held(Buffer),
    /// Out of memory, in the checkpoint ([`Checkpoint::park`]).
    Parked,
}

/// The build of one layer up to its values, with what it needs besides the layers below.
struct LayerValues<'a> {
    job: Job<'a>,
    checkpoint: &'a dyn Checkpoint,
}

impl LayerValues<'_> {
    /// The passes' view of the layer, its state words in `state`.
    fn layer_build<'b>(&self, state: &'b mut Buffer, part: Part) -> LayerBuild<'b> {
        let exact = self.job.exact();
        LayerBuild {
            variant: self.job.variant,
            n: self.job.n,
            len: self.job.share_len(),
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
        let Job {
            n, split, progress, ..
        } = self.job;
        let (len, exact, part) = (self.job.share_len(), self.job.exact(), self.job.part());
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
            // What a resume may have written goes before new words are mapped, so that the
            // build reserves one set of state words, not two (a cap on the memory a process may
            // map, `ulimit -d`, counts both).
            *state_bytes = Buffer::zeroed(0);
            *state_bytes = Buffer::zeroed(4 * len as usize);
            {
                let build = self.layer_build(state_bytes, part);
                if let Some(s) = split {
                    progress.start(Some(n), Phase::Moves, Some(len));
                    owner::moves_pass(&build, lower, s, progress);
                    for sweep in sweeps {
                        done_with(sweep.clone());
                    }
                } else {
                    progress.start(Some(n), Phase::Moves, Some(len * sweeps.len() as u64));
                    for (k, sweep) in sweeps.iter().enumerate() {
                        build.moves_pass(lower, sweep, k == 0, progress);
                        done_with(sweep.clone());
                    }
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
                    Some(s) => owner::threshold_pass(&build, t, &exits_low, high, s, progress),
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
                    Some(s) => owner::cycle_pass(&build, t, sx, sl, s, progress),
                    None => build.cycle_pass(t, sx, sl, progress),
                }
            }
        }
        progress.finish();
        drop(exits_high);
        let (low, high) = if exact {
            build.values(0, 0)
        } else {
            // A position that never joins `R` stays in `Y_n`.
            build.values(n as i32, -(n as i32))
        };
        let built = Built::new(low, high);
        (built, exits_low)
    }
}
