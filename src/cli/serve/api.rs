//! The JSON API of the web board, generic over the game: the state of a game (board, legal
//! moves, the end and why), the exact values of a position and of each of its moves from the
//! game's tables, a review of a game's moves against those values, records in and out, and
//! searches (a best move, or a stream of analysis lines). docs/web.md documents every endpoint.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::Deserialize;
use tokio::sync::mpsc::UnboundedSender;

use perfectplay::engine::{Note, SearchChoices, SearchSetup, TableSlot};
use perfectplay::game::{
    find_option, quoted, GameState, Oracle, Outcome, Player, Settings, TableSettings, Tables,
};
use perfectplay::records::{pgn, PlayersEnd, Variation};
use perfectplay::search::{
    seed_hash, Clock, Control, Iteration, Level, Limits, Score, SearchHandler, SearchResult,
    Searcher,
};
use perfectplay::variant::Variant;

use perfectplay::variant::{VariantGame, VisitGame};

use super::board::{board_reply, counted_board};
use super::reply::{
    BestReply, EndReply, ImportReply, ImportedGame, LegalMove, LineReply, MoveValue, ProbeReply,
    ReviewReply, ReviewedMove, ScoreReply, SideLine, StateReply, ValueReply,
};

/// A request's query (`?variant=dobutsu&moves=b2b3+b4b3`): every parameter of every endpoint,
/// each optional and read as text; the endpoints check the values they use (docs/web.md).
#[derive(Deserialize, Default, Debug, Clone)]
pub struct Query {
    /// `abapa` (when absent), `awari` or `dobutsu`.
    pub variant: Option<String>,
    /// The start position: `startpos` or absent for the game's, else a diagram or FEN.
    pub position: Option<String>,
    /// The moves played from it, separated by blanks.
    pub moves: Option<String>,
    /// The search's level, 1 to 6.
    pub level: Option<String>,
    /// The search's lines, 1 to 500.
    pub multipv: Option<String>,
    /// The search's time, in ms.
    pub movetime: Option<String>,
    /// The search's deepest iteration.
    pub depth: Option<String>,
    /// The search's node budget.
    pub nodes: Option<String>,
    /// `true`: analysis until the page stops it.
    pub infinite: Option<String>,
    /// The first player's clock, in ms (a game clock: the search takes its share).
    pub wtime: Option<String>,
    /// The second player's clock, in ms.
    pub btime: Option<String>,
    /// The first player's increment per move, in ms.
    pub winc: Option<String>,
    /// The second player's increment per move, in ms.
    pub binc: Option<String>,
    /// The page's id: its new analysis stops its last.
    pub page: Option<String>,
    /// A record's first player.
    pub first: Option<String>,
    /// A record's second player.
    pub second: Option<String>,
    /// A record's event.
    pub event: Option<String>,
    /// A record's game ended by the players: the winner's name, or `none` for a draw.
    pub winner: Option<String>,
    /// How the players ended it: `resigned`, `on time`, `by agreement`.
    pub how: Option<String>,
    /// A record's whole tree of moves as PGN move text: the main line (`moves`) with its side
    /// lines in parentheses after the move each replaces (`b2b3 (c1c2 b3b2) b4b3`).
    pub tree: Option<String>,
}

/// An error reply: the HTTP status and the message of its JSON body (`{"error": ...}`).
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status (400 for bad input, 404 for an unknown path, ...).
    pub status: u16,
    /// What was wrong, in words.
    pub message: String,
}

impl ApiError {
    /// A 400 Bad Request with `message`.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }
}

/// What the server knows of one game: its settings (the `--option`s given) and its tables,
/// loaded when first asked for, or built in the background where the game can (the Dobutsu
/// solution, as the protocol's `AutoSolve` does).
pub struct GameSlot<G: VariantGame> {
    settings: Settings<G>,
    auto_solve: bool,
    tables: Mutex<TablesState<G>>,
}

/// The tables of a [`GameSlot`] and the last thing said about them.
struct TablesState<G: VariantGame> {
    loaded: bool,
    slot: TableSlot<G>,
    note: Option<Note>,
}

/// A note as the page shows it: the engine's words, but for what to do about a file cut short
/// (the server has no option to set again).
pub fn note_text(note: &Note) -> String {
    match note {
        Note::TablesCut { error } => format!(
            "error: {error}; the tables are dropped (restart the server once the file is whole): \
             values come from search only"
        ),
        other => other.to_string(),
    }
}

impl<G: VariantGame> GameSlot<G> {
    fn new(settings: Settings<G>, auto_solve: bool) -> GameSlot<G> {
        GameSlot {
            settings,
            auto_solve,
            tables: Mutex::new(TablesState {
                loaded: false,
                slot: TableSlot::default(),
                note: None,
            }),
        }
    }

