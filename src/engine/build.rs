//! The background build of a game's tables in their default place (`AutoSolve`: the Dobutsu
//! solution, Oware's tablebase), so that a fresh install plays with them without a command run
//! by hand.
//!
//! One engine builds at a time: the builder holds an exclusive lock on the build's lock file
//! ([`TablesBuild::lock`], beside the files) for as long as it builds, and an engine that finds
//! the lock held plays by search until the tables are written. Each file is written whole or
//! not at all ([`crate::retro`]'s table files: a temporary name, then a rename), so a failed or
//! interrupted build leaves no partial file; the lock file is removed when the build ends.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use super::Note;
use crate::game::TablesBuild;

/// Where a background build stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    /// This engine is building.
    Running,
    /// Another engine holds the lock: it is building.
    Elsewhere,
    /// The file is written.
    Done,
    /// The build failed: why.
    Failed(String),
}

/// A background build this engine started, or found another engine running.
pub struct Build {
    path: PathBuf,
    lock: PathBuf,
    written: Arc<dyn Fn() -> bool + Send + Sync>,
    state: Arc<Mutex<State>>,
}

/// What became of a build since it was last asked ([`Build::poll`]).
pub enum BuildStatus {
    /// Still building (here or elsewhere).
    Building,
    /// The file is there: load it.
    Written,
    /// It failed: the note that says why.
    Failed(Note),
}

impl Build {
    /// Starts `job` on a thread of its own unless another engine holds the lock; returns the
    /// build and the note that says what happens (none when another engine had just written
    /// the file), or the note of the error when the place cannot even be made (then nothing
    /// runs).
    pub fn start(job: TablesBuild) -> Result<(Build, Option<Note>), Note> {
        let path = job.path.clone();
        let failed = |e: std::io::Error| Note::BuildNotStarted {
            description: job.description.clone(),
            path: path.clone(),
            error: e.to_string(),
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(failed)?;
        }
        let lock_path = job.lock.clone();
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(failed)?;
        let written: Arc<dyn Fn() -> bool + Send + Sync> = Arc::from(job.written);
        let build = |state| Build {
            path: path.clone(),
            lock: lock_path.clone(),
            written: Arc::clone(&written),
            state: Arc::new(Mutex::new(state)),
        };
        if lock.try_lock().is_err() {
            let note = Note::BuildElsewhere {
                description: job.description.clone(),
                path: path.clone(),
            };
            return Ok((build(State::Elsewhere), Some(note)));
        }
        // Another engine may have finished between our look and the lock.
        if written() {
            drop(lock);
            return Ok((build(State::Done), None));
        }
        let note = Note::BuildStarted {
            description: job.description.clone(),
            path: path.clone(),
        };
        let started = build(State::Running);
        let state = Arc::clone(&started.state);
        thread::spawn(move || {
            let result = (job.run)();
            finish(lock, &lock_path);
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            *state = match result {
                Ok(()) => State::Done,
                Err(e) => State::Failed(e.to_string()),
            };
        });
        Ok((started, Some(note)))
    }

    /// Where the build stands now: the file written (by this engine or another), a failure, or
    /// still building. A build another engine ran that ended without the file counts as failed.
    pub fn poll(&self) -> BuildStatus {
        let state = self
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        match state {
            State::Running => BuildStatus::Building,
            State::Done => BuildStatus::Written,
            State::Failed(error) => BuildStatus::Failed(Note::BuildFailed {
                path: self.path.clone(),
                error,
            }),
            State::Elsewhere if (self.written)() => BuildStatus::Written,
            State::Elsewhere if lock_is_free(&self.lock) => {
                BuildStatus::Failed(Note::OtherBuildEnded {
                    path: self.path.clone(),
                })
            }
            State::Elsewhere => BuildStatus::Building,
        }
    }
}

/// Removes the lock file and lets go of the lock (in that order, so that an engine that opens
/// the old name after the removal makes a new lock file and, holding it, finds the file built).
fn finish(lock: File, lock_path: &Path) {
    let _ = std::fs::remove_file(lock_path);
    let _ = lock.unlock();
}

/// Whether no engine holds the lock file `lock` (or it is gone).
fn lock_is_free(lock: &Path) -> bool {
    match File::open(lock) {
        Ok(file) => file.try_lock().is_ok(),
        Err(_) => true,
    }
}
