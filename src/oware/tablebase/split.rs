//! The build of a layer split over `K` ranks (processes under MPI, or threads in tests) that
//! exchange bytes through a [`Transport`]. The layer's ranks (its index range) are cut into
//! blocks of [`BLOCK`] positions, dealt round-robin: block `b` belongs to rank `b % K`.
//!
//! Each rank owns its blocks of every layer and holds only those of the layer being built (its
//! **share**, the blocks one after the other); the layers below are mapped from their files,
//! and a rank reads only the pages of its own blocks of them: the memory divides by `K`. What a
//! pass needs of another rank's positions goes to their owner in batches, one all-to-all a
//! round: the moves pass's lookups of captures into the layers below, and the predecessors that
//! un-sowing finds.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::state::CHUNK;
use crate::retro::transport::Transport;

/// Positions per block (2^20): the unit dealt to the ranks.
pub const BLOCK: u64 = 1 << 20;

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

    /// The rank whose blocks hold position `i`.
    #[inline]
    pub fn owner(self, i: u64) -> usize {
        ((i / self.block) % self.ranks) as usize
    }

    /// Where position `i` is in its owner's share (the owner's blocks one after the other).
    #[inline]
    pub fn local(self, i: u64) -> u64 {
        i / self.block / self.ranks * self.block + i % self.block
    }

    /// The position at `j` in this part's share.
    #[inline]
    pub fn global(self, j: u64) -> u64 {
        ((j / self.block) * self.ranks + self.rank) * self.block + j % self.block
    }

    /// The part of rank `rank` among the same ranks.
    pub fn of(self, rank: usize) -> Part {
        Part {
            rank: rank as u64,
            ..self
        }
    }

    /// Positions per block.
    pub fn block(self) -> u64 {
        self.block
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
    /// Bytes this rank sent to the other ranks.
    pub sent: u64,
    /// Bytes this rank got from the other ranks.
    pub received: u64,
    /// The collectives (each rank takes part in every one).
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

    /// The blocks `out` to each rank (a collective; one per rank, this rank's own among them)
    /// exchanged for the blocks each rank gave this one, counted (the bytes to and from the
    /// other ranks).
    pub fn all_to_all(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let t = Instant::now();
        let me = self.rank();
        let others = |blocks: &[Vec<u8>]| -> u64 {
            blocks
                .iter()
                .enumerate()
                .filter(|&(r, _)| r != me)
                .map(|(_, b)| b.len() as u64)
                .sum()
        };
        self.sent.fetch_add(others(&out), Relaxed);
        let got = self.transport.all_to_all(out);
        self.received.fetch_add(others(&got), Relaxed);
        self.rounds.fetch_add(1, Relaxed);
        self.nanos.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
        got
    }

    /// [`Split::all_to_all`] of words, written little-endian.
    pub(super) fn all_to_all_words(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        let out = out
            .into_iter()
            .map(|words| words.iter().flat_map(|w| w.to_le_bytes()).collect())
            .collect();
        self.all_to_all(out)
            .into_iter()
            .map(|bytes| {
                bytes
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
                    .collect()
            })
            .collect()
    }

    /// Every rank's `mine` (a collective), in rank order.
    pub(super) fn all_gather_u64(&self, mine: u64) -> Vec<u64> {
        self.all_gather(&mine.to_le_bytes())
            .iter()
            .map(|b| u64::from_le_bytes(b[..8].try_into().expect("8 bytes")))
            .collect()
    }

    /// Whether `mine` holds on any rank (a collective).
    pub(super) fn any(&self, mine: bool) -> bool {
        self.all_gather(&[mine as u8]).iter().any(|b| b[0] != 0)
    }
}
