//! Rank over a bitset: how many bits are set before a given one, by a count per word.

/// Cumulative counts of set bits before each word of a bitset (the bitset itself is kept by the
/// caller, in memory or in a mapped file).
pub struct Rank {
    before: Vec<u32>,
}

impl Rank {
    /// Builds the counts for `words` words, read through `word`.
    ///
    /// # Panics
    /// If more than `u32::MAX` bits are set.
    pub fn new(words: usize, word: impl Fn(usize) -> u64) -> Rank {
        let mut before = Vec::with_capacity(words + 1);
        let mut total = 0u64;
        for w in 0..words {
            before.push(u32::try_from(total).expect("rank fits 32 bits"));
            total += word(w).count_ones() as u64;
        }
        before.push(u32::try_from(total).expect("rank fits 32 bits"));
        Rank { before }
    }

    /// The number of set bits.
    pub fn count(&self) -> u64 {
        *self.before.last().unwrap_or(&0) as u64
    }

    /// The number of set bits in the words before word `w` (`w` up to the number of words).
    #[inline]
    pub fn before_word(&self, w: usize) -> u64 {
        self.before[w] as u64
    }

    /// Hints the processor to fetch the count of word `w`.
    #[inline]
    pub fn prefetch(&self, w: usize) {
        crate::retro::prefetch(self.before.as_ptr().wrapping_add(w));
    }

    /// The rank of bit `i`, given its word `word` (the number of set bits before it).
    #[inline]
    pub fn rank(&self, word: u64, i: u64) -> u64 {
        let below = word & ((1u64 << (i % 64)) - 1);
        self.before[(i / 64) as usize] as u64 + below.count_ones() as u64
    }
}
