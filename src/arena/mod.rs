//! The match runner behind `perfectplay match`: two engines (any program speaking the protocol)
//! play each other under the library's rules as referee, and the runner reports the score, the Elo
//! difference with its confidence interval, and optionally an SPRT decision.
//!
//! - [`engine`]: the subprocess client (handshake, options, `go`/`bestmove`, bounded reads);
//! - [`runner`]: openings, the referee loop, fault handling, worker threads, the tally;
//! - [`ogn`]: game records in Oware Game Notation (write, parse, replay);
//! - [`stats`]: Elo, confidence intervals, LOS, pentanomial counts, SPRT.
//!
//! [`run_match`] is the command-line front end; it is the only part that prints.

pub mod engine;
pub mod ogn;
pub mod runner;
pub mod stats;

use std::fmt;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};

use crate::game::CycleRule;
use crate::oware::{Rules, Side, Variant};
use engine::{split_command, EngineSpec};
use runner::{
    parse_openings, play_match, random_openings, GameRecord, MatchConfig, SearchLimit, StopReason,
    Tally,
};
use stats::{los, Sprt};

/// Options of `perfectplay match`.
#[derive(Debug, Clone, clap::Args)]
pub struct MatchArgs {
    /// Engine command line; give it twice (first engine, second engine). Blanks separate arguments,
    /// quotes group them: --engine "perfectplay" --engine "/opt/other-engine --uci".
    #[arg(long = "engine", value_name = "CMD")]
    pub engines: Vec<String>,

    /// Display name of engine N (1 or 2) in records and the summary, as N:NAME (default: the
    /// engine's `id name`; equal names get #1 and #2 appended).
    #[arg(long = "name", value_name = "N:NAME")]
    pub names: Vec<String>,

    /// Engine option sent as `setoption`, as N:NAME=VALUE for engine N (1 or 2) or NAME=VALUE for
    /// both; repeatable: --option 1:Level=5 --option 2:Level=1.
    #[arg(long = "option", value_name = "[N:]NAME=VALUE")]
    pub options: Vec<String>,

    /// Games to play; pairs of games share an opening with colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games: usize,

    /// Search limit per move: `go nodes N` (at least 1).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// Search limit per move: `go depth D` (at least 1).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,

    /// Search limit per move: `go movetime MS` (milliseconds; results are then not reproducible).
    /// Without any limit the engines get a plain `go`.
    #[arg(long, group = "limit", value_name = "MS")]
    pub movetime: Option<u64>,

    /// Milliseconds an engine may take for the handshake, `isready`, and each move (on top of
    /// --movetime); a slower engine loses the game by timeout.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    pub timeout: u64,

    /// Openings file, one a line: a diagram (optionally followed by `moves ...`) or a move list
    /// from the start (`F f B e` or `FfBe`); `#` starts a comment. Pairs take them in turn.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Without --openings: plies of the random opening of each pair.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub opening_plies: usize,

    /// Seed of the random openings (the same seed gives the same openings).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Games played at once (each with its own two engine processes); at least 1.
    #[arg(long, default_value_t = 1, value_name = "K", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub concurrency: usize,

    /// Rules of the referee, also sent to engines that have a Variant option.
    #[arg(long, default_value = "abapa", value_name = "abapa|awari")]
    pub variant: Variant,

    /// Cycle rule: occurrences of a position since the last capture that end the game (at least 2).
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub repetitions: u32,

    /// Cycle rule: plies without capture that end the game (0 = no limit).
    #[arg(long, default_value_t = 500, value_name = "PLIES")]
    pub no_capture_limit: u32,

    /// Write every finished game to this file in Oware Game Notation (the file is replaced at the
    /// start; games are written as they finish, so an interrupted match keeps them).
    #[arg(long, value_name = "FILE")]
    pub ogn: Option<PathBuf>,

    /// Also write each game to its own file DIR/game-NNNN.ogn (the Aualé GUI opens one game per
    /// file).
    #[arg(long, value_name = "DIR")]
    pub ogn_dir: Option<PathBuf>,

