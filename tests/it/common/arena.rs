//! Helpers for the match runner's tests: the `match` command line as the binary reads it (its
//! own `MatchArgs`, compiled in here), a match run without interrupt or events, and scratch files
//! for records.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Parser;
use perfectplay::arena::{run_match, MatchOptions, MatchReport, MatchSummary};

/// The binary's command line of `perfectplay match`, so that the tests read the options as users
/// write them.
#[path = "../../../src/cli/match_args.rs"]
mod match_args;
pub use match_args::MatchArgs;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

/// The command line `perfectplay match WORDS...` as the binary reads it, or clap's error.
pub fn parse_match_args(words: &[&str]) -> Result<MatchArgs, clap::Error> {
    Cli::try_parse_from(std::iter::once("match").chain(words.iter().copied())).map(|cli| cli.args)
}

/// The options of `perfectplay match WORDS...`; panics when the command line refuses them.
pub fn match_args(words: &[&str]) -> MatchOptions {
    parse_match_args(words)
        .expect("valid match options")
        .to_options()
        .expect("a valid --sprt")
}

/// Runs a match as the command line does, without interrupt and without watching its events;
/// an error as the front end sees it (`{:#}` gives it with its causes).
pub fn run_quiet(options: MatchOptions) -> anyhow::Result<MatchReport> {
    Ok(run_match(options, &AtomicBool::new(false), &mut |_| {})?)
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
