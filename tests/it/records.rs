//! Property tests of the record parsers that the match runner's `--replay` and the web board's
//! import feed with pasted text: OGN (Oware) and PGN (Dobutsu Shogi). No text makes them panic,
//! nor the replay of what they read; and a record written then parsed gives back its moves,
//! comments and tags, and replays to the same end.

use perfectplay::dobutsu::Position;
use perfectplay::game::GameState;
use perfectplay::oware::{Board, RuleSet, Rules};
use perfectplay::records::sanitize_comment;
use perfectplay::records::{ogn, pgn};
use proptest::prelude::*;

/// Words a record is made of, run together with random separators: tags, well-formed and broken,
/// move numbers, moves of both games, results, comments and variations, open or closed.
fn record_like() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("[Variant \"Oware Awari\"]".to_string()),
        Just("[Variant \"dobutsu\"]".to_string()),
        Just("[FEN \"gle/1c1/1C1/ELG[-] w 0 1\"]".to_string()),
        Just("[FEN \"0-0-0-0-0-1-1-0-0-0-0-0-23-23-S\"]".to_string()),
        Just("[Repetitions \"1\"]".to_string()),
        Just("[NoCaptureLimit \"x\"]".to_string()),
        Just("[Result \"25-19\"]".to_string()),
        Just("[Bad".to_string()),
        Just("[Name \"a\\\"b\\\\\"]".to_string()),
        "[1-9][0-9]{0,2}\\.{1,3}".prop_map(String::from),
        "[A-Fa-f]{1,4}(\\+[0-9]{1,3})?".prop_map(String::from),
        "[a-c][1-4][a-c][1-4]\\+?".prop_map(String::from),
        "[CEGL]\\*[a-c][1-4]".prop_map(String::from),
        prop_oneof![
            Just("*"),
            Just("1-0"),
            Just("0-1"),
            Just("1/2-1/2"),
            Just("48-0")
        ]
        .prop_map(String::from),
        "\\{[^{}]{0,10}\\}?".prop_map(String::from),
        "\\([a-f ]{0,6}\\)?".prop_map(String::from),
        Just(";".to_string()),
        Just("$1".to_string()),
        "\\PC{0,4}".prop_map(String::from),
    ];
    let separator = prop_oneof![Just(" "), Just("\n"), Just(""), Just("\r\n"), Just("\t")];
    prop::collection::vec((word, separator), 0..24)
        .prop_map(|parts| parts.into_iter().map(|(w, s)| w + s).collect())
}

/// A tag that is not one of the rules' (so any value is allowed): a name and a printable value.
fn free_tag() -> impl Strategy<Value = (String, String)> {
    ("[A-Z][a-zA-Z0-9_]{0,8}", "\\PC{0,12}").prop_filter(
        "not a tag of the rules or the position",
        |(name, _)| {
            ![
                "Variant",
                "FEN",
                "SetUp",
                "Repetitions",
                "NoCaptureLimit",
                "Result",
            ]
            .contains(&name.as_str())
        },
    )
}

/// Up to `n` random legal plies from the start of `G`, chosen by `picks`.
fn random_game<G: perfectplay::game::Notation>(
    mut state: GameState<G>,
    picks: &[usize],
) -> GameState<G> {
    for &pick in picks {
        let legal = state.legal_moves();
        if legal.is_empty() {
            break;
        }
        state.play(legal[pick % legal.len()]).unwrap();
    }
    state
}

