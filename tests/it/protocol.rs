//! End-to-end tests of the protocol: they start the built binary and check whole transcripts.
//!
//! Every read has a timeout (see `crate::common::Engine`), so a missing reply fails the test instead of
//! hanging it. Exact search figures (depth, nodes, score, pv) are recorded here on purpose: the
//! search is deterministic on a node or depth budget, and these numbers change only when its
//! behaviour does. If a deliberate change to the search moves them, update them here.

use std::io::Cursor;
use std::thread;
use std::time::{Duration, Instant};

use crate::common::{parse_info, transcript, without_timing, Engine, Info};
use perfectplay::oware::{parse_moves, Board, GameState, Move, Rules};

const START: &str = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
/// South plays F, making North's `a` 2 while `b` keeps 1: a capture of 2, South's 25th seed.
const ONE_MOVE_TO_WIN: &str = "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S";
/// South's only legal move is F.
const ONE_LEGAL_MOVE: &str = "0-0-0-0-0-1-0-0-0-0-0-0-24-23-S";
/// South has already captured 25: the game is over.
const FINISHED: &str = "0-0-0-0-0-0-0-1-0-0-0-0-25-22-N";
/// One seed each, so every move is forced: the loop below returns to this position after 12 plies.
const CHASE: &str = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S";
const CHASE_LOOP: &str = "FfAaBbCcDdEe";
/// What `d`, `legal` and `go` say when there is no position.
const NO_POSITION: &str =
    "info string error: no valid position (the last 'position' command was refused)";
/// How the error of a refused `position` ends.
const NO_POSITION_SET: &str = "no valid position until the next 'position' or 'ucinewgame'";

/// The game after `position fen DIAGRAM moves MOVES`, by the library's rules.
fn game_after(diagram: &str, moves: &str) -> GameState {
    let board: Board = diagram.parse().expect("test diagram");
    let mut game = GameState::new(board, Rules::default());
    let moves = parse_moves([moves]).expect("test moves");
    game.play_all(&moves).expect("test moves are legal");
    game
}

/// Splits a search's output into its info lines (parsed) and the `bestmove` line's move and
/// ponder move. Fails if anything else is in it or `bestmove` is not last.
fn split_search(lines: &[String]) -> (Vec<Info>, String, Option<String>) {
    let (last, infos) = lines.split_last().expect("search output");
    let infos: Vec<Info> = infos.iter().map(|l| parse_info(l)).collect();
    let words: Vec<&str> = last.split(' ').collect();
    match words.as_slice() {
        ["bestmove", m] => (infos, m.to_string(), None),
        ["bestmove", m, "ponder", p] => (infos, m.to_string(), Some(p.to_string())),
        _ => panic!("bad bestmove line '{last}'"),
    }
}

/// Checks the shape of a search's output from `game`: iterations 1, 2, 3... with growing node
/// counts, each pv a legal line from the position, the bestmove legal and the pv's first move
/// (levels 3-6), and the ponder move the pv's second. Returns the parsed info lines.
fn check_search(game: &GameState, lines: &[String]) -> (Vec<Info>, String) {
    let (infos, best, ponder) = split_search(lines);
    let legal = game.legal_moves();
    let best_mv: Move = best.parse().expect("bestmove is a house letter");
    assert!(
        legal.contains(&best_mv),
        "bestmove {best} not legal (legal {legal:?})"
    );
    let mut prev_nodes = 0;
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info.depth, i as u32 + 1, "iterations are consecutive");
        assert!(info.seldepth >= 1, "seldepth of {info:?}");
        assert!(info.nodes > prev_nodes, "node count grows: {infos:?}");
        prev_nodes = info.nodes;
        let mut line = game.clone();
        let pv = parse_moves([info.pv.as_str()]).expect("pv letters");
        assert!(
            pv.len() <= info.depth as usize,
            "pv longer than depth: {info:?}"
        );
        line.play_all(&pv)
            .unwrap_or_else(|(k, e)| panic!("pv move {} of {info:?} is not legal: {e}", k + 1));
    }
    let last = infos.last().expect("at least one iteration");
    assert_eq!(
        last.pv.chars().next().map(String::from),
        Some(best.clone()),
        "bestmove is the last pv's first move"
    );
    assert_eq!(
        ponder,
        last.pv.chars().nth(1).map(String::from),
        "ponder move is the pv's second move"
    );
    (infos, best)
}

