//! Game records in PGN, for the games other than Oware (Dobutsu Shogi): write, parse, and replay
//! them with the rules.
//!
//! The record is PGN as chess tools read it, with the conventions of Fairy-Stockfish and pychess
//! for variants: the Seven Tag Roster (`Event`, `Site`, `Date`, `Round`, `White`, `Black`,
//! `Result`; White is the first player, Dobutsu's Sente), then `Variant` (the game's name,
//! `dobutsu`), `SetUp "1"` and `FEN` (the start position, always written: a reader that does not
//! know the game's start position still gets it), `Termination` (`rules: ...` or `forfeit: ...`,
//! as in the OGN records), and this crate's `Repetitions` and `OpeningPlies`. The move text is
//! numbered moves in the engines' UCI notation (`1. b2b3 b3b2 2. C@b3`), `{comments}` after the
//! move they comment, and the result `1-0`, `0-1`, `1/2-1/2` or `*`.

use std::fmt;

use crate::arena::games::Refereed;
use crate::arena::ogn::{escape_tag, parse_records, sanitize_comment, Malformed, RecordText};
use crate::arena::runner::GameRecord;
use crate::game::{GameEnd, GameState, Player};

/// PGN's Seven Tag Roster, written first and in this order.
pub const TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// One game record: tags, the moves as written, a comment per move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The header tags, in the order read or set.
    pub tags: Vec<(String, String)>,
    /// The move words (numbers and results left out), in the game's notation.
    pub moves: Vec<String>,
    /// `comments[i]` comments move `i` (same length as `moves`).
    pub comments: Vec<Option<String>>,
    /// The result written after the moves (`*`, `1-0`, ...), if any.
    pub result_token: Option<String>,
    /// Whether the first move is the second player's (numbered `1...`).
    pub second_player_starts: bool,
}

impl PgnGame {
    /// The value of tag `name`, if present (names compare exactly).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The record of a finished game, with the match's `event` and `date` (`YYYY.MM.DD`); the
    /// rules' own tags (`Repetitions`) are the caller's.
    pub fn from_record<G: Refereed>(record: &GameRecord<G>, event: &str, date: &str) -> PgnGame {
        let mut g = PgnGame::default();
        g.set_tag("Event", event);
        g.set_tag("Site", "?");
        g.set_tag("Date", date);
        g.set_tag("Round", record.number.to_string());
        g.set_tag("White", record.names[0].clone());
        g.set_tag("Black", record.names[1].clone());
        g.set_tag("Result", record.result_string());
        g.set_tag("Variant", G::NAME);
        g.set_tag("SetUp", "1");
        g.set_tag("FEN", record.opening.start.write_position());
        g.set_tag("Termination", record.termination_string());
        g.set_tag("OpeningPlies", record.opening.moves.len().to_string());
        g.moves = record.all_moves().iter().map(|m| m.to_string()).collect();
        g.comments = record.move_comments();
        g.second_player_starts = record.opening.start.to_move().index() == 1;
        g
    }

    /// The tags in writing order: the roster first (missing ones as `?`, `Result` as `*`), then
    /// `Variant`, `SetUp`, `FEN` as Fairy-Stockfish writes them, then the others sorted by name.
    fn ordered_tags(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = TAG_ROSTER
            .iter()
            .map(|&name| {
                let fallback = if name == "Result" { "*" } else { "?" };
                let value = self.tag(name).unwrap_or(fallback);
                (name.to_string(), value.to_string())
            })
            .collect();
        const SETUP: [&str; 3] = ["Variant", "SetUp", "FEN"];
        for name in SETUP {
            if let Some(value) = self.tag(name) {
                out.push((name.to_string(), value.to_string()));
            }
        }
        let mut rest: Vec<(String, String)> = self
            .tags
            .iter()
            .filter(|(n, _)| !TAG_ROSTER.contains(&n.as_str()) && !SETUP.contains(&n.as_str()))
            .cloned()
            .collect();
        rest.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(rest);
        out
    }

