//! A game in progress, for any [`Game`]: the position, the moves played, the history the cycle
//! rule needs, and how the game ended. The protocol keeps one and the match referee plays by one.

use std::fmt;

use crate::game::{CycleRule, Game, MoveCounters, Notation, Outcome, Player};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// By the position alone ([`Game::outcome`]): the game's own rules (Oware: a store above 24,
    /// 24-24, a player who cannot move; Dobutsu: a Lion captured, a Try).
    Rules,
    /// The same position occurred `repetitions` times since the last irreversible move.
    Repetition,
    /// `no_progress_limit` plies passed without an irreversible move.
    NoProgressLimit,
}

impl EndReason {
    /// Whether the cycle rule ended the game ([`EndReason::Repetition`] or
    /// [`EndReason::NoProgressLimit`]): the position itself may still have legal moves.
    pub fn is_cycle_rule(self) -> bool {
        matches!(self, EndReason::Repetition | EndReason::NoProgressLimit)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Rules => "by the rules",
            EndReason::Repetition => "cycle rule: the position repeated",
            EndReason::NoProgressLimit => "cycle rule: no capture within the ply limit",
        })
    }
}

/// How a game ended: the reason, the winner (`None` for a draw), and the final position (games
/// read more from it: Oware's final stores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd<G: Game> {
    /// Why it ended.
    pub reason: EndReason,
    /// The winner, or `None` for a draw.
    pub winner: Option<G::Player>,
    /// The position the game ended in.
    pub position: G,
    /// Moves played from the set-up position when it ended.
    pub ply: usize,
}

impl<G: Game> GameEnd<G> {
    fn new(reason: EndReason, position: G, ply: usize) -> GameEnd<G> {
        let outcome = match reason {
            EndReason::Rules => position.outcome().unwrap_or(Outcome::Draw),
            _ => position.cycle_outcome(),
        };
        let mover = position.to_move();
        let winner = match outcome {
            Outcome::Win => Some(mover),
            Outcome::Loss => Some(mover.opponent()),
            Outcome::Draw => None,
        };
        GameEnd {
            reason,
            winner,
            position,
            ply,
        }
    }

    /// The result as in game records: `1-0` (the first player won), `0-1`, `1/2-1/2`.
    pub fn result_string(&self) -> &'static str {
        match self.winner.map(|w| w.index()) {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game had ended by the rules: no move may be played.
    #[error("move {mv} refused: the game is over ({result} {reason})")]
    GameOver {
        /// The refused move.
        mv: String,
        /// Why the game ended.
        reason: String,
        /// Its result string.
        result: &'static str,
    },
    /// The move is not among the legal moves.
    #[error("illegal move {mv} in {position} (legal: {legal})")]
    Illegal {
        /// The refused move.
        mv: String,
        /// The position.
        position: String,
        /// The legal moves.
        legal: String,
    },
}

/// A game from a set-up position: the current position, the moves played, the keys of the
/// positions since the last irreversible move (for the cycle rule) and, once over, how it ended.
///
/// A game that has ended takes no more moves ([`GameState::play`], as the referee plays), but a
/// game ended by the cycle rule may be played on ([`GameState::play_past_cycle_end`], as the
/// protocol plays: GUIs that count repetitions their own way do); [`GameState::end`] keeps
/// reporting the first end.
#[derive(Clone, Debug)]
pub struct GameState<G: Game> {
    rules: G::Rules,
    cycle: CycleRule,
    start: G,
    position: G,
    moves: Vec<G::Move>,
    /// Keys of the positions since the last irreversible move, the current one last.
    since_irreversible: Vec<u64>,
    end: Option<GameEnd<G>>,
    /// The set-up position's move counters (from its FEN; `0 1` by default).
    start_counters: MoveCounters,
    /// The ply (from the set-up position) after the last capture or promotion
    /// ([`crate::game::Step::noisy`]), if any.
    last_capture: Option<usize>,
}

impl<G: Game> GameState<G> {
    /// A game from `start` under `rules` ([`Game::under_rules`]). A start that is already over is a finished game.
    pub fn new(start: G, rules: G::Rules) -> GameState<G> {
        let start = start.under_rules(&rules);
        let mut g = GameState {
            cycle: G::cycle_rule(&rules),
            rules,
            since_irreversible: vec![start.key()],
            position: start.clone(),
            start,
            moves: Vec::new(),
            end: None,
            start_counters: MoveCounters::default(),
            last_capture: None,
        };
        g.end = g.rules_end();
        g
    }

    /// A game from `start`, whose text gave the move `counters` ([`MoveCounters`]), under
    /// `rules`: as [`GameState::new`], with the counters kept to be written back
    /// ([`GameState::counters`]).
    pub fn with_counters(start: G, counters: MoveCounters, rules: G::Rules) -> GameState<G> {
        GameState {
            start_counters: counters,
            ..GameState::new(start, rules)
        }
    }

    /// The set-up position's move counters.
    pub fn start_counters(&self) -> MoveCounters {
        self.start_counters
    }

    /// The current position's move counters: the set-up position's, advanced by the moves played
    /// (the halfmove clock restarting at each capture or promotion, as chess's restarts at pawn
    /// moves and captures; the move number growing after each move of the second player).
    pub fn counters(&self) -> MoveCounters {
        let ply = self.ply();
        let halfmove = match self.last_capture {
            Some(at) => (ply - at) as u32,
            None => self.start_counters.halfmove.saturating_add(ply as u32),
        };
        let second_to_move = self.start.to_move().index();
        MoveCounters {
            halfmove,
            fullmove: self
                .start_counters
                .fullmove
                .saturating_add(((ply + second_to_move) / 2) as u32),
        }
    }

