//! Playing a match: openings, the referee, fault handling, scheduling games on worker threads,
//! and the running tally.
//!
//! The runner is generic over the game ([`Recorded`]): the library's [`GameState`] is the
//! referee, openings are positions and moves in the game's notation, and the `position` command is
//! written through [`Notation`].
//!
//! Games come in pairs: the same opening twice, the first engine playing the first player (Oware's
//! South, Dobutsu's Sente) in the first game and the second player in the second. Each worker thread owns one process of each engine and plays whole
//! pairs; finished games go to the coordinating thread over a channel, in the order they finish.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::arena::client::{BestMove, Engine, EngineError, EngineSpec};
use crate::arena::stats::{Pentanomial, Sprt, SprtDecision, Trinomial};
use crate::game::{Game, GameState, Notation, Player};
use crate::protocol::Command;
use crate::records::RuleSettings;
use crate::search::{Clock, Limits};

pub use crate::records::Fault;
pub use crate::records::{FinishedGame, GameRecord, MoveNote, Opening, Recorded, Termination};

/// How much each engine may search per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth D`.
    Depth(u32),
    /// `go movetime MS` (milliseconds; not reproducible).
    MoveTime(u64),
    /// A game clock: `go wtime ... btime ... winc ... binc ...`, and a loss on time for an engine
    /// that exceeds its clock (not reproducible).
    Clock(TimeControl),
    /// Plain `go`: the engine's own default (for our engine, its `Level`).
    EngineDefault,
}

/// A game clock of Fischer type: a base time for the game and an increment added after each
/// move, in milliseconds (`--tc 10+0.1`: 10,000 and 100).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the game, in milliseconds (at least 1).
    pub base_ms: u64,
    /// Time added after each move, in milliseconds.
    pub increment_ms: u64,
}

/// Why a time control cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a time control: expected SECONDS or SECONDS+INCREMENT (10+0.1), the base above 0"
)]
pub struct TimeControlError(pub String);

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;

    /// `SECONDS` or `SECONDS+INCREMENT`, each a decimal number of seconds (`10+0.1`, `0.5`,
    /// `60+1`), rounded to the millisecond; the base must be at least a millisecond.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError(text.to_string());
        let (base, increment) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let ms = |t: &str| -> Result<u64, TimeControlError> {
            let t = t.trim();
            if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return Err(error());
            }
            let secs: f64 = t.parse().map_err(|_| error())?;
            let ms = (secs * 1000.0).round();
            if ms.is_finite() && ms < 1e15 {
                Ok(ms as u64)
            } else {
                Err(error())
            }
        };
        let (base_ms, increment_ms) = (ms(base)?, ms(increment)?);
        if base_ms == 0 {
            return Err(error());
        }
        Ok(TimeControl {
            base_ms,
            increment_ms,
        })
    }
}

/// Milliseconds as seconds, without trailing zeros (`10000` is `10`, `100` is `0.1`).
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

impl fmt::Display for TimeControl {
    /// `10+0.1`, as `--tc` reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            seconds(self.base_ms),
            seconds(self.increment_ms)
        )
    }
}

impl SearchLimit {
    /// The `go` command of a limit without a clock (for [`SearchLimit::Clock`] see
    /// [`clock_go_command`]).
    pub fn go_command(&self) -> Command {
        let mut limits = Limits::default();
        match *self {
            SearchLimit::Nodes(n) => limits.nodes = Some(n),
            SearchLimit::Depth(d) => limits.depth = Some(d),
            SearchLimit::MoveTime(ms) => limits.movetime = Some(Duration::from_millis(ms)),
            SearchLimit::Clock(_) | SearchLimit::EngineDefault => {}
        }
        go(limits)
    }

    /// The time allowed for one move: `margin`, plus the move time for [`SearchLimit::MoveTime`]
    /// (an engine on a clock is allowed what is left on it, see [`play_match`]).
    pub fn time_allowed(&self, margin: Duration) -> Duration {
        match self {
            SearchLimit::MoveTime(ms) => margin + Duration::from_millis(*ms),
            _ => margin,
        }
    }
}

impl fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchLimit::Nodes(n) => write!(f, "{n} nodes per move"),
            SearchLimit::Depth(d) => write!(f, "depth {d} per move"),
            SearchLimit::MoveTime(ms) => write!(f, "{ms} ms per move"),
            SearchLimit::Clock(tc) => write!(f, "clock {tc}"),
            SearchLimit::EngineDefault => f.write_str("the engines' default search"),
        }
    }
}

/// `go` with `limits` and nothing else.
fn go(limits: Limits) -> Command {
    Command::Go {
        limits,
        ponder: false,
        searchmoves: Vec::new(),
    }
}

