//! Layer files: one [`crate::retro::file`] table of game `oware` per layer, named
//! `oware-<variant>-<seeds>.tb` (seeds in two digits), whose payload is one value byte (an `i8`)
//! per position in rank order: the lower bounds, then (`abapa`) the upper bounds; then one
//! distance byte per position ([`super::Tablebase::distance`]; 255 for none).
//!
//! Header counts: 0 the variant (0 abapa, 1 awari), 1 the seeds, 2 the positions, 3 the bytes per
//! position (2 awari, 3 abapa), 4 the positions whose value is only bounded.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::index::MAX_SEEDS;
use super::reachable::reachable_len;
use super::split::Split;
use super::{Checkpoint, Layer, Pass, Tablebase};
use crate::oware::RuleSet;
use crate::retro::file::{self as table, TableError, TableFile, COUNTS};
use crate::retro::Storage;

/// The game name in the header.
pub const GAME: &str = "oware";
/// The version of a variant's payload layout and meaning: 3 since the layers hold distances
/// (version 2 held the values alone; version 1 held every board, not only those that can follow a
/// move, [`super::reachable`]); abapa's 4 since its bounds count the cycles that keep a margin
/// (the build's cycle pass), tighter than version 3's (whose files are refused by name
/// rather than read as if they were these). Awari's layers did not change.
pub fn version(variant: RuleSet) -> u32 {
    match variant {
        RuleSet::Awari => 3,
        RuleSet::Abapa => 4,
    }
}

/// The file name of the layer of `seeds` seeds.
pub fn layer_name(variant: RuleSet, seeds: u32) -> String {
    format!("oware-{variant}-{seeds:02}.tb")
}

/// Writes every layer of `tb` not yet in `dir` (whole or not at all, each), creating `dir`;
/// layers that came from files are not rewritten. The paths written.
///
/// # Errors
/// [`TableError::Io`] when the directory or a file cannot be written.
pub fn save(tb: &Tablebase, dir: &Path) -> Result<Vec<PathBuf>, TableError> {
    std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let mut written = Vec::new();
    for n in 0..tb.layers.len() as u32 {
        written.extend(save_layer(tb, n, dir)?);
    }
    Ok(written)
}

/// Writes the layer of `seeds` seeds of `tb` to its file in `dir` (which must exist), whole or
/// not at all, unless it came from a file; the path written. Nothing for a layer the table does
/// not hold.
///
/// # Errors
/// [`TableError::Io`] when the file cannot be written.
pub fn save_layer(tb: &Tablebase, seeds: u32, dir: &Path) -> Result<Option<PathBuf>, TableError> {
    let Some(layer) = tb.layers.get(seeds as usize) else {
        return Ok(None);
    };
    let Some(sections) = layer.storage.owned_sections() else {
        return Ok(None);
    };
    let path = dir.join(layer_name(tb.variant, seeds));
    if !layer.is_whole() {
        return Err(TableError::Inconsistent {
            path,
            reason: "the table holds one rank's share of the layer: save_share writes it".into(),
        });
    }
    let mut counts = [0u64; COUNTS];
    counts[..5].copy_from_slice(&[
        tb.variant as u64,
        seeds as u64,
        reachable_len(seeds),
        sections.len() as u64,
        layer.bounded,
    ]);
    table::write(&path, GAME, version(tb.variant), &counts, &sections)?;
    Ok(Some(path))
}

