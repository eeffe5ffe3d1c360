//! The command line of `perfectplay match` ([`MatchArgs`]) and the [`MatchOptions`] it gives
//! the library's match runner.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use perfectplay::arena::runner::{SearchLimit, TimeControl};
use perfectplay::arena::stats::Sprt;
use perfectplay::arena::{EngineLimit, EngineName, EngineOption, MatchOptions};
use perfectplay::variant::Variant;

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
    pub names: Vec<EngineName>,

    /// Engine option sent as `setoption`, as N:NAME=VALUE for engine N (1 or 2) or NAME=VALUE for
    /// both; repeatable: --option 1:Level=5 --option 2:Level=1.
    #[arg(long = "option", value_name = "[N:]NAME=VALUE")]
    pub options: Vec<EngineOption>,

    /// Games to play; pairs of games share an opening with colours swapped.
    #[arg(long, default_value_t = defaults().games)]
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
    pub tc: Option<TimeControl>,

    /// The limit of one engine, as N:KIND=VALUE, replacing --nodes/--depth/--movetime/--tc for
    /// engine N (1 or 2): nodes=N, depth=D, movetime=MS, tc=SECONDS[+INC], or go (a plain go):
    /// --tc 10+0.1 --limit 2:nodes=20000.
    #[arg(long = "limit", value_name = "N:KIND=VALUE")]
    pub limits: Vec<EngineLimit>,

    /// Milliseconds an engine on a clock (--tc) may run past it before it loses on time: the
    /// runner's measure includes the pipes' and the threads' delays.
    #[arg(long, default_value_t = millis(defaults().time_margin), value_name = "MS")]
    pub time_margin: u64,

    /// Milliseconds an engine may take for `isready` before each game and for each move (on top
    /// of --movetime); a slower engine loses the game by timeout.
    #[arg(long, default_value_t = millis(defaults().timeout), value_name = "MS")]
    pub timeout: u64,

    /// Milliseconds an engine may take to start: `uci` to `uciok`, then the first `isready` to
    /// `readyok` (a Java engine on a loaded machine can take half a minute).
    #[arg(long, default_value_t = millis(defaults().handshake_timeout), value_name = "MS")]
    pub handshake_timeout: u64,

    /// Openings file, one a line: a position in the game's notation (an Oware diagram, a Dobutsu
    /// FEN; optionally followed by `moves ...`) or a move list from the start (`F f B e` or
    /// `FfBe`; `b2b3 b4b3`); `#` starts a comment. Pairs take them in turn.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Without --openings: plies of the random opening of each pair.
    #[arg(long, default_value_t = defaults().opening_plies, value_name = "N")]
    pub opening_plies: usize,

    /// Seed of the random openings (the same seed gives the same openings).
    #[arg(long, default_value_t = defaults().seed)]
    pub seed: u64,

    /// Games played at once (each with its own two engine processes); at least 1.
    #[arg(long, default_value_t = defaults().concurrency, value_name = "K", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub concurrency: usize,

    /// The game and rules of the referee (Oware under the Abapa or Awari rules, or Dobutsu
    /// Shogi), also sent to engines that have a Variant option.
    #[arg(long, default_value_t = defaults().variant, value_name = "abapa|awari|dobutsu")]
    pub variant: Variant,

    /// Cycle rule: occurrences of a position (since the last capture in Oware) that end the game
    /// (at least 2). Engines that end a game at the first repetition (Aalina, the Aualé GUI) need 2.
    #[arg(long, default_value_t = defaults().repetitions, value_name = "N")]
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
    #[arg(long, default_value_t = defaults().event)]
    pub event: String,

    /// No progress bar and no line per game on standard error (the start line, which says the
    /// limit, stays).
    #[arg(long)]
    pub quiet: bool,
}

/// The library's defaults, which the command line shows and uses.
fn defaults() -> MatchOptions {
    MatchOptions::default()
}

/// A duration in whole milliseconds, as the command line takes it.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl MatchArgs {
    /// The library's options from the command line (`--quiet` is the front end's own).
    ///
    /// # Errors
    /// A `--sprt` that does not read.
    pub fn to_options(&self) -> anyhow::Result<MatchOptions> {
        let limit = match (self.nodes, self.depth, self.movetime, self.tc) {
            (Some(n), ..) => SearchLimit::Nodes(n),
            (_, Some(d), ..) => SearchLimit::Depth(d),
            (_, _, Some(ms), _) => SearchLimit::MoveTime(ms),
            (.., Some(tc)) => SearchLimit::Clock(tc),
            _ => SearchLimit::EngineDefault,
        };
        let sprt = match &self.sprt {
            Some(words) => {
                Some(Sprt::from_words(words.iter().map(String::as_str)).context("--sprt")?)
            }
            None => None,
        };
        Ok(MatchOptions {
            engines: self.engines.clone(),
            names: self.names.clone(),
            options: self.options.clone(),
            games: self.games,
            limit,
            limits: self.limits.clone(),
            time_margin: Duration::from_millis(self.time_margin),
            timeout: Duration::from_millis(self.timeout),
            handshake_timeout: Duration::from_millis(self.handshake_timeout),
            openings: self.openings.clone(),
            opening_plies: self.opening_plies,
            seed: self.seed,
            concurrency: self.concurrency,
            variant: self.variant,
            repetitions: self.repetitions,
            no_capture_limit: self.no_capture_limit,
            records: self.ogn.clone(),
            record_dir: self.ogn_dir.clone(),
            replay: self.replay.clone(),
            sprt,
            event: self.event.clone(),
        })
    }
}
