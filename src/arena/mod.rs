//! The match runner behind `perfectplay match`: two engines (any program speaking the protocol)
//! play each other under the library's rules as referee, and the runner reports the score, the Elo
//! difference with its confidence interval, and optionally an SPRT decision.
//!
//! - [`options`]: the options ([`MatchOptions`]) and the match configuration they give;
//! - [`client`]: the subprocess client (handshake, options, `go`/`bestmove`, bounded reads);
//! - [`runner`]: openings, the referee loop, fault handling, worker threads, the tally, all
//!   generic over the game;
//! - [`record_files`]: the record files (locked, written whole) and their date;
//! - [`report`]: the start line, the summaries, the progress message;
//! - [`stats`]: Elo, confidence intervals, LOS, pentanomial counts, SPRT.
//!
//! [`run_match`] runs `perfectplay match` from its options and returns a report; it prints
//! nothing. It picks the game from `--variant` ([`Variant::visit`]) and runs the generic match,
//! or the replay of a record file, on it. The binary's front end shows its events (a start line,
//! a progress bar, a line per game), installs the Ctrl-C handler, and prints the report.

pub mod client;
pub mod error;
pub mod options;
pub mod record_files;
pub mod report;
pub mod runner;
pub mod stats;

pub use error::{EngineArgError, LimitError, MatchError};
pub use options::{EngineLimit, EngineName, EngineOption, MatchOptions};
pub use report::{
    progress_message, MatchEvent, MatchReport, MatchStart, MatchSummary, ReplaySummary,
};

use std::fs;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::CycleRule;
use crate::records::Recorded;
use crate::variant::{Variant, VariantGame, VisitGame};
use client::{Engine, EngineError};
use options::{match_config, resolve_names};
use record_files::{same_file, today, RecordWriter};
use report::{default_search, rule_notes, summarize_replays};
use runner::{play_match, GameRecord, MatchConfig, Tally};

/// Runs `perfectplay match`: replays a record file (`--replay`) or plays a match, and returns
/// what it found for the front end to print. `interrupt` stops a match from outside (the front
/// end's Ctrl-C): games in progress are dropped, finished ones kept. `on_event` hears when the
/// match starts and each game as it finishes (not called for `--replay`).
///
/// # Errors
/// Bad options (not two engines, two limits for one engine, `repetitions` below 2,
/// `no_capture_limit` with Dobutsu, `openings` and `records` naming the same file), an unreadable openings or record file, an engine that fails to start before the first
/// game or refuses an `--option` (one it does not list, or a value it answers with an `info
/// string error`), an output file that cannot be created or is locked by another match, and, with
/// `--replay`, any game that does not replay. Faults during the match are not errors: they lose
/// games and are reported. Records that could not be written are reported in the summary
/// ([`MatchSummary::records`]), for the front end to fail on.
pub fn run_match(
    options: MatchOptions,
    interrupt: &AtomicBool,
    on_event: &mut dyn FnMut(MatchEvent<'_>),
) -> Result<MatchReport, MatchError> {
    if options.repetitions < 2 {
        return Err(MatchError::Options(format!(
            "--repetitions must be at least 2 (found {})",
            options.repetitions
        )));
    }
    if options.variant == Variant::Dobutsu && options.no_capture_limit.is_some() {
        return Err(MatchError::Options(
            "--no-capture-limit is an Oware rule: Dobutsu has no ply limit (its cycle rule is \
             --repetitions)"
                .to_string(),
        ));
    }
    let cycle = CycleRule {
        repetitions: options.repetitions,
        no_progress_limit: options
            .no_capture_limit
            .unwrap_or(CycleRule::default().no_progress_limit),
    };
    if let Some(path) = &options.replay {
        return replay_file(path, options.variant, cycle)
            .map(|s| MatchReport::Replayed(Box::new(s)));
    }
    if let (Some(openings), Some(ogn)) = (&options.openings, &options.records) {
        if same_file(openings, ogn) {
            return Err(MatchError::Options(format!(
                "--openings and --ogn name the same file ({}): the records would replace the openings",
                ogn.display()
            )));
        }
    }
    let variant = options.variant;
    variant.visit(PlayMatch {
        options,
        cycle,
        interrupt,
        on_event,
    })
}

/// The match itself, generic over the game.
struct PlayMatch<'a> {
    options: MatchOptions,
    /// The cycle rule of the options.
    cycle: CycleRule,
    interrupt: &'a AtomicBool,
    on_event: &'a mut dyn FnMut(MatchEvent<'_>),
}

