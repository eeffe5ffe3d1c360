//! The match runner end to end: matches between fake engines (this test binary re-run as an engine,
//! see `fake_engine`), faults of every kind, records written and replayed, SPRT stops, interrupts;
//! and matches between two instances of the real engine (`CARGO_BIN_EXE_perfectplay`).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Parser;
use perfectplay::arena::engine::EngineSpec;
use perfectplay::arena::ogn;
use perfectplay::arena::runner::{
    play_match, random_openings, Fault, MatchConfig, SearchLimit, StopReason, Termination,
    SPRT_MIN_GAMES,
};
use perfectplay::arena::stats::SprtDecision;
use perfectplay::arena::{run_match, MatchArgs, MatchReport, MatchSummary};
use perfectplay::oware::{parse_moves, Board, GameState, Rules, Side, Variant};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

fn match_args(words: &[&str]) -> MatchArgs {
    Cli::try_parse_from(std::iter::once("match").chain(words.iter().copied()))
        .expect("valid match options")
        .args
}

fn played(report: MatchReport) -> MatchSummary {
    match report {
        MatchReport::Played(s) => s,
        MatchReport::Replayed(_) => panic!("expected a played match"),
    }
}

/// A scratch file path for `name` (unique per test) under Cargo's temporary directory for
/// integration tests, inside `target/`, in a folder of this test process (`cargo clean` removes
/// them).
fn scratch(name: &str) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

// ---------------------------------------------------------------------------------------------
// Fake engines.
//
// The test binary doubles as a family of fake engines: run as
// `<test binary> fake_engine --exact --ignored --nocapture fake-mode=MODE`, the ignored test
// `fake_engine` speaks the protocol on stdin/stdout (libtest's own lines before `uciok` and after
// `quit` are ignored by the runner, as unknown lines are). MODE is `random` (a legal move picked by
// a hash of the Seed option and the ply), `first` (the first legal move), or `KIND:K`, which plays
// random legal moves and does KIND at its K-th `go` of the process: `crash` (exit status 3),
// `illegal` (a house of the opponent's row), `silent` (never answers, ignores even `quit`),
// `garbage` (junk lines and a `bestmove` without a move).

fn fake_engine_command(mode: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    format!(
        "'{}' fake_engine --exact --ignored --nocapture --quiet fake-mode={mode}",
        exe.display()
    )
}

