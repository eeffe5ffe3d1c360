//! Table files: a fixed header and a payload, written to a temporary name and renamed (so a file
//! is there whole or not at all), verified when loaded and memory-mapped.
//!
//! Header (192 bytes, little-endian): magic `PPTABLE\0`; format version (u32); the game's own
//! table version (u32); the game's name (16 bytes, NUL-padded); 16 counts (u64) whose meaning the
//! game defines; the payload length (u64); a checksum (u64) over the header (with the checksum
//! field zero) and the payload; padding. The payload follows at offset 192, so it is 8-byte
//! aligned in a mapping.

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

/// The magic bytes that open every table file.
pub const MAGIC: &[u8; 8] = b"PPTABLE\0";
/// The version of this layout.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 192;
/// The number of game-defined counts in the header.
pub const COUNTS: usize = 16;

const CHECKSUM_AT: usize = 8 + 4 + 4 + 16 + 8 * COUNTS + 8;

/// What can go wrong with a table file.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// There is no file at the path.
    #[error("no table file at {0}")]
    Missing(PathBuf),
    /// Reading or writing failed.
    #[error("table file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The path is a directory.
    #[error("{0} is a directory, not a table file")]
    Directory(PathBuf),
    /// The file is shorter than its header says (or than a header), or longer.
    #[error("table file {path} has {found} bytes, {expected} expected (truncated, or not a whole table)")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Bytes the header announces (or the header's own length).
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The file is not a table file of this program, or of another layout version.
    #[error("{0} is not a perfectplay table file (bad magic or format version)")]
    NotATable(PathBuf),
    /// The file holds a table of another game or another table version.
    #[error("table file {path} holds '{found}' version {found_version}, expected '{expected}' version {expected_version}")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// The game and version found.
        found: String,
        /// Its version.
        found_version: u32,
        /// The game expected.
        expected: String,
        /// The version expected.
        expected_version: u32,
    },
    /// The checksum does not match: the file is corrupt.
    #[error("table file {0} is corrupt (checksum mismatch)")]
    Corrupt(PathBuf),
    /// The header's counts do not describe the payload.
    #[error("table file {path} is inconsistent: {reason}")]
    Inconsistent {
        /// The file.
        path: PathBuf,
        /// What does not fit.
        reason: String,
    },
}

/// A 64-bit checksum (four interleaved multiply-rotate lanes over 8-byte words, then the tail);
/// fast enough to verify a 200 MB file in a fraction of a second. Not cryptographic.
#[derive(Clone)]
pub struct Checksum {
    lanes: [u64; 4],
    pending: Vec<u8>,
    len: u64,
}

const K: u64 = 0x9E37_79B9_7F4A_7C15;

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum {
            lanes: [1, 2, 3, 4],
            pending: Vec::new(),
            len: 0,
        }
    }
}

impl Checksum {
    /// Adds bytes.
    pub fn update(&mut self, mut data: &[u8]) {
        self.len += data.len() as u64;
        if !self.pending.is_empty() {
            let need = 32 - self.pending.len();
            let take = need.min(data.len());
            self.pending.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.pending.len() == 32 {
                let block: [u8; 32] = self.pending[..].try_into().expect("32 bytes");
                self.block(&block);
                self.pending.clear();
            }
        }
        let mut blocks = data.chunks_exact(32);
        for b in &mut blocks {
            self.block(b.try_into().expect("32 bytes"));
        }
        self.pending.extend_from_slice(blocks.remainder());
    }

    #[inline]
    fn block(&mut self, b: &[u8; 32]) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"));
            *lane = (*lane ^ w).wrapping_mul(K).rotate_left(31);
        }
    }

    /// The checksum of everything added.
    pub fn finish(&self) -> u64 {
        let mut h = self.len.wrapping_mul(K);
        for &lane in &self.lanes {
            h = (h ^ lane).wrapping_mul(K).rotate_left(27);
        }
        for &b in &self.pending {
            h = (h ^ b as u64).wrapping_mul(K).rotate_left(13);
        }
        h ^ (h >> 29)
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> TableError + '_ {
    move |source| TableError::Io {
        path: path.to_owned(),
        source,
    }
}

