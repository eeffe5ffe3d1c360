//! The terminal front end of `perfectplay tablebase`: `build` (first its resource check: the
//! library's [`BuildEstimate`] against this machine's memory, free disk and cores, refused when
//! they cannot hold it unless `--force`; then progress bars per layer and phase on standard
//! error; per layer its positions, time and positions per second, then the totals, CPU time and
//! peak memory on standard output) and `probe` (the value of a position and of each of its
//! moves). The tablebase itself is [`perfectplay::oware::tablebase`], which prints nothing.
//!
//! [`BuildEstimate`]: perfectplay::oware::tablebase::estimate::BuildEstimate

mod build;
mod ranks;
mod resources;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, Subcommand};
use perfectplay::oware::tablebase::file;
use perfectplay::oware::{Board, RuleSet};
use perfectplay::retro::Silent;

use build::{build, BuildOptions};
use ranks::Ranks;

/// Arguments of `perfectplay tablebase`.
#[derive(Args, Debug)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    command: TablebaseCommand,
}

#[derive(Subcommand, Debug)]
enum TablebaseCommand {
    /// Builds the layers of 0 to N seeds on the board (one file per layer in --dir; layers
    /// already there and sound are loaded instead of built). It first says what the build takes:
    /// the positions of each layer and in all, the memory at the peak, the disk its files take
    /// and an estimate of the time; when the memory available or the free disk of --dir cannot
    /// hold it, it refuses to start (exit status 1) unless --force.
    Build {
        /// The most seeds on the board, 0 to 48.
        #[arg(long, value_parser = clap::value_parser!(u32).range(..=48))]
        seeds: u32,
        /// The rules: abapa or awari.
        #[arg(long, default_value = "abapa", value_parser = parse_variant)]
        variant: RuleSet,
        /// Where the layer files go (and, while a layer is built, its best exits, parked out of
        /// memory in oware-<variant>-<seeds>.park, and its checkpoint).
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
        /// Starts the build even when the memory or the disk is short.
        #[arg(long)]
        force: bool,
        /// The most memory the build may hold, as `16G`, `16GiB`, `512M` or bytes (K, M, G, T
        /// count in powers of 1024); by default the memory available. Layers that need more
        /// read the layers below in several sweeps of their moves pass, each within it.
        #[arg(long, value_parser = parse_memory)]
        memory: Option<u64>,
        /// Keeps a checkpoint of each layer of at least this many positions after its moves
        /// pass and after its values (oware-<variant>-<seeds>.pass in --dir, removed once the
        /// layer's file is written): a build stopped in such a layer goes on from there when
        /// started again. By default layers of two billion positions (from 29 seeds); 0 for
        /// every layer.
        #[arg(long, default_value_t = CHECKPOINT_POSITIONS)]
        checkpoint_positions: u64,
        /// Only says what a build split over K ranks (MPI processes) takes on each, with
        /// --memory as each rank's memory (by default this machine's available), the disk of
        /// --dir and RAYON_NUM_THREADS cores a rank (by default this machine's), and whether
        /// it fits (exit status 1 if not); builds nothing.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        ranks: Option<u64>,
        /// Splits each layer's build over the processes of an MPI job (`mpirun -np K
        /// perfectplay tablebase build --mpi ...`, or srun under Slurm): each process holds and
        /// builds only its blocks of every layer (a K-th of the memory), asks the others for
        /// what it needs of theirs, and writes its blocks into each layer file; process 0
        /// writes the report. --dir must be a directory every process sees; layers there are
        /// read by each, its blocks. See docs/tablebases.md, "The build on MPI".
        #[cfg(feature = "mpi")]
        #[arg(long)]
        mpi: bool,
    },
    /// Prints the value of a position (a diagram such as 0-0-0-0-2-1-1-0-0-0-0-1-20-23-S, 5 seeds
    /// on the board) for the side to move and of each of its legal moves, with the distances to
    /// the end where the table knows them (plies, both sides keeping the value), from the files
    /// in --dir (a table of up to 12 seeds is built in memory when the files are not there).
    Probe {
        /// The position: houses A..F, a..f, South's store, North's store, side to move.
        diagram: String,
        /// The rules: abapa or awari.
        #[arg(long, default_value = "abapa", value_parser = parse_variant)]
        variant: RuleSet,
        /// Where the layer files are.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
    },
}

/// The default directory of the layer files.
pub const DEFAULT_DIR: &str = "tablebases";

/// The most seeds `probe` builds in memory when the files are not there.
const PROBE_BUILD_SEEDS: u32 = 12;

