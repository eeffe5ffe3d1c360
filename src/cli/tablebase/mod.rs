//! The terminal front end of `perfectplay tablebase`: `build` (first its resource check: the
//! library's [`BuildEstimate`] against this machine's memory, free disk and cores, refused when
//! they cannot hold it unless `--force`; then progress bars per layer and phase on standard
//! error; per layer its positions, time and positions per second, then the totals, CPU time and
//! peak memory on standard output) and `probe` (the value of a position and of each of its
//! moves). The tablebase itself is [`perfectplay::oware::tablebase`], which prints nothing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use perfectplay::machine::Machine;
use perfectplay::oware::tablebase::estimate::{self, BuildEstimate};
use perfectplay::oware::tablebase::split::Split;
use perfectplay::oware::tablebase::{file, reachable};
use perfectplay::oware::{Board, RuleSet};
use perfectplay::retro::{Phase, Progress, Silent};

use super::phase_bars::PhaseBars;
use super::solve::{cpu_seconds, peak_memory_kib};

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
        /// Splits each layer's build over the processes of an MPI job (`mpirun -np K
        /// perfectplay tablebase build --mpi ...`, or srun under Slurm): each process builds its
        /// blocks of the layer and the processes exchange them; process 0 writes the files and
        /// the report. --dir must be the same directory for every process (layers there are
        /// loaded by each). See docs/tablebases.md, "The build on MPI".
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

/// How `tablebase build` builds, besides what and where.
struct BuildOptions {
    /// Start even when the machine looks short of memory or disk.
    force: bool,
    /// The bound of the sweeps (`None`: the memory available).
    memory: Option<u64>,
    /// The least positions of a layer kept in checkpoints ([`file::PassFiles`]).
    checkpoint_positions: u64,
}

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
            force,
            memory,
            checkpoint_positions,
            #[cfg(feature = "mpi")]
            mpi,
        } => {
            let options = BuildOptions {
                force,
                memory,
                checkpoint_positions,
            };
            #[cfg(feature = "mpi")]
            if mpi {
                let mpi = perfectplay::mpi_transport::Mpi::init()
                    .context("MPI was started before in this process")?;
                let split = Split::new(&mpi);
                return build(seeds, variant, &dir, &options, Some(&split), out);
            }
            build(seeds, variant, &dir, &options, None, out)
        }
        TablebaseCommand::Probe {
            diagram,
            variant,
            dir,
        } => probe(&diagram, variant, &dir, out),
    }
}

