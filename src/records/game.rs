//! What a record knows of a game ([`Recorded`]: how its players are named, how its rules are
//! told to engines and written as tags, how a result and an end are written, its record format
//! read and written), and what a played game leaves: its [`Opening`], how it ended
//! ([`Termination`], [`Fault`]), the notes on its moves ([`MoveNote`]) and its [`GameRecord`].
//! The two games' parts are in `records/oware.rs` and `records/dobutsu.rs`.

use std::fmt;

use crate::game::{Game, GameEnd, GameState, Notation, Player};
use crate::records::{Checked, ImportError, ParseError};
use crate::search::Score;

/// A game as its records, the match runner and the web board know it.
pub trait Recorded: Notation {
    /// The players' names in records, summaries and fault messages, the first player's first
    /// (`South`, `North`; `Sente`, `Gote`).
    const PLAYER_NAMES: [&'static str; 2];
    /// The extension of the record files (`ogn`, `pgn`).
    const RECORD_EXTENSION: &'static str;

    /// Reads the move word of a record or a `bestmove` line (its syntax only: the rules judge
    /// legality).
    fn read_move(word: &str) -> Option<Self::Move>;

    /// The rules as named settings, what tells an engine the rules: the variant's name (for
    /// `UCI_Variant` or `Variant`) and the cycle rule's settings (`Repetitions`, ...), the names
    /// the records' tags use too.
    fn rule_options(rules: &Self::Rules) -> RuleSettings;

    /// The rules in a few words for the start line and the summary (`abapa, repetitions 3,
    /// no-capture limit 500`).
    fn describe_rules(rules: &Self::Rules) -> String;

    /// Sets the cycle rule of `rules` (Dobutsu, which has no ply limit, takes only the
    /// repetition count).
    fn set_cycle(rules: &mut Self::Rules, cycle: crate::game::CycleRule);

    /// Why the rules ended a game, in words, for the `Termination` tag (Oware: `South captured
    /// more than half the seeds`-like reasons; Dobutsu: `the Lion of the side to move was
    /// captured`, `a Try`); the cycle rule's ends as [`crate::game::EndReason`] says them.
    fn end_reason(end: &GameEnd<Self>) -> String;

    /// The result of a game the rules ended, as its records write it.
    fn result_text(end: &GameEnd<Self>) -> String;

    /// The final margin in seeds of a position whose game is over, from the side to move (Oware:
    /// the final stores' difference); `None` for games without one (the default).
    fn final_margin(&self) -> Option<i32> {
        None
    }

    /// The whole record of a finished match game in the game's format (ending in a blank line,
    /// so that records can follow one another in a file).
    fn write_record(
        record: &GameRecord<Self>,
        event: &str,
        date: &str,
        rules: &Self::Rules,
    ) -> String;

    /// The record of a game so far (`*` as the result while it goes on), with `players` (the
    /// first player's first) and `event`, as the web board exports it; `ended` is how the
    /// players ended a game the rules had not (its result and `Termination` tag); `variations`
    /// are side lines of the game's moves, written in parentheses after the move each replaces
    /// (the caller has checked them with the rules).
    fn export_record(
        game: &GameState<Self>,
        players: [&str; 2],
        event: &str,
        ended: Option<&PlayersEnd>,
        variations: &[crate::records::Variation],
    ) -> String;

    /// Reads the records of a record file in the game's format and replays each under `rules`
    /// (a record's own rules tags take precedence), for `--replay`.
    ///
    /// # Errors
    /// The [`ParseError`] of a file that does not read.
    fn replay_records(text: &str, rules: &Self::Rules) -> Result<Vec<Checked>, ParseError>;

    /// Reads every record of `text` in the game's format for the web board to import: its
    /// variant, start, moves and side lines as text, its tags (the moves are not replayed here).
    ///
    /// # Errors
    /// The [`ImportError`] of a file that does not read, or of a record whose rules tags or
    /// start position do not read.
    fn import_records(text: &str) -> Result<Vec<ImportedRecord>, ImportError>;
}

/// How the players ended a game before the rules did (a resignation, a loss on time, a draw
/// agreed), for its record: the result, and the `Termination` tag that says how. A decisive
/// one is written as a forfeit, as the match runner writes a game an engine lost by a fault, so
/// that the record replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayersEnd {
    /// The winner's index (0: the first player), `None` for a draw.
    pub winner: Option<usize>,
    /// How, in words: `resigned`, `on time`, `by agreement`.
    pub how: String,
}

