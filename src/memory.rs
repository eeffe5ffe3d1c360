//! Memory hints shared by the search and the retrograde passes.

/// Hints the processor to fetch the cache line at `p` (a reference coerces), so that a read a
/// little later finds it in cache: the retrograde passes and the search read far more memory than the
/// caches hold, and a miss costs as much as the work on a position. Does nothing off x86-64.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing, changes no memory and cannot fault,
    // whatever the address. SSE (which has the instruction) is part of x86-64.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
