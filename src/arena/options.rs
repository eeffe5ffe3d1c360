//! The options of a match ([`MatchOptions`]), the per-engine settings of the command line
//! ([`EngineOption`], [`EngineName`], [`EngineLimit`]) and the match configuration they give.

use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use crate::arena::client::{split_command, EngineSpec};
use crate::arena::error::{EngineArgError, LimitError, MatchError};
use crate::arena::runner::{parse_openings, random_openings, MatchConfig, SearchLimit};
use crate::arena::stats::Sprt;
use crate::records::Recorded;
use crate::variant::Variant;

/// What a match plays, by which rules, and where its records go: what [`crate::arena::run_match`]
/// takes. `perfectplay match` fills it from its command line; [`Default`] gives that command's
/// defaults (no engines, 2 games, a plain `go`, abapa).
#[derive(Debug, Clone)]
pub struct MatchOptions {
    /// The engines' command lines, the first engine's first; a match needs exactly two. Blanks
    /// separate arguments, quotes group them (`/opt/other-engine --uci`).
    pub engines: Vec<String>,
    /// Display names in records and the summary (default: the engine's `id name`; equal names
    /// get ` #1` and ` #2` appended).
    pub names: Vec<EngineName>,
    /// Options sent as `setoption` before the first game, in this order.
    pub options: Vec<EngineOption>,
    /// Games to play; pairs of games share an opening with colours swapped.
    pub games: usize,
    /// The search limit of each move, for both engines unless [`Self::limits`] names one.
    pub limit: SearchLimit,
    /// One engine's own limit, replacing [`Self::limit`] for it; at most one an engine.
    pub limits: Vec<EngineLimit>,
    /// How long an engine on a clock may run past it before it loses on time: the runner's
    /// measure includes the pipes' and the threads' delays.
    pub time_margin: Duration,
    /// How long an engine may take for `isready` before each game and for each move (on top of
    /// a movetime); a slower engine loses the game by timeout.
    pub timeout: Duration,
    /// How long an engine may take to start: `uci` to `uciok`, then the first `isready` to
    /// `readyok`.
    pub handshake_timeout: Duration,
    /// Openings file, one a line (a position in the game's notation, optionally followed by
    /// `moves ...`, or a move list from the start; `#` starts a comment); pairs take them in
    /// turn. Without it, random openings.
    pub openings: Option<PathBuf>,
    /// Plies of the random opening of each pair.
    pub opening_plies: usize,
    /// Seed of the random openings (the same seed gives the same openings).
    pub seed: u64,
    /// Games played at once, each with its own two engine processes (0 is taken as 1).
    pub concurrency: usize,
    /// The game and rules of the referee, also sent to engines that have a `Variant` option.
    pub variant: Variant,
    /// Cycle rule: occurrences of a position (since the last capture in Oware) that end the
    /// game; at least 2.
    pub repetitions: u32,
    /// Oware's plies without capture that end the game (0 = no limit; `None`: the rules'
    /// default, 500). Refused for Dobutsu.
    pub no_capture_limit: Option<u32>,
    /// File that receives every finished game (OGN for Oware, PGN for Dobutsu): replaced at
    /// the start, locked while the match runs, each game written whole as it finishes.
    pub records: Option<PathBuf>,
    /// Directory that receives each game in its own file, `game-NNNN.ogn` (`.pgn` for Dobutsu).
    pub record_dir: Option<PathBuf>,
    /// Check the games of this record file with the rules instead of playing.
    pub replay: Option<PathBuf>,
    /// Sequential probability ratio test that stops the match when decided (once 20 games are in).
    pub sprt: Option<Sprt>,
    /// Event tag of the records.
    pub event: String,
}

impl Default for MatchOptions {
    fn default() -> MatchOptions {
        MatchOptions {
            engines: Vec::new(),
            names: Vec::new(),
            options: Vec::new(),
            games: 2,
            limit: SearchLimit::EngineDefault,
            limits: Vec::new(),
            time_margin: Duration::from_millis(50),
            timeout: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(60),
            openings: None,
            opening_plies: 4,
            seed: 1,
            concurrency: 1,
            variant: Variant::Abapa,
            repetitions: 3,
            no_capture_limit: None,
            records: None,
            record_dir: None,
            replay: None,
            sprt: None,
            event: "perfectplay match".to_string(),
        }
    }
}

