//! The part of the protocol session that knows the game: a [`GameEngine`] per selected game,
//! behind the object-safe [`SelectedGame`], so the session loop (threads, queue, ponder logic) is
//! written once and the `Variant` option can switch games at run time.

use std::any::Any;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use crate::engine::{Note, SearchChoices, SearchSetup, TableSlot};
use crate::game::{
    find_option, GameState, Notation, OptionDecl, OptionError, Settings, TableSettings, Tables,
};
use crate::protocol::options::EngineSettings;
use crate::protocol::{format_bestmove, format_hash_report, format_info, Event, InfoFormat};
use crate::search::{Control, Iteration, Level, Limits, SearchHandler, Searcher};
use crate::variant::{Variant, VariantGame, VisitGame};

/// The error when there is no position: the last `position` command was refused.
pub(crate) const NO_POSITION: &str = "no valid position (the last 'position' command was refused)";

/// Why a `position` command was refused, or why a command needing a position has none.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    /// The start position or a move word does not read in the game's notation.
    #[error(transparent)]
    Notation(Box<dyn std::error::Error + Send + Sync>),
    /// Move `number` (1-based) of the list is not legal where it is played.
    #[error("move {number} of the list: {reason}")]
    Move {
        /// 1-based.
        number: usize,
        /// What the rules say.
        reason: crate::game::PlayError,
    },
    /// The last `position` command was refused.
    #[error("{NO_POSITION}")]
    NoPosition,
}

/// What `go` did.
pub(crate) enum Go {
    /// No search was started: the lines to write (ending with `bestmove`).
    Answered(Vec<String>),
    /// A search runs on its own thread: the lines to write first (`info string`s).
    Searching(Vec<String>),
}

/// A game as the session drives it: options, position, search. Every method that fails returns
/// the message for an `info string error: ...` line and changes nothing.
pub(crate) trait SelectedGame: Send {
    /// The game's name ([`crate::game::Game::NAME`]).
    fn game_name(&self) -> &'static str;
    /// The `option` lines of the game's own options.
    fn declarations(&self) -> Vec<String>;
    /// Sets one of the game's options: `None` if it has no option of that name, else the
    /// `info string` lines to write (a game replayed under new rules, or reset).
    fn set_option(&mut self, name: &str, value: &str) -> Option<Result<Vec<String>, OptionError>>;
    /// `ucinewgame`: the start position, and the table forgotten.
    fn new_game(&mut self);
    /// Starts, in the background, the work the game's tables would do when first probed
    /// ([`crate::search::Oracle::prepare`]: Oware's table built in memory), when a search under
    /// `settings` would use them (at full strength).
    fn prepare_tables(&self, settings: &EngineSettings);
    /// Waits for the work [`SelectedGame::prepare_tables`] started (`isready`).
    fn wait_tables(&self);
    /// Loads the tables again if a table option was set since they were loaded (`isready`,
    /// `ucinewgame` and `go` ask first), so that options set together load them once: the
    /// `info string` that says what was loaded, if there is anything to say.
    fn load_stale_tables(&mut self) -> Option<String>;
    /// `position`: the game from `start` (`None` for the start position) with `moves`. On error
    /// there is no position until the next valid one.
    fn set_position(&mut self, start: Option<&str>, moves: &[&str]) -> Result<(), PositionError>;
    /// Forgets the position (after a `position` line that could not be read).
    fn forget_position(&mut self);
    /// The `legal` reply.
    fn legal(&self) -> Result<String, PositionError>;
    /// The `d` reply.
    fn display(&self) -> Result<String, PositionError>;
    /// The game so far as text: the start position (`None` for the start position) and the moves.
    fn game_text(&self) -> Option<(Option<String>, Vec<String>)>;
    /// Makes a new transposition table of `megabytes` MiB; returns the `info string` saying what
    /// that took.
    fn resize_hash(&mut self, megabytes: usize) -> Vec<String>;
    /// `go`: starts a search of the root moves `searchmoves` (all when empty), sending its
    /// `info` lines and finally its `bestmove` line to `tx`.
    fn go(
        &mut self,
        limits: Limits,
        searchmoves: &[String],
        settings: &EngineSettings,
        control: Arc<Control>,
        tx: Sender<Event>,
    ) -> Go;
    /// The `info string` saying what tables the game loaded from their default place when it was
    /// made, if there is anything to say (once).
    fn take_loaded(&mut self) -> Option<String>;
    /// Gives up the searcher (its table), for a [`SelectedGame`] of the same game to adopt.
    fn into_searcher(self: Box<Self>) -> Box<dyn Any + Send>;
    /// Takes over the searcher of another [`SelectedGame`] if it is of the same game.
    fn adopt_searcher(&mut self, searcher: Box<dyn Any + Send>);
}

