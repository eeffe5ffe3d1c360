//! The transposition table's memory (`Hash`): made resident when set, its making reported, a
//! table shrunk for lack of memory reported, and sizes out of range refused.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::transcript;
use perfectplay::oware::Board;
use perfectplay::search::Searcher;

/// The resident memory of this process, in bytes (Linux: `/proc/self/statm`, in pages of 4 KiB).
#[cfg(target_os = "linux")]
fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("reading /proc/self/statm");
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .expect("resident pages in statm");
    pages * 4096
}

/// Making a table writes all of it, so the search never waits for the system to map a page.
#[cfg(target_os = "linux")]
#[test]
fn a_table_is_resident_once_made() {
    let before = resident_bytes();
    let searcher = Searcher::<Board>::with_hash_mb(256);
    let grown = resident_bytes().saturating_sub(before);
    assert!(
        grown >= 240 << 20,
        "a 256 MiB table made only {} MiB resident",
        grown >> 20
    );
    let report = searcher.hash_report();
    assert_eq!((report.requested_mb, report.bytes), (256, 256 << 20));
    assert!(!report.shrunk);
    assert!(report.threads >= 1);
}

/// `setoption name Hash` makes the table and says what that took, in one `info string`.
#[test]
fn setting_hash_reports_the_table_made() {
    let out = transcript("setoption name Hash value 64\nsetoption name Hash value 100\nisready\n");
    assert_eq!(out.len(), 3, "{out:?}");
    for (line, mb, table) in [(&out[0], 64, 64), (&out[1], 100, 64)] {
        let prefix = format!(
            "info string Hash {mb} MiB: table of {table} MiB, made resident and cleared in "
        );
        assert!(line.starts_with(&prefix), "{line}");
        let rest = &line[prefix.len()..];
        let (ms, rest) = rest.split_once(" ms by ").expect("time and threads");
        assert!(ms.parse::<u64>().is_ok(), "{line}");
        assert!(rest.contains(" thread"), "{line}");
    }
    assert_eq!(out[2], "readyok");
}

/// Runs the binary with its address space limited to `limit_kb`, so a large table cannot be had.
fn run_limited(limit_kb: u64, args: &[&str], input: &str) -> (String, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit_kb} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting the binary under ulimit");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("writing input");
    let out = child.wait_with_output().expect("waiting for the binary");
    assert!(out.status.success(), "exit {}", out.status);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A table shrunk because the system refused the memory is never silent: an `info string` after
/// `setoption`, a warning on standard error for a command-line preset.
#[cfg(unix)]
#[test]
fn a_table_shrunk_for_lack_of_memory_is_reported() {
    let (stdout, _) = run_limited(
        900_000,
        &[],
        "setoption name Hash value 2048\nposition startpos\ngo depth 3\n",
    );
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("info string Hash 2048 MiB: not enough memory: the table was shrunk to "),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with("bestmove "),
        "{stdout}"
    );
    let (stdout, stderr) = run_limited(900_000, &["--option", "Hash=2048"], "isready\n");
    assert_eq!(stdout, "readyok\n", "only protocol lines on stdout");
    assert!(
        stderr.contains("Hash 2048 MiB: not enough memory: the table was shrunk to "),
        "{stderr}"
    );
}

#[test]
fn bench_refuses_sizes_out_of_range() {
    for hash in ["0", "32769", "99999999999", "lots"] {
        let out = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(["bench", "--depth", "1", "--hash", hash])
            .output()
            .expect("running bench");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "--hash {hash} accepted");
        assert!(out.stdout.is_empty(), "--hash {hash}: {:?}", out.stdout);
        assert!(stderr.contains("--hash"), "--hash {hash}: {stderr}");
    }
}
