//! The match's record files: the `--ogn` file, locked and appended to record by record, the
//! `--ogn-dir` folder of one file per game, each record written whole or not at all, and the
//! date of the records.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::arena::MatchError;

/// Where a match's records go (the `--ogn` file, the `--ogn-dir` folder), and what reached them.
pub(super) struct RecordWriter {
    file: Option<RecordFile>,
    dir: Option<PathBuf>,
    /// The records written and those that failed, for the summary.
    pub(super) written: RecordsWritten,
}

impl RecordWriter {
    /// Opens and locks the `file` and empties it (a match replaces the records of the previous
    /// one), and creates the folder `dir`.
    ///
    /// # Errors
    /// A file that cannot be created or written, or is locked by another match; a folder that
    /// cannot be created.
    pub(super) fn open(
        file: Option<&Path>,
        dir: Option<&Path>,
    ) -> Result<RecordWriter, MatchError> {
        let failed = |action, path: &Path| {
            let path = path.to_path_buf();
            move |source| MatchError::File {
                action,
                path,
                source,
            }
        };
        let mut opened = file.map(RecordFile::open).transpose()?;
        if let (Some(opened), Some(path)) = (opened.as_mut(), file) {
            opened.start().map_err(failed("write", path))?;
        }
        if let Some(dir) = dir {
            fs::create_dir_all(dir).map_err(failed("create", dir))?;
        }
        Ok(RecordWriter {
            file: opened,
            dir: dir.map(Path::to_path_buf),
            written: RecordsWritten {
                targets: file.into_iter().chain(dir).map(Path::to_path_buf).collect(),
                ..RecordsWritten::default()
            },
        })
    }

    /// Writes the record `text` of game `number` to the file and to `DIR/game-NNNN.{extension}`,
    /// counting it written or failed (the first failure is logged and kept for the summary).
    pub(super) fn write(&mut self, number: usize, extension: &str, text: &str) {
        let mut failure = None;
        if let Some(file) = self.file.as_mut() {
            if let Err(e) = file.append(text) {
                failure = Some(e.to_string());
            }
        }
        if let Some(dir) = &self.dir {
            let path = dir.join(format!("game-{number:04}.{extension}"));
            if let Err(e) = write_whole(&path, text) {
                failure.get_or_insert_with(|| format!("{}: {e}", path.display()));
            }
        }
        let records = &mut self.written;
        match failure {
            Some(e) => {
                if records.first_error.is_none() {
                    log::error!("cannot write the record of game {number}: {e}");
                    records.first_error = Some(e);
                }
                records.failed += 1;
            }
            None if records.targets.is_empty() => {}
            None => records.written += 1,
        }
    }
}

/// The `--ogn` file, locked for this match: records are appended whole (a failed write is cut
/// back off), and a second match cannot write it at the same time.
struct RecordFile {
    file: File,
    /// Bytes of whole records written so far.
    len: u64,
    /// A regular file (not a device or a pipe), which can be emptied and cut back.
    regular: bool,
}

impl RecordFile {
    /// Opens `path` for writing without truncating it, and locks it; [`RecordFile::start`]
    /// empties it.
    fn open(path: &Path) -> Result<RecordFile, MatchError> {
        let file = fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|source| MatchError::File {
                action: "create",
                path: path.to_path_buf(),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(MatchError::Locked(path.to_path_buf()))
            }
            Err(fs::TryLockError::Error(e)) => {
                // A file system without locks (some network mounts): write unlocked.
                log::warn!("cannot lock {}: {e}", path.display());
            }
        }
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        Ok(RecordFile {
            file,
            len: 0,
            regular,
        })
    }

    /// Empties the file: a match replaces the records of the previous one.
    fn start(&mut self) -> io::Result<()> {
        if !self.regular {
            return Ok(());
        }
        self.file.set_len(0)?;
        self.file.seek(SeekFrom::Start(0)).map(drop)
    }

    /// Appends one record whole, or not at all.
    fn append(&mut self, text: &str) -> io::Result<()> {
        let written = self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush());
        match written {
            Ok(()) => {
                self.len += text.len() as u64;
                Ok(())
            }
            Err(e) => {
                // Cut off what part of the record got in, so that the file stays readable.
                if self.regular {
                    let _ = self.file.set_len(self.len);
                    let _ = self.file.seek(SeekFrom::Start(self.len));
                }
                Err(e)
            }
        }
    }
}

/// Writes `text` to `path` whole or not at all: into a temporary file beside it, then renamed.
fn write_whole(path: &Path, text: &str) -> io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.partial"));
    let written = fs::write(&temporary, text).and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// Whether two paths name the same existing file.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Game records written or not, for the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordsWritten {
    /// Where they go: the `--ogn` file and/or the `--ogn-dir` folder.
    pub targets: Vec<PathBuf>,
    /// Records written to every target.
    pub written: usize,
    /// Records that failed to reach at least one target.
    pub failed: usize,
    /// The first failure, as the operating system put it.
    pub first_error: Option<String>,
}

impl fmt::Display for RecordsWritten {
    /// `Records: 6 games written to games.ogn` or `Records: FAILED: 2 of 2 games not written to
    /// /dev/full (No space left on device (os error 28))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let targets: Vec<String> = self
            .targets
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let targets = targets.join(" and ");
        if self.failed == 0 {
            write!(f, "Records: {} games written to {targets}", self.written)
        } else {
            write!(
                f,
                "Records: FAILED: {} of {} games not written to {targets} ({})",
                self.failed,
                self.failed + self.written,
                self.first_error.as_deref().unwrap_or("?")
            )
        }
    }
}

/// Today's date (UTC) as `YYYY.MM.DD`, as PGN and OGN write it.
pub(super) fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_147), (2025, 2, 28));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(today().len(), 10);
    }
}
