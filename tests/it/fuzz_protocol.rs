//! Property tests of the protocol loop: random garbage lines, and random mixes of real command
//! words, never panic or hang the engine, and every line that is wrong gets exactly one
//! `info string error: ...` line.
//!
//! Each case runs the loop in-process on a byte buffer. After every generated line the input has a
//! marker line (an unknown command of its own), so the output can be cut into one segment per
//! generated line. Whether a line should be refused is worked out by a small model of the session
//! built on the library (the parser, the options and the game rules); the segment must hold
//! exactly that many error lines (0 or 1). Searches are kept short with `Level 1` (the mixes never
//! hold the value 6 that would raise it), and `go infinite` / `go ponder` end with the input.

use std::io::Cursor;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use perfectplay::game::{find_option, Game, GameState, Notation, Settings};
use perfectplay::oware::Board;
use perfectplay::protocol::{canonical_name, engine_options, Command, EngineSettings};
use proptest::prelude::*;

const ERROR: &str = "info string error: ";
const CASE_TIMEOUT: Duration = Duration::from_secs(60);

/// What the session should do with each line: refuse it (1) or not (0). The mixes hold only the
/// Oware variants.
struct Model {
    engine: EngineSettings,
    settings: Settings<Board>,
    /// `None` after a refused `position`.
    game: Option<GameState<Board>>,
}

impl Model {
    fn new() -> Model {
        Model {
            engine: EngineSettings::default(),
            settings: Settings::default(),
            game: Some(GameState::from_start(Default::default())),
        }
    }

    /// The rules in force: the game's, under the engine's variant.
    fn rules(&self) -> perfectplay::oware::Rules {
        let mut rules = self.settings.rules;
        rules.variant = self
            .engine
            .variant
            .name()
            .parse()
            .expect("an Oware variant");
        rules
    }

    fn replay(&self, start: Option<&str>, moves: &[String]) -> Option<GameState<Board>> {
        let rules = self.rules();
        let start = match start {
            Some(text) => Board::parse_position(text, &rules).ok()?,
            None => <Board as Game>::start(&rules),
        };
        let words: Vec<&str> = moves.iter().map(String::as_str).collect();
        let moves = start.parse_moves(&words).ok()?;
        let mut game = GameState::new(start, rules);
        game.play_all_past_cycle_end(&moves).ok()?;
        Some(game)
    }

    /// After a rule change: the game replayed under the new rules, or the start position.
    fn replay_game(&mut self) {
        let Some(game) = &self.game else { return };
        let start = (game.start() != &<Board as Game>::start(game.rules()))
            .then(|| game.start().write_position());
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        self.game = Some(
            self.replay(start.as_deref(), &moves)
                .unwrap_or_else(|| GameState::from_start(self.rules())),
        );
    }

    /// The number of error lines `text` should get, updating the model as the session would. A
    /// bare `\r` ends a line as `\n` does, so `text` may hold several lines.
    fn errors_for(&mut self, text: &str) -> usize {
        text.split('\r')
            .map(|line| self.errors_for_line(line))
            .sum()
    }

    fn errors_for_line(&mut self, line: &str) -> usize {
        if line.trim().is_empty() {
            return 0;
        }
        let command = match line.parse::<Command>() {
            Ok(command) => command,
            Err(_) => {
                if line.split_whitespace().next() == Some("position") {
                    self.game = None;
                }
                return 1;
            }
        };
        match command {
            Command::SetOption { name, value } => {
                let name = canonical_name(&name);
                let engine = engine_options();
                if let Some(decl) = find_option(&engine, name) {
                    let mut settings = self.engine.clone();
                    if decl.apply(&mut settings, &value).is_err() {
                        return 1;
                    }
                    let variant_changed = settings.variant != self.engine.variant;
                    self.engine = settings;
                    if variant_changed {
                        self.replay_game();
                    }
                    return 0;
                }
                let game = Board::options();
                let Some(decl) = find_option(&game, name) else {
                    return 1;
                };
                let mut settings = self.settings.clone();
                if decl.apply(&mut settings, &value).is_err() {
                    return 1;
                }
                let rules_changed = settings.rules != self.settings.rules;
                self.settings = settings;
                if rules_changed {
                    self.replay_game();
                }
                0
            }
            Command::Position { start, moves } => {
                self.game = self.replay(start.as_deref(), &moves);
                usize::from(self.game.is_none())
            }
            Command::NewGame => {
                self.game = Some(GameState::from_start(self.rules()));
                0
            }
            Command::Go { .. } | Command::Legal | Command::Display => {
                usize::from(self.game.is_none())
            }
            _ => 0,
        }
    }
}