    /// The settings (rules, weights, tables).
    pub fn settings(&self) -> &Settings<G> {
        &self.settings
    }

    /// The tables loaded (loading them the first time), and a note on them (what was loaded,
    /// why none was, or that a build runs); starts the build of missing default tables once,
    /// and drops tables whose file was cut short since it was mapped (a read of what is gone
    /// would kill the server). For a request that uses the game.
    pub fn tables(&self) -> (Option<Tables<G>>, Option<Note>) {
        self.refreshed(self.auto_solve)
    }

    /// As [`GameSlot::tables`], but starts no build: a build already running is followed (and
    /// its tables loaded once written). For a request that only reports on the game, so that
    /// looking at the server does not start the builds of games nobody plays.
    pub fn status(&self) -> (Option<Tables<G>>, Option<Note>) {
        self.refreshed(false)
    }

    fn refreshed(&self, build: bool) -> (Option<Tables<G>>, Option<Note>) {
        let mut state = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        if !state.loaded {
            state.loaded = true;
            state.note = state.slot.load(&self.settings);
        }
        let notes = state.slot.refresh(&self.settings, build);
        if let Some(last) = notes.into_iter().last() {
            state.note = Some(last);
        }
        let tables = state.slot.tables().cloned();
        if tables.is_none() && state.note.is_none() {
            state.note = Some(Note::NoTables);
        }
        (tables, state.note.clone())
    }
}

/// The games the server has met, by variant, each made on first use from the `--option`s.
pub struct Games {
    options: Vec<(String, String)>,
    auto_solve: bool,
    slots: Mutex<HashMap<Variant, Arc<dyn Any + Send + Sync>>>,
}

impl Games {
    /// The games under `options` (`NAME=VALUE` pairs of the games' own options, as the
    /// protocol's `--option`; each must be an option of some game); `auto_solve` builds missing
    /// default tables in the background.
    ///
    /// # Errors
    /// The first option no game declares, or whose value its game refuses.
    pub fn new(options: &[String], auto_solve: bool) -> Result<Games, String> {
        let mut pairs = Vec::new();
        for option in options {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| format!("--option {option}: expected NAME=VALUE"))?;
            pairs.push((name.trim().to_string(), value.trim().to_string()));
        }
        let games = Games {
            options: pairs,
            auto_solve,
            slots: Mutex::new(HashMap::new()),
        };
        for (name, _) in &games.options {
            let known = Variant::ALL
                .iter()
                .any(|&v| v.visit(HasOption { name: name.clone() }));
            if !known {
                return Err(format!(
                    "--option {name}: no game has this option (the games' options: protocol.md)"
                ));
            }
        }
        for variant in Variant::ALL {
            variant.visit(MakeSlot { games: &games })?;
        }
        Ok(games)
    }

    /// The slot of game `G` for `variant`.
    pub fn slot<G: VariantGame>(&self, variant: Variant) -> Arc<GameSlot<G>> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = slots
            .get(&variant)
            .cloned()
            .expect("every variant's slot is made by Games::new");
        slot.downcast::<GameSlot<G>>()
            .expect("the slot of a variant holds its game")
    }
}

/// Whether game `G` declares option `name`.
struct HasOption {
    name: String,
}

impl VisitGame for HasOption {
    type Output = bool;
    fn visit<G: VariantGame>(self, _rules: G::Rules) -> bool {
        find_option(&G::options(), &self.name).is_some()
    }
}

/// Makes the slot of a variant, with the options its game declares.
struct MakeSlot<'a> {
    games: &'a Games,
}

impl VisitGame for MakeSlot<'_> {
    type Output = Result<(), String>;
    fn visit<G: VariantGame>(self, rules: G::Rules) -> Result<(), String> {
        let mut settings = Settings::<G> {
            rules,
            weights: Default::default(),
            tables: TableSettings::default(),
        };
        let options = G::options();
        for (name, value) in &self.games.options {
            if let Some(decl) = find_option(&options, name) {
                decl.apply(&mut settings, value)
                    .map_err(|e| format!("--option {name}={value}: {e}"))?;
            }
        }
        // The variant the rules name is the slot's key.
        let variant = G::variant_of(&settings.rules);
        let slot: Arc<dyn Any + Send + Sync> =
            Arc::new(GameSlot::new(settings, self.games.auto_solve));
        self.games
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(variant, slot);
        Ok(())
    }
}

/// The variant a request names (`variant=`, abapa when absent; an empty name is refused).
pub fn variant_of(query: &Query) -> Result<Variant, ApiError> {
    match query.variant.as_deref() {
        None => Ok(Variant::Abapa),
        Some(name) => name
            .parse()
            .map_err(|e: perfectplay::variant::UnknownVariant| ApiError::bad(e.to_string())),
    }
}

