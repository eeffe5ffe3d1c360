//! The options of `perfectplay match` ([`MatchArgs`]) and the match configuration they give.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::arena::client::{split_command, EngineSpec};
use crate::arena::error::{LimitError, MatchError};
use crate::arena::runner::{
    parse_openings, random_openings, MatchConfig, SearchLimit, TimeControl,
};
use crate::arena::stats::Sprt;
use crate::records::Recorded;
use crate::variant::Variant;

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
    pub tc: Option<TimeControl>,

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
    /// `FfBe`; `b2b3 b4b3`); `#` starts a comment. Pairs take them in turn.
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

/// Builds the match configuration from the options (names are filled in later).
pub(super) fn match_config<G: Recorded>(
    args: &MatchArgs,
    rules: G::Rules,
) -> Result<MatchConfig<G>, MatchError> {
    if args.engines.len() != 2 {
        return Err(MatchError::Options(format!(
            "a match needs exactly two --engine options (found {})",
            args.engines.len()
        )));
    }
    let mut engines = [EngineSpec::default(), EngineSpec::default()];
    for (spec, command) in engines.iter_mut().zip(&args.engines) {
        spec.command = command.clone();
    }
    for option in &args.options {
        let (targets, setting) = engine_target(option)?;
        let (name, value) = setting.split_once('=').ok_or_else(|| {
            MatchError::Options(format!("--option '{option}' is not [N:]NAME=VALUE"))
        })?;
        for t in targets {
            engines[t]
                .options
                .push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    for name in &args.names {
        let (targets, value) = engine_target(name)?;
        if targets.len() != 1 {
            return Err(MatchError::Options(format!(
                "--name '{name}' must say which engine: 1:NAME or 2:NAME"
            )));
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
            return Err(MatchError::Options(format!(
                "--limit '{text}' must say which engine: 1:KIND=VALUE or 2:KIND=VALUE"
            )));
        }
        let engine = targets[0];
        if std::mem::replace(&mut set[engine], true) {
            return Err(MatchError::Options(format!(
                "--limit: engine {} is given two limits",
                engine + 1
            )));
        }
        limits[engine] = engine_limit(spec).map_err(|source| MatchError::Limit {
            text: text.clone(),
            source,
        })?;
    }
    let pairs = args.games.div_ceil(2);
    let openings = match &args.openings {
        Some(path) => {
            let text = fs::read_to_string(path).map_err(|source| MatchError::File {
                action: "read",
                path: path.clone(),
                source,
            })?;
            parse_openings::<G>(&text, &rules).map_err(|source| MatchError::Openings {
                path: path.clone(),
                source,
            })?
        }
        None => random_openings::<G>(pairs.max(1), args.opening_plies, args.seed, &rules),
    };
    let sprt = match &args.sprt {
        Some(words) => Some(Sprt::from_words(words.iter().map(String::as_str))?),
        None => None,
    };
    let fallback_names = [0, 1].map(|i| {
        let words = split_command(&engines[i].command).unwrap_or_default();
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
fn engine_limit(spec: &str) -> Result<SearchLimit, LimitError> {
    if spec.trim() == "go" {
        return Ok(SearchLimit::EngineDefault);
    }
    let (kind, value) = spec.split_once('=').ok_or(LimitError::Form)?;
    let value = value.trim();
    let positive = |what: &'static str| match value.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(LimitError::NotPositive {
            what,
            value: value.to_string(),
        }),
    };
    Ok(match kind.trim() {
        "nodes" => SearchLimit::Nodes(positive("nodes")?),
        "depth" => SearchLimit::Depth(
            u32::try_from(positive("depth")?).map_err(|_| LimitError::DepthTooLarge)?,
        ),
        "movetime" => SearchLimit::MoveTime(
            value
                .parse()
                .map_err(|_| LimitError::MoveTime(value.to_string()))?,
        ),
        "tc" => SearchLimit::Clock(value.parse()?),
        other => return Err(LimitError::Unknown(other.to_string())),
    })
}

/// Splits `N:REST` into the engine index and the rest; without a valid `N:` prefix, both engines.
fn engine_target(text: &str) -> Result<(Vec<usize>, &str), MatchError> {
    match text.split_once(':') {
        Some(("1", rest)) => Ok((vec![0], rest)),
        Some(("2", rest)) => Ok((vec![1], rest)),
        Some((n, _)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => Err(
            MatchError::Options(format!("'{text}': engine number must be 1 or 2")),
        ),
        _ => Ok((vec![0, 1], text)),
    }
}

/// Display names: `--name`, else `id name`, else the program's file name; equal names get `#1` and
/// `#2` appended.
pub(super) fn resolve_names<G: Recorded>(
    config: &MatchConfig<G>,
    id_names: [Option<&str>; 2],
) -> [String; 2] {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::report::describe_limits;
    use crate::arena::run_match;
    use crate::arena::runner::clock_go_command;
    use crate::arena::MatchReport;
    use crate::oware::Rules;
    use clap::Parser;
    use std::sync::atomic::AtomicBool;

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

    fn quiet(args: MatchArgs) -> Result<MatchReport, MatchError> {
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
            clock_go_command([Some(9_500), Some(-20)], [Some(100), Some(0)]).to_string(),
            "go wtime 9500 btime -20 winc 100"
        );
        assert_eq!(
            clock_go_command([None, Some(300)], [None, Some(10)]).to_string(),
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
