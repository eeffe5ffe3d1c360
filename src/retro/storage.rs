//! Where a solved table's bytes live: built here, in memory ([`Buffer`]s, one per section), or
//! in a verified, memory-mapped table file ([`TableFile`]) whose payload holds the same sections
//! one after the other. A solver reads both the same way, as sections of bytes.

use std::ops::Range;

use memmap2::MmapMut;

use super::file::{TableError, TableFile};

/// Memory of a solver, zeroed or taken over from a vector. Zeroed memory is asked for in huge
/// pages: the retrograde passes read it at random, and with 4 KiB pages nearly every such read
/// would also miss the address translation cache.
pub struct Buffer(Repr);

enum Repr {
    Empty,
    Mapped(MmapMut),
    Bytes(Vec<u8>),
    /// Little-endian words (converted in place on a big-endian machine), read as their bytes.
    Words(Vec<u64>),
}

impl Buffer {
    /// `len` zero bytes.
    ///
    /// # Panics
    /// When the memory cannot be had (as a `Vec` would abort).
    pub fn zeroed(len: usize) -> Buffer {
        if len == 0 {
            return Buffer(Repr::Empty);
        }
        let map = MmapMut::map_anon(len).unwrap_or_else(|e| panic!("{len} bytes of memory: {e}"));
        #[cfg(target_os = "linux")]
        // Only advice: without huge pages the passes are slower, not wrong.
        let _ = map.advise(memmap2::Advice::HugePage);
        Buffer(Repr::Mapped(map))
    }

    /// Gives the memory of the bytes of `range` back to the system, where whole blocks of 64
    /// KiB of it allow (a zeroed buffer on Linux only; the others keep theirs): for a pass done
    /// with part of a buffer long before the whole. The buffer keeps its length; the bytes given
    /// back read as 0 after, the others are kept.
    ///
    /// # Panics
    /// If `range` is not within the buffer.
    pub fn release(&mut self, range: Range<usize>) {
        assert!(range.start <= range.end && range.end <= self.len());
        #[cfg(target_os = "linux")]
        if let Repr::Mapped(map) = &self.0 {
            // A multiple of every page size Linux runs with (4, 16 and 64 KiB), so that the
            // advice, which takes whole pages, stays within the range.
            const PAGE: usize = 64 << 10;
            let base = map.as_ptr() as usize;
            let start = (base + range.start).next_multiple_of(PAGE) - base;
            let end = ((base + range.end) / PAGE * PAGE).saturating_sub(base);
            if start < end {
                // SAFETY: the exclusive borrow of the buffer means no view of these bytes lives;
                // after MADV_DONTNEED a private anonymous mapping's pages read as zeros, which
                // are valid bytes. Only advice: on an error the memory stays as it was.
                let _ = unsafe {
                    map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        start,
                        end - start,
                    )
                };
            }
        }
    }

    /// The words' bytes in little-endian order (a table file's), without a copy on a
    /// little-endian machine.
    pub fn from_words(mut words: Vec<u64>) -> Buffer {
        if cfg!(target_endian = "big") {
            for w in &mut words {
                *w = w.to_le();
            }
        }
        Buffer(Repr::Words(words))
    }
}

impl From<Vec<u8>> for Buffer {
    fn from(bytes: Vec<u8>) -> Buffer {
        Buffer(Repr::Bytes(bytes))
    }
}

impl std::ops::Deref for Buffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Repr::Empty => &[],
            Repr::Mapped(m) => m,
            Repr::Bytes(v) => v,
            // SAFETY: any u64 is 8 valid bytes, and u8 needs no alignment.
            Repr::Words(w) => unsafe {
                std::slice::from_raw_parts(w.as_ptr().cast::<u8>(), w.len() * 8)
            },
        }
    }
}

