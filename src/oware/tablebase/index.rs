//! The index of a layer: a combinatorial rank of the twelve houses of the positions with `n`
//! seeds on the board (the side to move's row first), dense in `0..C(n + 11, 11)`.
//!
//! A position is a composition of `n` into twelve parts `h0..h11`; with the prefix sums
//! `s_k = h0 + ... + hk`, the numbers `b_k = s_k + k` (`k` = 0..10) are eleven distinct numbers
//! below `n + 11` (the "bars" between the seeds), and the rank is their place in the
//! combinatorial number system, `sum C(b_k, k + 1)`. Indices are 64-bit: layers of 32 seeds and
//! more have over 2^32 positions.
//!
//! The build's layers hold only the positions that can follow a move, ranked by
//! [`super::reachable`], which ranks the rows as compositions the same way
//! (`unrank_parts`, `next_parts`).

/// The most seeds a layer can have.
pub const MAX_SEEDS: u32 = 48;

/// `CHOOSE[a][b]` = C(a, b), for a up to 60 and b up to 12.
pub(super) const CHOOSE: [[u64; 13]; 61] = {
    let mut c = [[0u64; 13]; 61];
    let mut a = 0;
    while a < 61 {
        c[a][0] = 1;
        let mut b = 1;
        while b < 13 && b <= a {
            c[a][b] = c[a - 1][b - 1] + if b < a { c[a - 1][b] } else { 0 };
            b += 1;
        }
        a += 1;
    }
    c
};

/// `TERM[k][s]` = C(s + k, k + 1): the term of house `k` when the first `k + 1` houses hold `s`.
pub(super) const TERM: [[u64; 49]; 11] = {
    let mut t = [[0u64; 49]; 11];
    let mut k = 0;
    while k < 11 {
        let mut s = 0;
        while s < 49 {
            t[k][s] = CHOOSE[s + k][k + 1];
            s += 1;
        }
        k += 1;
    }
    t
};

/// The number of positions with `n` seeds on the board: C(n + 11, 11).
///
/// # Panics
/// If `n` is above [`MAX_SEEDS`].
pub fn layer_len(n: u32) -> u64 {
    assert!(n <= MAX_SEEDS, "at most {MAX_SEEDS} seeds");
    CHOOSE[n as usize + 11][11]
}

/// The number of positions with at most `n` seeds: C(n + 12, 12).
pub fn total_len(n: u32) -> u64 {
    assert!(n <= MAX_SEEDS, "at most {MAX_SEEDS} seeds");
    CHOOSE[n as usize + 12][12]
}

/// The houses of a word (its low twelve bytes).
#[inline]
pub fn houses(word: u128) -> [u8; 12] {
    let mut h = [0u8; 12];
    h.copy_from_slice(&word.to_le_bytes()[..12]);
    h
}

/// The word of twelve houses.
#[inline]
pub fn word(houses: &[u8; 12]) -> u128 {
    let mut b = [0u8; 16];
    b[..12].copy_from_slice(houses);
    u128::from_le_bytes(b)
}

/// The seeds of a word of houses.
#[inline]
pub fn seeds(word: u128) -> u32 {
    houses(word).iter().map(|&h| h as u32).sum()
}

/// The rank of a position (a word of twelve houses, at most [`MAX_SEEDS`] seeds) within its
/// layer.
#[inline]
pub fn rank(word: u128) -> u64 {
    let h = word.to_le_bytes();
    let mut s = 0usize;
    let mut r = 0u64;
    for (k, term) in TERM.iter().enumerate() {
        s += h[k] as usize;
        r += term[s];
    }
    r
}

/// The position of rank `r` in the layer of `n` seeds, as a word of twelve houses.
///
/// # Panics
/// If `r` is not below [`layer_len`]`(n)`.
pub fn unrank(r: u64, n: u32) -> u128 {
    assert!(r < layer_len(n), "rank {r} outside the layer of {n} seeds");
    let mut h = [0u8; 12];
    unrank_parts(r, n, &mut h);
    word(&h)
}

/// Fills `parts` (2 to 12 of them) with the composition of `total` of rank `r` in the scheme
/// above (over `parts.len() - 1` bars): the parts with prefix sums `s_k` whose
/// `sum C(s_k + k, k + 1)` is `r`. `r` must be below C(total + parts - 1, parts - 1), and
/// `total + parts - 1` at most 60.
#[inline]
pub(super) fn unrank_parts(mut r: u64, total: u32, parts: &mut [u8]) {
    let bars = parts.len() - 1;
    // b_k for k = bars - 1 down to 0, each below the one after it (b_bars = total + bars).
    let mut above = total as usize + bars;
    let mut sums = [0usize; 11];
    for k in (0..bars).rev() {
        let mut b = above - 1;
        while CHOOSE[b][k + 1] > r {
            b -= 1;
        }
        r -= CHOOSE[b][k + 1];
        sums[k] = b - k;
        above = b;
    }
    let mut before = 0;
    for k in 0..bars {
        parts[k] = (sums[k] - before) as u8;
        before = sums[k];
    }
    parts[bars] = (total as usize - before) as u8;
}

/// The position after `h` in rank order (rank + 1), in place; false (and `h` unchanged) for the
/// last of its layer.
#[inline]
pub fn next(h: &mut [u8; 12]) -> bool {
    next_parts(h)
}

/// The composition after `parts` (of the same total, in as many parts) in rank order, in place;
/// false (and `parts` unchanged) for the last one, where every seed is in the first part.
#[inline]
pub(super) fn next_parts(parts: &mut [u8]) -> bool {
    // The smallest bar that can move up is b_{j-1} for the first part j >= 1 holding seeds:
    // it moves up by one and the bars below it drop to the bottom.
    let Some(j) = (1..parts.len()).find(|&j| parts[j] > 0) else {
        return false;
    };
    let s: u8 = parts[..j].iter().sum();
    parts[..j].fill(0);
    parts[j - 1] = s + 1;
    parts[j] -= 1;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_up_along_next() {
        for n in 0..5 {
            let mut h = houses(unrank(0, n));
            let mut r = 0;
            loop {
                assert_eq!(rank(word(&h)), r);
                assert_eq!(unrank(r, n), word(&h));
                assert_eq!(h.iter().map(|&x| x as u32).sum::<u32>(), n);
                r += 1;
                if !next(&mut h) {
                    break;
                }
            }
            assert_eq!(r, layer_len(n));
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(layer_len(0), 1);
        assert_eq!(layer_len(1), 12);
        assert_eq!(total_len(24), 1_251_677_700);
        assert_eq!(layer_len(48), 279_871_768_995);
        // Above 2^32 from 32 seeds on.
        assert!(layer_len(31) < 1 << 32 && layer_len(32) > 1 << 32);
    }
}
