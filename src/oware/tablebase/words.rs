//! Views of a layer's byte buffers as atomic words, for the passes that share them between
//! threads, and the scans that look for given bytes eight at a time.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

/// The bytes as atomic words of four (the length must be a multiple of 4, the start aligned to
/// 4, as a [`Buffer::zeroed`] mapping is; empty bytes give no word).
pub(super) fn words(bytes: &mut [u8]) -> &[AtomicU32] {
    if bytes.is_empty() {
        return &[];
    }
    assert!(bytes.len().is_multiple_of(4) && (bytes.as_ptr() as usize).is_multiple_of(4));
    // SAFETY: the start is aligned, the length is a multiple of 4, any bits are a valid
    // AtomicU32, and the exclusive borrow is held as long as the view lives.
    unsafe { std::slice::from_raw_parts(bytes.as_mut_ptr().cast::<AtomicU32>(), bytes.len() / 4) }
}

/// The bytes as atomic words of eight (the length must be a multiple of 8, the start aligned to
/// 8, as a [`Buffer::zeroed`] mapping is): the cycle pass's join thresholds, scanned eight at a
/// time while other threads lower some of them.
pub(super) fn words64(bytes: &mut [u8]) -> &[AtomicU64] {
    if bytes.is_empty() {
        return &[];
    }
    assert!(bytes.len().is_multiple_of(8) && (bytes.as_ptr() as usize).is_multiple_of(8));
    // SAFETY: as for `words`, with 8 for 4.
    unsafe { std::slice::from_raw_parts(bytes.as_mut_ptr().cast::<AtomicU64>(), bytes.len() / 8) }
}

/// The bytes as atomic words of two (the length even, the start aligned to 2): the distance
/// pass's scratch words.
pub(super) fn words16(bytes: &mut [u8]) -> &[AtomicU16] {
    if bytes.is_empty() {
        return &[];
    }
    assert!(bytes.len().is_multiple_of(2) && (bytes.as_ptr() as usize).is_multiple_of(2));
    // SAFETY: as for `words`, with 2 for 4.
    unsafe { std::slice::from_raw_parts(bytes.as_mut_ptr().cast::<AtomicU16>(), bytes.len() / 2) }
}

/// Where byte `k` (0-7) of a word of eight bytes in memory is in the word's value.
#[inline]
pub(super) fn byte_shift(k: usize) -> u32 {
    if cfg!(target_endian = "little") {
        8 * k as u32
    } else {
        8 * (7 - k as u32)
    }
}

/// Lowers byte `i` of `words` to `v` if it is above.
#[inline]
pub(super) fn lower_byte(words: &[AtomicU64], i: usize, v: u8) {
    let sh = byte_shift(i % 8);
    let _ = words[i / 8].fetch_update(Relaxed, Relaxed, |w| {
        ((w >> sh) as u8 > v).then_some((w & !(0xFF << sh)) | (v as u64) << sh)
    });
}

/// Calls `f` with every `i` in `lo..hi` whose byte in `words` is `x` (`lo` a multiple of 8).
#[inline]
pub(super) fn find_in_words(
    words: &[AtomicU64],
    lo: usize,
    hi: usize,
    x: u8,
    mut f: impl FnMut(usize),
) {
    for (k, word) in words[lo / 8..hi.div_ceil(8)].iter().enumerate() {
        let w = word.load(Relaxed);
        if !has_byte(w, x) {
            continue;
        }
        for j in 0..8 {
            let i = lo + 8 * k + j;
            if i < hi && (w >> byte_shift(j)) as u8 == x {
                f(i);
            }
        }
    }
}

/// The bytes as atomics, for the passes that share them between threads.
pub(super) fn atomics(v: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and the exclusive borrow
    // of `v` is held for as long as the atomic view lives.
    unsafe { &*(v as *mut [u8] as *const [AtomicU8]) }
}

/// Whether one of the eight bytes of `w` is `x` (the bit trick of a zero byte in `w ^ x...x`).
#[inline]
pub(super) fn has_byte(w: u64, x: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let y = w ^ (ONES * x as u64);
    y.wrapping_sub(ONES) & !y & HIGH != 0
}

/// Calls `f` with the offset of every byte of `bytes` equal to `a` or to `b`, eight bytes at a
/// time (most words hold neither).
#[inline]
pub(super) fn find_bytes(bytes: &[u8], a: u8, b: u8, mut f: impl FnMut(usize)) {
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut words {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        if has_byte(w, a) || has_byte(w, b) {
            for (j, &x) in chunk.iter().enumerate() {
                if x == a || x == b {
                    f(at + j);
                }
            }
        }
        at += 8;
    }
    for (j, &x) in words.remainder().iter().enumerate() {
        if x == a || x == b {
            f(at + j);
        }
    }
}