fn header(game: &str, version: u32, counts: &[u64; COUNTS], payload_len: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER_LEN);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&version.to_le_bytes());
    let mut name = [0u8; 16];
    let n = game.len().min(16);
    name[..n].copy_from_slice(&game.as_bytes()[..n]);
    h.extend_from_slice(&name);
    for c in counts {
        h.extend_from_slice(&c.to_le_bytes());
    }
    h.extend_from_slice(&payload_len.to_le_bytes());
    h.extend_from_slice(&0u64.to_le_bytes());
    h.resize(HEADER_LEN, 0);
    h
}

/// Writes a table file: the header for `game` (its name, at most 16 bytes) at `version` with
/// `counts`, then the `sections` one after the other as the payload. The file is written under a
/// temporary name beside `path`, flushed to disk and renamed, so `path` holds the whole file or
/// what it held before.
///
/// # Errors
/// [`TableError::Io`] when creating, writing or renaming fails (the temporary file is removed).
pub fn write(
    path: &Path,
    game: &str,
    version: u32,
    counts: &[u64; COUNTS],
    sections: &[&[u8]],
) -> Result<(), TableError> {
    let payload_len: u64 = sections.iter().map(|s| s.len() as u64).sum();
    let mut head = header(game, version, counts, payload_len);
    let mut sum = Checksum::default();
    sum.update(&head);
    for s in sections {
        sum.update(s);
    }
    head[CHECKSUM_AT..CHECKSUM_AT + 8].copy_from_slice(&sum.finish().to_le_bytes());
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let result = (|| -> io::Result<()> {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        out.write_all(&head)?;
        for s in sections {
            out.write_all(s)?;
        }
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io_err(path))
}

/// Where a table file written in parts ([`create_parts`]) waits until it is whole: the path
/// with `.parts` added.
pub fn parts_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".parts");
    PathBuf::from(tmp)
}

/// Starts a table file at `path` written in parts by several writers, perhaps processes on
/// several machines sharing the directory: [`parts_path`]`(path)`, made `payload_len` bytes of
/// payload long (after a header left zero). Each writer then writes its parts
/// ([`PartsFile::write_at`]), and one finishes the file ([`finish_parts`]).
///
/// # Errors
/// [`TableError::Io`] when the file cannot be made.
pub fn create_parts(path: &Path, payload_len: u64) -> Result<(), TableError> {
    let tmp = parts_path(path);
    let file = File::create(&tmp).map_err(io_err(&tmp))?;
    file.set_len(HEADER_LEN as u64 + payload_len)
        .map_err(io_err(&tmp))
}

/// A table file being written in parts ([`create_parts`]), open for one writer.
pub struct PartsFile {
    file: File,
    tmp: PathBuf,
}

impl PartsFile {
    /// Opens the parts of the table file at `path`, which [`create_parts`] started.
    ///
    /// # Errors
    /// [`TableError::Io`] when it cannot be opened for writing.
    pub fn open(path: &Path) -> Result<PartsFile, TableError> {
        let tmp = parts_path(path);
        let file = fs::OpenOptions::new()
            .write(true)
            .open(&tmp)
            .map_err(io_err(&tmp))?;
        Ok(PartsFile { file, tmp })
    }

    /// Writes `bytes` at byte `at` of the payload.
    ///
    /// # Errors
    /// [`TableError::Io`] when writing fails.
    pub fn write_at(&self, at: u64, bytes: &[u8]) -> Result<(), TableError> {
        use std::os::unix::fs::FileExt;
        self.file
            .write_all_at(bytes, HEADER_LEN as u64 + at)
            .map_err(io_err(&self.tmp))
    }

    /// Flushes what this writer wrote to disk.
    ///
    /// # Errors
    /// [`TableError::Io`] when flushing fails.
    pub fn sync(self) -> Result<(), TableError> {
        self.file.sync_all().map_err(io_err(&self.tmp))
    }
}