#[test]
fn uci_handshake_lists_id_options_and_uciok() {
    let out = transcript("uci\nisready\n");
    let threads = format!(
        "option name Threads type spin default 1 min 1 max {}",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let expected = [
        format!("id name perfectplay {}", env!("CARGO_PKG_VERSION")).as_str(),
        "id author the perfectplay developers",
        "option name Level type spin default 6 min 1 max 6",
        "option name Seed type string default perfectplay",
        "option name UCI_Variant type combo default abapa var abapa var awari var dobutsu",
        "option name Hash type spin default 16 min 1 max 32768",
        threads.as_str(),
        "option name MultiPV type spin default 1 min 1 max 500",
        "option name UCI_ShowWDL type check default false",
        "option name AutoSolve type check default false",
        "option name MoveOverhead type spin default 30 min 0 max 5000",
        "option name Ponder type check default false",
        "option name OwnBook type check default false",
        "option name ScoreMateAsCp type check default false",
        "option name Repetitions type spin default 3 min 2 max 1000",
        "option name NoCaptureLimit type spin default 500 min 0 max 100000",
        "option name EvalNetwork type check default true",
        "option name WeightCapture type spin default 68 min -100000 max 100000",
        "option name WeightSeeds type spin default 22 min -100000 max 100000",
        "option name WeightSmall type spin default -22 min -100000 max 100000",
        "option name WeightLarge type spin default 52 min -100000 max 100000",
        "option name WeightEmpty type spin default -195 min -100000 max 100000",
        "option name WeightReach type spin default -55 min -100000 max 100000",
        "option name WeightThreats type spin default -69 min -100000 max 100000",
        "option name WeightTempo type spin default -59 min -100000 max 100000",
        "option name WeightCaptureLate type spin default 24 min -100000 max 100000",
        "option name WeightSeedsLate type spin default -3 min -100000 max 100000",
        "option name TablebasePath type string default <empty>",
        "option name TablebaseSeeds type spin default 12 min 0 max 48",
        "option name TablebaseBuildSeeds type spin default -1 min -1 max 48",
        "uciok",
        "readyok",
    ]
    .map(String::from);
    assert_eq!(out, expected);
    // The Aualé GUI splits option lines on spaces: every name must be one word.
    for line in out.iter().filter(|l| l.starts_with("option ")) {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[1], "name");
        assert_eq!(words[3], "type", "option name is one word: {line}");
    }
}

#[test]
fn isready_is_answered_with_readyok() {
    assert_eq!(transcript("isready\nisready\n"), ["readyok", "readyok"]);
}

#[test]
fn go_nodes_reports_each_iteration_and_a_legal_bestmove() {
    let out = transcript("position startpos\ngo nodes 20000\n");
    let (infos, best) = check_search(&game_after(START, ""), &out);
    // Recorded: the search is deterministic on a node budget.
    let last = infos.last().unwrap();
    assert_eq!(
        (
            last.depth,
            last.nodes,
            last.score.as_str(),
            last.pv.as_str()
        ),
        (10, 19694, "cp 58", "FbCdFeBcBb")
    );
    assert_eq!(infos.len(), 10);
    assert_eq!(best, "F");
    assert_eq!(out.last().unwrap(), "bestmove F ponder b");
    assert!(last.nodes <= 20000, "node budget respected");

    let out = transcript("position startpos moves FfBeBc\ngo nodes 50000\n");
    let (infos, best) = check_search(&game_after(START, "FfBeBc"), &out);
    let last = infos.last().unwrap();
    assert_eq!(
        (
            last.depth,
            last.nodes,
            last.score.as_str(),
            last.pv.as_str()
        ),
        (12, 41745, "cp 76", "EaAbBcFcEaDb")
    );
    assert_eq!(best, "E");
}

#[test]
fn go_depth_stops_at_that_depth() {
    let out = transcript("position startpos\ngo depth 5\n");
    let (infos, best) = check_search(&game_after(START, ""), &out);
    assert_eq!(infos.len(), 5);
    let last = infos.last().unwrap();
    assert_eq!(
        (
            last.depth,
            last.nodes,
            last.score.as_str(),
            last.pv.as_str()
        ),
        (5, 1922, "cp -3", "BbDfB")
    );
    assert_eq!(best, "B");

    // The Aualé GUI combines depth and movetime: the depth is reached long before the time.
    let out = transcript("position startpos moves FfBeBc\ngo depth 6 movetime 100000\n");
    let (infos, best) = check_search(&game_after(START, "FfBeBc"), &out);
    assert_eq!(infos.len(), 6);
    assert_eq!(infos[5].nodes, 819);
    assert_eq!(best, "E");
}

