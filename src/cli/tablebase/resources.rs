//! The resource check of `perfectplay tablebase build`: what the build takes (the library's
//! [`BuildEstimate`]) against what this machine has (its memory, the free disk of the layer
//! files' directory, its cores), as a report and as the words of what is short.

use std::io::Write;
use std::path::Path;

use perfectplay::machine::Machine;
use perfectplay::oware::tablebase::estimate::{self, BuildEstimate};
use perfectplay::oware::RuleSet;

/// What the machine has for a build into `dir`, or a machine of `memory` bytes; its free disk
/// only when this process `writes` the files.
pub(super) fn machine_for(dir: &Path, writes: bool, memory: Option<u64>) -> Machine {
    let here = Machine::read(dir);
    Machine {
        memory_available: memory.or(here.memory_available),
        memory_total: memory.or(here.memory_total),
        disk_free: here.disk_free.filter(|_| writes),
        cores: here.cores,
    }
}

/// What a build is asked to do, as the resource check weighs it.
pub(super) struct Plan<'a> {
    pub variant: RuleSet,
    /// The first layer to build (those below are loaded).
    pub first: u32,
    /// The last layer.
    pub seeds: u32,
    /// The bound of the sweeps of the moves pass (`None`: one sweep).
    pub memory: Option<u64>,
    /// Whether the build parks each layer's best exits in the directory.
    pub parked: bool,
    /// The ranks of a split build (`None`: not split): each needs its share of the memory.
    pub ranks: Option<u64>,
    /// The least positions of a layer kept in checkpoints.
    pub min_positions: u64,
    /// The layer files' directory.
    pub dir: &'a Path,
}

impl Plan<'_> {
    /// What building up to `seeds` takes.
    fn estimate(&self, seeds: u32) -> BuildEstimate {
        match self.ranks {
            None => BuildEstimate::new(self.variant, self.first, seeds, self.memory, self.parked),
            Some(k) => BuildEstimate::split(self.variant, self.first, seeds, k),
        }
    }

    /// The report of what the build takes against what `machine` has, into `out`; the
    /// estimate, and what the machine lacks for it in words (`None`: nothing, or unknown).
    pub fn check(
        &self,
        machine: &Machine,
        out: &mut dyn Write,
    ) -> anyhow::Result<(BuildEstimate, Option<String>)> {
        let estimate = self.estimate(self.seeds);
        let checkpoint = estimate.checkpoint_bytes(self.min_positions);
        write_estimate(&estimate, checkpoint, machine, self.ranks, self.dir, out)?;
        let short = shortfall(&estimate, checkpoint, machine, self.dir);
        Ok((estimate, short))
    }

    /// The answer of `--ranks K` (the check alone) from `estimate`, this plan's: `K` nodes of
    /// `machine`'s memory (`--memory`), what each rank needs of it at its peak, the disk of the
    /// layer files (and of the best exits parked while the top layer is built), and the wall time
    /// on `K` ranks of `machine`'s cores (`RAYON_NUM_THREADS`), from the rates measured here
    /// and the split build's CPU factor ([`estimate::SPLIT_CPU_FACTOR`]).
    pub fn ranks_answer(&self, estimate: &BuildEstimate, machine: &Machine) -> String {
        let k = self.ranks.unwrap_or(1);
        let cores = machine.cores * k as usize;
        format!(
            "{} up to {} seeds: {k} nodes of {} ({} a rank at the peak), {} of disk, about {} \
             on {k} x {} cores (the plain build's rates, times {} for the split build)",
            self.variant,
            self.seeds,
            machine.memory_available.map_or("unknown".into(), bytes),
            bytes(estimate.peak_memory),
            bytes(estimate.disk + estimate.checkpoint_bytes(self.min_positions)),
            duration(estimate.wall_seconds(cores)),
            machine.cores,
            estimate::SPLIT_CPU_FACTOR,
        )
    }

    /// Why the build does not start when `machine` is `short` of what it needs: what it lacks
    /// and the most seeds it could build here.
    pub fn refusal(&self, machine: &Machine, short: &str) -> String {
        let (variant, seeds) = (self.variant, self.seeds);
        let fits = (self.first..seeds).rev().find(|&n| {
            let e = self.estimate(n);
            shortfall(
                &e,
                e.checkpoint_bytes(self.min_positions),
                machine,
                self.dir,
            )
            .is_none()
        });
        let fewer = match fits {
            Some(n) => format!("build at most {n} seeds here"),
            None => "build fewer seeds".to_string(),
        };
        format!(
            "not building {variant} up to {seeds} seeds: {short}. Either {fewer}, free memory or \
             disk, or pass --force to start anyway"
        )
    }
}

/// Bytes in binary units: `512 B`, `3.0 KiB`, `538.3 MiB`, `2.27 TiB`.
pub(super) fn bytes(b: u64) -> String {
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
    ranks: Option<u64>,
    dir: &Path,
    out: &mut dyn Write,
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
        "to build: {} layers {} to {}: {} positions; memory {}{} at the peak (building layer {}), \
         {} available of {}; disk {} of layer files{}, {} free in {}; time about {} on {} cores \
         (an estimate from the rates measured here: {:.2} M positions per core-second up to {:.0} M \
         positions a layer, falling past it as the size to the power {}{}, each extra sweep {:.0}% \
         more; longer when the cores are shared)",
        e.variant,
        first.seeds,
        top.seeds,
        e.positions,
        bytes(e.peak_memory),
        ranks.map_or(String::new(), |k| format!(" on each of {k} ranks")),
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
        duration(e.wall_seconds(machine.cores * ranks.unwrap_or(1) as usize)),
        machine.cores * ranks.unwrap_or(1) as usize,
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
