//! Helpers for the match runner's tests: the `match` command line as clap reads it, a match run
//! without interrupt or events, and scratch files for records.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Parser;
use perfectplay::arena::{run_match, MatchArgs, MatchReport, MatchSummary};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

/// The options of `perfectplay match WORDS...`; panics when clap refuses them.
pub fn match_args(words: &[&str]) -> MatchArgs {
    Cli::try_parse_from(std::iter::once("match").chain(words.iter().copied()))
        .expect("valid match options")
        .args
}

/// Runs a match as the command line does, without interrupt and without watching its events;
/// an error as the front end sees it (`{:#}` gives it with its causes).
pub fn run_quiet(args: MatchArgs) -> anyhow::Result<MatchReport> {
    Ok(run_match(args, &AtomicBool::new(false), &mut |_| {})?)
}

/// The summary of a played match; panics on a replay.
pub fn played(report: MatchReport) -> MatchSummary {
    match report {
        MatchReport::Played(s) => *s,
        MatchReport::Replayed(_) => panic!("expected a played match"),
    }
}

/// A scratch file path for `name` (unique per test) under Cargo's temporary directory for
/// integration tests, inside `target/`, in a folder of this test process (`cargo clean` removes
/// them).
pub fn scratch(name: &str) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
