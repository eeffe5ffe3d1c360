//! `perfectplay tablebase build`: the layers loaded, the resource check, the layer loop and the
//! report, alone or as one rank of an MPI job ([`super::ranks`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use perfectplay::machine::Machine;
use perfectplay::oware::tablebase::estimate::{self, BuildEstimate};
use perfectplay::oware::tablebase::{file, reachable, LayerReport, Tablebase};
use perfectplay::oware::RuleSet;
use perfectplay::retro::{Phase, Progress, Silent};

use super::ranks::Ranks;
use super::resources::{machine_for, Plan};
use crate::cli::phase_bars::PhaseBars;
use crate::cli::solve::{cpu_seconds, peak_memory_kib};

/// How `tablebase build` builds, besides what and where.
pub(super) struct BuildOptions {
    /// Start even when the machine looks short of memory or disk.
    pub force: bool,
    /// The bound of the sweeps (`None`: the memory available).
    pub memory: Option<u64>,
    /// The least positions of a layer kept in checkpoints ([`file::PassFiles`]).
    pub checkpoint_positions: u64,
    /// Only the resource check, for a build split over this many ranks.
    pub ranks: Option<u64>,
}

/// A layer's bar label: `12 seeds: moves`.
fn layer_label(seeds: Option<u32>, phase: Phase) -> String {
    format!("{} seeds: {phase}", seeds.unwrap_or(0))
}

/// Builds the table up to `seeds` in `dir`; as one rank of a split build when `ranks` says so:
/// rank 0 writes the files and the report, the other ranks write nothing to `out`, and every
/// rank checks its own memory.
pub(super) fn build(
    seeds: u32,
    variant: RuleSet,
    dir: &Path,
    options: &BuildOptions,
    ranks: Ranks<'_>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let lead = ranks.lead();
    let mut silent = std::io::sink();
    let out: &mut dyn Write = if lead { out } else { &mut silent };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // Only rank 0 makes files and checks the disk. A plan for ranks elsewhere takes --memory
    // as each rank's memory.
    let machine = machine_for(dir, lead, options.ranks.and(options.memory));
    let mut tb = load(seeds, variant, dir, ranks, out)?;
    // A split build, or the check alone for one.
    let split = ranks.split().is_some() || options.ranks.is_some();
    let plan = Plan {
        variant,
        first: tb.seeds().map_or(0, |s| s + 1),
        seeds,
        // The bound the sweeps keep: as asked, else what the machine has available.
        memory: options.memory.or(machine.memory_available),
        // Each layer's best exits are parked in --dir while its values are found (each rank
        // its share's in a split build).
        parked: true,
        ranks: options.ranks.or(ranks.split().map(|s| s.ranks() as u64)),
        // Split builds keep no checkpoints.
        min_positions: if split {
            u64::MAX
        } else {
            options.checkpoint_positions
        },
        dir,
    };
    let estimate = check_resources(&plan, &machine, options.force, ranks, out)?;
    if options.ranks.is_some() {
        writeln!(out, "{}", plan.ranks_answer(&estimate, &machine))?;
        return Ok(());
    }
    let checkpoint = match ranks.split() {
        Some(split) => file::PassFiles::of_rank(dir, variant, split.rank()),
        None => file::PassFiles::new(dir, variant, options.checkpoint_positions),
    };
    let started = Instant::now();
    let built = build_layers(&mut tb, &plan, &checkpoint, ranks, out)?;
    write_totals(&plan, built, started, ranks, out)
}

/// The layers already in `dir`, their memory given back until the build reads them; every rank
/// must find the same.
fn load(
    seeds: u32,
    variant: RuleSet,
    dir: &Path,
    ranks: Ranks<'_>,
    out: &mut dyn Write,
) -> anyhow::Result<Tablebase> {
    // A split build's ranks each read their share of the layers; the others map them.
    let (tb, problems) = match ranks.split() {
        Some(split) => file::load_share(dir, variant, split),
        None => file::load(dir, variant, None),
    };
    for p in problems.iter().filter(|_| ranks.lead()) {
        log::warn!("{p}");
    }
    tb.release();
    ranks.same_layers(tb.seeds(), dir)?;
    if let Some(have) = tb.seeds() {
        writeln!(
            out,
            "layers 0 to {} seeds loaded from {}",
            have.min(seeds),
            dir.display()
        )?;
    }
    Ok(tb)
}

/// The resource check: its report, then a refusal when this machine (or any rank's) is short,
/// unless `force`. The estimate.
fn check_resources(
    plan: &Plan<'_>,
    machine: &Machine,
    force: bool,
    ranks: Ranks<'_>,
    out: &mut dyn Write,
) -> anyhow::Result<BuildEstimate> {
    let (estimate, short) = plan.check(machine, out)?;
    // Every rank refuses when one does.
    ranks.refuse_with_any(short.as_deref(), force, plan.variant, plan.seeds)?;
    if let Some(short) = short {
        anyhow::ensure!(force, "{}", plan.refusal(machine, &short));
        writeln!(out, "--force: building anyway, though {short}")?;
    }
    Ok(estimate)
}

