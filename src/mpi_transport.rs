//! The [`Transport`] of a tablebase build split over MPI processes (`mpirun -np K perfectplay
//! tablebase build --mpi ...`), over the `mpi` crate (Open MPI from Debian's packages, or any
//! MPI it finds). Only with the cargo feature `mpi`.

use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};
use mpi::{Count, Threading};

use crate::retro::transport::Transport;

/// The most bytes one `MPI_Allgatherv` carries from all ranks together: its counts and offsets
/// are 32-bit, so a larger exchange goes in pieces.
const PIECE: usize = 1 << 30;

/// This process's rank in `MPI_COMM_WORLD`. Only the thread that made it calls MPI (the build's
/// worker threads do not), as `MPI_THREAD_FUNNELED` allows. MPI ends when it is dropped.
pub struct Mpi {
    world: SimpleCommunicator,
    // Kept for its drop, which finalizes MPI; dropped after `world`.
    _universe: Universe,
}

impl Mpi {
    /// Starts MPI; `None` when it was started before in this process (once only).
    pub fn init() -> Option<Mpi> {
        let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)?;
        Some(Mpi {
            world: universe.world(),
            _universe: universe,
        })
    }
}

impl Transport for Mpi {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn ranks(&self) -> usize {
        self.world.size() as usize
    }

    /// `MPI_Allgather` of the lengths, then `MPI_Allgatherv` of the bytes in pieces of at most
    /// `PIECE` bytes (1 GiB) from all ranks together. MPI's default error handler aborts the job on
    /// any failure.
    fn all_gather(&self, mine: &[u8]) -> Vec<Vec<u8>> {
        let ranks = self.ranks();
        let mut lens = vec![0u64; ranks];
        self.world
            .all_gather_into(&(mine.len() as u64), &mut lens[..]);
        let mut all: Vec<Vec<u8>> = lens
            .iter()
            .map(|&l| Vec::with_capacity(l as usize))
            .collect();
        let per_rank = (PIECE / ranks).max(1);
        let mut at = 0usize;
        loop {
            let counts: Vec<usize> = lens
                .iter()
                .map(|&l| (l as usize).saturating_sub(at).min(per_rank))
                .collect();
            if counts.iter().all(|&c| c == 0) {
                return all;
            }
            let starts: Vec<usize> = counts
                .iter()
                .scan(0, |sum, &c| {
                    let start = *sum;
                    *sum += c;
                    Some(start)
                })
                .collect();
            let mut piece = vec![0u8; counts.iter().sum()];
            let send = &mine[at.min(mine.len())..(at + per_rank).min(mine.len())];
            {
                let as_count = |v: &[usize]| v.iter().map(|&x| x as Count).collect::<Vec<_>>();
                let mut recv =
                    PartitionMut::new(&mut piece[..], as_count(&counts), as_count(&starts));
                self.world.all_gather_varcount_into(send, &mut recv);
            }
            for (r, bytes) in all.iter_mut().enumerate() {
                bytes.extend_from_slice(&piece[starts[r]..starts[r] + counts[r]]);
            }
            at += per_rank;
        }
    }

    /// `MPI_Alltoall` of the lengths, then `MPI_Alltoallv` of the bytes in rounds of at most
    /// `PIECE / ranks` bytes (1 GiB over the ranks) between each pair of ranks, as many rounds
    /// as the largest block needs (the most any rank sends, by `MPI_Allreduce`). MPI's default
    /// error handler aborts the job on any failure.
    fn all_to_all(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let ranks = self.ranks();
        assert_eq!(out.len(), ranks, "one block per rank");
        let sends: Vec<u64> = out.iter().map(|b| b.len() as u64).collect();
        let mut lens = vec![0u64; ranks];
        self.world.all_to_all_into(&sends[..], &mut lens[..]);
        let per_pair = (PIECE / ranks).max(1);
        let mine = sends.iter().max().copied().unwrap_or(0) as usize;
        let mut most = 0usize;
        self.world
            .all_reduce_into(&mine, &mut most, mpi::collective::SystemOperation::max());
        let mut got: Vec<Vec<u8>> = lens
            .iter()
            .map(|&l| Vec::with_capacity(l as usize))
            .collect();
        let starts = |counts: &[usize]| -> Vec<Count> {
            counts
                .iter()
                .scan(0usize, |sum, &c| {
                    let start = *sum;
                    *sum += c;
                    Some(start as Count)
                })
                .collect()
        };
        let as_count = |v: &[usize]| v.iter().map(|&x| x as Count).collect::<Vec<_>>();
        // Open MPI refuses a send and a receive buffer at one address, as two empty vectors'
        // would be: each is given a byte of its own.
        for at in (0..most).step_by(per_pair) {
            let send_counts: Vec<usize> = out
                .iter()
                .map(|b| b.len().saturating_sub(at).min(per_pair))
                .collect();
            let recv_counts: Vec<usize> = lens
                .iter()
                .map(|&l| (l as usize).saturating_sub(at).min(per_pair))
                .collect();
            let mut send = Vec::with_capacity(send_counts.iter().sum::<usize>() + 1);
            for b in &out {
                send.extend_from_slice(&b[at.min(b.len())..(at + per_pair).min(b.len())]);
            }
            let received = recv_counts.iter().sum();
            let mut piece = vec![0u8; received + 1];
            let recv_starts = starts(&recv_counts);
            {
                let sendbuf =
                    Partition::new(&send[..], as_count(&send_counts), starts(&send_counts));
                let mut recvbuf = PartitionMut::new(
                    &mut piece[..received],
                    as_count(&recv_counts),
                    recv_starts.clone(),
                );
                self.world.all_to_all_varcount_into(&sendbuf, &mut recvbuf);
            }
            for (r, bytes) in got.iter_mut().enumerate() {
                let s = recv_starts[r] as usize;
                bytes.extend_from_slice(&piece[s..s + recv_counts[r]]);
            }
        }
        got
    }
}
