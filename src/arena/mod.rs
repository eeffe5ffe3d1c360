//! The match runner behind `perfectplay match`: two engines (any program speaking the protocol)
//! play each other under the library's rules as referee, and the runner reports the score, the Elo
//! difference with its confidence interval, and optionally an SPRT decision.
//!
//! - [`engine`]: the subprocess client (handshake, options, `go`/`bestmove`, bounded reads);
//! - [`games`]: what the runner needs of a game beyond its notation ([`games::Refereed`]);
//! - [`runner`]: openings, the referee loop, fault handling, worker threads, the tally, all
//!   generic over the game;
//! - [`ogn`]: Oware's game records in Oware Game Notation (write, parse, replay);
//! - [`pgn`]: the other games' records (Dobutsu Shogi) in PGN (write, parse, replay);
//! - [`stats`]: Elo, confidence intervals, LOS, pentanomial counts, SPRT.
//!
//! [`run_match`] runs `perfectplay match` from its options and returns a report; it prints
//! nothing. It picks the game from `--variant` ([`visit_refereed`]) and runs the generic match
//! on it. The binary's front end shows its events (a start line, a progress bar, a line per
//! game), installs the Ctrl-C handler, and prints the report.

pub mod engine;
pub mod games;
pub mod ogn;
pub mod pgn;
pub mod runner;
pub mod stats;

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};

use crate::game::CycleRule;
use crate::oware::{Rules, Side};
use crate::search::Level;
use crate::variant::Variant;
use crate::{dobutsu, oware};
use engine::{split_command, EngineError, EngineSpec};
use games::Refereed;
use runner::{
    parse_openings, play_match, random_openings, Fault, FinishedGame, GameRecord, MatchConfig,
    SearchLimit, StopReason, Tally,
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

    /// Game clock: SECONDS[+INCREMENT] for the game, the increment added after each move
    /// (`--tc 10+0.1`), sent as `go wtime btime winc binc` in milliseconds; an engine that takes
    /// more than its clock holds (plus --time-margin) loses on time. Not reproducible.
    #[arg(long, group = "limit", value_name = "SECONDS[+INC]")]
    pub tc: Option<runner::TimeControl>,

    /// The limit of one engine, as N:KIND=VALUE, replacing --nodes/--depth/--movetime/--tc for
    /// engine N (1 or 2): nodes=N, depth=D, movetime=MS, tc=SECONDS[+INC], or go (a plain go):
    /// --tc 10+0.1 --limit 2:nodes=20000.
    #[arg(long = "limit", value_name = "N:KIND=VALUE")]
    pub limits: Vec<String>,

    /// Milliseconds an engine on a clock (--tc) may run past it before it loses on time: the
    /// runner's measure includes the pipes' and the threads' delays.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    pub time_margin: u64,

    /// Milliseconds an engine may take for `isready` before each game and for each move (on top
    /// of --movetime); a slower engine loses the game by timeout.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    pub timeout: u64,

    /// Milliseconds an engine may take to start: `uci` to `uciok`, then the first `isready` to
    /// `readyok` (a Java engine on a loaded machine can take half a minute).
    #[arg(long, default_value_t = 60_000, value_name = "MS")]
    pub handshake_timeout: u64,

    /// Openings file, one a line: a position in the game's notation (an Oware diagram, a Dobutsu
    /// FEN; optionally followed by `moves ...`) or a move list from the start (`F f B e` or
    /// `FfBe`; `b2b3 b3b2`); `#` starts a comment. Pairs take them in turn.
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

    /// The game and rules of the referee (Oware under the Abapa or Awari rules, or Dobutsu
    /// Shogi), also sent to engines that have a Variant option.
    #[arg(long, default_value = "abapa", value_name = "abapa|awari|dobutsu")]
    pub variant: Variant,

    /// Cycle rule: occurrences of a position (since the last capture in Oware) that end the game
    /// (at least 2). Engines that end a game at the first repetition (Aalina, the Aualé GUI) need 2.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub repetitions: u32,

    /// Oware's cycle rule: plies without capture that end the game (0 = no limit; default 500).
    /// Refused for Dobutsu, whose rules have no such limit.
    #[arg(long, value_name = "PLIES")]
    pub no_capture_limit: Option<u32>,

    /// Write every finished game to this file, in Oware Game Notation for Oware and in PGN for
    /// Dobutsu (the file is replaced at the start and locked while the match runs; games are
    /// written whole as they finish, so an interrupted match keeps them). Not the --openings file.
    #[arg(long, visible_alias = "pgn", value_name = "FILE")]
    pub ogn: Option<PathBuf>,

    /// Also write each game to its own file DIR/game-NNNN.ogn (.pgn for Dobutsu; the Aualé GUI
    /// opens one game per file; it ends a game at the first repetition, so records played with
    /// the default --repetitions 3 may not load: use --repetitions 2 for Aualé).
    #[arg(long, visible_alias = "pgn-dir", value_name = "DIR")]
    pub ogn_dir: Option<PathBuf>,

    /// Check the games of a record file with the rules instead of playing: every move legal,
    /// every result matching; prints a summary and fails if a game does not replay. An OGN file
    /// for Oware; a PGN file for Dobutsu (read as such with --variant dobutsu or when its first
    /// record has the tag [Variant "dobutsu"]).
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

    /// No progress bar and no line per game on standard error (the start line, which says the
    /// limit, stays).
    #[arg(long)]
    pub quiet: bool,
}