    fn move_tokens(&self) -> Vec<String> {
        let mut tokens = Vec::new();
        let offset = usize::from(self.second_player_starts);
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = i + offset;
            if ply % 2 == 0 {
                tokens.push(format!("{}.", ply / 2 + 1));
            } else if i == 0 {
                tokens.push(format!("{}...", ply / 2 + 1));
            }
            tokens.push(mv.clone());
            if let Some(Some(text)) = self.comments.get(i) {
                tokens.push(format!("{{{}}}", sanitize_comment(text)));
            }
        }
        let result = self
            .result_token
            .clone()
            .or_else(|| self.tag("Result").map(str::to_string));
        tokens.push(result.unwrap_or_else(|| "*".to_string()));
        tokens
    }
}

impl fmt::Display for PgnGame {
    /// The record: tag lines, a blank line, the move text wrapped before 80 columns, a blank line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in self.ordered_tags() {
            writeln!(f, "[{name} \"{}\"]", escape_tag(&value))?;
        }
        writeln!(f)?;
        let mut line = String::new();
        for token in self.move_tokens() {
            if !line.is_empty() && line.len() + 1 + token.len() >= 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        writeln!(f, "{line}")?;
        writeln!(f)
    }
}

/// Why a PGN file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// A `[` that does not start a `[Name "value"]` tag.
    #[error("line {line}: malformed tag: {text}")]
    Tag {
        /// 1-based line.
        line: usize,
        /// The text from the `[`.
        text: String,
    },
    /// A `{` comment or `(` variation that is not closed.
    #[error("line {line}: unclosed {what}")]
    Unclosed {
        /// 1-based line where it opened.
        line: usize,
        /// `comment` or `variation`.
        what: &'static str,
    },
}

/// Parses every record in `text` (a tag after move text starts the next record). Move numbers
/// (`12.`, `12...`, also glued to the move: `12.b2b3`), numeric annotations (`$1`) and variations
/// `( ... )` are skipped, `;` starts a comment to the end of the line; every other word of the
/// move text is a move or a result. Moves are read when replayed ([`replay`]).
///
/// # Errors
/// The first [`PgnError`] met.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    parse_records::<PgnGame>(text).map_err(|m| match m {
        Malformed::Tag { line, text } => PgnError::Tag { line, text },
        Malformed::Unclosed { line, what } => PgnError::Unclosed { line, what },
        Malformed::Word { error, .. } => match error {},
    })
}

impl RecordText for PgnGame {
    type WordError = std::convert::Infallible;
    fn tags(&mut self) -> &mut Vec<(String, String)> {
        &mut self.tags
    }
    fn comments(&mut self) -> &mut Vec<Option<String>> {
        &mut self.comments
    }
    fn word(&mut self, token: &str) -> Result<(), std::convert::Infallible> {
        read_token(self, token);
        Ok(())
    }
}

/// A move-text word: a move number, possibly glued to a move (`12.`, `12...b2b3`), a NAG (`$1`),
/// a result, or a move.
fn read_token(game: &mut PgnGame, token: &str) {
    if token.starts_with('$') {
        return;
    }
    if ["*", "1-0", "0-1", "1/2-1/2"].contains(&token) {
        game.result_token = Some(token.to_string());
        return;
    }
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    };
    if !rest.is_empty() {
        game.moves.push(rest.to_string());
        game.comments.push(None);
    }
}

/// Who won by a PGN result: `Some(Some(0))` the first player (`1-0`), `Some(Some(1))` the second,
/// `Some(None)` a draw, `None` no result (`*` or anything else).
pub fn winner_of_result(result: &str) -> Option<Option<usize>> {
    match result.trim() {
        "1-0" => Some(Some(0)),
        "0-1" => Some(Some(1)),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

/// What replaying a record with the rules found.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed<G: Refereed> {
    /// How the rules ended the game, or `None` if they did not (a forfeit or an unfinished game).
    pub end: Option<GameEnd<G>>,
    /// The winner by the record's result, as a player index (0 the first player):
    /// `Some(None)` for a draw, `None` for no result (`*`).
    pub winner: Option<Option<usize>>,
    /// Whether the record says a fault decided the game (`Termination` starts with `forfeit`).
    pub forfeit: bool,
    /// Moves replayed.
    pub plies: usize,
}

/// Why a PGN record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A tag whose value names other rules, or none this crate knows.
    #[error("tag {name} \"{value}\" is not {expected}")]
    Tag {
        /// The tag's name.
        name: &'static str,
        /// Its value (at most 80 characters).
        value: String,
        /// What it should be.
        expected: String,
    },
    /// The `FEN` tag is not a position of the game.
    #[error("bad FEN tag: {0}")]
    Fen(String),
    /// A move that cannot be read, or that the rules refuse (also one played after the end).
    #[error("move {number} ({mv}) refused: {reason}")]
    Move {
        /// 1-based ply.
        number: usize,
        /// The move as written.
        mv: String,
        /// Why.
        reason: String,
    },
    /// The `Result` tag does not agree with how the game ended.
    #[error("result '{found}' does not match the game: {expected}")]
    Result {
        /// The record's result.
        found: String,
        /// What the replay says.
        expected: String,
    },
}

