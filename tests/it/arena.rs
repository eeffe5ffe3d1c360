//! The match runner end to end: matches between fake engines (this test binary re-run as an engine,
//! see `fake_engine`), faults of every kind, records written and replayed, SPRT stops, interrupts;
//! and matches between two instances of the real engine (`CARGO_BIN_EXE_perfectplay`).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::common::arena::{match_args, parse_match_args, played, run_quiet, scratch};
use crate::fake_engine;
use perfectplay::arena::client::EngineSpec;
use perfectplay::arena::runner::{
    play_match, random_openings, Fault, MatchConfig, SearchLimit, StopReason, Termination,
    SPRT_MIN_GAMES,
};
use perfectplay::arena::stats::SprtDecision;
use perfectplay::arena::{run_match, MatchEvent, MatchReport};
use perfectplay::oware::{Board, RuleSet, Rules, Side};
use perfectplay::records::ogn;

// ---------------------------------------------------------------------------------------------
// The command line.

#[test]
fn the_command_line_gives_the_options() {
    let options = match_args(&[
        "--engine",
        "e1 --x",
        "--engine",
        "e2",
        "--option",
        "1:Level=5",
        "--option",
        "Seed=abc",
        "--name",
        "2:weak",
        "--tc",
        "10+0.1",
        "--limit",
        "2:nodes=20000",
        "--sprt",
        "elo0=0",
        "elo1=5",
        "--timeout",
        "250",
        "--pgn",
        "games.pgn",
    ]);
    assert_eq!(options.engines, ["e1 --x", "e2"]);
    assert_eq!(options.options.len(), 2);
    assert_eq!(options.options[0].engine, Some(0));
    assert_eq!(
        (options.options[1].engine, &*options.options[1].name),
        (None, "Seed")
    );
    assert_eq!(
        (options.names[0].engine, &*options.names[0].name),
        (1, "weak")
    );
    assert_eq!(options.limit.to_string(), "clock 10+0.1");
    assert_eq!(options.limits[0].limit, SearchLimit::Nodes(20_000));
    assert_eq!(options.sprt.map(|s| (s.elo1, s.alpha)), Some((5.0, 0.05)));
    assert_eq!(options.timeout, Duration::from_millis(250));
    assert_eq!(options.handshake_timeout, Duration::from_secs(60));
    assert_eq!(options.records, Some(PathBuf::from("games.pgn")));
    assert_eq!(options.games, 2);
}

#[test]
fn the_command_line_refuses_what_does_not_read() {
    for words in [
        &["--tc", "1+0", "--nodes", "2"][..],
        &["--tc", "x"],
        &["--nodes", "1", "--depth", "2"],
        &["--nodes", "0"],
        &["--replay", "x.ogn", "--engine", "a"],
        &["--option", "3:Level=1"],
        &["--option", "Level"],
        &["--name", "weak"],
        &["--limit", "nodes=5"],
        &["--limit", "1:speed=3"],
        &["--concurrency", "0"],
    ] {
        let err = parse_match_args(words).unwrap_err().to_string();
        assert!(err.contains(words[0]), "{words:?}: {err}");
    }
    let bad_sprt = parse_match_args(&["--sprt", "elo0=3", "elo1=1"]).unwrap();
    let err = bad_sprt.to_options().unwrap_err();
    assert!(format!("{err:#}").starts_with("--sprt: "), "{err:#}");
}

// ---------------------------------------------------------------------------------------------
// Matches between fake engines.

