//! What the engine tells the user about its tables and its game, as typed values: a front end
//! chooses the words' frame (the protocol writes `info string` and then the [`Display`] text;
//! the web server sends it as JSON).

use std::fmt;
use std::path::PathBuf;

/// Something to tell the user: what tables were loaded, a background build's progress, an
/// error that leaves the engine playing by search, a game the rules ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// Tables were loaded: what they are (`solution dobutsu.solution: 99485568 positions`).
    Loaded {
        /// The tables' description ([`crate::game::Tables::description`]).
        description: String,
    },
    /// No tables: the engine plays by search.
    NoTables,
    /// Loading the tables failed.
    LoadFailed {
        /// Why, in words.
        error: String,
    },
    /// A file of the loaded tables was cut short since it was mapped: the tables are dropped
    /// (reading what is gone would kill the process).
    TablesCut {
        /// What was found.
        error: String,
    },
    /// This engine started building the missing tables in the background.
    BuildStarted {
        /// What it builds.
        description: String,
        /// The file it writes.
        path: PathBuf,
    },
    /// Another engine holds the build's lock: it is building them.
    BuildElsewhere {
        /// What it builds.
        description: String,
        /// The file it writes.
        path: PathBuf,
    },
    /// The build could not start (its directory or lock file could not be made).
    BuildNotStarted {
        /// What it would build.
        description: String,
        /// The file it would write.
        path: PathBuf,
        /// Why.
        error: String,
    },
    /// This engine's build failed.
    BuildFailed {
        /// The file it was writing.
        path: PathBuf,
        /// Why.
        error: String,
    },
    /// Another engine's build ended without writing the file.
    OtherBuildEnded {
        /// The file it was writing.
        path: PathBuf,
    },
    /// The search's root is outside the tables (the game's own words,
    /// [`crate::game::Tables::outside`]).
    OutsideTables(String),
    /// The cycle rule ended the game, but it still has legal moves, which are searched.
    CycleRuleEnded {
        /// Why the game ended, in words.
        reason: String,
        /// The result (`1-0`, `1/2-1/2`, ...).
        result: String,
    },
    /// The game is not legal under rules just set: the position went back to the start.
    RulesReset {
        /// Why the game was refused.
        error: String,
    },
}

impl Note {
    /// Whether the note reports an error (the engine plays by search because of it).
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            Note::LoadFailed { .. }
                | Note::TablesCut { .. }
                | Note::BuildNotStarted { .. }
                | Note::BuildFailed { .. }
                | Note::OtherBuildEnded { .. }
        )
    }

    /// Whether the note says a build of the tables runs (here or in another engine).
    pub fn is_building(&self) -> bool {
        matches!(
            self,
            Note::BuildStarted { .. } | Note::BuildElsewhere { .. }
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Loaded { description } => write!(f, "loaded {description}"),
            Note::NoTables => write!(f, "no tables loaded: playing by search"),
            Note::LoadFailed { error } => write!(f, "error: {error}; playing by search"),
            Note::TablesCut { error } => write!(
                f,
                "error: {error}; the tables are dropped (set the option again to load them once \
                 the file is whole): playing by search"
            ),
            Note::BuildStarted { description, path } => write!(
                f,
                "building {description} in {} in the background; playing by search until it is \
                 written",
                path.display()
            ),
            Note::BuildElsewhere { description, path } => write!(
                f,
                "another engine is building {description} in {}; playing by search until it is \
                 written",
                path.display()
            ),
            Note::BuildNotStarted {
                description,
                path,
                error,
            } => write!(
                f,
                "error: cannot build {description} in {}: {error}; playing by search",
                path.display()
            ),
            Note::BuildFailed { path, error } => write!(
                f,
                "error: building {} failed: {error}; playing by search",
                path.display()
            ),
            Note::OtherBuildEnded { path } => write!(
                f,
                "error: the other engine's build of {} ended without it; playing by search",
                path.display()
            ),
            Note::OutsideTables(text) => f.write_str(text),
            Note::CycleRuleEnded { reason, result } => write!(
                f,
                "the cycle rule has ended the game ({reason}, {result}); searching the legal \
                 moves all the same"
            ),
            Note::RulesReset { error } => write!(
                f,
                "the current game is not legal under the new rules ({}); the position is reset \
                 to the start",
                crate::game::quoted(error)
            ),
        }
    }
}
