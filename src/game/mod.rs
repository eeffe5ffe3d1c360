//! What the search, the protocol and the referee need of a game, and the pieces they share (the
//! game in progress, options, and what a game's exact tables offer the search: [`Oracle`]).
//!
//! A game implements [`Game`] on its position type (a small value: Oware's is 16 bytes) and
//! [`Notation`] for reading and writing it. Everything above that (negamax, the protocol session,
//! [`GameState`] with its cycle rule, [`perft`]) is written once against these traits. Oware
//! ([`crate::oware`]) and Dobutsu Shogi ([`crate::dobutsu`]) implement them.

mod options;
mod state;
mod tables;

pub use options::{
    find_option, quoted, OptionDecl, OptionError, OptionKind, OptionValue, MAX_QUOTED_CHARS,
};
pub use state::{EndReason, GameEnd, GameState, PlayError};
pub use tables::{data_dir, Oracle, TableSettings, Tables, TablesBuild};

use std::fmt::{Debug, Display};

/// Result of a finished game, seen from the side to move in the final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// Neither side has won.
    Draw,
    /// The side to move has lost.
    Loss,
}

impl Outcome {
    /// The same outcome seen from the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// One of the two players of a game: Oware's South and North, Dobutsu's Sente and Gote.
/// `Display` gives the name records and the `d` command use.
pub trait Player: Copy + Eq + Debug + Display + Send + Sync + 'static {
    /// The player who moves first from the start position.
    const FIRST: Self;
    /// 0 for the first player, 1 for the second.
    fn index(self) -> usize;
    /// The other player.
    fn opponent(self) -> Self;
}

/// The two move counters a FEN carries after the position (chess's and Fairy-Stockfish's
/// convention): plies since the last capture (the halfmove clock) and the move number, from 1,
/// incremented after the second player's move. Dobutsu FENs carry them; an Oware diagram has none
/// (`0 1` then). The rules use neither: they are kept to be written back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveCounters {
    /// Plies since the last capture.
    pub halfmove: u32,
    /// The move number, from 1.
    pub fullmove: u32,
}

impl Default for MoveCounters {
    /// `0 1`, a game's start.
    fn default() -> Self {
        MoveCounters {
            halfmove: 0,
            fullmove: 1,
        }
    }
}

/// A model of a game's result from a heuristic score (`UCI_ShowWDL`), after the one Stockfish
/// fits to its games: with `x` the score in the evaluation's units, the side to move wins with
/// probability `1 / (1 + exp((mid - x) / spread))` and loses with `1 / (1 + exp((mid + x) /
/// spread))`; the rest is the draw. Each game fits its own to self-play games
/// (`examples/fit_wdl.rs`, docs/wdl.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// The score at which a win is as likely as not, in the evaluation's units.
    pub mid: f64,
    /// How fast the win probability grows with the score, in the evaluation's units.
    pub spread: f64,
}

impl WdlModel {
    /// Win, draw and loss per mille for the side to move at heuristic score `x` (they add up to
    /// 1000).
    pub fn wdl(&self, x: i32) -> [u32; 3] {
        let x = f64::from(x);
        let win = 1000.0 / (1.0 + ((self.mid - x) / self.spread).exp());
        let loss = 1000.0 / (1.0 + ((self.mid + x) / self.spread).exp());
        let (win, loss) = (win.round() as u32, loss.round() as u32);
        [win, 1000 - win - loss, loss]
    }
}

/// What a move did, as [`Game::play`] reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    /// The move can never be undone by later moves, so no position before it can repeat: it
    /// restarts the cycle rule's count (an Oware capture; nothing in Dobutsu Shogi).
    pub irreversible: bool,
    /// The move changes the material balance, so a leaf should not be judged right after it:
    /// quiescence searches these moves and late-move reductions spare them (an Oware capture; a
    /// Dobutsu capture or promotion).
    pub noisy: bool,
    /// What the move gained for the mover where the game counts it (Oware: seeds captured; 0 in
    /// Dobutsu). Orders the first iteration's root moves.
    pub reward: u8,
}