    /// Check the games of an OGN file with the rules instead of playing: every move legal, every
    /// result matching; prints a summary and fails if a game does not replay.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engines", "ogn", "ogn_dir", "openings", "sprt"])]
    pub replay: Option<PathBuf>,

    /// Sequential probability ratio test, stopping the match when decided: elo0=A elo1=B
    /// [alpha=X] [beta=Y] (logistic Elo of the first engine over the second; alpha and beta
    /// default to 0.05). The test may stop the match once 20 games are in.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,

    /// Event tag of the records.
    #[arg(long, default_value = "perfectplay match")]
    pub event: String,

    /// No progress bar and no line per game on standard error.
    #[arg(long)]
    pub quiet: bool,
}

/// What [`run_match`] did.
#[derive(Clone, Debug)]
pub enum MatchReport {
    /// A match was played.
    Played(MatchSummary),
    /// A record file was replayed (`--replay`), and every game in it replayed correctly.
    Replayed(ReplaySummary),
}

/// The result of a match, as printed at its end.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Display names, the first engine's first.
    pub names: [String; 2],
    /// Games planned.
    pub planned: usize,
    /// The search limit.
    pub limit: SearchLimit,
    /// The rules.
    pub rules: Rules,
    /// The score and fault counts, from the first engine's point of view.
    pub tally: Tally,
    /// Why the match ended.
    pub stop: StopReason,
    /// The SPRT and its final log-likelihood ratio, if one was run.
    pub sprt: Option<(Sprt, f64)>,
    /// Wall time.
    pub elapsed: Duration,
}

impl fmt::Display for MatchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = &self.names;
        let t = &self.tally;
        let cycle = self.rules.cycle;
        writeln!(
            f,
            "Match {a} vs {b}: {} of {} games, {} ({}, repetitions {}, no-capture limit {}), {:.1} s",
            t.games.games(),
            self.planned,
            self.limit,
            self.rules.variant,
            cycle.repetitions,
            cycle.no_progress_limit,
            self.elapsed.as_secs_f64()
        )?;
        let stop = match self.stop {
            StopReason::Completed => "all games played".to_string(),
            StopReason::Interrupted => "interrupted; unfinished games dropped".to_string(),
            StopReason::Sprt(d) => format!("SPRT decided: {d}"),
        };
        writeln!(f, "Stopped: {stop}")?;
        let g = &t.games;
        writeln!(
            f,
            "Score of {a}: {} wins, {} draws, {} losses, {:.1}/{} = {:.1}%  (South won {}, drawn {}, North won {})",
            g.wins,
            g.draws,
            g.losses,
            g.points(),
            g.games(),
            100.0 * g.score(),
            t.by_side[0],
            t.by_side[1],
            t.by_side[2]
        )?;
        let (estimate, model) = if t.pairs.pairs() > 0 {
            (
                t.pairs.elo(),
                format!("pentanomial, {} pairs", t.pairs.pairs()),
            )
        } else {
            (g.elo(), format!("trinomial, {} games", g.games()))
        };
        match estimate {
            Some(e) => writeln!(f, "Elo difference ({a} - {b}): {e} (95% interval, {model})")?,
            None => writeln!(f, "Elo difference: no games")?,
        }
        writeln!(
            f,
            "LOS: {:.1}%  Draw ratio: {:.1}%",
            100.0 * los(g.wins, g.losses),
            draw_ratio(g)
        )?;
        let p = t.pairs.counts;
        writeln!(
            f,
            "Pairs by points of {a} (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
            p[0], p[1], p[2], p[3], p[4]
        )?;
        if let Some((sprt, llr)) = &self.sprt {
            let (lo, hi) = sprt.bounds();
            writeln!(
                f,
                "SPRT {sprt}: LLR {llr:.2} [{lo:.2}, {hi:.2}], {}",
                sprt.decide(*llr)
            )?;
        }
        write!(f, "Faults:")?;
        for (name, faults) in self.names.iter().zip(&t.faults) {
            let total: u64 = faults.values().sum();
            let kinds: Vec<String> = faults.iter().map(|(k, n)| format!("{n} {k}")).collect();
            if total == 0 {
                write!(f, " {name} none;")?;
            } else {
                write!(f, " {name} {total} ({});", kinds.join(", "))?;
            }
        }
        writeln!(f)
    }
}

