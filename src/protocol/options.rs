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
    /// `Variant` (also `UCI_Variant`): the game and rule set.
    pub variant: Variant,
    /// `Ponder` as the GUI set it (pondering follows `go ponder` either way).
    pub ponder: bool,
    /// `OwnBook` as the GUI set it (there is no book).
    pub own_book: bool,
    /// `MoveOverhead`, in milliseconds: kept back from the clock on every move under `go wtime
    /// ...` for the delays the engine does not see (the GUI's, the pipes', the system's).
    pub move_overhead_ms: u64,
}

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
            name: "Variant",
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

/// Other names GUIs use for an engine option: shogi-family GUIs send `UCI_Variant`.
pub fn canonical_name(name: &str) -> &str {
    if name.trim().eq_ignore_ascii_case("UCI_Variant") {
        "Variant"
    } else {
        name
    }
}
