//! The terminal front end of `perfectplay solve`: progress bars per phase on standard error, the
//! figures (compared with Tanaka's), the table of positions by distance, time and peak memory on
//! standard output; and `--probe`, the value of a position and of each of its moves. The
//! analysis itself is [`perfectplay::dobutsu::solve`], which prints nothing.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, ValueEnum};
use perfectplay::dobutsu::solve::{self, file, Figures, Solution};
use perfectplay::dobutsu::Position;
use perfectplay::machine::proc_kib;

use super::phase_bars::PhaseBars;

/// The games `solve` knows.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SolveGame {
    /// Dobutsu Shogi: every position reachable from the start.
    Dobutsu,
}

/// Arguments of `perfectplay solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game to solve.
    game: SolveGame,
    /// Where to write the solution (written whole or not at all) [default: the engine's default
    /// place, $XDG_DATA_HOME/perfectplay/dobutsu.solution, XDG_DATA_HOME defaulting to
    /// ~/.local/share].
    #[arg(long, conflicts_with = "probe")]
    out: Option<PathBuf>,
    /// Instead of solving, print the value of this position (a FEN) and of every legal move,
    /// from the solution file given by --table.
    #[arg(long)]
    probe: Option<String>,
    /// The solution file that --probe reads [default: as for --out].
    #[arg(long, requires = "probe")]
    table: Option<PathBuf>,
}

/// Makes an empty scratch file in `dir` (to learn that the solution can be written there) and
/// returns its path.
fn tempfile_in(dir: &std::path::Path) -> std::io::Result<PathBuf> {
    let path = dir.join(format!(".perfectplay-solve-{}.check", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)?;
    Ok(path)
}

/// `path`, or the default place of the solution file.
fn or_default_place(path: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    path.or_else(file::default_path).context(
        "neither XDG_DATA_HOME nor HOME is set to an absolute path, so there is no default \
         place for the solution file: give one with --out or --table",
    )
}

/// Tanaka's figures (IPSJ SIG-GI 2009); they count a position and its mirror image once.
const TANAKA: [(&str, u64); 7] = [
    ("positions", 246_803_167),
    ("mover captures the Lion", 140_298_614),
    ("mover lost to a Try", 7_018_985),
    ("other positions", 99_485_568),
    ("  wins", 56_474_473),
    ("  draws", 2_682_700),
    ("  losses", 40_328_395),
];

/// Runs `perfectplay solve`.
///
/// # Errors
/// A FEN that does not parse, a missing or bad solution file for `--probe`, a failure to write
/// the solution or to standard output.
pub fn run(args: SolveArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let SolveGame::Dobutsu = args.game;
    if let Some(fen) = &args.probe {
        return probe(fen, &or_default_place(args.table)?, out);
    }
    let path = or_default_place(args.out)?;
    // Checked before the minutes of the analysis, not after.
    if path.is_dir() {
        anyhow::bail!("--out {} is a directory: give a file name", path.display());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("making the directory {}", dir.display()))?;
        let probe = tempfile_in(dir)
            .with_context(|| format!("the directory {} is not writable", dir.display()))?;
        let _ = std::fs::remove_file(probe);
    }
    let started = Instant::now();
    let bars = PhaseBars::new(|_, phase| phase.to_string(), false);
    let (solution, figures) = solve::analyse(&Position::start(), &bars);
    let solved = started.elapsed().as_secs_f64();
    let cpu_solved = cpu_seconds();
    file::save(&solution, &figures, &path)
        .with_context(|| format!("writing the solution to {}", path.display()))?;
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    report(&figures, out)?;
    writeln!(out)?;
    for (phase, secs) in bars.times() {
        writeln!(out, "phase {phase:<12} {secs:8.1} s wall")?;
    }
    let (user, sys) = cpu_solved.unwrap_or((0.0, 0.0));
    writeln!(
        out,
        "analysis {solved:.1} s wall, {user:.1} s user + {sys:.1} s sys CPU; peak memory {} MiB; \
         solution {} ({:.1} MB) written in {:.1} s",
        peak_memory_kib().map_or("?".into(), |k| (k / 1024).to_string()),
        path.display(),
        size as f64 / 1e6,
        started.elapsed().as_secs_f64() - solved
    )?;
    Ok(())
}