/// Builds the table; with `split`, as one rank of a split build: rank 0 writes the files and
/// the report, the other ranks write nothing to `out`, and every rank checks its own memory.
fn build(
    seeds: u32,
    variant: RuleSet,
    dir: &Path,
    options: &BuildOptions,
    split: Option<&Split>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let force = options.force;
    let checkpoint = file::PassFiles::new(dir, variant, options.checkpoint_positions);
    let lead = split.is_none_or(|s| s.rank() == 0);
    let mut silent = std::io::sink();
    let mut out: &mut dyn Write = if lead { out } else { &mut silent };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut machine = Machine::read(dir);
    if !lead {
        // Only rank 0 writes files.
        machine.disk_free = None;
    }
    // The bound the sweeps keep: as asked, else what the machine has available.
    let memory = options.memory.or(machine.memory_available);
    let (mut tb, problems) = file::load(dir, variant, None);
    for p in problems.iter().filter(|_| lead) {
        log::warn!("{p}");
    }
    tb.release();
    if let Some(split) = split {
        let have = tb.seeds().map_or(-1, |s| s as i64);
        let all = split.all_gather(&have.to_le_bytes());
        anyhow::ensure!(
            all.iter().all(|h| h[..] == have.to_le_bytes()),
            "the ranks found different layers in {}: every rank must see the same directory \
             (rank {} found {})",
            dir.display(),
            split.rank(),
            if have < 0 {
                "none".to_string()
            } else {
                format!("0 to {have} seeds")
            }
        );
    }
    if let Some(have) = tb.seeds() {
        writeln!(
            out,
            "layers 0 to {} seeds loaded from {}",
            have.min(seeds),
            dir.display()
        )?;
    }
    let first = tb.seeds().map_or(0, |s| s + 1);
    // The plain build parks each layer's best exits in --dir while it finds the values; a split
    // build holds them.
    let parked = split.is_none();
    let estimate = BuildEstimate::new(variant, first, seeds, memory, parked);
    // Split builds keep no checkpoints.
    let min_positions = match split {
        Some(_) => u64::MAX,
        None => options.checkpoint_positions,
    };
    let checkpoint_bytes = |e: &BuildEstimate| e.checkpoint_bytes(min_positions);
    write_estimate(
        &estimate,
        checkpoint_bytes(&estimate),
        &machine,
        dir,
        &mut out,
    )?;
    let short = shortfall(&estimate, checkpoint_bytes(&estimate), &machine, dir);
    if let Some(split) = split {
        // Every rank refuses when one does.
        let all = split.all_gather(short.as_deref().unwrap_or("").as_bytes());
        if let Some((r, why)) = all.iter().enumerate().find(|(_, w)| !w.is_empty()) {
            anyhow::ensure!(
                force,
                "not building {variant} up to {seeds} seeds: on rank {r}, {}. Build fewer \
                 seeds, free memory or disk, or pass --force to start anyway",
                String::from_utf8_lossy(why)
            );
        }
    }
    if let Some(short) = short {
        let fits = (first..seeds).rev().find(|&n| {
            let e = BuildEstimate::new(variant, first, n, memory, parked);
            shortfall(&e, checkpoint_bytes(&e), &machine, dir).is_none()
        });
        let fewer = match fits {
            Some(n) => format!("build at most {n} seeds here"),
            None => "build fewer seeds".to_string(),
        };
        anyhow::ensure!(
            force,
            "not building {variant} up to {seeds} seeds: {short}. Either {fewer}, free memory or \
             disk, or pass --force to start anyway"
        );
        writeln!(out, "--force: building anyway, though {short}")?;
    }
    let started = Instant::now();
    let mut built = 0u64;
    while tb.seeds().is_none_or(|s| s < seeds) {
        let bars = PhaseBars::new(layer_label, true);
        let progress: &dyn Progress = if lead { &bars } else { &Silent };
        let t = Instant::now();
        let report = match split {
            Some(split) => tb.build_next_split(memory, progress, split),
            None => tb.build_next_resumable(memory, progress, &checkpoint),
        };
        let secs = t.elapsed().as_secs_f64();
        let problems = checkpoint.take_problems();
        for p in &problems.unread {
            log::warn!("{p}; built that part of the layer again");
        }
        for p in &problems.unparked {
            log::warn!("{p}; the build held those bytes in memory");
        }
        if let Some(e) = problems.lost.into_iter().next() {
            return Err(anyhow::Error::new(e).context(format!(
                "reading back the best exits parked while layer {} was built: that layer is \
                 not written",
                report.seeds
            )));
        }
        if let Some(e) = problems.unwritten.into_iter().next() {
            return Err(anyhow::Error::new(e).context(format!(
                "writing the checkpoint of layer {} (--checkpoint-positions {} keeps none)",
                report.seeds,
                reachable::reachable_len(report.seeds) + 1
            )));
        }
        let path = if lead {
            file::save_and_map_layer(&mut tb, report.seeds, dir)
        } else {
            Ok(None)
        };
        if path.is_ok() {
            checkpoint
                .done(report.seeds)
                .with_context(|| format!("removing the checkpoint of layer {}", report.seeds))?;
        }
        let mut exchanged = String::new();
        if let Some(split) = split {
            // The other ranks stop with rank 0 when it cannot write the layer.
            let all = split.all_gather(&[path.is_ok() as u8]);
            anyhow::ensure!(
                all[0] == [1] || lead,
                "rank 0 could not write layer {}",
                report.seeds
            );
            let x = split.take_exchanged();
            exchanged = format!(
                ", exchanged {} sent + {} received in {} all-gathers ({:.2} s)",
                bytes(x.sent),
                bytes(x.received),
                x.rounds,
                x.time.as_secs_f64()
            );
        }
        let path = path.with_context(|| format!("writing layer {}", report.seeds))?;
        built += report.positions;
        let phases: Vec<String> = bars
            .times()
            .iter()
            .map(|(phase, s)| format!("{phase} {s:.2}"))
            .collect();
        writeln!(
            out,
            "layer {:>2}: {:>13} positions, {:>11} bounded, {:7.2} s ({}), {:6.2} M positions/s{}{}",
            report.seeds,
            report.positions,
            report.bounded,
            secs,
            phases.join(" + "),
            report.positions as f64 / secs.max(1e-9) / 1e6,
            exchanged,
            path.map_or(String::new(), |p| format!(", {}", p.display()))
        )?;
    }
    let secs = started.elapsed().as_secs_f64();
    let (user, sys) = cpu_seconds().unwrap_or((0.0, 0.0));
    let peak = peak_memory_kib().map_or("?".into(), |k| (k / 1024).to_string());
    let per_rank = match split {
        // Each rank's CPU and peak memory: its own process's.
        Some(split) => {
            let mine = format!("{user:.1} s + {sys:.1} s CPU, {peak} MiB");
            let all = split.all_gather(mine.as_bytes());
            let ranks: Vec<String> = all
                .iter()
                .enumerate()
                .map(|(r, m)| format!("rank {r}: {}", String::from_utf8_lossy(m)))
                .collect();
            format!("; {} ranks ({})", ranks.len(), ranks.join("; "))
        }
        None => String::new(),
    };
    writeln!(
        out,
        "{variant} up to {seeds} seeds: {} positions ({built} built) in {secs:.1} s wall \
         ({:.2} M positions/s), {user:.1} s user + {sys:.1} s sys CPU; peak memory {peak} MiB \
         (the table: {} MiB){per_rank}",
        reachable::reachable_total_len(seeds),
        built as f64 / secs.max(1e-9) / 1e6,
        (reachable::reachable_total_len(seeds) * estimate::bytes_per_value(variant)) >> 20
    )?;
    Ok(())
}