#[test]
fn fake_match_counts_records_and_replays() {
    let ogn_path = scratch("fake-match.ogn");
    let dir = scratch("fake-match-games");
    let summary = played(
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "random"),
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
            format!("{}-{}", end.stores()[0], end.stores()[1])
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
    // Each engine move's comment gives the engine's last score over its depth, then the time it
    // took (the termination follows on the last move); no clock, as none was set.
    for g in &records {
        for (i, comment) in g.comments.iter().enumerate().skip(4) {
            let comment = comment.as_deref().unwrap();
            let (score, time) = comment.split_once(' ').unwrap();
            assert_eq!(score, format!("+{}.{:02}/4", i / 100, i % 100), "{comment}");
            let time = time.split(';').next().unwrap();
            let seconds = time.strip_suffix('s').unwrap();
            assert!(seconds.parse::<f64>().unwrap() < 10.0, "{comment}");
            assert_eq!(seconds.split_once('.').unwrap().1.len(), 3, "{comment}");
        }
    }
    // One file per game as well.
    let single = std::fs::read_to_string(dir.join("game-0003.ogn")).unwrap();
    assert!(single.starts_with("[Variant \"Oware Abapa\"]"));
    assert_eq!(ogn::parse(&single).unwrap()[0], *by_round(3));

    // --replay reads the file back and agrees.
    let report = run_quiet(match_args(&["--replay", ogn_path.to_str().unwrap()])).unwrap();
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

/// `--replay` pairs the games as the match played them (rounds 2k+1 and 2k+2, colours swapped),
/// so its Elo interval is the match's pentanomial one.
#[test]
fn replay_gives_the_interval_of_the_match() {
    let path = scratch("replay-interval.ogn");
    let summary = played(
        fake_match(
            ["random", "first"],
            &["--games", "7", "--ogn", path.to_str().unwrap(), "--quiet"],
        )
        .unwrap(),
    )
    .to_string();
    let estimate = summary
        .lines()
        .find_map(|l| l.strip_prefix("Elo difference (fake-random - fake-first): "))
        .unwrap();
    assert!(
        estimate.ends_with("(95% interval, pentanomial, 3 pairs; 1 unpaired game left out)"),
        "{summary}"
    );
    let report = run_quiet(match_args(&["--replay", path.to_str().unwrap()])).unwrap();
    let text = report.to_string();
    assert!(
        text.contains(&format!(", Elo {estimate}\n")),
        "{text}\n{summary}"
    );
}

#[test]
fn same_seed_same_games() {
    let run = |seed: &str| {
        let path = scratch(&format!("repro-{seed}.ogn"));
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "first"),
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
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", mode),
            "--engine",
            &fake_engine::command("oware", "random"),
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
        // The termination ends the last move's comment (after the engine's note on its move).
        let last = g.comments.last().unwrap().as_deref().unwrap();
        assert!(last.ends_with(termination), "{last}");
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
        run_quiet(match_args(&[
            "--engine",
            &command,
            "--engine",
            &fake_engine::command("oware", "random"),
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
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "illegal:1"),
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

/// An engine that takes more than its clock holds loses on time: 120 ms a move on a clock of
/// 0.3 s without increment (and a margin of 50 ms) runs out at its third move at the latest. The
/// clock is sent as `go wtime btime winc binc` (the fake engine exits without one).
#[test]
fn an_engine_over_its_clock_loses_on_time() {
    let path = scratch("time-loss.ogn");
    let summary = played(
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "clock:120"),
            "--engine",
            &fake_engine::command("oware", "clock:0"),
            "--tc",
            "0.3",
            "--time-margin",
            "50",
            "--games",
            "2",
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    let t = &summary.tally;
    assert_eq!((t.games.games(), t.games.losses), (2, 2), "{summary}");
    assert_eq!(t.fault_count(0, Fault::TimeLoss), 2, "{:?}", t.faults);
    assert!(t.faults[1].is_empty(), "{:?}", t.faults);
    assert!(summary
        .to_string()
        .contains("Faults: fake-clock #1 2 (2 loss on time); fake-clock #2 none;"));
    assert!(summary.to_string().contains("clock 0.3+0"), "{summary}");
    for g in ogn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap() {
        let termination = g.tag("Termination").unwrap();
        assert!(
            termination.starts_with("forfeit: loss on time by ")
                && termination.contains("ms on the clock (margin 50 ms)"),
            "{termination}"
        );
        // The 4 opening plies, then at most two moves of the slow engine (its third is too late)
        // and three of the other.
        assert!(g.moves.len() <= 4 + 5, "{} moves", g.moves.len());
    }
}

/// Engines can have limits of their own: one on a clock, the other on nodes (each fake engine
/// exits if it gets the other kind of `go`); fast engines on a clock with an increment play
/// their games to the end.
#[test]
fn each_engine_gets_its_own_limit() {
    let path = scratch("own-limits.ogn");
    let summary = played(
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "clock:0"),
            "--engine",
            &fake_engine::command("oware", "nodes"),
            "--tc",
            "5+0.1",
            "--limit",
            "2:nodes=1000",
            "--games",
            "4",
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    let t = &summary.tally;
    assert_eq!(t.games.games(), 4);
    assert!(
        t.faults[0].is_empty() && t.faults[1].is_empty(),
        "{summary}"
    );
    assert!(
        summary
            .to_string()
            .contains("fake-clock: clock 5+0.1; fake-nodes: 1000 nodes per move"),
        "{summary}"
    );
    // The summary gives each engine's time a move, and the clock left at the end for the one
    // on a clock.
    let text = summary.to_string();
    let time = text.lines().find(|l| l.starts_with("Time: ")).unwrap();
    let (clock, nodes) = time.split_once("; ").unwrap();
    assert!(
        clock.starts_with("Time: fake-clock ") && clock.ends_with(" s left at the end (median)")
    );
    assert!(
        nodes.starts_with("fake-nodes ") && !nodes.contains("left"),
        "{time}"
    );
    // The clock engine's moves say the clock left after each, as `[%clk H:MM:SS.mmm]`: 5 s,
    // less the time of each move, plus 0.1 s a move. The other engine's moves say no clock.
    for g in ogn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap() {
        let clock_side = usize::from(g.tag("North") == Some("fake-clock"));
        let mut clock_ms = 5000;
        for (i, comment) in g.comments.iter().enumerate().skip(4) {
            let comment = comment.as_deref().unwrap().split(';').next().unwrap();
            let words: Vec<&str> = comment.split(' ').collect();
            let ms = |word: &str| -> i64 {
                let (s, ms) = word.split_once('.').unwrap();
                s.parse::<i64>().unwrap() * 1000 + ms.parse::<i64>().unwrap()
            };
            let time = ms(words[1].strip_suffix('s').unwrap());
            if i % 2 != clock_side {
                assert_eq!(words.len(), 2, "{comment}");
                continue;
            }
            clock_ms += 100 - time;
            let expected = format!("0:00:{:02}.{:03}]", clock_ms / 1000, clock_ms % 1000);
            assert_eq!(words[2..], ["[%clk", &expected], "{comment}");
        }
    }
}

/// Ctrl-C (SIGINT to the runner; the engines are in their own process group) stops the match:
/// the summary is printed, the record file holds whole records of the games it counts, and the
/// command exits with status 130, as shells expect.
#[cfg(unix)]
#[test]
fn ctrl_c_exits_130_with_the_records_whole() {
    let path = scratch("ctrl-c.ogn");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["match", "--quiet", "--games", "100000", "--ogn"])
        .arg(&path)
        .args(["--engine", &fake_engine::command("oware", "random")])
        .args(["--engine", &fake_engine::command("oware", "first")])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&path).map_or(0, |m| m.len()) == 0 {
        assert!(std::time::Instant::now() < deadline, "no game finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("Stopped: interrupted"), "{stdout}");
    let records = ogn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(!records.is_empty());
    for g in &records {
        ogn::replay(g, Rules::default()).unwrap();
    }
    assert!(
        stdout.contains(&format!("Records: {} games written to", records.len())),
        "{stdout}"
    );
}

#[test]
fn interrupt_keeps_finished_games() {
    let rules = Rules::default();
    let spec = |mode: &str| EngineSpec {
        command: fake_engine::command("oware", mode),
        ..EngineSpec::default()
    };
    let config = MatchConfig {
        engines: [spec("random"), spec("first")],
        names: ["a".into(), "b".into()],
        games: 40,
        limits: [SearchLimit::Nodes(100); 2],
        timeout: Duration::from_secs(5),
        time_margin: Duration::from_millis(50),
        handshake_timeout: Duration::from_secs(30),
        rules,
        openings: random_openings::<Board>(20, 2, 3, &rules),
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
    let err = run_quiet(match_args(&["--replay", path.to_str().unwrap()])).unwrap_err();
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
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "first"),
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
        assert_eq!(g.rules(Rules::default()).unwrap().variant, RuleSet::Awari);
    }
}

// ---------------------------------------------------------------------------------------------
// Matches between two instances of the real engine (the built `perfectplay` binary).

fn real_engine() -> String {
    // No tables from the machine's data directory, and none built there: the plain search and
    // its small table built in memory play.
    format!(
        "env 'XDG_DATA_HOME={}' '{}' --option AutoSolve=false",
        crate::common::NO_DATA,
        env!("CARGO_BIN_EXE_perfectplay")
    )
}

#[test]
fn real_engine_level_5_beats_level_1() {
    let path = scratch("real.ogn");
    let summary = played(
        run_quiet(match_args(&[
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

/// Empty budgets are refused before any engine starts, and an option value an engine refuses
/// (our engine answers `info string error: ...`) is an error before any game: the match would
/// otherwise test something other than asked.
#[test]
fn match_cli_refuses_empty_budgets_and_refused_options() {
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
    let path = scratch("refused-value.ogn");
    let out = std::process::Command::new(exe)
        .args([
            "match", "--engine", exe, "--engine", exe, "--nodes", "200", "--games", "2",
        ])
        .args(["--option", "1:Level=99", "--quiet", "--ogn"])
        .arg(&path)
        .output()
        .expect("run perfectplay match");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("engine 1") && err.contains("option Level: '99'"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!path.exists());
}

/// An `--option` the engine does not list in its `uci` reply is an error before any game, naming
/// the engine and the option: no game is played and no record file is written.
#[test]
fn an_option_the_engine_does_not_list_is_an_error() {
    let path = scratch("unknown-option.ogn");
    let mut games = 0;
    let result = run_match(
        match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "first"),
            "--option",
            "1:seed=x",
            "--option",
            "2:Bogus=1",
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]),
        &AtomicBool::new(false),
        &mut |event| {
            if let MatchEvent::Game { .. } = event {
                games += 1;
            }
        },
    );
    let text = format!("{:#}", anyhow::Error::from(result.unwrap_err()));
    assert!(
        text.contains("engine 2") && text.contains("'Bogus'") && !text.contains("'seed'"),
        "{text}"
    );
    assert!(text.contains("Variant, Seed"), "{text}");
    assert_eq!(games, 0);
    assert!(!path.exists());
    // The command line fails with it.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["match", "--quiet", "--option", "Bogus=1"])
        .args(["--engine", &fake_engine::command("oware", "random")])
        .args(["--engine", &fake_engine::command("oware", "first")])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("engine 1") && err.contains("'Bogus'"), "{err}");
    assert!(out.stdout.is_empty());
}

/// A match of two fake engines (modes `modes`) with the options `words`, run as
/// [`run_quiet`] runs it.
fn fake_match(modes: [&str; 2], words: &[&str]) -> anyhow::Result<MatchReport> {
    let engines = modes.map(|mode| fake_engine::command("oware", mode));
    let mut all = vec!["--engine", &engines[0], "--engine", &engines[1]];
    all.extend_from_slice(words);
    run_quiet(match_args(&all))
}

/// The runner selects the game with `UCI_Variant` when an engine lists it (also when it lists
/// `Variant` too), and with `Variant` otherwise; an engine that lists neither plays only the
/// default game (Oware, Abapa rules), and another game is an error before the first game that
/// names it; so is a game its variant option does not offer. Both engines are checked and
/// reported.
#[test]
fn the_game_is_selected_with_uci_variant_or_variant() {
    let summary = played(
        fake_match(
            ["bothvariants", "ucivariant"],
            &["--variant", "awari", "--games", "2", "--quiet"],
        )
        .unwrap(),
    );
    assert_eq!(summary.tally.games.games(), 2);
    assert!(summary.tally.faults.iter().all(|f| f.is_empty()));
    // An engine whose `uci` forgets the variant (Fairy-Stockfish's) is told it again after the
    // runner's second `uci`.
    let summary = played(
        fake_match(
            ["resetonuci", "ucivariant"],
            &["--variant", "awari", "--games", "2", "--quiet"],
        )
        .unwrap(),
    );
    assert_eq!(summary.tally.games.games(), 2);
    assert!(
        summary.tally.faults.iter().all(|f| f.is_empty()),
        "{:?}",
        summary.tally.faults
    );
    let abapa = played(fake_match(["novariant", "random"], &["--games", "2", "--quiet"]).unwrap());
    assert_eq!(abapa.tally.games.games(), 2);
    let mut games = 0;
    let err = run_match(
        match_args(&[
            "--engine",
            &fake_engine::command("oware", "novariant"),
            "--engine",
            &fake_engine::command("oware", "ucivariant"),
            "--variant",
            "dobutsu",
            "--quiet",
        ]),
        &AtomicBool::new(false),
        &mut |event| {
            if let MatchEvent::Game { .. } = event {
                games += 1;
            }
        },
    )
    .unwrap_err();
    let text = format!("{err:#}");
    assert!(
        text.contains("engine 1")
            && text.contains(
                "lists no UCI_Variant or Variant option, so it cannot be told to play dobutsu"
            ),
        "{text}"
    );
    assert!(
        text.contains("engine 2")
            && text.contains("its UCI_Variant option offers abapa, awari, not dobutsu"),
        "{text}"
    );
    assert_eq!(games, 0);
}

/// A rule setting an engine refuses is an error before the first game, and the other engine's
/// options are checked too: one run reports both.
#[test]
fn a_refused_rule_setting_is_an_error_and_both_engines_are_reported() {
    let path = scratch("refused-rule.ogn");
    let err = fake_match(
        ["refuserules", "random"],
        &[
            "--repetitions",
            "2",
            "--option",
            "2:Bogus=1",
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ],
    )
    .unwrap_err();
    let text = format!("{err:#}");
    assert!(
        text.contains("engine 1")
            && text.contains("cannot play by the referee's rules")
            && text.contains(
                "refused the rule setting Repetitions=2: info string error: Repetitions below 3"
            ),
        "{text}"
    );
    assert!(
        text.contains("engine 2") && text.contains("'Bogus'"),
        "{text}"
    );
    assert!(!path.exists());
    // The rule it accepts is no error.
    let summary =
        played(fake_match(["refuserules", "random"], &["--games", "2", "--quiet"]).unwrap());
    assert_eq!(summary.tally.games.games(), 2);
}

/// The start says which cycle rule decides the games when an engine cannot be told it: the
/// referee's (our engine lists `Repetitions` and `NoCaptureLimit`, the fake engines do not).
#[test]
fn the_start_notes_whose_cycle_rule_applies() {
    let mut notes = Vec::new();
    run_match(
        match_args(&[
            "--engine",
            &real_engine(),
            "--engine",
            &fake_engine::command("oware", "first"),
            "--games",
            "0",
            "--quiet",
        ]),
        &AtomicBool::new(false),
        &mut |event| {
            if let MatchEvent::Started(start) = event {
                notes = start.notes.clone();
            }
        },
    )
    .unwrap();
    assert_eq!(
        notes,
        ["fake-first lists no Repetitions or NoCaptureLimit option: the referee applies its rules \
          (abapa, repetitions 3, no-capture limit 500) whatever fake-first's own"]
    );
}

/// A match interrupted before any game finished says so instead of a score of 0.0/0 = 50.0% and
/// an Elo line; its record file is there, empty.
#[test]
fn interrupt_before_any_game_says_no_game_finished() {
    let path = scratch("interrupted-at-once.ogn");
    let report = run_match(
        match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "first"),
            "--games",
            "4",
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]),
        &AtomicBool::new(true), // Ctrl-C before the first game ends
        &mut |_| {},
    )
    .unwrap();
    let summary = played(report);
    assert_eq!(summary.stop, StopReason::Interrupted);
    assert_eq!(summary.tally.games.games(), 0);
    let text = summary.to_string();
    assert!(text.contains("Stopped: interrupted"), "{text}");
    assert!(
        text.contains("No game finished: no score, no Elo estimate\n"),
        "{text}"
    );
    assert!(
        !text.contains("50.0%") && !text.contains("Elo difference"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("Records: 0 games written to {}\n", path.display())),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
}

// ---------------------------------------------------------------------------------------------
// Aualé conventions, engines' own rules, slow starts.

/// An engine of the Aualé family (Aalina) reads `position ... moves FfBe`, the moves run together,
/// and refuses them separated by blanks; the runner sends them run together.
#[test]
fn moves_are_sent_run_together() {
    let summary = played(
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "strict"),
            "--engine",
            &fake_engine::command("oware", "random"),
            "--games",
            "2",
            "--quiet",
        ]))
        .unwrap(),
    );
    assert_eq!(summary.tally.games.games(), 2);
    assert!(
        summary.tally.faults.iter().all(|f| f.is_empty()),
        "{:?}",
        summary.tally.faults
    );
}

