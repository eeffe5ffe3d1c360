//! The state word of a position while its layer is built (its bounds' state bytes, its counts of
//! moves, its best exit's distance), how its bytes encode values, and the chunks of a layer the
//! passes take as tasks.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Positions per task of a pass.
pub(super) const CHUNK: u64 = 1 << 15;

/// The distance byte of a position without a distance.
pub const NO_DISTANCE: u8 = 255;

/// `1 + d` for a child at distance `d`, [`NO_DISTANCE`] when it has none or the sum does not
/// fit.
#[inline]
pub(super) fn distance_after(d: u8) -> u8 {
    if d >= NO_DISTANCE - 1 {
        NO_DISTANCE
    } else {
        d + 1
    }
}

/// The state byte of a value while building: the value plus 64 (so 16..=112), with
/// [`ASSIGNED`] set once the position has joined its set (before, it holds the best exit).
#[inline]
pub(super) fn enc(v: i32) -> u8 {
    (v + 64) as u8
}

#[inline]
pub(super) fn dec(b: u8) -> i32 {
    (b & !ASSIGNED) as i32 - 64
}

pub(super) const ASSIGNED: u8 = 0x80;

/// The value of a state byte once assigned ([`ASSIGNED`]), `unset` before.
#[inline]
pub(super) fn bound(b: u8, unset: i32) -> i32 {
    if b & ASSIGNED != 0 {
        dec(b)
    } else {
        unset
    }
}

/// The state of a position while its layer is built, one word: byte 0 the lower bound's state
/// byte (see [`enc`]), byte [`high_shift`]` / 8` the upper bound's (the same byte where values are
/// exact), bits 16-19 the moves that stay in the layer and do not lead into `W` yet (the cycle
/// pass: into `R`), bits 20-23 the moves that stay in the layer (for the cycle pass), byte 3 the
/// distance of the best exit for the lower bound ([`exit_distance`], read by the distance pass).
pub(super) const COUNT_SHIFT: u32 = 16;

/// The count's bits, shifted down.
pub(super) const COUNT_MASK: u32 = 0xF;

/// Where the moves that stay in the layer are kept, the count's starting value.
pub(super) const INSIDE_SHIFT: u32 = 20;

/// The count of moves in a state word.
#[inline]
pub(super) fn count(s: u32) -> u32 {
    (s >> COUNT_SHIFT) & COUNT_MASK
}

/// Where the best exit's distance is in a state word.
pub(super) const EXIT_DISTANCE_SHIFT: u32 = 24;

/// Where the upper bound's byte is in a state word: byte 0 under awari (one exact value),
/// byte 1 under abapa.
pub(super) fn high_shift(exact: bool) -> u32 {
    if exact {
        0
    } else {
        8
    }
}

/// Sets the state byte at `shift` to `ASSIGNED | value` if it is not assigned yet and `ok` holds
/// for it; whether this call set it.
#[inline]
pub(super) fn assign(state: &AtomicU32, shift: u32, value: i32, ok: impl Fn(u8) -> bool) -> bool {
    let mut s = state.load(Relaxed);
    loop {
        let b = (s >> shift) as u8;
        if b & ASSIGNED != 0 || !ok(b) {
            return false;
        }
        let new = (s & !(0xFF << shift)) | ((ASSIGNED | enc(value)) as u32) << shift;
        match state.compare_exchange_weak(s, new, Relaxed, Relaxed) {
            Ok(_) => return true,
            Err(now) => s = now,
        }
    }
}
