//! A game's exact tables through the engine's life: loaded from the place the settings name,
//! loaded again when a table option changes, built in the background when missing from their
//! default place, and dropped when a file they map is cut short. The protocol session and the
//! web server both keep one [`TableSlot`] per game and ask it before each use.

use super::build::{Build, BuildStatus};
use super::Note;
use crate::game::{Game, Settings, Tables};

/// The tables of one game and what became of loading or building them.
pub struct TableSlot<G: Game> {
    tables: Option<Tables<G>>,
    /// The background build of the tables in their default place, while it runs.
    build: Option<Build>,
    /// Whether a background build was started (or found running): it is not started again.
    build_tried: bool,
    /// Whether a table option changed since the tables were loaded.
    stale: bool,
}

impl<G: Game> Default for TableSlot<G> {
    fn default() -> Self {
        TableSlot {
            tables: None,
            build: None,
            build_tried: false,
            stale: false,
        }
    }
}

impl<G: Game> TableSlot<G> {
    /// A slot holding `tables` already loaded.
    pub fn with_tables(tables: Tables<G>) -> TableSlot<G> {
        TableSlot {
            tables: Some(tables),
            ..TableSlot::default()
        }
    }

    /// Whether a table option was set since the tables were loaded.
    pub fn is_stale(&self) -> bool {
        self.stale
    }

    /// The tables loaded now, if any.
    pub fn tables(&self) -> Option<&Tables<G>> {
        self.tables.as_ref()
    }

    /// Whether a background build runs (here or in another engine).
    pub fn is_building(&self) -> bool {
        self.build.is_some()
    }

    /// Loads the tables `settings` name (no path: the game's default place), replacing those
    /// loaded. The note says what was loaded; there is none when there is nothing to say (the
    /// game's built-in default, or no tables where none were asked for or loaded before).
    pub fn load(&mut self, settings: &Settings<G>) -> Option<Note> {
        let asked = settings.tables.path.is_some();
        let had = self.tables.take().is_some();
        match G::load_tables(&settings.tables, &settings.rules) {
            Ok(Some(tables)) => {
                let note = (asked || !tables.description.is_empty()).then(|| Note::Loaded {
                    description: tables.description.clone(),
                });
                self.tables = Some(tables);
                note
            }
            Ok(None) => (asked || had).then_some(Note::NoTables),
            Err(error) => Some(Note::LoadFailed { error }),
        }
    }

    /// Marks the tables to be loaded again before their next use (a table option was set), so
    /// that options set together load them once; a build not running may then start again
    /// (the option may have asked for more).
    pub fn mark_stale(&mut self) {
        self.stale = true;
        if self.build.is_none() {
            self.build_tried = false;
        }
    }

    /// Loads the tables again if a table option was set since they were loaded.
    pub fn reload_if_stale(&mut self, settings: &Settings<G>) -> Option<Note> {
        if !std::mem::take(&mut self.stale) {
            return None;
        }
        self.load(settings)
    }

    /// Starts the build of the tables missing from their default place when `wanted` (once in
    /// the slot's life), and loads them once written: the notes that say so (one when the build
    /// starts, one when it is loaded or has failed).
    pub fn follow_build(&mut self, settings: &Settings<G>, wanted: bool) -> Vec<Note> {
        let mut notes = Vec::new();
        // The game says whether its default place lacks anything (Oware plays with its small
        // table built in memory while the larger one is built); asked once, not at every use.
        if wanted && !self.build_tried {
            self.build_tried = true;
            if let Some(job) = G::default_tables_build(&settings.tables, &settings.rules) {
                match Build::start(job) {
                    Ok((build, note)) => {
                        notes.extend(note);
                        self.build = Some(build);
                    }
                    Err(note) => notes.push(note),
                }
            }
        }
        let progress = self.build.as_ref().map(Build::poll);
        match progress {
            None | Some(BuildStatus::Building) => {}
            Some(BuildStatus::Written) => {
                self.build = None;
                notes.extend(self.load(settings));
            }
            Some(BuildStatus::Failed(note)) => {
                self.build = None;
                notes.push(note);
            }
        }
        notes
    }

    /// Drops the tables when a file they map has been cut short since it was loaded (a read of
    /// what is gone would kill the process): the note that says so.
    pub fn drop_cut(&mut self) -> Option<Note> {
        let error = self.tables.as_ref()?.oracle.check_files().err()?;
        self.tables = None;
        Some(Note::TablesCut {
            error: error.to_string(),
        })
    }

    /// What a front end asks before it uses the tables: loaded again if stale, the background
    /// build started (when `build_wanted`) or followed, and dropped if cut short; the notes of
    /// all that.
    pub fn refresh(&mut self, settings: &Settings<G>, build_wanted: bool) -> Vec<Note> {
        let mut notes: Vec<Note> = self.reload_if_stale(settings).into_iter().collect();
        notes.extend(self.follow_build(settings, build_wanted));
        notes.extend(self.drop_cut());
        notes
    }
}
