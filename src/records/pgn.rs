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

use super::{
    check_result, given_tag, line_tokens, parse_records, repetitions_tag, set_tag, tag, ParseError,
    Record, Variation,
};
use crate::game::{GameState, Player};
use crate::records::game::{GameRecord, Recorded};

pub use super::{ReplayError, Replayed};

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
    /// The side lines, each after the move it replaces.
    pub variations: Vec<Variation>,
    /// The result written after the moves (`*`, `1-0`, ...), if any.
    pub result_token: Option<String>,
    /// Whether the first move is the second player's (numbered `1...`).
    pub second_player_starts: bool,
}

impl PgnGame {
    /// The value of tag `name`, if present (names compare exactly).
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag(&self.tags, name)
    }

    /// Sets tag `name` to `value`, replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        set_tag(&mut self.tags, name, value.into());
    }

    /// The record of a finished game, with the match's `event` and `date` (`YYYY.MM.DD`); the
    /// rules' own tags (`Repetitions`) are the caller's.
    pub fn from_record<G: Recorded>(record: &GameRecord<G>, event: &str, date: &str) -> PgnGame {
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
}

impl Record for PgnGame {
    const ROSTER: &'static [&'static str] = &TAG_ROSTER;
    /// As Fairy-Stockfish writes them.
    const SETUP: &'static [&'static str] = &["Variant", "SetUp", "FEN"];
    const PLAYER_TAGS: [&'static str; 2] = ["White", "Black"];
    type WordError = std::convert::Infallible;

    fn tags(&self) -> &[(String, String)] {
        &self.tags
    }
    fn tags_mut(&mut self) -> &mut Vec<(String, String)> {
        &mut self.tags
    }
    fn comments_mut(&mut self) -> &mut Vec<Option<String>> {
        &mut self.comments
    }
    fn variations_mut(&mut self) -> &mut Vec<Variation> {
        &mut self.variations
    }
    fn move_words(&self) -> Vec<String> {
        self.moves.clone()
    }
    fn result_token(&self) -> Option<&str> {
        self.result_token.as_deref()
    }
    fn word(&mut self, token: &str) -> Result<(), std::convert::Infallible> {
        read_token(self, token);
        Ok(())
    }

    /// Numbered from the `FEN` tag's move number (its last field, after the board and the side
    /// to move), as PGN's standard asks of a game from a set-up position; from 1 without one.
    fn move_tokens(&self) -> Vec<String> {
        let first = self
            .tag("FEN")
            .map(|fen| fen.split_whitespace().collect::<Vec<_>>())
            .filter(|fields| fields.len() > 2)
            .and_then(|fields| fields.last()?.parse::<u64>().ok())
            .filter(|&n| n >= 1)
            .unwrap_or(1);
        line_tokens(
            &self.moves,
            &self.comments,
            &self.variations,
            usize::from(self.second_player_starts),
            first,
        )
    }
}

impl fmt::Display for PgnGame {
    /// The record: tag lines, a blank line, the move text wrapped before 80 columns, a blank line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::write(self, f)
    }
}

/// Parses every record in `text` (a tag after move text starts the next record). Move numbers
/// (`12.`, `12...`, also glued to the move: `12.b2b3`), numeric annotations (`$1`) and a move's
/// marks (`!`, `?`, `!?`, ...) are skipped, variations `( ... )` are kept as
/// [`PgnGame::variations`], `;` starts a comment to the end of the line; every other word of the
/// move text is a move or a result. Moves are read when replayed ([`replay`]).
///
/// # Errors
/// The first [`ParseError`] met.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, ParseError> {
    parse_records::<PgnGame>(text)
}

/// A move-text word: a move number, possibly glued to a move (`12.`, `12...b2b3`), a NAG (`$1`),
/// a result, or a move (its marks, `b2b3!?`, left out).
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
    let rest = rest.trim_end_matches(['!', '?']);
    if !rest.is_empty() {
        game.moves.push(rest.to_string());
        game.comments.push(None);
    }
}

