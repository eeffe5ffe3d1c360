//! The `perfectplay` binary: the protocol loop on stdin/stdout by default, and subcommands.

mod cli;

use std::io::{self, BufReader, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Parser, Subcommand};
use perfectplay::game::{perft, perft_divide, MAX_PERFT_DEPTH};
use perfectplay::protocol::SessionError;
use perfectplay::variant::{Variant, VariantGame, VisitGame};

/// Set in the environment, the command line is checked (by clap, and `--option` against the
/// subcommand) and nothing is run: the documents' test parses their long examples this way.
const PARSE_ONLY: &str = "PERFECTPLAY_PARSE_ONLY";

/// Where the documents are, for `--help`.
const DOCS: &str =
    "Documents (in the source tree): protocol.md for the protocol's commands, options and \
                    rules; docs/match.md for the match runner; README.md for the rest.";

/// An Oware (Abapa/Awari) and Dobutsu Shogi engine. With no subcommand it speaks the UCI-style protocol on
/// stdin/stdout (see protocol.md); logs go to stderr (RUST_LOG=debug for more).
#[derive(Parser)]
#[command(version, about, long_about = None, after_help = DOCS, max_term_width = 100)]
struct Cli {
    /// Sets an option of the protocol loop before the first command, as `setoption` would, and
    /// declares it with that default (repeatable), e.g. --option ScoreMateAsCp=true --option
    /// Repetitions=2. Only with no subcommand or `uci`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Subcommand)]
enum Commands {
    /// Runs the protocol loop on stdin/stdout (the default).
    #[command(after_help = "Commands, replies, options and rules: protocol.md.")]
    Uci {
        /// As the top-level --option: sets an option before the first command (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Counts the leaves of the move tree N plies deep and prints the count and nodes per second.
    Perft {
        /// Depth in plies, at most 64 (deeper trees could not be counted anyway, and the
        /// recursion would exhaust the stack).
        #[arg(long, short, value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_PERFT_DEPTH)))]
        depth: u32,
        /// Start position in the game's notation (default: the start position), e.g. the Oware
        /// diagram 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S or the Dobutsu FEN "gle/1c1/1C1/ELG[-] w 0 1".
        #[arg(long)]
        fen: Option<String>,
        /// Game and rules: abapa, awari or dobutsu.
        #[arg(long, default_value = "abapa")]
        variant: Variant,
        /// Also print the count below each move of the root.
        #[arg(long)]
        divide: bool,
    },
    /// Searches a fixed set of positions from self-play games (data/selfplay-games.txt,
    /// data/dobutsu-selfplay-games.txt) to a fixed depth, each with a fresh table, and prints the
    /// total nodes (the search's signature) and nodes per second.
    Bench {
        /// Depth of every search, in plies, 1 to 100 (default: 14 for Oware, 9 for Dobutsu).
        #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=100))]
        depth: Option<u32>,
        /// Game and rules: abapa or awari (the Oware games), or dobutsu.
        #[arg(long, default_value = "abapa")]
        variant: Variant,
        /// Transposition table size in MiB, 1 to 32768.
        #[arg(long, default_value_t = perfectplay::search::DEFAULT_HASH_MB as u64,
              value_parser = clap::value_parser!(u64).range(1..=perfectplay::search::MAX_HASH_MB as u64))]
        hash: u64,
        /// Threads searching each position (lazy SMP), 1 to the machine's: with more than one
        /// the node total is no longer a signature (it varies from run to run).
        #[arg(long, default_value_t = 1,
              value_parser = clap::value_parser!(u64).range(1..=perfectplay::protocol::max_threads() as u64))]
        threads: u64,
    },
    /// Plays a match between two engines, with game records and rating statistics.
    #[command(after_help = "Every option, SPRT, fault handling and an example: docs/match.md.")]
    Match(Box<cli::match_args::MatchArgs>),
    /// Solves a game by retrograde analysis and writes the solution file, or probes it.
    Solve(cli::solve::SolveArgs),
    /// Builds Oware endgame tablebases (every position with up to N seeds on the board) by
    /// retrograde analysis, or probes them.
    #[command(after_help = "What a value promises under abapa and awari: docs/tablebases.md.")]
    Tablebase(cli::tablebase::TablebaseArgs),
    /// Serves the board in the browser: play and study both games against the engine, with the
    /// exact value of every move where the tables know it, and the JSON API the page uses.
    #[command(after_help = "The page, the API and its endpoints: docs/web.md.")]
    Serve(cli::serve::ServeArgs),
}

