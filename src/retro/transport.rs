//! How the ranks of a build split over several processes (or threads) exchange bytes: the two
//! collectives the split build needs, an all-gather of byte blocks and an all-to-all (each rank
//! sends each other rank bytes of its own). [`Alone`] is one rank (the
//! exchange is a copy), [`InProcess`] is `K` ranks as threads of one process (so that ordinary
//! tests check a split build without MPI); the command line's MPI transport is
//! `perfectplay::mpi_transport` (the cargo feature `mpi`).

use std::sync::{Arc, Barrier, Mutex, PoisonError};

/// The ranks of a split build and their exchange. Every rank calls each collective in the same
/// order; a rank that stops calling them leaves the others waiting (under MPI the job is
/// aborted on any error, so nothing here fails).
pub trait Transport {
    /// This rank, `0..ranks()`.
    fn rank(&self) -> usize;
    /// The number of ranks, at least 1.
    fn ranks(&self) -> usize;
    /// A collective: every rank gives its bytes `mine` (any length, 0 included) and gets every
    /// rank's, in rank order (its own among them).
    fn all_gather(&self, mine: &[u8]) -> Vec<Vec<u8>>;
    /// A collective: every rank gives `out`, one block of bytes for each rank in rank order (its
    /// own among them, any lengths), and gets the block each rank gave it, in rank order.
    ///
    /// # Panics
    /// If `out` does not hold one block per rank.
    fn all_to_all(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>>;
}

/// A single rank: the split build is the plain one, and the exchange gives back its own bytes.
pub struct Alone;

impl Transport for Alone {
    fn rank(&self) -> usize {
        0
    }
    fn ranks(&self) -> usize {
        1
    }
    fn all_gather(&self, mine: &[u8]) -> Vec<Vec<u8>> {
        vec![mine.to_vec()]
    }
    fn all_to_all(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        assert_eq!(out.len(), 1, "one block per rank");
        out
    }
}

/// One of `K` ranks that are threads of one process ([`InProcess::ranks`]), exchanging through
/// shared slots and a barrier: each thread runs its rank's build with its own `InProcess`.
pub struct InProcess {
    rank: usize,
    shared: Arc<Slots>,
}

/// What the threads of [`InProcess`] share: one slot of bytes per rank, and one per pair of
/// ranks (sender, receiver) for the all-to-all.
struct Slots {
    barrier: Barrier,
    slots: Mutex<Vec<Vec<u8>>>,
    pairs: Mutex<Vec<Vec<Vec<u8>>>>,
}

impl InProcess {
    /// The `k` ranks (`k` at least 1), to hand one to each thread.
    ///
    /// # Panics
    /// If `k` is 0.
    pub fn ranks(k: usize) -> Vec<InProcess> {
        assert!(k > 0, "a build has at least one rank");
        let shared = Arc::new(Slots {
            barrier: Barrier::new(k),
            slots: Mutex::new(vec![Vec::new(); k]),
            pairs: Mutex::new(vec![vec![Vec::new(); k]; k]),
        });
        (0..k)
            .map(|rank| InProcess {
                rank,
                shared: Arc::clone(&shared),
            })
            .collect()
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, Vec<Vec<u8>>> {
        // A rank that panicked holding the lock left whole slots behind: each is written at once.
        self.shared
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Transport for InProcess {
    fn rank(&self) -> usize {
        self.rank
    }
    fn ranks(&self) -> usize {
        self.slots().len()
    }
    fn all_gather(&self, mine: &[u8]) -> Vec<Vec<u8>> {
        self.slots()[self.rank] = mine.to_vec();
        self.shared.barrier.wait();
        let all = self.slots().clone();
        // No rank writes its next bytes before every rank has read these.
        self.shared.barrier.wait();
        all
    }
    fn all_to_all(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let k = self.ranks();
        assert_eq!(out.len(), k, "one block per rank");
        let pairs = || {
            self.shared
                .pairs
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        pairs()[self.rank] = out;
        self.shared.barrier.wait();
        let got = {
            let mut pairs = pairs();
            (0..k)
                .map(|from| std::mem::take(&mut pairs[from][self.rank]))
                .collect()
        };
        // No rank writes its next blocks before every rank has taken these.
        self.shared.barrier.wait();
        got
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `each` returns on each of three in-process ranks, each on its own thread, by rank.
    fn on_three_ranks(each: impl Fn(&InProcess) -> Vec<Vec<u8>> + Sync) -> Vec<Vec<Vec<u8>>> {
        let ranks = InProcess::ranks(3);
        std::thread::scope(|s| {
            let each = &each;
            let handles: Vec<_> = ranks.iter().map(|t| s.spawn(move || each(t))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    #[test]
    fn every_rank_gets_every_ranks_bytes_in_rank_order() {
        let got = on_three_ranks(|t| {
            let r = t.rank() as u8;
            let first = t.all_gather(&vec![r; r as usize]);
            let second = t.all_gather(&[r + 10]);
            assert_eq!(t.ranks(), 3);
            [first, second].concat()
        });
        for g in got {
            assert_eq!(
                g,
                vec![vec![], vec![1], vec![2, 2], vec![10], vec![11], vec![12]]
            );
        }
        assert_eq!(Alone.all_gather(&[7, 8]), vec![vec![7, 8]]);
    }

    #[test]
    fn every_rank_gets_the_block_each_rank_gave_it() {
        let got = on_three_ranks(|t| {
            let r = t.rank() as u8;
            // Rank r gives rank d the bytes 10r + d, d + 1 times.
            let out = (0..3).map(|d| vec![10 * r + d; d as usize + 1]).collect();
            let first = t.all_to_all(out);
            let second = t.all_to_all(vec![vec![r]; 3]);
            [first, second].concat()
        });
        for (d, g) in got.iter().enumerate() {
            let d = d as u8;
            let first: Vec<Vec<u8>> = (0..3).map(|r| vec![10 * r + d; d as usize + 1]).collect();
            assert_eq!(g[..3], first[..]);
            assert_eq!(g[3..], [vec![0], vec![1], vec![2]]);
        }
        assert_eq!(Alone.all_to_all(vec![vec![7, 8]]), vec![vec![7, 8]]);
    }
}