/// Finishes a table file written in parts, once every writer has written and synced its own:
/// reads the payload back for its checksum, writes the header (`game`, `version`, `counts`),
/// flushes the file to disk and renames it to `path`, so that `path` holds the whole file or
/// what it held before. The parts are removed on failure.
///
/// # Errors
/// [`TableError::Io`] when reading, writing or renaming fails.
pub fn finish_parts(
    path: &Path,
    game: &str,
    version: u32,
    counts: &[u64; COUNTS],
) -> Result<(), TableError> {
    use std::os::unix::fs::FileExt;
    let tmp = parts_path(path);
    let result = (|| -> io::Result<()> {
        let file = fs::OpenOptions::new().read(true).write(true).open(&tmp)?;
        let payload_len = file.metadata()?.len().saturating_sub(HEADER_LEN as u64);
        let mut head = header(game, version, counts, payload_len);
        let mut sum = Checksum::default();
        sum.update(&head);
        let mut reader = io::BufReader::with_capacity(1 << 20, &file);
        io::Seek::seek(&mut reader, io::SeekFrom::Start(HEADER_LEN as u64))?;
        let mut block = vec![0u8; 1 << 20];
        loop {
            let got = reader.read(&mut block)?;
            if got == 0 {
                break;
            }
            sum.update(&block[..got]);
        }
        head[CHECKSUM_AT..CHECKSUM_AT + 8].copy_from_slice(&sum.finish().to_le_bytes());
        file.write_all_at(&head, 0)?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io_err(path))
}

/// Removes what [`create_parts`] started for `path`, if anything.
pub fn remove_parts(path: &Path) {
    let _ = fs::remove_file(parts_path(path));
}

/// Checks the table file at `path` as [`TableFile::open`] does, its checksum included, reading
/// it once without mapping it: its counts.
///
/// # Errors
/// As [`TableFile::open`].
pub fn verify(path: &Path, game: &str, version: u32) -> Result<[u64; COUNTS], TableError> {
    let Header {
        file, head, counts, ..
    } = read_header(path, game, version)?;
    let (stored, mut sum) = header_sum(&head);
    let mut reader = io::BufReader::with_capacity(1 << 20, file);
    let mut block = vec![0u8; 1 << 20];
    loop {
        let got = reader.read(&mut block).map_err(io_err(path))?;
        if got == 0 {
            break;
        }
        sum.update(&block[..got]);
    }
    if sum.finish() != stored {
        return Err(TableError::Corrupt(path.to_owned()));
    }
    Ok(counts)
}

/// A table file's payload read at chosen places, its header checked as [`peek`] does (not its
/// checksum): for a reader that holds a part of it ([`verify`] checks the whole).
pub struct PayloadReader {
    file: File,
    path: PathBuf,
    counts: [u64; COUNTS],
}

impl PayloadReader {
    /// Opens the table file at `path`, a table of `game` at `version`.
    ///
    /// # Errors
    /// As [`peek`].
    pub fn open(path: &Path, game: &str, version: u32) -> Result<PayloadReader, TableError> {
        let Header { file, counts, .. } = read_header(path, game, version)?;
        Ok(PayloadReader {
            file,
            path: path.to_owned(),
            counts,
        })
    }

    /// The header's counts.
    pub fn counts(&self) -> &[u64; COUNTS] {
        &self.counts
    }

    /// Reads `into.len()` bytes of the payload from its byte `at`.
    ///
    /// # Errors
    /// [`TableError::Io`] when they cannot be read (beyond the end included).
    pub fn read_at(&self, at: u64, into: &mut [u8]) -> Result<(), TableError> {
        use std::os::unix::fs::FileExt;
        self.file
            .read_exact_at(into, HEADER_LEN as u64 + at)
            .map_err(io_err(&self.path))
    }
}

/// A verified, memory-mapped table file.
pub struct TableFile {
    map: Mmap,
    counts: [u64; COUNTS],
    /// The file mapped, kept open to tell whether it shrank ([`TableFile::check_length`]).
    file: File,
    path: PathBuf,
}

/// Opens `path` for reading: the file and its length.
fn open_file(path: &Path) -> Result<(File, u64), TableError> {
    let file = File::open(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => TableError::Missing(path.to_owned()),
        _ => TableError::Io {
            path: path.to_owned(),
            source: e,
        },
    })?;
    let meta = file.metadata().map_err(io_err(path))?;
    if meta.is_dir() {
        return Err(TableError::Directory(path.to_owned()));
    }
    Ok((file, meta.len()))
}