fn draw_ratio(g: &stats::Trinomial) -> f64 {
    if g.games() == 0 {
        0.0
    } else {
        100.0 * g.draws as f64 / g.games() as f64
    }
}

/// What `--replay` found in a record file.
#[derive(Clone, Debug, Default)]
pub struct ReplaySummary {
    /// Records in the file.
    pub games: usize,
    /// Records whose moves the rules end.
    pub ended_by_rules: usize,
    /// Records decided by a recorded fault.
    pub forfeits: usize,
    /// Records without a result.
    pub unfinished: usize,
    /// Games won by South, drawn, won by North.
    pub by_side: [u64; 3],
    /// When the file holds the games of two players: their names and the first one's results.
    pub players: Option<([String; 2], stats::Trinomial)>,
}

impl fmt::Display for ReplaySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Replayed {} games: {} ended by the rules, {} by a fault, {} unfinished; all moves legal, all results match",
            self.games, self.ended_by_rules, self.forfeits, self.unfinished
        )?;
        writeln!(
            f,
            "South won {}, drawn {}, North won {}",
            self.by_side[0], self.by_side[1], self.by_side[2]
        )?;
        if let Some(([a, b], t)) = &self.players {
            write!(
                f,
                "Score of {a} vs {b}: {} wins, {} draws, {} losses",
                t.wins, t.draws, t.losses
            )?;
            if let Some(e) = t.elo() {
                write!(f, ", Elo {e}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static CTRL_C_PRESSES: AtomicUsize = AtomicUsize::new(0);

/// Installs the Ctrl-C handler once per process: the first Ctrl-C stops the match (finished games
/// are kept and summarised), the second exits at once.
fn install_ctrl_c() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let installed = ctrlc::set_handler(|| {
            if CTRL_C_PRESSES.fetch_add(1, Ordering::SeqCst) > 0 {
                std::process::exit(130);
            }
            INTERRUPTED.store(true, Ordering::SeqCst);
        });
        if let Err(e) = installed {
            log::warn!("cannot install the Ctrl-C handler ({e}); Ctrl-C will end the match without a summary");
        }
    });
}