/// A [`SelectedGame`] for game `G`.
pub(crate) struct GameEngine<G: Notation> {
    settings: Settings<G>,
    /// The game to search; `None` after a refused `position`, until a valid one (or
    /// `ucinewgame`) arrives, so that `go` never answers for a position the GUI did not mean.
    game: Option<GameState<G>>,
    /// Locked by the search thread while it searches; the session only touches it between
    /// searches (commands that arrive during a search wait for its end).
    searcher: Arc<Mutex<Searcher<G>>>,
    /// The exact tables ([`crate::game::Game::load_tables`]), which full-strength searches
    /// probe, and their background build (`AutoSolve`).
    slot: TableSlot<G>,
    /// What loading the tables of the default place said, until the session takes it.
    loaded: Option<String>,
}

/// A note as the protocol writes it.
fn info_line(note: &Note) -> String {
    format!("info string {note}")
}

impl<G: Notation> GameEngine<G> {
    fn new(rules: G::Rules, hash_mb: usize) -> GameEngine<G> {
        let settings = Settings::<G> {
            rules,
            weights: G::Weights::default(),
            tables: Default::default(),
        };
        let searcher = Searcher::with_hash_mb(hash_mb);
        // Nothing but protocol lines may go to the output: what making the table took goes to
        // the log, as a warning when it had to be shrunk.
        let report = searcher.hash_report();
        if report.shrunk {
            log::warn!("{}", format_hash_report(report));
        } else {
            log::info!("{}", format_hash_report(report));
        }
        let mut engine = GameEngine {
            game: Some(GameState::from_start(settings.rules.clone())),
            settings,
            searcher: Arc::new(Mutex::new(searcher)),
            slot: TableSlot::default(),
            loaded: None,
        };
        // Tables in the default place; the session says what loading them gave.
        engine.loaded = engine.load_tables();
        engine
    }

    /// A game engine under `rules` probing `tables` (for tests of what the session asks of them).
    #[cfg(test)]
    pub(crate) fn with_tables(rules: G::Rules, tables: Tables<G>) -> GameEngine<G> {
        let mut engine = GameEngine::new(rules, 1);
        engine.slot = TableSlot::with_tables(tables);
        engine
    }

    /// Loads the tables the settings name, replacing those loaded; returns the `info string` that
    /// says what was loaded (`None` when there is nothing to say: no tables, and none asked for).
    fn load_tables(&mut self) -> Option<String> {
        // The searcher lets go of the old tables too, so that what they were building in the
        // background stops.
        self.searcher().set_oracle(None);
        self.slot.load(&self.settings).as_ref().map(info_line)
    }

    /// The tables a search under `settings` probes: none below full strength (a weaker level is
    /// meant to be beaten).
    fn tables_for(&self, settings: &EngineSettings) -> Option<&Tables<G>> {
        self.slot
            .tables()
            .filter(|_| settings.level.number() == Level::FULL)
    }

    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher<G>> {
        self.searcher.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn replay(&self, start: Option<&str>, moves: &[&str]) -> Result<GameState<G>, PositionError> {
        let rules = &self.settings.rules;
        let notation = |e: G::Error| PositionError::Notation(Box::new(e));
        let (start, counters) = match start {
            Some(text) => G::parse_position_with_counters(text, rules).map_err(notation)?,
            None => (G::start(rules), Default::default()),
        };
        let moves = start.parse_moves(moves).map_err(notation)?;
        let mut game = GameState::with_counters(start, counters, rules.clone());
        game.play_all_past_cycle_end(&moves)
            .map_err(|(i, reason)| PositionError::Move {
                number: i + 1,
                reason,
            })?;
        Ok(game)
    }
}

impl<G: Notation> SelectedGame for GameEngine<G> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn declarations(&self) -> Vec<String> {
        G::options()
            .iter()
            .map(|d| d.declaration(&self.settings))
            .collect()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Option<Result<Vec<String>, OptionError>> {
        let options = G::options();
        let decl = find_option(&options, name)?;
        let mut settings = self.settings.clone();
        if let Err(e) = decl.apply(&mut settings, value) {
            return Some(Err(e));
        }
        let rules_changed = settings.rules != self.settings.rules;
        // A table option loads its tables again even when its value is unchanged (the file may
        // have been made or fixed since); a new variant makes a new engine, which loads its own.
        let tables_changed = settings.tables != self.settings.tables || is_table_option(decl);
        self.settings = settings;
        // Loaded before their next use, once for all the table options set until then.
        if tables_changed {
            self.slot.mark_stale();
        }
        let mut lines = Vec::new();
        if !rules_changed {
            return Some(Ok(lines));
        }
        // A rule option always takes effect: the game is replayed under the new rules, or starts
        // again if it is not legal under them.
        let Some((start, moves)) = self.game_text() else {
            return Some(Ok(lines));
        };
        let words: Vec<&str> = moves.iter().map(String::as_str).collect();
        match self.replay(start.as_deref(), &words) {
            Ok(game) => self.game = Some(game),
            Err(e) => {
                self.game = Some(GameState::from_start(self.settings.rules.clone()));
                lines.push(info_line(&Note::RulesReset {
                    error: e.to_string(),
                }));
            }
        }
        Some(Ok(lines))
    }

