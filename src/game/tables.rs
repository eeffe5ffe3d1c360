//! Exact tables a game can load for the search to probe (a game's complete analysis, endgame
//! tablebases): where the options say they are ([`TableSettings`]) and what loading them gave
//! ([`Tables`]), and what every table offers the search ([`Oracle`]). Each game loads its own
//! through [`crate::game::Game::load_tables`].

use std::sync::Arc;

use crate::game::{Game, Outcome};

/// Where a game's tables are and how far to use them, as the game's options set them. It is the
/// same for every game, so that the protocol can tell when it changed and load them again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableSettings {
    /// The file or directory the game's path option names (Dobutsu's `SolutionPath`): `None` for
    /// the game's default place, an empty text for none.
    pub path: Option<String>,
    /// How far to use the tables (a number of the game's choosing, such as seeds on the board);
    /// `None` for all they hold.
    pub limit: Option<u32>,
    /// How far the background build of the tables in their default place goes (Oware's
    /// `TablebaseBuildSeeds`: seeds on the board), where the game lets the option choose;
    /// `None` for as far as the game's resource check allows, `Some(0)` for no build.
    pub build: Option<u32>,
}

/// The directory where the engine keeps the tables it finds and builds by default:
/// `$XDG_DATA_HOME/perfectplay`, where `XDG_DATA_HOME` defaults to `$HOME/.local/share` (the
/// XDG base directory convention). `None` when neither variable is set (or they are not
/// absolute paths).
pub fn data_dir() -> Option<std::path::PathBuf> {
    let absolute = |var: &str| {
        std::env::var_os(var)
            .map(std::path::PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let data =
        absolute("XDG_DATA_HOME").or_else(|| absolute("HOME").map(|h| h.join(".local/share")))?;
    Some(data.join("perfectplay"))
}

/// Work that writes a game's tables to their default place when they are missing there
/// ([`crate::game::Game::default_tables_build`]), for a front end to run in the background.
pub struct TablesBuild {
    /// The file it writes last (each file whole or not at all: under a temporary name, then
    /// renamed): once it is there, the tables are built.
    pub path: std::path::PathBuf,
    /// The lock file that one engine at a time holds while it builds (beside the files).
    pub lock: std::path::PathBuf,
    /// Whether the tables are all written (the file [`TablesBuild::path`] is there, and for
    /// tables of several files, the others whole too).
    pub written: Box<dyn Fn() -> bool + Send + Sync>,
    /// What it builds, for the user (`the Dobutsu Shogi solution (about a minute on two
    /// cores, under 300 MiB)`).
    pub description: String,
    /// Builds and writes the file; the error says why it could not.
    pub run: Box<dyn FnOnce() -> Result<(), crate::retro::file::TableError> + Send>,
}

impl std::fmt::Debug for TablesBuild {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TablesBuild")
            .field("path", &self.path)
            .field("lock", &self.lock)
            .field("description", &self.description)
            .finish()
    }
}

/// Tables a game loaded: the oracle the search probes, and what to tell the user.
pub struct Tables<G> {
    /// The exact values.
    pub oracle: Arc<dyn Oracle<G>>,
    /// What was loaded, for an `info string` (such as `solution dobutsu.solution: 99485568
    /// positions`); empty for a game's built-in default that needs no announcement (Oware's
    /// small tablebase built in memory), which is then only named when the
    /// options asked for tables.
    pub description: String,
    /// What to say when a search's root is not in the tables (`None`: nothing, for tables that
    /// hold only part of the game by design, as endgame tablebases do).
    pub outside: Option<String>,
}

impl<G> Clone for Tables<G> {
    fn clone(&self) -> Self {
        Tables {
            oracle: Arc::clone(&self.oracle),
            description: self.description.clone(),
            outside: self.outside.clone(),
        }
    }
}

impl<G> std::fmt::Debug for Tables<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("description", &self.description)
            .finish()
    }
}

/// Exact values of positions from a solved table (a game's complete analysis, an endgame
/// tablebase), which the search uses instead of searching them
/// ([`crate::search::Searcher::set_oracle`]).
///
/// A table answers in one of two kinds: a result with its distance ([`Oracle::probe`], Dobutsu's
/// solution), or an exact score without a distance ([`Oracle::score`], Oware's tablebases, which
/// know the final margin but not how many plies it takes). A table of the second kind also
/// chooses the root's move itself ([`Oracle::root_move`]), since equal scores alone do not say
/// which move makes progress.
pub trait Oracle<G: Game>: Send + Sync {
    /// The value of `pos` for the side to move under perfect play, with the plies to the end of
    /// the game as it is played (the winner ending fastest, the loser lasting longest; 0 for a
    /// draw), or `None` when the table does not hold `pos`. It must not depend on the game's
    /// history: the search scores the position with it wherever it meets it.
    fn probe(&self, pos: &G) -> Option<(Outcome, u32)>;