/// Each bad line gets exactly one `info string error: ...` line that mentions `needle`. A refused
/// `position` leaves no position (see `a_refused_position_leaves_no_position_to_search`); any
/// other bad line leaves the position (as `d` shows it) as it was.
#[test]
fn illegal_input_is_refused_with_one_error_and_changes_nothing() {
    let cases: &[(&str, &str)] = &[
        ("position fen 1-2-3", "15 fields"),
        ("position fen 4-4-4-4-4-4-4-4-4-4-4-5-0-0-S", "total 49"),
        ("position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-X", "side to move"),
        ("position fen 4-4-4-4-4-4-4-4-4-4-4-49-0-0-S", "'49'"),
        (
            "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-s",
            "'s' is not a side to move",
        ),
        (
            "position fen +4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
            "'+4' is not a seed count",
        ),
        (
            "position fen 04-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
            "'04' is not a seed count",
        ),
        ("position fen", "needs a value"),
        ("position startpos moves FF", "illegal move F"),
        ("position startpos moves G", "'G' is not a move"),
        ("position startpos moves Ff Bf", "illegal move f"),
        (
            &format!("position fen {ONE_MOVE_TO_WIN} moves Fb"),
            "the game is over",
        ),
        ("position middle", "'startpos' or 'fen"),
        ("position startpos FfBe", "unexpected 'FfBe'"),
        ("foo", "unknown command 'foo'"),
        ("Go nodes 5", "unknown command 'Go'"),
        ("isready now", "unexpected 'now'"),
        ("setoption name Level value 9", "Level"),
        ("setoption name Level value seven", "Level"),
        ("setoption name Variant value chess", "abapa or awari"),
        ("setoption name Repetitions value 1", "Repetitions"),
        ("setoption name Nope value 1", "unknown option 'Nope'"),
        ("setoption Level 3", "setoption needs"),
        ("setoption name", "setoption needs"),
        ("go nodes", "'nodes' needs a value"),
        ("go nodes -5", "'-5'"),
        ("go depth x", "'x'"),
        ("go depth 99999999999999999999", "depth"),
        ("go sideways", "unexpected 'sideways' in 'go'"),
        ("go movetime", "'movetime' needs a value"),
        ("go depth 3 depth 10", "'depth' given twice"),
        ("debug maybe", "unexpected 'maybe'"),
    ];
    let mut engine = Engine::start();
    engine.send("position startpos moves FfBe");
    let before = engine.board();
    assert!(
        before.contains(&"moves FfBe".to_string()),
        "d output: {before:?}"
    );
    for &(bad, needle) in cases {
        engine.send("position startpos moves FfBe");
        engine.send(bad);
        engine.send("d");
        let reply = engine.sync();
        let (first, rest) = reply.split_first().expect("a reply");
        assert!(
            first.starts_with("info string error: ") && first.contains(needle),
            "'{bad}' answered with '{first}' (expected an error naming '{needle}')"
        );
        if bad.starts_with("position") {
            assert!(first.ends_with(NO_POSITION_SET), "'{bad}': {first}");
            assert_eq!(rest, [NO_POSITION], "'{bad}' left a position");
        } else {
            assert_eq!(rest, before.as_slice(), "'{bad}' changed the position");
        }
    }
    // A refused option leaves the options as they were: a search still runs at full strength.
    engine.send("go depth 2");
    let (infos, _, _) = split_search(&engine.until_bestmove());
    assert_eq!(infos.len(), 2);
    engine.finish();
}

#[test]
fn a_move_after_the_end_of_the_game_is_refused() {
    let mut engine = Engine::start();
    engine.send(&format!("position fen {ONE_MOVE_TO_WIN} moves F"));
    let board = engine.board();
    assert!(
        board.iter().any(|l| l.starts_with("state over 1-0")),
        "{board:?}"
    );
    engine.send("legal");
    assert_eq!(engine.sync(), ["legal"]);
    engine.send("go");
    assert_eq!(engine.sync(), ["bestmove 0000"]);
    engine.send(&format!("position fen {ONE_MOVE_TO_WIN} moves Fb"));
    let reply = engine.sync();
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(
        reply[0].starts_with("info string error: ")
            && reply[0].contains("move b refused: the game is over"),
        "{reply:?}"
    );
    assert_eq!(
        engine.board(),
        [NO_POSITION],
        "no position after a refused one"
    );
    engine.finish();
}

/// After a refused `position` there is nothing to search: `go` says so and answers `bestmove
/// 0000` (a GUI without a strict referee would otherwise play the old position's move), `d` and
/// `legal` say so too, until a valid `position` (or `ucinewgame`) arrives.
#[test]
fn a_refused_position_leaves_no_position_to_search() {
    let mut engine = Engine::start();
    for refused in ["position startpos moves FF", "position fen 4-4-4"] {
        engine.send("position startpos moves FfBe");
        engine.send(refused);
        let reply = engine.sync();
        assert_eq!(reply.len(), 1, "{reply:?}");
        for go in [
            "go nodes 1000",
            "go depth 3",
            "go",
            "go infinite",
            "go ponder",
        ] {
            engine.send(go);
            assert_eq!(
                engine.sync(),
                [NO_POSITION, "bestmove 0000"],
                "{refused} / {go}"
            );
        }
        engine.send("legal");
        assert_eq!(engine.sync(), [NO_POSITION]);
        engine.send("d");
        assert_eq!(engine.sync(), [NO_POSITION]);
        // Options still take effect meanwhile, and the next valid position is searched.
        engine.send("setoption name Variant value awari");
        engine.send("setoption name Variant value abapa");
        assert_eq!(engine.sync(), Vec::<String>::new());
        engine.send("position startpos moves Ff");
        engine.send("legal");
        assert_eq!(engine.sync(), ["legal A B C D E"]);
    }
    engine.send("position startpos moves FF");
    engine.send("ucinewgame");
    engine.send("legal");
    assert_eq!(engine.sync()[1..], ["legal A B C D E F"]);
    engine.send("go depth 2");
    check_search(&game_after(START, ""), &engine.until_bestmove());
    engine.finish();
}