/// The rules of a record: `default` with the `Repetitions` tag's value if present (not `?`);
/// the `Variant` tag, if present, must name game `G`.
///
/// # Errors
/// [`ReplayError::Tag`] for a `Variant` of another game or a `Repetitions` below 2.
pub fn record_rules<G: Refereed>(
    game: &PgnGame,
    default: &G::Rules,
) -> Result<G::Rules, ReplayError> {
    let given = |name: &'static str| game.tag(name).filter(|v| v.trim() != "?");
    if let Some(v) = given("Variant") {
        if !v.trim().eq_ignore_ascii_case(G::NAME) {
            return Err(ReplayError::Tag {
                name: "Variant",
                value: v.chars().take(80).collect(),
                expected: G::NAME.to_string(),
            });
        }
    }
    let mut rules = default.clone();
    if let Some(v) = given("Repetitions") {
        match v.trim().parse::<u32>() {
            Ok(n) if n >= 2 => G::set_repetitions(&mut rules, n),
            _ => {
                return Err(ReplayError::Tag {
                    name: "Repetitions",
                    value: v.chars().take(80).collect(),
                    expected: "a number of occurrences, at least 2".to_string(),
                })
            }
        }
    }
    Ok(rules)
}

/// Replays `game` under `rules` (see [`record_rules`]) from its `FEN` tag (else the start
/// position): every move must read in the game's notation and be legal; if the rules end the
/// game, the result must name its winner; if they do not, the result must be `*` or a forfeit.
///
/// # Errors
/// [`ReplayError`] naming the first disagreement.
pub fn replay<G: Refereed>(game: &PgnGame, rules: &G::Rules) -> Result<Replayed<G>, ReplayError> {
    let start = match game.tag("FEN") {
        Some(fen) => G::parse_position(fen, rules).map_err(|e| ReplayError::Fen(e.to_string()))?,
        None => G::start(rules),
    };
    let mut state = GameState::new(start, rules.clone());
    for (i, word) in game.moves.iter().enumerate() {
        let refused = |reason: String| ReplayError::Move {
            number: i + 1,
            mv: crate::game::quoted(word),
            reason,
        };
        let mv = state
            .position()
            .parse_moves(&[word.as_str()])
            .map_err(|e| refused(e.to_string()))?;
        state
            .play_all(&mv)
            .map_err(|(_, e)| refused(e.to_string()))?;
    }
    let result = game
        .tag("Result")
        .or(game.result_token.as_deref())
        .unwrap_or("*")
        .to_string();
    let winner = winner_of_result(&result);
    let forfeit = game
        .tag("Termination")
        .is_some_and(|t| t.trim_start().starts_with("forfeit"));
    let mismatch = |expected: String| {
        Err(ReplayError::Result {
            found: result.clone(),
            expected,
        })
    };
    match state.end() {
        Some(end) => {
            if winner != Some(end.winner.map(Player::index)) {
                return mismatch(format!(
                    "the rules end it {} {}",
                    end.result_string(),
                    G::describe_end(&end)
                ));
            }
        }
        None => {
            if winner.is_some() && !forfeit {
                return mismatch(
                    "the rules have not ended it and no forfeit is recorded".to_string(),
                );
            }
        }
    }
    Ok(Replayed {
        end: state.end(),
        winner,
        forfeit,
        plies: state.ply(),
    })
}