/// Checks the header `head` (the file's first bytes, up to [`HEADER_LEN`]) of a file of `found`
/// bytes: a table of `game` at `version` whose announced length is the file's. Its counts.
fn check_header(
    path: &Path,
    head: &[u8],
    found: u64,
    game: &str,
    version: u32,
) -> Result<[u64; COUNTS], TableError> {
    // A short file that does not even start as a table is no table, not a truncated one.
    let start = head.len().min(MAGIC.len());
    if head[..start] != MAGIC[..start] {
        return Err(TableError::NotATable(path.to_owned()));
    }
    if head.len() < HEADER_LEN {
        return Err(TableError::Truncated {
            path: path.to_owned(),
            expected: HEADER_LEN as u64,
            found,
        });
    }
    let u32_at = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().expect("4"));
    let u64_at = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().expect("8"));
    if &head[..8] != MAGIC || u32_at(8) != FORMAT_VERSION {
        return Err(TableError::NotATable(path.to_owned()));
    }
    let name = &head[16..32];
    let name = String::from_utf8_lossy(&name[..name.iter().position(|&b| b == 0).unwrap_or(16)])
        .into_owned();
    if name != game || u32_at(12) != version {
        return Err(TableError::Foreign {
            path: path.to_owned(),
            found: name,
            found_version: u32_at(12),
            expected: game.to_owned(),
            expected_version: version,
        });
    }
    let mut counts = [0u64; COUNTS];
    for (i, c) in counts.iter_mut().enumerate() {
        *c = u64_at(32 + 8 * i);
    }
    let expected = HEADER_LEN as u64 + u64_at(CHECKSUM_AT - 8);
    if found != expected {
        return Err(TableError::Truncated {
            path: path.to_owned(),
            expected,
            found,
        });
    }
    Ok(counts)
}

/// Reads only the header of the file at `path` and checks it as [`TableFile::open`] does, but
/// not the payload's checksum: quick, for files a caller only reports on. The header's counts.
///
/// # Errors
/// As [`TableFile::open`], but never [`TableError::Corrupt`].
pub fn peek(path: &Path, game: &str, version: u32) -> Result<[u64; COUNTS], TableError> {
    read_header(path, game, version).map(|header| header.counts)
}

/// A table file's header, read and checked ([`check_header`]), and the file read up to its
/// payload.
struct Header {
    file: File,
    head: Vec<u8>,
    counts: [u64; COUNTS],
    /// The file's length in bytes.
    found: u64,
}

/// Opens the file at `path` and reads and checks its header, as [`peek`] does.
fn read_header(path: &Path, game: &str, version: u32) -> Result<Header, TableError> {
    let (file, found) = open_file(path)?;
    let mut head = Vec::with_capacity(HEADER_LEN);
    // Unbuffered: the header alone is read.
    (&file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut head)
        .map_err(io_err(path))?;
    let counts = check_header(path, &head, found, game, version)?;
    Ok(Header {
        file,
        head,
        counts,
        found,
    })
}

/// The checksum a header (of [`HEADER_LEN`] bytes) stores, and a checksum fed with the header
/// as it was summed when written (its checksum field zero), for the payload to follow.
fn header_sum(head: &[u8]) -> (u64, Checksum) {
    let stored = u64::from_le_bytes(head[CHECKSUM_AT..CHECKSUM_AT + 8].try_into().expect("8"));
    let mut zeroed = head[..HEADER_LEN].to_vec();
    zeroed[CHECKSUM_AT..CHECKSUM_AT + 8].fill(0);
    let mut sum = Checksum::default();
    sum.update(&zeroed);
    (stored, sum)
}

/// Reads the table file at `path` into `sections`, one after the other (their lengths must add up
/// to its payload's), checking its header as [`TableFile::open`] does and its checksum: for a
/// file read once into memory its reader owns (a build's checkpoint), with no mapping. The
/// header's counts. On an error the sections may hold part of the payload.
///
/// # Errors
/// As [`TableFile::open`]; [`TableError::Inconsistent`] when the payload is not as long as the
/// sections.
pub fn read_into(
    path: &Path,
    game: &str,
    version: u32,
    sections: &mut [&mut [u8]],
) -> Result<[u64; COUNTS], TableError> {
    let Header {
        file,
        head,
        counts,
        found,
    } = read_header(path, game, version)?;
    let mut reader = io::BufReader::with_capacity(1 << 20, file);
    let payload: u64 = sections.iter().map(|s| s.len() as u64).sum();
    if found != HEADER_LEN as u64 + payload {
        return Err(TableError::Inconsistent {
            path: path.to_owned(),
            reason: format!(
                "a payload of {} bytes, expected {payload}",
                found - HEADER_LEN as u64
            ),
        });
    }
    let (stored, mut sum) = header_sum(&head);
    for s in sections.iter_mut() {
        reader.read_exact(s).map_err(io_err(path))?;
        sum.update(s);
    }
    if sum.finish() != stored {
        return Err(TableError::Corrupt(path.to_owned()));
    }
    Ok(counts)
}