/// Who won by a PGN result: `Some(Some(first))` the first player (`1-0`), the second for `0-1`,
/// `Some(None)` a draw, `None` no result (`*` or anything else).
pub fn winner_of_result<P: Player>(result: &str) -> Option<Option<P>> {
    match result.trim() {
        "1-0" => Some(Some(P::FIRST)),
        "0-1" => Some(Some(P::FIRST.opponent())),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

/// The rules of a record: `default` with the `Repetitions` tag's value if present (not `?`);
/// the `Variant` tag, if present, must name game `G`.
///
/// # Errors
/// [`ReplayError::Tag`] for a `Variant` of another game or a `Repetitions` below 2.
pub fn record_rules<G: Recorded>(
    game: &PgnGame,
    default: &G::Rules,
) -> Result<G::Rules, ReplayError> {
    if let Some(v) = given_tag(&game.tags, "Variant") {
        if !v.trim().eq_ignore_ascii_case(G::NAME) {
            return Err(ReplayError::tag("Variant", v, G::NAME));
        }
    }
    let mut rules = default.clone();
    if given_tag(&game.tags, "Repetitions").is_some() {
        let mut cycle = G::cycle_rule(&rules);
        cycle.repetitions = repetitions_tag(&game.tags, 0)?;
        G::set_cycle(&mut rules, cycle);
    }
    Ok(rules)
}

/// Replays `game` under `rules` (see [`record_rules`]) from its `FEN` tag (else the start
/// position): every move must read in the game's notation and be legal; if the rules end the
/// game, the result must name its winner; if they do not, the result must be `*`, a forfeit or an agreed draw.
///
/// # Errors
/// [`ReplayError`] naming the first disagreement.
pub fn replay<G: Recorded>(game: &PgnGame, rules: &G::Rules) -> Result<Replayed<G>, ReplayError> {
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
        // The move's syntax here, its legality by the referee: an error of the game's move-list
        // reader would number the move again, within a list of one.
        let mv = G::read_move(word)
            .ok_or_else(|| refused(format!("not a move in {}'s notation", G::NAME)))?;
        state.play(mv).map_err(|e| refused(e.to_string()))?;
    }
    check_result(game, &state, winner_of_result, |end| {
        format!(
            "the rules end it {} {}",
            end.result_string(),
            G::describe_end(end)
        )
    })
}

/// The `Variant` tag of the first record of `text`, if it has one (a file that does not read as
/// PGN gives `None`): how `--replay` recognises a PGN file of Dobutsu games.
pub fn first_variant_tag(text: &str) -> Option<String> {
    let first = parse(text).ok()?.into_iter().next()?;
    first.tag("Variant").map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dobutsu::{Move, Position, Rules};
    use crate::game::Game;
    use crate::records::MAX_VARIATION_DEPTH;

    /// The first legal move of `state` that does not end the game.
    fn quiet_move(state: &GameState<Position>) -> Move {
        let keeps_going = |mv: &Move| {
            let mut next = state.clone();
            next.play(*mv).is_ok() && !next.is_over()
        };
        state.legal_moves().into_iter().find(keeps_going).unwrap()
    }

    /// A record of six quiet moves from the start, and the game after them.
    fn record() -> (PgnGame, GameState<Position>) {
        let rules = Rules::default();
        let mut state = GameState::new(<Position as Game>::start(&rules), rules);
        let mut game = PgnGame::default();
        for _ in 0..6 {
            let mv = quiet_move(&state);
            state.play(mv).unwrap();
            game.moves.push(mv.to_string());
            game.comments.push(None);
        }
        (game, state)
    }

    /// A move that does not read or is illegal is named once, by its number in the game.
    #[test]
    fn a_refused_move_is_named_by_its_number_in_the_game() {
        let rules = Rules::default();
        let (mut game, state) = record();
        assert!(replay::<Position>(&game, &rules).is_ok());
        game.moves.push("z9z9".to_string());
        let err = replay::<Position>(&game, &rules).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 7 (z9z9) refused: not a move in dobutsu's notation"
        );
        // A quiet move, then the same move again: the other side's piece, so illegal.
        let mv = quiet_move(&state).to_string();
        game.moves.pop();
        game.moves.extend([mv.clone(), mv.clone()]);
        let text = replay::<Position>(&game, &rules).unwrap_err().to_string();
        assert!(
            text.starts_with(&format!("move 8 ({mv}) refused: illegal move {mv} in ")),
            "{text}"
        );
        assert!(!text.contains("move 1"), "{text}");
    }

    /// A hand-typed record: a comment, a NAG and a mark on moves, a variation of the first move
    /// with a comment and a variation nested in it, a variation of the second player's move.
    const STUDY: &str = "[Variant \"dobutsu\"]\n\n1. b2b3! {takes the chick} (1. c1c2 $2 b3b2\n\
                         (1... a4a3 {the giraffe} 2. b1a2) 2. a1b2) 1... b4b3 (1... a4a3) 2. c1c2 *\n";

    fn line(at: usize, moves: &[&str], variations: Vec<Variation>) -> Variation {
        Variation {
            at,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            comments: vec![None; moves.len()],
            variations,
        }
    }

    #[test]
    fn variations_nest_after_the_move_they_replace() {
        let games = parse(STUDY).unwrap();
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.moves, ["b2b3", "b4b3", "c1c2"]);
        assert_eq!(game.comments[0].as_deref(), Some("takes the chick"));
        let mut nested = line(1, &["a4a3", "b1a2"], vec![]);
        nested.comments[0] = Some("the giraffe".to_string());
        assert_eq!(
            game.variations,
            [
                line(0, &["c1c2", "b3b2", "a1b2"], vec![nested]),
                line(1, &["a4a3"], vec![]),
            ]
        );
        assert_eq!(game.result_token.as_deref(), Some("*"));
        // The main line replays as before; the side lines are not part of it.
        let replayed = replay::<Position>(game, &Rules::default()).unwrap();
        assert_eq!(replayed.plies, 3);
    }

    #[test]
    fn variations_are_written_back_in_parentheses_and_read_the_same() {
        let game = parse(STUDY).unwrap().remove(0);
        let text = game.to_string();
        assert!(
            text.ends_with(
                "\n\n1. b2b3 {takes the chick} (1. c1c2 b3b2 (1... a4a3 {the giraffe} 2. b1a2)\n\
                 2. a1b2) 1... b4b3 (1... a4a3) 2. c1c2 *\n\n"
            ),
            "{text}"
        );
        let back = parse(&text).unwrap().remove(0);
        assert_eq!(
            (back.moves, back.comments, back.variations),
            (game.moves, game.comments, game.variations)
        );
    }

    #[test]
    fn a_variation_must_be_closed_and_follow_a_move() {
        let unclosed = |line| {
            Err(ParseError::Unclosed {
                line,
                what: "variation",
            })
        };
        assert_eq!(parse("1. b2b3 (1. c1c2 *\n"), unclosed(1));
        assert_eq!(
            parse("1. b2b3\n(1. c1c2 (1... a4a3)\n2. a1b2 *"),
            unclosed(2)
        );
        // A tag ends the record: the variation was not closed before it.
        assert_eq!(parse("1. b2b3 (1. c1c2\n[Event \"next\"]\n"), unclosed(1));
        assert_eq!(
            parse("1. b2b3 b4b3)\n"),
            Err(ParseError::Unopened { line: 1 })
        );
        assert_eq!(
            parse("[Event \"x\"]\n\n(1. c1c2) 1. b2b3 *\n"),
            Err(ParseError::Variation { line: 3 })
        );
        let deep = format!("1. b2b3{}", " (1. c1c2".repeat(MAX_VARIATION_DEPTH + 1));
        assert_eq!(parse(&deep), Err(ParseError::Deep { line: 1 }));
        let deepest = format!(
            "1. b2b3{}{}",
            " (1. c1c2".repeat(MAX_VARIATION_DEPTH),
            ")".repeat(MAX_VARIATION_DEPTH)
        );
        assert_eq!(parse(&deepest).unwrap()[0].variations.len(), 1);
    }
}