/// The comments and tags read back are those written: comments as `sanitize_comment` writes
/// them, tag values with line breaks as spaces.
type CommentsAndTags<'a> = (&'a [Option<String>], &'a [(String, String)]);
fn same_comments_and_tags(
    written: CommentsAndTags,
    read: CommentsAndTags,
) -> Result<(), TestCaseError> {
    let expected: Vec<Option<String>> = written
        .0
        .iter()
        .map(|c| c.as_deref().map(sanitize_comment))
        .collect();
    prop_assert_eq!(read.0, &expected[..]);
    for (name, value) in written.1 {
        let value = value.replace(['\n', '\r'], " ");
        prop_assert_eq!(
            perfectplay::records::tag(read.1, name),
            Some(value.as_str())
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn ogn_never_panics(text in prop_oneof![record_like(), "\\PC{0,200}"]) {
        if let Ok(games) = ogn::parse(&text) {
            for game in &games {
                let _ = ogn::replay(game, Rules::default());
                let _ = game.to_string();
            }
        }
    }

    #[test]
    fn pgn_never_panics(text in prop_oneof![record_like(), "\\PC{0,200}"]) {
        if let Ok(games) = pgn::parse(&text) {
            for game in &games {
                let rules = perfectplay::dobutsu::Rules::default();
                let _ = pgn::replay::<Position>(game, &rules);
                let _ = game.to_string();
            }
        }
    }

    /// An Oware game written as OGN and read back: the same moves, comments and tags, the
    /// captures the writer computed, and a replay of as many plies to
    /// the same end.
    #[test]
    fn ogn_written_then_parsed_gives_the_game_back(
        awari in any::<bool>(),
        picks in prop::collection::vec(any::<usize>(), 0..120),
        comments in prop::collection::vec(prop::option::of("\\PC{0,16}"), 120),
        tags in prop::collection::vec(free_tag(), 0..6),
    ) {
        let variant = if awari { RuleSet::Awari } else { RuleSet::Abapa };
        let rules = Rules { variant, ..Rules::default() };
        let state = random_game(GameState::new(Board::start(variant), rules), &picks);
        let mut record = ogn::OgnGame::default();
        record.set_tag("Variant", if awari { "Oware Awari" } else { "Oware Abapa" });
        for (name, value) in &tags {
            record.set_tag(name, value.clone());
        }
        let result = state.end().map_or("*".to_string(), |end| ogn::seed_result(&end));
        record.set_tag("Result", result.clone());
        for (&mv, comment) in state.moves().iter().zip(&comments) {
            record.push_move(mv, comment.clone());
        }

        let text = record.to_string();
        let read = ogn::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(read.len(), 1);
        let back = &read[0];
        prop_assert_eq!(&back.moves, &record.moves);
        same_comments_and_tags((&record.comments, &record.tags), (&back.comments, &back.tags))?;
        prop_assert_eq!(&back.to_string(), &text);
        let replayed = ogn::replay(back, Rules::default())
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(replayed.plies, state.ply());
        prop_assert_eq!(replayed.end, state.end());
    }

    /// A Dobutsu game written as PGN and read back: the same moves, comments and tags, and a
    /// replay that reaches the same position.
    #[test]
    fn pgn_written_then_parsed_gives_the_game_back(
        picks in prop::collection::vec(any::<usize>(), 0..120),
        comments in prop::collection::vec(prop::option::of("\\PC{0,16}"), 120),
        tags in prop::collection::vec(free_tag(), 0..6),
    ) {
        let rules = perfectplay::dobutsu::Rules::default();
        let state = random_game(GameState::<Position>::from_start(rules), &picks);
        let mut record = pgn::PgnGame::default();
        record.set_tag("Variant", "dobutsu");
        for (name, value) in &tags {
            record.set_tag(name, value.clone());
        }
        let result = state.end().map_or("*", |end| end.result_string());
        record.set_tag("Result", result);
        for (mv, comment) in state.moves().iter().zip(&comments) {
            record.moves.push(mv.to_string());
            record.comments.push(comment.clone());
        }

        let text = record.to_string();
        let read = pgn::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(read.len(), 1);
        let back = &read[0];
        prop_assert_eq!(&back.moves, &record.moves);
        same_comments_and_tags((&record.comments, &record.tags), (&back.comments, &back.tags))?;
        prop_assert_eq!(&back.to_string(), &text);
        let replayed = pgn::replay::<Position>(back, &rules)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(replayed.plies, state.ply());
        prop_assert_eq!(replayed.end, state.end());
    }
}