/// How far the search prunes a game's tree beyond alpha-beta: the game's choice
/// ([`Game::PRUNING`]), as what pays in one game costs in another (docs/search.md has the
/// matches that chose each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Reverse futility pruning (a static null move): a node off the principal variation, not
    /// in check, with at most `futility_depth` plies left, whose static evaluation stands this
    /// margin (in evaluation units) a ply of depth left above beta fails high without search,
    /// with its evaluation. 0: off.
    pub futility_margin: i32,
    /// See `futility_margin`, in plies.
    pub futility_depth: i32,
    /// Late move pruning: at a node off the principal variation, not in check, with `d` of at
    /// most 3 plies left, the quiet moves (not noisy, not checking) after the first
    /// `late_moves + d * d` in search order are not searched once a move has a score. 0: off.
    pub late_moves: i32,
}

impl Pruning {
    /// Alpha-beta's cut-offs and late move reductions alone.
    pub const NONE: Pruning = Pruning {
        futility_margin: 0,
        futility_depth: 0,
        late_moves: 0,
    };
}

/// The cycle rule shared by the games: a game ends when the same position (and side to move) has
/// occurred `repetitions` times since the last irreversible move, or when `no_progress_limit` plies
/// have been played without one. What the game's value is then is up to the game
/// ([`Game::cycle_outcome`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CycleRule {
    /// Occurrences of one position (counting the current one) that end the game; at least 2.
    pub repetitions: u32,
    /// Plies without an irreversible move that end the game; 0 disables the limit.
    pub no_progress_limit: u32,
}

impl Default for CycleRule {
    /// Three occurrences, 500 plies: the Abapa tournament rule as the Aualé GUI applies it.
    fn default() -> Self {
        CycleRule {
            repetitions: 3,
            no_progress_limit: 500,
        }
    }
}

/// The rules, evaluation weights and tables of a game, as the options set them.
pub struct Settings<G: Game> {
    /// The rule set games are played under.
    pub rules: G::Rules,
    /// The evaluation weights.
    pub weights: G::Weights,
    /// Where the game's exact tables are ([`Game::load_tables`]).
    pub tables: TableSettings,
}

// By hand: derived impls would ask the position type itself for `Default` and the others.
impl<G: Game> Default for Settings<G> {
    fn default() -> Self {
        Settings {
            rules: G::Rules::default(),
            weights: G::Weights::default(),
            tables: TableSettings::default(),
        }
    }
}

impl<G: Game> Clone for Settings<G> {
    fn clone(&self) -> Self {
        Settings {
            rules: self.rules.clone(),
            weights: self.weights.clone(),
            tables: self.tables.clone(),
        }
    }
}

impl<G: Game> PartialEq for Settings<G> {
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules && self.weights == other.weights && self.tables == other.tables
    }
}

impl<G: Game> Debug for Settings<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("rules", &self.rules)
            .field("weights", &self.weights)
            .field("tables", &self.tables)
            .finish()
    }
}

