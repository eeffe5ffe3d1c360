//! A game in progress: the position plus the history the cycle rule needs, and how the game ended.

use std::fmt;

use crate::game::{CycleRule, Game, Outcome};
use crate::oware::board::outcome_of;
use crate::oware::{Board, Move, Side, Variant};

/// The rules a game is played under: the variant and the cycle rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Abapa (default) or Awari.
    pub variant: Variant,
    /// The cycle rule: repetitions of a position since the last capture that end the game (3 by
    /// default; some GUIs end at the first repetition, 2), and plies without capture that end it
    /// (500 by default; 0 disables).
    pub cycle: CycleRule,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            variant: Variant::Abapa,
            cycle: CycleRule::default(),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A player captured more than 24 seeds.
    Majority,
    /// Both players captured 24.
    EvenSplit,
    /// The player to move had no legal move (could not feed the opponent, or had no seeds); each
    /// player took the seeds of their own row.
    NoMoves,
    /// The same position occurred `Repetitions` times since the last capture.
    Repetition,
    /// `NoCaptureLimit` plies passed without a capture.
    NoCaptureLimit,
}

impl EndReason {
    /// Whether the cycle rule ended the game ([`EndReason::Repetition`] or
    /// [`EndReason::NoCaptureLimit`]): the position itself may still have legal moves.
    pub fn is_cycle_rule(self) -> bool {
        matches!(self, EndReason::Repetition | EndReason::NoCaptureLimit)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Majority => "a player captured more than 24 seeds",
            EndReason::EvenSplit => "both players captured 24 seeds",
            EndReason::NoMoves => {
                "the player to move cannot move or feed; each player takes their own row"
            }
            EndReason::Repetition => "cycle rule: the position repeated",
            EndReason::NoCaptureLimit => "cycle rule: no capture within the ply limit",
        })
    }
}

/// How a game ended: the reason, the final stores (`[South, North]`, with the seeds left on the
/// board shared out by the rule that ended it) and the winner (`None` for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Why it ended.
    pub reason: EndReason,
    /// Final seed counts, South first.
    pub stores: [u8; 2],
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
}

impl GameEnd {
    fn new(reason: EndReason, stores: [u8; 2]) -> GameEnd {
        let winner = match outcome_of(stores, Side::South) {
            Outcome::Win => Some(Side::South),
            Outcome::Loss => Some(Side::North),
            Outcome::Draw => None,
        };
        GameEnd {
            reason,
            stores,
            winner,
        }
    }

    /// The result as in game records: `1-0` (South won), `0-1`, `1/2-1/2`.
    pub fn result_string(&self) -> &'static str {
        match self.winner {
            Some(Side::South) => "1-0",
            Some(Side::North) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game had already ended.
    #[error("move {mv} refused: the game is over ({reason}, {result})")]
    GameOver {
        /// The refused move.
        mv: Move,
        /// Why the game ended.
        reason: EndReason,
        /// Its result string.
        result: &'static str,
    },
    /// The move is not among the legal moves.
    #[error("illegal move {mv} in {board} (legal: {legal})")]
    Illegal {
        /// The refused move.
        mv: Move,
        /// The position's diagram.
        board: String,
        /// The legal moves, run together.
        legal: String,
    },
}

/// A game from a set-up position: the current board, the moves played, the keys of the positions
/// since the last capture (for the cycle rule) and, once over, how it ended.
#[derive(Clone, Debug)]
pub struct GameState {
    rules: Rules,
    start: Board,
    board: Board,
    moves: Vec<Move>,
    /// Keys of the positions since the last capture, the current one last.
    since_capture: Vec<u64>,
    end: Option<GameEnd>,
}

impl GameState {
    /// A game from `start` (its variant is replaced by the rules' variant). A start that is
    /// already over (a store above 24, 24-24, or a mover without a legal move) is a finished game.
    pub fn new(start: Board, rules: Rules) -> GameState {
        let start = start.with_variant(rules.variant);
        let mut g = GameState {
            rules,
            start,
            board: start,
            moves: Vec::new(),
            since_capture: vec![start.key()],
            end: None,
        };
        g.end = g.position_end();
        g
    }

    /// The rules of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The set-up position.
    pub fn start(&self) -> Board {
        self.start
    }

    /// The current position.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The moves played from the set-up position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of moves played from the set-up position.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Keys ([`Board::key`]) of the positions since the last capture, oldest first, current last.
    pub fn keys_since_capture(&self) -> &[u64] {
        &self.since_capture
    }

