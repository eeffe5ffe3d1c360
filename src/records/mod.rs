//! Game records of the PGN family, read and written for the match runner (`perfectplay match`
//! writes them, `--replay` checks them) and the web board (import and export): what a record
//! knows of a game ([`Recorded`], implemented by both games, and a played game's [`GameRecord`]),
//! the two formats, [`ogn`] (Oware Game Notation, Oware's) and [`pgn`] (PGN, Dobutsu Shogi's),
//! and what they share here: header tags, writing a record, the tokenizer, the result check of a
//! replay, and the errors of reading and replaying.
//!
//! A record is a header of `[Name "value"]` tags (`\"` and `\\` escape a quote and a backslash),
//! then the move text: move numbers (`12.`), moves, `{comments}` after the move they comment, and
//! the result. A file may hold several records one after another.

mod dobutsu;
pub mod game;
pub mod ogn;
mod oware;
pub mod pgn;

pub use game::{
    Fault, FinishedGame, GameRecord, ImportedRecord, MoveNote, Opening, PlayersEnd, PlayersEndKind,
    Recorded, RuleSettings, SearchInfo, Termination,
};

use std::fmt;

use crate::game::{Game, GameEnd, GameState, Player};

/// A record of either format, as this module writes, reads and checks it.
pub trait Record: Default {
    /// The tags written first and in this order (a missing one as `?`, `Result` as `*`).
    const ROSTER: &'static [&'static str];
    /// Tags written right after the roster when present; the others follow sorted by name.
    const SETUP: &'static [&'static str];
    /// The tags naming the players, the first player's first (`South`, `North`).
    const PLAYER_TAGS: [&'static str; 2];
    /// Why a word of the move text is refused.
    type WordError;

    /// The header tags, in the order read or set.
    fn tags(&self) -> &[(String, String)];
    /// The header tags, to add to.
    fn tags_mut(&mut self) -> &mut Vec<(String, String)>;
    /// One comment slot per move read so far.
    fn comments_mut(&mut self) -> &mut Vec<Option<String>>;
    /// The side lines read so far, each of a move read.
    fn variations_mut(&mut self) -> &mut Vec<Variation>;
    /// The moves read, as words of the game's notation (without annotations such as OGN's
    /// captures).
    fn move_words(&self) -> Vec<String>;
    /// The result written after the moves (`*`, `1-0`, `25-19`, ...), if any.
    fn result_token(&self) -> Option<&str>;
    /// Reads one word of the move text (a move number, a move, a result).
    fn word(&mut self, token: &str) -> Result<(), Self::WordError>;
    /// The move text's words before the result: move numbers, moves, `{comments}`.
    fn move_tokens(&self) -> Vec<String>;
}

/// The value of tag `name` in `tags`, if present (names compare exactly).
pub fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Sets tag `name` to `value` in `tags`, replacing an earlier value.
pub fn set_tag(tags: &mut Vec<(String, String)>, name: &str, value: String) {
    match tags.iter_mut().find(|(n, _)| n == name) {
        Some(slot) => slot.1 = value,
        None => tags.push((name.to_string(), value)),
    }
}

/// The record's result: its `Result` tag, else the result after the moves, else `*`.
pub fn result<R: Record>(record: &R) -> &str {
    tag(record.tags(), "Result")
        .or(record.result_token())
        .unwrap_or("*")
}

/// The tags in writing order: [`Record::ROSTER`] (missing ones as `?`, `Result` as `*`), then
/// [`Record::SETUP`] where present, then the others sorted by name.
fn ordered_tags<R: Record>(record: &R) -> Vec<(String, String)> {
    let tags = record.tags();
    let mut out: Vec<(String, String)> =
        R::ROSTER
            .iter()
            .map(|&name| {
                let fallback = if name == "Result" { "*" } else { "?" };
                let value = tag(tags, name).unwrap_or(fallback);
                (name.to_string(), value.to_string())
            })
            .chain(R::SETUP.iter().filter_map(|&name| {
                tag(tags, name).map(|value| (name.to_string(), value.to_string()))
            }))
            .collect();
    let mut rest: Vec<(String, String)> = tags
        .iter()
        .filter(|(n, _)| !R::ROSTER.contains(&n.as_str()) && !R::SETUP.contains(&n.as_str()))
        .cloned()
        .collect();
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    out.extend(rest);
    out
}