/// Writes the layer of `seeds` seeds of `tb`, one rank's table in a split build (its share of
/// the layer, [`Tablebase::build_next_split`]), to its file in `dir`, a directory every rank
/// sees, and maps the file in place of the share: a collective, every rank calls it for the
/// same layer. Rank 0 makes the file (under [`table::parts_path`]), each rank writes its blocks
/// of each section at their places, and rank 0 reads it back for its checksum, writes its
/// header and renames it: the same file as [`save_layer`] writes for the whole layer, there
/// whole or not at all. Then every rank maps it (without reading it: rank 0 has just summed
/// it), and the table holds the layer whole again. The path written.
///
/// # Errors
/// [`TableError::Io`] on every rank when one could not make, write or finish its part (on the
/// others it names that rank), or map the file written; [`TableError::Inconsistent`] when the
/// table does not hold this rank's share of the layer.
pub fn save_share(
    tb: &mut Tablebase,
    seeds: u32,
    dir: &Path,
    split: &Split,
) -> Result<PathBuf, TableError> {
    let path = dir.join(layer_name(tb.variant, seeds));
    let part = split.part();
    let sections = tb
        .layers
        .get(seeds as usize)
        .filter(|l| l.part == part)
        .and_then(|l| l.storage.owned_sections().map(|s| (l, s)));
    let lead = split.rank() == 0;
    let agreed = |r: Result<(), TableError>| -> Result<(), TableError> {
        let all = split.all_gather(&[r.is_ok() as u8]);
        match (r, all.iter().position(|b| b[0] == 0)) {
            (Err(e), _) => Err(e),
            (Ok(()), Some(rank)) => Err(TableError::Io {
                path: path.clone(),
                source: std::io::Error::other(format!("rank {rank} could not write its part")),
            }),
            (Ok(()), None) => Ok(()),
        }
    };
    let Some((layer, sections)) = sections else {
        let missing = Err(TableError::Inconsistent {
            path: path.clone(),
            reason: format!("the table does not hold this rank's share of layer {seeds}"),
        });
        agreed(missing)?;
        unreachable!("agreed fails on a failure");
    };
    let len = reachable_len(seeds);
    let made = match lead {
        true => table::create_parts(&path, sections.len() as u64 * len),
        false => Ok(()),
    };
    agreed(made)?;
    let wrote = (|| {
        let file = table::PartsFile::open(&path)?;
        let block = part.block() as usize;
        for (k, section) in sections.iter().enumerate() {
            for start in (0..section.len()).step_by(block) {
                let bytes = &section[start..(start + block).min(section.len())];
                file.write_at(k as u64 * len + part.global(start as u64), bytes)?;
            }
        }
        file.sync()
    })();
    let wrote = agreed(wrote);
    if wrote.is_err() && lead {
        table::remove_parts(&path);
    }
    wrote?;
    let done = match lead {
        true => table::finish_parts(&path, GAME, version(tb.variant), &counts(tb, seeds, layer)),
        false => Ok(()),
    };
    agreed(done)?;
    let (mapped, result) = match map_layer(&path, tb.variant, seeds, false) {
        Ok(layer) => (Some(layer), Ok(())),
        Err(e) => (None, Err(e)),
    };
    agreed(result)?;
    tb.layers[seeds as usize] = mapped.expect("agreed fails on a failure");
    Ok(path)
}

/// The header counts of the layer file of `layer`, the layer of `seeds` seeds of `tb`.
fn counts(tb: &Tablebase, seeds: u32, layer: &Layer) -> [u64; COUNTS] {
    let mut counts = [0u64; COUNTS];
    counts[..5].copy_from_slice(&[
        tb.variant as u64,
        seeds as u64,
        reachable_len(seeds),
        layer.storage.sections() as u64,
        layer.bounded,
    ]);
    counts
}

/// The layers of `variant` in `dir` as one rank of a split build holds them, mapped from their
/// files without reading them (a rank reads only the pages of its share, [`super::split`]):
/// layer 0, 1, ... while every rank finds them sound (rank 0 reads each file once for its
/// checksum, without mapping it; every rank checks the header and the length): a collective.
/// The problems met on this rank, as [`load`] names them (a missing layer file is none: the
/// build goes on from there).
pub fn load_share(dir: &Path, variant: RuleSet, split: &Split) -> (Tablebase, Vec<TableError>) {
    let mut tb = Tablebase::empty(variant);
    let mut problems = Vec::new();
    for n in 0..=MAX_SEEDS {
        let path = dir.join(layer_name(variant, n));
        let layer = match split.rank() {
            0 => table::verify(&path, GAME, version(variant)).map(|_| ()),
            _ => Ok(()),
        }
        .and_then(|()| map_layer(&path, variant, n, false));
        let everywhere = split.all_gather(&[layer.is_ok() as u8]);
        match layer {
            Ok(layer) if everywhere.iter().all(|b| b[0] == 1) => tb.layers.push(layer),
            Ok(_) | Err(TableError::Missing(_)) => break,
            Err(e) => {
                problems.push(e);
                break;
            }
        }
    }
    (tb, problems)
}

/// Writes the layer of `seeds` seeds of `tb` as [`save_layer`] does, then puts its file, mapped
/// and verified, in place of the layer's memory, and gives back the memory of its pages
/// ([`crate::retro::Storage::release`]): a build that goes on holds no built layer in memory.
/// The path written; nothing for a layer the table does not hold or that came from a file.
///
/// # Errors
/// [`TableError::Io`] when the file cannot be written; what [`load`] refuses when the file
/// written cannot be read back whole (then the layer stays in memory).
pub fn save_and_map_layer(
    tb: &mut Tablebase,
    seeds: u32,
    dir: &Path,
) -> Result<Option<PathBuf>, TableError> {
    let Some(path) = save_layer(tb, seeds, dir)? else {
        return Ok(None);
    };
    let layer = load_layer(&path, tb.variant, seeds)?;
    layer.storage.release();
    tb.layers[seeds as usize] = layer;
    Ok(Some(path))
}