/// An engine option to send as `setoption`, to one engine or both: `[N:]NAME=VALUE` on the
/// command line (`1:Level=5`, `Hash=64`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOption {
    /// The engine, 0 (the first) or 1; `None` for both.
    pub engine: Option<usize>,
    /// The option's name, trimmed.
    pub name: String,
    /// Its value, trimmed.
    pub value: String,
}

impl FromStr for EngineOption {
    type Err = EngineArgError;

    /// Reads `[N:]NAME=VALUE`; N is 1 or 2.
    fn from_str(text: &str) -> Result<EngineOption, EngineArgError> {
        let (engine, setting) = engine_target(text)?;
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| EngineArgError::NotSetting(text.to_string()))?;
        Ok(EngineOption {
            engine,
            name: name.trim().to_string(),
            value: value.trim().to_string(),
        })
    }
}

/// One engine's display name: `N:NAME` on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineName {
    /// The engine, 0 (the first) or 1.
    pub engine: usize,
    /// The name, as given.
    pub name: String,
}

impl FromStr for EngineName {
    type Err = EngineArgError;

    /// Reads `N:NAME`; N is 1 or 2.
    fn from_str(text: &str) -> Result<EngineName, EngineArgError> {
        let (engine, name) = one_engine(text)?;
        Ok(EngineName {
            engine,
            name: name.to_string(),
        })
    }
}

/// One engine's search limit: `N:KIND=VALUE` on the command line, KIND one of `nodes`,
/// `depth`, `movetime` (milliseconds) and `tc` (SECONDS[+INC]), or `N:go` for a plain `go`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineLimit {
    /// The engine, 0 (the first) or 1.
    pub engine: usize,
    /// Its limit.
    pub limit: SearchLimit,
}

impl FromStr for EngineLimit {
    type Err = EngineArgError;

    /// Reads `N:KIND=VALUE` or `N:go`; N is 1 or 2.
    fn from_str(text: &str) -> Result<EngineLimit, EngineArgError> {
        let (engine, spec) = one_engine(text)?;
        let limit = engine_limit(spec).map_err(|source| EngineArgError::Limit {
            text: text.to_string(),
            source,
        })?;
        Ok(EngineLimit { engine, limit })
    }
}

/// Builds the match configuration from the options (names are filled in later).
pub(super) fn match_config<G: Recorded>(
    options: &MatchOptions,
    rules: G::Rules,
) -> Result<MatchConfig<G>, MatchError> {
    if options.engines.len() != 2 {
        return Err(MatchError::Options(format!(
            "a match needs exactly two --engine options (found {})",
            options.engines.len()
        )));
    }
    let mut engines = [EngineSpec::default(), EngineSpec::default()];
    for (spec, command) in engines.iter_mut().zip(&options.engines) {
        spec.command = command.clone();
    }
    for option in &options.options {
        for i in option.engine.map_or(0..2, |i| i..i + 1) {
            engines[i]
                .options
                .push((option.name.clone(), option.value.clone()));
        }
    }
    for name in &options.names {
        engines[name.engine].name = Some(name.name.clone());
    }
    let mut limits = [options.limit; 2];
    let mut set = [false; 2];
    for own in &options.limits {
        if std::mem::replace(&mut set[own.engine], true) {
            return Err(MatchError::Options(format!(
                "--limit: engine {} is given two limits",
                own.engine + 1
            )));
        }
        limits[own.engine] = own.limit;
    }
    let pairs = options.games.div_ceil(2);
    let openings = match &options.openings {
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
        None => random_openings::<G>(pairs.max(1), options.opening_plies, options.seed, &rules),
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
        games: options.games,
        limits,
        timeout: options.timeout,
        time_margin: options.time_margin,
        handshake_timeout: options.handshake_timeout,
        rules,
        openings,
        concurrency: options.concurrency.max(1),
        sprt: options.sprt,
    })
}