/// Writes `record`: tag lines, a blank line, the move text and its result wrapped before 80
/// columns, a blank line (so that records can follow one another in a file). The `Display` of
/// both formats.
pub fn write<R: Record>(record: &R, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for (name, value) in ordered_tags(record) {
        writeln!(f, "[{name} \"{}\"]", escape_tag(&value))?;
    }
    writeln!(f)?;
    let result = record
        .result_token()
        .or(tag(record.tags(), "Result"))
        .unwrap_or("*")
        .to_string();
    let mut line = String::new();
    for token in record.move_tokens().into_iter().chain([result]) {
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

/// The move text of a line, its side lines in parentheses after the move they replace:
/// `words[k]` is the move at ply `ply + k` of a record whose ply 0 is the first player's move
/// numbered `first` (so a record whose first move is the second player's starts at ply 1),
/// `comments[k]` its comment. A move of the first player gets its number (`3.`), one of the
/// second player too where it starts the line or follows a side line (`3...`); a number is one
/// token with its move.
pub fn line_tokens(
    words: &[String],
    comments: &[Option<String>],
    variations: &[Variation],
    ply: usize,
    first: u64,
) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut numbered = true;
    for (k, word) in words.iter().enumerate() {
        let p = ply + k;
        let number = first.saturating_add((p / 2) as u64);
        // A move number and its move are one token: a line is never broken between them.
        tokens.push(if p.is_multiple_of(2) {
            format!("{number}. {word}")
        } else if numbered {
            format!("{number}... {word}")
        } else {
            word.clone()
        });
        if let Some(Some(text)) = comments.get(k) {
            tokens.push(format!("{{{}}}", sanitize_comment(text)));
        }
        numbered = false;
        for side in variations
            .iter()
            .filter(|v| v.at == k && !v.moves.is_empty())
        {
            let mut inner = line_tokens(&side.moves, &side.comments, &side.variations, p, first);
            inner[0].insert(0, '(');
            if let Some(last) = inner.last_mut() {
                last.push(')');
            }
            tokens.extend(inner);
            numbered = true;
        }
    }
    tokens
}

/// A comment may not contain `}` (nor, for symmetry, `{`): they become parentheses; line breaks
/// become spaces.
pub fn sanitize_comment(text: &str) -> String {
    text.replace('{', "(")
        .replace('}', ")")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A tag value with `\` and `"` escaped and line breaks as spaces.
fn escape_tag(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// Why a record file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A `[` that does not start a `[Name "value"]` tag.
    #[error("line {line}: malformed tag: {text}")]
    Tag {
        /// 1-based line.
        line: usize,
        /// The text from the `[`.
        text: String,
    },
    /// A word in the move text that is no move number, move, comment or result (OGN only: PGN
    /// reads its moves when replayed).
    #[error("line {line}: '{token}' is not a move number, a move (A-F, a-f, with +N captures) or a result")]
    Token {
        /// 1-based line.
        line: usize,
        /// The word.
        token: String,
    },
    /// A `{` comment or `(` variation that is not closed.
    #[error("line {line}: unclosed {what}")]
    Unclosed {
        /// 1-based line where it opened.
        line: usize,
        /// `comment` or `variation`.
        what: &'static str,
    },
    /// A `)` that closes no variation.
    #[error("line {line}: ')' closes no variation")]
    Unopened {
        /// 1-based line.
        line: usize,
    },
    /// A `(` before the first move of its line: a variation replaces the move before it.
    #[error("line {line}: a variation before any move (it replaces the move written before it)")]
    Variation {
        /// 1-based line.
        line: usize,
    },
    /// A variation nested deeper than [`MAX_VARIATION_DEPTH`].
    #[error("line {line}: variations nested deeper than {MAX_VARIATION_DEPTH}")]
    Deep {
        /// 1-based line.
        line: usize,
    },
}

/// Why records could not be imported ([`Recorded::import_records`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The text does not read as records of the format.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A record's rules tags do not read.
    #[error("game {game}: {source}")]
    Rules {
        /// 1-based number of the record in the text.
        game: usize,
        /// What is wrong with the tags.
        source: ReplayError,
    },
    /// A record's start position (its `FEN` tag) does not read.
    #[error("game {game}: [FEN \"{text}\"]: {reason}")]
    Start {
        /// 1-based number of the record in the text.
        game: usize,
        /// The tag's value.
        text: String,
        /// Why it does not read, from the game's notation.
        reason: String,
    },
}

/// A side line of a record: moves played instead of one move of the line it branches from
/// (PGN's `( ... )` written after that move), so from the position before that move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The 0-based index, in the line it branches from, of the move it replaces.
    pub at: usize,
    /// Its moves as words of the game's notation (OGN's `+N` captures left out).
    pub moves: Vec<String>,
    /// `comments[i]` comments `moves[i]` (same length as `moves`).
    pub comments: Vec<Option<String>>,
    /// Its own side lines, their `at` counting in `moves`.
    pub variations: Vec<Variation>,
}

