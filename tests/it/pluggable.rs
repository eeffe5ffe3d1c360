//! What GUIs and tournament managers rely on, end to end on the built binary: the game choice
//! under its standard name (`UCI_Variant`), every FEN form the field writes, `MultiPV` and
//! `searchmoves`, `UCI_ShowWDL`, and `Threads` (reproducible with one, stopped at once and
//! within its node budget with two).

use std::time::{Duration, Instant};

use crate::common::{transcript, without_timing, Engine};

/// The value after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == key)?;
    words.get(at + 1).copied()
}

/// `score cp X` / `score mate N` of an `info` line, as printed.
fn score(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == "score").expect("a score");
    format!("{} {}", words[at + 1], words[at + 2])
}

/// The `wdl W D L` of an `info` line.
fn wdl(line: &str) -> [u32; 3] {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == "wdl").expect("a wdl");
    [1, 2, 3].map(|i| words[at + i].parse().expect("a number"))
}

/// The first move of an `info` line's pv (Oware's pv runs together: its first letter).
fn first_move(line: &str, oware: bool) -> String {
    let pv = field(line, "pv").expect("a pv");
    if oware {
        pv[..1].to_string()
    } else {
        pv.to_string()
    }
}

fn info_lines(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect()
}

#[test]
fn the_game_choice_is_listed_once_under_its_standard_name() {
    let out = transcript("uci\n");
    let choice: Vec<&String> = out.iter().filter(|l| l.contains("Variant")).collect();
    assert_eq!(
        choice,
        ["option name UCI_Variant type combo default abapa var abapa var awari var dobutsu"]
    );
    let threads = format!(
        "option name Threads type spin default 1 min 1 max {}",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    for line in [
        threads.as_str(),
        "option name MultiPV type spin default 1 min 1 max 500",
        "option name UCI_ShowWDL type check default false",
    ] {
        assert!(out.iter().any(|l| l == line), "{line} not in {out:#?}");
    }
    // The old name still selects the game, as a preset and by setoption.
    let out = transcript("setoption name Variant value dobutsu\nuci\n");
    assert!(out
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant") && l.contains("default dobutsu")));
    let mut engine = Engine::start_with_args(&["--option", "Variant=dobutsu"]);
    engine.send("legal");
    assert_eq!(engine.sync(), ["legal b1a2 b1c2 c1c2 b2b3"]);
}

#[test]
fn every_fen_form_the_field_writes_is_read_and_its_counters_kept() {
    // One position written five ways: ours, Fairy-Stockfish's, cutechess's, and the bare and
    // placeholder-only forms; the empty hand as [] and [-].
    let forms = [
        ("gle/1c1/1C1/ELG[-] w 0 1", "gle/1c1/1C1/ELG[] w - - 0 1"),
        ("gle/1c1/1C1/ELG[] w - - 0 1", "gle/1c1/1C1/ELG[] w - - 0 1"),
        ("gle/1c1/1C1/ELG[-] w - 1", "gle/1c1/1C1/ELG[] w - - 0 1"),
        ("gle/1c1/1C1/ELG[] w", "gle/1c1/1C1/ELG[] w - - 0 1"),
        ("gle/1c1/1C1/ELG[-] w -", "gle/1c1/1C1/ELG[] w - - 0 1"),
        ("gle/1c1/1C1/ELG[] w - -", "gle/1c1/1C1/ELG[] w - - 0 1"),
        // Counters are kept and advanced by the moves: after Sente's move, Gote's of move 7;
        // after a capture the halfmove clock restarts.
        ("gle/1c1/1C1/ELG[] w - 7", "gle/1c1/1C1/ELG[] w - - 0 7"),
        (
            "gle/1c1/1C1/ELG[] w - - 3 12",
            "gle/1c1/1C1/ELG[] w - - 3 12",
        ),
        ("gle/1c1/1C1/ELG[] b 5 20", "gle/1c1/1C1/ELG[] b - - 5 20"),
    ];
    let mut engine = Engine::start_with_args(&["--option", "UCI_Variant=dobutsu"]);
    for (given, written) in forms {
        engine.send(&format!("position fen {given}"));
        let board = engine.board();
        assert!(
            board.contains(&format!("fen: {written}")),
            "{given}: {board:#?}"
        );
    }
    // Moves after the counters: Sente's Lion steps (the halfmove clock goes on), then Gote's
    // Chick takes Sente's (it restarts) and the move number grows after Gote's move.
    engine.send("position fen gle/1c1/1C1/ELG[] w - - 4 7 moves b1a2");
    assert!(engine
        .board()
        .contains(&"fen: gle/1c1/LC1/E1G[] b - - 5 7".to_string()));
    engine.send("position fen gle/1c1/1C1/ELG[] w - - 4 7 moves b1a2 b3b2");
    assert!(engine
        .board()
        .contains(&"fen: gle/3/Lc1/E1G[c] w - - 0 8".to_string()));
    // Not Dobutsu: one error line each, and no position after it.
    for bad in [
        "gle/1c1/1C1/ELG[] w x 1",
        "gle/1c1/1C1/ELG[] w - 0",
        "gle/1c1/1C1/ELG[] w - - 0 1 9",
        "gle/1c1/1C1/ELG w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        engine.send(&format!("position fen {bad}"));
        let reply = engine.sync();
        assert_eq!(reply.len(), 1, "{bad}: {reply:?}");
        assert!(
            reply[0].starts_with("info string error: "),
            "{bad}: {reply:?}"
        );
    }
}

#[test]
fn multipv_lines_are_distinct_best_first_and_as_many_as_asked() {
    for (variant, position, oware) in [
        ("abapa", "startpos", true),
        ("dobutsu", "startpos moves b2b3 b4b3", false),
    ] {
        let out = transcript(&format!(
            "setoption name UCI_Variant value {variant}\nsetoption name MultiPV value 3\n\
             position {position}\ngo depth 7\n"
        ));
        let infos = info_lines(&out);
        for depth in 1..=7 {
            let lines: Vec<&&String> = infos
                .iter()
                .filter(|l| field(l, "depth") == Some(&depth.to_string()))
                .collect();
            assert_eq!(lines.len(), 3, "{variant} depth {depth}: {infos:#?}");
            let ranks: Vec<&str> = lines.iter().map(|l| field(l, "multipv").unwrap()).collect();
            assert_eq!(ranks, ["1", "2", "3"], "{variant} depth {depth}");
            let firsts: Vec<String> = lines.iter().map(|l| first_move(l, oware)).collect();
            assert!(
                firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
                "{variant} depth {depth}: {firsts:?}"
            );
            let cp: Vec<i64> = lines
                .iter()
                .map(|l| match score(l).split_once(' ') {
                    Some(("cp", v)) => v.parse().unwrap(),
                    Some(("mate", v)) if v.starts_with('-') => -1_000_000,
                    _ => 1_000_000,
                })
                .collect();
            assert!(
                cp[0] >= cp[1] && cp[1] >= cp[2],
                "{variant} depth {depth}: {cp:?}"
            );
        }
        let best = out.last().unwrap();
        let last_first = infos.last().map(|_| {
            infos
                .iter()
                .rev()
                .find(|l| field(l, "multipv") == Some("1"))
                .map(|l| first_move(l, oware))
                .unwrap()
        });
        assert_eq!(
            field(best, "bestmove").map(str::to_string),
            last_first,
            "{variant}: the move is line 1's"
        );
    }
    // More lines than moves: every move once (Oware's start has six).
    let out = transcript("setoption name MultiPV value 50\ngo depth 3\n");
    let deepest: Vec<&String> = info_lines(&out)
        .into_iter()
        .filter(|l| field(l, "depth") == Some("3"))
        .collect();
    let mut firsts: Vec<String> = deepest.iter().map(|l| first_move(l, true)).collect();
    firsts.sort();
    assert_eq!(firsts, ["A", "B", "C", "D", "E", "F"]);
    // With one line, no rank is written (the lines Aualé reads are unchanged).
    let out = transcript("go depth 3\n");
    assert!(info_lines(&out)
        .iter()
        .all(|l| field(l, "multipv").is_none()));
}

#[test]
fn searchmoves_restricts_the_root_and_bad_moves_are_refused() {
    let out = transcript("position startpos\ngo depth 6 searchmoves A C\n");
    let best = field(out.last().unwrap(), "bestmove").unwrap();
    assert!(best == "A" || best == "C", "{out:#?}");
    assert!(info_lines(&out)
        .iter()
        .all(|l| matches!(first_move(l, true).as_str(), "A" | "C")));
    // One move given is searched, for its score, and then played.
    let out = transcript("go depth 4 searchmoves B\n");
    assert_eq!(info_lines(&out).len(), 4, "{out:#?}");
    assert!(out.last().unwrap().starts_with("bestmove B"));
    // Dobutsu, with the limits after the moves.
    let out = transcript(
        "setoption name UCI_Variant value dobutsu\nposition startpos\n\
         go searchmoves c1c2 b1a2 depth 5\n",
    );
    let best = field(out.last().unwrap(), "bestmove").unwrap();
    assert!(best == "c1c2" || best == "b1a2", "{out:#?}");
    // An illegal or unreadable move: one error line, no search.
    for (variant, bad) in [("dobutsu", "b2b4"), ("dobutsu", "z9"), ("abapa", "x")] {
        let out = transcript(&format!(
            "setoption name UCI_Variant value {variant}\ngo depth 3 searchmoves {bad}\nisready\n"
        ));
        assert_eq!(out.len(), 2, "{bad}: {out:#?}");
        assert!(
            out[0].starts_with("info string error: searchmoves"),
            "{out:?}"
        );
        assert_eq!(out[1], "readyok");
    }
}

#[test]
fn wdl_is_exact_for_proven_results_and_modelled_otherwise() {
    // A heuristic score: chances from the model, adding up to 1000, better for a better score.
    let out = transcript(
        "setoption name UCI_ShowWDL value true\nsetoption name MultiPV value 6\ngo depth 5\n",
    );
    let deepest: Vec<&String> = info_lines(&out)
        .into_iter()
        .filter(|l| field(l, "depth") == Some("5"))
        .collect();
    let chances: Vec<[u32; 3]> = deepest.iter().map(|l| wdl(l)).collect();
    assert!(
        chances.iter().all(|c| c.iter().sum::<u32>() == 1000),
        "{chances:?}"
    );
    assert!(
        chances
            .windows(2)
            .all(|w| w[0][0] >= w[1][0] && w[0][2] <= w[1][2]),
        "{chances:?}"
    );
    // Dobutsu: the mover can take the Lion (mate 1): a certain win; the other side, mated.
    let out = transcript(
        "setoption name UCI_Variant value dobutsu\nsetoption name UCI_ShowWDL value true\n\
         position fen 1l1/1G1/3/1L1[] w\ngo depth 3\n",
    );
    let last = info_lines(&out).last().copied().unwrap().clone();
    assert_eq!(
        (score(&last), wdl(&last)),
        ("mate 1".into(), [1000, 0, 0]),
        "{out:#?}"
    );
    // Oware inside the in-memory tablebase (10 seeds, Level 6): the table's exact value, so
    // the chances are certain; South's F sows into a capture of 3 and North is left one seed.
    let out = transcript(
        "setoption name UCI_ShowWDL value true\nposition fen 0-0-0-0-1-2-0-0-0-0-0-1-20-24-S\n\
         go depth 5\n",
    );
    let last = info_lines(&out).last().copied().unwrap().clone();
    assert!(field(&last, "tbhits").is_some(), "{out:#?}");
    let certain = |c: [u32; 3]| c == [1000, 0, 0] || c == [0, 1000, 0] || c == [0, 0, 1000];
    assert!(certain(wdl(&last)), "{last}");
    // With several lines, each move's exact value from the table: both of South's moves.
    let out = transcript(
        "setoption name UCI_ShowWDL value true
setoption name MultiPV value 3
         position fen 0-0-0-0-1-2-0-0-0-0-0-1-20-24-S
go depth 5
",
    );
    let lines = info_lines(&out);
    assert_eq!(lines.len(), 2, "{out:#?}");
    assert!(lines
        .iter()
        .all(|l| certain(wdl(l)) && field(l, "tbhits").is_some()));
    let firsts: Vec<String> = lines.iter().map(|l| first_move(l, true)).collect();
    assert!(firsts.contains(&"E".to_string()) && firsts.contains(&"F".to_string()));
}

#[test]
fn threads_one_is_reproducible_after_a_search_with_two() {
    let input = "position startpos moves FfBe\ngo nodes 60000\nsetoption name Threads value 2\n\
                 go nodes 60000\nsetoption name Threads value 1\ngo nodes 60000\n";
    let out = transcript(input);
    let searches: Vec<Vec<String>> = out
        .split(|l| l.starts_with("bestmove"))
        .map(|s| s.iter().map(|l| without_timing(l)).collect())
        .collect();
    assert_eq!(searches.len(), 4, "{out:#?}");
    // The first and the third search (one thread each) say the same, line for line; the moves
    // played are the same too.
    assert_eq!(searches[0], searches[2]);
    let moves: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(moves[0], moves[2]);
}

#[test]
fn two_threads_keep_to_the_node_budget_and_stop_at_once() {
    let mut engine = Engine::start_with_args(&["--option", "Threads=2"]);
    engine.send("go nodes 300000");
    let out = engine.until_bestmove();
    for line in info_lines(&out) {
        let nodes: u64 = field(line, "nodes").unwrap().parse().unwrap();
        assert!(nodes <= 300_000, "{line}");
    }
    assert!(info_lines(&out).len() >= 8, "{out:#?}");
    for variant in ["abapa", "dobutsu"] {
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        engine.send("position startpos");
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        engine.send("stop");
        let out = engine.until_bestmove();
        // Generous for a loaded machine: the search polls every 1024 nodes of each thread.
        assert!(asked.elapsed() < Duration::from_secs(2), "{out:#?}");
        assert!(!info_lines(&out).is_empty(), "{variant}: {out:#?}");
        assert_eq!(engine.sync(), Vec::<String>::new());
    }
}

/// A fresh data folder under Cargo's temporary directory for integration tests.
fn data_folder(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("pluggable-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn strings(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

#[test]
fn the_solution_build_waits_for_another_engines_lock_and_says_so() {
    let data = data_folder("locked");
    let place = data.join("perfectplay");
    std::fs::create_dir_all(&place).unwrap();
    let solution = place.join("dobutsu.solution");
    let lock = std::fs::File::create(place.join("dobutsu.solution.lock")).unwrap();
    lock.lock().unwrap();
    let mut engine = Engine::start_with_data(
        &[
            "--option",
            "AutoSolve=true",
            "--option",
            "UCI_Variant=dobutsu",
        ],
        data.to_str().unwrap(),
    );
    engine.send("go depth 3");
    let out = engine.until_bestmove();
    assert_eq!(
        strings(&out),
        [&format!(
            "info string another engine is building the Dobutsu Shogi solution (about a minute \
             on two cores, under 300 MiB) in {}; playing by search until it is written",
            solution.display()
        )],
        "{out:#?}"
    );
    // The other engine gives up without the file: said once, and not built here either.
    // Unlocked, not only closed: a child another test forks meanwhile shares the open file.
    lock.unlock().unwrap();
    drop(lock);
    for said in [1, 0] {
        engine.send("go depth 3");
        let out = engine.until_bestmove();
        assert_eq!(strings(&out).len(), said, "{out:#?}");
        if said == 1 {
            assert!(strings(&out)[0].contains("ended without it; playing by search"));
        }
    }
    assert!(!solution.exists());
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_solution_build_that_cannot_start_says_why_and_leaves_nothing() {
    // The data folder is a file: no folder can be made in it.
    let data = data_folder("blocked");
    let blocked = data.join("not-a-folder");
    std::fs::write(&blocked, "x").unwrap();
    let mut engine = Engine::start_with_data(
        &[
            "--option",
            "AutoSolve=true",
            "--option",
            "UCI_Variant=dobutsu",
        ],
        blocked.to_str().unwrap(),
    );
    engine.send("go depth 3");
    let out = engine.until_bestmove();
    let said = strings(&out);
    assert_eq!(said.len(), 1, "{out:#?}");
    assert!(
        said[0].starts_with("info string error: cannot build the Dobutsu Shogi solution")
            && said[0].ends_with("; playing by search"),
        "{said:?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "));
    // Not tried again, and no build at a weaker level or with AutoSolve off.
    engine.send("go depth 3");
    assert!(strings(&engine.until_bestmove()).is_empty());
    for level in ["Level=6", "Level=5"] {
        let free = data_folder("free");
        let auto_solve = if level == "Level=6" {
            "AutoSolve=false"
        } else {
            "AutoSolve=true"
        };
        let args = ["--option", auto_solve, "--option", level];
        let mut engine = Engine::start_with_data(
            &[
                args[0],
                args[1],
                args[2],
                args[3],
                "--option",
                "UCI_Variant=dobutsu",
            ],
            free.to_str().unwrap(),
        );
        engine.send("go depth 3");
        assert!(strings(&engine.until_bestmove()).is_empty());
        assert_eq!(std::fs::read_dir(&free).unwrap().count(), 0, "{args:?}");
    }
    std::fs::remove_dir_all(&data).unwrap();
}
