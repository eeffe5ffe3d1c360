//! Oware Game Notation (OGN), the PGN-like record format of the Aualé GUI: write, parse, and replay
//! Oware records with the rules.
//!
//! Moves are house letters with the seeds captured (`b+3`). Aualé writes the tags `Variant`,
//! `Event`, `Site`, `Date`, `Round`, `South`, `North`, `Result` first, in that order (its loader
//! wants the file to start with `[Variant`), then the others in alphabetical order, with `FEN`
//! holding the start diagram when it is not the initial position. Its result is the final seed
//! count, South first (`25-19`); for a game lost by a fault (an engine's illegal move, crash or
//! timeout) this module writes `1-0` or `0-1` and says why in the `Termination` tag, whose value is
//! `rules: ...` for a game the rules ended and `forfeit: ...` for a fault. Aualé opens one record
//! per file.

use std::fmt;

use super::{
    check_result, count_tag, given_tag, line_tokens, parse_records, repetitions_tag, set_tag, tag,
    ParseError, Record, Variation,
};
use crate::game::CycleRule;
use crate::oware::{Board, GameEnd, GameState, Move, NotationError, RuleSet, Rules, Side};
use crate::records::game::GameRecord;

pub use super::ReplayError;

/// What replaying an OGN record found.
pub type Replayed = super::Replayed<Board>;

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
    /// The side lines, each after the move it replaces.
    pub variations: Vec<Variation>,
    /// The result written after the moves (`*`, `25-19`, `1-0`, ...), if any.
    pub result_token: Option<String>,
}