/// Maps and verifies the layer file at `path`, which must hold the layer of `seeds` seeds for
/// `variant`.
fn load_layer(path: &Path, variant: RuleSet, seeds: u32) -> Result<Layer, TableError> {
    map_layer(path, variant, seeds, true)
}

/// Maps the layer file at `path`, which must hold the layer of `seeds` seeds for `variant`: its
/// header and length checked, and when `read` its checksum and values too (else no page of it
/// is read).
fn map_layer(path: &Path, variant: RuleSet, seeds: u32, read: bool) -> Result<Layer, TableError> {
    let file = match read {
        true => TableFile::open(path, GAME, version(variant))?,
        false => TableFile::open_unverified(path, GAME, version(variant))?,
    };
    let c = *file.counts();
    let inconsistent = |reason: String| TableError::Inconsistent {
        path: path.to_owned(),
        reason,
    };
    if c[0] != variant as u64 || c[1] != seeds as u64 {
        return Err(inconsistent(format!(
            "it holds variant {} with {} seeds, expected {variant} with {seeds}",
            c[0], c[1]
        )));
    }
    let exact = variant == RuleSet::Awari;
    let per = if exact { 2 } else { 3 };
    let len = reachable_len(seeds);
    if c[2] != len || c[3] != per || file.payload().len() as u64 != per * len {
        return Err(inconsistent(format!(
            "{} positions of {} bytes in {} bytes, expected {len} of {per}",
            c[2],
            c[3],
            file.payload().len()
        )));
    }
    let limit = seeds as i8;
    let values = (per - 1) * len;
    if read
        && file.payload()[..values as usize]
            .iter()
            .any(|&b| !(-limit..=limit).contains(&(b as i8)))
    {
        return Err(inconsistent(format!("a value outside -{seeds}..{seeds}")));
    }
    let sections = vec![len as usize; per as usize];
    Ok(Layer::whole(Storage::mapped(file, &sections), c[4]))
}

/// Loads the layers of `variant` from `dir`: layer 0, 1, ... while their files are there and
/// sound, up to `up_to` seeds (all there are when `None`). Returns the table (perhaps with no
/// layer) and the problems met, each naming its file: the first layer refused (missing below
/// `up_to` or below a layer file that is there; truncated, corrupt, of another game, variant or
/// layer), from which on the layers are not used; then, of the layers above it, each missing
/// below the highest file there and each whose header or length is wrong (their payloads are not
/// read); and stray files (any name in `dir` that is no layer file of either variant), which
/// are skipped.
pub fn load(dir: &Path, variant: RuleSet, up_to: Option<u32>) -> (Tablebase, Vec<TableError>) {
    let mut tb = Tablebase::empty(variant);
    let mut problems = Vec::new();
    let last = up_to.unwrap_or(MAX_SEEDS).min(MAX_SEEDS);
    let path = |n| dir.join(layer_name(variant, n));
    // A missing layer is a problem below a layer file, and (the first) below the last asked for.
    let highest = (0..=last).rev().find(|&n| path(n).exists());
    let wanted = highest.max(up_to.map(|_| last));
    let mut n = 0;
    while n <= last {
        match load_layer(&path(n), variant, n) {
            Ok(layer) => tb.layers.push(layer),
            Err(e) => {
                if !matches!(e, TableError::Missing(_)) || wanted.is_some_and(|w| n <= w) {
                    problems.push(e);
                }
                break;
            }
        }
        n += 1;
    }
    // The layers above the first refused: unused, but what is wrong with them is said too.
    for m in n + 1..=highest.unwrap_or(0) {
        if let Err(e) = table::peek(&path(m), GAME, version(variant)) {
            problems.push(e);
        }
    }
    problems.extend(stray_files(dir));
    (tb, problems)
}

/// The names in `dir` that are no layer file of either variant, in name order, each as a
/// problem.
fn stray_files(dir: &Path) -> Vec<TableError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut stray: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_str().is_some_and(is_layer_name))
        .map(|e| e.path())
        .collect();
    stray.sort();
    stray
        .into_iter()
        .map(|path| TableError::Inconsistent {
            path,
            reason: "a stray file, not a layer file (oware-<variant>-<seeds>.tb); skipped".into(),
        })
        .collect()
}