/// The game a request names: `position` (`startpos` or absent for the start position, else a
/// diagram or FEN with its counters) and `moves` (the moves played from it, separated by
/// blanks), replayed under the game's rules; a move after the game's end is refused.
pub fn game_of<G: VariantGame>(query: &Query, rules: &G::Rules) -> Result<GameState<G>, ApiError> {
    let (start, counters) = match query.position.as_deref().map(str::trim) {
        None | Some("") | Some("startpos") => (G::start(rules), Default::default()),
        Some(text) => G::parse_position_with_counters(text, rules)
            .map_err(|e| ApiError::bad(format!("position: {e}")))?,
    };
    let words: Vec<&str> = query
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let moves = start
        .parse_moves(&words)
        .map_err(|e| ApiError::bad(format!("moves: {e}")))?;
    let mut game = GameState::with_counters(start, counters, rules.clone());
    game.play_all(&moves)
        .map_err(|(i, e)| ApiError::bad(format!("moves: move {} of the list: {e}", i + 1)))?;
    Ok(game)
}

/// What is known of a position's value without search, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Known {
    /// A result: with its distance in plies where the table knows it, and the final margin in
    /// seeds where it knows that (Oware).
    Result {
        /// The result.
        outcome: Outcome,
        /// Plies to the end under perfect play.
        plies: Option<u32>,
        /// The final margin in seeds, stores included.
        margin: Option<i32>,
    },
    /// Bounds of the final margin in seeds (Oware's `abapa` tables, whose values may depend on
    /// the history).
    Bounds {
        /// The least margin the side to move can force.
        low: i32,
        /// The most it can get.
        high: i32,
    },
}

impl Known {
    /// The same value seen from the other side, one ply earlier (the value of the move that
    /// leads to it).
    fn before_move(self) -> Known {
        match self {
            Known::Result {
                outcome,
                plies,
                margin,
            } => Known::Result {
                outcome: outcome.flip(),
                plies: plies.map(|p| p + 1),
                margin: margin.map(|m| -m),
            },
            Known::Bounds { low, high } => Known::Bounds {
                low: -high,
                high: -low,
            },
        }
    }

    /// The result, where the value decides it.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Known::Result { outcome, .. } => Some(outcome),
            Known::Bounds { low, .. } if low > 0 => Some(Outcome::Win),
            Known::Bounds { high, .. } if high < 0 => Some(Outcome::Loss),
            Known::Bounds { .. } => None,
        }
    }

    /// An order of values, best for the side to move highest: quicker wins, then larger
    /// margins, then slower losses.
    fn rank(self) -> i64 {
        match self {
            Known::Result {
                outcome,
                margin: Some(m),
                ..
            } => {
                let _ = outcome;
                i64::from(m) * 1000
            }
            Known::Result {
                outcome,
                plies,
                margin: None,
            } => {
                let p = i64::from(plies.unwrap_or(0));
                match outcome {
                    Outcome::Win => 10_000_000 - p,
                    Outcome::Draw => 0,
                    Outcome::Loss => -10_000_000 + p,
                }
            }
            Known::Bounds { low, high } => i64::from(low + high) * 500 - 1,
        }
    }

    /// The value in words (`win in 7 plies`, `win in 1 ply`, `draw`, `win by 3 seeds`,
    /// `win by 3 seeds in 9 plies`, `between -1 and +3 seeds`).
    fn text(self) -> String {
        match self {
            Known::Result {
                outcome,
                plies,
                margin,
            } => {
                let word = match outcome {
                    Outcome::Win => "win",
                    Outcome::Draw => "draw",
                    Outcome::Loss => "loss",
                };
                match (margin, plies) {
                    (Some(0), _) => "draw".to_string(),
                    (Some(m), Some(p)) if p > 0 => format!(
                        "{word} by {} in {}",
                        count(m.unsigned_abs(), "seed"),
                        count(p, "ply")
                    ),
                    (Some(m), _) => format!("{word} by {}", count(m.unsigned_abs(), "seed")),
                    (None, Some(p)) if outcome != Outcome::Draw => {
                        format!("{word} in {}", count(p, "ply"))
                    }
                    _ => word.to_string(),
                }
            }
            Known::Bounds { low, high } => format!("between {low:+} and {high:+} seeds"),
        }
    }

    /// The reply of docs/web.md: `result`, `plies`, `score` (exact margin), `low`/`high`
    /// (bounds), `text`.
    pub fn reply(self) -> ValueReply {
        let result = self.outcome().map(|o| match o {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        });
        let (plies, score, low, high) = match self {
            Known::Result { plies, margin, .. } => (plies, margin, margin, margin),
            Known::Bounds { low, high } => (None, None, Some(low), Some(high)),
        };
        ValueReply {
            result,
            plies,
            score,
            low,
            high,
            text: self.text(),
        }
    }
}

