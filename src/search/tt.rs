//! The transposition table: a fixed-size, bucketed hash table of search results keyed by
//! [`crate::game::Game::key`].
//!
//! Layout: a power-of-two number of 64-byte buckets (one cache line each) of four 16-byte entries,
//! so the memory is the largest such table within the requested megabytes. An entry keeps the upper
//! 32 bits of the key (the lower bits chose the bucket), the score, its bound, the depth it was
//! searched to, the best move (as its index in the legal move list) and the generation (search) that
//! wrote it.
//!
//! Every search starts a new generation. A reproducible search also moves the oldest generation
//! that counts up to its own, so entries of older generations count as empty: it behaves as if
//! the table were fresh, which keeps its result independent of the searches before it (the
//! determinism the protocol promises), at no cost of clearing the memory. A search that keeps the
//! table (one that depends on time anyway) leaves that floor where it is, and reads the entries
//! of the searches since it as its own; when a bucket is full, it replaces older generations'
//! entries before its own ones (each generation of age counting as [`AGE_DEPTH`] plies less).
//! The memory is written once, when the table is made: by several threads, aligned to huge pages
//! and offered to the system for them, so the search never pays for page faults.
//! Replacement inside a bucket is deterministic: the entry of the same key, else an empty or stale
//! one, else the shallowest (the first of equals).
//!
//! Mate scores are stored relative to the node (distance to the end from the stored position), and
//! turned back into root-relative scores on probe ([`to_tt`], [`from_tt`]).

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};

use super::bands::MATE_BOUND;

/// The table size when none is asked for, in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest table accepted, in megabytes.
pub const MAX_HASH_MB: usize = 32_768;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No score (the entry only carries a move, e.g. because the value depended on the path).
    None = 0,
    /// The value is at most the score (the search failed low).
    Upper = 1,
    /// The value is at least the score (the search failed high).
    Lower = 2,
    /// The value is the score.
    Exact = 3,
}

/// Move index meaning "no move".
pub const NO_MOVE: u8 = u8::MAX;

/// One stored result, as its fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    check: u32,
    score: i32,
    generation: u16,
    depth: u8,
    bound: u8,
    mv: u8,
}

/// One stored result in two atomic words, so that threads searching together (lazy SMP) share
/// the table without locks. `data` holds the score (bits 0-31), the generation (32-47), the depth
/// (48-55) and the bound (56-63); `key` holds the key's upper half xor both halves of `data`
/// (bits 0-31) and the move (32-39). A reader that meets two writes half done (one thread's
/// `key` with another's `data`) finds a check that does not match its key and takes the entry
/// for another position's (Hyatt and Mann's lockless hashing), so it never uses a torn result.
/// One thread alone reads back exactly what it wrote: relaxed loads and stores are plain moves.
#[derive(Debug, Default)]
#[repr(C)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline(always)]
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.key.load(Ordering::Relaxed);
        Entry {
            check: key as u32 ^ fold(data),
            score: data as u32 as i32,
            generation: (data >> 32) as u16,
            depth: (data >> 48) as u8,
            bound: (data >> 56) as u8,
            mv: (key >> 32) as u8,
        }
    }

    #[inline(always)]
    fn save(&self, e: &Entry) {
        let data = u64::from(e.score as u32)
            | u64::from(e.generation) << 32
            | u64::from(e.depth) << 48
            | u64::from(e.bound) << 56;
        let key = u64::from(e.check ^ fold(data)) | u64::from(e.mv) << 32;
        self.data.store(data, Ordering::Relaxed);
        self.key.store(key, Ordering::Relaxed);
    }
}

/// Both halves of a word xored: what ties a slot's `key` to its `data`.
#[inline(always)]
fn fold(data: u64) -> u32 {
    (data ^ (data >> 32)) as u32
}

/// Four entries in one cache line.
#[derive(Debug, Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Slot; 4],
}

/// When a search that keeps the table must replace an entry, each search since the entry was
/// written counts as this many plies less of depth: an old deep entry still beats a fresh
/// shallow one for a while, but the table does not silt up with the past.
const AGE_DEPTH: i32 = 4;