/// What [`run_match`] did.
#[derive(Clone, Debug)]
pub enum MatchReport {
    /// A match was played.
    Played(Box<MatchSummary>),
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
    /// The search limit of each engine, the first engine's first.
    pub limits: [SearchLimit; 2],
    /// The rules, in words ([`Refereed::describe_rules`]: `abapa, repetitions 3, no-capture
    /// limit 500`).
    pub rules: String,
    /// The players' names, the first player's first (`South`, `North`; `Sente`, `Gote`).
    pub sides: [&'static str; 2],
    /// The score and fault counts, from the first engine's point of view.
    pub tally: Tally,
    /// Why the match ended.
    pub stop: StopReason,
    /// The SPRT and its final log-likelihood ratio, if one was run.
    pub sprt: Option<(Sprt, f64)>,
    /// Wall time.
    pub elapsed: Duration,
    /// The game records written (`--ogn`, `--ogn-dir`) and those that failed.
    pub records: RecordsWritten,
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchReport::Played(s) => s.fmt(f),
            MatchReport::Replayed(r) => r.fmt(f),
        }
    }
}

/// The Elo estimate of a tally and the model it comes from: pentanomial once a pair is complete
/// (`pentanomial, 3 pairs`, noting games in no pair: `; 1 unpaired game left out`), else trinomial.
fn estimate(t: &Tally) -> (Option<stats::EloEstimate>, String) {
    if t.pairs.pairs() == 0 {
        let g = &t.games;
        return (g.elo(), format!("trinomial, {} games", g.games()));
    }
    let mut model = format!("pentanomial, {} pairs", t.pairs.pairs());
    match t.unpaired() {
        0 => {}
        1 => model.push_str("; 1 unpaired game left out"),
        n => model.push_str(&format!("; {n} unpaired games left out")),
    }
    (t.pairs.elo(), model)
}

impl fmt::Display for MatchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = &self.names;
        let t = &self.tally;
        writeln!(
            f,
            "Match {a} vs {b}: {} of {} games, {} ({}), {:.1} s",
            t.games.games(),
            self.planned,
            describe_limits(&self.names, &self.limits, None),
            self.rules,
            self.elapsed.as_secs_f64()
        )?;
        let stop = match self.stop {
            StopReason::Completed => "all games played".to_string(),
            StopReason::Interrupted => "interrupted; unfinished games dropped".to_string(),
            StopReason::Sprt(d) => format!("SPRT decided: {d}"),
        };
        writeln!(f, "Stopped: {stop}")?;
        let g = &t.games;
        if g.games() == 0 {
            // A score of 0.0/0 would read as 50%: say there is none.
            writeln!(f, "No game finished: no score, no Elo estimate")?;
            if !self.records.targets.is_empty() {
                writeln!(f, "{}", self.records)?;
            }
            return Ok(());
        }
        writeln!(
            f,
            "Score of {a}: {} wins, {} draws, {} losses, {:.1}/{} = {:.1}%  ({} won {}, drawn {}, {} won {})",
            g.wins,
            g.draws,
            g.losses,
            g.points(),
            g.games(),
            100.0 * g.score(),
            self.sides[0],
            t.by_side[0],
            t.by_side[1],
            self.sides[1],
            t.by_side[2]
        )?;
        let (estimate, model) = estimate(t);
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
        writeln!(f)?;
        for (i, name) in self.names.iter().enumerate() {
            let n = t.fault_count(i, Fault::NoMove);
            if n > 0 {
                let games = if n == 1 { "game" } else { "games" };
                writeln!(
                    f,
                    "Warning: {name} answered bestmove 0000 where the rules allow a move, in {n} \
                     {games}; an engine that ends a game at the first repetition (Aalina) needs \
                     --repetitions 2"
                )?;
            }
        }
        if !self.records.targets.is_empty() {
            writeln!(f, "{}", self.records)?;
        }
        Ok(())
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
    /// Games won by the first player, drawn, won by the second.
    pub by_side: [u64; 3],
    /// The players' names, the first player's first (`South`, `North`; `Sente`, `Gote`).
    pub sides: [&'static str; 2],
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
            "{} won {}, drawn {}, {} won {}",
            self.sides[0], self.by_side[0], self.by_side[1], self.sides[1], self.by_side[2]
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

/// What [`run_match`] tells its front end while a match runs.
#[derive(Clone, Copy, Debug)]
pub enum MatchEvent<'a> {
    /// Both engines answered the handshake; the games begin.
    Started(&'a MatchStart),
    /// A game finished (in the order games finish), with the tally after it.
    Game {
        /// The game.
        record: &'a FinishedGame,
        /// The score so far.
        tally: &'a Tally,
    },
}

/// What a match is about to play, as the front end announces it.
#[derive(Clone, Debug)]
pub struct MatchStart {
    /// Display names, the first engine's first.
    pub names: [String; 2],
    /// Games planned.
    pub games: usize,
    /// The search limit of each engine, the first engine's first.
    pub limits: [SearchLimit; 2],
    /// For a plain `go`, what it means for each engine: `Level N, at most M nodes a move` for our
    /// engine (read from its `Level` option), `None` for an engine whose default is unknown.
    pub default_search: [Option<String>; 2],
    /// The rules, in words ([`Refereed::describe_rules`]).
    pub rules: String,
    /// Notes on the rules, each a line for the front end to show after the start line: an
    /// engine that cannot be told part of the referee's cycle rule (its own may differ).
    pub notes: Vec<String>,
    /// The SPRT, if one runs.
    pub sprt: Option<Sprt>,
}

impl fmt::Display for MatchStart {
    /// One line: `Match a vs b: 100 games, 20000 nodes per move (abapa, repetitions 3,
    /// no-capture limit 500)`; for a plain `go`, what each engine makes of it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = &self.names;
        write!(f, "Match {a} vs {b}: {} games, ", self.games)?;
        let limits = describe_limits(&self.names, &self.limits, Some(&self.default_search));
        write!(f, "{limits} ({})", self.rules)?;
        if let Some(s) = &self.sprt {
            write!(f, ", SPRT {s}")?;
        }
        Ok(())
    }
}