/// The deepest variations nest (a variation inside a variation inside ...): deeper ones are
/// refused, so that no text can exhaust the stack of a reader.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// The tokenizer of both formats: tags `[Name "value"]`, `{ }` comments (kept on the move
/// before them), `( )` variations (each kept as a [`Variation`] of the move before it, nested
/// up to [`MAX_VARIATION_DEPTH`]), `;` comments to the end of the line, and the words of the
/// move text, which the record reads (a variation's words into a record of its own). A tag after
/// move text starts the next record.
///
/// # Errors
/// The first [`ParseError`] met; a word the record refuses is [`ParseError::Token`].
pub fn parse_records<R: Record>(text: &str) -> Result<Vec<R>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut reader = Reader {
        chars: &chars,
        i: 0,
        line: 1,
    };
    let mut games = Vec::new();
    let mut game = R::default();
    let mut in_moves = false;
    while reader.move_text(&mut game, &mut in_moves, None)? {
        if in_moves {
            games.push(std::mem::take(&mut game));
            in_moves = false;
        }
        let (name, value, end) = parse_tag(&chars, reader.i).ok_or_else(|| ParseError::Tag {
            line: reader.line,
            text: chars[reader.i..]
                .iter()
                .take_while(|&&c| c != '\n')
                .collect(),
        })?;
        game.tags_mut().push((name, value));
        reader.i = end;
    }
    if in_moves || !game.tags().is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// Where [`parse_records`] is in the text.
struct Reader<'a> {
    chars: &'a [char],
    /// The next character.
    i: usize,
    /// Its 1-based line.
    line: usize,
}

/// Where a variation opened: its line and how deep it is (1 for one in the main line).
#[derive(Clone, Copy)]
struct Open {
    line: usize,
    depth: usize,
}

impl Reader<'_> {
    /// Reads move text into `game` (`in_moves` set once any is read) up to a tag (`true`, the
    /// tag not read), the end of the text (`false`), or, inside the variation `open`, its `)`.
    fn move_text<R: Record>(
        &mut self,
        game: &mut R,
        in_moves: &mut bool,
        open: Option<Open>,
    ) -> Result<bool, ParseError> {
        let unclosed = |open: Open| ParseError::Unclosed {
            line: open.line,
            what: "variation",
        };
        while let Some(&c) = self.chars.get(self.i) {
            if c == '\n' {
                self.line += 1;
            }
            if c.is_whitespace() {
                self.i += 1;
                continue;
            }
            match c {
                '[' => return open.map_or(Ok(true), |open| Err(unclosed(open))),
                ')' => {
                    self.i += 1;
                    return match open {
                        Some(_) => Ok(false),
                        None => Err(ParseError::Unopened { line: self.line }),
                    };
                }
                '{' => {
                    let close =
                        find_from(self.chars, self.i + 1, '}').ok_or(ParseError::Unclosed {
                            line: self.line,
                            what: "comment",
                        })?;
                    let text: String = self.chars[self.i + 1..close].iter().collect();
                    self.line += text.matches('\n').count();
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    if let Some(last) = game.comments_mut().last_mut() {
                        *last = Some(text);
                    }
                    *in_moves = true;
                    self.i = close + 1;
                }
                '(' => {
                    let here = Open {
                        line: self.line,
                        depth: open.map_or(1, |o| o.depth + 1),
                    };
                    if here.depth > MAX_VARIATION_DEPTH {
                        return Err(ParseError::Deep { line: self.line });
                    }
                    let at = game
                        .comments_mut()
                        .len()
                        .checked_sub(1)
                        .ok_or(ParseError::Variation { line: self.line })?;
                    self.i += 1;
                    let mut side = R::default();
                    // Inside a variation, only its `)` ends the text without an error.
                    self.move_text(&mut side, &mut false, Some(here))?;
                    let moves = side.move_words();
                    if !moves.is_empty() {
                        game.variations_mut().push(Variation {
                            at,
                            moves,
                            comments: std::mem::take(side.comments_mut()),
                            variations: std::mem::take(side.variations_mut()),
                        });
                    }
                    *in_moves = true;
                }
                ';' => {
                    while self.i < self.chars.len() && self.chars[self.i] != '\n' {
                        self.i += 1;
                    }
                }
                _ => {
                    let start = self.i;
                    while self.i < self.chars.len()
                        && !self.chars[self.i].is_whitespace()
                        && !"[{(;)".contains(self.chars[self.i])
                    {
                        self.i += 1;
                    }
                    let token: String = self.chars[start..self.i].iter().collect();
                    *in_moves = true;
                    if game.word(&token).is_err() {
                        return Err(ParseError::Token {
                            line: self.line,
                            token,
                        });
                    }
                }
            }
        }
        match open {
            Some(open) => Err(unclosed(open)),
            None => Ok(false),
        }
    }
}