/// The value of `pos` without search: the game's end, a proven win (Dobutsu's Lion capture),
/// or the table's value; `None` when none knows it.
pub fn position_value<G: VariantGame>(pos: &G, oracle: Option<&dyn Oracle<G>>) -> Option<Known> {
    if let Some(outcome) = pos.outcome() {
        return Some(Known::Result {
            outcome,
            plies: Some(0),
            margin: pos.final_margin(),
        });
    }
    if let Some((outcome, plies)) = pos.proven() {
        return Some(Known::Result {
            outcome,
            plies: Some(u32::from(plies)),
            margin: None,
        });
    }
    let oracle = oracle?;
    if let Some((outcome, plies)) = oracle.probe(pos) {
        return Some(Known::Result {
            outcome,
            plies: Some(plies),
            margin: None,
        });
    }
    let (low, high) = oracle.margin_bounds(pos)?;
    Some(if low == high {
        Known::Result {
            outcome: match low {
                m if m > 0 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            },
            // The plies to the end where the table knows them (both sides keeping the value).
            plies: oracle.distance(pos).map(|(_, plies)| plies),
            margin: Some(low),
        }
    } else {
        Known::Bounds { low, high }
    })
}

/// Where a move of unknown value ranks among known ones ([`Known::rank`]).
const UNKNOWN_RANK: i64 = -5_000_000;

/// The value of each legal move of `game`'s position, best first: known wins and draws, then
/// the moves of unknown value (in the order of the legal moves), then known losses.
pub fn move_values<G: VariantGame>(
    game: &GameState<G>,
    oracle: Option<&dyn Oracle<G>>,
) -> Vec<(G::Move, G, Option<Known>)> {
    let mut moves: Vec<_> = game
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let (child, _) = game.position().play(mv);
            let value = position_value(&child, oracle).map(Known::before_move);
            (mv, child, value)
        })
        .collect();
    // A move of unknown value goes below every known draw or win, above the known losses.
    moves.sort_by_key(|(_, _, v)| std::cmp::Reverse(v.map_or(UNKNOWN_RANK, Known::rank)));
    moves
}