/// Runs the loop on `lines` (each followed by a marker) and checks every segment against the
/// model. The loop runs on its own thread so that a hang fails the case instead of the suite.
fn check_session(lines: Vec<Vec<u8>>) -> Result<(), TestCaseError> {
    let mut input = b"setoption name Level value 1\n".to_vec();
    for (i, line) in lines.iter().enumerate() {
        input.extend_from_slice(line);
        input.extend_from_slice(format!("\nzzmark{i}\n").as_bytes());
    }
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut output = Vec::new();
        let result = perfectplay::protocol::run(Cursor::new(input), &mut output);
        let _ = tx.send(result.map(|()| output));
    });
    let output = match rx.recv_timeout(CASE_TIMEOUT) {
        Ok(Ok(output)) => output,
        Ok(Err(e)) => return Err(TestCaseError::fail(format!("run failed: {e}"))),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            return Err(TestCaseError::fail("the session did not end in time"))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            return Err(TestCaseError::fail("the session panicked"))
        }
    };
    let text = String::from_utf8(output).map_err(|_| TestCaseError::fail("output not UTF-8"))?;
    let mut segments: Vec<Vec<&str>> = vec![Vec::new()];
    for out in text.lines() {
        if out.starts_with(ERROR) && out.contains("'zzmark") {
            segments.push(Vec::new());
        } else {
            segments.last_mut().expect("a segment").push(out);
        }
    }
    prop_assert_eq!(
        segments.len(),
        lines.len() + 1,
        "one marker per line:\n{}",
        text
    );
    let mut model = Model::new();
    model.errors_for("setoption name Level value 1");
    for (i, line) in lines.iter().enumerate() {
        let line = String::from_utf8_lossy(line);
        let expected = model.errors_for(&line);
        let errors = segments[i].iter().filter(|l| l.starts_with(ERROR)).count();
        prop_assert_eq!(
            errors,
            expected,
            "line {:?} got {:?}\nwhole output:\n{}",
            line,
            segments[i],
            text
        );
    }
    Ok(())
}

/// Words the mixes are made of: every command and keyword, option names and values, diagrams,
/// moves, and near misses. No `6` (which could set full strength and make searches long).
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "nodes",
    "depth",
    "movetime",
    "infinite",
    "ponder",
    "wtime",
    "stop",
    "ponderhit",
    "legal",
    "d",
    "debug",
    "on",
    "quit",
    "Level",
    "Seed",
    "Variant",
    "abapa",
    "awari",
    "Repetitions",
    "NoCaptureLimit",
    "Hash",
    "Ponder",
    "true",
    "WeightCapture",
    "WeightSmall",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "500",
    "99999999999999999999",
    "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S",
    "0-0-0-0-0-1-0-0-0-0-0-0-24-23-S",
    "4-4-4-4-4-4-4-4-4-4-4-4-0-0",
    "4-4-4-4-4-4-4-4-4-4-4-5-0-0-N",
    "F",
    "f",
    "Ff",
    "FfBe",
    "FfBeBcDa",
    "FF",
    "G",
    "é",
    "\t",
];

/// A line of 1 to 7 words from [`WORDS`], never exactly `quit` (which would end the session and
/// silence the rest of the case).
fn word_mix() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(WORDS), 1..8)
        .prop_map(|words| words.join(" "))
        .prop_filter("not quit", |line| line.trim() != "quit")
        .prop_map(String::into_bytes)
}

/// A diagram: random houses with stores making 48 when they can (so it is usually valid, and
/// often a finished game), else an invalid total.
fn diagram() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(0u32..=8, 12),
        any::<u32>(),
        any::<bool>(),
    )
        .prop_map(|(houses, x, north)| {
            let on_board: u32 = houses.iter().sum();
            let (south, north_store) = if on_board <= 48 {
                let south = x % (48 - on_board + 1);
                (south, 48 - on_board - south)
            } else {
                (0, 0)
            };
            let houses: Vec<String> = houses.iter().map(u32::to_string).collect();
            let side = if north { "N" } else { "S" };
            format!("{}-{south}-{north_store}-{side}", houses.join("-"))
        })
}