/// The engines' limits in words: one limit when they share it (`20000 nodes per move`), else each
/// engine's (`a: clock 10+0.1; b: 20000 nodes per move`). A plain `go` is `plain go (a: ...; b:
/// ...)` with what it means for each engine when `default_search` says (the start line), else
/// `the engines' default search`.
fn describe_limits(
    names: &[String; 2],
    limits: &[SearchLimit; 2],
    default_search: Option<&[Option<String>; 2]>,
) -> String {
    let own = |i: usize| {
        default_search
            .and_then(|d| d[i].clone())
            .unwrap_or_else(|| "its own default".to_string())
    };
    let [a, b] = names;
    match limits {
        [SearchLimit::EngineDefault, SearchLimit::EngineDefault] if default_search.is_some() => {
            format!("plain go ({a}: {}; {b}: {})", own(0), own(1))
        }
        [x, y] if x == y => x.to_string(),
        _ => {
            let each = |i: usize| match limits[i] {
                SearchLimit::EngineDefault if default_search.is_some() => {
                    format!("plain go ({})", own(i))
                }
                SearchLimit::EngineDefault => "plain go".to_string(),
                limit => limit.to_string(),
            };
            format!("{a}: {}; {b}: {}", each(0), each(1))
        }
    }
}

/// What a plain `go` means for a started engine: for our engine, the caps of the `Level` it was
/// given (the last `--option Level=N` for it, else full strength); `None` for other engines.
fn default_search(engine: &engine::Engine, spec: &EngineSpec) -> Option<String> {
    let ours = engine
        .id_name()
        .is_some_and(|n| n.starts_with("perfectplay"))
        && engine.has_option("Level");
    if !ours {
        return None;
    }
    let level = spec
        .options
        .iter()
        .rev()
        .find(|(name, _)| name.eq_ignore_ascii_case("Level"))
        .and_then(|(_, value)| value.parse::<u8>().ok())
        .map_or_else(Level::default, Level::new);
    let depth = level
        .max_depth()
        .map_or_else(String::new, |d| format!(", depth {d}"));
    Some(format!(
        "Level {}, at most {} nodes{depth} a move",
        level.number(),
        level.max_nodes()
    ))
}

/// The `--ogn` file, locked for this match: records are appended whole (a failed write is cut
/// back off), and a second match cannot write it at the same time.
struct RecordFile {
    file: File,
    /// Bytes of whole records written so far.
    len: u64,
    /// A regular file (not a device or a pipe), which can be emptied and cut back.
    regular: bool,
}

impl RecordFile {
    /// Opens `path` for writing without truncating it, and locks it; [`RecordFile::start`]
    /// empties it.
    fn open(path: &Path) -> anyhow::Result<RecordFile> {
        let file = fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => bail!(
                "{} is locked by another program (another match writing its records?)",
                path.display()
            ),
            Err(fs::TryLockError::Error(e)) => {
                // A file system without locks (some network mounts): write unlocked.
                log::warn!("cannot lock {}: {e}", path.display());
            }
        }
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        Ok(RecordFile {
            file,
            len: 0,
            regular,
        })
    }

    /// Empties the file: a match replaces the records of the previous one.
    fn start(&mut self) -> io::Result<()> {
        if !self.regular {
            return Ok(());
        }
        self.file.set_len(0)?;
        self.file.seek(SeekFrom::Start(0)).map(drop)
    }

    /// Appends one record whole, or not at all.
    fn append(&mut self, text: &str) -> io::Result<()> {
        let written = self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush());
        match written {
            Ok(()) => {
                self.len += text.len() as u64;
                Ok(())
            }
            Err(e) => {
                // Cut off what part of the record got in, so that the file stays readable.
                if self.regular {
                    let _ = self.file.set_len(self.len);
                    let _ = self.file.seek(SeekFrom::Start(self.len));
                }
                Err(e)
            }
        }
    }
}

/// Writes `text` to `path` whole or not at all: into a temporary file beside it, then renamed.
fn write_whole(path: &Path, text: &str) -> io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.partial"));
    let written = fs::write(&temporary, text).and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Game records written or not, for the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordsWritten {
    /// Where they go: the `--ogn` file and/or the `--ogn-dir` folder.
    pub targets: Vec<PathBuf>,
    /// Records written to every target.
    pub written: usize,
    /// Records that failed to reach at least one target.
    pub failed: usize,
    /// The first failure, as the operating system put it.
    pub first_error: Option<String>,
}

impl fmt::Display for RecordsWritten {
    /// `Records: 6 games written to games.ogn` or `Records: FAILED: 2 of 2 games not written to
    /// /dev/full (No space left on device (os error 28))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let targets: Vec<String> = self
            .targets
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let targets = targets.join(" and ");
        if self.failed == 0 {
            write!(f, "Records: {} games written to {targets}", self.written)
        } else {
            write!(
                f,
                "Records: FAILED: {} of {} games not written to {targets} ({})",
                self.failed,
                self.failed + self.written,
                self.first_error.as_deref().unwrap_or("?")
            )
        }
    }
}

