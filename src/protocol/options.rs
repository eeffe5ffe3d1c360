//! The engine's own options (`setoption`), declared once with their types, ranges, defaults and
//! setters. Each game declares its own ([`crate::game::Game::options`]); `uci` lists both.

use crate::game::{OptionDecl, OptionKind, OptionValue};
use crate::search::{Level, DEFAULT_HASH_MB, MAX_HASH_MB};
use crate::variant::Variant;

/// The `MoveOverhead` option's default, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
/// The largest `MoveOverhead`, in milliseconds.
const MAX_MOVE_OVERHEAD_MS: i64 = 5_000;

/// The `Seed` option's default.
const DEFAULT_SEED: &str = "perfectplay";

/// The settings of the engine that are not a game's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// `Level`, 1-6 (6 is full strength).
    pub level: Level,
    /// `Seed`: any text; the source of tie-breaks and level choices.
    pub seed: String,
    /// `Hash`, transposition table size in MiB.
    pub hash_mb: usize,
    /// `ScoreMateAsCp`: proven results sent as large `score cp` values (for GUIs that read only
    /// `cp`, such as Aualé) instead of `score mate N`.
    pub score_mate_as_cp: bool,
    /// `UCI_Variant` (also `Variant`): the game and rule set.
    pub variant: Variant,
    /// `Ponder` as the GUI set it (pondering follows `go ponder` either way).
    pub ponder: bool,
    /// `OwnBook` as the GUI set it (there is no book).
    pub own_book: bool,
    /// `MoveOverhead`, in milliseconds: kept back from the clock on every move under `go wtime
    /// ...` for the delays the engine does not see (the GUI's, the pipes', the system's).
    pub move_overhead_ms: u64,
    /// `Threads`: how many threads search (lazy SMP), 1 to [`max_threads`].
    pub threads: usize,
    /// `MultiPV`: how many lines (distinct first moves) `info` reports per iteration, best first.
    pub multipv: usize,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L`, the side to move's chances per mille.
    pub show_wdl: bool,
    /// `AutoSolve`: at full strength, a game's tables missing from their default place (the
    /// Dobutsu solution, Oware's tablebase up to `TablebaseBuildSeeds`) are built there in the
    /// background. Off in the library's session
    /// ([`crate::protocol::run`]); the `perfectplay` executable turns it on.
    pub auto_solve: bool,
}

/// The most `Threads` accepted: the threads the machine runs at once.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most `MultiPV` accepted (Stockfish's bound); a search reports at most as many lines as
/// the position has legal moves.
pub const MAX_MULTIPV: i64 = 500;

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            level: Level::default(),
            seed: DEFAULT_SEED.to_string(),
            hash_mb: DEFAULT_HASH_MB,
            score_mate_as_cp: false,
            variant: Variant::default(),
            ponder: false,
            own_book: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            threads: 1,
            multipv: 1,
            show_wdl: false,
            auto_solve: false,
        }
    }
}

/// The engine's options, in the order `uci` lists them (before the selected game's).
///
/// `Ponder` and `OwnBook` are declared for GUIs that send them and change nothing: pondering
/// follows `go ponder`, and there is no opening book.
pub fn engine_options() -> Vec<OptionDecl<EngineSettings>> {
    vec![
        OptionDecl::spin(
            "Level",
            i64::from(Level::MIN),
            i64::from(Level::FULL),
            |s| OptionValue::Spin(s.level.number().into()),
            |s, v| s.level = Level::new(v.spin() as u8),
        ),
        OptionDecl {
            name: "Seed",
            kind: OptionKind::Text,
            get: |s| OptionValue::Text(s.seed.clone()),
            set: |s, v| s.seed = v.text().to_string(),
        },
        OptionDecl {
            name: "UCI_Variant",
            kind: OptionKind::Combo {
                choices: Variant::NAMES,
            },
            get: |s| OptionValue::Combo(s.variant.name()),
            set: |s, v| s.variant = v.text().parse().unwrap_or_default(),
        },
        OptionDecl::spin(
            "Hash",
            1,
            MAX_HASH_MB as i64,
            |s| OptionValue::Spin(s.hash_mb as i64),
            |s, v| s.hash_mb = v.spin() as usize,
        ),
        OptionDecl::spin(
            "Threads",
            1,
            max_threads() as i64,
            |s| OptionValue::Spin(s.threads as i64),
            |s, v| s.threads = v.spin() as usize,
        ),
        OptionDecl::spin(
            "MultiPV",
            1,
            MAX_MULTIPV,
            |s| OptionValue::Spin(s.multipv as i64),
            |s, v| s.multipv = v.spin() as usize,
        ),
        OptionDecl::check(
            "UCI_ShowWDL",
            |s| OptionValue::Check(s.show_wdl),
            |s, v| s.show_wdl = v.check(),
        ),
        OptionDecl::check(
            "AutoSolve",
            |s| OptionValue::Check(s.auto_solve),
            |s, v| s.auto_solve = v.check(),
        ),
        OptionDecl::spin(
            "MoveOverhead",
            0,
            MAX_MOVE_OVERHEAD_MS,
            |s| OptionValue::Spin(s.move_overhead_ms as i64),
            |s, v| s.move_overhead_ms = v.spin() as u64,
        ),
        OptionDecl::check(
            "Ponder",
            |s| OptionValue::Check(s.ponder),
            |s, v| s.ponder = v.check(),
        ),
        OptionDecl::check(
            "OwnBook",
            |s| OptionValue::Check(s.own_book),
            |s, v| s.own_book = v.check(),
        ),
        OptionDecl::check(
            "ScoreMateAsCp",
            |s| OptionValue::Check(s.score_mate_as_cp),
            |s, v| s.score_mate_as_cp = v.check(),
        ),
    ]
}

/// The standard name of an option given under another one: `Variant`, this engine's name for
/// the game choice before it took the name cutechess, Fairy-Stockfish and the lichess and
/// pychess front ends use, is `UCI_Variant`.
pub fn canonical_name(name: &str) -> &str {
    if name.trim().eq_ignore_ascii_case("Variant") {
        "UCI_Variant"
    } else {
        name
    }
}