/// Whether `name` is the name of a layer file, of a checkpoint or of parked bytes
/// ([`PassFiles`], a rank's included) of either variant.
fn is_layer_name(name: &str) -> bool {
    // A rank's parked bytes: `oware-<variant>-<seeds>.rank<rank>.park`.
    let of_rank = |stem: &str| {
        name.strip_prefix(stem)
            .and_then(|rest| rest.strip_suffix(".park"))
            .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
    };
    (0..=MAX_SEEDS).any(|n| {
        [RuleSet::Abapa, RuleSet::Awari].iter().any(|&v| {
            layer_name(v, n) == name
                || pass_name(v, n) == name
                || park_name(v, n) == name
                || of_rank(&format!("oware-{v}-{n:02}.rank"))
        })
    })
}

/// The game name in a checkpoint's header ([`PassFiles`]).
pub const PASS_GAME: &str = "oware-pass";

/// The version of a checkpoint's layout: the build's state words as this build lays them out
/// (`build.rs`); a checkpoint of another layout is refused, and the layer built from its start.
pub const PASS_VERSION: u32 = 2;

/// The file name of the checkpoint of the layer of `seeds` seeds ([`PassFiles`]).
pub fn pass_name(variant: RuleSet, seeds: u32) -> String {
    format!("oware-{variant}-{seeds:02}.pass")
}

/// The file name of the bytes parked by the build of the layer of `seeds` seeds ([`PassFiles`]).
pub fn park_name(variant: RuleSet, seeds: u32) -> String {
    format!("oware-{variant}-{seeds:02}.park")
}

/// The file name of the bytes parked by rank `rank` of a split build of the layer of `seeds`
/// seeds ([`PassFiles::of_rank`]).
pub fn rank_park_name(variant: RuleSet, seeds: u32, rank: usize) -> String {
    format!("oware-{variant}-{seeds:02}.rank{rank}.park")
}

/// Checkpoints of the builds of layers in files beside the layer files:
/// `oware-<variant>-<seeds>.pass`, what the build holds after its last pass kept ([`Pass`]; a
/// [`crate::retro::file`] table of game [`PASS_GAME`], counts: the variant, the seeds, the
/// positions, the pass, the sections), written whole or not at all and replaced by the next pass's.
/// Only layers of at least `min_positions` positions are kept (smaller ones are quicker to build
/// again than to write). Every layer's build parks its best exits ([`Checkpoint::park`], 1 byte a
/// position) in `oware-<variant>-<seeds>.park` while it finds its values, a scratch file (no
/// header, not synced: only this build reads it back). The front end removes a layer's files but
/// its layer file once that is written ([`PassFiles::done`]), and reads what went wrong from
/// [`PassFiles::take_problems`].
pub struct PassFiles {
    dir: PathBuf,
    variant: RuleSet,
    min_positions: u64,
    /// The rank of a split build whose bytes these park ([`PassFiles::of_rank`]).
    rank: Option<usize>,
    problems: Mutex<Problems>,
}

/// What went wrong with the checkpoint files since the last [`PassFiles::take_problems`].
#[derive(Debug, Default)]
pub struct Problems {
    /// Checkpoints found but not used (truncated, corrupt, of another layout): the layer was
    /// built from the start of the pass before them.
    pub unread: Vec<TableError>,
    /// Checkpoints that could not be written.
    pub unwritten: Vec<TableError>,
    /// Bytes that could not be parked: the build kept them in memory.
    pub unparked: Vec<TableError>,
    /// Parked bytes that could not be read back: the layer built without them is wrong, and
    /// must not be kept.
    pub lost: Vec<TableError>,
}

impl PassFiles {
    /// Checkpoints of the layers of `variant` with at least `min_positions` positions, in `dir`.
    pub fn new(dir: &Path, variant: RuleSet, min_positions: u64) -> PassFiles {
        PassFiles {
            dir: dir.to_owned(),
            variant,
            min_positions,
            rank: None,
            problems: Mutex::new(Problems::default()),
        }
    }

    /// What rank `rank` of a split build parks, in `dir` (which every rank may share): its
    /// share's best exits in `oware-<variant>-<seeds>.rank<rank>.park` ([`rank_park_name`]). A
    /// split build keeps no checkpoint ([`Checkpoint::keeps`] says none).
    pub fn of_rank(dir: &Path, variant: RuleSet, rank: usize) -> PassFiles {
        PassFiles {
            rank: Some(rank),
            ..PassFiles::new(dir, variant, u64::MAX)
        }
    }