/// One engine's limit from `KIND=VALUE` or `go` (what follows `N:`).
///
/// # Errors
/// A [`LimitError`] saying what does not read.
pub fn engine_limit(spec: &str) -> Result<SearchLimit, LimitError> {
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

/// Splits `N:REST` into the engine (0 or 1) and the rest; an error without the `N:` prefix.
fn one_engine(text: &str) -> Result<(usize, &str), EngineArgError> {
    match engine_target(text)? {
        (Some(engine), rest) => Ok((engine, rest)),
        (None, _) => Err(EngineArgError::NoEngine(text.to_string())),
    }
}

/// Splits `N:REST` into the engine (0 or 1) and the rest; without an `N:` prefix, `None` (both
/// engines) and the whole text.
fn engine_target(text: &str) -> Result<(Option<usize>, &str), EngineArgError> {
    match text.split_once(':') {
        Some(("1", rest)) => Ok((Some(0), rest)),
        Some(("2", rest)) => Ok((Some(1), rest)),
        Some((n, _)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
            Err(EngineArgError::EngineNumber(text.to_string()))
        }
        _ => Ok((None, text)),
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
    use crate::arena::runner::{clock_go_command, TimeControl};
    use crate::arena::MatchReport;
    use crate::oware::Rules;
    use std::sync::atomic::AtomicBool;

    fn two(first: &str, second: &str) -> MatchOptions {
        MatchOptions {
            engines: vec![first.to_string(), second.to_string()],
            ..MatchOptions::default()
        }
    }

    fn config(options: &MatchOptions) -> Result<MatchConfig<crate::oware::Board>, MatchError> {
        match_config(options, Rules::default())
    }

    fn quiet(options: MatchOptions) -> Result<MatchReport, MatchError> {
        run_match(options, &AtomicBool::new(false), &mut |_| {})
    }

    #[test]
    fn engines_get_a_minute_to_start() {
        let c = config(&two("a", "b")).unwrap();
        assert_eq!(c.handshake_timeout, Duration::from_secs(60));
        assert_eq!(c.timeout, Duration::from_secs(10));
    }

    #[test]
    fn options_and_names_reach_the_right_engine() {
        let options = MatchOptions {
            options: ["1:Level=5", "Seed=abc", "2:Level = 1"]
                .map(|o| o.parse().unwrap())
                .to_vec(),
            names: vec!["2:weak".parse().unwrap()],
            limit: SearchLimit::Nodes(500),
            ..two("e1 --x", "e2")
        };
        let c = config(&options).unwrap();
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
        let limits = |limit: SearchLimit, own: &[&str]| {
            let limits = own
                .iter()
                .map(|text| text.parse::<EngineLimit>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            let options = MatchOptions {
                limit,
                limits,
                ..two("e1", "e2")
            };
            config(&options)
                .map(|c| c.limits)
                .map_err(|e| e.to_string())
        };
        let clock = SearchLimit::Clock(tc(10_000, 100));
        let plain = SearchLimit::EngineDefault;
        assert_eq!(
            limits(clock, &["2:nodes=20000"]).unwrap(),
            [clock, SearchLimit::Nodes(20_000)]
        );
        assert_eq!(
            limits(plain, &["1:movetime=50", "2:go"]).unwrap(),
            [SearchLimit::MoveTime(50), SearchLimit::EngineDefault]
        );
        assert_eq!(
            limits(plain, &["2:depth=7", "1:tc=1"]).unwrap(),
            [SearchLimit::Clock(tc(1_000, 0)), SearchLimit::Depth(7)]
        );
        for bad in [
            &["nodes=5"][..],
            &["3:nodes=5"],
            &["1:nodes=0"],
            &["1:tc=0"],
            &["1:speed=3"],
            &["1:nodes=5", "1:depth=3"],
        ] {
            assert!(limits(plain, bad).is_err(), "{bad:?}");
        }
        let names = ["a".to_string(), "b".to_string()];
        assert_eq!(describe_limits(&names, &[clock; 2], None), "clock 10+0.1");
        let mixed = [clock, SearchLimit::Nodes(5)];
        assert_eq!(
            describe_limits(&names, &mixed, None),
            "a: clock 10+0.1; b: 5 nodes per move"
        );
    }

    #[test]
    fn bad_options_are_errors() {
        let one = MatchOptions {
            engines: vec!["e1".to_string()],
            ..MatchOptions::default()
        };
        assert!(config(&one).is_err());
        assert!("3:Level=1".parse::<EngineOption>().is_err());
        assert!("Level".parse::<EngineOption>().is_err());
        assert!("weak".parse::<EngineName>().is_err());
        assert!(quiet(MatchOptions {
            repetitions: 1,
            ..two("a", "b")
        })
        .is_err());
        let err = quiet(two("/nonexistent/engine", "/nonexistent/other")).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("engine 1"), "{text}");
    }
}