/// The `go` command of a move under a game clock: `go wtime W btime B winc WI binc BI`, each
/// player's time left (`time_ms`, the first player's first; negative once run out) and
/// increment (left out when 0), for the players that play on a clock (`None`: that player's
/// engine has another limit, and its fields are left out).
pub fn clock_go_command(time_ms: [Option<i64>; 2], increment_ms: [Option<u64>; 2]) -> Command {
    go(Limits {
        clock: Some(Clock {
            time_ms,
            increment_ms: increment_ms.map(|i| i.unwrap_or(0)),
            ..Clock::default()
        }),
        ..Limits::default()
    })
}

/// Why an openings file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// A line is neither a diagram nor a move list.
    #[error("openings line {line}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A move the rules refuse, or a line that ends the game.
    #[error("openings line {line}: {message}")]
    Illegal {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// No opening in the file.
    #[error("the openings file holds no opening")]
    Empty,
}

/// Reads openings, one a line: a position in the game's notation (Oware's diagram
/// `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`, Dobutsu's FEN `gle/1c1/1C1/ELG[-] w`, optionally prefixed by
/// `fen`), optionally followed by `moves` and a move list, or a move list from the start position
/// (`F f B e`, `FfBe`, `b2b3 b3b2`, or `startpos moves F f`). Blank lines and text after `#` are
/// skipped. Every opening is replayed with `rules` and must leave a game in progress.
///
/// # Errors
/// [`OpeningError`] naming the first bad line, or [`OpeningError::Empty`].
pub fn parse_openings<G: Notation>(
    text: &str,
    rules: &G::Rules,
) -> Result<Vec<Opening<G>>, OpeningError> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (start, words) = opening_start::<G>(content, rules)
            .map_err(|message| OpeningError::Syntax { line, message })?;
        let moves = start
            .parse_moves(&words)
            .map_err(|e| OpeningError::Syntax {
                line,
                message: e.to_string(),
            })?;
        let mut state = GameState::new(start.clone(), rules.clone());
        state
            .play_all(&moves)
            .map_err(|(_, e)| OpeningError::Illegal {
                line,
                message: e.to_string(),
            })?;
        if let Some(end) = state.end() {
            let message = format!("the game is over after this opening ({})", end.reason);
            return Err(OpeningError::Illegal { line, message });
        }
        openings.push(Opening { start, moves });
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

/// The start position of an openings line and the words of its move list. A line whose first
/// word reads as a move list is moves from the start position; otherwise the words before
/// `moves` are the position (a FEN holds blanks), after an optional `fen`.
fn opening_start<'a, G: Notation>(
    content: &'a str,
    rules: &G::Rules,
) -> Result<(G, Vec<&'a str>), String> {
    let mut words: Vec<&str> = content.split_whitespace().collect();
    let initial = G::start(rules).under_rules(rules);
    if words[0] == "startpos" {
        words.remove(0);
    } else if words[0] == "fen" || initial.parse_moves(&words[..1]).is_err() {
        if words[0] == "fen" {
            words.remove(0);
        }
        let cut = words
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(words.len());
        let text = words[..cut].join(" ");
        let start = G::parse_position(&text, rules).map_err(|e| e.to_string())?;
        let rest = words.get(cut + 1..).unwrap_or_default().to_vec();
        return Ok((start.under_rules(rules), rest));
    }
    if words.first() == Some(&"moves") {
        words.remove(0);
    }
    Ok((initial, words))
}

/// SplitMix64 (Steele, Lea & Flood), a small, fast generator: the same seed gives the same numbers
/// on every platform.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0), by multiply-shift (bias below 2^-32 for small `n`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// `count` openings of `plies` random legal moves from the initial position, reproducible from
/// `seed`. A sequence that would end the game, or leave the side to move a win known without
/// search ([`Game::proven`]: a Dobutsu Lion left to be captured), is drawn again (after 100
/// tries the last one is shortened to the moves before the end).
pub fn random_openings<G: Notation>(
    count: usize,
    plies: usize,
    seed: u64,
    rules: &G::Rules,
) -> Vec<Opening<G>> {
    let mut rng = SplitMix64::new(seed);
    let start = G::start(rules).under_rules(rules);
    (0..count)
        .map(|_| {
            let mut moves = Vec::new();
            for _attempt in 0..100 {
                moves.clear();
                let mut state = GameState::new(start.clone(), rules.clone());
                while moves.len() < plies && !state.is_over() {
                    let legal = state.legal_moves();
                    let mv = legal[rng.below(legal.len())];
                    // Legal by construction.
                    let _ = state.play(mv);
                    moves.push(mv);
                }
                if !state.is_over() && state.position().proven().is_none() {
                    break;
                }
            }
            let mut check = GameState::new(start.clone(), rules.clone());
            let playable = moves
                .iter()
                .take_while(|&&mv| check.play(mv).is_ok() && !check.is_over())
                .count();
            moves.truncate(playable);
            Opening {
                start: start.clone(),
                moves,
            }
        })
        .collect()
}