/// `ucinewgame` starts from the start position, and a rule option sent between games takes
/// effect: the repro of a GUI that set Awari after an Abapa game whose last position is not an
/// Awari game, then searched a position where Awari allows only D (Abapa would play F).
#[test]
fn rule_options_between_games_take_effect() {
    let out = transcript(
        "position fen 3-0-0-0-0-2-1-1-0-0-0-0-20-21-S moves F\n\
         ucinewgame\n\
         d\n\
         setoption name Variant value awari\n\
         position fen 0-0-0-1-0-1-2-0-0-0-0-0-21-23-S\n\
         legal\n\
         go nodes 1000\n",
    );
    assert!(out.contains(&format!("position {START}")), "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("info string")), "{out:?}");
    assert_eq!(out[out.len() - 2..], ["legal D", "bestmove D"], "{out:?}");
}

/// A rule option sent while the current game is not legal under the new rules still takes
/// effect: the engine says so and resets to the start position.
#[test]
fn a_rule_option_the_current_game_breaks_resets_to_the_start() {
    let mut engine = Engine::start();
    // Under Abapa South may play F; under Awari only D (F would leave North without seeds).
    engine.send("position fen 0-0-0-1-0-1-2-0-0-0-0-0-21-23-S moves F");
    engine.send("setoption name Variant value awari");
    let reply = engine.sync();
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(
        reply[0].starts_with("info string the current game is not legal under the new rules")
            && reply[0].contains("illegal move F")
            && reply[0].ends_with("the position is reset to the start"),
        "{reply:?}"
    );
    let board = engine.board();
    assert!(board.contains(&format!("position {START}")), "{board:?}");
    assert!(board.contains(&"variant awari".to_string()), "{board:?}");
    // A game that stays legal is replayed under the new rules: here the chase of one seed each
    // repeats its start after 12 plies, which ends the game at once under Repetitions 2.
    engine.send(&format!("position fen {CHASE} moves {CHASE_LOOP}"));
    let board = engine.board();
    assert!(
        board
            .iter()
            .any(|l| l == "state in play, plies since the last capture 12"),
        "{board:?}"
    );
    engine.send("setoption name Repetitions value 2");
    assert_eq!(engine.sync(), Vec::<String>::new());
    let board = engine.board();
    assert!(
        board
            .iter()
            .any(|l| l.starts_with("state over 1/2-1/2 (cycle rule: the position repeated)")),
        "{board:?}"
    );
    engine.finish();
}

/// When the cycle rule has ended the game but the side to move has legal moves, `go` still
/// answers with a move (a GUI with other cycle rules waits for one), after an `info string`
/// saying so; `position` accepts moves past that end, and `d` still reports it.
#[test]
fn a_move_is_found_past_a_cycle_rule_end() {
    let mut engine = Engine::start();
    engine.send("setoption name Repetitions value 2");
    engine.send(&format!("position fen {CHASE} moves {CHASE_LOOP}"));
    engine.send("legal");
    assert_eq!(engine.sync(), ["legal F"]);
    engine.send("go nodes 1000");
    let out = engine.until_bestmove();
    assert_eq!(
        out,
        [
            "info string the cycle rule has ended the game (cycle rule: the position repeated, \
             1/2-1/2); searching the legal moves all the same",
            "bestmove F"
        ]
    );
    engine.send(&format!("position fen {CHASE} moves {CHASE_LOOP}Ff"));
    let board = engine.board();
    assert!(
        board.contains(&format!("moves {CHASE_LOOP}Ff")),
        "{board:?}"
    );
    assert!(
        board
            .iter()
            .any(|l| l.starts_with("state over 1/2-1/2 (cycle rule: the position repeated)")),
        "{board:?}"
    );

    // A real search past the no-capture limit, reproducible on a node budget.
    let input = "setoption name NoCaptureLimit value 4\nposition startpos moves FfBe\nd\n\
                 go nodes 3000\nposition startpos moves FfBeA\nlegal\n";
    let out = transcript(input);
    let strip = |o: &[String]| o.iter().map(|l| without_timing(l)).collect::<Vec<_>>();
    assert_eq!(strip(&out), strip(&transcript(input)), "reproducible");
    assert!(
        out.iter()
            .any(|l| l.starts_with("state over") && l.contains("no capture within the ply limit")),
        "{out:?}"
    );
    let at = out
        .iter()
        .position(|l| l.starts_with("info string the cycle rule"))
        .expect("info string");
    let best_at = out
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .expect("bestmove");
    check_search(&game_after(START, "FfBe"), &out[at + 1..=best_at]);
    let legal: Vec<String> = game_after(START, "FfBeA")
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(out[best_at + 1..], [format!("legal {}", legal.join(" "))]);
    engine.finish();
}

#[test]
fn game_over_answers_bestmove_0000() {
    for setup in [
        format!("position fen {FINISHED}"),
        format!("position fen {ONE_MOVE_TO_WIN} moves F"),
        // North cannot feed South: the game ends at once and each takes their own row.
        "position fen 0-0-0-0-0-0-1-1-1-1-1-0-20-23-N".to_string(),
    ] {
        for go in ["go", "go nodes 1000", "go depth 4", "go infinite"] {
            let out = transcript(&format!("{setup}\n{go}\n"));
            assert_eq!(out, ["bestmove 0000"], "{setup} / {go}");
        }
    }
}

#[test]
fn a_single_legal_move_is_played_at_once_without_search() {
    let started = Instant::now();
    for go in ["go", "go nodes 1000000000", "go depth 40"] {
        let out = transcript(&format!("position fen {ONE_LEGAL_MOVE}\n{go}\n"));
        assert_eq!(out, ["bestmove F"], "{go}: depth 0, no info line");
    }
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn stop_ends_go_infinite_and_bestmove_comes_only_after_it() {
    let mut engine = Engine::start();
    engine.send("position startpos moves FfBe");
    engine.send("go infinite");
    // Let it search; nothing but info lines may come before `stop`.
    let mut before_stop =
        engine.read_until("a first iteration", |l| l.starts_with("info depth 3 "));
    let deadline = Instant::now() + Duration::from_millis(400);
    while let Some(line) = engine.recv(deadline.saturating_duration_since(Instant::now())) {
        before_stop.push(line);
    }
    for line in &before_stop {
        parse_info(line);
    }
    engine.send("stop");
    let mut rest = engine.until_bestmove();
    let mut all = before_stop;
    all.append(&mut rest);
    check_search(&game_after(START, "FfBe"), &all);
    // The engine is idle and answers again.
    assert!(engine.sync().is_empty());
    engine.finish();
}

#[test]
fn go_infinite_that_finishes_early_still_waits_for_stop() {
    let mut engine = Engine::start();
    // A single legal move: the search is over at once, but `go infinite` holds the answer.
    engine.send(&format!("position fen {ONE_LEGAL_MOVE}"));
    engine.send("go infinite");
    engine.expect_silence(Duration::from_millis(300), "go infinite before stop");
    engine.send("stop");
    assert_eq!(engine.until_bestmove(), ["bestmove F"]);
    engine.finish();
}

#[test]
fn isready_is_answered_while_searching() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    // Wait for the search to be well under way.
    engine.read_until("a deep iteration", |l| l.starts_with("info depth 9 "));
    engine.send("isready");
    let mut got = engine.read_until("readyok", |l| l == "readyok");
    got.pop();
    assert!(
        got.iter().all(|l| l.starts_with("info depth ")),
        "only info lines before readyok: {got:?}"
    );
    engine.send("stop");
    engine.until_bestmove();
    engine.finish();
}

#[test]
fn go_ponder_answers_after_ponderhit_or_stop() {
    // ponderhit: the search goes on under its own limits and answers when they are reached.
    let mut engine = Engine::start();
    engine.send("position startpos moves Ff");
    engine.send("go ponder nodes 20000");
    // 20,000 nodes take a few milliseconds; the answer is held while pondering.
    let deadline = Instant::now() + Duration::from_millis(500);
    let mut lines = Vec::new();
    while let Some(line) = engine.recv(deadline.saturating_duration_since(Instant::now())) {
        assert!(line.starts_with("info depth "), "while pondering: {line}");
        lines.push(line);
    }
    engine.send("ponderhit");
    lines.extend(engine.until_bestmove());
    let (infos, _) = check_search(&game_after(START, "Ff"), &lines);
    assert!(infos.last().unwrap().nodes <= 20000);

    // The same search without pondering gives the same answer.
    engine.send("go nodes 20000");
    let plain = engine.until_bestmove();
    assert_eq!(
        plain.iter().map(|l| without_timing(l)).collect::<Vec<_>>(),
        lines.iter().map(|l| without_timing(l)).collect::<Vec<_>>()
    );

    // stop: the opponent played another move; the answer comes at once.
    engine.send("go ponder");
    engine.read_until("an iteration", |l| l.starts_with("info depth 6 "));
    engine.send("stop");
    let out = engine.until_bestmove();
    assert!(out.last().unwrap().starts_with("bestmove "));

    // ponderhit with no search running is accepted silently.
    engine.send("ponderhit");
    engine.send("stop");
    assert!(engine.sync().is_empty());
    engine.finish();
}

#[test]
fn end_of_input_after_go_nodes_still_prints_the_bestmove() {
    let out = transcript("go nodes 20000\n");
    assert_eq!(out.last().unwrap(), "bestmove F ponder b");
    assert_eq!(out.len(), 11);

    // go infinite is stopped by the end of input, and answers.
    let out = transcript("position startpos moves Ff\ngo infinite\n");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}

#[test]
fn quit_ends_the_session_and_later_lines_are_ignored() {
    let out = transcript("isready\nquit\nisready\n");
    assert_eq!(out, ["readyok"]);
    // quit during a search stops it; the bestmove is still printed.
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.read_until("an iteration", |l| l.starts_with("info depth 5 "));
    engine.send("quit");
    let rest = engine.finish();
    assert!(
        rest.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{rest:?}"
    );
}

#[test]
fn commands_sent_during_a_search_wait_their_turn() {
    let mut engine = Engine::start();
    engine.send("go nodes 200000");
    engine.send("position startpos moves F");
    engine.send("legal");
    let out = engine.read_until("legal", |l| l.starts_with("legal"));
    let (before, legal) = out.split_at(out.len() - 1);
    check_search(&game_after(START, ""), before);
    assert_eq!(legal, ["legal a b c d e f"]);
    engine.finish();
}

/// Everything but `time` and `nps` is the same on two runs of the same input.
#[test]
fn the_same_input_gives_the_same_output() {
    let script = "\
uci
setoption name Seed value determinism
position startpos
go nodes 30000
position startpos moves FfBeBcDa
go depth 7
setoption name Level value 2
go
position startpos moves FfBeBcDaAb
go
setoption name Level value 4
setoption name WeightSmall value -9
go
ucinewgame
position fen 6-0-5-5-0-2-1-8-0-2-7-2-5-5-S moves A
go nodes 40000
d
legal
";
    let first = transcript(script);
    let second = transcript(script);
    let strip = |out: &[String]| out.iter().map(|l| without_timing(l)).collect::<Vec<_>>();
    assert_eq!(strip(&first), strip(&second));
    assert_eq!(
        first.iter().filter(|l| l.starts_with("bestmove ")).count(),
        6
    );
    assert!(!first.iter().any(|l| l.contains("error")), "{first:#?}");
}

/// `go wtime/btime` reads the side to move's clock: with nothing left on it beyond the
/// `MoveOverhead` the engine answers after its first iteration, whatever the other clock holds
/// (which would allow a deep search). (How much time a clock gives is tested on the allocation
/// function itself, `search::limits`.)
#[test]
fn go_reads_the_clock_of_the_side_to_move() {
    let out = transcript(
        "position startpos
go wtime 30 btime 100000 winc 0 binc 0
         position startpos moves F
go wtime 100000 btime -10 depth 9
         setoption name MoveOverhead value 0
position startpos
go wtime 0 btime 5 movestogo 1
",
    );
    let depths: Vec<u32> = out
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| parse_info(l).depth)
        .collect();
    assert_eq!(depths, [1, 1, 1], "{out:#?}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 3);
    assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
}

/// Searches on a clock or a movetime keep the table for the next ones; a node search after them
/// still gives exactly what it gives in a fresh engine.
#[test]
fn node_searches_after_timed_ones_are_unchanged() {
    let node_search = "position startpos moves FfBe
go nodes 30000
";
    let fresh = transcript(node_search);
    let after = transcript(&format!(
        "position startpos
go movetime 30
position startpos moves Ff
         go wtime 2000 btime 2000 winc 10 binc 10
position startpos moves FfB
go ponder
stop
         {node_search}"
    ));
    let strip = |out: &[String]| out.iter().map(|l| without_timing(l)).collect::<Vec<_>>();
    let last_search = |out: &[String]| {
        let ends: Vec<usize> = (0..out.len())
            .filter(|&i| out[i].starts_with("bestmove"))
            .collect();
        let start = ends.len().checked_sub(2).map_or(0, |k| ends[k] + 1);
        strip(&out[start..])
    };
    assert_eq!(last_search(&after), strip(&fresh));
    assert_eq!(
        after.iter().filter(|l| l.starts_with("bestmove")).count(),
        4
    );
}

/// The loop runs in-process too: bytes in, bytes out.
#[test]
fn run_in_process_on_a_byte_slice() {
    let input = b"uci\nisready\nposition startpos moves Ff\nlegal\ngo depth 3\nbogus\nd\n".to_vec();
    let mut output = Vec::new();
    perfectplay::protocol::run(Cursor::new(input), &mut output).expect("run");
    let text = String::from_utf8(output).expect("utf-8 output");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.iter().filter(|l| **l == "uciok").count(), 1);
    assert!(lines.contains(&"readyok"));
    assert!(lines.contains(&"legal A B C D E"));
    assert!(lines.contains(&"info string error: unknown command 'bogus'"));
    assert!(lines.contains(&"moves Ff"));
    let go_at = lines
        .iter()
        .position(|l| l.starts_with("info depth 1 "))
        .unwrap();
    let best_at = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let search: Vec<String> = lines[go_at..=best_at]
        .iter()
        .map(|l| l.to_string())
        .collect();
    let (infos, _) = check_search(&game_after(START, "Ff"), &search);
    assert_eq!(infos.len(), 3);
    // Input that ends without a newline and with CRLF line ends is read too.
    let mut output = Vec::new();
    perfectplay::protocol::run(Cursor::new(b"isready\r\nlegal".to_vec()), &mut output)
        .expect("run");
    assert_eq!(
        String::from_utf8(output).unwrap(),
        "readyok\nlegal A B C D E F\n"
    );
}