    fn new_game(&mut self) {
        self.searcher().clear();
        self.game = Some(GameState::from_start(self.settings.rules.clone()));
    }

    fn prepare_tables(&self, settings: &EngineSettings) {
        if let Some(tables) = self.tables_for(settings) {
            tables.oracle.prepare();
        }
    }

    fn wait_tables(&self) {
        if let Some(tables) = self.slot.tables() {
            tables.oracle.wait_prepared();
        }
    }

    fn load_stale_tables(&mut self) -> Option<String> {
        if !self.slot.is_stale() {
            return None;
        }
        self.searcher().set_oracle(None);
        self.slot
            .reload_if_stale(&self.settings)
            .as_ref()
            .map(info_line)
    }

    fn set_position(&mut self, start: Option<&str>, moves: &[&str]) -> Result<(), PositionError> {
        match self.replay(start, moves) {
            Ok(game) => {
                self.game = Some(game);
                Ok(())
            }
            Err(e) => {
                self.game = None;
                Err(e)
            }
        }
    }

    fn forget_position(&mut self) {
        self.game = None;
    }

    fn legal(&self) -> Result<String, PositionError> {
        let game = self.game.as_ref().ok_or(PositionError::NoPosition)?;
        let moves: Vec<String> = game
            .moves_past_cycle_end()
            .iter()
            .map(|m| m.to_string())
            .collect();
        Ok(format!("legal {}", moves.join(" ")).trim_end().to_string())
    }

    fn display(&self) -> Result<String, PositionError> {
        let game = self.game.as_ref().ok_or(PositionError::NoPosition)?;
        Ok(crate::protocol::format_board(game))
    }

    fn game_text(&self) -> Option<(Option<String>, Vec<String>)> {
        let game = self.game.as_ref()?;
        let start = game.start();
        let counters = game.start_counters();
        let start_text = (start != &G::start(&self.settings.rules)
            || counters != Default::default())
        .then(|| start.write_position_with_counters(counters));
        Some((
            start_text,
            game.moves().iter().map(|m| m.to_string()).collect(),
        ))
    }

    fn resize_hash(&mut self, megabytes: usize) -> Vec<String> {
        // A new table, made resident now (a search never waits for page faults), and what that
        // took said, also when the size is unchanged (as Stockfish, it clears it).
        let line = format!(
            "info string {}",
            format_hash_report(self.searcher().set_hash(megabytes))
        );
        vec![line]
    }