/// The `position` command for a start and the moves since (`startpos` when `start` is the start
/// position of `rules`), the moves written as [`Notation::write_moves`] writes them: in Oware run
/// together as the Aualé GUI sends them (`position startpos moves FfBe`: engines of the Aualé
/// family (Aalina) refuse them separated by blanks, and the protocol (protocol.md) accepts both);
/// in Dobutsu separated by blanks, as UCI engines (Fairy-Stockfish) read them.
pub fn position_command<G: Notation>(start: &G, moves: &[G::Move], rules: &G::Rules) -> Command {
    Command::Position {
        start: (*start != G::start(rules).under_rules(rules)).then(|| start.write_position()),
        // The game's own writing of the list, as one word or several.
        moves: (!moves.is_empty())
            .then(|| G::write_moves(moves))
            .into_iter()
            .collect(),
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig<G: Game> {
    /// The two engines.
    pub engines: [EngineSpec; 2],
    /// Display names (South/North tags), the first engine's first.
    pub names: [String; 2],
    /// Games to play (pairs share an opening; an odd last game has no partner).
    pub games: usize,
    /// The search limit of each engine, the first engine's first.
    pub limits: [SearchLimit; 2],
    /// Time allowed for `isready` before a game, and for a move beyond its move time.
    pub timeout: Duration,
    /// How far an engine on a game clock may run past it before it loses on time (the runner's
    /// own measure includes the pipes' and the threads' delays).
    pub time_margin: Duration,
    /// Time allowed for starting an engine: `uci` to `uciok`, then the first `isready` to
    /// `readyok` (a JVM on a loaded machine takes many seconds).
    pub handshake_timeout: Duration,
    /// The referee's rules.
    pub rules: G::Rules,
    /// Openings, used in turn by the pairs (cycled when there are fewer).
    pub openings: Vec<Opening<G>>,
    /// Games played at once (worker threads, each with its own two engine processes).
    pub concurrency: usize,
    /// Stop when this test is decided.
    pub sprt: Option<Sprt>,
}

impl<G: Recorded> MatchConfig<G> {
    /// The options telling an engine the referee's rules (sent if the engine has them):
    /// [`Recorded::rule_options`].
    pub fn rule_options(&self) -> RuleSettings {
        G::rule_options(&self.rules)
    }

    /// Starts engine `index` (0 or 1).
    ///
    /// # Errors
    /// The [`EngineError`] of a failed start or handshake.
    pub fn start_engine(
        &self,
        index: usize,
        stop: Option<&AtomicBool>,
    ) -> Result<Engine, EngineError> {
        let label = format!("engine {} ({})", index + 1, self.names[index]);
        Engine::start(
            &self.engines[index],
            &self.rule_options(),
            self.handshake_timeout,
            &label,
            stop,
        )
    }
}

/// Faults of one engine, by kind.
pub type FaultCounts = BTreeMap<Fault, u64>;

/// The running score of a match, from the first engine's point of view; the same for every game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Single games.
    pub games: Trinomial,
    /// Completed pairs.
    pub pairs: Pentanomial,
    /// Faults of each engine.
    pub faults: [FaultCounts; 2],
    /// Games won by the first player (Oware's South, Dobutsu's Sente), drawn, won by the second
    /// (colour balance).
    pub by_side: [u64; 3],
    /// The time each engine took, the first engine's first.
    pub time: [TimeUse; 2],
    /// Points of the first game of pairs whose second game is not in yet.
    pending: BTreeMap<usize, f64>,
}

/// The time one engine took over a match's moves, from the runner's [`MoveNote`]s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeUse {
    /// Moves the engine played (the opening's not counted).
    pub moves: u64,
    /// Milliseconds from `go` to `bestmove`, summed over those moves.
    pub total_ms: u64,
    /// For each game the engine played on a clock, the milliseconds left on it after its last
    /// move (increment added), in the order the games finished.
    pub end_clocks_ms: Vec<i64>,
}

impl TimeUse {
    /// Mean milliseconds a move; `None` before any move.
    pub fn mean_ms(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.total_ms as f64 / self.moves as f64)
    }

    /// Median of [`TimeUse::end_clocks_ms`] (the mean of the middle two for an even count);
    /// `None` without a game on a clock.
    pub fn median_end_clock_ms(&self) -> Option<f64> {
        let mut c = self.end_clocks_ms.clone();
        c.sort_unstable();
        let n = c.len();
        match n {
            0 => None,
            _ if n % 2 == 1 => Some(c[n / 2] as f64),
            _ => Some((c[n / 2 - 1] + c[n / 2]) as f64 / 2.0),
        }
    }
}