/// Well-formed commands whose arguments are random: moves that may be illegal, diagrams that may
/// be finished, option values that may be out of range, `go` with any mix of limits.
fn command_line() -> impl Strategy<Value = Vec<u8>> {
    let moves = prop::option::of("[A-Fa-f]{0,14}");
    let position = (prop::option::of(diagram()), moves).prop_map(|(diagram, moves)| {
        let mut line = match diagram {
            Some(d) => format!("position fen {d}"),
            None => "position startpos".to_string(),
        };
        if let Some(m) = moves {
            line.push_str(&format!(" moves {m}"));
        }
        line
    });
    let go = prop::collection::vec(
        prop::sample::select(
            &[
                "nodes 300",
                "depth 2",
                "movetime 20",
                "infinite",
                "ponder",
                "wtime 1000",
                "nodes 0",
                "depth 0",
            ][..],
        ),
        0..4,
    )
    .prop_map(|limits| format!("go {}", limits.join(" ")));
    let setoption = (
        prop::sample::select(
            &[
                "Level",
                "Seed",
                "Variant",
                "Repetitions",
                "NoCaptureLimit",
                "Hash",
                "Ponder",
                "WeightCapture",
                "WeightSeeds",
                "WeightSmall",
                "WeightLarge",
                "WeightEmpty",
                "WeightThreats",
                "WeightCaptureLate",
                "level",
                "Unknown",
            ][..],
        ),
        prop::sample::select(
            &[
                "1", "2", "3", "0", "-1", "2.5", "abapa", "awari", "true", "100000", "-100001", "",
            ][..],
        ),
    )
        .prop_map(|(name, value)| format!("setoption name {name} value {value}"));
    let simple = prop::sample::select(
        &[
            "uci",
            "isready",
            "ucinewgame",
            "stop",
            "ponderhit",
            "legal",
            "d",
            "debug on",
        ][..],
    )
    .prop_map(String::from);
    prop_oneof![3 => position, 2 => go, 2 => setoption, 1 => simple].prop_map(String::into_bytes)
}

/// Any bytes but a newline, often not UTF-8.
fn garbage_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        any::<u8>().prop_filter("no newline", |&b| b != b'\n'),
        0..40,
    )
    .prop_filter("not quit", |bytes| {
        String::from_utf8_lossy(bytes).trim() != "quit"
    })
}

/// Printable ASCII garbage, with the odd real command word at the front.
fn garbage_text() -> impl Strategy<Value = Vec<u8>> {
    (prop::option::of(prop::sample::select(WORDS)), "[ -~]{0,40}")
        .prop_map(|(head, tail)| match head {
            Some(h) => format!("{h}{tail}"),
            None => tail,
        })
        .prop_filter("not quit", |line| line.trim() != "quit")
        .prop_map(String::into_bytes)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn garbage_bytes_are_refused_one_error_each(lines in prop::collection::vec(garbage_bytes(), 1..12)) {
        check_session(lines)?;
    }

    #[test]
    fn garbage_text_is_refused_one_error_each(lines in prop::collection::vec(garbage_text(), 1..12)) {
        check_session(lines)?;
    }

    #[test]
    fn mixes_of_command_words_never_panic_and_errors_match_the_model(
        lines in prop::collection::vec(word_mix(), 1..16)
    ) {
        check_session(lines)?;
    }

    #[test]
    fn well_formed_commands_with_random_arguments_match_the_model(
        lines in prop::collection::vec(command_line(), 1..16)
    ) {
        check_session(lines)?;
    }
}

/// The parsers alone, on many more inputs than the sessions above: never a panic.
mod parsers {
    use super::*;
    use perfectplay::oware::{parse_moves, Move};

    proptest! {
        #[test]
        fn command_parser_never_panics(line in "\\PC{0,60}") {
            let _ = line.parse::<Command>();
        }

        #[test]
        fn diagram_parser_never_panics(text in "[0-9NSns\\- ]{0,50}") {
            if let Ok(board) = text.parse::<Board>() {
                // A diagram that parses prints back to an equivalent diagram.
                prop_assert_eq!(board.to_string().parse::<Board>().ok(), Some(board));
            }
        }

        #[test]
        fn move_lists_parse_letter_by_letter(text in "[A-Fa-f ]{0,30}") {
            let moves = parse_moves(text.split(' ')).expect("house letters");
            let letters: String = moves.iter().map(|m: &Move| m.letter()).collect();
            prop_assert_eq!(letters, text.replace(' ', ""));
        }
    }
}