impl VisitGame for PlayMatch<'_> {
    type Output = Result<MatchReport, MatchError>;

    fn visit<G: VariantGame>(self, mut rules: G::Rules) -> Result<MatchReport, MatchError> {
        let PlayMatch {
            options,
            cycle,
            interrupt,
            on_event,
        } = self;
        G::set_cycle(&mut rules, cycle);
        let mut config = match_config::<G>(&options, rules.clone())?;
        let sprt = config.sprt;

        let first = start_both(&config)?;
        // Opened once both engines accepted their options: a match that cannot start writes
        // no record file.
        let mut records =
            RecordWriter::open(options.records.as_deref(), options.record_dir.as_deref())?;
        config.names = resolve_names(&config, [first[0].id_name(), first[1].id_name()]);

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
            let text = G::write_record(record, &options.event, &date, &rules);
            records.write(record.number, G::RECORD_EXTENSION, &text);
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
            records: records.written,
        })))
    }
}

/// Starts both engines for the first games. An engine that cannot start does not keep the other
/// from being tried: the error names every engine that failed, so that one run shows all that is
/// wrong with the options.
fn start_both<G: Recorded>(config: &MatchConfig<G>) -> Result<[Engine; 2], MatchError> {
    let started = [0, 1].map(|i| {
        config.start_engine(i, None).map_err(|source| {
            let what = match source {
                EngineError::UnknownOptions { .. } | EngineError::RefusedOption { .. } => {
                    "cannot play with the options given"
                }
                EngineError::NoVariantOption { .. } | EngineError::UnsupportedVariant { .. } => {
                    "cannot play the match's game"
                }
                EngineError::RefusedRule { .. } => "cannot play by the referee's rules",
                _ => "did not start",
            };
            MatchError::Engine {
                number: i + 1,
                command: config.engines[i].command.clone(),
                what,
                source: Box::new(source),
            }
        })
    });
    match started {
        [Ok(a), Ok(b)] => Ok([a, b]),
        [Err(e), Ok(_)] | [Ok(_), Err(e)] => Err(e),
        [Err(a), Err(b)] => Err(MatchError::BothEngines(Box::new(a), Box::new(b))),
    }
}

/// `--replay`: checks every record of `path` and summarises them. A file whose first record
/// has the tag `[Variant "dobutsu"]`, or any file with `--variant dobutsu`, is read as PGN of
/// Dobutsu games; others as OGN under `variant`'s Oware rules (records' own tags take
/// precedence).
fn replay_file(
    path: &Path,
    variant: Variant,
    cycle: CycleRule,
) -> Result<ReplaySummary, MatchError> {
    let text = fs::read_to_string(path).map_err(|source| MatchError::File {
        action: "read",
        path: path.to_path_buf(),
        source,
    })?;
    if text.trim().is_empty() {
        return Err(MatchError::NoRecords(path.to_path_buf()));
    }
    let tagged =
        crate::records::pgn::first_variant_tag(&text).and_then(|v| v.parse::<Variant>().ok());
    let variant = match tagged {
        Some(Variant::Dobutsu) => Variant::Dobutsu,
        _ => variant,
    };
    variant.visit(ReplayFile {
        path,
        text: &text,
        cycle,
    })
}

/// The replay of a record file's `text`, generic over the game.
struct ReplayFile<'a> {
    path: &'a Path,
    text: &'a str,
    /// The cycle rule of the options, for records without rules tags.
    cycle: CycleRule,
}

impl VisitGame for ReplayFile<'_> {
    type Output = Result<ReplaySummary, MatchError>;

    fn visit<G: VariantGame>(self, mut rules: G::Rules) -> Result<ReplaySummary, MatchError> {
        G::set_cycle(&mut rules, self.cycle);
        let checked =
            G::replay_records(self.text, &rules).map_err(|source| MatchError::Records {
                path: self.path.to_path_buf(),
                source,
            })?;
        summarize_replays(checked, G::PLAYER_NAMES)
    }
}
