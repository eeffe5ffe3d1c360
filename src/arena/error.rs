//! Why a match or a replay could not be run ([`MatchError`]). Faults during a match are not
//! errors: they lose games and are reported in the summary.

use std::io;
use std::path::PathBuf;

use crate::arena::client::EngineError;
use crate::arena::runner::OpeningError;
use crate::records::ParseError;

/// What [`crate::arena::run_match`] refuses or fails on before or outside the games.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// Options that are malformed or contradict one another; the text names the option.
    #[error("{0}")]
    Options(String),
    /// A file that cannot be read, created or written: `action` is `read`, `create` or `write`.
    #[error("cannot {action} {}", path.display())]
    File {
        /// What was tried.
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// Why it failed.
        source: io::Error,
    },
    /// A record file that another program holds locked.
    #[error("{} is locked by another program (another match writing its records?)", .0.display())]
    Locked(PathBuf),
    /// An openings file that does not read.
    #[error("in {}", path.display())]
    Openings {
        /// The file.
        path: PathBuf,
        /// The first line that does not read.
        source: OpeningError,
    },
    /// A record file for `--replay` that does not read as records.
    #[error("in {}", path.display())]
    Records {
        /// The file.
        path: PathBuf,
        /// The first thing that does not read.
        source: ParseError,
    },
    /// A record file for `--replay` with nothing in it.
    #[error("{} holds no game records", .0.display())]
    NoRecords(PathBuf),
    /// Records that read but do not replay: each line names a game and why.
    #[error("{count} of {total} games do not replay:\n{}", lines.join("\n"))]
    Replays {
        /// Games that do not replay.
        count: usize,
        /// Games read.
        total: usize,
        /// One line a game that does not replay.
        lines: Vec<String>,
    },
    /// Engine `number` (1 or 2) could not start or play the match as asked; `what` says which.
    #[error("engine {number} ('{command}') {what}")]
    Engine {
        /// 1 or 2.
        number: usize,
        /// Its command line.
        command: String,
        /// `did not start`, `cannot play with the options given`, ...
        what: &'static str,
        /// The engine client's error.
        source: Box<EngineError>,
    },
    /// Both engines failed: each error with its causes, one a line.
    #[error("{}\n{}", chain(.0), chain(.1))]
    BothEngines(Box<MatchError>, Box<MatchError>),
}

/// Why an engine's setting (`[N:]NAME=VALUE`, `N:NAME`, `N:KIND=VALUE`) does not read.
#[derive(Debug, thiserror::Error)]
pub enum EngineArgError {
    /// An engine number other than 1 and 2.
    #[error("'{0}': engine number must be 1 or 2")]
    EngineNumber(String),
    /// A name or limit that does not say which engine.
    #[error("'{0}' must say which engine: 1:... or 2:...")]
    NoEngine(String),
    /// An option without `=`.
    #[error("'{0}' is not [N:]NAME=VALUE")]
    NotSetting(String),
    /// A limit that does not read.
    #[error("'{text}'")]
    Limit {
        /// As given.
        text: String,
        /// Why.
        source: LimitError,
    },
}

/// Why a `--limit KIND=VALUE` does not read.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    /// Not `KIND=VALUE` or `go`.
    #[error("expected KIND=VALUE (nodes=N, depth=D, movetime=MS, tc=SECONDS[+INC]) or go")]
    Form,
    /// A value that must be a whole number of at least 1.
    #[error("{what} must be a whole number of at least 1 (found '{value}')")]
    NotPositive {
        /// `nodes` or `depth`.
        what: &'static str,
        /// As given.
        value: String,
    },
    /// A depth too large to be one.
    #[error("depth is too large")]
    DepthTooLarge,
    /// A movetime that is not milliseconds.
    #[error("movetime must be milliseconds (found '{0}')")]
    MoveTime(String),
    /// A time control that does not read.
    #[error(transparent)]
    Clock(#[from] crate::arena::runner::TimeControlError),
    /// A kind this runner does not know.
    #[error("unknown limit '{0}' (nodes, depth, movetime, tc or go)")]
    Unknown(String),
}

/// An error and its causes on one line, `error: cause: cause`, as the front end prints a chain.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(&format!(": {e}"));
        cause = e.source();
    }
    text
}
