//! Oware Game Notation (OGN), the PGN-like record format of the Aualé GUI: write, parse, and replay
//! records with the rules.
//!
//! A record is a header of `[Name "value"]` tags (`\"` and `\\` escape a quote and a backslash),
//! then the move text: move numbers (`12.`), moves as house letters with the seeds captured
//! (`b+3`), `{comments}` after the move they comment, and the result. Aualé writes the tags
//! `Variant`, `Event`, `Site`, `Date`, `Round`, `South`, `North`, `Result` first, in that order (its
//! loader wants the file to start with `[Variant`), then the others in alphabetical order, with
//! `FEN` holding the start diagram when it is not the initial position. Its result is the final
//! seed count, South first (`25-19`); for a game lost by a fault (an engine's illegal move, crash or
//! timeout) this module writes `1-0` or `0-1` and says why in the `Termination` tag, whose value is
//! `rules: ...` for a game the rules ended and `forfeit: ...` for a fault.
//!
//! A file may hold several records one after another, as this module writes them; Aualé itself
//! opens one record per file.

use std::fmt;

use crate::game::CycleRule;
use crate::oware::{Board, GameEnd, GameState, Move, NotationError, Rules, Side, Variant};

/// The tags Aualé writes first, in its order.
pub const TAG_ROSTER: [&str; 8] = [
    "Variant", "Event", "Site", "Date", "Round", "South", "North", "Result",
];

/// One game record: tags, moves from the start position, a comment per move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OgnGame {
    /// The header tags, in the order read or set.
    pub tags: Vec<(String, String)>,
    /// The moves from the start position (the `FEN` tag, or the initial position).
    pub moves: Vec<Move>,
    /// `comments[i]` comments move `i` (same length as `moves`).
    pub comments: Vec<Option<String>>,
    /// `captures[i]`: the seeds the move text says move `i` captured (`b+3` is 3, a move written
    /// alone, `b`, is 0), or `None` where it says nothing (moves run together, `FfBe`, or moves set
    /// with [`OgnGame::push_move`]). Same length as `moves`; [`replay`] checks them.
    pub captures: Vec<Option<u8>>,
    /// The result written after the moves (`*`, `25-19`, `1-0`, ...), if any.
    pub result_token: Option<String>,
}

impl OgnGame {
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

    /// Appends a move with its optional comment (and no capture annotation: the writer computes
    /// captures from the rules).
    pub fn push_move(&mut self, mv: Move, comment: Option<String>) {
        self.moves.push(mv);
        self.comments.push(comment);
        self.captures.push(None);
    }

    /// The rules named by the tags, each missing tag (or a `?`, PGN's "unknown") falling back to
    /// `default`: `Variant` is `Oware Abapa` or `Oware Awari` as Aualé writes it, or just `abapa`
    /// or `awari` (any case); `Repetitions` (at least 2) and `NoCaptureLimit` (plies, 0 = none)
    /// are this crate's own tags.
    ///
    /// # Errors
    /// [`ReplayError::Tag`] for any other value, an empty one included: a record of unknown rules
    /// cannot be checked.
    pub fn rules(&self, default: Rules) -> Result<Rules, ReplayError> {
        let given = |name: &'static str| self.tag(name).filter(|v| v.trim() != "?");
        let bad = |name: &'static str, value: &str, expected: &'static str| ReplayError::Tag {
            name,
            value: value.chars().take(80).collect(),
            expected,
        };
        let variant = match given("Variant") {
            None => default.variant,
            Some(v) => match v.trim().to_ascii_lowercase().as_str() {
                "oware abapa" | "abapa" => Variant::Abapa,
                "oware awari" | "awari" => Variant::Awari,
                _ => return Err(bad("Variant", v, "Oware Abapa or Oware Awari")),
            },
        };
        let number =
            |name: &'static str, min: u32, fallback: u32, expected: &'static str| match given(name)
            {
                None => Ok(fallback),
                Some(v) => match v.trim().parse::<u32>() {
                    Ok(n) if n >= min => Ok(n),
                    _ => Err(bad(name, v, expected)),
                },
            };
        Ok(Rules {
            variant,
            cycle: CycleRule {
                repetitions: number(
                    "Repetitions",
                    2,
                    default.cycle.repetitions,
                    "a number of occurrences, at least 2",
                )?,
                no_progress_limit: number(
                    "NoCaptureLimit",
                    0,
                    default.cycle.no_progress_limit,
                    "a number of plies (0 for no limit)",
                )?,
            },
        })
    }