impl Tally {
    /// Counts a finished game.
    pub fn record<G: Recorded>(&mut self, game: &GameRecord<G>) {
        let points = game.points_of(0);
        match points {
            p if p > 0.75 => self.games.wins += 1,
            p if p < 0.25 => self.games.losses += 1,
            _ => self.games.draws += 1,
        }
        match game.winner().map(Player::index) {
            Some(0) => self.by_side[0] += 1,
            None => self.by_side[1] += 1,
            Some(_) => self.by_side[2] += 1,
        }
        // The engines' time: the sides alternate move by move (neither game has a pass), from
        // the side to move after the opening.
        let mut end_clocks = [None; 2];
        let mut side = game.opening.start.to_move();
        for _ in &game.opening.moves {
            side = side.opponent();
        }
        for note in &game.notes {
            let engine = game.engine_of(side);
            self.time[engine].moves += 1;
            self.time[engine].total_ms += note.time_ms;
            end_clocks[engine] = note.clock_ms.or(end_clocks[engine]);
            side = side.opponent();
        }
        for (time, clock) in self.time.iter_mut().zip(end_clocks) {
            time.end_clocks_ms.extend(clock);
        }
        if let Termination::Forfeit { side, fault, .. } = &game.termination {
            *self.faults[game.engine_of(*side)]
                .entry(*fault)
                .or_default() += 1;
        }
        match self.pending.remove(&game.pair) {
            Some(first) => self.pairs.record(((first + points) * 2.0).round() as usize),
            None => {
                self.pending.insert(game.pair, points);
            }
        }
    }

    /// Games counted in [`Tally::games`] but in no pair of [`Tally::pairs`]: the first game of a pair
    /// whose second game is not in (the last game of an odd number, or a pair cut by a stop).
    pub fn unpaired(&self) -> u64 {
        self.games.games() - 2 * self.pairs.pairs()
    }

    /// Faults of kind `fault` by engine `engine` (0 or 1).
    pub fn fault_count(&self, engine: usize, fault: Fault) -> u64 {
        self.faults[engine].get(&fault).copied().unwrap_or(0)
    }

    /// The SPRT's log-likelihood ratio: on pairs once there is one, else on single games.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pairs.pairs() > 0 {
            sprt.llr_pentanomial(&self.pairs)
        } else {
            sprt.llr_trinomial(&self.games)
        }
    }
}

/// Games before an SPRT may stop a match: the normal approximation of the log-likelihood ratio
/// needs a variance estimate, and a handful of one-sided results (variance near zero) would
/// otherwise decide at once.
pub const SPRT_MIN_GAMES: u64 = 20;

/// Why a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Every game was played.
    Completed,
    /// Stopped from outside (Ctrl-C); unfinished games were dropped.
    Interrupted,
    /// The SPRT reached a decision.
    Sprt(SprtDecision),
}

/// The outcome of [`play_match`].
#[derive(Clone, Debug)]
pub struct MatchResult<G: Game> {
    /// Finished games, in the order they finished.
    pub records: Vec<GameRecord<G>>,
    /// The tally over them.
    pub tally: Tally,
    /// Why the match ended.
    pub stop: StopReason,
}