/// Bytes in binary units: `512 B`, `3.0 KiB`, `538.3 MiB`, `2.27 TiB`.
fn bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if b < 1 << 10 {
        return format!("{b} B");
    }
    let mut value = b as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let decimals = if unit == UNITS.len() - 1 { 2 } else { 1 };
    format!("{value:.decimals$} {}", UNITS[unit])
}

/// A duration for a person: `42 s`, `17 min`, `5.3 h`, `12.4 days`.
fn duration(secs: f64) -> String {
    if secs < 120.0 {
        format!("{secs:.0} s")
    } else if secs < 7_200.0 {
        format!("{:.0} min", secs / 60.0)
    } else if secs < 172_800.0 {
        format!("{:.1} h", secs / 3_600.0)
    } else {
        format!("{:.1} days", secs / 86_400.0)
    }
}

/// The resource check's report: the positions per layer and in all, the memory at the peak, the
/// disk and the time, each against what the machine has.
fn write_estimate(
    e: &BuildEstimate,
    checkpoint: u64,
    machine: &Machine,
    dir: &Path,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let (Some(first), Some(top)) = (e.layers.first(), e.layers.last()) else {
        return Ok(());
    };
    for l in &e.layers {
        let sweeps = if l.sweeps > 1 {
            format!(
                " (its moves pass in {} sweeps over the layers below)",
                l.sweeps
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "to build: layer {:>2}: {:>13} positions, {} at the peak{sweeps}, a file of {}",
            l.seeds,
            l.positions,
            bytes(l.peak_memory),
            bytes(l.file_bytes)
        )?;
    }
    let unknown = || "unknown".to_string();
    let rate = estimate::rate(e.variant);
    writeln!(
        out,
        "to build: {} layers {} to {}: {} positions; memory {} at the peak (building layer {}), \
         {} available of {}; disk {} of layer files{}, {} free in {}; time about {} on {} cores \
         (an estimate from the rates measured here: {:.2} M positions per core-second up to {:.0} M \
         positions a layer, falling past it as the size to the power {}{}, each extra sweep {:.0}% \
         more; longer when the cores are shared)",
        e.variant,
        first.seeds,
        top.seeds,
        e.positions,
        bytes(e.peak_memory),
        top.seeds,
        machine.memory_available.map_or_else(unknown, bytes),
        machine.memory_total.map_or_else(unknown, bytes),
        bytes(e.disk),
        if checkpoint > 0 {
            format!(" and {} more while a layer is built", bytes(checkpoint))
        } else {
            String::new()
        },
        machine.disk_free.map_or_else(unknown, bytes),
        dir.display(),
        duration(e.wall_seconds(machine.cores)),
        machine.cores,
        rate.per_core_second / 1e6,
        rate.knee / 1e6,
        rate.power,
        if rate.floor > 0.0 {
            format!(" down to {} of it", rate.floor)
        } else {
            String::new()
        },
        estimate::EXTRA_SWEEP_SHARE * 100.0,
    )?;
    Ok(())
}

/// What the machine lacks for the build, in words (`None` when it can hold it, or when what it
/// has cannot be read): the memory and the disk, each with what is needed, what there is and
/// how much is short.
fn shortfall(e: &BuildEstimate, checkpoint: u64, machine: &Machine, dir: &Path) -> Option<String> {
    let mut short = Vec::new();
    if let Some(available) = machine.memory_available.filter(|&a| a < e.peak_memory) {
        let top = e.layers.last().map_or(0, |l| l.seeds);
        short.push(format!(
            "it needs {} of memory at its peak (building layer {top}) and this machine has {} \
             available ({} in all), {} short",
            bytes(e.peak_memory),
            bytes(available),
            machine.memory_total.map_or("unknown".into(), bytes),
            bytes(e.peak_memory - available)
        ));
    }
    let disk = e.disk + checkpoint;
    if let Some(free) = machine.disk_free.filter(|&f| f < disk) {
        let and_checkpoint = if checkpoint > 0 {
            format!(" (and {} more while a layer is built)", bytes(checkpoint))
        } else {
            String::new()
        };
        short.push(format!(
            "its layer files take {}{and_checkpoint} of disk and {} has {} free, {} short",
            bytes(e.disk),
            dir.display(),
            bytes(free),
            bytes(disk - free)
        ));
    }
    (!short.is_empty()).then(|| short.join("; "))
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
