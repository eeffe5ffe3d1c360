//! The terminal front end of `perfectplay tablebase`: `build` (progress bars per layer and phase
//! on standard error; per layer its positions, time and positions per second, then the totals,
//! CPU time and peak memory on standard output) and `probe` (the value of a position and of each
//! of its moves). The tablebase itself is [`perfectplay::oware::tablebase`], which prints nothing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use perfectplay::oware::tablebase::{file, index};
use perfectplay::oware::{Board, Variant};
use perfectplay::retro::{Phase, Silent};

use crate::phase_bars::PhaseBars;
use crate::solve_cli::{cpu_seconds, peak_memory_kib};

/// Arguments of `perfectplay tablebase`.
#[derive(Args, Debug)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    command: TablebaseCommand,
}

#[derive(Subcommand, Debug)]
enum TablebaseCommand {
    /// Builds the layers of 0 to N seeds on the board (one file per layer in --dir; layers
    /// already there and sound are loaded instead of built).
    Build {
        /// The most seeds on the board, 0 to 48.
        #[arg(long, value_parser = clap::value_parser!(u32).range(..=48))]
        seeds: u32,
        /// The rules: abapa or awari.
        #[arg(long, default_value = "abapa", value_parser = parse_variant)]
        variant: Variant,
        /// Where the layer files go.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
    },
    /// Prints the value of a position (a diagram such as 0-0-0-0-2-1-1-0-0-0-0-1-20-23-S, 5 seeds
    /// on the board) for the side to move and of each of its legal moves, from the files in --dir
    /// (a table of up to 12 seeds is built in memory when the files are not there).
    Probe {
        /// The position: houses A..F, a..f, South's store, North's store, side to move.
        diagram: String,
        /// The rules: abapa or awari.
        #[arg(long, default_value = "abapa", value_parser = parse_variant)]
        variant: Variant,
        /// Where the layer files are.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
    },
}

/// The default directory of the layer files.
pub const DEFAULT_DIR: &str = "tablebases";

/// The most seeds `probe` builds in memory when the files are not there.
const PROBE_BUILD_SEEDS: u32 = 12;

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// A layer's bar label: `12 seeds: moves`.
fn layer_label(seeds: Option<u32>, phase: Phase) -> String {
    format!("{} seeds: {phase}", seeds.unwrap_or(0))
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
        } => build(seeds, variant, &dir, out),
        TablebaseCommand::Probe {
            diagram,
            variant,
            dir,
        } => probe(&diagram, variant, &dir, out),
    }
}

fn build(seeds: u32, variant: Variant, dir: &Path, out: &mut impl Write) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let (mut tb, problems) = file::load(dir, variant, None);
    for p in &problems {
        log::warn!("{p}");
    }
    if let Some(have) = tb.seeds() {
        writeln!(
            out,
            "layers 0 to {} seeds loaded from {}",
            have.min(seeds),
            dir.display()
        )?;
    }
    let started = Instant::now();
    let mut built = 0u64;
    while tb.seeds().is_none_or(|s| s < seeds) {
        let bars = PhaseBars::new(layer_label, true);
        let t = Instant::now();
        let report = tb.build_next(&bars);
        let secs = t.elapsed().as_secs_f64();
        let path = file::save_layer(&tb, report.seeds, dir)
            .with_context(|| format!("writing layer {}", report.seeds))?;
        built += report.positions;
        let phases: Vec<String> = bars
            .times()
            .iter()
            .map(|(phase, s)| format!("{phase} {s:.2}"))
            .collect();
        writeln!(
            out,
            "layer {:>2}: {:>13} positions, {:>11} bounded, {:7.2} s ({}), {:6.2} M positions/s{}",
            report.seeds,
            report.positions,
            report.bounded,
            secs,
            phases.join(" + "),
            report.positions as f64 / secs.max(1e-9) / 1e6,
            path.map_or(String::new(), |p| format!(", {}", p.display()))
        )?;
    }
    let secs = started.elapsed().as_secs_f64();
    let (user, sys) = cpu_seconds().unwrap_or((0.0, 0.0));
    writeln!(
        out,
        "{variant} up to {seeds} seeds: {} positions ({built} built) in {secs:.1} s wall \
         ({:.2} M positions/s), {user:.1} s user + {sys:.1} s sys CPU; peak memory {} MiB \
         (the table: {} MiB)",
        index::total_len(seeds),
        built as f64 / secs.max(1e-9) / 1e6,
        peak_memory_kib().map_or("?".into(), |k| (k / 1024).to_string()),
        (index::total_len(seeds) * if variant == Variant::Awari { 1 } else { 2 }) >> 20
    )?;
    Ok(())
}

/// Why `probe` cannot answer for a position of `n` seeds when the table in `dir` holds layers 0
/// to `have` (`None`: no layer): which layers are there, and the command that builds the rest.
fn layers_missing(n: u32, variant: Variant, dir: &Path, have: Option<u32>) -> String {
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

fn probe(diagram: &str, variant: Variant, dir: &Path, out: &mut impl Write) -> anyhow::Result<()> {
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
    for (mv, v) in tb.move_values(&board).unwrap_or_default() {
        writeln!(out, "{mv} {v}")?;
    }
    Ok(())
}