/// A bare CR ends a line (`isready\risready\r` is two commands), and a byte-order mark before
/// the first command is not part of it.
#[test]
fn bare_cr_line_ends_and_a_leading_byte_order_mark() {
    let run = |input: &[u8]| {
        let mut output = Vec::new();
        perfectplay::protocol::run(Cursor::new(input.to_vec()), &mut output).expect("run");
        String::from_utf8(output).expect("utf-8 output")
    };
    assert_eq!(run(b"isready\risready\r"), "readyok\nreadyok\n");
    assert_eq!(
        run(b"isready\rlegal\r\nisready"),
        "readyok\nlegal A B C D E F\nreadyok\n"
    );
    let out = run(b"\xef\xbb\xbfuci\r\n");
    assert!(out.starts_with("id name perfectplay"), "{out}");
    assert!(out.ends_with("uciok\n") && !out.contains("error"), "{out}");
}

/// An unknown option's name is quoted cut, however long.
#[test]
fn a_huge_unknown_option_name_gives_a_short_error() {
    let mut input = b"setoption name ".to_vec();
    input.extend(std::iter::repeat_n(b'x', 1 << 20));
    input.extend_from_slice(b" value 1\nisready\n");
    let mut output = Vec::new();
    perfectplay::protocol::run(Cursor::new(input), &mut output).expect("run");
    let text = String::from_utf8(output).expect("utf-8 output");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{}", &text[..text.len().min(500)]);
    assert!(lines[0].starts_with("info string error: unknown option 'xxx"));
    assert!(lines[0].len() < 200, "{} bytes", lines[0].len());
    assert_eq!(lines[1], "readyok");
}

