//! The engine's core, shared by every front end (the protocol session, the web server): a
//! game's tables through their life ([`TableSlot`]: loaded, built in the background, loaded
//! again, dropped when cut short), what a search needs from the game in progress
//! ([`SearchSetup`]: the root, the configuration, the tables at full strength), the
//! win/draw/loss chances of a score ([`wdl`]), and what the engine tells the user as typed
//! [`Note`]s. Front ends choose the words' frame and do the I/O.

pub mod build;
mod note;
mod tables;

use std::sync::Arc;

pub use note::Note;
pub use tables::TableSlot;

use crate::game::{Game, GameState, Oracle, Settings, Tables, WdlModel};
use crate::search::{
    Control, Level, Limits, Root, Score, SearchConfig, SearchHandler, SearchResult, Searcher,
};

impl<G: Game> From<&GameState<G>> for Root<G> {
    /// The root of the game's position, with the history the cycle rule needs and the ply, and
    /// every legal move searched.
    fn from(game: &GameState<G>) -> Root<G> {
        Root {
            position: game.position().clone(),
            history: game.keys_since_irreversible().to_vec(),
            game_ply: game.ply() as u32,
            searchmoves: Vec::new(),
        }
    }
}

/// What a front end chooses for a search beside its limits.
#[derive(Clone, Debug)]
pub struct SearchChoices<M> {
    /// The strength level (the tables are probed only at full strength: a weaker level is meant
    /// to be beaten).
    pub level: Level,
    /// How many lines (`MultiPV`).
    pub lines: usize,
    /// The hash of the `Seed` option ([`crate::search::seed_hash`]).
    pub seed: u64,
    /// The root moves to search; empty for all.
    pub searchmoves: Vec<M>,
}

/// A search ready to run: the root, its configuration, and the tables it probes.
pub struct SearchSetup<G: Game> {
    /// The position searched, with its history.
    pub root: Root<G>,
    /// The weights, the cycle rule, the level, the seed and the lines.
    pub config: SearchConfig<G::Weights>,
    /// The tables probed, at full strength.
    pub oracle: Option<Arc<dyn Oracle<G>>>,
}

impl<G: Game> SearchSetup<G> {
    /// The search of `game` under `settings` and `choices`, probing `tables` at full strength:
    /// near the tables, what the search does not need yet is built meanwhile. The notes: the
    /// cycle rule has ended the game (its legal moves are searched all the same), the root is
    /// outside the tables. (Whether probes wait for a table being built is the front end's
    /// choice, [`crate::game::Oracle::set_waiting`]: the tables may be shared with others.)
    pub fn new(
        game: &GameState<G>,
        settings: &Settings<G>,
        tables: Option<&Tables<G>>,
        choices: SearchChoices<G::Move>,
    ) -> (SearchSetup<G>, Vec<Note>) {
        let mut notes = Vec::new();
        if let Some(end) = game.end() {
            notes.push(Note::CycleRuleEnded {
                reason: end.reason.to_string(),
                result: end.result_string().to_string(),
            });
        }
        let tables = tables.filter(|_| choices.level.number() == Level::FULL);
        if let Some(tables) = tables {
            let pos = game.position();
            tables.oracle.prepare_for(pos);
            if pos.proven().is_none() && tables.oracle.probe(pos).is_none() {
                notes.extend(tables.outside.clone().map(Note::OutsideTables));
            }
        }
        let mut root = Root::from(game);
        root.searchmoves = choices.searchmoves;
        let setup = SearchSetup {
            root,
            config: SearchConfig {
                weights: settings.weights.clone(),
                cycle: G::cycle_rule(game.rules()),
                level: choices.level,
                seed: choices.seed,
                lines: choices.lines,
            },
            oracle: tables.map(|t| Arc::clone(&t.oracle)),
        };
        (setup, notes)
    }

