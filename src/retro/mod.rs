//! What the retrograde analyses share: the table file (header, checksum, written whole or not at
//! all, verified and memory-mapped on load), and the cache prefetch of their random accesses.

pub mod file;

/// Hints the processor to fetch the cache line of `r`.
#[inline(always)]
pub(crate) fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((r as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}
