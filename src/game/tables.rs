//! Exact tables a game can load for the search to probe (a game's complete analysis, endgame
//! tablebases): where the options say they are ([`TableSettings`]) and what loading them gave
//! ([`Tables`]). Each game loads its own through [`crate::game::Game::load_tables`].

use std::sync::Arc;

use crate::search::Oracle;

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
