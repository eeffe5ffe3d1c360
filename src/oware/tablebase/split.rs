//! The build of a layer split over `K` ranks (processes under MPI, or threads in tests) that
//! exchange bytes through a [`Transport`]. The layer's ranks (its index range) are cut into
//! blocks of [`BLOCK`] positions, dealt round-robin: block `b` belongs to rank `b % K`.
//!
//! Every pass runs bulk-synchronously, and every rank holds the whole state of the layer
//! between rounds:
//!
//! - **The moves pass** (the costly lookups into the layers below): each rank plays the moves
//!   of its own blocks, then the ranks exchange those blocks' state words (which hold the best
//!   exits, `Split::share`), one all-gather per 64 MiB a rank sends.
//! - **The thresholds and the cycle pass**: each rank scans the whole layer for the seeds of a
//!   threshold (a scan, cheap) and takes them all into its copy of the state; then rounds: each
//!   rank un-sows the positions that joined in its own blocks, the ranks exchange those
//!   predecessors (8 bytes each, an all-gather), and every rank applies all of them in its
//!   copy, which finds the same positions joining everywhere; the rounds end when no rank has
//!   a predecessor to send.
//! - **The distances**: each rank plays the moves of its own blocks in the exits pass, the
//!   ranks exchange those blocks; each level then goes as a threshold does.
//!
//! The sets each pass grows are fixed points, whatever the order their members join in, so
//! every rank ends with the same bytes as a build in one process. The limits: the layers below
//! are on every rank (the memory of the moves pass is not divided), each rank applies every
//! rank's predecessors, and every round waits for the slowest rank.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::state::CHUNK;
use crate::retro::transport::Transport;

/// Positions per block (2^20): the unit dealt to the ranks.
pub const BLOCK: u64 = 1 << 20;

/// The most bytes a rank sends in one all-gather of [`Split::share`].
const SHARE_BYTES: u64 = 64 << 20;

/// Which blocks of a layer a rank works on: those whose number is `rank` modulo `ranks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Part {
    rank: u64,
    ranks: u64,
    /// Positions per block, a multiple of [`CHUNK`].
    block: u64,
}

impl Part {
    /// The whole layer (a build that is not split).
    pub const WHOLE: Part = Part {
        rank: 0,
        ranks: 1,
        block: BLOCK,
    };

    /// Whether position `i` of the layer is in one of this part's blocks.
    #[inline]
    pub fn owns(self, i: u64) -> bool {
        (i / self.block) % self.ranks == self.rank
    }

    /// Whether chunk `c` of a pass ([`CHUNK`] positions) is in one of this part's blocks.
    #[inline]
    pub fn owns_chunk(self, c: u64) -> bool {
        self.owns(c * CHUNK)
    }

    /// How many of a layer's `len` positions are in this part's blocks.
    pub fn share_of(self, len: u64) -> u64 {
        (0..len.div_ceil(self.block))
            .filter(|b| b % self.ranks == self.rank)
            .map(|b| (len - b * self.block).min(self.block))
            .sum()
    }
}

/// What a rank sent and received in the exchanges of a build, and the time it spent in them
/// (waiting for the slower ranks included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exchanged {
    /// Bytes this rank gave to the all-gathers.
    pub sent: u64,
    /// Bytes this rank got from the other ranks.
    pub received: u64,
    /// The all-gathers (each rank takes part in every one).
    pub rounds: u64,
    /// The time spent in them.
    pub time: Duration,
}

/// One rank of a split build: its [`Transport`] and what it has exchanged so far.
pub struct Split<'a> {
    transport: &'a dyn Transport,
    block: u64,
    sent: AtomicU64,
    received: AtomicU64,
    rounds: AtomicU64,
    nanos: AtomicU64,
}