/// `n` and the noun, in the plural but for 1 (`1 ply`, `7 plies`, `2 seeds`).
fn count(n: u32, noun: &str) -> String {
    match (n, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

/// The position after the legal move `mv` of `game`, written with its move counters (Dobutsu's
/// FEN counts on from the game's; Oware's diagrams have none).
fn position_after<G: VariantGame>(game: &GameState<G>, mv: G::Move) -> String {
    let mut after = game.clone();
    match after.play_past_cycle_end(mv) {
        Ok(()) => after
            .position()
            .write_position_with_counters(after.counters()),
        Err(_) => game.position().play(mv).0.write_position(),
    }
}

/// The reply of an optional value (`null` when unknown).
fn value_reply(value: Option<Known>) -> Option<ValueReply> {
    value.map(Known::reply)
}

/// The player's name in the page (`South`, `Sente`, ...).
fn player_name<G: VariantGame>(player: G::Player) -> &'static str {
    G::PLAYER_NAMES[player.index()]
}

/// `GET /api/state`: the game, its board, legal moves (each with the position after it), and
/// the end with its reason in words.
pub fn state<G: VariantGame>(game: &GameState<G>) -> StateReply {
    let pos = game.position();
    let legal = game
        .legal_moves()
        .into_iter()
        .map(|mv| LegalMove {
            mv: mv.to_string(),
            position: position_after(game, mv),
        })
        .collect();
    StateReply {
        game: G::NAME,
        players: G::PLAYER_NAMES,
        start: game
            .start()
            .write_position_with_counters(game.start_counters()),
        moves: game.moves().iter().map(|m| m.to_string()).collect(),
        position: pos.write_position_with_counters(game.counters()),
        to_move: player_name::<G>(pos.to_move()),
        board: board_reply(pos.as_position()),
        legal,
        end: end_reply(game),
        ply: game.ply(),
    }
}

/// How `game` ended, `None` while it goes on.
fn end_reply<G: VariantGame>(game: &GameState<G>) -> Option<EndReply> {
    game.end().map(|end| EndReply {
        result: G::result_text(&end),
        winner: end.winner.map(player_name::<G>),
        reason: G::end_reason(&end),
        counted: counted_board(&end),
    })
}

/// `GET /api/probe`: the value of the position and of every legal move, best first, from the
/// game's tables (lila-tablebase's shape: the position, then the moves).
pub fn probe<G: VariantGame>(slot: &GameSlot<G>, game: &GameState<G>) -> ProbeReply {
    let (tables, note) = slot.tables();
    let oracle = tables.as_ref().map(|t| t.oracle.as_ref());
    let value = game
        .end()
        .filter(|end| end.reason.is_cycle_rule())
        .map(|end| Known::Result {
            outcome: match end.winner {
                None => Outcome::Draw,
                Some(w) if w == game.position().to_move() => Outcome::Win,
                Some(_) => Outcome::Loss,
            },
            plies: Some(0),
            margin: None,
        })
        .or_else(|| position_value(game.position(), oracle));
    let moves = move_values(game, oracle)
        .into_iter()
        .map(|(mv, _, v)| MoveValue {
            mv: mv.to_string(),
            position: position_after(game, mv),
            value: value_reply(v),
        })
        .collect();
    ProbeReply {
        position: game
            .position()
            .write_position_with_counters(game.counters()),
        to_move: player_name::<G>(game.position().to_move()),
        value: value_reply(value),
        moves,
        // What was loaded is said once, by /api/info; a position says only what concerns it
        // (a build running, an error).
        tables: note
            .as_ref()
            .filter(|n| !matches!(n, Note::Loaded { .. }))
            .map(note_text),
    }
}

/// What a move cost, from the values before and after it (mover's view): a result thrown
/// away, or seeds of margin lost; `None` when it kept the value or the values are not known.
fn cost(before: Option<Known>, after: Option<Known>) -> Option<String> {
    let (before, after) = (before?, after?);
    let order = |o: Outcome| match o {
        Outcome::Win => 2,
        Outcome::Draw => 1,
        Outcome::Loss => 0,
    };
    if let (Some(b), Some(a)) = (before.outcome(), after.outcome()) {
        if order(a) < order(b) {
            let lost = if b == Outcome::Win {
                "a win"
            } else {
                "the draw"
            };
            let now = match a {
                Outcome::Draw => "now a draw",
                _ => "now lost",
            };
            return Some(format!("threw away {lost} ({now})"));
        }
    }
    seeds_lost(Some(before), Some(after)).map(|n| format!("lost {n} seeds of margin"))
}

/// The seeds of final margin a move lost, from the exact margins before and after it (mover's
/// view); `None` when it lost none or a margin is not known.
fn seeds_lost(before: Option<Known>, after: Option<Known>) -> Option<i32> {
    match (before?, after?) {
        (
            Known::Result {
                margin: Some(b), ..
            },
            Known::Result {
                margin: Some(a), ..
            },
        ) if a < b => Some(b - a),
        _ => None,
    }
}

/// `GET /api/review`: every move of the game with the value of the position before it and the
/// value of the move played (both from the mover's view), and what the move cost where it threw
/// a value away.
pub fn review<G: VariantGame>(slot: &GameSlot<G>, game: &GameState<G>) -> ReviewReply {
    let (tables, note) = slot.tables();
    let oracle = tables.as_ref().map(|t| t.oracle.as_ref());
    let mut replay = GameState::with_counters(
        game.start().clone(),
        game.start_counters(),
        game.rules().clone(),
    );
    let mut plies = Vec::new();
    for &mv in game.moves() {
        let before = position_value(replay.position(), oracle);
        let mover = player_name::<G>(replay.position().to_move());
        let (child, _) = replay.position().play(mv);
        let after = position_value(&child, oracle).map(Known::before_move);
        plies.push(ReviewedMove {
            mv: mv.to_string(),
            player: mover,
            before: value_reply(before),
            after: value_reply(after),
            cost: cost(before, after),
            seeds_lost: seeds_lost(before, after),
        });
        // The moves were checked by game_of.
        let _ = replay.play(mv);
    }
    ReviewReply {
        moves: plies,
        tables: note.as_ref().map(note_text),
    }
}

/// `GET /api/record`: the game as a record of the game's format (OGN, PGN), with the players'
/// end (`winner`, `how`) where the rules have not ended it, and the side lines of `tree`.
///
/// # Errors
/// A `winner` that is no player (nor `none`), a `how` that is not a way players end a game, or
/// one given without the other; a `tree` that does not read, whose main line is not the game's
/// moves, or whose side line has a move the rules refuse.
pub fn record<G: VariantGame>(game: &GameState<G>, query: &Query) -> Result<String, ApiError> {
    let names = [
        query.first.as_deref().unwrap_or("?"),
        query.second.as_deref().unwrap_or("?"),
    ];
    let ended = match (query.winner.as_deref(), query.how.as_deref()) {
        (None, None) => None,
        (Some(winner), Some(how)) => {
            let winner =
                match winner {
                    "none" => None,
                    name => Some(G::PLAYER_NAMES.iter().position(|&p| p == name).ok_or_else(
                        || ApiError::bad(format!("winner: '{name}' is no player of the game")),
                    )?),
                };
            let ways: &[&str] = if winner.is_some() {
                &["resigned", "on time"]
            } else {
                &["by agreement"]
            };
            if !ways.contains(&how) {
                return Err(ApiError::bad(format!(
                    "how: '{how}' is not one of {}",
                    ways.join(", ")
                )));
            }
            Some(PlayersEnd {
                winner,
                how: how.to_string(),
            })
        }
        _ => return Err(ApiError::bad("winner and how go together")),
    };
    let variations = match query.tree.as_deref() {
        None => Vec::new(),
        Some(text) => tree_lines(game, text).map_err(|e| ApiError::bad(format!("tree: {e}")))?,
    };
    Ok(G::export_record(
        game,
        names,
        query.event.as_deref().unwrap_or("perfectplay board"),
        ended.as_ref(),
        &variations,
    ))
}

/// The side lines of `text`, the tree of `game` as PGN move text, each checked by the rules.
///
/// # Errors
/// Text that does not read as move text, or whose main line is not the game's moves, or whose
/// side line has a move the rules refuse.
fn tree_lines<G: VariantGame>(game: &GameState<G>, text: &str) -> Result<Vec<Variation>, String> {
    let mut read = pgn::parse(text).map_err(|e| e.to_string())?;
    if read.len() > 1 || read.first().is_some_and(|line| !line.tags.is_empty()) {
        return Err("move text only: moves, and side lines in parentheses".to_string());
    }
    let line = read.pop().unwrap_or_default();
    let main: Vec<String> = game.moves().iter().map(|mv| mv.to_string()).collect();
    let same = line.moves.len() == main.len()
        && line
            .moves
            .iter()
            .zip(&main)
            .all(|(word, mv)| G::read_move(word).is_some_and(|m| m.to_string() == *mv));
    if !same {
        return Err("its main line is not the game's moves".to_string());
    }
    let start = GameState::with_counters(
        game.start().clone(),
        game.start_counters(),
        game.rules().clone(),
    );
    side_lines(&start, &line.moves, &line.variations, None)
}

/// The most games one import reads.
pub const MAX_RECORDS: usize = 1000;

/// `POST /api/import`: the records of `text` in the game's format (at most [`MAX_RECORDS`]).
pub fn import<G: VariantGame>(text: &str, rules: &G::Rules) -> Result<ImportReply, ApiError> {
    // A file saved by Windows Notepad starts with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let records = G::import_records(text).map_err(|e| ApiError::bad(format!("record: {e}")))?;
    if records.is_empty() {
        return Err(ApiError::bad("record: no game in the text"));
    }
    // Each record's answer holds its tags and moves again: a body of many tiny records would
    // make an answer many times its size.
    if records.len() > MAX_RECORDS {
        return Err(ApiError::bad(format!(
            "record: {} games in the text; at most {MAX_RECORDS} at a time",
            records.len()
        )));
    }
    let mut out = Vec::new();
    for record in records {
        // Each record is replayed, so that the page gets only games it can show.
        let query = Query {
            position: record.start.clone(),
            moves: Some(record.moves.join(" ")),
            ..Query::default()
        };
        let variant_rules = match record.variant.parse::<Variant>().ok() {
            Some(v) => G::rules_of(v).unwrap_or_else(|| rules.clone()),
            None => rules.clone(),
        };
        let game = game_of::<G>(&query, &variant_rules)?;
        let start = game_of::<G>(
            &Query {
                moves: None,
                ..query
            },
            &variant_rules,
        )?;
        let variations = side_lines(&start, &record.moves, &record.variations, None)
            .map_err(|e| ApiError::bad(format!("variations: {e}")))?
            .into_iter()
            .map(SideLine::from)
            .collect();
        out.push(ImportedGame {
            end: end_reply(&game),
            variant: record.variant,
            position: record.start,
            moves: record.moves,
            variations,
            tags: record.tags.into_iter().collect(),
        });
    }
    Ok(ImportReply { records: out })
}

/// The side lines `variations` of the line `moves` played from `start`, each replayed by the
/// rules from the position before the move it replaces, its moves written in the protocol's
/// notation (comments left out); `replacing` names the line itself when
/// it is a side line (the 1-based ply and the word of the move it replaces), for the error.
///
/// # Errors
/// The first move of any line that does not read or that the rules refuse, named by its ply in
/// the game and the side line it is in.
fn side_lines<G: VariantGame>(
    start: &GameState<G>,
    moves: &[String],
    variations: &[Variation],
    replacing: Option<(usize, &str)>,
) -> Result<Vec<Variation>, String> {
    let mut out = Vec::new();
    let mut state = start.clone();
    let first_ply = replacing.map_or(0, |(ply, _)| ply - 1);
    for (k, word) in moves.iter().enumerate() {
        let ply = first_ply + k + 1;
        for side in variations.iter().filter(|v| v.at == k) {
            let checked = side_lines(&state, &side.moves, &side.variations, Some((ply, word)))?;
            let moves: Vec<String> = side
                .moves
                .iter()
                .filter_map(|w| G::read_move(w).map(|mv| mv.to_string()))
                .collect();
            out.push(Variation {
                at: k,
                comments: vec![None; moves.len()],
                moves,
                variations: checked,
            });
        }
        let refused = |reason: String| {
            let within = replacing.map_or(String::new(), |(ply, word)| {
                format!(" in the side line replacing move {ply} ({})", quoted(word))
            });
            format!("move {ply} ({}){within} refused: {reason}", quoted(word))
        };
        let mv = G::read_move(word).ok_or_else(|| refused("not a move of the game".into()))?;
        state.play(mv).map_err(|e| refused(e.to_string()))?;
    }
    Ok(out)
}

/// How a request asks to search: the level, the lines, the limits.
pub struct SearchParams {
    level: Level,
    lines: usize,
    limits: Limits,
    no_limit_given: bool,
}

impl SearchParams {
    /// Whether the request gave no limit and did not ask for `infinite`: the search runs until
    /// stopped, and the server stops it at its own limit.
    pub fn no_limit_given(&self) -> bool {
        self.no_limit_given
    }
}

/// The time a search on a game clock keeps back on every move for the page: the request's
/// round trip and the page's drawing, which its clock counts and the search does not see.
const CLOCK_OVERHEAD_MS: u64 = 100;

/// The search a request asks for: `level` (1-6, default 6), `multipv` (1-500, default 1),
/// `movetime` (ms), `depth`, `nodes`, a game clock (`wtime`, `btime`: each player's time left,
/// `winc`, `binc`: their increments, in ms), `infinite` (`true` or `false`); with no limit,
/// `default_movetime` (none: until stopped).
pub fn search_params(
    query: &Query,
    default_movetime: Option<u64>,
) -> Result<SearchParams, ApiError> {
    fn number(
        text: &Option<String>,
        name: &str,
        min: u64,
        max: u64,
    ) -> Result<Option<u64>, ApiError> {
        let Some(text) = text.as_deref().filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        match text.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(ApiError::bad(format!(
                "{name}: '{text}' is not a number from {min} to {max}"
            ))),
        }
    }
    let level = number(&query.level, "level", 1, u64::from(Level::FULL))?.unwrap_or(6) as u8;
    let lines = number(
        &query.multipv,
        "multipv",
        1,
        perfectplay::protocol::MAX_MULTIPV as u64,
    )?
    .unwrap_or(1) as usize;
    let infinite = match query.infinite.as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "infinite: '{other}' is not true or false"
            )))
        }
    };
    const DAY_MS: u64 = 86_400_000;
    let time_ms = [
        number(&query.wtime, "wtime", 0, DAY_MS)?,
        number(&query.btime, "btime", 0, DAY_MS)?,
    ];
    let increment_ms = [
        number(&query.winc, "winc", 0, DAY_MS)?,
        number(&query.binc, "binc", 0, DAY_MS)?,
    ];
    let clock = (time_ms.iter().any(Option::is_some)).then(|| Clock {
        time_ms: time_ms.map(|t| t.map(|t| t as i64)),
        increment_ms: increment_ms.map(|i| i.unwrap_or(0)),
        moves_to_go: None,
        overhead_ms: CLOCK_OVERHEAD_MS,
    });
    if clock.is_none() && increment_ms.iter().any(Option::is_some) {
        return Err(ApiError::bad(
            "winc, binc: an increment needs wtime or btime",
        ));
    }
    let mut limits = Limits {
        depth: number(&query.depth, "depth", 1, 100)?.map(|d| d as u32),
        nodes: number(&query.nodes, "nodes", 1, u64::MAX)?,
        movetime: number(&query.movetime, "movetime", 1, 3_600_000)?.map(Duration::from_millis),
        clock,
        infinite,
    };
    let mut no_limit_given = false;
    if limits.is_empty() {
        match default_movetime {
            Some(ms) => limits.movetime = Some(Duration::from_millis(ms)),
            None => {
                limits.infinite = true;
                no_limit_given = true;
            }
        }
    }
    Ok(SearchParams {
        level: Level::new(level),
        lines,
        limits,
        no_limit_given,
    })
}