    /// The path of the checkpoint of the layer of `seeds` seeds.
    pub fn path(&self, seeds: u32) -> PathBuf {
        self.dir.join(pass_name(self.variant, seeds))
    }

    /// The path of the bytes parked by the build of the layer of `seeds` seeds.
    pub fn park_path(&self, seeds: u32) -> PathBuf {
        self.dir.join(match self.rank {
            Some(rank) => rank_park_name(self.variant, seeds, rank),
            None => park_name(self.variant, seeds),
        })
    }

    /// Removes the checkpoint and the parked bytes of the layer of `seeds` seeds, those that
    /// are there: for after its layer file is written.
    ///
    /// # Errors
    /// [`TableError::Io`] when one is there and cannot be removed.
    pub fn done(&self, seeds: u32) -> Result<(), TableError> {
        let mut result = Ok(());
        for path in [self.park_path(seeds), self.path(seeds)] {
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    result = Err(TableError::Io { path, source: e });
                }
                _ => {}
            }
        }
        result
    }

    /// What went wrong since the last call, now forgotten.
    pub fn take_problems(&self) -> Problems {
        std::mem::take(&mut *self.problems.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn problem(&self, kind: fn(&mut Problems) -> &mut Vec<TableError>, e: TableError) {
        kind(&mut self.problems.lock().unwrap_or_else(|e| e.into_inner())).push(e);
    }

    fn counts(&self, seeds: u32, pass: Pass, sections: usize) -> [u64; COUNTS] {
        let mut counts = [0u64; COUNTS];
        counts[..5].copy_from_slice(&[
            self.variant as u64,
            seeds as u64,
            reachable_len(seeds),
            pass as u64,
            sections as u64,
        ]);
        counts
    }
}

impl Checkpoint for PassFiles {
    fn resume(&self, seeds: u32, pass: Pass, sections: &mut [&mut [u8]]) -> bool {
        if !self.keeps(seeds) {
            return false;
        }
        let path = self.path(seeds);
        let expected = self.counts(seeds, pass, sections.len());
        match table::peek(&path, PASS_GAME, PASS_VERSION) {
            Err(TableError::Missing(_)) => return false,
            Err(e) => {
                self.problem(|p| &mut p.unread, e);
                return false;
            }
            // Another pass's: not this one's to read.
            Ok(c) if c[..5] == expected[..5] => {}
            Ok(c) if c[..3] == expected[..3] => return false,
            Ok(c) => {
                let reason = format!(
                    "it holds variant {} with {} seeds and {} positions, expected {} with \
                     {seeds} and {}",
                    c[0], c[1], c[2], self.variant, expected[2]
                );
                self.problem(|p| &mut p.unread, TableError::Inconsistent { path, reason });
                return false;
            }
        }
        match table::read_into(&path, PASS_GAME, PASS_VERSION, sections) {
            Ok(_) => true,
            Err(e) => {
                self.problem(|p| &mut p.unread, e);
                false
            }
        }
    }

    fn save(&self, seeds: u32, pass: Pass, sections: &[&[u8]]) {
        if !self.keeps(seeds) {
            return;
        }
        let counts = self.counts(seeds, pass, sections.len());
        if let Err(e) = table::write(
            &self.path(seeds),
            PASS_GAME,
            PASS_VERSION,
            &counts,
            sections,
        ) {
            self.problem(|p| &mut p.unwritten, e);
        }
    }

    fn keeps(&self, seeds: u32) -> bool {
        reachable_len(seeds) >= self.min_positions
    }

    fn park(&self, seeds: u32, bytes: &[u8]) -> bool {
        let path = self.park_path(seeds);
        match std::fs::write(&path, bytes) {
            Ok(()) => true,
            Err(source) => {
                // What was written is not read: the build keeps the bytes in memory.
                let _ = std::fs::remove_file(&path);
                self.problem(|p| &mut p.unparked, TableError::Io { path, source });
                false
            }
        }
    }

    fn unpark(&self, seeds: u32, at: u64, into: &mut [u8]) -> bool {
        use std::io::{Read, Seek, SeekFrom};
        let path = self.park_path(seeds);
        let read = std::fs::File::open(&path).and_then(|mut f| {
            f.seek(SeekFrom::Start(at))?;
            f.read_exact(into)
        });
        match read {
            Ok(()) => true,
            Err(source) => {
                self.problem(|p| &mut p.lost, TableError::Io { path, source });
                false
            }
        }
    }

    fn unparked(&self, seeds: u32) {
        // What cannot be removed now is removed with the layer's checkpoint (`done`), or said
        // there.
        let _ = std::fs::remove_file(self.park_path(seeds));
    }
}