impl PlayersEnd {
    /// The result tag's value: `1-0`, `0-1`, `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The `Termination` tag's value, with the players' side names (`South`, `North`):
    /// `forfeit: North resigned`, `forfeit: North lost on time`, `agreed: draw by agreement`.
    pub fn termination(&self, sides: [&str; 2]) -> String {
        match self.winner {
            Some(w) => {
                let loser = sides[1 - w.min(1)];
                match self.how.as_str() {
                    "on time" => format!("forfeit: {loser} lost on time"),
                    how => format!("forfeit: {loser} {how}"),
                }
            }
            None => format!("agreed: draw {}", self.how),
        }
    }
}

/// How the players ended a game, as read back from a record's `Termination` tag (the one
/// [`PlayersEnd::termination`] writes): apart from an engine's fault, which the match runner
/// writes as `forfeit: <fault> by <side> (<name>): <detail>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PlayersEndKind {
    /// `forfeit: <side> resigned`.
    Resigned,
    /// `forfeit: <side> lost on time` (a player on the board's clock, not an engine in a match).
    LostOnTime,
    /// `agreed: draw ...`.
    AgreedDraw,
}

impl PlayersEndKind {
    /// Every kind, in the order a summary names them.
    pub const ALL: [PlayersEndKind; 3] = [
        PlayersEndKind::Resigned,
        PlayersEndKind::LostOnTime,
        PlayersEndKind::AgreedDraw,
    ];

    /// The kind a `Termination` tag's value names, `None` for any other (the rules' end, an
    /// engine's fault, none). The side must be one word (`South`, `Gote`); the runner's faults
    /// (`forfeit: timeout by South (name): ...`) never read as a players' end.
    pub fn of_termination(termination: &str) -> Option<PlayersEndKind> {
        let termination = termination.trim();
        if termination.starts_with("agreed:") {
            return Some(PlayersEndKind::AgreedDraw);
        }
        let (side, how) = termination
            .strip_prefix("forfeit:")?
            .trim()
            .split_once(' ')?;
        if side.is_empty() || !side.chars().all(char::is_alphanumeric) {
            return None;
        }
        match how.trim() {
            "resigned" => Some(PlayersEndKind::Resigned),
            "lost on time" => Some(PlayersEndKind::LostOnTime),
            _ => None,
        }
    }
}

impl fmt::Display for PlayersEndKind {
    /// `resigned`, `lost on time`, `agreed drawn`, as the replay summary counts them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayersEndKind::Resigned => "resigned",
            PlayersEndKind::LostOnTime => "lost on time",
            PlayersEndKind::AgreedDraw => "agreed drawn",
        })
    }
}

/// The `Result` and `Termination` tags of a record exported from the web board: the rules'
/// end, or the players', or none yet (`*`).
pub(super) fn export_end<G: Recorded>(
    game: &GameState<G>,
    ended: Option<&PlayersEnd>,
) -> (String, Option<String>) {
    match (game.end(), ended) {
        (Some(end), _) => (
            G::result_text(&end),
            Some(format!("rules: {}", G::end_reason(&end))),
        ),
        (None, Some(players)) => (
            players.result().to_string(),
            Some(players.termination(G::PLAYER_NAMES)),
        ),
        (None, None) => ("*".to_string(), None),
    }
}

