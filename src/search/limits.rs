//! When a search stops: explicit limits from `go`, strength levels, and the shared stop control.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Limits from a `go` command. Several may be combined; the search stops at the first reached.
/// Only `movetime`, the game clock (and `stop`) depend on the clock, so only they make a search
/// irreproducible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget: an iteration that would exceed it is abandoned and the previous one's move
    /// is played.
    pub nodes: Option<u64>,
    /// Wall-clock budget (not reproducible).
    pub movetime: Option<Duration>,
    /// The game clock (`wtime`, `btime`, `winc`, `binc`, `movestogo`): the search takes the share
    /// [`TimeBudget::from_clock`] gives the side to move (not reproducible).
    pub clock: Option<Clock>,
    /// Search until stopped; the level's caps do not apply.
    pub infinite: bool,
}

impl Limits {
    /// Whether no explicit limit was given (plain `go`: the level decides).
    pub fn is_empty(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.clock.is_none()
            && !self.infinite
    }

    /// Whether the search's result may depend on the wall clock or on when it is stopped
    /// (`movetime`, a game clock, `infinite`): such a search is not reproducible anyway, so it
    /// uses what earlier searches left in the transposition table. Searches limited only by nodes
    /// and depth are reproducible and ignore it (pondering, which depends on `stop` too, is
    /// decided by the [`Control`]).
    pub fn depends_on_time(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some() || self.infinite
    }
}

/// A game clock as `go` gives it, each pair indexed by [`crate::game::Player::index`] (UCI's `w`
/// is the first player: Oware's South, Dobutsu's Sente).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on each player's clock, in milliseconds (`wtime`, `btime`); negative once a clock
    /// has run out; `None` when not given.
    pub time_ms: [Option<i64>; 2],
    /// Increment of each player per move, in milliseconds (`winc`, `binc`; 0 when not given),
    /// added after the move.
    pub increment_ms: [u64; 2],
    /// Moves of the side to move until the next time control (`movestogo`); `None`: the rest of
    /// the game.
    pub moves_to_go: Option<u32>,
    /// Time kept back on every move for what the search does not see: the GUI's and the
    /// operating system's delays (the `MoveOverhead` option), in milliseconds.
    pub overhead_ms: u64,
}

impl Clock {
    /// The budget of the player with index `player` (0 or 1) from this clock; `None` when the
    /// clock does not give that player's time.
    pub fn budget_for(&self, player: usize) -> Option<TimeBudget> {
        let left = (*self.time_ms.get(player)?)?;
        let increment = self.increment_ms.get(player).copied().unwrap_or(0);
        Some(TimeBudget::from_clock(
            left,
            increment,
            self.moves_to_go,
            self.overhead_ms,
        ))
    }
}

/// How long a search under a game clock may take: no iteration of iterative deepening starts
/// after the soft limit (scaled up when the best move changes or the score drops,
/// [`TimeBudget::soft_limit`]), and the search is cut at the hard limit. Both are at most the
/// time left on the clock less the overhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The time after which no new iteration starts when the search is stable.
    pub soft: Duration,
    /// The time at which the search stops in the middle of an iteration.
    pub hard: Duration,
}

/// Moves of the side to move assumed left in the game when `movestogo` is not given (an Oware or
/// Dobutsu game at these speeds lasts 30 to 80 moves a side; the shares shrink as the clock does,
/// so the guess need not be right).
pub const MOVES_LEFT_GUESS: u32 = 30;
/// The hard limit is at most this many times the move's share...
const HARD_PER_SHARE: u64 = 3;
/// ...and at most the time left divided by this (or by `movestogo` when smaller): a move never
/// takes more than a third of the clock unless the control ends with it.
const HARD_CLOCK_DIVISOR: u64 = 3;
/// The soft limit, in tenths of the move's share: an iteration that starts just before it ends,
/// as the next is two to three times longer, well after it, so the move takes about its share.
const SOFT_TENTHS: u64 = 6;

