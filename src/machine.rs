//! What this machine has for a table build: the memory available, the free disk of a directory,
//! the threads. Read from Linux's `/proc/meminfo` and the file system; `None` where it cannot be
//! read (another system, a directory not there yet).

use std::path::Path;

/// What this machine has for a build; `None` where it cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Bytes of memory available without swapping (`MemAvailable` of /proc/meminfo).
    pub memory_available: Option<u64>,
    /// Bytes of memory in all (`MemTotal`).
    pub memory_total: Option<u64>,
    /// Bytes free to this user on the file system of the directory read.
    pub disk_free: Option<u64>,
    /// The threads a build runs on (rayon's pool: the cores, or `RAYON_NUM_THREADS`).
    pub cores: usize,
}

impl Machine {
    /// This machine now, with the free disk of `dir` (which must exist for it to be read).
    pub fn read(dir: &Path) -> Machine {
        Machine {
            memory_available: proc_kib("/proc/meminfo", "MemAvailable").map(|k| k << 10),
            memory_total: proc_kib("/proc/meminfo", "MemTotal").map(|k| k << 10),
            disk_free: fs4::available_space(dir).ok(),
            cores: rayon::current_num_threads(),
        }
    }
}

/// The value in KiB of the line `key:` of a `/proc` file such as `/proc/meminfo` or
/// `/proc/self/status` (`MemAvailable:   23374876 kB`); `None` when the file or the line is not
/// there.
pub fn proc_kib(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| {
        l.strip_prefix(key)
            .is_some_and(|rest| rest.starts_with(':'))
    })?;
    line.split_whitespace().nth(1)?.parse().ok()
}