/// A game record as the web board imports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedRecord {
    /// The variant the record names (`abapa`, `awari`, `dobutsu`).
    pub variant: String,
    /// The start position's text, when the record does not start from the start position.
    pub start: Option<String>,
    /// The moves, in the protocol's notation.
    pub moves: Vec<String>,
    /// The side lines, as read (not replayed here), each after the move it replaces.
    pub variations: Vec<crate::records::Variation>,
    /// The header tags, in the order read.
    pub tags: Vec<(String, String)>,
}

/// What the referee tells every engine of its rules, before the match's own options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSettings {
    /// The game and rule set by the name engines' `UCI_Variant` and `Variant` options take
    /// (`abapa`, `awari`, `dobutsu`); `None` tells none (the engine plays its own default).
    pub variant: Option<String>,
    /// Whether the variant is what an engine plays when told none (Oware under the Abapa rules,
    /// the runner's default): an engine without a variant option can play it.
    pub default_variant: bool,
    /// The cycle rule's settings (`Repetitions`, `NoCaptureLimit`), each sent to an engine that
    /// lists it.
    pub options: Vec<(String, String)>,
}

impl RuleSettings {
    /// The names of the rule options an engine listing `options` cannot be told (case
    /// ignored): its own rules may differ from the referee's.
    pub fn untold(&self, has_option: impl Fn(&str) -> bool) -> Vec<&str> {
        self.options
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| !has_option(name))
            .collect()
    }
}

/// What an engine's search said last before its `bestmove`: the depth and score of its last
/// `info` line with a score (of the first line of a `MultiPV` search), as cutechess records
/// them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// `depth`, in plies.
    pub depth: Option<u32>,
    /// `score`, from the side to move's view: `cp N` in hundredths of the engine's unit (a
    /// pawn, a seed, a Chick), `mate N` a win in `N` moves (a loss when negative).
    pub score: Option<Score>,
}

impl SearchInfo {
    /// The score and depth a move's comment gives as [`MoveNote`] writes them (`+0.42/19`,
    /// `-M2/9`, `+0.00`), read from the first word of any of its `; `-separated parts
    /// (`opening; +0.42/19 0.378s`); empty when no part starts with a signed score.
    pub fn from_comment(comment: &str) -> SearchInfo {
        comment
            .split("; ")
            .filter_map(|part| {
                let word = part.split_whitespace().next()?;
                let (score, depth) = match word.split_once('/') {
                    Some((score, depth)) => (score, Some(depth.parse().ok()?)),
                    None => (word, None),
                };
                let sign = match score.as_bytes().first()? {
                    b'+' => 1,
                    b'-' => -1,
                    _ => return None,
                };
                let score = match score[1..].strip_prefix('M') {
                    Some(moves) => Score::Mate(sign * moves.parse::<i32>().ok()?),
                    None => {
                        let (whole, hundredths) = score[1..].split_once('.')?;
                        if hundredths.len() != 2 {
                            return None;
                        }
                        let cp =
                            whole.parse::<i32>().ok()? * 100 + hundredths.parse::<i32>().ok()?;
                        Score::Cp(sign * cp)
                    }
                };
                Some(SearchInfo {
                    depth,
                    score: Some(score),
                })
            })
            .next()
            .unwrap_or_default()
    }
}

/// A start for a pair of games: a position and moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<G: Game> {
    /// The set-up position.
    pub start: G,
    /// Moves played from it (part of the game record, sent to the engines in `position ... moves`).
    pub moves: Vec<G::Move>,
}

/// The kinds of engine fault that lose a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    /// A move the rules refuse.
    IllegalMove,
    /// `bestmove 0000` (no move) while the referee sees legal moves: typically an engine whose
    /// own rules ended the game (Aalina ends it at the first repetition: use `--repetitions 2`).
    NoMove,
    /// The process ended.
    Crash,
    /// The process closed its pipe but kept running.
    ClosedPipe,
    /// No answer in the time allowed.
    Timeout,
    /// More time taken than the engine's game clock held (with the match's `--time-margin`).
    TimeLoss,
    /// A `bestmove` line without a move.
    Garbage,
    /// The engine could not be (re)started.
    StartFailure,
}