/// `bestmove 0000` while the referee sees legal moves is its own fault kind, with a warning in the
/// summary pointing at `--repetitions 2`.
#[test]
fn no_move_with_legal_moves_is_a_fault_of_its_own() {
    check_fault("nomove:2", Fault::NoMove, 2);
    let text = std::fs::read_to_string(scratch("fault-nomove-2.ogn")).unwrap();
    assert!(text.contains("forfeit: no move by "), "{text}");
    assert!(text.contains("bestmove 0000 in "), "{text}");
    let summary = played(
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "nomove:1"),
            "--engine",
            &fake_engine::command("oware", "random"),
            "--games",
            "1",
            "--quiet",
        ]))
        .unwrap(),
    );
    let text = summary.to_string();
    assert!(
        text.contains(
            "Faults: fake-nomove 1 (1 no move); fake-random none;\nWarning: fake-nomove answered \
             bestmove 0000 where the rules allow a move, in 1 game; an engine that ends a game at the \
             first repetition (Aalina) needs --repetitions 2\n"
        ),
        "{text}"
    );
}

/// Starting an engine has its own limit (`--handshake-timeout`, default 60 s): an engine 2.5 s
/// slow to answer `uciok` plays under `--timeout 1000`, and fails to start under a shorter
/// handshake limit.
#[test]
fn slow_starting_engine_gets_the_handshake_limit() {
    let slow = fake_engine::command("oware", "slowstart:2500");
    let summary = played(
        run_quiet(match_args(&[
            "--engine",
            &slow,
            "--engine",
            &fake_engine::command("oware", "random"),
            "--games",
            "2",
            "--timeout",
            "1000",
            "--quiet",
        ]))
        .unwrap(),
    );
    assert_eq!(summary.tally.games.games(), 2);
    assert!(summary.tally.faults.iter().all(|f| f.is_empty()));
    let err = run_quiet(match_args(&[
        "--engine",
        &slow,
        "--engine",
        &fake_engine::command("oware", "random"),
        "--handshake-timeout",
        "500",
        "--quiet",
    ]))
    .unwrap_err();
    let text = format!("{err:#}");
    assert!(
        text.contains("engine 1") && text.contains("no uciok within 500 ms"),
        "{text}"
    );
}