    /// How the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The legal moves (none once the game is over, also by the cycle rule; see
    /// [`GameState::moves_past_cycle_end`] for the moves that can still be played then).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.end.is_some() {
            return Vec::new();
        }
        self.board.legal_moves().as_slice().to_vec()
    }

    /// Plays `mv`, then applies the end rules.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game had ended, [`PlayError::Illegal`] if `mv` is not legal.
    /// The state is unchanged on error.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        self.play_checked(mv, false)
    }

    /// Plays several moves, stopping at the first refused one.
    ///
    /// # Errors
    /// The first move's [`PlayError`], with its index in `moves`; the moves before it stay played.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), (usize, PlayError)> {
        for (i, &mv) in moves.iter().enumerate() {
            self.play(mv).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    /// Plays `mv` as [`GameState::play`] does, except that a game the cycle rule has ended goes
    /// on while its position has legal moves ([`GameState::moves_past_cycle_end`]): a GUI that
    /// counts repetitions its own way, or has no ply limit, plays on. The end stays as it was
    /// ([`GameState::end`] reports the cycle rule's end, whatever follows), and the history of
    /// positions since the last capture goes on growing.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the position itself ends the game, [`PlayError::Illegal`] if
    /// `mv` is not legal. The state is unchanged on error.
    pub fn play_past_cycle_end(&mut self, mv: Move) -> Result<(), PlayError> {
        self.play_checked(mv, true)
    }

    /// [`GameState::play_past_cycle_end`] for several moves, stopping at the first refused one.
    ///
    /// # Errors
    /// The first move's [`PlayError`], with its index in `moves`; the moves before it stay played.
    pub fn play_all_past_cycle_end(&mut self, moves: &[Move]) -> Result<(), (usize, PlayError)> {
        for (i, &mv) in moves.iter().enumerate() {
            self.play_past_cycle_end(mv).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    /// The moves [`GameState::play_past_cycle_end`] accepts: the legal moves, also after the
    /// cycle rule has ended the game; none when the position itself ends it.
    pub fn moves_past_cycle_end(&self) -> Vec<Move> {
        match self.end {
            Some(end) if !end.reason.is_cycle_rule() => Vec::new(),
            _ if self.position_end().is_some() => Vec::new(),
            _ => self.board.legal_moves().as_slice().to_vec(),
        }
    }

    fn play_checked(&mut self, mv: Move, past_cycle_end: bool) -> Result<(), PlayError> {
        let game_over = |end: GameEnd| PlayError::GameOver {
            mv,
            reason: end.reason,
            result: end.result_string(),
        };
        if let Some(end) = self.end {
            if !(past_cycle_end && end.reason.is_cycle_rule()) {
                return Err(game_over(end));
            }
            // Played on past the cycle rule's end: the position may have ended the game since.
            if let Some(end) = self.position_end() {
                return Err(game_over(end));
            }
        }
        let legal = self.board.legal_moves();
        if !legal.contains(mv) {
            return Err(PlayError::Illegal {
                mv,
                board: self.board.to_string(),
                legal: legal.iter().map(|m| m.letter()).collect(),
            });
        }
        let (next, captured) = self.board.play(mv);
        self.board = next;
        self.moves.push(mv);
        if captured > 0 {
            self.since_capture.clear();
        }
        self.since_capture.push(next.key());
        // The first end stands: a game played on past the cycle rule's end stays ended by it.
        if self.end.is_none() {
            self.end = self.position_end().or_else(|| self.cycle_end());
        }
        Ok(())
    }

    fn position_end(&self) -> Option<GameEnd> {
        let stores = self.board.final_stores()?;
        let b = &self.board;
        let reason = if b.store(Side::South) > super::HALF_SEEDS
            || b.store(Side::North) > super::HALF_SEEDS
        {
            EndReason::Majority
        } else if b.store(Side::South) == super::HALF_SEEDS
            && b.store(Side::North) == super::HALF_SEEDS
        {
            EndReason::EvenSplit
        } else {
            EndReason::NoMoves
        };
        Some(GameEnd::new(reason, stores))
    }

    fn cycle_end(&self) -> Option<GameEnd> {
        let cycle = self.rules.cycle;
        let current = *self.since_capture.last()?;
        let occurrences = self.since_capture.iter().filter(|&&k| k == current).count() as u32;
        let reason = if occurrences >= cycle.repetitions {
            EndReason::Repetition
        } else if cycle.no_progress_limit > 0
            && self.since_capture.len() as u32 > cycle.no_progress_limit
        {
            EndReason::NoCaptureLimit
        } else {
            return None;
        };
        let stores = match self.rules.variant {
            Variant::Abapa => self.board.stores_with_own_rows(),
            Variant::Awari => self.board.stores_split_evenly(),
        };
        debug_assert_eq!(
            outcome_of(stores, self.board.side_to_move()),
            Game::cycle_outcome(&self.board),
            "cycle outcome disagrees with the trait"
        );
        Some(GameEnd::new(reason, stores))
    }
}