/// Bytes that are not UTF-8 are one bad line, not the end of the session.
#[test]
fn invalid_utf8_is_an_error_line_not_the_end() {
    let mut output = Vec::new();
    let input = b"go\xff\xfe nodes 5\nisready\n".to_vec();
    perfectplay::protocol::run(Cursor::new(input), &mut output).expect("run");
    let text = String::from_utf8(output).expect("utf-8 output");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    assert_eq!(lines[1], "readyok");
}

/// Evaluation weights at the ends of their range must not be mistaken for proven results, nor
/// leave the search without a move.
#[test]
fn extreme_weights_still_give_a_legal_move_and_no_false_mate() {
    for (weight, value) in [
        ("WeightCapture", 100000),
        ("WeightCapture", -100000),
        ("WeightSeeds", 100000),
        ("WeightSmall", -100000),
        ("WeightLarge", 100000),
    ] {
        let out = transcript(&format!(
            "setoption name {weight} value {value}\n\
             position fen 4-4-4-4-4-4-4-4-0-0-0-0-0-16-S\ngo depth 3\n\
             position startpos moves FfBe\ngo depth 3\n"
        ));
        let searches: Vec<&[String]> = out.split_inclusive(|l| l.starts_with("bestmove")).collect();
        assert_eq!(searches.len(), 2, "{weight} {value}: {out:?}");
        check_search(
            &game_after("4-4-4-4-4-4-4-4-0-0-0-0-0-16-S", ""),
            searches[0],
        );
        check_search(&game_after(START, "FfBe"), searches[1]);
        for line in &out {
            assert!(!line.contains("mate"), "{weight} {value}: {line}");
        }
    }
}