    /// Runs the search on `searcher` with `threads` threads under `limits`, reporting each
    /// iteration to `handler`; `control` stops it.
    pub fn run(
        self,
        searcher: &mut Searcher<G>,
        threads: usize,
        limits: &Limits,
        control: &Control,
        handler: &mut dyn SearchHandler<G::Move>,
    ) -> SearchResult<G::Move> {
        searcher.set_oracle(self.oracle);
        searcher.set_threads(threads);
        searcher.search(&self.root, limits, &self.config, control, handler)
    }
}

/// The side to move's win, draw and loss chances per mille for a reported score: exact for a
/// proven result (`mate`) or a table's value (`exact`: its sign is the result), otherwise from
/// `model`.
pub fn wdl(score: Score, exact: bool, model: &WdlModel) -> [u32; 3] {
    match score {
        Score::Mate(n) if n > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
        Score::Cp(cp) if exact => match cp.signum() {
            1 => [1000, 0, 0],
            0 => [0, 1000, 0],
            _ => [0, 0, 1000],
        },
        Score::Cp(cp) => model.wdl(cp),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dobutsu;
    use crate::game::{Notation, TableSettings};
    use crate::oware::{Board, Rules};

    /// The root of a game in progress carries its position, the keys since the last capture
    /// and the ply.
    #[test]
    fn a_root_from_a_game_has_its_history() {
        let mut game = GameState::<Board>::from_start(Rules::default());
        let start_key = game.position().key();
        for word in ["F", "a", "E"] {
            let mv = game.position().parse_moves(&[word]).unwrap()[0];
            game.play(mv).unwrap();
        }
        let root = Root::from(&game);
        assert_eq!(root.position, *game.position());
        assert_eq!(root.game_ply, 3);
        assert_eq!(root.history, game.keys_since_irreversible());
        assert_eq!(root.history.first(), Some(&start_key));
        assert!(root.searchmoves.is_empty());
    }

    /// Oware's 12-seed table built in memory is probed at full strength only, and a root
    /// outside it gets no note (an endgame table holds part of the game by design).
    /// `TablebaseSeeds 12` asks for it: with no option set the layers in the user's data
    /// directory would be loaded, and the test would depend on what this machine holds.
    #[test]
    fn a_search_probes_the_tables_at_full_strength_only() {
        let mut settings = Settings::<Board>::default();
        settings.tables.limit = Some(12);
        let mut slot = TableSlot::default();
        let note = slot
            .load(&settings)
            .expect("a table asked for is announced");
        assert!(
            note.to_string()
                .contains("the abapa tablebase up to 12 seeds, built in memory"),
            "{note}"
        );
        assert!(slot.tables().is_some());
        let game = GameState::from_start(settings.rules);
        let choices = |level| SearchChoices {
            level: Level::new(level),
            lines: 1,
            seed: 0,
            searchmoves: Vec::new(),
        };
        let (full, notes) = SearchSetup::new(&game, &settings, slot.tables(), choices(6));
        assert!(full.oracle.is_some());
        assert_eq!(notes, []);
        let (weak, _) = SearchSetup::new(&game, &settings, slot.tables(), choices(3));
        assert!(weak.oracle.is_none());
        assert_eq!(weak.config.level.number(), 3);
    }

    /// A solution path that names no file: the load fails with a note that says so, is not
    /// tried again until a table option marks the slot stale, and then once.
    #[test]
    fn a_missing_solution_is_an_error_note_and_reloads_when_stale() {
        let settings = Settings::<dobutsu::Position> {
            tables: TableSettings {
                path: Some("/nonexistent/dobutsu.solution".into()),
                limit: None,
                build: None,
            },
            ..Settings::default()
        };
        let mut slot = TableSlot::default();
        let note = slot.load(&settings).unwrap();
        assert!(note.is_error(), "{note}");
        assert!(
            note.to_string().starts_with("error: ")
                && note.to_string().ends_with("; playing by search"),
            "{note}"
        );
        assert_eq!(slot.refresh(&settings, false), []);
        slot.mark_stale();
        assert!(slot.is_stale());
        assert_eq!(slot.refresh(&settings, false), [note]);
        assert!(!slot.is_stale());
    }
}