    /// The start position: the `FEN` tag's diagram, or the initial position; under `variant`.
    ///
    /// # Errors
    /// The [`NotationError`] of a bad diagram.
    pub fn start(&self, variant: Variant) -> Result<Board, NotationError> {
        match self.tag("FEN") {
            Some(fen) => Ok(fen.parse::<Board>()?.with_variant(variant)),
            None => Ok(Board::start(variant)),
        }
    }

    /// The tags in the order Aualé writes them: the roster first (missing ones as `?`, `Result`
    /// as `*`), then the others sorted by name.
    fn ordered_tags(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = TAG_ROSTER
            .iter()
            .map(|&name| {
                let fallback = if name == "Result" { "*" } else { "?" };
                (
                    name.to_string(),
                    self.tag(name).unwrap_or(fallback).to_string(),
                )
            })
            .collect();
        let mut rest: Vec<(String, String)> = self
            .tags
            .iter()
            .filter(|(n, _)| !TAG_ROSTER.contains(&n.as_str()))
            .cloned()
            .collect();
        rest.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(rest);
        out
    }

    /// The move-text tokens: numbers, moves with their captures (`b+3`, computed by replaying from
    /// the start under the record's rules; a move the rules refuse is written bare), comments, and
    /// the result.
    fn move_tokens(&self) -> Vec<String> {
        let rules = self.rules(Rules::default()).unwrap_or_default();
        let mut state = self
            .start(rules.variant)
            .ok()
            .map(|b| GameState::new(b, rules));
        let first_side = state
            .as_ref()
            .map_or(Side::South, |s| s.board().side_to_move());
        let mut tokens = Vec::new();
        for (i, (&mv, comment)) in self.moves.iter().zip(&self.comments).enumerate() {
            // Move numbers count South-North pairs; a record starting with North gets `1...`.
            let ply = i + usize::from(first_side == Side::North);
            if ply % 2 == 0 {
                tokens.push(format!("{}.", ply / 2 + 1));
            } else if i == 0 {
                tokens.push(format!("{}...", ply / 2 + 1));
            }
            let captured = state.as_mut().and_then(|s| {
                let mover = s.board().side_to_move();
                let before = s.board().store(mover);
                match s.play(mv) {
                    Ok(()) => Some(s.board().store(mover) - before),
                    Err(_) => {
                        *s = GameState::new(s.board(), *s.rules()); // stop computing captures
                        None
                    }
                }
            });
            tokens.push(match captured {
                Some(c) if c > 0 => format!("{mv}+{c}"),
                _ => mv.to_string(),
            });
            if let Some(text) = comment {
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

/// A comment may not contain `}` (nor, for symmetry, `{`): they become parentheses; line breaks
/// become spaces.
pub(crate) fn sanitize_comment(text: &str) -> String {
    text.replace('{', "(")
        .replace('}', ")")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) fn escape_tag(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

impl fmt::Display for OgnGame {
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

/// Why a record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OgnError {
    /// A `[` that does not start a `[Name "value"]` tag.
    #[error("line {line}: malformed tag: {text}")]
    Tag {
        /// 1-based line.
        line: usize,
        /// The text from the `[`.
        text: String,
    },
    /// A word in the move text that is no move number, move, comment or result.
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
}

/// Parses every record in `text` (records follow one another; a tag after move text starts the
/// next record). Comments before the first move and variations `( ... )` are skipped, `;` starts
/// a comment to the end of the line.
///
/// # Errors
/// The first [`OgnError`] met.
pub fn parse(text: &str) -> Result<Vec<OgnGame>, OgnError> {
    parse_records::<OgnGame>(text).map_err(|m| match m {
        Malformed::Tag { line, text } => OgnError::Tag { line, text },
        Malformed::Unclosed { line, what } => OgnError::Unclosed { line, what },
        Malformed::Word { line, token, .. } => OgnError::Token { line, token },
    })
}

/// A record as the tokenizer shared by OGN and PGN ([`parse_records`]) fills it in.
pub(crate) trait RecordText: Default {
    /// Why a word of the move text is refused.
    type WordError;
    /// The header tags.
    fn tags(&mut self) -> &mut Vec<(String, String)>;
    /// One comment slot per move read so far.
    fn comments(&mut self) -> &mut Vec<Option<String>>;
    /// Reads one word of the move text (a move number, a move, a result).
    fn word(&mut self, token: &str) -> Result<(), Self::WordError>;
}

impl RecordText for OgnGame {
    type WordError = ();
    fn tags(&mut self) -> &mut Vec<(String, String)> {
        &mut self.tags
    }
    fn comments(&mut self) -> &mut Vec<Option<String>> {
        &mut self.comments
    }
    fn word(&mut self, token: &str) -> Result<(), ()> {
        read_token(self, token)
    }
}

/// How [`parse_records`] fails.
pub(crate) enum Malformed<E> {
    /// A `[` that does not start a `[Name "value"]` tag.
    Tag { line: usize, text: String },
    /// A `{` comment or `(` variation that is not closed.
    Unclosed { line: usize, what: &'static str },
    /// A word the record refused.
    Word {
        line: usize,
        token: String,
        error: E,
    },
}

/// The tokenizer of the PGN family (OGN and PGN records): tags `[Name "value"]`, `{ }` comments
/// (kept on the move before them), nested `( )` variations (skipped), `;` comments to the end of
/// the line, and the words of the move text, which the record reads. A tag after move text starts
/// the next record.
pub(crate) fn parse_records<R: RecordText>(text: &str) -> Result<Vec<R>, Malformed<R::WordError>> {
    let chars: Vec<char> = text.chars().collect();
    let mut games = Vec::new();
    let mut game = R::default();
    let mut in_moves = false;
    let mut i = 0;
    let mut line = 1;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        match c {
            '[' => {
                if in_moves {
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                }
                let (name, value, end) = parse_tag(&chars, i).ok_or_else(|| Malformed::Tag {
                    line,
                    text: chars[i..].iter().take_while(|&&c| c != '\n').collect(),
                })?;
                game.tags().push((name, value));
                i = end;
            }
            '{' => {
                let close = find_from(&chars, i + 1, '}').ok_or(Malformed::Unclosed {
                    line,
                    what: "comment",
                })?;
                let text: String = chars[i + 1..close].iter().collect();
                line += text.matches('\n').count();
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if let Some(last) = game.comments().last_mut() {
                    *last = Some(text);
                }
                in_moves = true;
                i = close + 1;
            }
            '(' => {
                let mut depth = 0usize;
                let start_line = line;
                let mut j = i;
                loop {
                    match chars.get(j) {
                        None => {
                            return Err(Malformed::Unclosed {
                                line: start_line,
                                what: "variation",
                            })
                        }
                        Some('(') => depth += 1,
                        Some(')') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Some('\n') => line += 1,
                        Some(_) => {}
                    }
                    j += 1;
                }
                in_moves = true;
                i = j + 1;
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"[{(;".contains(chars[i]) {
                    i += 1;
                }
                let token: String = chars[start..i].iter().collect();
                in_moves = true;
                if let Err(error) = game.word(&token) {
                    return Err(Malformed::Word { line, token, error });
                }
            }
        }
    }
    if in_moves || !game.tags().is_empty() {
        games.push(game);
    }
    Ok(games)
}

fn find_from(chars: &[char], from: usize, target: char) -> Option<usize> {
    chars[from..]
        .iter()
        .position(|&c| c == target)
        .map(|p| from + p)
}

/// Parses `[Name "value"]` at `start`; returns the name, the unescaped value and the index after `]`.
pub(crate) fn parse_tag(chars: &[char], start: usize) -> Option<(String, String, usize)> {
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

/// A move-text word: a move number (`12.`, `12...`), moves (`b`, `b+3`, or run together `FfBe`), or
/// a result (`*`, `1-0`, `0-1`, `1/2-1/2`, `25-19`).
fn read_token(game: &mut OgnGame, token: &str) -> Result<(), ()> {
    let is_number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if is_number(token.trim_end_matches('.')) && token.ends_with('.') {
        return Ok(());
    }
    if token == "*" || token == "1/2-1/2" {
        game.result_token = Some(token.to_string());
        return Ok(());
    }
    if let Some((a, b)) = token.split_once('-') {
        if is_number(a) && is_number(b) {
            game.result_token = Some(token.to_string());
            return Ok(());
        }
    }
    let (letters, captured) = match token.split_once('+') {
        Some((l, c)) if is_number(c) => (l, Some(c.parse::<u8>().map_err(|_| ())?)),
        Some(_) => return Err(()),
        None => (token, None),
    };
    let single = letters.chars().count() == 1;
    if letters.is_empty() || (captured.is_some() && !single) {
        return Err(());
    }
    for c in letters.chars() {
        game.push_move(Move::from_letter(c).ok_or(())?, None);
    }
    if single {
        // A move written alone says what it captured: `+N`, or nothing.
        if let Some(last) = game.captures.last_mut() {
            *last = Some(captured.unwrap_or(0));
        }
    }
    Ok(())
}

/// Who won according to a result string: `1-0`, `0-1`, `1/2-1/2`, or final seed counts `S-N`
/// (the larger count wins). `None` when the string is not a result (`*` included).
pub fn winner_of_result(result: &str) -> Option<Option<Side>> {
    if result == "1/2-1/2" {
        return Some(None);
    }
    let (a, b) = result.split_once('-')?;
    let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    Some(match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(Side::South),
        std::cmp::Ordering::Less => Some(Side::North),
        std::cmp::Ordering::Equal => None,
    })
}

/// The result string of a game the rules ended: the final seed counts, South first (`25-19`).
pub fn seed_result(end: &GameEnd) -> String {
    format!("{}-{}", end.stores()[0], end.stores()[1])
}

/// What replaying a record with the rules found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// How the rules ended the game, or `None` if they did not (a forfeit or an unfinished game).
    pub end: Option<GameEnd>,
    /// The winner by the record's result: `Some(None)` for a draw, `None` for no result (`*`).
    pub winner: Option<Option<Side>>,
    /// Whether the record says a fault decided the game (`Termination` starts with `forfeit`).
    pub forfeit: bool,
    /// Moves replayed.
    pub plies: usize,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A rules tag whose value names no rules this crate knows.
    #[error("tag {name} \"{value}\" is not {expected}")]
    Tag {
        /// The tag's name.
        name: &'static str,
        /// Its value (at most 80 characters).
        value: String,
        /// What it should be.
        expected: &'static str,
    },
    /// A move whose written capture (`b+3`, or `b` for none) is not what the rules capture.
    #[error("move {number} ({mv}) is written as capturing {written} seeds; the rules capture {captured}")]
    Capture {
        /// 1-based ply.
        number: usize,
        /// The move.
        mv: Move,
        /// The seeds the record says.
        written: u8,
        /// The seeds the rules capture.
        captured: u8,
    },
    /// The `FEN` tag is not a diagram.
    #[error("bad FEN tag: {0}")]
    Fen(NotationError),
    /// A move the rules refuse (also one played after the game ended).
    #[error("move {number} ({mv}) refused: {reason}")]
    Move {
        /// 1-based ply.
        number: usize,
        /// The move.
        mv: Move,
        /// The rules' reason.
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

/// Replays `game` with the rules (the record's `Variant`, `Repetitions` and `NoCaptureLimit` tags,
/// else `default`, see [`OgnGame::rules`]): every move must be legal and capture what the move text
/// says (`b+3`; a move written alone captures nothing; moves run together say nothing); if the
/// rules end the game, its result must be the final seed count (or say the same winner); if they
/// do not, the result must be `*` or a forfeit.
///
/// # Errors
/// [`ReplayError`] naming the first disagreement.
pub fn replay(game: &OgnGame, default: Rules) -> Result<Replayed, ReplayError> {
    let rules = game.rules(default)?;
    let start = game.start(rules.variant).map_err(ReplayError::Fen)?;
    let mut state = GameState::new(start, rules);
    for (i, &mv) in game.moves.iter().enumerate() {
        let mover = state.board().side_to_move();
        let before = state.board().store(mover);
        state.play(mv).map_err(|e| ReplayError::Move {
            number: i + 1,
            mv,
            reason: e.to_string(),
        })?;
        let captured = state.board().store(mover) - before;
        if let Some(&Some(written)) = game.captures.get(i) {
            if written != captured {
                return Err(ReplayError::Capture {
                    number: i + 1,
                    mv,
                    written,
                    captured,
                });
            }
        }
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
            if winner != Some(end.winner) {
                return mismatch(format!(
                    "the rules end it {} ({})",
                    seed_result(&end),
                    end.oware_reason()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oware::parse_moves;

    fn sample() -> OgnGame {
        let mut g = OgnGame::default();
        g.set_tag("Event", "test \"quoted\" \\ event");
        g.set_tag("South", "alpha");
        g.set_tag("North", "beta");
        g.set_tag("Termination", "forfeit: North timed out");
        g.set_tag("Result", "1-0");
        for (i, mv) in parse_moves(["FfBe"]).unwrap().into_iter().enumerate() {
            g.push_move(mv, (i == 3).then(|| "no bestmove {in} time".to_string()));
        }
        g
    }

    #[test]
    fn write_orders_tags_like_auale_and_parses_back() {
        let g = sample();
        let text = g.to_string();
        assert!(text.starts_with(
            "[Variant \"?\"]\n[Event \"test \\\"quoted\\\" \\\\ event\"]\n[Site \"?\"]\n"
        ));
        assert!(text.contains("[Result \"1-0\"]\n[Termination \"forfeit: North timed out\"]\n\n"));
        assert!(
            text.contains("1. F f 2. B e {no bestmove (in) time} 1-0\n"),
            "{text}"
        );
        let back = parse(&text).unwrap();
        assert_eq!(back.len(), 1);
        let b = &back[0];
        assert_eq!(b.tag("Event"), Some("test \"quoted\" \\ event"));
        assert_eq!(b.moves, g.moves);
        assert_eq!(b.comments[3].as_deref(), Some("no bestmove (in) time"));
        assert_eq!(b.result_token.as_deref(), Some("1-0"));
    }

    #[test]
    fn captures_are_annotated_and_several_records_parse() {
        // South's F (1 seed) lands in North's a, making 2: captured, South reaches 25.
        let mut g = OgnGame::default();
        g.set_tag("FEN", "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S");
        g.set_tag("Result", "25-22");
        g.push_move(Move::from_letter('F').unwrap(), None);
        let text = g.to_string();
        assert!(text.contains("1. F+2 25-22"), "{text}");
        let two = format!("{text}{}", sample());
        let games = parse(&two).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("FEN"), Some("0-0-0-0-0-1-1-1-0-0-0-0-23-22-S"));
        assert_eq!(games[0].moves.len(), 1);
        assert_eq!(games[1].moves.len(), 4);
        let r = replay(&games[0], Rules::default()).unwrap();
        assert_eq!(r.end.map(|e| e.stores()), Some([25, 22]));
        assert_eq!(r.winner, Some(Some(Side::South)));
    }

    #[test]
    fn parses_auale_style_text() {
        let text = "[Variant \"Oware Abapa\"]\n[Event \"?\"]\n[Result \"*\"]\n\n1. F f 2. B {a comment\n over lines} \
                    e (3. A a) 3. Cb ; rest of line ignored\n*\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 1);
        let moves: String = games[0].moves.iter().map(|m| m.letter()).collect();
        assert_eq!(moves, "FfBeCb");
        assert_eq!(
            games[0].comments[2].as_deref(),
            Some("a comment over lines")
        );
        assert_eq!(
            games[0].rules(Rules::default()).unwrap().variant,
            Variant::Abapa
        );
        let r = replay(&games[0], Rules::default()).unwrap();
        assert_eq!((r.end, r.winner, r.plies), (None, None, 6));
    }

    #[test]
    fn parse_errors_name_the_line() {
        assert_eq!(
            parse("[Event \"x\"]\n\n1. F g\n"),
            Err(OgnError::Token {
                line: 3,
                token: "g".into()
            })
        );
        assert!(matches!(
            parse("[Event x]\n"),
            Err(OgnError::Tag { line: 1, .. })
        ));
        assert_eq!(
            parse("1. F {open\n"),
            Err(OgnError::Unclosed {
                line: 1,
                what: "comment"
            })
        );
        assert_eq!(parse(""), Ok(vec![]));
    }

    #[test]
    fn replay_checks_moves_and_results() {
        let mut g = sample();
        // Not ended by the rules, recorded as a forfeit: fine.
        let r = replay(&g, Rules::default()).unwrap();
        assert!(r.forfeit);
        assert_eq!(r.winner, Some(Some(Side::South)));
        // The same result without a forfeit is wrong.
        g.set_tag("Termination", "rules: whatever");
        assert!(matches!(
            replay(&g, Rules::default()),
            Err(ReplayError::Result { .. })
        ));
        // An illegal move (North cannot play a house letter of South).
        g.push_move(Move::from_letter('a').unwrap(), None);
        assert!(matches!(
            replay(&g, Rules::default()),
            Err(ReplayError::Move { number: 5, .. })
        ));
        // A finished game with the wrong winner.
        let mut g = OgnGame::default();
        g.set_tag("FEN", "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S");
        g.set_tag("Result", "22-25");
        g.push_move(Move::from_letter('F').unwrap(), None);
        assert!(matches!(
            replay(&g, Rules::default()),
            Err(ReplayError::Result { .. })
        ));
    }

    #[test]
    fn replay_checks_capture_annotations() {
        // South's F (1 seed) lands in North's a, making 2: two seeds captured.
        let fen = "[FEN \"0-0-0-0-0-1-1-1-0-0-0-0-23-22-S\"]\n\n";
        let replayed = |moves: &str| {
            replay(
                &parse(&format!("{fen}{moves}")).unwrap()[0],
                Rules::default(),
            )
        };
        assert!(replayed("1. F+2 25-22").is_ok());
        assert_eq!(
            replayed("1. F+3 25-22"),
            Err(ReplayError::Capture {
                number: 1,
                mv: Move::from_letter('F').unwrap(),
                written: 3,
                captured: 2
            })
        );
        let err = replayed("1. F 25-22").unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 1 (F) is written as capturing 0 seeds; the rules capture 2"
        );
        // A move that captures nothing, written with a capture.
        let start = |moves: &str| replay(&parse(moves).unwrap()[0], Rules::default());
        assert!(start("1. F f *").is_ok());
        assert!(matches!(
            start("1. F f+4 *"),
            Err(ReplayError::Capture {
                number: 2,
                written: 4,
                captured: 0,
                ..
            })
        ));
        // Moves run together say nothing about captures: not checked.
        assert!(start("FfBe *").is_ok());
        assert_eq!(
            parse("FfBe b").unwrap()[0].captures,
            [None, None, None, None, Some(0)]
        );
    }

    #[test]
    fn replay_refuses_unknown_rules_tags() {
        let with = |tags: &str| parse(&format!("{tags}\n1. F f *\n")).unwrap().remove(0);
        let rules = |tags: &str| with(tags).rules(Rules::default());
        assert_eq!(rules("").unwrap().variant, Variant::Abapa);
        assert_eq!(rules("[Variant \"?\"]").unwrap().variant, Variant::Abapa);
        let awari = Rules {
            variant: Variant::Awari,
            ..Rules::default()
        };
        assert_eq!(with("").rules(awari).unwrap().variant, Variant::Awari);
        assert_eq!(
            rules("[Variant \"Oware Awari\"]").unwrap().variant,
            Variant::Awari
        );
        assert_eq!(
            rules("[Variant \"ABAPA\"]").unwrap().variant,
            Variant::Abapa
        );
        for bad in ["", "Oware", "Oware Mancala", "not awari"] {
            let err = replay(&with(&format!("[Variant \"{bad}\"]")), Rules::default()).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("tag Variant \"{bad}\" is not Oware Abapa or Oware Awari")
            );
        }
        assert!(matches!(
            rules("[Repetitions \"1\"]"),
            Err(ReplayError::Tag {
                name: "Repetitions",
                ..
            })
        ));
        assert!(matches!(
            rules("[NoCaptureLimit \"lots\"]"),
            Err(ReplayError::Tag {
                name: "NoCaptureLimit",
                ..
            })
        ));
        let r = rules("[Repetitions \"2\"]\n[NoCaptureLimit \"0\"]").unwrap();
        assert_eq!((r.cycle.repetitions, r.cycle.no_progress_limit), (2, 0));
    }

    #[test]
    fn winners_of_results() {
        assert_eq!(winner_of_result("25-19"), Some(Some(Side::South)));
        assert_eq!(winner_of_result("1-0"), Some(Some(Side::South)));
        assert_eq!(winner_of_result("0-1"), Some(Some(Side::North)));
        assert_eq!(winner_of_result("24-24"), Some(None));
        assert_eq!(winner_of_result("1/2-1/2"), Some(None));
        assert_eq!(winner_of_result("*"), None);
    }
}