/// Builds the layers up to `plan.seeds`, writing each and a line of report on it: the
/// positions built.
fn build_layers(
    tb: &mut Tablebase,
    plan: &Plan<'_>,
    checkpoint: &file::PassFiles,
    ranks: Ranks<'_>,
    out: &mut dyn Write,
) -> anyhow::Result<u64> {
    let mut built = 0u64;
    while tb.seeds().is_none_or(|s| s < plan.seeds) {
        let bars = PhaseBars::new(layer_label, true);
        let progress: &dyn Progress = if ranks.lead() { &bars } else { &Silent };
        let t = Instant::now();
        let report = match ranks.split() {
            Some(split) => tb.build_next_split(plan.memory, progress, split, checkpoint),
            None => tb.build_next_resumable(plan.memory, progress, checkpoint),
        };
        let secs = t.elapsed().as_secs_f64();
        take_problems(checkpoint, report.seeds)?;
        let (path, exchanged) = write_layer(tb, &report, plan.dir, checkpoint, ranks)?;
        built += report.positions;
        let phases: Vec<String> = bars
            .times()
            .iter()
            .map(|(phase, s)| format!("{phase} {s:.2}"))
            .collect();
        write_layer_line(&report, secs, &phases.join(" + "), &exchanged, path, out)?;
    }
    Ok(built)
}

/// Logs what the checkpoint could not read back or park, and fails when it lost the best exits
/// parked for layer `seeds` or could not write its checkpoint.
fn take_problems(checkpoint: &file::PassFiles, seeds: u32) -> anyhow::Result<()> {
    let problems = checkpoint.take_problems();
    for p in &problems.unread {
        log::warn!("{p}; built that part of the layer again");
    }
    for p in &problems.unparked {
        log::warn!("{p}; the build held those bytes in memory");
    }
    if let Some(e) = problems.lost.into_iter().next() {
        return Err(anyhow::Error::new(e).context(format!(
            "reading back the best exits parked while layer {seeds} was built: that layer is \
             not written"
        )));
    }
    if let Some(e) = problems.unwritten.into_iter().next() {
        return Err(anyhow::Error::new(e).context(format!(
            "writing the checkpoint of layer {seeds} (--checkpoint-positions {} keeps none)",
            reachable::reachable_len(seeds) + 1
        )));
    }
    Ok(())
}

/// Writes layer `seeds` (in a split build every rank its blocks, [`file::save_share`]) and lets
/// its checkpoint go: the file's path (`None` where nothing was written) and what the layer's
/// build exchanged, as the report's words.
fn write_layer(
    tb: &mut Tablebase,
    report: &LayerReport,
    dir: &Path,
    checkpoint: &file::PassFiles,
    ranks: Ranks<'_>,
) -> anyhow::Result<(Option<PathBuf>, String)> {
    let seeds = report.seeds;
    let path = match ranks.split() {
        Some(split) => file::save_share(tb, seeds, dir, split).map(Some),
        None => file::save_and_map_layer(tb, seeds, dir),
    };
    if path.is_ok() {
        checkpoint
            .done(seeds)
            .with_context(|| format!("removing the checkpoint of layer {seeds}"))?;
    }
    let exchanged = ranks.after_layer(path.is_ok(), report)?;
    let path = path.with_context(|| format!("writing layer {seeds}"))?;
    Ok((path, exchanged))
}

/// A layer's line of report: its positions, time by phase, rate, exchanges and file.
fn write_layer_line(
    report: &LayerReport,
    secs: f64,
    phases: &str,
    exchanged: &str,
    path: Option<PathBuf>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "layer {:>2}: {:>13} positions, {:>11} bounded, {:7.2} s ({}), {:6.2} M positions/s{}{}",
        report.seeds,
        report.positions,
        report.bounded,
        secs,
        phases,
        report.positions as f64 / secs.max(1e-9) / 1e6,
        exchanged,
        path.map_or(String::new(), |p| format!(", {}", p.display()))
    )?;
    Ok(())
}

/// The build's last line: the positions, the time and rate, the CPU and peak memory (each
/// rank's in a split build).
fn write_totals(
    plan: &Plan<'_>,
    built: u64,
    started: Instant,
    ranks: Ranks<'_>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let (variant, seeds) = (plan.variant, plan.seeds);
    let secs = started.elapsed().as_secs_f64();
    let (user, sys) = cpu_seconds().unwrap_or((0.0, 0.0));
    let peak = peak_memory_kib().map_or("?".into(), |k| (k / 1024).to_string());
    // Each rank's CPU and peak memory: its own process's.
    let per_rank = ranks.usage(&format!("{user:.1} s + {sys:.1} s CPU, {peak} MiB"));
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