fn find_from(chars: &[char], from: usize, target: char) -> Option<usize> {
    chars[from..]
        .iter()
        .position(|&c| c == target)
        .map(|p| from + p)
}

/// Parses `[Name "value"]` at `start`; returns the name, the unescaped value and the index after `]`.
fn parse_tag(chars: &[char], start: usize) -> Option<(String, String, usize)> {
    let mut i = start + 1;
    let skip_blanks = |i: &mut usize| {
        while *i < chars.len() && (chars[*i] == ' ' || chars[*i] == '\t') {
            *i += 1;
        }
    };
    skip_blanks(&mut i);
    let name_start = i;
    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
        i += 1;
    }
    if i == name_start {
        return None;
    }
    let name: String = chars[name_start..i].iter().collect();
    skip_blanks(&mut i);
    if chars.get(i) != Some(&'"') {
        return None;
    }
    i += 1;
    let mut value = String::new();
    loop {
        match chars.get(i)? {
            '\\' => {
                value.push(*chars.get(i + 1)?);
                i += 2;
            }
            '"' => break,
            '\n' => return None,
            &c => {
                value.push(c);
                i += 1;
            }
        }
    }
    i += 1;
    skip_blanks(&mut i);
    if chars.get(i) != Some(&']') {
        return None;
    }
    Some((name, value, i + 1))
}

/// What replaying a record with the rules found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed<G: Game> {
    /// How the rules ended the game, or `None` if they did not (a forfeit or an unfinished game).
    pub end: Option<GameEnd<G>>,
    /// The winner by the record's result: `Some(None)` for a draw, `None` for no result (`*`).
    pub winner: Option<Option<G::Player>>,
    /// Whether the record says an engine's fault decided the game (`Termination` starts with
    /// `forfeit` and is not a players' end).
    pub forfeit: bool,
    /// How the players ended the game before the rules did, as the web board writes it: a
    /// resignation or a loss on time with a decisive result, an agreed draw with a draw.
    pub players: Option<PlayersEndKind>,
    /// Moves replayed.
    pub plies: usize,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A rules tag whose value names other rules, or none this crate knows.
    #[error("tag {name} \"{value}\" is not {expected}")]
    Tag {
        /// The tag's name.
        name: &'static str,
        /// Its value (at most 80 characters).
        value: String,
        /// What it should be.
        expected: String,
    },
    /// A move whose written capture (OGN's `b+3`, or `b` for none) is not what the rules capture.
    #[error("move {number} ({mv}) is written as capturing {written} seeds; the rules capture {captured}")]
    Capture {
        /// 1-based ply.
        number: usize,
        /// The move.
        mv: String,
        /// The seeds the record says.
        written: u8,
        /// The seeds the rules capture.
        captured: u8,
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

impl ReplayError {
    /// A tag whose value is not `expected` (the value cut to 80 characters).
    pub fn tag(name: &'static str, value: &str, expected: impl Into<String>) -> ReplayError {
        ReplayError::Tag {
            name,
            value: value.chars().take(80).collect(),
            expected: expected.into(),
        }
    }
}

/// The value of the rules tag `name`, unless missing or `?` (PGN's "unknown").
pub fn given_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tag(tags, name).filter(|v| v.trim() != "?")
}