impl<'a> Split<'a> {
    /// A rank of a build over `transport`'s ranks, with blocks of [`BLOCK`] positions.
    pub fn new(transport: &'a dyn Transport) -> Split<'a> {
        Split::with_block(transport, BLOCK)
    }

    /// A rank of a build over `transport`'s ranks with blocks of `block` positions (a multiple
    /// of 32,768): small blocks spread small layers over the ranks, as tests want.
    ///
    /// # Panics
    /// If `block` is not a positive multiple of 32,768.
    pub fn with_block(transport: &'a dyn Transport, block: u64) -> Split<'a> {
        assert!(
            block > 0 && block.is_multiple_of(CHUNK),
            "a block of {block} positions is no multiple of {CHUNK}"
        );
        Split {
            transport,
            block,
            sent: AtomicU64::new(0),
            received: AtomicU64::new(0),
            rounds: AtomicU64::new(0),
            nanos: AtomicU64::new(0),
        }
    }

    /// This rank's number, from 0.
    pub fn rank(&self) -> usize {
        self.transport.rank()
    }

    /// The number of ranks.
    pub fn ranks(&self) -> usize {
        self.transport.ranks()
    }

    /// What was exchanged since the last call (or since [`Split::new`]), and starts counting
    /// again.
    pub fn take_exchanged(&self) -> Exchanged {
        Exchanged {
            sent: self.sent.swap(0, Relaxed),
            received: self.received.swap(0, Relaxed),
            rounds: self.rounds.swap(0, Relaxed),
            time: Duration::from_nanos(self.nanos.swap(0, Relaxed)),
        }
    }

    /// Positions per block.
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The blocks of the layer this rank works on.
    pub(super) fn part(&self) -> Part {
        Part {
            rank: self.rank() as u64,
            ranks: self.ranks() as u64,
            block: self.block,
        }
    }

    /// Every rank's `mine` (a collective), counted.
    pub fn all_gather(&self, mine: &[u8]) -> Vec<Vec<u8>> {
        let t = Instant::now();
        let all = self.transport.all_gather(mine);
        let received: usize = all
            .iter()
            .enumerate()
            .filter(|&(r, _)| r != self.rank())
            .map(|(_, b)| b.len())
            .sum();
        self.sent.fetch_add(mine.len() as u64, Relaxed);
        self.received.fetch_add(received as u64, Relaxed);
        self.rounds.fetch_add(1, Relaxed);
        self.nanos.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
        all
    }

    /// Every rank's words `mine` (a collective), one after the other in rank order.
    pub(super) fn all_gather_words(&self, mine: &[u64]) -> Vec<u64> {
        let bytes: Vec<u8> = mine.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.all_gather(&bytes)
            .iter()
            .flat_map(|b| b.chunks_exact(8))
            .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
            .collect()
    }

    /// Makes every rank's copy of `items` (one per position of the layer) whole: each rank
    /// gives its own blocks' items and takes the others'.
    pub(super) fn share<W: Word>(&self, items: &[W]) {
        let (rank, ranks, size) = (self.rank() as u64, self.ranks() as u64, self.block);
        let len = items.len() as u64;
        let blocks = len.div_ceil(size);
        let block = |b: u64| &items[(b * size) as usize..((b + 1) * size).min(len) as usize];
        let per_gather = (SHARE_BYTES / (size * W::BYTES as u64)).max(1);
        let rounds = blocks.div_ceil(ranks);
        for first in (0..rounds).step_by(per_gather as usize) {
            let round_blocks = |r: u64| {
                (first..(first + per_gather).min(rounds))
                    .map(move |round| round * ranks + r)
                    .filter(move |&b| b < blocks)
            };
            let mut mine = Vec::new();
            for b in round_blocks(rank) {
                block(b).iter().for_each(|w| w.put(&mut mine));
            }
            let all = self.all_gather(&mine);
            // Each other rank's blocks and where they start in its bytes.
            let mut theirs = Vec::new();
            for (r, bytes) in all.iter().enumerate() {
                if r as u64 == rank {
                    continue;
                }
                let mut at = 0;
                for b in round_blocks(r as u64) {
                    theirs.push((b, &bytes[at..]));
                    at += block(b).len() * W::BYTES;
                }
            }
            theirs.par_iter().for_each(|&(b, bytes)| {
                for (w, x) in block(b).iter().zip(bytes.chunks_exact(W::BYTES)) {
                    w.set(x);
                }
            });
        }
    }
}

/// What a layer's build keeps per position and [`Split::share`] exchanges: an atomic of
/// `BYTES` bytes, written little-endian.
pub(super) trait Word: Sync {
    /// Its size in bytes.
    const BYTES: usize;
    /// Appends its bytes to `out`.
    fn put(&self, out: &mut Vec<u8>);
    /// Takes the value of `bytes` (`BYTES` of them).
    fn set(&self, bytes: &[u8]);
}

/// `Word` for an atomic integer (`$atomic`) of `$int`, little-endian.
macro_rules! word {
    ($atomic:ty, $int:ty) => {
        impl Word for $atomic {
            const BYTES: usize = std::mem::size_of::<$int>();
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.load(Relaxed).to_le_bytes());
            }
            fn set(&self, bytes: &[u8]) {
                let bytes = bytes.try_into().expect("as many bytes as the word");
                self.store(<$int>::from_le_bytes(bytes), Relaxed);
            }
        }
    };
}

word!(AtomicU8, u8);
word!(AtomicU16, u16);
word!(AtomicU32, u32);