/// The start line says what a plain `go` means (our engine: its Level's caps).
#[test]
fn start_line_says_the_limit() {
    let mut lines = Vec::new();
    let report = run_match(
        match_args(&[
            "--engine",
            &real_engine(),
            "--engine",
            &fake_engine::command("oware", "first"),
            "--option",
            "1:Level=2",
            "--games",
            "0",
            "--quiet",
        ]),
        &AtomicBool::new(false),
        &mut |event| {
            if let MatchEvent::Started(start) = event {
                lines.push(start.to_string());
            }
        },
    )
    .unwrap();
    assert_eq!(played(report).tally.games.games(), 0);
    let [line] = &lines[..] else {
        panic!("{lines:?}")
    };
    assert!(
        line.ends_with(
            ": 0 games, plain go (perfectplay 0.1.0: Level 2, at most 4000 nodes, depth 3 a move; \
             fake-first: its own default) (abapa, repetitions 3, no-capture limit 500)"
        ),
        "{line}"
    );
}

// ---------------------------------------------------------------------------------------------
// Record files: failures to write, locks, the openings file.

#[cfg(target_os = "linux")]
#[test]
fn records_that_cannot_be_written_are_reported_and_fail_the_command() {
    let summary = played(
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "first"),
            "--games",
            "2",
            "--ogn",
            "/dev/full",
            "--quiet",
        ]))
        .unwrap(),
    );
    assert_eq!(summary.records.failed, 2);
    assert_eq!(summary.records.written, 0);
    let text = summary.to_string();
    assert!(
        text.ends_with(
            "Records: FAILED: 2 of 2 games not written to /dev/full (No space left on device (os error 28))\n"
        ),
        "{text}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args([
            "match",
            "--engine",
            &fake_engine::command("oware", "random"),
        ])
        .args(["--engine", &fake_engine::command("oware", "first")])
        .args(["--games", "2", "--ogn", "/dev/full", "--quiet"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Records: FAILED: 2 of 2"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2 of 2 game records could not be written"),
        "{stderr}"
    );
}