/// The transparent huge page size the table is aligned to (x86-64 and most aarch64 systems).
const HUGE_PAGE: usize = 2 << 20;

/// Tables from this size on are cleared by several threads.
const PARALLEL_CLEAR_BYTES: usize = 32 << 20;

/// The buckets, in anonymous memory mapped from the system (memmap2), aligned to a huge page and
/// offered to the system for transparent huge pages when large enough.
struct Buckets {
    map: memmap2::MmapMut,
    /// Where the buckets start in `map` (the first huge page boundary).
    offset: usize,
    len: usize,
}

impl Buckets {
    /// `len` zeroed buckets, not yet resident, and whether the system took the request for huge
    /// pages; `None` when the memory cannot be had.
    fn new(len: usize) -> Option<(Buckets, bool)> {
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let huge = bytes >= HUGE_PAGE;
        // One huge page more, so that the buckets can start on a huge page boundary.
        let mapped = if huge {
            bytes.checked_add(HUGE_PAGE)?
        } else {
            bytes.max(1)
        };
        let map = memmap2::MmapMut::map_anon(mapped).ok()?;
        let offset = if huge {
            map.as_ptr().align_offset(HUGE_PAGE)
        } else {
            0
        };
        let huge_pages = huge && advise_huge_pages(&map, offset, bytes);
        Some((Buckets { map, offset, len }, huge_pages))
    }
}

/// Asks the system to back `bytes` of `map` from `offset` with transparent huge pages (fewer TLB
/// misses on a table far larger than the caches). Whether it does depends on its settings.
#[cfg(target_os = "linux")]
fn advise_huge_pages(map: &memmap2::MmapMut, offset: usize, bytes: usize) -> bool {
    map.advise_range(memmap2::Advice::HugePage, offset, bytes)
        .is_ok()
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_map: &memmap2::MmapMut, _offset: usize, _bytes: usize) -> bool {
    false
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `offset` keeps the start 64-byte aligned (the mapping is page aligned, and a
        // huge page boundary is too), the mapping holds `len` buckets after `offset`, and it
        // starts zeroed; `Bucket` holds only integers, so any bytes (zero included) are a valid
        // value. The slice borrows `self`, which owns the mapping.
        unsafe {
            std::slice::from_raw_parts(
                self.map.as_ptr().add(self.offset).cast::<Bucket>(),
                self.len,
            )
        }
    }
}

impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as for `deref`, and `&mut self` makes the access exclusive.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.map.as_mut_ptr().add(self.offset).cast::<Bucket>(),
                self.len,
            )
        }
    }
}

/// Zeroes `buckets` with up to `threads` threads, each its own share, and returns the number of
/// threads used. Writing every page makes the table resident now, so that the search does not
/// pay for page faults (a lazily mapped table of 1 GiB cost a search most of its speed).
fn clear_in_parallel(buckets: &mut [Bucket], threads: usize) -> usize {
    let bytes = std::mem::size_of_val(buckets);
    let threads = if bytes >= PARALLEL_CLEAR_BYTES {
        threads.max(1)
    } else {
        1
    };
    if threads == 1 {
        zero_buckets(buckets);
        return 1;
    }
    let share = buckets.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for part in buckets.chunks_mut(share) {
            scope.spawn(|| zero_buckets(part));
        }
    });
    threads
}

fn zero_buckets(buckets: &mut [Bucket]) {
    buckets.iter_mut().for_each(|b| *b = Bucket::default());
}

/// How a table was made (`TranspositionTable::new`): what was asked, what was had, and what
/// making it resident cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashReport {
    /// The size asked for, in MiB (after clamping to 1..=[`MAX_HASH_MB`]).
    pub requested_mb: usize,
    /// The memory the table takes, in bytes: the largest power of two of 64-byte buckets within
    /// the size asked for, or less when `shrunk`.
    pub bytes: usize,
    /// Whether the system refused the memory for the size asked for, so that the table was
    /// halved until it could be had.
    pub shrunk: bool,
    /// Whether the system accepted the request for transparent huge pages (tables of 2 MiB and
    /// more; whether it grants them depends on its settings).
    pub huge_pages: bool,
    /// Threads that cleared the table.
    pub threads: usize,
    /// Time taken to map the memory and clear it.
    pub elapsed: std::time::Duration,
}