/// A two-player, zero-sum, perfect-information game position, as the search sees it.
///
/// Positions are values: [`Game::play`] returns a new position and never changes `self`, so the
/// search can keep the parent on its stack.
pub trait Game: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// One move; `Display` gives the game's notation for one move.
    type Move: Copy + Eq + Debug + Display + Send + Sync + 'static;
    /// The players.
    type Player: Player;
    /// The rule set (Oware's variant and cycle rule; Dobutsu's cycle rule).
    type Rules: Clone + Debug + Default + PartialEq + Send + Sync + 'static;
    /// The evaluation weights ([`Game::evaluate`]), settable at run time.
    type Weights: Clone + Debug + Default + PartialEq + Send + Sync + 'static;
    /// What the static evaluations of a position's children share ([`Game::eval_parent`],
    /// [`Game::evaluate_child`]); `()` for a game without.
    type EvalParent;

    /// The game's name in records and messages (`oware`, `dobutsu`).
    const NAME: &'static str;

    /// The model of the result from a heuristic score (`UCI_ShowWDL`) fitted to the game's
    /// self-play ([`WdlModel`]). The default, for a game without a fit: even at 0, a win about
    /// three times in four at 100 units.
    fn wdl_model() -> WdlModel {
        WdlModel {
            mid: 0.0,
            spread: 90.0,
        }
    }

    /// The start position under `rules`.
    fn start(rules: &Self::Rules) -> Self;

    /// The same position for play under `rules`, where the position carries rules of its own
    /// (Oware's variant decides feeding and grand slams). The default is the position unchanged.
    fn under_rules(self, _rules: &Self::Rules) -> Self {
        self
    }

    /// The cycle rule of a rule set.
    fn cycle_rule(rules: &Self::Rules) -> CycleRule;

    /// The options this game declares (rules, weights, tables), each with its type, range,
    /// default and setter: the protocol lists them for `uci` and sets them through them.
    fn options() -> Vec<OptionDecl<Settings<Self>>>;

    /// Loads the exact tables `tables` names (no path: the game's default place) for play under
    /// `rules` (called when the game is selected, with its variant, and when `tables` changes).
    /// `Ok(None)` when the game has none, or none is in the default place.
    ///
    /// # Errors
    /// A message naming the file and why it was refused (missing, truncated, corrupt, of another
    /// game); the engine then plays by search. The default loads nothing.
    fn load_tables(
        _tables: &TableSettings,
        _rules: &Self::Rules,
    ) -> Result<Option<Tables<Self>>, String> {
        Ok(None)
    }

    /// The work that writes the game's tables for play under `rules` to their default place,
    /// when `tables` asks for the default place and they are not all there yet (Dobutsu: the
    /// whole solution; Oware: the tablebase's layers up to what the machine builds in a few
    /// minutes); `None` (the default) when the game has no such tables or they are there.
    fn default_tables_build(_tables: &TableSettings, _rules: &Self::Rules) -> Option<TablesBuild> {
        None
    }

    /// Appends the legal moves of this position to `out` (which the caller clears). Empty when the
    /// game has ended by the rules; callers check [`Game::outcome`] first, since a position whose
    /// game is over may still list moves (an Oware store above 24 ends the game whatever the
    /// houses hold).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move: the new position and what the move did.
    fn play(&self, mv: Self::Move) -> (Self, Step);

    /// The outcome if the game has ended by the position alone (not counting the cycle rule),
    /// seen from the side to move: no move may be played then.
    fn outcome(&self) -> Option<Outcome>;

    /// The value of the position if it is known without search, seen from the side to move, with
    /// the plies to the end: the game's end ([`Game::outcome`], 0 plies), or a win the mover takes
    /// with its next move (Dobutsu Shogi's Lion capture, 1 ply). The search scores such positions
    /// at once. The default is [`Game::outcome`].
    #[inline]
    fn proven(&self) -> Option<(Outcome, u8)> {
        self.outcome().map(|o| (o, 0))
    }

    /// Whether the side to move's royal piece stands attacked (Dobutsu Shogi: its Lion, which
    /// must escape or the attacker be taken): the search extends a move into such a position by
    /// a ply (a check extension), so that a threat on the Lion met at the horizon is answered.
    /// The default (Oware, which has none) is false.
    #[inline]
    fn in_check(&self) -> bool {
        false
    }

    /// The outcome when the cycle rule ends the game in this position, seen from the side to move.
    fn cycle_outcome(&self) -> Outcome;

    /// Static evaluation from the side to move, in centipawn-like units (in Oware 100 = one seed of
    /// expected margin).
    fn evaluate(&self, weights: &Self::Weights) -> i32;

    /// What evaluating several children of this position can share, worth making when more
    /// than two of them will be evaluated; the default, `None`, has them evaluated one by one.
    #[inline]
    fn eval_parent(&self, _weights: &Self::Weights) -> Option<Self::EvalParent> {
        None
    }

    /// [`Game::evaluate`] of this position, reached by one move from the position `parent` was
    /// made of ([`Game::eval_parent`] with the same `weights`): the same value, sooner.
    #[inline]
    fn evaluate_child(&self, _parent: &Self::EvalParent, weights: &Self::Weights) -> i32 {
        self.evaluate(weights)
    }

    /// A 64-bit key of everything the game's value depends on (Oware: houses, stores, side to
    /// move, variant). Used for repetition detection and the transposition table.
    fn key(&self) -> u64;

    /// The player to move.
    fn to_move(&self) -> Self::Player;

    /// How the search prunes this game's tree beyond alpha-beta ([`Pruning`]); the default,
    /// [`Pruning::NONE`].
    const PRUNING: Pruning = Pruning::NONE;

    /// A cheap test whether `mv` may be noisy ([`Step::noisy`]): it must never say no to a move
    /// that is, and may say yes to one that is not. Quiescence plays only these moves. The default
    /// says yes to every move.
    #[inline]
    fn may_be_noisy(&self, _mv: Self::Move) -> bool {
        true
    }
}