/// Plays the match. `first_engines` may hold already started engines (for the first worker);
/// `interrupt` stops the match from outside (games in progress are dropped, finished ones kept);
/// `on_game` sees every finished game and the tally after it, on the calling thread.
pub fn play_match<G: Recorded>(
    config: &MatchConfig<G>,
    first_engines: Option<[Engine; 2]>,
    interrupt: &AtomicBool,
    on_game: &mut dyn FnMut(&GameRecord<G>, &Tally),
) -> MatchResult<G> {
    let stop = AtomicBool::new(false);
    let next_pair = AtomicUsize::new(0);
    let pairs = config.games.div_ceil(2);
    let workers = config.concurrency.clamp(1, pairs.max(1));
    let mut records = Vec::new();
    let mut tally = Tally::default();
    let mut reason = StopReason::Completed;
    let (tx, rx) = mpsc::channel::<GameRecord<G>>();
    std::thread::scope(|scope| {
        let mut first = first_engines.map(|[a, b]| [Some(a), Some(b)]);
        for w in 0..workers {
            let engines = first.take().unwrap_or([None, None]);
            let tx = tx.clone();
            let (stop, next_pair) = (&stop, &next_pair);
            let spawned = std::thread::Builder::new()
                .name(format!("match worker {w}"))
                .spawn_scoped(scope, move || {
                    worker(config, engines, next_pair, pairs, stop, tx)
                });
            if let Err(e) = spawned {
                log::error!("cannot start worker thread {w}: {e}");
            }
        }
        drop(tx);
        loop {
            if interrupt.load(Ordering::Relaxed) && reason == StopReason::Completed {
                reason = StopReason::Interrupted;
                stop.store(true, Ordering::Relaxed);
            }
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(record) => {
                    if stop.load(Ordering::Relaxed) {
                        continue; // finished after the stop: not counted
                    }
                    tally.record(&record);
                    on_game(&record, &tally);
                    records.push(record);
                    if let Some(sprt) = config
                        .sprt
                        .as_ref()
                        .filter(|_| tally.games.games() >= SPRT_MIN_GAMES)
                    {
                        let decision = sprt.decide(tally.llr(sprt));
                        if decision != SprtDecision::Continue {
                            reason = StopReason::Sprt(decision);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    MatchResult {
        records,
        tally,
        stop: reason,
    }
}

/// One worker: takes pairs until none is left or the match stops, plays both games of each.
fn worker<G: Recorded>(
    config: &MatchConfig<G>,
    mut engines: [Option<Engine>; 2],
    next_pair: &AtomicUsize,
    pairs: usize,
    stop: &AtomicBool,
    tx: mpsc::Sender<GameRecord<G>>,
) {
    while !stop.load(Ordering::Relaxed) {
        let pair = next_pair.fetch_add(1, Ordering::Relaxed);
        if pair >= pairs {
            break;
        }
        for first_player_engine in 0..2 {
            let number = 2 * pair + first_player_engine + 1;
            if number > config.games {
                break;
            }
            match play_game(
                config,
                &mut engines,
                pair,
                number,
                first_player_engine,
                stop,
            ) {
                Some(record) => {
                    if tx.send(record).is_err() {
                        return;
                    }
                }
                None => return,
            }
        }
    }
}

/// Plays one game; `None` if the match stopped during it.
fn play_game<G: Recorded>(
    config: &MatchConfig<G>,
    engines: &mut [Option<Engine>; 2],
    pair: usize,
    number: usize,
    first_player_engine: usize,
    stop: &AtomicBool,
) -> Option<GameRecord<G>> {
    let names = [
        config.names[first_player_engine].clone(),
        config.names[1 - first_player_engine].clone(),
    ];
    let record = GameRecord {
        number,
        pair,
        first_player_engine,
        names,
        opening: config.openings[pair % config.openings.len()].clone(),
        moves: Vec::new(),
        notes: Vec::new(),
        termination: Termination::Forfeit {
            side: G::Player::FIRST,
            fault: Fault::Crash,
            detail: String::new(),
        },
    };
    GameInPlay::new(config, engines, stop, record).play()
}

/// Why a game stops before the rules end it.
enum Stopped {
    /// The match stopped: the game is dropped.
    Interrupted,
    /// The engine to move (or getting ready) faulted: it loses, with these details.
    Fault(Fault, String),
}

/// One game on a worker: the match's settings, the worker's engines, the referee, the record so
/// far, and each player's limit and clock.
struct GameInPlay<'a, G: Recorded> {
    config: &'a MatchConfig<G>,
    engines: &'a mut [Option<Engine>; 2],
    stop: &'a AtomicBool,
    record: GameRecord<G>,
    state: GameState<G>,
    /// Each player's search limit, by player index.
    limits: [SearchLimit; 2],
    clocks: Clocks,
}

impl<'a, G: Recorded> GameInPlay<'a, G> {
    /// The game of `record` (its opening played, no move yet) between `engines`.
    fn new(
        config: &'a MatchConfig<G>,
        engines: &'a mut [Option<Engine>; 2],
        stop: &'a AtomicBool,
        record: GameRecord<G>,
    ) -> GameInPlay<'a, G> {
        let mut state = GameState::new(record.opening.start.clone(), config.rules.clone());
        if state.play_all(&record.opening.moves).is_err() {
            // Openings are checked when loaded; this cannot happen.
            log::error!("opening of pair {} refused by the rules", record.pair);
        }
        let first = G::Player::FIRST;
        let limits = [first, first.opponent()].map(|side| config.limits[record.engine_of(side)]);
        GameInPlay {
            config,
            engines,
            stop,
            record,
            state,
            limits,
            clocks: Clocks::new(&limits),
        }
    }

    /// Plays the game to its end: both engines made ready, then a move at a time until the
    /// rules end the game or an engine faults; `None` if the match stopped.
    fn play(mut self) -> Option<GameRecord<G>> {
        let first = G::Player::FIRST;
        for side in [first, first.opponent()] {
            if let Err(stopped) = self.make_ready(side) {
                return self.stopped(side, stopped);
            }
        }
        loop {
            if let Some(end) = self.state.end() {
                self.record.termination = Termination::Rules(end);
                return Some(self.record);
            }
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            let side = self.state.position().to_move();
            match self.next_move(side) {
                Ok((mv, note)) => {
                    self.record.moves.push(mv);
                    self.record.notes.push(note);
                }
                Err(stopped) => return self.stopped(side, stopped),
            }
        }
    }

    /// The game stopped before the rules ended it: dropped if the match stopped, else lost by
    /// `side`, whose engine (its state now unknown) is restarted for the next game.
    fn stopped(mut self, side: G::Player, stopped: Stopped) -> Option<GameRecord<G>> {
        let Stopped::Fault(fault, detail) = stopped else {
            return None;
        };
        self.engines[self.record.engine_of(side)] = None;
        self.record.termination = Termination::Forfeit {
            side,
            fault,
            detail,
        };
        Some(self.record)
    }

    /// Makes sure the engine playing `side` runs and is ready for a new game (starting it if it
    /// does not run); a fault here loses the game too.
    fn make_ready(&mut self, side: G::Player) -> Result<(), Stopped> {
        let e = self.record.engine_of(side);
        let ready = match self.engines[e].as_mut() {
            Some(engine) => engine.new_game(self.config.timeout, Some(self.stop)),
            None => self
                .config
                .start_engine(e, Some(self.stop))
                .map(|engine| self.engines[e] = Some(engine)),
        };
        ready.map_err(stopped_by)
    }

    /// Asks the engine playing `side` for its move in the game's position, under its limit or
    /// its clock, and plays it; a move refused by the rules, none where the rules allow one, a
    /// late answer or an engine error is a fault. Returns the move with what the runner saw of
    /// it (its time, the clock left, the engine's depth and score).
    fn next_move(&mut self, side: G::Player) -> Result<(G::Move, MoveNote), Stopped> {
        let e = self.record.engine_of(side);
        let Some(engine) = self.engines[e].as_mut() else {
            let detail = "engine not running".to_string();
            return Err(Stopped::Fault(Fault::StartFailure, detail));
        };
        let position = position_command(
            &self.record.opening.start,
            self.state.moves(),
            &self.config.rules,
        );
        let (go, allowed) = self
            .clocks
            .go(side.index(), self.limits[side.index()], self.config);
        let asked = std::time::Instant::now();
        let answer = engine.best_move(&position, &go, allowed, Some(self.stop), G::read_move);
        let used = asked.elapsed();
        let margin = self.config.time_margin;
        self.clocks.charge(side.index(), used, &answer, margin)?;
        let note = MoveNote {
            time_ms: used.as_millis() as u64,
            clock_ms: self.clocks.left[side.index()],
            search: engine.last_search(),
        };
        let said = engine
            .last_info_string()
            .map(|l| format!("; the engine said '{l}'"))
            .unwrap_or_default();
        match answer.map_err(stopped_by)? {
            BestMove::Move(mv) => match self.state.play(mv) {
                Ok(()) => Ok((mv, note)),
                Err(err) => Err(Stopped::Fault(
                    Fault::IllegalMove,
                    format!("bestmove {mv}: {err}{said}"),
                )),
            },
            BestMove::NoMove => Err(self.no_move(e, &said)),
        }
    }

    /// The fault of engine `e`'s `bestmove 0000` where the rules allow a move (logged too: the
    /// engine may end games by rules of its own).
    fn no_move(&self, e: usize, said: &str) -> Stopped {
        let legal = G::write_moves(&self.state.legal_moves());
        log::warn!(
            "{}: bestmove 0000 in game {} where the rules allow {legal}: the engine may end \
             games by rules of its own (an engine that ends a game at the first repetition needs \
             --repetitions 2)",
            self.config.names[e],
            self.record.number
        );
        Stopped::Fault(
            Fault::NoMove,
            format!(
                "bestmove 0000 in {} (legal: {legal}){said}",
                self.state.position().write_position()
            ),
        )
    }
}

/// How an engine error stops a game: an interrupted wait stops the match, any other error is
/// the engine's fault.
fn stopped_by(err: EngineError) -> Stopped {
    match err {
        EngineError::Interrupted => Stopped::Interrupted,
        err => Stopped::Fault(fault_of(&err), err.to_string()),
    }
}

/// The game clocks of the players that play on one, by player index, in milliseconds: the time
/// left (negative once overrun) and the increment.
struct Clocks {
    left: [Option<i64>; 2],
    increments: [Option<u64>; 2],
}

impl Clocks {
    /// The clocks of the players whose limit is [`SearchLimit::Clock`], at their base time.
    fn new(limits: &[SearchLimit; 2]) -> Clocks {
        Clocks {
            left: limits.map(|l| match l {
                SearchLimit::Clock(tc) => Some(tc.base_ms as i64),
                _ => None,
            }),
            increments: limits.map(|l| match l {
                SearchLimit::Clock(tc) => Some(tc.increment_ms),
                _ => None,
            }),
        }
    }

    /// The `go` command for player `side`, whose limit is `limit`, and how long its answer may
    /// take: the time on its clock and the margin, or the limit's time and the timeout.
    fn go<G: Game>(
        &self,
        side: usize,
        limit: SearchLimit,
        config: &MatchConfig<G>,
    ) -> (Command, Duration) {
        match self.left[side] {
            Some(left) => (
                clock_go_command(self.left, self.increments),
                Duration::from_millis(left.max(0) as u64) + config.time_margin,
            ),
            None => (limit.go_command(), limit.time_allowed(config.timeout)),
        }
    }

    /// Charges `used`, the time the engine took to `answer`, to player `side`'s clock (if it
    /// plays on one) and adds the increment.
    ///
    /// # Errors
    /// [`Stopped::Fault`] with [`Fault::TimeLoss`] for an answer more than `margin` past the
    /// clock, or a timeout.
    fn charge<M>(
        &mut self,
        side: usize,
        used: Duration,
        answer: &Result<BestMove<M>, EngineError>,
        margin: Duration,
    ) -> Result<(), Stopped> {
        let Some(left) = self.left[side].as_mut() else {
            return Ok(());
        };
        let on_clock = *left;
        *left -= used.as_millis() as i64;
        let late = match answer {
            Ok(_) => *left < -(margin.as_millis() as i64),
            Err(EngineError::Timeout { .. }) => true,
            Err(_) => false,
        };
        if late {
            let detail = format!(
                "{} ms used with {on_clock} ms on the clock (margin {} ms)",
                used.as_millis(),
                margin.as_millis()
            );
            return Err(Stopped::Fault(Fault::TimeLoss, detail));
        }
        *left += self.increments[side].unwrap_or(0) as i64;
        Ok(())
    }
}

/// The fault an engine's error is charged as.
fn fault_of(error: &EngineError) -> Fault {
    match error {
        EngineError::Spawn { .. }
        | EngineError::UnknownOptions { .. }
        | EngineError::RefusedOption { .. }
        | EngineError::NoVariantOption { .. }
        | EngineError::UnsupportedVariant { .. }
        | EngineError::RefusedRule { .. } => Fault::StartFailure,
        EngineError::Timeout { .. } => Fault::Timeout,
        EngineError::Exited { .. } => Fault::Crash,
        EngineError::Closed { .. } | EngineError::Interrupted => Fault::ClosedPipe,
        EngineError::Garbage(_) => Fault::Garbage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oware::{parse_moves, Board, RuleSet, Rules, Side};

    type OwareState = crate::oware::GameState;

    #[test]
    fn splitmix_reference_values() {
        // The first outputs for seed 0 of the reference implementation (Vigna's splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
        let mut r = SplitMix64::new(7);
        assert!((0..1000).all(|_| r.below(6) < 6));
    }

    #[test]
    fn random_openings_are_reproducible_and_legal() {
        let rules = Rules::default();
        let a = random_openings::<Board>(20, 6, 42, &rules);
        assert_eq!(a, random_openings::<Board>(20, 6, 42, &rules));
        assert_ne!(a, random_openings::<Board>(20, 6, 43, &rules));
        for o in &a {
            assert_eq!(o.moves.len(), 6);
            let mut s = OwareState::new(o.start, rules);
            s.play_all(&o.moves).unwrap();
            assert!(!s.is_over());
        }
        // Not all the same.
        assert!(a.iter().any(|o| o.moves != a[0].moves));
    }

    #[test]
    fn openings_file_forms() {
        let text = "# comment\n\nF f B e\nFfBe # same\nstartpos moves F\n\
                    4-4-4-4-4-4-4-4-4-4-4-4-0-0-N moves a\n0-0-0-0-0-1-1-1-0-0-0-0-22-23-S\n";
        let o = parse_openings::<Board>(text, &Rules::default()).unwrap();
        assert_eq!(o.len(), 5);
        assert_eq!(o[0], o[1]);
        assert_eq!(o[2].moves.len(), 1);
        assert_eq!(o[3].start.side_to_move(), Side::North);
        assert!(o[4].moves.is_empty());
        assert!(matches!(
            parse_openings::<Board>("F F\n", &Rules::default()),
            Err(OpeningError::Illegal { line: 1, .. })
        ));
        assert!(matches!(
            parse_openings::<Board>("F x\n", &Rules::default()),
            Err(OpeningError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            parse_openings::<Board>("1-2-3\n", &Rules::default()),
            Err(OpeningError::Syntax { line: 1, .. })
        ));
        assert_eq!(
            parse_openings::<Board>("# none\n", &Rules::default()),
            Err(OpeningError::Empty)
        );
        // South captures its 25th seed: the game is over after the opening.
        let over = "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S moves F\n";
        assert!(matches!(
            parse_openings::<Board>(over, &Rules::default()),
            Err(OpeningError::Illegal { .. })
        ));
    }

    #[test]
    fn position_commands() {
        let start = Board::start(RuleSet::Abapa);
        assert_eq!(
            position_command(&start, &[], &Rules::default()).to_string(),
            "position startpos"
        );
        let moves = parse_moves(["Ff"]).unwrap();
        assert_eq!(
            position_command(&start, &moves, &Rules::default()).to_string(),
            "position startpos moves Ff"
        );
        let b: Board = "0-0-0-0-0-1-1-1-0-0-0-0-22-23-S".parse().unwrap();
        assert_eq!(
            position_command(&b, &moves[..1], &Rules::default()).to_string(),
            "position fen 0-0-0-0-0-1-1-1-0-0-0-0-22-23-S moves F"
        );
    }

    #[test]
    fn dobutsu_openings_and_position_commands() {
        use crate::dobutsu::{self, Position};
        let rules = dobutsu::Rules::default();
        let text = "b2b3 b4b3 # a move list from the start
                    startpos moves b2b3
                    gle/1c1/1C1/ELG[] b - - 0 1 moves b3b2
                    fen gle/1c1/1C1/ELG[] b
";
        let o = parse_openings::<Position>(text, &rules).unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o[0].moves.len(), 2);
        assert_eq!(o[1].moves, o[0].moves[..1]);
        assert_eq!(o[2].start, o[3].start);
        assert_eq!(o[2].moves.len(), 1);
        assert_eq!(
            position_command(&o[0].start, &o[0].moves, &rules).to_string(),
            "position startpos moves b2b3 b4b3"
        );
        assert_eq!(
            position_command(&o[2].start, &o[2].moves, &rules).to_string(),
            "position fen gle/1c1/1C1/ELG[] b - - 0 1 moves b3b2"
        );
        // Gote cannot move Sente's Chick; a word that is neither a move nor a position.
        assert!(matches!(
            parse_openings::<Position>("b2b3 b2b1\n", &rules),
            Err(OpeningError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            parse_openings::<Position>("nonsense\n", &rules),
            Err(OpeningError::Syntax { line: 1, .. })
        ));
        // Random openings never leave the side to move a Lion to capture.
        for o in random_openings::<Position>(50, 4, 9, &rules) {
            let mut s = GameState::new(o.start, rules);
            s.play_all(&o.moves).unwrap();
            assert!(!s.is_over() && s.position().proven().is_none());
            assert_eq!(o.moves.len(), 4);
        }
    }

    fn game(pair: usize, first_player_engine: usize, winner: Option<Side>) -> GameRecord<Board> {
        let diagram = match winner {
            Some(Side::South) => "0-0-0-0-0-0-0-0-0-0-0-0-25-23-N",
            Some(Side::North) => "0-0-0-0-0-0-0-0-0-0-0-0-23-25-S",
            None => "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
        };
        let end = OwareState::new(diagram.parse().unwrap(), Rules::default())
            .end()
            .unwrap();
        assert_eq!(end.winner, winner);
        GameRecord {
            number: 2 * pair + first_player_engine + 1,
            pair,
            first_player_engine,
            names: ["a".into(), "b".into()],
            opening: Opening {
                start: Board::start(RuleSet::Abapa),
                moves: vec![],
            },
            moves: vec![],
            notes: vec![],
            termination: Termination::Rules(end),
        }
    }

    #[test]
    fn tally_counts_games_pairs_and_faults() {
        let mut t = Tally::default();
        // Pair 0: engine 0 wins as South, draws as North -> 3 half points.
        t.record(&game(0, 0, Some(Side::South)));
        t.record(&game(0, 1, None));
        // Pair 1, out of order: engine 0 loses as North (South won), loses as South by forfeit.
        t.record(&game(1, 1, Some(Side::South)));
        let mut forfeit = game(1, 0, None);
        forfeit.termination = Termination::Forfeit {
            side: Side::South,
            fault: Fault::Timeout,
            detail: "x".into(),
        };
        assert_eq!(forfeit.result_string(), "0-1");
        assert!(forfeit
            .termination_string()
            .starts_with("forfeit: timeout by South (a): x"));
        t.record(&forfeit);
        assert_eq!(
            t.games,
            Trinomial {
                wins: 1,
                draws: 1,
                losses: 2
            }
        );
        assert_eq!(t.pairs.counts, [1, 0, 0, 1, 0]);
        assert_eq!(t.faults[0].get(&Fault::Timeout), Some(&1));
        assert!(t.faults[1].is_empty());
        assert_eq!(t.by_side, [2, 1, 1]);
        assert_eq!(t.unpaired(), 0);
        t.record(&game(2, 0, None));
        assert_eq!((t.pairs.pairs(), t.unpaired()), (2, 1));
    }
}