impl HashReport {
    /// The table's size in MiB (rounded down).
    pub fn table_mb(&self) -> usize {
        self.bytes >> 20
    }
}

/// A probe's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The stored score, node-relative (convert with [`from_tt`]).
    pub score: i32,
    /// Depth searched, in plies.
    pub depth: u8,
    /// What the score bounds.
    pub bound: Bound,
    /// Index of the best move in the legal move list, or [`NO_MOVE`].
    pub mv: u8,
}

/// The transposition table (see the module docs). Every method but [`TranspositionTable::zero`]
/// takes `&self`: the threads of one search share it ([`std::sync::Arc`]); only the thread that
/// starts a search moves the generations ([`TranspositionTable::new_search`]), before the others
/// start.
pub struct TranspositionTable {
    buckets: Buckets,
    mask: u64,
    generation: AtomicU16,
    /// The oldest generation whose entries count (at most `generation`).
    floor: AtomicU16,
    megabytes: usize,
    report: HashReport,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MB (clamped to 1..=[`MAX_HASH_MB`]), made resident and
    /// cleared now by up to `threads` threads (as Stockfish clears its table), huge pages asked
    /// for where the system offers them. If the memory cannot be had, the table is halved until
    /// it can (down to one bucket) rather than aborting, and [`TranspositionTable::report`] says
    /// so.
    pub fn new(megabytes: usize, threads: usize) -> TranspositionTable {
        let started = std::time::Instant::now();
        let megabytes = megabytes.clamp(1, MAX_HASH_MB);
        let bytes = megabytes << 20;
        let wanted = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // The largest power of two not above `wanted`.
        let full = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let mut count = full;
        let (mut buckets, huge_pages) = loop {
            match Buckets::new(count) {
                Some(made) => break made,
                None if count > 1 => count /= 2,
                None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>()),
            }
        };
        let threads = clear_in_parallel(&mut buckets, threads);
        let report = HashReport {
            requested_mb: megabytes,
            bytes: count * std::mem::size_of::<Bucket>(),
            shrunk: count < full,
            huge_pages,
            threads,
            elapsed: started.elapsed(),
        };
        TranspositionTable {
            buckets,
            mask: count as u64 - 1,
            generation: AtomicU16::new(1),
            floor: AtomicU16::new(1),
            megabytes,
            report,
        }
    }

    /// How the table was made.
    pub fn report(&self) -> &HashReport {
        &self.report
    }

    /// The size asked for, in megabytes.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// The memory the entries take, in bytes (never above the megabytes asked for).
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Empties the table: every entry written so far counts as empty from now on. This starts a
    /// new generation (as every reproducible search does) instead of writing the memory, so it
    /// is instant whatever the size; the memory is zeroed only when the generation counter wraps
    /// (and when the table is made).
    pub fn clear(&self) {
        self.new_search(false);
    }

    /// Zeroes every entry (all memory written).
    fn zero(&self) {
        for slot in self.buckets.iter().flat_map(|b| &b.entries) {
            slot.save(&Entry::default());
        }
        self.generation.store(1, Ordering::Relaxed);
        self.floor.store(1, Ordering::Relaxed);
    }

    /// Starts a new search. With `keep`, the entries that counted so far still count (as
    /// written by older generations); without, every entry written before counts as empty from
    /// now on. Called by one thread while no other uses the table (the helpers of a search start
    /// after it).
    pub fn new_search(&self, keep: bool) {
        let generation = self.generation.load(Ordering::Relaxed);
        if generation == u16::MAX {
            self.zero();
        } else {
            self.generation.store(generation + 1, Ordering::Relaxed);
            if !keep {
                self.floor.store(generation + 1, Ordering::Relaxed);
            }
        }
    }

    fn generation(&self) -> u16 {
        self.generation.load(Ordering::Relaxed)
    }

    fn floor(&self) -> u16 {
        self.floor.load(Ordering::Relaxed)
    }

    fn bucket_index(&self, key: u64) -> usize {
        (key & self.mask) as usize
    }

    /// Asks the processor to start loading `key`'s bucket, so that a later [`probe`] or [`store`]
    /// finds it in cache (the table is far larger than the caches; a miss costs as much as a
    /// node).
    ///
    /// [`probe`]: TranspositionTable::probe
    /// [`store`]: TranspositionTable::store
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(&self.buckets[self.bucket_index(key)]);
    }

    /// The entry for `key` that counts in this search (written in it, or in a search it keeps
    /// the table of), if any.
    ///
    /// Always inlined, as [`TranspositionTable::store`] is: both are on the search's hot path,
    /// and the compiler left them as calls.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let check = (key >> 32) as u32;
        let floor = self.floor();
        let bucket = &self.buckets[self.bucket_index(key)];
        bucket
            .entries
            .iter()
            .map(Slot::load)
            .find(|e| e.check == check && e.generation >= floor)
            .map(|e| Hit {
                score: e.score,
                depth: e.depth,
                bound: match e.bound {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => Bound::None,
                },
                mv: e.mv,
            })
    }

    /// Stores a result for `key` (`score` already node-relative, see [`to_tt`]).
    #[inline(always)]
    pub fn store(&self, key: u64, depth: u32, score: i32, bound: Bound, mv: u8) {
        let check = (key >> 32) as u32;
        let (generation, floor) = (self.generation(), self.floor());
        let bucket = &self.buckets[self.bucket_index(key)];
        let entries = bucket.entries.each_ref().map(Slot::load);
        let mut slot = 0;
        // The worth of keeping the entry in `slot`: below every depth for one that does not count.
        let mut worst = i32::MAX;
        for (i, e) in entries.iter().enumerate() {
            if e.generation < floor {
                if worst > i32::MIN {
                    slot = i;
                    worst = i32::MIN;
                }
                continue;
            }
            if e.check == check {
                slot = i;
                break;
            }
            // Of this search's entries (the only ones in a reproducible search), the depth alone.
            let worth = e.depth as i32 - AGE_DEPTH * i32::from(generation - e.generation);
            if worth < worst {
                slot = i;
                worst = worth;
            }
        }
        let e = &entries[slot];
        // Keep the move of an earlier result for this position when the new one has none.
        let mv = if mv == NO_MOVE && e.check == check && e.generation >= floor {
            e.mv
        } else {
            mv
        };
        bucket.entries[slot].save(&Entry {
            check,
            score,
            generation,
            depth: depth.min(255) as u8,
            bound: bound as u8,
            mv,
        });
    }

    /// Fill of the table by this search, per mille, estimated from the first 250 buckets.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let generation = self.generation();
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.entries
                    .iter()
                    .filter(|e| e.load().generation == generation)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * 4)) as u32
    }
}