/// Runs the command; a closed standard output (`perfectplay bench | head -0`) ends it quietly
/// with success, as for any filter whose reader has gone.
fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.is::<cli::matches::Interrupted>() => ExitCode::from(130),
        Err(e) => {
            // The error and its causes, one a line; never a backtrace (RUST_BACKTRACE is for
            // panics).
            eprintln!("Error: {e}");
            for cause in e.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
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

/// The `perft` subcommand on the chosen game: the report's lines (the divide, then the count
/// with time and nodes per second).
struct Perft<'a> {
    fen: Option<&'a str>,
    depth: u32,
    divide: bool,
}

impl VisitGame for Perft<'_> {
    type Output = anyhow::Result<String>;
    fn visit<G: VariantGame>(self, rules: G::Rules) -> anyhow::Result<String> {
        let pos = match self.fen {
            Some(text) => G::parse_position(text, &rules)
                .with_context(|| format!("reading the position '{text}'"))?,
            None => G::start(&rules),
        };
        let depth = self.depth;
        let mut out = String::new();
        let started = Instant::now();
        let nodes = if self.divide && depth > 0 {
            let split = perft_divide(&pos, depth);
            for (mv, count) in &split {
                out.push_str(&format!("{mv}: {count}\n"));
            }
            split.iter().map(|(_, c)| c).sum()
        } else {
            perft(&pos, depth)
        };
        let secs = started.elapsed().as_secs_f64();
        out.push_str(&format!(
            "perft {depth} nodes {nodes} time {} ms nps {:.0}",
            (secs * 1000.0) as u64,
            nodes as f64 / secs.max(1e-9)
        ));
        Ok(out)
    }
}

fn run() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Commands::Uci {
        options: Vec::new(),
    });
    if !cli.options.is_empty() && !matches!(command, Commands::Uci { .. }) {
        anyhow::bail!(
            "--option sets options of the protocol loop: give it with no subcommand or with `uci`"
        );
    }
    if std::env::var_os(PARSE_ONLY).is_some() {
        return Ok(());
    }
    match command {
        Commands::Uci { options } => {
            // The executable builds missing tables in the background (`AutoSolve`), unless
            // a preset turns it off; the library's session does not.
            let presets: Vec<String> = std::iter::once("AutoSolve=true".to_string())
                .chain(cli.options.iter().chain(&options).cloned())
                .collect();
            let stdin = BufReader::new(io::stdin());
            match perfectplay::protocol::run_with_presets(stdin, io::stdout().lock(), &presets) {
                Ok(()) => {}
                Err(SessionError::Io(e)) => return Err(e).context("writing to stdout"),
                Err(e) => return Err(e.into()),
            }
        }
        Commands::Perft {
            depth,
            fen,
            variant,
            divide,
        } => {
            let report = variant.visit(Perft {
                fen: fen.as_deref(),
                depth,
                divide,
            })?;
            writeln!(io::stdout().lock(), "{report}")?;
        }
        Commands::Bench {
            depth,
            variant,
            hash,
            threads,
        } => {
            let report = perfectplay::bench::run_bench_variant(
                variant,
                depth,
                hash as usize,
                threads as usize,
            );
            if report.hash.shrunk {
                log::warn!(
                    "{}",
                    perfectplay::protocol::format_hash_report(&report.hash)
                );
            }
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
            cli::matches::run(*args, &mut io::stdout().lock())?;
        }
        Commands::Solve(args) => cli::solve::run(args, &mut io::stdout().lock())?,
        Commands::Tablebase(args) => cli::tablebase::run(args, &mut io::stdout().lock())?,
        Commands::Serve(args) => cli::serve::main(args)?,
    }
    Ok(())
}