/// A proven result is reported as `score mate N`.
#[test]
fn a_forced_win_is_scored_as_mate() {
    // South wins at once by playing F (see ONE_MOVE_TO_WIN); B would not.
    let out = transcript("position fen 0-1-0-0-0-1-1-1-0-0-0-0-23-21-S\ngo depth 4\n");
    let (infos, best) = check_search(&game_after("0-1-0-0-0-1-1-1-0-0-0-0-23-21-S", ""), &out);
    assert_eq!(best, "F");
    assert_eq!(infos.last().unwrap().score, "mate 1");
}

/// The Aualé GUI sends `OwnBook` before the first `go` and cannot handle a reply: it is declared
/// and accepted without one (there is no book).
#[test]
fn own_book_is_accepted_silently() {
    let out = transcript(
        "setoption name OwnBook value true\nsetoption name OwnBook value false\n\
         setoption name ownbook value TRUE\nisready\nsetoption name OwnBook value maybe\n",
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0], "readyok");
    assert!(
        out[1].starts_with("info string error: option OwnBook: 'maybe' is not true or false"),
        "{out:?}"
    );
}

/// Under `ScoreMateAsCp` a proven result is sent as a large `cp` score, for GUIs (Aualé) that
/// read only `cp`: a win in N moves is 10000 - N.
#[test]
fn score_mate_as_cp_sends_proven_results_as_cp() {
    let position = "position fen 0-1-0-0-0-1-1-1-0-0-0-0-23-21-S\ngo depth 4\n";
    let out = transcript(&format!(
        "setoption name ScoreMateAsCp value true\n{position}"
    ));
    let (infos, best) = check_search(&game_after("0-1-0-0-0-1-1-1-0-0-0-0-23-21-S", ""), &out);
    assert_eq!(best, "F");
    assert!(infos.iter().all(|i| i.score == "cp 9999"), "{infos:?}");
    // Heuristic scores are unchanged by it.
    let plain = "position startpos\ngo depth 5\n";
    let with = transcript(&format!("setoption name ScoreMateAsCp value true\n{plain}"));
    let strip = |o: &[String]| o.iter().map(|l| without_timing(l)).collect::<Vec<_>>();
    assert_eq!(strip(&with), strip(&transcript(plain)));
}