impl TableFile {
    /// Maps the file at `path` and checks that it is a whole, uncorrupted table of `game` at
    /// `version`.
    ///
    /// # Errors
    /// [`TableError::Missing`], [`TableError::Io`], [`TableError::Truncated`] (also for bytes
    /// beyond the announced length), [`TableError::NotATable`], [`TableError::Foreign`],
    /// [`TableError::Corrupt`].
    pub fn open(path: &Path, game: &str, version: u32) -> Result<TableFile, TableError> {
        TableFile::map(path, game, version, true)
    }

    /// Maps the file at `path` as [`TableFile::open`] does, checking its header and length but
    /// not its checksum, so that no page of the payload is read yet: for a file whose checksum
    /// was checked by [`verify`] (by another process of a split build, say).
    ///
    /// # Errors
    /// As [`TableFile::open`], but never [`TableError::Corrupt`].
    pub fn open_unverified(path: &Path, game: &str, version: u32) -> Result<TableFile, TableError> {
        TableFile::map(path, game, version, false)
    }

    /// [`TableFile::open`], its checksum checked when `checksum`.
    fn map(path: &Path, game: &str, version: u32, checksum: bool) -> Result<TableFile, TableError> {
        let (file, _) = open_file(path)?;
        // SAFETY: the mapping is read-only; the file is ours and is replaced only by rename, so
        // its bytes do not change under the mapping. A file cut short in place while mapped
        // would fault on the next read of what is gone: `check_length` finds it before use.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err(path))?;
        let head = &map[..map.len().min(HEADER_LEN)];
        let counts = check_header(path, head, map.len() as u64, game, version)?;
        if checksum {
            let (stored, mut sum) = header_sum(&map[..HEADER_LEN]);
            sum.update(&map[HEADER_LEN..]);
            if sum.finish() != stored {
                return Err(TableError::Corrupt(path.to_owned()));
            }
        }
        Ok(TableFile {
            map,
            counts,
            file,
            path: path.to_owned(),
        })
    }

    /// The game-defined counts of the header.
    pub fn counts(&self) -> &[u64; COUNTS] {
        &self.counts
    }

    /// The payload.
    pub fn payload(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// Lets the operating system take back the memory of the pages read so far: they leave the
    /// process's resident set (a later read maps them again, from the page cache or the disk).
    /// Only advice, for a solver that reads a layer in one pass and then no more for a while;
    /// an error from the system call is ignored.
    pub fn release(&self) {
        #[cfg(unix)]
        // SAFETY: the mapping is read-only and the file's bytes do not change under it (see
        // `open`), so the pages read again after `DontNeed` hold the same bytes.
        let _ = unsafe {
            self.map
                .unchecked_advise(memmap2::UncheckedAdvice::DontNeed)
        };
    }

    /// Whether the file still has the length it was mapped with, by the metadata of the open
    /// file (one system call): a file cut short in place while mapped (not replaced by rename,
    /// as this program writes them) would kill the process with `SIGBUS` at the next read of
    /// what is gone, so a caller checks before a use. A file cut between the check and the read
    /// still does.
    ///
    /// # Errors
    /// [`TableError::Truncated`] when it shrank, [`TableError::Io`] when its length cannot be
    /// read.
    pub fn check_length(&self) -> Result<(), TableError> {
        let found = self.file.metadata().map_err(io_err(&self.path))?.len();
        let expected = self.map.len() as u64;
        if found < expected {
            return Err(TableError::Truncated {
                path: self.path.clone(),
                expected,
                found,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_does_not_depend_on_how_data_is_split() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut a = Checksum::default();
        a.update(&data);
        let mut b = Checksum::default();
        for piece in data.chunks(13) {
            b.update(piece);
        }
        assert_eq!(a.finish(), b.finish());
        let mut c = Checksum::default();
        let mut changed = data.clone();
        changed[500] ^= 1;
        c.update(&changed);
        assert_ne!(a.finish(), c.finish());
    }
}