#[test]
fn a_record_file_in_use_is_refused() {
    let path = scratch("locked.ogn");
    std::fs::write(&path, "[Event \"another match\"]\n").unwrap();
    let other = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    other.lock().unwrap();
    let err = run_quiet(match_args(&[
        "--engine",
        &fake_engine::command("oware", "random"),
        "--engine",
        &fake_engine::command("oware", "first"),
        "--ogn",
        path.to_str().unwrap(),
        "--quiet",
    ]))
    .unwrap_err();
    assert!(format!("{err:#}").contains("is locked"), "{err:#}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "[Event \"another match\"]\n"
    );
    // Once the other writer is done, the file is used (and replaced).
    other.unlock().unwrap();
    let summary = played(
        run_quiet(match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "first"),
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ]))
        .unwrap(),
    );
    assert_eq!(summary.records.written, 2);
    let records = ogn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(records.len(), 2);
}

/// Two matches writing the same file at once: the second is refused while the first runs, and
/// the first one's records are whole.
#[test]
fn two_matches_do_not_share_a_record_file() {
    let path = scratch("shared.ogn");
    let args = |games: &str| {
        match_args(&[
            "--engine",
            &fake_engine::command("oware", "random"),
            "--engine",
            &fake_engine::command("oware", "first"),
            "--games",
            games,
            "--ogn",
            path.to_str().unwrap(),
            "--quiet",
        ])
    };
    let (first, second) = std::thread::scope(|s| {
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (tried_tx, tried_rx) = std::sync::mpsc::channel::<()>();
        let first = s.spawn(move || {
            run_match(args("6"), &AtomicBool::new(false), &mut |event| {
                if let MatchEvent::Started(_) = event {
                    // The file is open and locked: hold the match until the second has tried.
                    let _ = started_tx.send(());
                    let _ = tried_rx.recv();
                }
            })
        });
        started_rx.recv().unwrap();
        let second = run_quiet(args("2"));
        tried_tx.send(()).unwrap();
        (first.join().unwrap(), second)
    });
    assert_eq!(played(first.unwrap()).records.written, 6);
    assert!(format!("{:#}", second.unwrap_err()).contains("is locked"));
    let records = ogn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(records.len(), 6);
    for g in &records {
        ogn::replay(g, Rules::default()).unwrap();
    }
}