impl TimeBudget {
    /// The budget for a move with `left_ms` on the clock (negative when it has run out),
    /// `increment_ms` added after the move, `moves_to_go` moves to the next control (`None`: the
    /// rest of the game, [`MOVES_LEFT_GUESS`] assumed) and `overhead_ms` kept back.
    ///
    /// The move's share is the usable time (`left - overhead`) divided by the moves to go, plus
    /// the increment; the hard limit is three shares, at most a third of the usable time (all of
    /// it when this is the last move before the control, half for the last two); the soft limit
    /// is 0.6 of a share, at most the hard limit. With nothing usable left both are 0: the search
    /// does its first iteration only.
    pub fn from_clock(
        left_ms: i64,
        increment_ms: u64,
        moves_to_go: Option<u32>,
        overhead_ms: u64,
    ) -> TimeBudget {
        let usable = u64::try_from(left_ms)
            .unwrap_or(0)
            .saturating_sub(overhead_ms);
        let moves = u64::from(
            moves_to_go
                .unwrap_or(MOVES_LEFT_GUESS)
                .clamp(1, MOVES_LEFT_GUESS),
        );
        let share = (usable / moves).saturating_add(increment_ms);
        let hard =
            (share.saturating_mul(HARD_PER_SHARE)).min(usable / moves.min(HARD_CLOCK_DIVISOR));
        let soft = (share.saturating_mul(SOFT_TENTHS) / 10).min(hard);
        TimeBudget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
        }
    }

    /// The soft limit after an iteration: the plain one, times up to 2 when the best move has
    /// been changing (`instability`: each iteration halves it and a change of the best move adds
    /// 1, so it stays below 2; the factor is `1 + instability / 2`), times up to 1.5 when the
    /// score has dropped since the previous iteration (`score_drop`, in the search's units, 100
    /// a seed or a Chick: half a unit of factor per 100, up to 100); never above the hard limit.
    pub fn soft_limit(&self, instability: f64, score_drop: i32) -> Duration {
        let unstable = 1.0 + instability.clamp(0.0, 2.0) / 2.0;
        let falling = 1.0 + f64::from(score_drop.clamp(0, 100)) / 200.0;
        self.soft.mul_f64(unstable * falling).min(self.hard)
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
    /// The nodes searched so far, as the search last reported them ([`Control::nodes`]).
    nodes: AtomicU64,
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
            nodes: AtomicU64::new(0),
        }
    }
    /// Asks the search to stop as soon as possible (it returns the last completed iteration's move).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// The nodes the search has searched so far, all threads together, as it last said: every
    /// thousand nodes or so after its first iteration, so that a front end can show the count
    /// between two iterations' reports (0 before).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
    /// Says that `nodes` have been searched (the count only grows: threads that say it at
    /// different moments do not take it back).
    pub(crate) fn report_nodes(&self, nodes: u64) {
        self.nodes.fetch_max(nodes, Ordering::Relaxed);
    }
    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the pondered move: from now on the search runs under its limits, and
    /// `movetime` counts from now.
    pub fn ponderhit(&self) {
        self.restart_clock();
        self.pondering.store(false, Ordering::Relaxed);
    }
    /// Starts the search's clock again from now: for a search that waited before it began
    /// (`movetime` and [`Control::elapsed`] then count from here).
    pub fn restart_clock(&self) {
        if let Ok(mut start) = self.clock_start.lock() {
            *start = Instant::now();
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(soft: u64, hard: u64) -> TimeBudget {
        TimeBudget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
        }
    }

    #[test]
    fn sudden_death_takes_a_share_of_the_clock() {
        // 10 s + 0.1 s, overhead 30: share 9970/30 + 100 = 432; hard 3 shares; soft 0.6 share.
        assert_eq!(TimeBudget::from_clock(10_000, 100, None, 30), ms(259, 1296));
        // Without increment, 1 s left: share 32, hard 96, soft 19.
        assert_eq!(TimeBudget::from_clock(1_000, 0, None, 30), ms(19, 96));
        // The share shrinks with the clock: a game never runs out of time by the shares alone.
        let mut left = 10_000i64;
        for _ in 0..200 {
            let b = TimeBudget::from_clock(left, 0, None, 30);
            assert!(b.hard.as_millis() as i64 <= (left - 30).max(0) / 3);
            left -= b.hard.as_millis() as i64;
        }
        assert!(
            left > 30,
            "{left} ms left after 200 moves at the hard limit"
        );
    }

    #[test]
    fn the_clock_is_never_exceeded() {
        // A large increment with little left: the increment comes after the move, so the move
        // may take only what is on the clock (a third of it).
        assert_eq!(TimeBudget::from_clock(300, 5_000, None, 30), ms(90, 90));
        // Nothing usable: the first iteration only.
        for left in [-500, 0, 10, 30] {
            assert_eq!(TimeBudget::from_clock(left, 100, None, 30), ms(0, 0));
        }
        for (left, inc, mtg, overhead) in [
            (1, 0, None, 0),
            (50, 1_000, Some(1), 10),
            (60_000, 0, Some(1), 100),
            (123_456, 789, Some(7), 0),
            (i64::MAX, u64::MAX, None, 0),
        ] {
            let b = TimeBudget::from_clock(left, inc, mtg, overhead);
            let usable = Duration::from_millis((left.max(0) as u64).saturating_sub(overhead));
            assert!(b.soft <= b.hard && b.hard <= usable, "{b:?} for {left} ms");
            assert!(b.soft_limit(2.0, 1_000) <= b.hard);
        }
    }

    #[test]
    fn moves_to_go_divides_the_clock() {
        // The last move before the control may use all of it but the overhead...
        assert_eq!(
            TimeBudget::from_clock(1_030, 0, Some(1), 30),
            ms(600, 1_000)
        );
        // ...the last two half of it; beyond the guess, the guess counts.
        assert_eq!(TimeBudget::from_clock(1_030, 0, Some(2), 30), ms(300, 500));
        assert_eq!(
            TimeBudget::from_clock(30_030, 0, Some(90), 30),
            TimeBudget::from_clock(30_030, 0, None, 30)
        );
        assert_eq!(
            TimeBudget::from_clock(30_030, 0, Some(10), 30),
            ms(1_800, 9_000)
        );
    }

    #[test]
    fn soft_limit_grows_with_instability_and_a_falling_score() {
        let b = ms(100, 1_000);
        assert_eq!(b.soft_limit(0.0, 0), Duration::from_millis(100));
        assert_eq!(b.soft_limit(0.0, -300), Duration::from_millis(100));
        assert_eq!(b.soft_limit(1.0, 0), Duration::from_millis(150));
        assert_eq!(b.soft_limit(2.0, 0), Duration::from_millis(200));
        assert_eq!(b.soft_limit(0.0, 50), Duration::from_millis(125));
        assert_eq!(b.soft_limit(2.0, 100), Duration::from_millis(300));
        assert_eq!(b.soft_limit(2.0, 5_000), Duration::from_millis(300));
        // Never above the hard limit.
        assert_eq!(
            ms(100, 120).soft_limit(2.0, 100),
            Duration::from_millis(120)
        );
    }

    #[test]
    fn the_side_to_move_reads_its_own_clock() {
        let clock = Clock {
            time_ms: [Some(3_030), None],
            increment_ms: [0, 500],
            moves_to_go: None,
            overhead_ms: 30,
        };
        assert_eq!(clock.budget_for(0), Some(ms(60, 300)));
        assert_eq!(clock.budget_for(1), None);
    }
}