/// The layers `tablebase build` keeps checkpoints of by default: those of at least two billion
/// positions (from 29 seeds; awari's layer 29 took 677 s here), where writing them (6 bytes a
/// position, about 275 MB/s with the checksum and the sync) costs 2 to 3% of the layer's time.
const CHECKPOINT_POSITIONS: u64 = 2_000_000_000;

fn parse_variant(s: &str) -> Result<RuleSet, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// A memory size for `--memory`: `16G`, `16GiB`, `512M`, a number of bytes.
fn parse_memory(s: &str) -> Result<u64, String> {
    parse_size::Config::new()
        .with_binary()
        .parse_size(s)
        .map_err(|e| format!("'{s}' is not a size such as 16G, 512M or 1048576: {e}"))
}

/// Runs `perfectplay tablebase`.
///
/// # Errors
/// A diagram that does not parse, a position the table does not hold, a failure to write a layer
/// file or to standard output.
pub fn run(args: TablebaseArgs, out: &mut impl Write) -> anyhow::Result<()> {
    match args.command {
        TablebaseCommand::Build {
            seeds,
            variant,
            dir,
            force,
            memory,
            checkpoint_positions,
            ranks,
            #[cfg(feature = "mpi")]
            mpi,
        } => {
            let options = BuildOptions {
                force,
                memory,
                checkpoint_positions,
                ranks,
            };
            #[cfg(feature = "mpi")]
            if mpi {
                let mpi = perfectplay::mpi_transport::Mpi::init()
                    .context("MPI was started before in this process")?;
                let split = perfectplay::oware::tablebase::split::Split::new(&mpi);
                let ranks = Ranks::new(Some(&split));
                return build(seeds, variant, &dir, &options, ranks, out);
            }
            build(seeds, variant, &dir, &options, Ranks::new(None), out)
        }
        TablebaseCommand::Probe {
            diagram,
            variant,
            dir,
        } => probe(&diagram, variant, &dir, out),
    }
}

/// Why `probe` cannot answer for a position of `n` seeds when the table in `dir` holds layers 0
/// to `have` (`None`: no layer): which layers are there, and the command that builds the rest.
fn layers_missing(n: u32, variant: RuleSet, dir: &Path, have: Option<u32>) -> String {
    let there = match have {
        None => format!("{} holds no {variant} layer", dir.display()),
        Some(0) => format!(
            "{} holds only the {variant} layer of 0 seeds",
            dir.display()
        ),
        Some(s) => format!(
            "{} holds the {variant} layers of 0 to {s} seeds",
            dir.display()
        ),
    };
    let missing = match have {
        Some(s) if s + 1 < n => format!("the layers of {} to {n} seeds", s + 1),
        Some(_) => format!("the layer of {n} seeds"),
        None => format!("the layers of 0 to {n} seeds"),
    };
    format!(
        "the position has {n} seeds on the board and {there}: build {missing} with \
         `perfectplay tablebase build --seeds {n} --variant {variant} --dir {}`",
        dir.display()
    )
}

fn probe(diagram: &str, variant: RuleSet, dir: &Path, out: &mut impl Write) -> anyhow::Result<()> {
    let board: Board = diagram
        .parse::<Board>()
        .with_context(|| format!("reading the diagram '{diagram}'"))?
        .with_variant(variant);
    let n = board.seeds_on_board() as u32;
    let (mut tb, problems) = file::load(dir, variant, None);
    for p in &problems {
        log::warn!("{p}");
    }
    if tb.seeds().is_none_or(|s| s < n) {
        anyhow::ensure!(
            n <= PROBE_BUILD_SEEDS,
            "{}",
            layers_missing(n, variant, dir, tb.seeds())
        );
        tb.extend(n, &Silent);
    }
    let value = tb
        .probe(&board)
        .context("the position is not in the table")?;
    // `value`'s own words say `exact` or give the bounds; bounds are explained.
    let what = if value.exact().is_some() {
        ""
    } else {
        " (bounds: the value depends on the game's history)"
    };
    writeln!(
        out,
        "value {value}{what}: the margin {} can still secure from the {n} seeds on the board",
        board.side_to_move()
    )?;
    if let Some(d) = tb.distance(&board) {
        writeln!(
            out,
            "distance {d} plies to the end of the game, both sides keeping the value"
        )?;
    }
    for (mv, v) in tb.move_values(&board).unwrap_or_default() {
        match tb.distance(&board.sow_and_capture(mv).0) {
            Some(d) => writeln!(out, "{mv} {v}, {} plies to the end", d + 1)?,
            None => writeln!(out, "{mv} {v}")?,
        }
    }
    Ok(())
}