    fn go(
        &mut self,
        limits: Limits,
        searchmoves: &[String],
        settings: &EngineSettings,
        control: Arc<Control>,
        tx: Sender<Event>,
    ) -> Go {
        // The build of missing tables is followed first: a search may use them at once.
        let mut said: Vec<String> = self.load_stale_tables().into_iter().collect();
        let build_wanted = settings.auto_solve && settings.level.number() == Level::FULL;
        let notes = self.slot.refresh(&self.settings, build_wanted);
        if notes.iter().any(|n| matches!(n, Note::TablesCut { .. })) {
            self.searcher().set_oracle(None);
        }
        said.extend(notes.iter().map(info_line));
        let answered = |mut said: Vec<String>, line: String| {
            said.push(line);
            Go::Answered(said)
        };
        let Some(game) = &self.game else {
            said.push(format!("info string error: {NO_POSITION}"));
            return answered(said, no_move());
        };
        let searchmoves = match root_moves_named(game, searchmoves) {
            Ok(moves) => moves,
            Err(e) => {
                said.push(format!("info string error: {e}"));
                return Go::Answered(said);
            }
        };
        if game.moves_past_cycle_end().is_empty() {
            return answered(said, no_move());
        }
        // Only the cycle rule ends a game that still has moves. Like a chess engine past the
        // fifty-move rule, the engine answers with a move anyway (the setup's note says so): a
        // GUI that counts repetitions its own way, or has no ply limit, waits for one.
        let choices = SearchChoices {
            level: settings.level,
            lines: settings.multipv,
            seed: crate::search::seed_hash(&settings.seed),
            searchmoves,
        };
        let (setup, notes) = SearchSetup::new(game, &self.settings, self.slot.tables(), choices);
        // A search on the clock must stop at once: it does not wait for a table being built.
        if let Some(oracle) = &setup.oracle {
            oracle.set_waiting(!limits.depends_on_time());
        }
        said.extend(notes.iter().map(info_line));
        let format = InfoFormat {
            mate_as_cp: settings.score_mate_as_cp,
            multipv: settings.multipv > 1,
            wdl: settings.show_wdl.then(G::wdl_model),
        };
        let threads = settings.threads;
        let searcher = Arc::clone(&self.searcher);
        thread::spawn(move || {
            let mut handler = InfoSender::<G> {
                tx: tx.clone(),
                format,
                game: std::marker::PhantomData,
            };
            let result = {
                let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
                setup.run(&mut searcher, threads, &limits, &control, &mut handler)
            };
            let _ = tx.send(Event::Done(format_bestmove::<G>(&result)));
        });
        Go::Searching(said)
    }

    fn take_loaded(&mut self) -> Option<String> {
        self.loaded.take()
    }

    fn into_searcher(self: Box<Self>) -> Box<dyn Any + Send> {
        // The tables stay behind (and stop what they were building).
        self.searcher().set_oracle(None);
        Box::new(self.searcher)
    }

    fn adopt_searcher(&mut self, searcher: Box<dyn Any + Send>) {
        if let Ok(searcher) = searcher.downcast::<Arc<Mutex<Searcher<G>>>>() {
            self.searcher = *searcher;
        }
    }
}

/// Whether `decl` sets where the game's tables are or how far to use them: its setter, given its
/// default value and settings whose [`TableSettings`] hold values no option gives, changes them.
fn is_table_option<G: Notation>(decl: &OptionDecl<Settings<G>>) -> bool {
    let marked = TableSettings {
        path: Some("\0".into()),
        limit: Some(u32::MAX),
        build: Some(u32::MAX),
    };
    let mut probe = Settings::<G> {
        tables: marked.clone(),
        ..Settings::default()
    };
    // Any value the option's type accepts will do: its default.
    let value = (decl.get)(&Settings::default());
    (decl.set)(&mut probe, &value);
    probe.tables != marked
}

/// Sends each completed iteration to the session thread as an `info` line.
struct InfoSender<G> {
    tx: Sender<Event>,
    format: InfoFormat,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Notation> SearchHandler<G::Move> for InfoSender<G> {
    fn iteration(&mut self, info: &Iteration<G::Move>) {
        let _ = self
            .tx
            .send(Event::Info(format_info::<G>(info, &self.format)));
    }
}

/// The root moves `words` name (`go searchmoves`), each read in the current position and
/// checked to be legal there.
fn root_moves_named<G: Notation>(
    game: &GameState<G>,
    words: &[String],
) -> Result<Vec<G::Move>, String> {
    let legal = game.moves_past_cycle_end();
    let mut moves = Vec::new();
    for word in words {
        let read = game
            .position()
            .parse_moves(&[word.as_str()])
            .map_err(|e| format!("searchmoves: {e}"))?;
        for mv in read {
            if !legal.contains(&mv) {
                return Err(format!(
                    "searchmoves: {mv} is not legal here (legal: {})",
                    G::write_moves(&legal)
                ));
            }
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
    }
    Ok(moves)
}

/// Makes the [`SelectedGame`] of a variant ([`Variant::visit`]).
pub(crate) struct MakeEngine {
    /// The transposition table's size, in MiB.
    pub hash_mb: usize,
}

impl VisitGame for MakeEngine {
    type Output = Box<dyn SelectedGame>;
    fn visit<G: VariantGame>(self, rules: G::Rules) -> Box<dyn SelectedGame> {
        Box::new(GameEngine::<G>::new(rules, self.hash_mb))
    }
}

/// The engine for `variant`.
pub(crate) fn engine_for(variant: Variant, hash_mb: usize) -> Box<dyn SelectedGame> {
    variant.visit(MakeEngine { hash_mb })
}

/// The `bestmove 0000` line of a position with no move to play.
fn no_move() -> String {
    crate::protocol::Reply::BestMove {
        best: "0000".into(),
        ponder: None,
    }
    .to_string()
}