#[test]
fn openings_file_is_not_the_record_file() {
    let path = scratch("openings-and-records.txt");
    std::fs::write(&path, "F f\n").unwrap();
    let err = run_quiet(match_args(&[
        "--engine",
        &fake_engine::command("oware", "random"),
        "--engine",
        &fake_engine::command("oware", "first"),
        "--openings",
        path.to_str().unwrap(),
        "--ogn",
        scratch("./openings-and-records.txt").to_str().unwrap(),
        "--quiet",
    ]))
    .unwrap_err();
    assert!(
        format!("{err:#}").contains("--openings and --ogn name the same file"),
        "{err:#}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "F f\n");
}

// ---------------------------------------------------------------------------------------------
// Replays that catch wrong records.

/// A match's records with one capture annotation changed, or their Variant tag changed, do not
/// replay.
#[test]
fn replay_checks_captures_and_variant() {
    let path = scratch("annotations.ogn");
    run_quiet(match_args(&[
        "--engine",
        &fake_engine::command("oware", "random"),
        "--engine",
        &fake_engine::command("oware", "first"),
        "--games",
        "2",
        "--ogn",
        path.to_str().unwrap(),
        "--quiet",
    ]))
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let replay = |name: &str, text: &str| {
        let p = scratch(name);
        std::fs::write(&p, text).unwrap();
        run_quiet(match_args(&["--replay", p.to_str().unwrap()]))
    };
    assert!(replay("unchanged.ogn", &text).is_ok());
    // The first capture: ` X+N` with N seeds (a house letter before the `+`, which tells it
    // from a score in a comment, `{+0.05/4 0.000s}`).
    let at = text
        .match_indices('+')
        .map(|(at, _)| at)
        .find(|&at| text[..at].ends_with(|c: char| c.is_ascii_alphabetic()))
        .unwrap();
    let start = text[..at].rfind([' ', '\n']).unwrap() + 1;
    let end = at + 1 + text[at + 1..].find(|c: char| !c.is_ascii_digit()).unwrap();
    let (mv, seeds) = (&text[start..at], &text[at + 1..end]);
    let n: u8 = seeds.parse().unwrap();
    let ply_error = |err: anyhow::Error| format!("{err:#}");
    let more = format!("{}{mv}+{}{}", &text[..start], n + 1, &text[end..]);
    let err = ply_error(replay("more.ogn", &more).unwrap_err());
    assert!(
        err.contains(&format!(
            "({mv}) is written as capturing {} seeds; the rules capture {n}",
            n + 1
        )),
        "{err}"
    );
    let bare = format!("{}{mv}{}", &text[..start], &text[end..]);
    let err = ply_error(replay("bare.ogn", &bare).unwrap_err());
    assert!(
        err.contains(&format!(
            "({mv}) is written as capturing 0 seeds; the rules capture {n}"
        )),
        "{err}"
    );
    // A move that captured nothing, given a capture: the first move of the game.
    let first = text.find("\n1. ").unwrap() + 4;
    let word_end = first + text[first..].find(' ').unwrap();
    assert!(!text[first..word_end].contains('+'));
    let invented = format!("{}+4{}", &text[..word_end], &text[word_end..]);
    let err = ply_error(replay("invented.ogn", &invented).unwrap_err());
    assert!(
        err.contains("move 1 (") && err.contains("capturing 4 seeds; the rules capture 0"),
        "{err}"
    );
    for variant in ["", "Oware Grand Slam"] {
        let changed = text.replacen(
            "[Variant \"Oware Abapa\"]",
            &format!("[Variant \"{variant}\"]"),
            1,
        );
        let err = ply_error(replay("variant.ogn", &changed).unwrap_err());
        assert!(
            err.contains(&format!(
                "tag Variant \"{variant}\" is not Oware Abapa or Oware Awari"
            )),
            "{err}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A closed standard output ends every subcommand quietly.

/// Runs the binary with `args`, standard output a pipe whose reader is already gone, standard
/// input `input`; returns the exit status and standard error.
fn run_into_closed_pipe(args: &[&str], input: &str) -> (std::process::ExitStatus, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn closed_stdout_ends_quietly() {
    let records = scratch("closed-stdout.ogn");
    run_quiet(match_args(&[
        "--engine",
        &fake_engine::command("oware", "random"),
        "--engine",
        &fake_engine::command("oware", "first"),
        "--ogn",
        records.to_str().unwrap(),
        "--quiet",
    ]))
    .unwrap();
    let random = fake_engine::command("oware", "random");
    let first = fake_engine::command("oware", "first");
    let cases: [(&[&str], &str); 5] = [
        (&["bench", "--depth", "2"], ""),
        (&["perft", "--depth", "3"], ""),
        (&["match", "--replay", records.to_str().unwrap()], ""),
        (
            &["match", "--engine", &random, "--engine", &first, "--quiet"],
            "",
        ),
        (&[], "uci\nisready\nquit\n"),
    ];
    for (args, input) in cases {
        let (status, stderr) = run_into_closed_pipe(args, input);
        assert!(status.success(), "{args:?}: {status}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Error"), "{args:?}: {stderr}");
    }
}

#[test]
fn perft_refuses_depths_beyond_its_cap() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["perft", "--depth", "75000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{:?}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("invalid value '75000' for '--depth <DEPTH>': 75000 is not in 0..=64"),
        "{stderr}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args([
            "perft",
            "--depth",
            "64",
            "--fen",
            "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn replay_of_a_file_with_no_records_is_refused() {
    let path = std::env::temp_dir().join(format!("perfectplay-empty-{}.ogn", std::process::id()));
    std::fs::write(&path, "\n  \n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["match", "--replay"])
        .arg(&path)
        .output()
        .expect("run perfectplay");
    let _ = std::fs::remove_file(&path);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no game records"));
}