/// Options given on the command line (`--option NAME=VALUE`, repeatable, also after `uci`) are
/// in force from the first command and declared as the defaults; a bad one is refused with an
/// error and a failing exit status before any protocol output.
#[test]
fn command_line_option_presets() {
    for args in [
        &[
            "--option",
            "ScoreMateAsCp=true",
            "--option",
            "Repetitions=2",
        ][..],
        &[
            "uci",
            "--option",
            "ScoreMateAsCp=true",
            "--option",
            "Repetitions=2",
        ][..],
        &[
            "--option",
            "ScoreMateAsCp=true",
            "uci",
            "--option",
            "repetitions=2",
        ][..],
    ] {
        let mut engine = Engine::start_with_args(args);
        engine.send("uci");
        let handshake = engine.read_until("uciok", |l| l == "uciok");
        assert!(
            handshake
                .contains(&"option name Repetitions type spin default 2 min 2 max 1000".into())
                && handshake.contains(&"option name ScoreMateAsCp type check default true".into()),
            "{args:?}: {handshake:?}"
        );
        engine.send(&format!("position fen {CHASE} moves {CHASE_LOOP}"));
        let board = engine.board();
        assert!(
            board
                .iter()
                .any(|l| l.contains("cycle rule: the position repeated")),
            "{args:?}: Repetitions 2 in force: {board:?}"
        );
        engine.send("position fen 0-1-0-0-0-1-1-1-0-0-0-0-23-21-S");
        engine.send("go depth 2");
        let out = engine.until_bestmove();
        assert!(out[0].contains(" score cp 9999 "), "{args:?}: {out:?}");
        engine.finish();
    }
    for (args, needle) in [
        (&["--option", "Nope=1"][..], "unknown option 'Nope'"),
        (&["--option", "Level"][..], "'Level' is not NAME=VALUE"),
        (&["uci", "--option", "Hash=0"][..], "option Hash: '0'"),
        (
            &["--option", "Level=2", "bench"][..],
            "--option sets options of the protocol loop",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .env_remove("RUST_BACKTRACE")
            .output()
            .expect("running the binary");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} exited with success");
        assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn a_search_thread_never_outlives_quit() {
    // Many short sessions in a row: each must exit promptly after end of input.
    let started = Instant::now();
    let handles: Vec<_> = (0..4)
        .map(|_| thread::spawn(|| transcript("go nodes 5000\nquit\n")))
        .collect();
    for h in handles {
        let out = h.join().expect("session thread");
        assert!(out.last().unwrap().starts_with("bestmove "));
    }
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn stop_also_ends_a_limited_search_and_movetime_ends_by_itself() {
    let mut engine = Engine::start();
    engine.send("go depth 60 nodes 100000000000");
    let mut out = engine.read_until("an iteration", |l| l.starts_with("info depth 6 "));
    let stopped_at = Instant::now();
    engine.send("stop");
    out.extend(engine.until_bestmove());
    assert!(stopped_at.elapsed() < Duration::from_secs(5));
    check_search(&game_after(START, ""), &out);

    let started = Instant::now();
    engine.send("go movetime 300");
    let out = engine.until_bestmove();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_secs(10),
        "movetime 300 took {took:?}"
    );
    check_search(&game_after(START, ""), &out);
    engine.finish();
}

/// A large table is accepted and usable: the engine says it made it, answers `isready` and
/// searches with it.
#[test]
fn large_hash_is_accepted_and_searches() {
    let out =
        transcript("setoption name Hash value 1024\nisready\nposition startpos\ngo depth 6\n");
    assert!(
        out[0].starts_with("info string Hash 1024 MiB: table of 1024 MiB"),
        "{out:?}"
    );
    assert_eq!(out[1], "readyok");
    assert!(
        out.iter().all(|l| !l.starts_with("info string error")),
        "{out:?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}

#[test]
fn option_values_cannot_forge_protocol_lines_and_checks_show_their_value() {
    let out = transcript(
        "setoption name Seed value a\u{1b}[2Jx\nsetoption name Ponder value true\n\
         setoption name OwnBook value true\nuci\n",
    );
    assert!(
        out[0].starts_with("info string error: option Seed:")
            && out[0].contains("without control characters"),
        "{out:?}"
    );
    assert!(out.contains(&"option name Seed type string default perfectplay".to_string()));
    assert!(out.contains(&"option name Ponder type check default true".to_string()));
    assert!(out.contains(&"option name OwnBook type check default true".to_string()));
    // A preset with a line feed is refused before any output.
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["--option", "Seed=a\nuciok"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run perfectplay");
    assert!(!run.status.success());
    assert!(run.stdout.is_empty());
}