/// Runs `perfectplay match`: replays a record file (`--replay`) or plays a match, printing the
/// summary on standard output (the progress bar and per-game lines go to standard error).
///
/// # Errors
/// Bad options (not two engines, a bad `--sprt`, `--option` or `--name`, `--repetitions` below
/// 2), an unreadable openings or record file, an engine that fails to start before the first game,
/// an output file that cannot be created, and, with `--replay`, any game that does not replay.
/// Faults during the match are not errors: they lose games and are reported.
pub fn run_match(args: MatchArgs) -> anyhow::Result<MatchReport> {
    if args.repetitions < 2 {
        bail!(
            "--repetitions must be at least 2 (found {})",
            args.repetitions
        );
    }
    let rules = Rules {
        variant: args.variant,
        cycle: CycleRule {
            repetitions: args.repetitions,
            no_progress_limit: args.no_capture_limit,
        },
    };
    if let Some(path) = &args.replay {
        return replay_file(path, rules).map(MatchReport::Replayed);
    }
    let mut config = match_config(&args, rules)?;
    let sprt = config.sprt;

    let mut first = Vec::new();
    for i in 0..2 {
        let engine = config.start_engine(i, None).with_context(|| {
            format!(
                "engine {} ('{}') did not start",
                i + 1,
                config.engines[i].command
            )
        })?;
        first.push(engine);
    }
    config.names = resolve_names(&config, [first[0].id_name(), first[1].id_name()]);
    let first: [engine::Engine; 2] = first
        .try_into()
        .map_err(|_| anyhow::anyhow!("engines lost"))?;

    let mut ogn_file = match &args.ogn {
        Some(path) => {
            Some(File::create(path).with_context(|| format!("cannot create {}", path.display()))?)
        }
        None => None,
    };
    if let Some(dir) = &args.ogn_dir {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }

    INTERRUPTED.store(false, Ordering::SeqCst);
    CTRL_C_PRESSES.store(0, Ordering::SeqCst);
    install_ctrl_c();

    let progress = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(config.games as u64)
    };
    let style =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    progress.set_style(style);
    progress.set_message(progress_message(
        &config.names,
        &Tally::default(),
        sprt.as_ref(),
    ));
    progress.enable_steady_tick(Duration::from_millis(500));
    let date = today();
    let started = Instant::now();
    let mut write_failed = false;
    let mut on_game = |record: &GameRecord, tally: &Tally| {
        let text = record.to_ogn(&args.event, &date, rules).to_string();
        if let Some(file) = ogn_file.as_mut() {
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                if !write_failed {
                    log::error!("cannot write the game records: {e}");
                    write_failed = true;
                }
            }
        }
        if let Some(dir) = &args.ogn_dir {
            let path = dir.join(format!("game-{:04}.ogn", record.number));
            if let Err(e) = fs::write(&path, &text) {
                log::error!("cannot write {}: {e}", path.display());
            }
        }
        progress.inc(1);
        progress.set_message(progress_message(&config.names, tally, sprt.as_ref()));
        if !args.quiet {
            progress.suspend(|| {
                eprintln!(
                    "Game {} {} vs {}: {} ({})",
                    record.number,
                    record.names[0],
                    record.names[1],
                    record.result_string(),
                    record.termination_string()
                )
            });
        }
    };
    let result = play_match(&config, Some(first), &INTERRUPTED, &mut on_game);
    progress.finish_and_clear();

    let summary = MatchSummary {
        names: config.names.clone(),
        planned: config.games,
        limit: config.limit,
        rules,
        sprt: sprt.map(|s| (s, result.tally.llr(&s))),
        tally: result.tally,
        stop: result.stop,
        elapsed: started.elapsed(),
    };
    print!("{summary}");
    std::io::stdout().flush().ok();
    Ok(MatchReport::Played(summary))
}