#[test]
#[ignore = "not a test: the fake engine run by the other tests"]
fn fake_engine() {
    let Some(mode) =
        std::env::args().find_map(|a| a.strip_prefix("fake-mode=").map(str::to_string))
    else {
        return;
    };
    let (kind, fault_at) = match mode.split_once(':') {
        Some((kind, k)) => (kind.to_string(), k.parse::<u32>().unwrap()),
        None => (mode.clone(), 0),
    };
    let mut out = std::io::stdout();
    let mut say = |text: &str| {
        out.write_all(text.as_bytes()).unwrap();
        out.write_all(b"\n").unwrap();
        out.flush().unwrap();
    };
    let mut rules = Rules::default();
    let mut seed = 1u64;
    let mut game = GameState::new(Board::start(rules.variant), rules);
    let mut gos = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say(&format!("id name fake-{kind}"));
                say("option name Variant type combo default abapa var abapa var awari");
                say("option name Seed type string default 1");
                say("uciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") if words.len() >= 5 => match words[2] {
                "Variant" => rules.variant = words[4].parse().unwrap(),
                "Seed" => {
                    seed = words[4]
                        .bytes()
                        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
                }
                _ => {}
            },
            Some("position") => {
                let (board, rest) = if words.get(1) == Some(&"fen") {
                    (words[2].parse::<Board>().unwrap(), &words[3..])
                } else {
                    (Board::start(rules.variant), &words[2..])
                };
                let moves = parse_moves(rest.iter().copied().filter(|w| *w != "moves")).unwrap();
                game = GameState::new(board.with_variant(rules.variant), rules);
                game.play_all(&moves).unwrap();
            }
            Some("go") => {
                gos += 1;
                if gos == fault_at {
                    match kind.as_str() {
                        "crash" => {
                            eprintln!("fake engine: crashing on purpose");
                            std::process::exit(3);
                        }
                        "illegal" => {
                            let them = game.board().side_to_move().opponent();
                            say(&format!(
                                "bestmove {}",
                                if them == Side::South { 'A' } else { 'a' }
                            ));
                            continue;
                        }
                        "silent" => loop {
                            std::thread::sleep(Duration::from_secs(1));
                        },
                        "garbage" => {
                            let mut raw = std::io::stdout();
                            raw.write_all(b"\x00\xff\xfe garbage ###\nnonsense\n")
                                .unwrap();
                            say("info depth banana");
                            say("bestmove Q9");
                            continue;
                        }
                        _ => {}
                    }
                }
                let legal = game.legal_moves();
                if legal.is_empty() {
                    say("bestmove 0000");
                    continue;
                }
                let pick = if kind == "first" {
                    0
                } else {
                    let mut h = seed ^ (game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    h ^= h >> 29;
                    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
                    h ^= h >> 32;
                    (h % legal.len() as u64) as usize
                };
                say("info depth 1 score cp 0");
                say(&format!("bestmove {}", legal[pick]));
            }
            Some("quit") => return,
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Matches between fake engines.

#[test]
fn fake_match_counts_records_and_replays() {
    let ogn_path = scratch("fake-match.ogn");
    let dir = scratch("fake-match-games");
    let summary = played(
        run_match(match_args(&[
            "--engine",
            &fake_engine_command("random"),
            "--engine",
            &fake_engine_command("random"),
            "--option",
            "1:Seed=one",
            "--option",
            "2:Seed=two",
            "--name",
            "1:alpha",
            "--games",
            "6",
            "--concurrency",
            "2",
            "--seed",
            "11",
            "--ogn",
            ogn_path.to_str().unwrap(),
            "--ogn-dir",
            dir.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    let t = &summary.tally;
    assert_eq!(t.games.games(), 6);
    assert_eq!(t.pairs.pairs(), 3);
    assert_eq!(summary.stop, StopReason::Completed);
    assert_eq!(
        summary.names,
        ["alpha".to_string(), "fake-random".to_string()]
    );
    assert!(t.faults.iter().all(|f| f.is_empty()), "{:?}", t.faults);
    let text = summary.to_string();
    assert!(text.contains("Score of alpha:"), "{text}");
    assert!(
        text.contains("Elo difference (alpha - fake-random):"),
        "{text}"
    );

    // The records parse back and replay with the rules, and agree with the tally.
    let records = ogn::parse(&std::fs::read_to_string(&ogn_path).unwrap()).unwrap();
    assert_eq!(records.len(), 6);
    let mut rounds: Vec<usize> = records
        .iter()
        .map(|g| g.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort();
    assert_eq!(rounds, [1, 2, 3, 4, 5, 6]);
    let mut alpha_points = 0.0;
    for g in &records {
        assert!(g.tags[0].0 == "Variant" && g.tag("Variant") == Some("Oware Abapa"));
        let r = ogn::replay(g, Rules::default()).unwrap();
        let end = r.end.expect("fake games end by the rules");
        assert_eq!(
            g.tag("Result").unwrap(),
            format!("{}-{}", end.stores[0], end.stores[1])
        );
        assert!(g.tag("Termination").unwrap().starts_with("rules: "));
        let alpha_side = if g.tag("South") == Some("alpha") {
            Side::South
        } else {
            Side::North
        };
        alpha_points += match end.winner {
            None => 0.5,
            Some(w) if w == alpha_side => 1.0,
            Some(_) => 0.0,
        };
    }
    assert_eq!(alpha_points, t.games.points());
    // Games 2k+1 and 2k+2 share the opening (4 random plies) with colours swapped.
    let by_round = |n: usize| {
        records
            .iter()
            .find(|g| g.tag("Round") == Some(&n.to_string()))
            .unwrap()
    };
    for pair in 0..3 {
        let (a, b) = (by_round(2 * pair + 1), by_round(2 * pair + 2));
        assert_eq!(a.moves[..4], b.moves[..4]);
        assert_eq!(a.tag("South"), b.tag("North"));
        assert_eq!(a.tag("OpeningPlies"), Some("4"));
        assert_eq!(a.comments[3].as_deref(), Some("opening"));
    }
    // One file per game as well.
    let single = std::fs::read_to_string(dir.join("game-0003.ogn")).unwrap();
    assert!(single.starts_with("[Variant \"Oware Abapa\"]"));
    assert_eq!(ogn::parse(&single).unwrap()[0], *by_round(3));

    // --replay reads the file back and agrees.
    let report = run_match(match_args(&["--replay", ogn_path.to_str().unwrap()])).unwrap();
    let MatchReport::Replayed(replayed) = report else {
        panic!("expected a replay")
    };
    assert_eq!(
        (replayed.games, replayed.ended_by_rules, replayed.forfeits),
        (6, 6, 0)
    );
    let (names, score) = replayed.players.unwrap();
    assert_eq!(names[0], "alpha");
    assert_eq!(score.points(), alpha_points);
}

#[test]
fn same_seed_same_games() {
    let run = |seed: &str| {
        let path = scratch(&format!("repro-{seed}.ogn"));
        run_match(match_args(&[
            "--engine",
            &fake_engine_command("random"),
            "--engine",
            &fake_engine_command("first"),
            "--games",
            "2",
            "--seed",
            seed,
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap();
        let games = ogn::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        games
            .iter()
            .map(|g| (g.moves.clone(), g.tag("Result").unwrap().to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(run("5"), run("5"));
}

/// Plays `games` games of a fake engine doing `mode` (first engine) against a well-behaved one and
/// checks that each game is a forfeit of the first engine with `fault`, recorded in the file.
/// Only a silent engine waits for the timeout, so the others keep the default (generous on a
/// loaded machine: the well-behaved engine must never time out).
fn check_fault(mode: &str, fault: Fault, games: usize) {
    let timeout = if fault == Fault::Timeout {
        "1500"
    } else {
        "10000"
    };
    let path = scratch(&format!("fault-{}.ogn", mode.replace(':', "-")));
    let games_arg = games.to_string();
    let summary = played(
        run_match(match_args(&[
            "--engine",
            &fake_engine_command(mode),
            "--engine",
            &fake_engine_command("random"),
            "--games",
            &games_arg,
            "--timeout",
            timeout,
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    let t = &summary.tally;
    assert_eq!(t.games.games(), games as u64, "{mode}: the match finishes");
    assert_eq!(t.games.losses, games as u64, "{mode}: every game lost");
    assert_eq!(
        t.fault_count(0, fault),
        games as u64,
        "{mode}: {:?}",
        t.faults
    );
    assert!(t.faults[1].is_empty());
    let records = ogn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(records.len(), games);
    for g in &records {
        let termination = g.tag("Termination").unwrap();
        assert!(
            termination.starts_with(&format!("forfeit: {fault} by ")),
            "{termination}"
        );
        assert!(termination.contains("fake-"), "{termination}");
        // The faulty engine's side lost, and the record still replays.
        let faulty_side = if termination.contains("by South") {
            "0-1"
        } else {
            "1-0"
        };
        assert_eq!(g.tag("Result"), Some(faulty_side));
        let r = ogn::replay(g, Rules::default()).unwrap();
        assert!(r.forfeit && r.end.is_none());
        assert_eq!(g.comments.last().unwrap().as_deref(), Some(termination));
    }
}

#[test]
fn crash_mid_game_loses_and_restarts() {
    check_fault("crash:3", Fault::Crash, 2);
    // The exit status and the engine's last words are recorded.
    let text = std::fs::read_to_string(scratch("fault-crash-3.ogn")).unwrap();
    assert!(text.contains("exit status: 3"), "{text}");
    assert!(text.contains("crashing on purpose"), "{text}");
}

#[test]
fn illegal_move_loses() {
    check_fault("illegal:2", Fault::IllegalMove, 2);
}

#[test]
fn silent_engine_times_out() {
    check_fault("silent:2", Fault::Timeout, 2);
}

#[test]
fn garbage_loses() {
    check_fault("garbage:2", Fault::Garbage, 2);
}

#[cfg(unix)]
#[test]
fn closed_pipe_loses() {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/closes_stdout.sh");
    let command = format!("bash '{}'", script.display());
    let summary = played(
        run_match(match_args(&[
            "--engine",
            &command,
            "--engine",
            &fake_engine_command("random"),
            "--games",
            "2",
            "--quiet",
        ]))
        .unwrap(),
    );
    assert_eq!(summary.tally.games.losses, 2);
    assert_eq!(
        summary.tally.fault_count(0, Fault::ClosedPipe),
        2,
        "{:?}",
        summary.tally.faults
    );
}

#[test]
fn sprt_stops_when_decided() {
    // The second engine forfeits every game at once: H1 (elo1 = +10) is accepted as soon as the
    // test may decide (SPRT_MIN_GAMES).
    let summary = played(
        run_match(match_args(&[
            "--engine",
            &fake_engine_command("random"),
            "--engine",
            &fake_engine_command("illegal:1"),
            "--games",
            "200",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.05",
            "beta=0.05",
            "--quiet",
        ]))
        .unwrap(),
    );
    assert_eq!(summary.stop, StopReason::Sprt(SprtDecision::AcceptH1));
    assert_eq!(summary.tally.games.games(), SPRT_MIN_GAMES);
    assert_eq!(summary.tally.games.losses, 0);
    let (_, llr) = summary.sprt.unwrap();
    assert!(llr >= 2.94);
    assert!(summary.to_string().contains("H1 accepted"));
}

#[test]
fn interrupt_keeps_finished_games() {
    let rules = Rules::default();
    let spec = |mode: &str| EngineSpec {
        command: fake_engine_command(mode),
        ..EngineSpec::default()
    };
    let config = MatchConfig {
        engines: [spec("random"), spec("first")],
        names: ["a".into(), "b".into()],
        games: 40,
        limit: SearchLimit::Nodes(100),
        timeout: Duration::from_secs(5),
        rules,
        openings: random_openings(20, 2, 3, rules),
        concurrency: 2,
        sprt: None,
    };
    let interrupt = AtomicBool::new(false);
    let mut seen = 0;
    let result = play_match(&config, None, &interrupt, &mut |_, _| {
        seen += 1;
        if seen == 3 {
            interrupt.store(true, Ordering::SeqCst); // as the Ctrl-C handler does
        }
    });
    assert_eq!(result.stop, StopReason::Interrupted);
    assert_eq!(result.records.len(), 3);
    assert_eq!(result.tally.games.games(), 3);
    for r in &result.records {
        assert!(matches!(r.termination, Termination::Rules(_)));
    }
}

#[test]
fn replay_rejects_a_bad_record() {
    let path = scratch("bad.ogn");
    std::fs::write(
        &path,
        "[Variant \"Oware Abapa\"]\n[Result \"*\"]\n\n1. F f 2. F *\n\n[Variant \"Oware Abapa\"]\n\n1. A *\n",
    )
    .unwrap();
    let err = run_match(match_args(&["--replay", path.to_str().unwrap()])).unwrap_err();
    let text = format!("{err:#}");
    assert!(text.contains("1 of 2 games do not replay"), "{text}");
    assert!(text.contains("move 3 (F) refused"), "{text}");
}

#[test]
fn openings_file_is_used_in_turn() {
    let openings = scratch("openings.txt");
    std::fs::write(
        &openings,
        "# two openings\nF f\n4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves A\n",
    )
    .unwrap();
    let path = scratch("openings.ogn");
    let summary = played(
        run_match(match_args(&[
            "--engine",
            &fake_engine_command("random"),
            "--engine",
            &fake_engine_command("first"),
            "--games",
            "6",
            "--openings",
            openings.to_str().unwrap(),
            "--variant",
            "awari",
            "--repetitions",
            "2",
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    assert_eq!(summary.tally.games.games(), 6);
    let records = ogn::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    for g in &records {
        let round: usize = g.tag("Round").unwrap().parse().unwrap();
        let expected = if ((round - 1) / 2).is_multiple_of(2) {
            "Ff"
        } else {
            "A"
        };
        let start: String = g
            .moves
            .iter()
            .take(expected.len())
            .map(|m| m.letter())
            .collect();
        assert_eq!(start, expected, "round {round}");
        assert_eq!(g.tag("Variant"), Some("Oware Awari"));
        assert_eq!(g.tag("Repetitions"), Some("2"));
        let r = ogn::replay(g, Rules::default()).unwrap();
        assert!(r.end.is_some());
        assert_eq!(g.rules(Rules::default()).unwrap().variant, Variant::Awari);
    }
}

// ---------------------------------------------------------------------------------------------
// Matches between two instances of the real engine (the built `perfectplay` binary).

fn real_engine() -> String {
    format!("'{}'", env!("CARGO_BIN_EXE_perfectplay"))
}

#[test]
fn real_engine_level_5_beats_level_1() {
    let path = scratch("real.ogn");
    let summary = played(
        run_match(match_args(&[
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
            "8",
            "--concurrency",
            "2",
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    let t = &summary.tally;
    assert_eq!(t.games.games(), 8);
    assert_eq!(t.pairs.pairs(), 4);
    assert!(t.faults.iter().all(|f| f.is_empty()), "{:?}", t.faults);
    assert!(
        t.games.score() > 0.5,
        "level 5 should score more than level 1: {summary}"
    );
    assert!(summary.names[0].ends_with("#1") && summary.names[1].ends_with("#2"));
    let records = ogn::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(records.len(), 8);
    for g in &records {
        let r = ogn::replay(g, Rules::default()).unwrap();
        assert!(r.end.is_some(), "every game ends by the rules");
    }
}

/// Empty budgets are refused before any engine starts, and an option value an engine refuses is
/// reported on standard error (the match would otherwise test something other than asked).
#[test]
fn match_cli_refuses_empty_budgets_and_reports_refused_options() {
    let exe = env!("CARGO_BIN_EXE_perfectplay");
    for limit in [["--nodes", "0"], ["--depth", "0"], ["--concurrency", "0"]] {
        let out = std::process::Command::new(exe)
            .args(["match", "--engine", exe, "--engine", exe])
            .args(limit)
            .output()
            .expect("run perfectplay match");
        assert!(!out.status.success(), "{limit:?} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(limit[0]), "{limit:?}: {err}");
    }
    let out = std::process::Command::new(exe)
        .args([
            "match", "--engine", exe, "--engine", exe, "--nodes", "200", "--games", "2",
        ])
        .args(["--option", "1:Level=99", "--quiet"])
        .env("RUST_LOG", "warn")
        .output()
        .expect("run perfectplay match");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("refused a setting") && err.contains("option Level: '99'"),
        "{err}"
    );
}