/// Reading and writing a game's positions and moves, as the protocol and the records do.
pub trait Notation: Game {
    /// Why a position or a move could not be read.
    type Error: std::error::Error + Clone + Send + Sync + 'static;

    /// What the `d` reply calls the plies the cycle rule counts (Oware: since the last capture).
    const CYCLE_COUNT: &'static str;

    /// Reads a position (Oware's diagram `4-4-...-0-0-S`, Dobutsu's FEN) for play under `rules`.
    ///
    /// # Errors
    /// [`Notation::Error`] for text that is not a position.
    fn parse_position(text: &str, rules: &Self::Rules) -> Result<Self, Self::Error>;

    /// Writes the position as [`Notation::parse_position`] reads it.
    fn write_position(&self) -> String;

    /// Reads a position with the move counters its text carries ([`MoveCounters`]; the default
    /// `0 1` where the notation has none, as in Oware's diagrams).
    ///
    /// # Errors
    /// As [`Notation::parse_position`], and for counters that are not numbers.
    fn parse_position_with_counters(
        text: &str,
        rules: &Self::Rules,
    ) -> Result<(Self, MoveCounters), Self::Error> {
        Self::parse_position(text, rules).map(|p| (p, MoveCounters::default()))
    }

    /// Writes the position with `counters`, where the notation carries them (the default writes
    /// [`Notation::write_position`]).
    fn write_position_with_counters(&self, _counters: MoveCounters) -> String {
        self.write_position()
    }

    /// Reads the words of a move list played from this position (Oware also takes moves run
    /// together). Oware checks only the notation here, not legality; Dobutsu Shogi reads each
    /// word in the position the moves before it lead to (a step's piece and a promotion are the
    /// board's), which checks its legality there too.
    ///
    /// # Errors
    /// [`Notation::Error`] naming the first word that is not a move (Dobutsu: not a legal one).
    fn parse_moves(&self, words: &[&str]) -> Result<Vec<Self::Move>, Self::Error>;

    /// Writes a sequence of moves (a principal variation, a move list) as the game's GUIs read it
    /// (Oware: run together; Dobutsu: separated by spaces).
    fn write_moves(moves: &[Self::Move]) -> String;

    /// A drawing of the position for the `d` command (several lines, no trailing newline), with
    /// the game's move `counters` where the notation writes them.
    fn diagram(&self, counters: MoveCounters) -> String;

    /// Describes how a game ended, after its result string in the `d` reply: the reason in
    /// parentheses, then what the game adds (Oware: the final stores).
    fn describe_end(end: &GameEnd<Self>) -> String;
}

/// Counts the leaves of the move tree `depth` plies deep (perft). A position whose game has ended
/// ([`Game::outcome`]) has no moves and contributes nothing below depth 0; the cycle rule is not
/// applied (perft has no history).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    perft_on(pos, depth, &mut Vec::with_capacity(64))
}

/// [`perft`] with one move stack for the whole tree (each node's moves above its ancestors'), so
/// no node allocates.
fn perft_on<G: Game>(pos: &G, depth: u32, moves: &mut Vec<G::Move>) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.outcome().is_some() {
        return 0;
    }
    let base = moves.len();
    pos.legal_moves(moves);
    let count = if depth == 1 {
        (moves.len() - base) as u64
    } else {
        let mut total = 0;
        for i in base..moves.len() {
            let mv = moves[i];
            total += perft_on(&pos.play(mv).0, depth - 1, moves);
        }
        total
    };
    moves.truncate(base);
    count
}

/// Perft split by root move: each legal move with the leaves below it, `depth` plies deep in all;
/// the counts add up to [`perft`]. Empty for depth 0 or a finished game.
pub fn perft_divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    if depth == 0 || pos.outcome().is_some() {
        return Vec::new();
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| (m, perft(&pos.play(m).0, depth - 1)))
        .collect()
}

/// The deepest perft the command line accepts, in plies: far beyond what finishes (Oware's tree
/// grows about sixfold per ply), and shallow enough that the recursion never nears the stack's end.
pub const MAX_PERFT_DEPTH: u32 = 64;