impl std::ops::DerefMut for Buffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Repr::Empty => &mut [],
            Repr::Mapped(m) => m,
            Repr::Bytes(v) => v,
            // SAFETY: as for `deref`; any 8 bytes are a valid u64, and the exclusive borrow of
            // the words is held as long as the bytes'.
            Repr::Words(w) => unsafe {
                std::slice::from_raw_parts_mut(w.as_mut_ptr().cast::<u8>(), w.len() * 8)
            },
        }
    }
}

/// A solved table's sections of bytes, owned or mapped.
pub struct Storage(Backing);

enum Backing {
    Owned(Vec<Buffer>),
    Mapped {
        file: TableFile,
        sections: Vec<Range<usize>>,
    },
}

impl Storage {
    /// Sections built in memory.
    pub fn owned(sections: Vec<Buffer>) -> Storage {
        Storage(Backing::Owned(sections))
    }

    /// The payload of `file` cut into sections of `lens` bytes, one after the other.
    ///
    /// # Panics
    /// If the lengths do not add up to the payload's (the solver checks the header's counts
    /// against the payload before).
    pub fn mapped(file: TableFile, lens: &[usize]) -> Storage {
        let mut at = 0;
        let sections = lens
            .iter()
            .map(|&len| {
                at += len;
                at - len..at
            })
            .collect();
        assert_eq!(at, file.payload().len(), "the sections make the payload");
        Storage(Backing::Mapped { file, sections })
    }

    /// Section `i`.
    ///
    /// # Panics
    /// If there is no section `i`.
    #[inline]
    pub fn section(&self, i: usize) -> &[u8] {
        match &self.0 {
            Backing::Owned(buffers) => &buffers[i],
            Backing::Mapped { file, sections } => &file.payload()[sections[i].clone()],
        }
    }

    /// The number of sections.
    pub fn sections(&self) -> usize {
        match &self.0 {
            Backing::Owned(buffers) => buffers.len(),
            Backing::Mapped { sections, .. } => sections.len(),
        }
    }

    /// The sections, when they were built here (a table from a file is not written again);
    /// `None` when mapped.
    pub fn owned_sections(&self) -> Option<Vec<&[u8]>> {
        match &self.0 {
            Backing::Owned(buffers) => Some(buffers.iter().map(|b| &b[..]).collect()),
            Backing::Mapped { .. } => None,
        }
    }

    /// Lets the operating system take back the memory of a mapped table's pages read so far
    /// ([`TableFile::release`]); nothing for a table in memory.
    pub fn release(&self) {
        if let Backing::Mapped { file, .. } = &self.0 {
            file.release();
        }
    }

    /// Whether the table's file still has the length it was mapped with (see
    /// [`TableFile::check_length`]); always for a table in memory.
    ///
    /// # Errors
    /// [`TableError::Truncated`] for a file that shrank since it was mapped, [`TableError::Io`]
    /// when its length cannot be read.
    pub fn check_length(&self) -> Result<(), TableError> {
        match &self.0 {
            Backing::Owned(_) => Ok(()),
            Backing::Mapped { file, .. } => file.check_length(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Buffer;

    #[cfg(target_os = "linux")]
    #[test]
    fn released_blocks_read_as_zero_and_the_rest_is_kept() {
        const K: usize = 64 << 10;
        let mut b = Buffer::zeroed(6 * K);
        b.fill(7);
        let range = K - 100..4 * K + 100;
        b.release(range.clone());
        // The whole blocks of 64 KiB (of the address space) within the range, at least two.
        let base = b.as_ptr() as usize;
        let lo = (base + range.start).next_multiple_of(K) - base;
        let hi = (base + range.end) / K * K - base;
        assert!(hi - lo >= 2 * K);
        assert!(b[lo..hi].iter().all(|&x| x == 0));
        assert!(b[..lo].iter().chain(&b[hi..]).all(|&x| x == 7));
        assert_eq!(b.len(), 6 * K);
        // A buffer taken over from a vector keeps its bytes.
        let mut v = Buffer::from(vec![3u8; 3 * K]);
        v.release(0..3 * K);
        assert!(v.iter().all(|&x| x == 3));
    }
}