/// What a running search sends to the request that streams it.
pub enum SearchEvent {
    /// An `info` event: one line of one iteration.
    Info(LineReply),
    /// A `note`: something to tell the user (tables being built, the root outside them).
    Note(String),
    /// The `bestmove` event, the last.
    Best(BestReply),
}

/// The reply of a score: `{"cp": 35}` or `{"mate": -4}`.
fn score_reply(score: Score) -> ScoreReply {
    match score {
        Score::Cp(cp) => ScoreReply::Cp(cp),
        Score::Mate(n) => ScoreReply::Mate(n),
    }
}

/// Moves in the protocol's notation.
fn words<M: std::fmt::Display>(moves: &[M]) -> Vec<String> {
    moves.iter().map(M::to_string).collect()
}

/// Sends each line of each iteration as an [`SearchEvent::Info`].
struct EventSender<G: VariantGame> {
    tx: UnboundedSender<SearchEvent>,
    /// Whether the best line's last score was the tables' exact value.
    exact: bool,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: VariantGame> SearchHandler<G::Move> for EventSender<G> {
    fn iteration(&mut self, info: &Iteration<G::Move>) {
        let ms = info.elapsed.as_millis() as u64;
        let wdl = perfectplay::engine::wdl(info.score, info.exact, &G::wdl_model());
        if info.multipv == 1 {
            self.exact = info.exact;
        }
        let _ = self.tx.send(SearchEvent::Info(LineReply {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score: score_reply(info.score),
            wdl,
            exact: info.exact,
            nodes: info.nodes,
            nps: info.nodes * 1000 / ms.max(1),
            time: ms,
            tbhits: info.tbhits,
            pv: words(&info.pv),
        }));
    }
}

/// The reply of a search's result (`bestmove`); `exact`: its score is the tables' value.
fn best_reply<G: VariantGame>(result: &SearchResult<G::Move>, exact: bool) -> BestReply {
    BestReply {
        mv: result.best_move.map(|m| m.to_string()),
        score: Some(score_reply(result.score)),
        wdl: Some(perfectplay::engine::wdl(
            result.score,
            exact,
            &G::wdl_model(),
        )),
        depth: result.depth,
        nodes: result.nodes,
        pv: words(&result.pv),
    }
}

/// Searches `game` as `params` ask on this thread, sending the lines and finally the best move
/// to `tx`; `control` stops it. A game that is over gets a `bestmove` of `null` at once.
pub fn search<G: VariantGame>(
    slot: &GameSlot<G>,
    game: &GameState<G>,
    params: &SearchParams,
    hash_mb: usize,
    threads: usize,
    control: &Control,
    tx: &UnboundedSender<SearchEvent>,
) {
    if game.legal_moves().is_empty() {
        let _ = tx.send(SearchEvent::Best(BestReply {
            mv: None,
            score: None,
            wdl: None,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        }));
        return;
    }
    let full = params.level.number() == Level::FULL;
    let (tables, note) = if full { slot.tables() } else { (None, None) };
    if let Some(note) = note.filter(|n| n.is_building() || n.is_error()) {
        let _ = tx.send(SearchEvent::Note(note_text(&note)));
    }
    let choices = SearchChoices {
        level: params.level,
        lines: params.lines,
        seed: seed_hash(""),
        searchmoves: Vec::new(),
    };
    // The page says itself where a position is outside the tables: the setup's notes are not
    // sent.
    let (setup, _notes) = SearchSetup::new(game, slot.settings(), tables.as_ref(), choices);
    let mut searcher = Searcher::<G>::with_hash_mb(hash_mb);
    let mut handler = EventSender::<G> {
        tx: tx.clone(),
        exact: false,
        game: std::marker::PhantomData,
    };
    let result = setup.run(
        &mut searcher,
        threads,
        &params.limits,
        control,
        &mut handler,
    );
    let _ = tx.send(SearchEvent::Best(best_reply::<G>(&result, handler.exact)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of a value: plies counted in the singular and the plural, margins in seeds.
    #[test]
    fn values_in_words() {
        let result = |outcome, plies, margin| Known::Result {
            outcome,
            plies,
            margin,
        };
        assert_eq!(result(Outcome::Win, Some(1), None).text(), "win in 1 ply");
        assert_eq!(
            result(Outcome::Loss, Some(2), None).text(),
            "loss in 2 plies"
        );
        assert_eq!(result(Outcome::Draw, Some(8), None).text(), "draw");
        assert_eq!(result(Outcome::Win, None, Some(3)).text(), "win by 3 seeds");
        assert_eq!(
            result(Outcome::Win, Some(9), Some(3)).text(),
            "win by 3 seeds in 9 plies"
        );
        assert_eq!(
            result(Outcome::Loss, Some(0), Some(-2)).text(),
            "loss by 2 seeds"
        );
        assert_eq!(
            result(Outcome::Loss, None, Some(-1)).text(),
            "loss by 1 seed"
        );
        assert_eq!(
            Known::Bounds { low: -1, high: 3 }.text(),
            "between -1 and +3 seeds"
        );
    }
}