    /// The exact score of `pos` for the side to move under perfect play, in the evaluation's
    /// units (Oware: 100 per seed of final margin, stores included), where the table knows it but
    /// not the distance; `None` when it does not (the default). Asked where [`Oracle::probe`]
    /// answered `None`; like it, it must not depend on the history.
    fn score(&self, _pos: &G) -> Option<i32> {
        None
    }

    /// Sound bounds `(low, high)` of the score of `pos` for the side to move under perfect play,
    /// in [`Oracle::score`]'s units, where the table knows them (Oware's `abapa` tables, whose
    /// values can depend on the game's history, bound them); `low == high` when the score is
    /// exact, and then it is [`Oracle::score`]'s. The search returns at once when they fall
    /// outside its window and keeps its result inside them otherwise. The default: the exact
    /// score, or `None`. Asked where [`Oracle::probe`] answered `None`; like it, it must not
    /// depend on the history.
    fn bounds(&self, pos: &G) -> Option<(i32, i32)> {
        self.score(pos).map(|s| (s, s))
    }

    /// Sound bounds `(low, high)` of the final margin of `pos` for the side to move under
    /// perfect play, in the game's own unit (Oware: seeds, stores included), as
    /// [`Oracle::bounds`] gives them; `None` (the default) for tables that know no margins.
    fn margin_bounds(&self, _pos: &G) -> Option<(i32, i32)> {
        None
    }

    /// The result of `pos` for the side to move with the plies to the end of the game, where
    /// [`Oracle::score`] values it exactly and the table also knows how long the game lasts
    /// when both sides keep that value, the winner ending it as soon as it can and the loser
    /// lasting as long as it can (Oware's distances); `None` (the default) elsewhere. The root's
    /// report uses it (`score mate N`) when its move comes from [`Oracle::root_move`], which
    /// must then follow the distance; the search's nodes keep the score.
    fn distance(&self, _pos: &G) -> Option<(Outcome, u32)> {
        None
    }

    /// The move to play at the root `pos` when the table values it exactly with
    /// [`Oracle::score`]: one that keeps the score and makes progress towards it, so that playing
    /// such moves ends the game with that score. `None` (the default) lets the search choose.
    fn root_move(&self, _pos: &G) -> Option<G::Move> {
        None
    }

    /// Starts, on a thread of its own, the work the oracle would otherwise do when it is first
    /// probed (Oware's table built in memory), so that no search has to wait for it. Probes made
    /// meanwhile answer exactly as they would have without it (waiting for the part of the work
    /// they need), so results never depend on timing. Calling it again does nothing; the default
    /// does nothing.
    fn prepare(&self) {}

    /// [`Oracle::prepare`] when the searches of the game from `root` on may soon need the work
    /// done (the default: always). Oware's table: when `root` has more seeds on the board than
    /// the table but at most twice as many; the searches of a game's early moves do not pay for
    /// a table they cannot reach, and a root inside the table needs no layer above its own
    /// seeds (captures only take seeds away), which its search builds as it needs them.
    fn prepare_for(&self, _root: &G) {
        self.prepare();
    }

    /// Whether the files the oracle reads through a memory mapping are still whole: a file cut
    /// short in place while mapped kills the process with `SIGBUS` at the next read of what is
    /// gone, so a front end checks before each search and drops the tables when it fails (a
    /// file cut between the check and the read still does). The error names the file. The
    /// default (no file): always whole.
    fn check_files(&self) -> Result<(), crate::retro::file::TableError> {
        Ok(())
    }

    /// Blocks until the work [`Oracle::prepare`] started is done; returns at once when it was
    /// not started (nothing is then done here) or is finished. The default returns at once.
    fn wait_prepared(&self) {}

    /// Whether the probes of the searches from now on wait for work not done yet: `true` (as
    /// before any call), so that their answers never depend on timing; `false` for a search
    /// that depends on the clock anyway (`movetime`, a game clock, `infinite`,
    /// [`crate::search::Limits::depends_on_time`]), which must stay quick to stop: a probe that
    /// would wait answers as if the position were outside the oracle, and the work goes on in
    /// the background ([`Oracle::prepare`]). The default does nothing (no work to wait for).
    fn set_waiting(&self, _wait: bool) {}
}