impl Fault {
    /// Every fault, in display order.
    pub const ALL: [Fault; 8] = [
        Fault::IllegalMove,
        Fault::NoMove,
        Fault::Crash,
        Fault::ClosedPipe,
        Fault::Timeout,
        Fault::TimeLoss,
        Fault::Garbage,
        Fault::StartFailure,
    ];
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::IllegalMove => "illegal move",
            Fault::NoMove => "no move",
            Fault::Crash => "crash",
            Fault::ClosedPipe => "closed pipe",
            Fault::Timeout => "timeout",
            Fault::TimeLoss => "loss on time",
            Fault::Garbage => "garbage",
            Fault::StartFailure => "start failure",
        })
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination<G: Game> {
    /// By the rules.
    Rules(GameEnd<G>),
    /// By a fault of the engine playing `side`, which loses.
    Forfeit {
        /// The faulty engine's side.
        side: G::Player,
        /// What it did.
        fault: Fault,
        /// The details, for the record.
        detail: String,
    },
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord<G: Game> {
    /// 1-based game number (the record's `Round`).
    pub number: usize,
    /// 0-based pair index: games `2p+1` and `2p+2` share an opening.
    pub pair: usize,
    /// Which engine (0 = the first `--engine`, 1 = the second) played the first player (Oware's
    /// South, Dobutsu's Sente).
    pub first_player_engine: usize,
    /// Display names, the first player's first.
    pub names: [String; 2],
    /// The opening the game started from (its moves are the first of the game).
    pub opening: Opening<G>,
    /// The moves the engines played after the opening.
    pub moves: Vec<G::Move>,
    /// What the runner saw of each of `moves`, in order: its time, the clock, the engine's
    /// depth and score (a move without a note, in a record built otherwise, gets no comment).
    pub notes: Vec<MoveNote>,
    /// How it ended.
    pub termination: Termination<G>,
}

impl<G: Recorded> GameRecord<G> {
    /// The winner, `None` for a draw.
    pub fn winner(&self) -> Option<G::Player> {
        match &self.termination {
            Termination::Rules(end) => end.winner,
            Termination::Forfeit { side, .. } => Some(side.opponent()),
        }
    }

    /// The engine (0 or 1) that played `side`.
    pub fn engine_of(&self, side: G::Player) -> usize {
        if side == G::Player::FIRST {
            self.first_player_engine
        } else {
            1 - self.first_player_engine
        }
    }

    /// The side engine `engine` (0 or 1) played.
    pub fn side_of(&self, engine: usize) -> G::Player {
        if engine == self.first_player_engine {
            G::Player::FIRST
        } else {
            G::Player::FIRST.opponent()
        }
    }

    /// Points (1, 1/2 or 0) of engine `engine` (0 or 1).
    pub fn points_of(&self, engine: usize) -> f64 {
        match self.winner() {
            None => 0.5,
            Some(side) if side == self.side_of(engine) => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The result as recorded: for a game the rules ended the game's own result
    /// ([`Recorded::result_text`]: Oware's final seeds `25-19`, Dobutsu's `1-0`), `1-0` or `0-1`
    /// for a forfeit.
    pub fn result_string(&self) -> String {
        match &self.termination {
            Termination::Rules(end) => G::result_text(end),
            Termination::Forfeit { side, .. } if side.index() == 0 => "0-1".to_string(),
            Termination::Forfeit { .. } => "1-0".to_string(),
        }
    }

    /// The `Termination` tag: `rules: <reason>` or `forfeit: <fault> by <side> (<name>): <detail>`,
    /// the side named as [`Recorded::PLAYER_NAMES`].
    pub fn termination_string(&self) -> String {
        match &self.termination {
            Termination::Rules(end) => format!("rules: {}", G::end_reason(end)),
            Termination::Forfeit {
                side,
                fault,
                detail,
            } => format!(
                "forfeit: {fault} by {} ({}): {detail}",
                G::PLAYER_NAMES[side.index()],
                self.names[side.index()]
            ),
        }
    }

    /// All the moves of the game, the opening's first.
    pub fn all_moves(&self) -> Vec<G::Move> {
        self.opening
            .moves
            .iter()
            .chain(&self.moves)
            .copied()
            .collect()
    }

    /// What the front end shows of the game: number, names, result, termination.
    pub fn finished(&self) -> FinishedGame {
        FinishedGame {
            number: self.number,
            names: self.names.clone(),
            result: self.result_string(),
            termination: self.termination_string(),
        }
    }

    /// The comment of each move in a record: `opening` on the last opening move, the engine's
    /// [`MoveNote`] on each of its moves, the termination on the last move, joined by `; `.
    pub fn move_comments(&self) -> Vec<Option<String>> {
        let book = self.opening.moves.len();
        let total = book + self.moves.len();
        let last = total.checked_sub(1);
        let book_end = book.checked_sub(1);
        (0..total)
            .map(|i| {
                let mut comment = Vec::new();
                if Some(i) == book_end {
                    comment.push("opening".to_string());
                }
                if let Some(note) = i.checked_sub(book).and_then(|j| self.notes.get(j)) {
                    comment.push(note.to_string());
                }
                if Some(i) == last {
                    comment.push(self.termination_string());
                }
                (!comment.is_empty()).then(|| comment.join("; "))
            })
            .collect()
    }
}

/// What the runner saw of one engine move, written as its comment in the record the way
/// cutechess writes it, with the clock as lichess's `[%clk]` command: `+0.42/19 0.378s [%clk
/// 0:00:09.722]` (the engine's score from its own side, in the game's unit, over its depth; the
/// time from `go` to `bestmove`; the clock left after the move). Parts the engine did not give,
/// or the clock of an engine not on one, are left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveNote {
    /// Milliseconds from sending `go` to reading `bestmove`, as the runner measured them (what
    /// the engine's clock was charged).
    pub time_ms: u64,
    /// Milliseconds left on the mover's clock after the move, increment added (`None`: the
    /// engine plays without a clock). Negative when the engine ran past it within the margin.
    pub clock_ms: Option<i64>,
    /// The depth and score of the engine's last `info` line with a score.
    pub search: SearchInfo,
}

impl fmt::Display for MoveNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.search.score {
            Some(Score::Cp(cp)) => write!(f, "{:+.2}", f64::from(cp) / 100.0)?,
            Some(Score::Mate(n)) if n > 0 => write!(f, "+M{n}")?,
            Some(Score::Mate(n)) => write!(f, "-M{}", n.unsigned_abs())?,
            None => {}
        }
        if let (Some(_), Some(depth)) = (self.search.score, self.search.depth) {
            write!(f, "/{depth}")?;
        }
        if self.search.score.is_some() {
            f.write_str(" ")?;
        }
        write!(f, "{}.{:03}s", self.time_ms / 1000, self.time_ms % 1000)?;
        if let Some(clock) = self.clock_ms {
            // `[%clk]` has no negative times: a clock overrun within the margin shows as 0.
            let ms = clock.max(0);
            let (s, ms) = (ms / 1000, ms % 1000);
            write!(
                f,
                " [%clk {}:{:02}:{:02}.{ms:03}]",
                s / 3600,
                s / 60 % 60,
                s % 60
            )?;
        }
        Ok(())
    }
}