    /// A game from the start position of `rules`.
    pub fn from_start(rules: G::Rules) -> GameState<G> {
        GameState::new(G::start(&rules), rules)
    }

    /// The rules of this game.
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The set-up position.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// The moves played from the set-up position.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The number of moves played from the set-up position.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Keys ([`Game::key`]) of the positions since the last irreversible move, oldest first,
    /// current last.
    pub fn keys_since_irreversible(&self) -> &[u64] {
        &self.since_irreversible
    }

    /// How the game ended (the first end, by the rules or the cycle rule), or `None` while it goes
    /// on.
    pub fn end(&self) -> Option<GameEnd<G>> {
        self.end.clone()
    }

    /// Whether the game has ended (also by the cycle rule).
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The legal moves of the current position: none once the game has ended, by the rules or
    /// the cycle rule.
    pub fn legal_moves(&self) -> Vec<G::Move> {
        if self.end.is_some() {
            return Vec::new();
        }
        self.moves_past_cycle_end()
    }

    /// The moves [`GameState::play_past_cycle_end`] takes: the position's legal moves, also after
    /// the cycle rule has ended the game; none when the position itself ends it.
    pub fn moves_past_cycle_end(&self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        if self.position.outcome().is_none() {
            self.position.legal_moves(&mut moves);
        }
        moves
    }

    /// Plays `mv`, then applies the end rules.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game had ended (by the rules or the cycle rule),
    /// [`PlayError::Illegal`] if `mv` is not legal. The state is unchanged on error.
    pub fn play(&mut self, mv: G::Move) -> Result<(), PlayError>
    where
        G: Notation,
    {
        self.play_checked(mv, false)
    }

    /// Plays `mv` as [`GameState::play`] does, except that a game the cycle rule has ended goes on
    /// while its position has legal moves: a GUI that counts repetitions its own way, or has no
    /// ply limit, plays on. The end stays as it was ([`GameState::end`] reports the cycle rule's
    /// end, whatever follows), and the history of positions since the last irreversible move goes
    /// on growing.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the position itself ends the game, [`PlayError::Illegal`] if
    /// `mv` is not legal. The state is unchanged on error.
    pub fn play_past_cycle_end(&mut self, mv: G::Move) -> Result<(), PlayError>
    where
        G: Notation,
    {
        self.play_checked(mv, true)
    }

    /// Plays several moves with [`GameState::play`], stopping at the first refused one.
    ///
    /// # Errors
    /// The first refused move's [`PlayError`], with its index in `moves`; the moves before it stay
    /// played.
    pub fn play_all(&mut self, moves: &[G::Move]) -> Result<(), (usize, PlayError)>
    where
        G: Notation,
    {
        for (i, &mv) in moves.iter().enumerate() {
            self.play(mv).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    /// [`GameState::play_past_cycle_end`] for several moves, stopping at the first refused one.
    ///
    /// # Errors
    /// As [`GameState::play_all`].
    pub fn play_all_past_cycle_end(&mut self, moves: &[G::Move]) -> Result<(), (usize, PlayError)>
    where
        G: Notation,
    {
        for (i, &mv) in moves.iter().enumerate() {
            self.play_past_cycle_end(mv).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    fn play_checked(&mut self, mv: G::Move, past_cycle_end: bool) -> Result<(), PlayError>
    where
        G: Notation,
    {
        let refusal = match (&self.end, past_cycle_end) {
            (Some(end), false) => Some(end.clone()),
            _ => self.rules_end(),
        };
        if let Some(end) = refusal {
            return Err(PlayError::GameOver {
                mv: mv.to_string(),
                reason: G::describe_end(&end),
                result: end.result_string(),
            });
        }
        let legal = self.moves_past_cycle_end();
        if !legal.contains(&mv) {
            return Err(PlayError::Illegal {
                mv: mv.to_string(),
                position: self.position.write_position(),
                legal: G::write_moves(&legal),
            });
        }
        let (next, step) = self.position.play(mv);
        self.position = next;
        self.moves.push(mv);
        if step.irreversible {
            self.since_irreversible.clear();
        }
        if step.noisy {
            self.last_capture = Some(self.moves.len());
        }
        self.since_irreversible.push(self.position.key());
        // Played on past a cycle-rule end, the first end stays the game's result.
        if self.end.is_none() {
            self.end = self.rules_end().or_else(|| self.cycle_end());
        }
        Ok(())
    }

    fn rules_end(&self) -> Option<GameEnd<G>> {
        self.position.outcome()?;
        Some(GameEnd::new(
            EndReason::Rules,
            self.position.clone(),
            self.ply(),
        ))
    }

    fn cycle_end(&self) -> Option<GameEnd<G>> {
        let current = *self.since_irreversible.last()?;
        let occurrences = self
            .since_irreversible
            .iter()
            .filter(|&&k| k == current)
            .count() as u32;
        let reason = if occurrences >= self.cycle.repetitions {
            EndReason::Repetition
        } else if self.cycle.no_progress_limit > 0
            && self.since_irreversible.len() as u32 > self.cycle.no_progress_limit
        {
            EndReason::NoProgressLimit
        } else {
            return None;
        };
        Some(GameEnd::new(reason, self.position.clone(), self.ply()))
    }
}