/// Code generic over the refereed game, run on the game a [`Variant`] names
/// ([`visit_refereed`]): the pattern of [`crate::variant::VisitGame`], for games that also
/// implement [`Refereed`] (their records).
pub trait VisitRefereed {
    /// What the code returns.
    type Output;
    /// Runs the code on game `G` under `rules`.
    fn visit<G: Refereed>(self, rules: G::Rules) -> Self::Output;
}

/// Runs `visitor` on the game of `variant` under its rules with the cycle rule `cycle` (Dobutsu
/// takes only its repetition count: it has no ply limit).
pub fn visit_refereed<V: VisitRefereed>(
    variant: Variant,
    cycle: CycleRule,
    visitor: V,
) -> V::Output {
    match variant {
        Variant::Abapa | Variant::Awari => {
            let variant = if variant == Variant::Awari {
                oware::Variant::Awari
            } else {
                oware::Variant::Abapa
            };
            visitor.visit::<oware::Board>(Rules { variant, cycle })
        }
        Variant::Dobutsu => {
            let mut rules = dobutsu::Rules::default();
            rules.cycle.repetitions = cycle.repetitions;
            visitor.visit::<dobutsu::Position>(rules)
        }
    }
}

/// Runs `perfectplay match`: replays a record file (`--replay`) or plays a match, and returns
/// what it found for the front end to print. `interrupt` stops a match from outside (the front
/// end's Ctrl-C): games in progress are dropped, finished ones kept. `on_event` hears when the
/// match starts and each game as it finishes (not called for `--replay`).
///
/// # Errors
/// Bad options (not two engines, a bad `--sprt`, `--option` or `--name`, `--repetitions` below
/// 2, `--no-capture-limit` with `--variant dobutsu`, `--openings` and `--ogn` naming the same
/// file), an unreadable openings or record file, an engine that fails to start before the first
/// game or refuses an `--option` (one it does not list, or a value it answers with an `info
/// string error`), an output file that cannot be created or is locked by another match, and, with
/// `--replay`, any game that does not replay. Faults during the match are not errors: they lose
/// games and are reported. Records that could not be written are reported in the summary
/// ([`MatchSummary::records`]), for the front end to fail on.
pub fn run_match(
    args: MatchArgs,
    interrupt: &AtomicBool,
    on_event: &mut dyn FnMut(MatchEvent<'_>),
) -> anyhow::Result<MatchReport> {
    if args.repetitions < 2 {
        bail!(
            "--repetitions must be at least 2 (found {})",
            args.repetitions
        );
    }
    if args.variant == Variant::Dobutsu && args.no_capture_limit.is_some() {
        bail!(
            "--no-capture-limit is an Oware rule: Dobutsu has no ply limit (its cycle rule is \
             --repetitions)"
        );
    }
    let cycle = CycleRule {
        repetitions: args.repetitions,
        no_progress_limit: args
            .no_capture_limit
            .unwrap_or(CycleRule::default().no_progress_limit),
    };
    if let Some(path) = &args.replay {
        return replay_file(path, args.variant, cycle).map(MatchReport::Replayed);
    }
    if let (Some(openings), Some(ogn)) = (&args.openings, &args.ogn) {
        if same_file(openings, ogn) {
            bail!(
                "--openings and --ogn name the same file ({}): the records would replace the openings",
                ogn.display()
            );
        }
    }
    let variant = args.variant;
    visit_refereed(
        variant,
        cycle,
        PlayMatch {
            args,
            interrupt,
            on_event,
        },
    )
}

/// The match itself, generic over the game.
struct PlayMatch<'a> {
    args: MatchArgs,
    interrupt: &'a AtomicBool,
    on_event: &'a mut dyn FnMut(MatchEvent<'_>),
}
impl VisitRefereed for PlayMatch<'_> {
    type Output = anyhow::Result<MatchReport>;

    fn visit<G: Refereed>(self, rules: G::Rules) -> anyhow::Result<MatchReport> {
        let PlayMatch {
            args,
            interrupt,
            on_event,
        } = self;
        let mut config = match_config::<G>(&args, rules.clone())?;
        let sprt = config.sprt;

        let first = start_both(&config)?;
        // Opened once both engines accepted their options: a match that cannot start writes
        // no record file.
        let mut ogn_file = args.ogn.as_deref().map(RecordFile::open).transpose()?;
        config.names = resolve_names(&config, [first[0].id_name(), first[1].id_name()]);

        if let (Some(file), Some(path)) = (ogn_file.as_mut(), &args.ogn) {
            file.start()
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some(dir) = &args.ogn_dir {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut records = RecordsWritten {
            targets: args.ogn.iter().chain(&args.ogn_dir).cloned().collect(),
            ..RecordsWritten::default()
        };

        let described = G::describe_rules(&rules);
        let start = MatchStart {
            names: config.names.clone(),
            games: config.games,
            limits: config.limits,
            default_search: [0, 1].map(|i| default_search(&first[i], &config.engines[i])),
            rules: described.clone(),
            notes: rule_notes(&config.names, &first, &config.rule_options(), &described),
            sprt,
        };
        on_event(MatchEvent::Started(&start));
        let date = today();
        let started = Instant::now();
        let mut on_game = |record: &GameRecord<G>, tally: &Tally| {
            let text = G::write_record(record, &args.event, &date, &rules);
            let mut failure = None;
            if let Some(file) = ogn_file.as_mut() {
                if let Err(e) = file.append(&text) {
                    failure = Some(e.to_string());
                }
            }
            if let Some(dir) = &args.ogn_dir {
                let path = dir.join(format!("game-{:04}.{}", record.number, G::RECORD_EXTENSION));
                if let Err(e) = write_whole(&path, &text) {
                    failure.get_or_insert_with(|| format!("{}: {e}", path.display()));
                }
            }
            match failure {
                Some(e) => {
                    if records.first_error.is_none() {
                        log::error!("cannot write the record of game {}: {e}", record.number);
                        records.first_error = Some(e);
                    }
                    records.failed += 1;
                }
                None if records.targets.is_empty() => {}
                None => records.written += 1,
            }
            on_event(MatchEvent::Game {
                record: &record.finished(),
                tally,
            });
        };
        let result = play_match(&config, Some(first), interrupt, &mut on_game);

        Ok(MatchReport::Played(Box::new(MatchSummary {
            names: config.names.clone(),
            planned: config.games,
            limits: config.limits,
            rules: described,
            sides: G::PLAYER_NAMES,
            sprt: sprt.map(|s| (s, result.tally.llr(&s))),
            tally: result.tally,
            stop: result.stop,
            elapsed: started.elapsed(),
            records,
        })))
    }
}

/// Starts both engines for the first games. An engine that cannot start does not keep the other
/// from being tried: the error names every engine that failed, so that one run shows all that is
/// wrong with the options.
fn start_both<G: Refereed>(config: &MatchConfig<G>) -> anyhow::Result<[engine::Engine; 2]> {
    let started = [0, 1].map(|i| {
        config.start_engine(i, None).map_err(|e| {
            let what = match e {
                EngineError::UnknownOptions { .. } | EngineError::RefusedOption { .. } => {
                    "cannot play with the options given"
                }
                EngineError::NoVariantOption { .. } | EngineError::UnsupportedVariant { .. } => {
                    "cannot play the match's game"
                }
                EngineError::RefusedRule { .. } => "cannot play by the referee's rules",
                _ => "did not start",
            };
            let command = &config.engines[i].command;
            anyhow::Error::new(e).context(format!("engine {} ('{command}') {what}", i + 1))
        })
    });
    match started {
        [Ok(a), Ok(b)] => Ok([a, b]),
        [Err(e), Ok(_)] | [Ok(_), Err(e)] => Err(e),
        [Err(a), Err(b)] => bail!("{a:#}\n{b:#}"),
    }
}

/// The start's notes on the rules: for each engine that lists no option for some of the
/// referee's cycle rule (Fairy-Stockfish has no `Repetitions`, and draws Dobutsu at the fourth
/// occurrence), that the referee's rule decides the games whatever the engine's own.
fn rule_notes(
    names: &[String; 2],
    engines: &[engine::Engine; 2],
    rules: &engine::RuleSettings,
    described: &str,
) -> Vec<String> {
    let mut notes = Vec::new();
    for (name, engine) in names.iter().zip(engines) {
        let untold = rules.untold(|option| engine.has_option(option));
        if !untold.is_empty() {
            notes.push(format!(
                "{name} lists no {} option: the referee applies its rules ({described}) whatever \
                 {name}'s own",
                untold.join(" or ")
            ));
        }
    }
    notes
}

/// Builds the match configuration from the options (names are filled in later).
fn match_config<G: Refereed>(args: &MatchArgs, rules: G::Rules) -> anyhow::Result<MatchConfig<G>> {
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
    let limit = match (args.nodes, args.depth, args.movetime, args.tc) {
        (Some(n), ..) => SearchLimit::Nodes(n),
        (_, Some(d), ..) => SearchLimit::Depth(d),
        (_, _, Some(ms), _) => SearchLimit::MoveTime(ms),
        (.., Some(tc)) => SearchLimit::Clock(tc),
        _ => SearchLimit::EngineDefault,
    };
    let mut limits = [limit; 2];
    let mut set = [false; 2];
    for text in &args.limits {
        let (targets, spec) = engine_target(text)?;
        if targets.len() != 1 {
            bail!("--limit '{text}' must say which engine: 1:KIND=VALUE or 2:KIND=VALUE");
        }
        let engine = targets[0];
        if std::mem::replace(&mut set[engine], true) {
            bail!("--limit: engine {} is given two limits", engine + 1);
        }
        limits[engine] = engine_limit(spec).with_context(|| format!("--limit '{text}'"))?;
    }
    let pairs = args.games.div_ceil(2);
    let openings = match &args.openings {
        Some(path) => {
            let text = fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            parse_openings::<G>(&text, &rules).with_context(|| format!("in {}", path.display()))?
        }
        None => random_openings::<G>(pairs.max(1), args.opening_plies, args.seed, &rules),
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
        limits,
        timeout: Duration::from_millis(args.timeout),
        time_margin: Duration::from_millis(args.time_margin),
        handshake_timeout: Duration::from_millis(args.handshake_timeout),
        rules,
        openings,
        concurrency: args.concurrency.max(1),
        sprt,
    })
}