/// A root-relative score as stored: proven results become distances from this node (`ply` plies
/// below the root), so the entry is right wherever the position is met again.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`] for a node `ply` plies below the root.
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bands::MATE;

    #[test]
    fn store_then_probe() {
        let tt = TranspositionTable::new(1, 1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key), None);
        tt.store(key, 7, -42, Bound::Lower, 3);
        assert_eq!(
            tt.probe(key),
            Some(Hit {
                score: -42,
                depth: 7,
                bound: Bound::Lower,
                mv: 3
            })
        );
        // Another key of the same bucket does not answer.
        assert_eq!(tt.probe(key ^ (1 << 40)), None);
        tt.store(key, 9, 5, Bound::Exact, NO_MOVE);
        assert_eq!(
            tt.probe(key),
            Some(Hit {
                score: 5,
                depth: 9,
                bound: Bound::Exact,
                mv: 3
            })
        );
    }

    #[test]
    fn new_search_and_clear_forget() {
        let tt = TranspositionTable::new(1, 1);
        tt.store(99 << 32, 3, 1, Bound::Exact, 0);
        tt.new_search(false);
        assert_eq!(tt.probe(99 << 32), None);
        tt.store(99 << 32, 3, 1, Bound::Exact, 0);
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert_eq!(tt.probe(99 << 32), None);
    }

    #[test]
    fn searches_that_keep_the_table_read_the_earlier_ones() {
        let tt = TranspositionTable::new(1, 1);
        let (a, b) = (5 << 32, 6 << 32);
        tt.store(a, 3, 1, Bound::Exact, 2);
        tt.new_search(true);
        assert_eq!(tt.probe(a).map(|h| (h.score, h.mv)), Some((1, 2)));
        tt.store(b, 4, 7, Bound::Lower, 1);
        // Only this search's entries count for hashfull; both count for probes.
        tt.new_search(true);
        assert!(tt.probe(a).is_some() && tt.probe(b).is_some());
        // A search that does not keep the table forgets all of them, and a later one that keeps
        // it does not bring them back.
        tt.new_search(false);
        assert_eq!((tt.probe(a), tt.probe(b)), (None, None));
        tt.new_search(true);
        assert_eq!((tt.probe(a), tt.probe(b)), (None, None));
        tt.store(a, 1, 9, Bound::Exact, 0);
        tt.new_search(true);
        tt.clear();
        assert_eq!(tt.probe(a), None);
    }

    #[test]
    fn old_entries_are_replaced_first_when_the_table_is_kept() {
        let tt = TranspositionTable::new(1, 1);
        let keys: Vec<u64> = (1..=6u64).map(|k| k << 32 | 9).collect();
        // Two deep entries of an older search, then two shallow ones of this search.
        tt.store(keys[0], 12, 0, Bound::Exact, 0);
        tt.store(keys[1], 6, 0, Bound::Exact, 0);
        tt.new_search(true);
        tt.new_search(true);
        tt.store(keys[2], 3, 0, Bound::Exact, 0);
        tt.store(keys[3], 4, 0, Bound::Exact, 0);
        // Two searches old, the depth-6 entry is worth 6 - 8 < 3: replaced first; the depth-12
        // one (worth 4) outlives the fresh depth-3 one.
        tt.store(keys[4], 5, 0, Bound::Exact, 0);
        assert!(tt.probe(keys[1]).is_none());
        tt.store(keys[5], 5, 0, Bound::Exact, 0);
        assert!(tt.probe(keys[2]).is_none());
        for &k in &[keys[0], keys[3], keys[4], keys[5]] {
            assert!(tt.probe(k).is_some());
        }
    }

    #[test]
    fn bucket_keeps_deeper_entries() {
        let tt = TranspositionTable::new(1, 1);
        // Five keys of one bucket: the shallowest of the first four is replaced by the fifth.
        let keys: Vec<u64> = (1..=5u64).map(|k| k << 32 | 7).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, 10 - i as u32, i as i32, Bound::Exact, 0);
        }
        tt.store(keys[4], 20, 4, Bound::Exact, 0);
        assert!(tt.probe(keys[3]).is_none());
        for &k in &[keys[0], keys[1], keys[2], keys[4]] {
            assert!(tt.probe(k).is_some());
        }
    }

    #[test]
    fn size_stays_within_budget() {
        for mb in [1, 2, 3, 16, 100] {
            let tt = TranspositionTable::new(mb, 2);
            assert!(
                tt.bytes() <= mb << 20,
                "{mb} MB table takes {} bytes",
                tt.bytes()
            );
            assert!(
                tt.bytes() * 2 > mb << 20,
                "{mb} MB table wastes more than half"
            );
            assert_eq!(std::mem::size_of::<Bucket>(), 64);
        }
    }

    #[test]
    fn mate_scores_are_node_relative() {
        // A win 5 plies below the root, found at a node 3 plies below it: 2 plies from that node.
        let root_relative = MATE - 5;
        let stored = to_tt(root_relative, 3);
        assert_eq!(stored, MATE - 2);
        // Met again 7 plies below the root: the win is 9 plies from the root.
        assert_eq!(from_tt(stored, 7), MATE - 9);
        assert_eq!(from_tt(to_tt(-(MATE - 6), 4), 1), -(MATE - 3));
        assert_eq!(from_tt(to_tt(123, 4), 9), 123);
    }
}