/// A repetition count of a `Repetitions` tag, at least 2; `fallback` without the tag.
///
/// # Errors
/// [`ReplayError::Tag`] for another value.
pub fn repetitions_tag(tags: &[(String, String)], fallback: u32) -> Result<u32, ReplayError> {
    count_tag(
        tags,
        "Repetitions",
        2,
        fallback,
        "a number of occurrences, at least 2",
    )
}

/// A whole number of at least `min` in tag `name`; `fallback` without the tag.
///
/// # Errors
/// [`ReplayError::Tag`] for another value.
pub fn count_tag(
    tags: &[(String, String)],
    name: &'static str,
    min: u32,
    fallback: u32,
    expected: &'static str,
) -> Result<u32, ReplayError> {
    match given_tag(tags, name) {
        None => Ok(fallback),
        Some(v) => match v.trim().parse::<u32>() {
            Ok(n) if n >= min => Ok(n),
            _ => Err(ReplayError::tag(name, v, expected)),
        },
    }
}

/// The end of a replay, shared by both formats: the result of `record` (`winner_of` reads it)
/// must name the winner of the game the rules ended in `state` (`describe` says how, for the
/// error), or, where the rules have not ended it, be `*`, a recorded forfeit (a fault, a
/// resignation, a loss on time) or a draw the players agreed.
///
/// # Errors
/// [`ReplayError::Result`] when they disagree.
pub fn check_result<R: Record, G: Game>(
    record: &R,
    state: &GameState<G>,
    winner_of: impl Fn(&str) -> Option<Option<G::Player>>,
    describe: impl Fn(&GameEnd<G>) -> String,
) -> Result<Replayed<G>, ReplayError> {
    let found = result(record);
    let winner = winner_of(found);
    let termination = tag(record.tags(), "Termination").map_or("", str::trim_start);
    let players = PlayersEndKind::of_termination(termination).filter(|kind| match kind {
        PlayersEndKind::AgreedDraw => winner == Some(None),
        _ => matches!(winner, Some(Some(_))),
    });
    let forfeit = termination.starts_with("forfeit") && players.is_none();
    let expected = match state.end() {
        Some(end) if winner != Some(end.winner) => Some(describe(&end)),
        None if winner.is_some() && !forfeit && players.is_none() => Some(
            "the rules have not ended it and no forfeit or agreed draw is recorded".to_string(),
        ),
        _ => None,
    };
    if let Some(expected) = expected {
        return Err(ReplayError::Result {
            found: found.to_string(),
            expected,
        });
    }
    Ok(Replayed {
        end: state.end(),
        winner,
        forfeit,
        players: players.filter(|_| state.end().is_none()),
        plies: state.ply(),
    })
}

/// One record checked by `--replay`, whatever its format.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The players' names by the tags, the first player's first.
    pub names: [String; 2],
    /// The `Round` tag.
    pub round: String,
    /// What the replay found, or why the record does not replay.
    pub outcome: Result<CheckedOutcome, ReplayError>,
}

/// What the replay of a record that replays found.
#[derive(Clone, Copy, Debug)]
pub struct CheckedOutcome {
    /// The rules ended the game.
    pub ended_by_rules: bool,
    /// A recorded fault of an engine decided it.
    pub forfeit: bool,
    /// The players ended it (a resignation, a loss on time, an agreed draw).
    pub players: Option<PlayersEndKind>,
    /// The winner by the result, as a player index; `Some(None)` a draw, `None` no result.
    pub winner: Option<Option<usize>>,
}

impl Checked {
    /// The check of `record`, with the result of its replay.
    pub fn new<R: Record, G: Game>(
        record: &R,
        replayed: Result<Replayed<G>, ReplayError>,
    ) -> Checked {
        let tags = record.tags();
        Checked {
            names: R::PLAYER_TAGS.map(|name| tag(tags, name).unwrap_or("?").to_string()),
            round: tag(tags, "Round").unwrap_or("?").to_string(),
            outcome: replayed.map(|r| CheckedOutcome {
                ended_by_rules: r.end.is_some(),
                forfeit: r.forfeit,
                players: r.players,
                winner: r.winner.map(|w| w.map(Player::index)),
            }),
        }
    }
}
