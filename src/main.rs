//! The `perfectplay` binary: the protocol loop on stdin/stdout by default, and subcommands.

mod match_cli;
mod solve_cli;

use std::io::{self, BufReader, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Parser, Subcommand};
use perfectplay::oware::{Board, Variant};

/// An Oware (Abapa/Awari) engine. With no subcommand it speaks the UCI-style protocol on
/// stdin/stdout (see protocol.md); logs go to stderr (RUST_LOG=debug for more).
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Subcommand)]
enum Commands {
    /// Runs the protocol loop on stdin/stdout (the default).
    Uci,
    /// Counts the leaves of the move tree N plies deep and prints the count and nodes per second.
    Perft {
        /// Depth in plies, at most 64 (deeper trees could not be counted anyway, and the
        /// recursion would exhaust the stack).
        #[arg(long, short, value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_PERFT_DEPTH)))]
        depth: u32,
        /// Start diagram, e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Rule variant: abapa or awari.
        #[arg(long, default_value = "abapa")]
        variant: Variant,
        /// Also print the count below each move of the root.
        #[arg(long)]
        divide: bool,
    },
    /// Searches a fixed set of positions from real games (data/aalina-bench-games.txt) to a fixed
    /// depth, each with a fresh table, and prints the total nodes (the search's signature) and
    /// nodes per second.
    Bench {
        /// Depth of every search, in plies.
        #[arg(long, short, default_value_t = perfectplay::bench::DEFAULT_BENCH_DEPTH)]
        depth: u32,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = perfectplay::search::DEFAULT_HASH_MB)]
        hash: usize,
    },
    /// Plays a match between two engines, with game records and rating statistics (README.md).
    Match(Box<perfectplay::arena::MatchArgs>),
    /// Solves a game by retrograde analysis and writes the solution file, or probes it.
    Solve(solve_cli::SolveArgs),
}

/// The deepest `perft` (documented in its `--depth`).
const MAX_PERFT_DEPTH: u32 = 64;

/// Runs the command; a closed standard output (`perfectplay bench | head -0`) ends it quietly
/// with success, as for any filter whose reader has gone.
fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:?}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn run() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Commands::Uci) {
        Commands::Uci => {
            let stdin = BufReader::new(io::stdin());
            perfectplay::protocol::run(stdin, io::stdout().lock()).context("writing to stdout")?;
        }
        Commands::Perft {
            depth,
            fen,
            variant,
            divide,
        } => {
            let board = match fen {
                Some(d) => d
                    .parse::<Board>()
                    .with_context(|| format!("reading diagram '{d}'"))?,
                None => Board::start(variant),
            }
            .with_variant(variant);
            let mut out = io::stdout().lock();
            let started = Instant::now();
            let nodes = if divide {
                let split = perfectplay::game::perft_divide(&board, depth);
                for (mv, count) in &split {
                    writeln!(out, "{mv}: {count}")?;
                }
                if split.is_empty() {
                    perfectplay::game::perft(&board, depth)
                } else {
                    split.iter().map(|(_, c)| c).sum()
                }
            } else {
                perfectplay::game::perft(&board, depth)
            };
            let secs = started.elapsed().as_secs_f64();
            writeln!(
                out,
                "perft {depth} nodes {nodes} time {} ms nps {:.0}",
                (secs * 1000.0) as u64,
                nodes as f64 / secs.max(1e-9)
            )?;
        }
        Commands::Bench { depth, hash } => {
            let report = perfectplay::bench::run_bench(Some(depth), hash);
            writeln!(
                io::stdout().lock(),
                "bench positions {} depth {} nodes {} time {} ms nps {}",
                report.positions,
                report.depth,
                report.nodes,
                report.elapsed.as_millis(),
                report.nps()
            )?;
        }
        Commands::Match(args) => {
            match_cli::run(*args, &mut io::stdout().lock())?;
        }
        Commands::Solve(args) => solve_cli::run(args, &mut io::stdout().lock())?,
    }
    Ok(())
}