/// One engine's limit from `--limit N:KIND=VALUE` (the `KIND=VALUE` or `go` part).
fn engine_limit(spec: &str) -> anyhow::Result<SearchLimit> {
    if spec.trim() == "go" {
        return Ok(SearchLimit::EngineDefault);
    }
    let (kind, value) = spec
        .split_once('=')
        .context("expected KIND=VALUE (nodes=N, depth=D, movetime=MS, tc=SECONDS[+INC]) or go")?;
    let value = value.trim();
    let positive = |what: &str| -> anyhow::Result<u64> {
        match value.parse::<u64>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => bail!("{what} must be a whole number of at least 1 (found '{value}')"),
        }
    };
    Ok(match kind.trim() {
        "nodes" => SearchLimit::Nodes(positive("nodes")?),
        "depth" => {
            SearchLimit::Depth(u32::try_from(positive("depth")?).context("depth is too large")?)
        }
        "movetime" => SearchLimit::MoveTime(
            value
                .parse()
                .with_context(|| format!("movetime must be milliseconds (found '{value}')"))?,
        ),
        "tc" => SearchLimit::Clock(value.parse()?),
        other => bail!("unknown limit '{other}' (nodes, depth, movetime, tc or go)"),
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
fn resolve_names<G: Refereed>(config: &MatchConfig<G>, id_names: [Option<&str>; 2]) -> [String; 2] {
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

/// A progress bar's message: the first engine's running score, Elo, and the LLR (before the
/// first game only the empty score: `a +0 =0 -0`).
pub fn progress_message(names: &[String; 2], tally: &Tally, sprt: Option<&Sprt>) -> String {
    let g = &tally.games;
    if g.games() == 0 {
        return format!("{} +0 =0 -0", names[0]);
    }
    let mut msg = format!(
        "{} +{} ={} -{} ({:.1}%)",
        names[0],
        g.wins,
        g.draws,
        g.losses,
        100.0 * g.score()
    );
    if let Some(e) = estimate(tally).0.filter(|e| e.half_width().is_finite()) {
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

/// `--replay`: checks every record of `path` and summarises them. A file whose first record
/// has the tag `[Variant "dobutsu"]`, or any file with `--variant dobutsu`, is read as PGN of
/// Dobutsu games; others as OGN under `variant`'s Oware rules (records' own tags take
/// precedence).
fn replay_file(path: &Path, variant: Variant, cycle: CycleRule) -> anyhow::Result<ReplaySummary> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    if text.trim().is_empty() {
        bail!("{} holds no game records", path.display());
    }
    let in_context = || format!("in {}", path.display());
    let tagged_dobutsu = pgn::parse(&text)
        .ok()
        .and_then(|games| games.into_iter().next())
        .and_then(|g| g.tag("Variant").map(str::to_string))
        .is_some_and(|v| {
            v.trim()
                .eq_ignore_ascii_case(variant_name::<dobutsu::Position>())
        });
    if variant == Variant::Dobutsu || tagged_dobutsu {
        let games = pgn::parse(&text).with_context(in_context)?;
        let mut rules = dobutsu::Rules::default();
        rules.cycle.repetitions = cycle.repetitions;
        return replay_pgn::<dobutsu::Position>(&games, &rules);
    }
    let rules = Rules {
        variant: if variant == Variant::Awari {
            oware::Variant::Awari
        } else {
            oware::Variant::Abapa
        },
        cycle,
    };
    let games = ogn::parse(&text).with_context(in_context)?;
    let checked = games
        .iter()
        .map(|game| {
            let names = [0, 1].map(|i| game.tag(["South", "North"][i]).unwrap_or("?").to_string());
            let outcome = ogn::replay(game, rules)
                .map(|r| CheckedOutcome {
                    ended_by_rules: r.end.is_some(),
                    forfeit: r.forfeit,
                    winner: r.winner.map(|w| w.map(Side::index)),
                })
                .map_err(|e| e.to_string());
            CheckedRecord {
                names,
                round: game.tag("Round").unwrap_or("?").to_string(),
                outcome,
            }
        })
        .collect();
    summarize_replays(checked, <oware::Board as Refereed>::PLAYER_NAMES)
}

fn variant_name<G: Refereed>() -> &'static str {
    G::NAME
}

/// Replays PGN records of game `G` (see [`pgn::replay`]).
fn replay_pgn<G: Refereed>(
    games: &[pgn::PgnGame],
    rules: &G::Rules,
) -> anyhow::Result<ReplaySummary> {
    let checked = games
        .iter()
        .map(|game| {
            let names = [0, 1].map(|i| game.tag(["White", "Black"][i]).unwrap_or("?").to_string());
            let outcome = pgn::record_rules::<G>(game, rules)
                .and_then(|rules| pgn::replay::<G>(game, &rules))
                .map(|r| CheckedOutcome {
                    ended_by_rules: r.end.is_some(),
                    forfeit: r.forfeit,
                    winner: r.winner,
                })
                .map_err(|e| e.to_string());
            CheckedRecord {
                names,
                round: game.tag("Round").unwrap_or("?").to_string(),
                outcome,
            }
        })
        .collect();
    summarize_replays(checked, G::PLAYER_NAMES)
}

/// One record checked by `--replay`, whatever its format.
struct CheckedRecord {
    /// The players' names by the tags, the first player's first.
    names: [String; 2],
    /// The `Round` tag.
    round: String,
    /// What the replay found, or why the record does not replay.
    outcome: Result<CheckedOutcome, String>,
}

struct CheckedOutcome {
    ended_by_rules: bool,
    forfeit: bool,
    /// The winner by the result, as a player index; `Some(None)` a draw, `None` no result.
    winner: Option<Option<usize>>,
}

/// The `--replay` summary of checked records; an error listing those that do not replay.
fn summarize_replays(
    checked: Vec<CheckedRecord>,
    players: [&'static str; 2],
) -> anyhow::Result<ReplaySummary> {
    let mut summary = ReplaySummary {
        games: checked.len(),
        sides: players,
        ..ReplaySummary::default()
    };
    let mut errors = Vec::new();
    let mut head_to_head = checked
        .first()
        .map(|g| g.names.clone())
        .filter(|[a, b]| a != b)
        .map(|names| (names, stats::Trinomial::default()));
    for (i, game) in checked.iter().enumerate() {
        let r = match &game.outcome {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!("game {} (Round {}): {e}", i + 1, game.round));
                continue;
            }
        };
        if r.ended_by_rules {
            summary.ended_by_rules += 1;
        } else if r.forfeit {
            summary.forfeits += 1;
        }
        let Some(winner) = r.winner else {
            summary.unfinished += 1;
            continue;
        };
        summary.by_side[match winner {
            Some(0) => 0,
            None => 1,
            Some(_) => 2,
        }] += 1;
        let [first, second] = [game.names[0].as_str(), game.names[1].as_str()];
        if let Some(([a, b], t)) = head_to_head.as_mut() {
            let a_plays = if (first, second) == (a.as_str(), b.as_str()) {
                0
            } else if (second, first) == (a.as_str(), b.as_str()) {
                1
            } else {
                head_to_head = None; // more than two players: no head-to-head score
                continue;
            };
            match winner {
                None => t.draws += 1,
                Some(w) if w == a_plays => t.wins += 1,
                Some(_) => t.losses += 1,
            }
        }
    }
    summary.players = head_to_head;
    if !errors.is_empty() {
        bail!(
            "{} of {} games do not replay:\n{}",
            errors.len(),
            checked.len(),
            errors.join("\n")
        );
    }
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

    fn quiet(args: MatchArgs) -> anyhow::Result<MatchReport> {
        run_match(args, &AtomicBool::new(false), &mut |_| {})
    }

    #[test]
    fn engines_get_a_minute_to_start() {
        let c = match_config::<crate::oware::Board>(
            &args(&["--engine", "a", "--engine", "b"]),
            Rules::default(),
        )
        .unwrap();
        assert_eq!(c.handshake_timeout, Duration::from_secs(60));
        assert_eq!(c.timeout, Duration::from_secs(10));
    }

    /// A game won by `winner`, the first engine South when `south_engine` is 0.
    fn game(
        number: usize,
        south_engine: usize,
        winner: Option<Side>,
        fault: Option<Fault>,
    ) -> GameRecord<crate::oware::Board> {
        use crate::oware::{Board, GameState};
        let termination = match (fault, winner) {
            (Some(fault), Some(w)) => runner::Termination::Forfeit {
                side: w.opponent(),
                fault,
                detail: "bestmove 0000".into(),
            },
            _ => {
                let diagram = match winner {
                    Some(Side::South) => "0-0-0-0-0-0-0-0-0-0-0-0-25-23-N",
                    Some(Side::North) => "0-0-0-0-0-0-0-0-0-0-0-0-23-25-S",
                    None => "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
                };
                let end = GameState::new(diagram.parse().unwrap(), Rules::default())
                    .end()
                    .unwrap();
                runner::Termination::Rules(end)
            }
        };
        GameRecord {
            number,
            pair: (number - 1) / 2,
            south_engine,
            names: ["a".into(), "b".into()],
            opening: runner::Opening {
                start: Board::start(crate::oware::Variant::Abapa),
                moves: vec![],
            },
            moves: vec![],
            termination,
        }
    }

    fn summary(games: &[GameRecord<crate::oware::Board>], records: RecordsWritten) -> String {
        let mut tally = Tally::default();
        for g in games {
            tally.record(g);
        }
        MatchSummary {
            names: ["a".into(), "b".into()],
            planned: games.len(),
            limits: [SearchLimit::Nodes(100); 2],
            rules: crate::oware::Board::describe_rules(&Rules::default()),
            sides: crate::oware::Board::PLAYER_NAMES,
            tally,
            stop: StopReason::Completed,
            sprt: None,
            elapsed: Duration::from_millis(1500),
            records,
        }
        .to_string()
    }

    #[test]
    fn summary_says_what_is_left_out_and_what_failed() {
        // Engine a wins the first pair twice, then wins game 3, whose partner is not played.
        let games = [
            game(1, 0, Some(Side::South), None),
            game(2, 1, Some(Side::North), None),
            game(3, 0, Some(Side::South), None),
        ];
        let text = summary(&games, RecordsWritten::default());
        assert_eq!(
            text,
            "Match a vs b: 3 of 3 games, 100 nodes per move (abapa, repetitions 3, no-capture limit 500), 1.5 s\n\
             Stopped: all games played\n\
             Score of a: 3 wins, 0 draws, 0 losses, 3.0/3 = 100.0%  (South won 2, drawn 0, North won 1)\n\
             Elo difference (a - b): too few games for an estimate [-354.2, +inf] (95% interval, pentanomial, 1 pairs; 1 unpaired game left out)\n\
             LOS: 95.8%  Draw ratio: 0.0%\n\
             Pairs by points of a (0, 1/2, 1, 3/2, 2): 0 0 0 0 1\n\
             Faults: a none; b none;\n"
        );
        // b answers bestmove 0000 with legal moves in game 1; no record reaches the file.
        let games = [
            game(1, 0, Some(Side::South), Some(Fault::NoMove)),
            game(2, 1, None, None),
        ];
        let records = RecordsWritten {
            targets: vec![PathBuf::from("/dev/full")],
            written: 0,
            failed: 2,
            first_error: Some("No space left on device (os error 28)".into()),
        };
        let text = summary(&games, records);
        assert!(
            text.ends_with(
                "Faults: a none; b 1 (1 no move);\n\
                 Warning: b answered bestmove 0000 where the rules allow a move, in 1 game; an engine \
                 that ends a game at the first repetition (Aalina) needs --repetitions 2\n\
                 Records: FAILED: 2 of 2 games not written to /dev/full (No space left on device (os error 28))\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn summary_of_a_match_without_a_finished_game() {
        let records = RecordsWritten {
            targets: vec![PathBuf::from("games.ogn")],
            ..RecordsWritten::default()
        };
        let text = MatchSummary {
            names: ["a".into(), "b".into()],
            planned: 40,
            limits: [SearchLimit::Nodes(100); 2],
            rules: crate::oware::Board::describe_rules(&Rules::default()),
            sides: crate::oware::Board::PLAYER_NAMES,
            tally: Tally::default(),
            stop: StopReason::Interrupted,
            sprt: None,
            elapsed: Duration::from_millis(300),
            records,
        }
        .to_string();
        assert_eq!(
            text,
            "Match a vs b: 0 of 40 games, 100 nodes per move (abapa, repetitions 3, no-capture limit 500), 0.3 s\n\
             Stopped: interrupted; unfinished games dropped\n\
             No game finished: no score, no Elo estimate\n\
             Records: 0 games written to games.ogn\n"
        );
        let names = ["a".to_string(), "b".to_string()];
        assert_eq!(
            progress_message(&names, &Tally::default(), None),
            "a +0 =0 -0"
        );
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
        let c = match_config::<crate::oware::Board>(&a, Rules::default()).unwrap();
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
        assert_eq!(c.limits, [SearchLimit::Nodes(500); 2]);
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
    fn limits_per_engine_and_clocks() {
        use runner::TimeControl;
        let tc = |base_ms, increment_ms| TimeControl {
            base_ms,
            increment_ms,
        };
        assert_eq!("10+0.1".parse(), Ok(tc(10_000, 100)));
        assert_eq!("0.5".parse(), Ok(tc(500, 0)));
        assert_eq!(" 60+1 ".parse(), Ok(tc(60_000, 1_000)));
        for bad in [
            "", "0", "0+1", "-1+0", "10+", "ten", "10+0.1+2", "1e3", "40/60+1",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(tc(10_000, 100).to_string(), "10+0.1");
        assert_eq!(tc(2_500, 0).to_string(), "2.5+0");
        assert_eq!(
            runner::clock_go_command([Some(9_500), Some(-20)], [Some(100), Some(0)]),
            "go wtime 9500 btime -20 winc 100 binc 0"
        );
        assert_eq!(
            runner::clock_go_command([None, Some(300)], [None, Some(10)]),
            "go btime 300 binc 10"
        );
        let limits = |words: &[&str]| {
            let mut all = vec!["--engine", "e1", "--engine", "e2"];
            all.extend_from_slice(words);
            match_config::<crate::oware::Board>(&args(&all), Rules::default()).map(|c| c.limits)
        };
        assert_eq!(
            limits(&["--tc", "10+0.1"]).unwrap(),
            [SearchLimit::Clock(tc(10_000, 100)); 2]
        );
        assert_eq!(
            limits(&["--tc", "10+0.1", "--limit", "2:nodes=20000"]).unwrap(),
            [
                SearchLimit::Clock(tc(10_000, 100)),
                SearchLimit::Nodes(20_000)
            ]
        );
        assert_eq!(
            limits(&["--limit", "1:movetime=50", "--limit", "2:go"]).unwrap(),
            [SearchLimit::MoveTime(50), SearchLimit::EngineDefault]
        );
        assert_eq!(
            limits(&["--limit", "2:depth=7", "--limit", "1:tc=1"]).unwrap(),
            [SearchLimit::Clock(tc(1_000, 0)), SearchLimit::Depth(7)]
        );
        for bad in [
            &["--limit", "nodes=5"][..],
            &["--limit", "3:nodes=5"],
            &["--limit", "1:nodes=0"],
            &["--limit", "1:tc=0"],
            &["--limit", "1:speed=3"],
            &["--limit", "1:nodes=5", "--limit", "1:depth=3"],
        ] {
            assert!(limits(bad).is_err(), "{bad:?}");
        }
        assert!(Cli::try_parse_from(["m", "--tc", "1+0", "--nodes", "2"]).is_err());
        assert!(Cli::try_parse_from(["m", "--tc", "x"]).is_err());
        let names = ["a".to_string(), "b".to_string()];
        let both = [SearchLimit::Clock(tc(10_000, 100)); 2];
        assert_eq!(describe_limits(&names, &both, None), "clock 10+0.1");
        let mixed = [SearchLimit::Clock(tc(10_000, 100)), SearchLimit::Nodes(5)];
        assert_eq!(
            describe_limits(&names, &mixed, None),
            "a: clock 10+0.1; b: 5 nodes per move"
        );
    }

    #[test]
    fn bad_options_are_errors() {
        let one = args(&["--engine", "e1"]);
        assert!(match_config::<crate::oware::Board>(&one, Rules::default()).is_err());
        let bad = args(&["--engine", "a", "--engine", "b", "--option", "3:Level=1"]);
        assert!(match_config::<crate::oware::Board>(&bad, Rules::default()).is_err());
        let bad = args(&["--engine", "a", "--engine", "b", "--option", "Level"]);
        assert!(match_config::<crate::oware::Board>(&bad, Rules::default()).is_err());
        let bad = args(&[
            "--engine", "a", "--engine", "b", "--sprt", "elo0=3", "elo1=1",
        ]);
        assert!(match_config::<crate::oware::Board>(&bad, Rules::default()).is_err());
        assert!(Cli::try_parse_from(["m", "--nodes", "1", "--depth", "2"]).is_err());
        assert!(Cli::try_parse_from(["m", "--replay", "x.ogn", "--engine", "a"]).is_err());
        assert!(quiet(args(&[
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
        let err = quiet(missing).unwrap_err();
        assert!(format!("{err:#}").contains("engine 1"), "{err:#}");
    }
}