impl OgnGame {
    /// The value of tag `name`, if present (names compare exactly).
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag(&self.tags, name)
    }

    /// Sets tag `name` to `value`, replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        set_tag(&mut self.tags, name, value.into());
    }

    /// Appends a move with its optional comment (and no capture annotation: the writer computes
    /// captures from the rules).
    pub fn push_move(&mut self, mv: Move, comment: Option<String>) {
        self.moves.push(mv);
        self.comments.push(comment);
        self.captures.push(None);
    }

    /// The record of a finished game, with the match's `event`, `date` (`YYYY.MM.DD`) and
    /// `rules`. Opening moves carry the comment `opening` on the last of them; the termination is
    /// commented on the last move.
    pub fn from_record(
        record: &GameRecord<Board>,
        event: &str,
        date: &str,
        rules: Rules,
    ) -> OgnGame {
        let mut g = OgnGame::default();
        let variant = match rules.variant {
            RuleSet::Abapa => "Oware Abapa",
            RuleSet::Awari => "Oware Awari",
        };
        g.set_tag("Variant", variant);
        g.set_tag("Event", event);
        g.set_tag("Site", "?");
        g.set_tag("Date", date);
        g.set_tag("Round", record.number.to_string());
        g.set_tag("South", record.names[0].clone());
        g.set_tag("North", record.names[1].clone());
        g.set_tag("Result", record.result_string());
        let start = &record.opening.start;
        if *start != Board::start(start.variant()) {
            g.set_tag("FEN", start.to_string());
        }
        g.set_tag("Termination", record.termination_string());
        g.set_tag("Repetitions", rules.cycle.repetitions.to_string());
        g.set_tag("NoCaptureLimit", rules.cycle.no_progress_limit.to_string());
        g.set_tag("OpeningPlies", record.opening.moves.len().to_string());
        for (mv, comment) in record.all_moves().into_iter().zip(record.move_comments()) {
            g.push_move(mv, comment);
        }
        g
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
        let variant = match given_tag(&self.tags, "Variant") {
            None => default.variant,
            Some(v) => match v.trim().to_ascii_lowercase().as_str() {
                "oware abapa" | "abapa" => RuleSet::Abapa,
                "oware awari" | "awari" => RuleSet::Awari,
                _ => return Err(ReplayError::tag("Variant", v, "Oware Abapa or Oware Awari")),
            },
        };
        Ok(Rules {
            variant,
            cycle: CycleRule {
                repetitions: repetitions_tag(&self.tags, default.cycle.repetitions)?,
                no_progress_limit: count_tag(
                    &self.tags,
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
    pub fn start(&self, variant: RuleSet) -> Result<Board, NotationError> {
        match self.tag("FEN") {
            Some(fen) => Ok(fen.parse::<Board>()?.with_variant(variant)),
            None => Ok(Board::start(variant)),
        }
    }
}

impl Record for OgnGame {
    const ROSTER: &'static [&'static str] = &TAG_ROSTER;
    const SETUP: &'static [&'static str] = &[];
    const PLAYER_TAGS: [&'static str; 2] = ["South", "North"];
    type WordError = ();

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
        self.moves.iter().map(Move::to_string).collect()
    }
    fn result_token(&self) -> Option<&str> {
        self.result_token.as_deref()
    }
    fn word(&mut self, token: &str) -> Result<(), ()> {
        read_token(self, token)
    }

    /// Numbers, moves with their captures (`b+3`, computed by replaying from the start under the
    /// record's rules; a move the rules refuse is written bare), comments, side lines (their moves
    /// with their captures too, replayed from where each branches).
    fn move_tokens(&self) -> Vec<String> {
        let rules = self.rules(Rules::default()).unwrap_or_default();
        let mut state = self
            .start(rules.variant)
            .ok()
            .map(|b| GameState::new(b, rules));
        let north_starts = state
            .as_ref()
            .is_some_and(|s| s.board().side_to_move() == Side::North);
        // The game before each move, where the side lines replacing it branch (kept only when
        // there are side lines).
        let mut before = Vec::new();
        let words: Vec<String> = self
            .moves
            .iter()
            .map(|&mv| {
                if !self.variations.is_empty() {
                    before.push(state.clone());
                }
                let captured = state.as_mut().and_then(|s| {
                    let captured = captures(s, mv);
                    if captured.is_none() {
                        *s = GameState::new(s.board(), *s.rules()); // stop computing captures
                    }
                    captured
                });
                with_capture(&mv, captured)
            })
            .collect();
        line_tokens(
            &words,
            &self.comments,
            &annotated(&self.variations, &before),
            usize::from(north_starts),
            1,
        )
    }
}

/// Plays `mv` in `game`: the seeds its mover captured, or `None` (and `game` unchanged) when the
/// rules refuse it.
fn captures(game: &mut GameState, mv: Move) -> Option<u8> {
    let mover = game.board().side_to_move();
    let stored = game.board().store(mover);
    game.play(mv)
        .ok()
        .map(|()| game.board().store(mover) - stored)
}

/// A move's word with what it captured: `b+3`, or the word alone (nothing captured, or not
/// known).
fn with_capture(word: &impl fmt::Display, captured: Option<u8>) -> String {
    match captured {
        Some(c) if c > 0 => format!("{word}+{c}"),
        _ => word.to_string(),
    }
}

/// `variations` of a line whose game before its move `k` is `before[k]` (`None` past a move the
/// rules refuse), each move written with what it captures (`b+3`), replayed from where its line
/// branches; from a word that is not one move, or a move the rules refuse, the line's moves are
/// written as they are.
fn annotated(variations: &[Variation], before: &[Option<GameState>]) -> Vec<Variation> {
    variations
        .iter()
        .map(|v| {
            let mut state = before.get(v.at).cloned().flatten();
            let mut states = Vec::new();
            let moves = v
                .moves
                .iter()
                .map(|word| {
                    if !v.variations.is_empty() {
                        states.push(state.clone());
                    }
                    let mut letters = word.chars();
                    let mv = match (letters.next(), letters.next()) {
                        (Some(c), None) => Move::from_letter(c),
                        _ => None,
                    };
                    let captured = state.as_mut().zip(mv).and_then(|(s, mv)| captures(s, mv));
                    if captured.is_none() {
                        state = None;
                    }
                    with_capture(word, captured)
                })
                .collect();
            Variation {
                at: v.at,
                moves,
                comments: v.comments.clone(),
                variations: annotated(&v.variations, &states),
            }
        })
        .collect()
}

impl fmt::Display for OgnGame {
    /// The record: tag lines, a blank line, the move text wrapped before 80 columns, a blank line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::write(self, f)
    }
}

/// Parses every record in `text` (records follow one another; a tag after move text starts the
/// next record). Comments before the first move are skipped, variations `( ... )` kept as
/// [`OgnGame::variations`], `;` starts a comment to the end of the line.
///
/// # Errors
/// The first [`ParseError`] met.
pub fn parse(text: &str) -> Result<Vec<OgnGame>, ParseError> {
    parse_records::<OgnGame>(text)
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

/// Replays `game` with the rules (the record's `Variant`, `Repetitions` and `NoCaptureLimit` tags,
/// else `default`, see [`OgnGame::rules`]): every move must be legal and capture what the move text
/// says (`b+3`; a move written alone captures nothing; moves run together say nothing); if the
/// rules end the game, its result must be the final seed count (or say the same winner); if they
/// do not, the result must be `*`, a forfeit or an agreed draw.
///
/// # Errors
/// [`ReplayError`] naming the first disagreement.
pub fn replay(game: &OgnGame, default: Rules) -> Result<Replayed, ReplayError> {
    let rules = game.rules(default)?;
    let start = game
        .start(rules.variant)
        .map_err(|e| ReplayError::Fen(e.to_string()))?;
    let mut state = GameState::new(start, rules);
    for (i, &mv) in game.moves.iter().enumerate() {
        let mover = state.board().side_to_move();
        let before = state.board().store(mover);
        state.play(mv).map_err(|e| ReplayError::Move {
            number: i + 1,
            mv: mv.to_string(),
            reason: e.to_string(),
        })?;
        let captured = state.board().store(mover) - before;
        if let Some(&Some(written)) = game.captures.get(i) {
            if written != captured {
                return Err(ReplayError::Capture {
                    number: i + 1,
                    mv: mv.to_string(),
                    written,
                    captured,
                });
            }
        }
    }
    check_result(game, &state, winner_of_result, |end| {
        format!(
            "the rules end it {} ({})",
            seed_result(end),
            end.oware_reason()
        )
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

    /// A side line's moves are written with their captures, replayed from where the line
    /// branches (the main line's `b` after `F f B e C` takes 2, and so does the side line's),
    /// nested lines too; reading the record back gives the same side lines.
    #[test]
    fn side_lines_are_written_with_their_captures() {
        let games = parse("1. F f 2. B e 3. C b (3... b (3... b)) *\n").unwrap();
        let text = games[0].to_string();
        assert!(text.contains("3. C b+2 (3... b+2 (3... b+2)) *"), "{text}");
        let again = parse(&text).unwrap();
        assert_eq!(again[0].variations, games[0].variations);
        assert_eq!(again[0].variations[0].moves, ["b"]);
        // A side line with a move the rules refuse is written as it is from there on.
        let games = parse("1. F f 2. B e 3. C b (3... A b) *\n").unwrap();
        assert!(
            games[0].to_string().contains("(3... A 4. b)"),
            "{}",
            games[0]
        );
    }

    #[test]
    fn parses_auale_style_text() {
        let text = "[Variant \"Oware Abapa\"]\n[Event \"?\"]\n[Result \"*\"]\n\n1. F f 2. B {a comment\n over lines} \
                    e (3. A a) 3. Cb ; rest of line ignored\n*\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 1);
        let moves: String = games[0].moves.iter().map(|m| m.letter()).collect();
        assert_eq!(moves, "FfBeCb");
        // The variation after `e` replaces it, whatever its move numbers say; written back bare,
        // after it, numbered by its plies.
        let side = &games[0].variations;
        assert_eq!(side.len(), 1);
        assert_eq!(
            (side[0].at, side[0].moves.join(" ")),
            (3, "A a".to_string())
        );
        let text = games[0].to_string();
        assert!(
            text.contains("2. B {a comment over lines} e (2... A 3. a) 3. C b+2 *"),
            "{text}"
        );
        assert_eq!(
            games[0].comments[2].as_deref(),
            Some("a comment over lines")
        );
        assert_eq!(
            games[0].rules(Rules::default()).unwrap().variant,
            RuleSet::Abapa
        );
        let r = replay(&games[0], Rules::default()).unwrap();
        assert_eq!((r.end, r.winner, r.plies), (None, None, 6));
    }

    #[test]
    fn parse_errors_name_the_line() {
        assert_eq!(
            parse("[Event \"x\"]\n\n1. F g\n"),
            Err(ParseError::Token {
                line: 3,
                token: "g".into()
            })
        );
        assert!(matches!(
            parse("[Event x]\n"),
            Err(ParseError::Tag { line: 1, .. })
        ));
        assert_eq!(
            parse("1. F {open\n"),
            Err(ParseError::Unclosed {
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
        // An agreement ends only in a draw.
        g.set_tag("Termination", "agreed: draw by agreement");
        assert!(matches!(
            replay(&g, Rules::default()),
            Err(ReplayError::Result { .. })
        ));
        g.set_tag("Result", "1/2-1/2");
        let r = replay(&g, Rules::default()).unwrap();
        assert!(r.players == Some(crate::records::PlayersEndKind::AgreedDraw) && !r.forfeit);
        assert_eq!(r.winner, Some(None));
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
                mv: "F".to_string(),
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
        assert_eq!(rules("").unwrap().variant, RuleSet::Abapa);
        assert_eq!(rules("[Variant \"?\"]").unwrap().variant, RuleSet::Abapa);
        let awari = Rules {
            variant: RuleSet::Awari,
            ..Rules::default()
        };
        assert_eq!(with("").rules(awari).unwrap().variant, RuleSet::Awari);
        assert_eq!(
            rules("[Variant \"Oware Awari\"]").unwrap().variant,
            RuleSet::Awari
        );
        assert_eq!(
            rules("[Variant \"ABAPA\"]").unwrap().variant,
            RuleSet::Abapa
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
