//! The match runner on Dobutsu Shogi (`--variant dobutsu`): matches between two instances of the
//! real engine, a fake engine (this test binary re-run as one, see `fake_dobutsu_engine`) that
//! plays an illegal move, and PGN records written and replayed.

use crate::common::arena::{match_args, played, run_quiet, scratch};
use crate::fake_engine;
use perfectplay::arena::runner::{Fault, GameRecord, Opening, Termination};
use perfectplay::dobutsu::{Position, Rules};
use perfectplay::game::{GameState, Notation};
use perfectplay::records::pgn;
use perfectplay::records::Recorded;

fn real_engine() -> String {
    // No solution from the machine's default place, and none built there: the plain search
    // plays.
    format!(
        "env 'XDG_DATA_HOME={}/no-data' '{}' --option AutoSolve=false",
        env!("CARGO_TARGET_TMPDIR"),
        env!("CARGO_BIN_EXE_perfectplay")
    )
}

// ---------------------------------------------------------------------------------------------
// Matches.

/// Level 5 beats level 1 at Dobutsu. Six games (three openings of four random
/// plies, colours swapped), each engine at most 5,000 nodes a move (level 1 caps itself at 500
/// and depth 1): the referee sees only legal moves (no fault), every game ends by the rules, the
/// PGN records (one file and one file a game) replay, and `--replay` of the built binary agrees.
#[test]
fn dobutsu_level_5_beats_level_1_and_the_records_replay() {
    let path = scratch("level.pgn");
    let dir = scratch("level-games");
    let summary = played(
        run_quiet(match_args(&[
            "--variant",
            "dobutsu",
            "--engine",
            &real_engine(),
            "--engine",
            &real_engine(),
            "--option",
            "1:Level=5",
            "--option",
            "2:Level=1",
            "--nodes",
            "5000",
            "--games",
            "6",
            "--concurrency",
            "2",
            "--ogn",
            path.to_str().unwrap(),
            "--ogn-dir",
            dir.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    let t = &summary.tally;
    assert_eq!(t.games.games(), 6);
    assert!(t.faults.iter().all(|f| f.is_empty()), "{:?}", t.faults);
    assert!(
        t.games.wins > t.games.losses && t.games.score() > 0.5,
        "level 5 should win: {summary}"
    );
    let text = summary.to_string();
    assert!(
        text.contains("(dobutsu, repetitions 3)") && text.contains("Sente won"),
        "{text}"
    );

    let records = pgn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(records.len(), 6);
    let mut level5_points = 0.0;
    for g in &records {
        assert_eq!(g.tag("Variant"), Some("dobutsu"));
        assert_eq!(g.tag("SetUp"), Some("1"));
        let r = pgn::replay::<Position>(g, &Rules::default()).unwrap();
        let end = r.end.expect("every game ends by the rules");
        assert_eq!(g.tag("Result"), Some(end.result_string()));
        assert_eq!(r.plies, g.moves.len());
        assert!(g.tag("Termination").unwrap().starts_with("rules: "));
        let level5 = usize::from(g.tag("White") != summary.names.first().map(String::as_str));
        level5_points += match end.winner.map(perfectplay::game::Player::index) {
            None => 0.5,
            Some(w) if w == level5 => 1.0,
            Some(_) => 0.0,
        };
    }
    assert_eq!(level5_points, t.games.points());
    let single = std::fs::read_to_string(dir.join("game-0004.pgn")).unwrap();
    let round4 = records
        .iter()
        .find(|g| g.tag("Round") == Some("4"))
        .unwrap();
    assert_eq!(pgn::parse(&single).unwrap()[0], *round4);

    // The binary's --replay finds the file is Dobutsu by its Variant tag.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["match", "--replay", path.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.starts_with("Replayed 6 games: 6 ended by the rules, 0 by a fault, 0 unfinished"),
        "{stdout}"
    );
    assert!(stdout.contains("Sente won "), "{stdout}");
}

/// A Dobutsu engine that answers an illegal move loses the game by forfeit, the record says so
/// and still replays; its opponent (told `Variant dobutsu`, sent its moves separated by blanks,
/// and not sent Oware's `NoCaptureLimit`) has no fault.
#[test]
fn dobutsu_illegal_move_forfeits() {
    let path = scratch("illegal.pgn");
    let summary = played(
        run_quiet(match_args(&[
            "--variant",
            "dobutsu",
            "--engine",
            &fake_engine::command("dobutsu", "illegal:2"),
            "--engine",
            &fake_engine::command("dobutsu", "first"),
            "--games",
            "2",
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    let t = &summary.tally;
    assert_eq!(t.games.games(), 2);
    assert_eq!(t.games.losses, 2, "{summary}");
    assert_eq!(t.fault_count(0, Fault::IllegalMove), 2, "{:?}", t.faults);
    assert!(t.faults[1].is_empty(), "{:?}", t.faults);
    let records = pgn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(records.len(), 2);
    for g in &records {
        let termination = g.tag("Termination").unwrap();
        assert!(
            termination.starts_with("forfeit: illegal move by "),
            "{termination}"
        );
        assert!(termination.contains(": bestmove "), "{termination}");
        let loser = if termination.contains("by Sente") {
            "0-1"
        } else {
            assert!(termination.contains("by Gote"), "{termination}");
            "1-0"
        };
        assert_eq!(g.tag("Result"), Some(loser));
        let r = pgn::replay::<Position>(g, &Rules::default()).unwrap();
        assert!(r.forfeit && r.end.is_none());
    }
}

#[test]
fn no_capture_limit_is_refused_for_dobutsu() {
    let err = run_quiet(match_args(&[
        "--variant",
        "dobutsu",
        "--engine",
        "a",
        "--engine",
        "b",
        "--no-capture-limit",
        "100",
    ]))
    .unwrap_err();
    assert!(format!("{err:#}").contains("--no-capture-limit"), "{err:#}");
}

// ---------------------------------------------------------------------------------------------
// Records.

/// A game from `fen` with `moves` (the first `book` of them the opening), ended by the rules.
fn record(fen: &str, moves: &[&str], book: usize) -> GameRecord<Position> {
    let rules = Rules::default();
    let start = Position::parse_position(fen, &rules).unwrap();
    let moves = start.parse_moves(moves).unwrap();
    let mut state = GameState::new(start, rules);
    state.play_all(&moves).unwrap();
    GameRecord {
        number: 7,
        pair: 3,
        first_player_engine: 0,
        names: ["sente \"one\"".into(), "gote".into()],
        opening: Opening {
            start,
            moves: moves[..book].to_vec(),
        },
        moves: moves[book..].to_vec(),
        notes: vec![],
        termination: Termination::Rules(state.end().expect("the moves end the game")),
    }
}

/// A record written by the runner parses back to the same moves and tags and replays to the
/// same end; Gote's first move is numbered `1...`; a record whose result or moves were changed
/// does not replay.
#[test]
fn dobutsu_record_round_trip() {
    let rules = Rules::default();
    // The start position with Gote to move.
    let fen = "gle/1c1/1C1/ELG[] b - - 0 1";
    let start = Position::parse_position(fen, &rules).unwrap();
    // Play the first legal move of each position until the game ends.
    let mut state = GameState::new(start, rules);
    while !state.is_over() && state.ply() < 200 {
        let mv = state.legal_moves()[0];
        state.play(mv).unwrap();
    }
    let words: Vec<String> = state.moves().iter().map(|m| m.to_string()).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let r = record(fen, &words, 2);
    let text = Position::write_record(&r, "test event", "2026.12.01", &rules);
    assert!(
        text.starts_with(
            "[Event \"test event\"]\n[Site \"?\"]\n[Date \"2026.12.01\"]\n[Round \"7\"]\n\
             [White \"sente \\\"one\\\"\"]\n[Black \"gote\"]\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "[Variant \"dobutsu\"]\n[SetUp \"1\"]\n[FEN \"gle/1c1/1C1/ELG[] b - - 0 1\"]\n"
        ),
        "{text}"
    );
    let movetext: String = text.split("\n\n").nth(1).unwrap().to_string();
    assert!(
        movetext.starts_with(&format!("1... {} 2. {} {{opening}}", words[0], words[1])),
        "{movetext}"
    );
    let games = pgn::parse(&text).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.moves, words);
    assert_eq!(g.tag("White"), Some("sente \"one\""));
    assert_eq!(g.tag("OpeningPlies"), Some("2"));
    assert_eq!(g.comments[1].as_deref(), Some("opening"));
    let replayed = pgn::replay::<Position>(g, &rules).unwrap();
    let Termination::Rules(end) = &r.termination else {
        unreachable!()
    };
    assert_eq!(replayed.end.as_ref(), Some(end));
    assert_eq!(replayed.winner, Some(end.winner));
    // Written again, the parsed record is the same text.
    let again = pgn::parse(&g.to_string()).unwrap();
    assert_eq!(again[0], *g);

    // Changed results and moves are caught.
    let wrong = match end.result_string() {
        "1-0" => "0-1",
        _ => "1-0",
    };
    let tampered = text.replace(
        &format!("[Result \"{}\"]", end.result_string()),
        &format!("[Result \"{wrong}\"]"),
    );
    let err = pgn::replay::<Position>(&pgn::parse(&tampered).unwrap()[0], &rules).unwrap_err();
    assert!(matches!(err, pgn::ReplayError::Result { .. }), "{err}");
    let mut bad = g.clone();
    bad.moves[2] = "a1a1".into();
    let err = pgn::replay::<Position>(&bad, &rules).unwrap_err();
    assert!(
        matches!(err, pgn::ReplayError::Move { number: 3, .. }),
        "{err}"
    );
    let mut other = g.clone();
    other.set_tag("Variant", "chess");
    assert!(pgn::record_rules::<Position>(&other, &rules).is_err());
}

/// The `MaterialOnly` option, the baseline of evaluation matches: `true` sets the material-only
/// weights, `false` restores the defaults.
#[test]
fn material_only_option_switches_the_evaluation() {
    use perfectplay::dobutsu::Weights;
    use perfectplay::game::{find_option, Game, Settings};
    let options = <Position as Game>::options();
    let decl = find_option(&options, "MaterialOnly").expect("declared");
    let mut settings = Settings::<Position>::default();
    decl.apply(&mut settings, "true").unwrap();
    assert_eq!(settings.weights, Weights::material_only());
    assert_ne!(Weights::material_only(), Weights::default());
    decl.apply(&mut settings, "false").unwrap();
    assert_eq!(settings.weights, Weights::default());
    assert!(decl.apply(&mut settings, "maybe").is_err());
}

/// The runner checks an engine's options against the list it gives under the match's variant:
/// our engine lists its Dobutsu options (`Mobility`, `SolutionPath`) only once told `Variant
/// dobutsu`, and its Oware options (`TablebasePath`) no more then; a Dobutsu option given to it
/// draws no warning that it is unknown.
#[test]
fn options_are_checked_against_the_list_under_the_variant() {
    use perfectplay::arena::client::{Engine, EngineSpec};
    let spec = EngineSpec {
        command: real_engine(),
        ..EngineSpec::default()
    };
    let timeout = std::time::Duration::from_secs(30);
    let rule_options = Position::rule_options(&Rules::default());
    let engine = Engine::start(&spec, &rule_options, timeout, "dobutsu", None).unwrap();
    assert!(engine.has_option("SolutionPath") && engine.has_option("Mobility"));
    assert!(engine.has_option("Level") && !engine.has_option("TablebasePath"));
    engine.quit();
    let told_nothing = perfectplay::records::RuleSettings::default();
    let engine = Engine::start(&spec, &told_nothing, timeout, "oware", None).unwrap();
    assert!(!engine.has_option("SolutionPath") && engine.has_option("TablebasePath"));
    engine.quit();

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["match", "--variant", "dobutsu", "--quiet", "--nodes", "200"])
        .args(["--engine", &real_engine(), "--engine", &real_engine()])
        .args(["--option", "1:Mobility=30", "--games", "2"])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("Mobility"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Score of "));
}