/// A finished game as the match's front end shows it, whatever the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// 1-based game number.
    pub number: usize,
    /// Display names, the first player's first.
    pub names: [String; 2],
    /// [`GameRecord::result_string`].
    pub result: String,
    /// [`GameRecord::termination_string`].
    pub termination: String,
}

impl FinishedGame {
    /// The result as recorded (`25-19`, `1-0`, ...).
    pub fn result_string(&self) -> &str {
        &self.result
    }

    /// The `Termination` tag.
    pub fn termination_string(&self) -> &str {
        &self.termination
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_end_reads_back_and_a_fault_does_not() {
        for (winner, how, sides) in [
            (Some(0), "resigned", ["South", "North"]),
            (Some(1), "on time", ["Sente", "Gote"]),
            (None, "by agreement", ["South", "North"]),
        ] {
            let end = PlayersEnd {
                winner,
                how: how.to_string(),
            };
            let kind = PlayersEndKind::of_termination(&end.termination(sides));
            let expected = match how {
                "resigned" => PlayersEndKind::Resigned,
                "on time" => PlayersEndKind::LostOnTime,
                _ => PlayersEndKind::AgreedDraw,
            };
            assert_eq!(kind, Some(expected), "{}", end.termination(sides));
        }
        for fault in [
            "forfeit: timeout by South (a): x",
            "forfeit: loss on time by Gote (fsf): 0 ms left",
            "forfeit: illegal move by North (b): bestmove A",
            "forfeit: North timed out",
            "rules: North has no move",
            "",
        ] {
            assert_eq!(PlayersEndKind::of_termination(fault), None, "{fault}");
        }
    }

    fn note(score: Option<Score>, depth: Option<u32>, time_ms: u64, clock: Option<i64>) -> String {
        let search = SearchInfo { depth, score };
        MoveNote {
            time_ms,
            clock_ms: clock,
            search,
        }
        .to_string()
    }

    #[test]
    fn move_notes_read_as_cutechess_and_lichess_write_them() {
        let cp = |v| Some(Score::Cp(v));
        assert_eq!(
            note(cp(42), Some(19), 378, Some(9722)),
            "+0.42/19 0.378s [%clk 0:00:09.722]"
        );
        assert_eq!(note(cp(-1250), Some(7), 12_034, None), "-12.50/7 12.034s");
        assert_eq!(note(cp(0), None, 5, None), "+0.00 0.005s");
        let mate = |n| Some(Score::Mate(n));
        assert_eq!(note(mate(3), Some(9), 1, None), "+M3/9 0.001s");
        assert_eq!(note(mate(-2), Some(9), 1, None), "-M2/9 0.001s");
        // No score: the time and the clock only (a depth alone says nothing).
        assert_eq!(
            note(None, Some(4), 0, Some(3_723_004)),
            "0.000s [%clk 1:02:03.004]"
        );
        // A clock overrun within the margin shows as 0.
        assert_eq!(note(None, None, 80, Some(-20)), "0.080s [%clk 0:00:00.000]");
    }

    #[test]
    fn a_move_comment_gives_back_the_score_and_depth_written() {
        let cases = [
            (Some(Score::Cp(42)), Some(19)),
            (Some(Score::Cp(-1250)), Some(7)),
            (Some(Score::Cp(-5)), Some(3)),
            (Some(Score::Cp(0)), None),
            (Some(Score::Mate(3)), Some(9)),
            (Some(Score::Mate(-2)), Some(9)),
        ];
        for (score, depth) in cases {
            let search = SearchInfo { depth, score };
            let comment = note(score, depth, 378, Some(9722));
            assert_eq!(SearchInfo::from_comment(&comment), search, "{comment}");
            let joined = format!("opening; {comment}; rules: a player captured more than 24 seeds");
            assert_eq!(SearchInfo::from_comment(&joined), search, "{joined}");
        }
        for comment in [
            "opening",
            "0.000s [%clk 1:02:03.004]",
            "",
            "+1.5/3 0.1s",
            "-Mx/2",
        ] {
            assert_eq!(
                SearchInfo::from_comment(comment),
                SearchInfo::default(),
                "{comment}"
            );
        }
    }
}