/// Builds the match configuration from the options (names are filled in later).
fn match_config(args: &MatchArgs, rules: Rules) -> anyhow::Result<MatchConfig> {
    if args.engines.len() != 2 {
        bail!(
            "a match needs exactly two --engine options (found {})",
            args.engines.len()
        );
    }
    let mut engines = [EngineSpec::default(), EngineSpec::default()];
    for (spec, command) in engines.iter_mut().zip(&args.engines) {
        spec.command = command.clone();
    }
    for option in &args.options {
        let (targets, setting) = engine_target(option)?;
        let (name, value) = setting
            .split_once('=')
            .with_context(|| format!("--option '{option}' is not [N:]NAME=VALUE"))?;
        for t in targets {
            engines[t]
                .options
                .push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    for name in &args.names {
        let (targets, value) = engine_target(name)?;
        if targets.len() != 1 {
            bail!("--name '{name}' must say which engine: 1:NAME or 2:NAME");
        }
        engines[targets[0]].name = Some(value.to_string());
    }
    let limit = match (args.nodes, args.depth, args.movetime) {
        (Some(n), _, _) => SearchLimit::Nodes(n),
        (_, Some(d), _) => SearchLimit::Depth(d),
        (_, _, Some(ms)) => SearchLimit::MoveTime(ms),
        _ => SearchLimit::EngineDefault,
    };
    let pairs = args.games.div_ceil(2);
    let openings = match &args.openings {
        Some(path) => {
            let text = fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            parse_openings(&text, rules).with_context(|| format!("in {}", path.display()))?
        }
        None => random_openings(pairs.max(1), args.opening_plies, args.seed, rules),
    };
    let sprt = match &args.sprt {
        Some(words) => Some(Sprt::from_words(words.iter().map(String::as_str)).context("--sprt")?),
        None => None,
    };
    let fallback_names = [0, 1].map(|i| {
        let words = split_command(&engines[i].command);
        let program = words.first().map(Path::new).and_then(|p| p.file_name());
        program.map_or_else(
            || format!("engine{}", i + 1),
            |p| p.to_string_lossy().into_owned(),
        )
    });
    Ok(MatchConfig {
        engines,
        names: fallback_names,
        games: args.games,
        limit,
        timeout: Duration::from_millis(args.timeout),
        rules,
        openings,
        concurrency: args.concurrency.max(1),
        sprt,
    })
}

/// Splits `N:REST` into the engine index and the rest; without a valid `N:` prefix, both engines.
fn engine_target(text: &str) -> anyhow::Result<(Vec<usize>, &str)> {
    match text.split_once(':') {
        Some(("1", rest)) => Ok((vec![0], rest)),
        Some(("2", rest)) => Ok((vec![1], rest)),
        Some((n, _)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
            bail!("'{text}': engine number must be 1 or 2")
        }
        _ => Ok((vec![0, 1], text)),
    }
}

/// Display names: `--name`, else `id name`, else the program's file name; equal names get `#1` and
/// `#2` appended.
fn resolve_names(config: &MatchConfig, id_names: [Option<&str>; 2]) -> [String; 2] {
    let mut names = [0, 1].map(|i| {
        config.engines[i]
            .name
            .clone()
            .or_else(|| id_names[i].map(str::to_string))
            .unwrap_or_else(|| config.names[i].clone())
    });
    if names[0] == names[1] {
        names = [format!("{} #1", names[0]), format!("{} #2", names[1])];
    }
    names
}

/// The progress bar's message: the first engine's running score, Elo, and the LLR.
fn progress_message(names: &[String; 2], tally: &Tally, sprt: Option<&Sprt>) -> String {
    let g = &tally.games;
    let mut msg = format!(
        "{} +{} ={} -{} ({:.1}%)",
        names[0],
        g.wins,
        g.draws,
        g.losses,
        100.0 * g.score()
    );
    let estimate = if tally.pairs.pairs() > 0 {
        tally.pairs.elo()
    } else {
        g.elo()
    };
    if let Some(e) = estimate {
        msg.push_str(&format!("  Elo {:+.0} ± {:.0}", e.elo, e.half_width()));
    }
    if let Some(s) = sprt {
        msg.push_str(&format!("  LLR {:.2}", tally.llr(s)));
    }
    msg
}

/// Today's date (UTC) as `YYYY.MM.DD`, as PGN and OGN write it.
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `--replay`: checks every record of `path` and summarises them.
fn replay_file(path: &Path, rules: Rules) -> anyhow::Result<ReplaySummary> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let games = ogn::parse(&text).with_context(|| format!("in {}", path.display()))?;
    let mut summary = ReplaySummary {
        games: games.len(),
        ..ReplaySummary::default()
    };
    let mut errors = Vec::new();
    let first_names = games
        .first()
        .map(|g| [0, 1].map(|i| g.tag(["South", "North"][i]).unwrap_or("?").to_string()));
    let mut players = first_names
        .filter(|[a, b]| a != b)
        .map(|names| (names, stats::Trinomial::default()));
    for (i, game) in games.iter().enumerate() {
        match ogn::replay(game, rules) {
            Ok(r) => {
                if r.end.is_some() {
                    summary.ended_by_rules += 1;
                } else if r.forfeit {
                    summary.forfeits += 1;
                }
                let Some(winner) = r.winner else {
                    summary.unfinished += 1;
                    continue;
                };
                summary.by_side[match winner {
                    Some(Side::South) => 0,
                    None => 1,
                    Some(Side::North) => 2,
                }] += 1;
                let south = game.tag("South").unwrap_or("?");
                let north = game.tag("North").unwrap_or("?");
                if let Some(([a, b], t)) = players.as_mut() {
                    let first_side = if (south, north) == (a.as_str(), b.as_str()) {
                        Side::South
                    } else if (north, south) == (a.as_str(), b.as_str()) {
                        Side::North
                    } else {
                        players = None; // more than two players: no head-to-head score
                        continue;
                    };
                    match winner {
                        None => t.draws += 1,
                        Some(w) if w == first_side => t.wins += 1,
                        Some(_) => t.losses += 1,
                    }
                }
            }
            Err(e) => errors.push(format!(
                "game {} (Round {}): {e}",
                i + 1,
                game.tag("Round").unwrap_or("?")
            )),
        }
    }
    summary.players = players;
    if !errors.is_empty() {
        bail!(
            "{} of {} games do not replay:\n{}",
            errors.len(),
            games.len(),
            errors.join("\n")
        );
    }
    print!("{summary}");
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn args(line: &[&str]) -> MatchArgs {
        Cli::try_parse_from(std::iter::once("match").chain(line.iter().copied()))
            .unwrap()
            .args
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_147), (2025, 2, 28));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn options_and_names_reach_the_right_engine() {
        let a = args(&[
            "--engine",
            "e1 --x",
            "--engine",
            "e2",
            "--option",
            "1:Level=5",
            "--option",
            "Seed=abc",
            "--option",
            "2:Level = 1",
            "--name",
            "2:weak",
            "--nodes",
            "500",
            "--sprt",
            "elo0=0",
            "elo1=5",
        ]);
        let c = match_config(&a, Rules::default()).unwrap();
        assert_eq!(
            c.engines[0].options,
            [
                ("Level".to_string(), "5".to_string()),
                ("Seed".into(), "abc".into())
            ]
        );
        assert_eq!(
            c.engines[1].options,
            [
                ("Seed".to_string(), "abc".to_string()),
                ("Level".into(), "1".into())
            ]
        );
        assert_eq!(c.engines[1].name.as_deref(), Some("weak"));
        assert_eq!(c.names, ["e1".to_string(), "e2".to_string()]);
        assert_eq!(c.limit, SearchLimit::Nodes(500));
        assert_eq!(c.sprt.map(|s| s.elo1), Some(5.0));
        assert_eq!(
            resolve_names(&c, [Some("X"), Some("X")]),
            ["X".to_string(), "weak".to_string()]
        );
        let same = MatchConfig {
            engines: [EngineSpec::default(), EngineSpec::default()],
            ..c
        };
        assert_eq!(
            resolve_names(&same, [Some("X"), Some("X")]),
            ["X #1".to_string(), "X #2".to_string()]
        );
    }

    #[test]
    fn bad_options_are_errors() {
        let one = args(&["--engine", "e1"]);
        assert!(match_config(&one, Rules::default()).is_err());
        let bad = args(&["--engine", "a", "--engine", "b", "--option", "3:Level=1"]);
        assert!(match_config(&bad, Rules::default()).is_err());
        let bad = args(&["--engine", "a", "--engine", "b", "--option", "Level"]);
        assert!(match_config(&bad, Rules::default()).is_err());
        let bad = args(&[
            "--engine", "a", "--engine", "b", "--sprt", "elo0=3", "elo1=1",
        ]);
        assert!(match_config(&bad, Rules::default()).is_err());
        assert!(Cli::try_parse_from(["m", "--nodes", "1", "--depth", "2"]).is_err());
        assert!(Cli::try_parse_from(["m", "--replay", "x.ogn", "--engine", "a"]).is_err());
        assert!(run_match(args(&[
            "--engine",
            "a",
            "--engine",
            "b",
            "--repetitions",
            "1"
        ]))
        .is_err());
        let missing = args(&[
            "--engine",
            "/nonexistent/engine",
            "--engine",
            "/nonexistent/other",
        ]);
        let err = run_match(missing).unwrap_err();
        assert!(format!("{err:#}").contains("engine 1"), "{err:#}");
    }
}
