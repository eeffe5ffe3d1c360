//! When a search stops: explicit limits from `go`, strength levels, and the shared stop control.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Limits from a `go` command. Several may be combined; the search stops at the first reached.
/// Only `movetime` (and `stop`) depend on the clock, so only they make a search irreproducible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget: an iteration that would exceed it is abandoned and the previous one's move
    /// is played.
    pub nodes: Option<u64>,
    /// Wall-clock budget (not reproducible).
    pub movetime: Option<Duration>,
    /// Search until stopped; the level's caps do not apply.
    pub infinite: bool,
}

impl Limits {
    /// Whether no explicit limit was given (plain `go`: the level decides).
    pub fn is_empty(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.movetime.is_none() && !self.infinite
    }
}

/// A strength level: 1 (weakest) to 5, and 6 for full strength.
///
/// | level | depth | nodes | second-best move | third-best move |
/// |---|---|---|---|---|
/// | 1 | 1 | 500 | 25 in 100 | 10 in 100 |
/// | 2 | 3 | 4,000 | 25 in 100 | 10 in 100 |
/// | 3 | 5 | 20,000 | never | never |
/// | 4 | 8 | 120,000 | never | never |
/// | 5 | 11 | 400,000 | never | never |
/// | 6 | no cap | 4,000,000 | never | never |
///
/// The caps bound every search (together with the `go` limits) except `go infinite`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: u8 = 1;
    /// Full strength.
    pub const FULL: u8 = 6;

    /// A level from its number, clamped to 1..=6.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(Self::MIN, Self::FULL))
    }
    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }
    /// Depth cap in plies (`None` at full strength).
    pub fn max_depth(self) -> Option<u32> {
        match self.0 {
            1 => Some(1),
            2 => Some(3),
            3 => Some(5),
            4 => Some(8),
            5 => Some(11),
            _ => None,
        }
    }
    /// Node cap.
    pub fn max_nodes(self) -> u64 {
        match self.0 {
            1 => 500,
            2 => 4_000,
            3 => 20_000,
            4 => 120_000,
            5 => 400_000,
            _ => 4_000_000,
        }
    }
    /// Chances, in 100, of playing the second-best and the third-best move.
    pub fn weaker_move_chances(self) -> (u32, u32) {
        if self.0 <= 2 {
            (25, 10)
        } else {
            (0, 0)
        }
    }
}

impl Default for Level {
    /// Full strength.
    fn default() -> Self {
        Level(Self::FULL)
    }
}

/// Shared between the thread running a search and the one that may stop it: the `stop` flag, and
/// pondering (while pondering `movetime` does not run; `ponderhit` starts its clock).
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock_start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control::new(false)
    }
}

impl Control {
    /// A fresh control; `pondering` for `go ponder`.
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            clock_start: Mutex::new(Instant::now()),
        }
    }
    /// Asks the search to stop as soon as possible (it returns the last completed iteration's move).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the pondered move: from now on the search runs under its limits, and
    /// `movetime` counts from now.
    pub fn ponderhit(&self) {
        if let Ok(mut start) = self.clock_start.lock() {
            *start = Instant::now();
        }
        self.pondering.store(false, Ordering::Relaxed);
    }
    /// Whether the search is pondering.
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
    /// Time since the search's clock started (the `go`, or the `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        self.clock_start
            .lock()
            .map(|s| s.elapsed())
            .unwrap_or_default()
    }
}