/// Prints the figures beside Tanaka's and the table by distance.
fn report(f: &Figures, out: &mut impl Write) -> anyhow::Result<()> {
    let u = &f.unmerged;
    let m = &f.merged;
    let ours = [
        (u.total(), m.total()),
        (u.lion_captures, m.lion_captures),
        (u.try_losses, m.try_losses),
        (
            u.undecided + u.no_moves + u.try_wins,
            m.undecided + m.no_moves + m.try_wins,
        ),
        (f.values_unmerged.wins(), f.values_merged.wins()),
        (f.values_unmerged.draws(), f.values_merged.draws()),
        (
            f.values_unmerged.losses() + u.no_moves,
            f.values_merged.losses() + m.no_moves,
        ),
    ];
    writeln!(
        out,
        "{:<26} {:>13} {:>13} {:>13}",
        "", "Tanaka", "found", "mirrors apart"
    )?;
    for ((name, tanaka), (apart, found)) in TANAKA.iter().zip(ours) {
        let mark = if *tanaka == found { "" } else { "  (differs)" };
        writeln!(out, "{name:<26} {tanaka:>13} {found:>13} {apart:>13}{mark}")?;
    }
    writeln!(
        out,
        "(no legal move: {} among the losses; a surviving Try: {}; forward sweeps: {})",
        u.no_moves, u.try_wins, f.sweeps
    )?;
    writeln!(out, "start position: {} for the side to move", f.start)?;
    writeln!(out)?;
    writeln!(
        out,
        "positions by distance to the end (undecided positions; mirror images merged / apart):"
    )?;
    writeln!(out, "{:>6} {:>12} {:>12}", "plies", "merged", "apart")?;
    let max = f.values_unmerged.max_distance() as usize;
    for d in 1..=max {
        let (a, b) = (f.values_merged.by_byte[d], f.values_unmerged.by_byte[d]);
        if a != 0 {
            let what = if d % 2 == 1 { "win" } else { "loss" };
            writeln!(out, "{d:>6} {a:>12} {b:>12}  {what}")?;
        }
    }
    writeln!(
        out,
        "{:>6} {:>12} {:>12}",
        "draw",
        f.values_merged.draws(),
        f.values_unmerged.draws()
    )?;
    Ok(())
}

/// `--probe`: the value of `fen` and of each legal move.
fn probe(fen: &str, table: &std::path::Path, out: &mut impl Write) -> anyhow::Result<()> {
    let pos = Position::from_fen(fen).with_context(|| format!("reading FEN '{fen}'"))?;
    let solution: Solution = match file::load(table) {
        Ok(solution) => solution,
        Err(e @ perfectplay::retro::file::TableError::Missing(_)) => {
            return Err(anyhow::Error::new(e).context(format!(
                "loading the solution (make it with `perfectplay solve dobutsu --out {}`)",
                table.display()
            )))
        }
        Err(e) => return Err(anyhow::Error::new(e).context("loading the solution")),
    };
    match solution.probe(&pos) {
        Some(v) => writeln!(out, "{fen}: {v}")?,
        None => writeln!(
            out,
            "{fen}: not reachable from the start (not in the table)"
        )?,
    }
    let mut moves = solution.move_values(&pos);
    moves.sort_by_key(|(_, v)| std::cmp::Reverse(v.map_or(i32::MIN, |v| v.preference())));
    for (mv, v) in moves {
        match v {
            Some(v) => writeln!(out, "{mv:<6} {v}")?,
            None => writeln!(out, "{mv:<6} unknown")?,
        }
    }
    Ok(())
}

/// Peak resident memory (VmHWM) in KiB, from /proc/self/status.
pub(crate) fn peak_memory_kib() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM")
}

/// User and system CPU seconds of the process, from /proc/self/stat (clock ticks of 1/100 s,
/// the Linux default).
pub(crate) fn cpu_seconds() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let sys: f64 = fields.get(12)?.parse().ok()?;
    Some((user / 100.0, sys / 100.0))
}
