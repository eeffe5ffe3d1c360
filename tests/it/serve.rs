//! The web board's server (`perfectplay serve`): its page and JSON API over HTTP, checked against
//! the library's own answers (rules, tables, records), bad input answered with 4xx JSON errors,
//! and analysis streams that stop when their page goes away. The checks that need the 16-seed
//! awari table or the whole Dobutsu solution are ignored by default (CI runs them).

mod hostile;
mod variations;

use std::time::{Duration, Instant};

use crate::common::web::WebServer;
use perfectplay::dobutsu::Position;
use perfectplay::game::{Game, GameState, Notation};
use perfectplay::oware::tablebase::Tablebase;
use perfectplay::oware::{Board, RuleSet};
use perfectplay::records::Recorded;
use perfectplay::retro::Silent;
use serde_json::Value;

/// A game played out from the start of `G` by a fixed pseudo-random sequence until it ends by
/// the rules or `max` plies have passed.
fn random_game<G: Notation>(rules: G::Rules, seed: u64, max: usize) -> GameState<G> {
    play_out(GameState::<G>::from_start(rules), seed, max)
}

/// `game` played on by the pseudo-random sequence of `seed` until it ends or has `max` plies.
fn play_out<G: Notation>(mut game: GameState<G>, seed: u64, max: usize) -> GameState<G> {
    let mut x = seed;
    while !game.is_over() && game.ply() < max {
        let moves = game.legal_moves();
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[(x >> 33) as usize % moves.len()];
        game.play(mv).unwrap();
    }
    game
}

/// The query text of `moves` (a `+` of a promotion escaped, blanks as `+`).
fn encode(moves: &[String]) -> String {
    moves
        .iter()
        .map(|m| m.replace('+', "%2B"))
        .collect::<Vec<_>>()
        .join("+")
}

fn move_words<G: Game>(game: &GameState<G>) -> Vec<String> {
    game.moves().iter().map(|m| m.to_string()).collect()
}

#[test]
fn the_page_and_its_assets_are_served_and_unknown_paths_are_404() {
    let server = WebServer::start(&[]);
    let (status, page) = server.get("");
    assert_eq!(status, 200);
    assert!(page.contains(r#"<svg id="board""#), "{page}");
    assert!(
        page.contains(r#"<script type="module" src="/app.js">"#),
        "{page}"
    );
    // The script's modules, followed from app.js through their imports: each is served, and
    // between them they draw the squares.
    let mut modules = vec!["app.js".to_string()];
    let mut served = std::collections::BTreeMap::new();
    while let Some(module) = modules.pop() {
        if served.contains_key(&module) {
            continue;
        }
        let (status, script) = server.get(&module);
        assert_eq!(status, 200, "{module}");
        assert!(script.starts_with("// @ts-check"), "{module}");
        for import in script.split("from \"./").skip(1) {
            modules.push(import.split('"').next().unwrap().to_string());
        }
        served.insert(module, script);
    }
    assert!(served.len() >= 8, "{:?}", served.keys());
    assert!(served.values().any(|script| script.contains("data-square")));
    assert_eq!(server.get("style.css").0, 200);
    assert_eq!(server.get("icon.svg").0, 200);
    let (status, body) = server.json("nothing-here");
    assert_eq!(status, 404);
    assert!(body["error"].as_str().unwrap().contains("/nothing-here"));
    let (status, body) = server.post("api/state", "");
    assert_eq!(status, 405, "{body}");
}

#[test]
fn the_state_of_games_is_the_rules_own() {
    let server = WebServer::start(&[]);
    // Oware: the houses, stores and legal moves after a random game's moves, and its end.
    for (variant, seed) in [("abapa", 1), ("awari", 2), ("abapa", 3)] {
        let rules = variant.parse::<perfectplay::variant::Variant>().unwrap();
        let rules = rules.oware_rules().unwrap();
        let game = random_game::<Board>(rules, seed, 400);
        let (status, state) = server.json(&format!(
            "api/state?variant={variant}&moves={}",
            encode(&move_words(&game))
        ));
        assert_eq!(status, 200, "{state}");
        let board = game.position();
        let houses = board.houses();
        for (i, name) in "ABCDEFabcdef".chars().enumerate() {
            assert_eq!(
                state["board"]["houses"][name.to_string()],
                houses[i],
                "{name}"
            );
        }
        assert_eq!(state["position"], board.write_position());
        assert_eq!(state["ply"], game.ply());
        let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        let listed: Vec<&str> = state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["move"].as_str().unwrap())
            .collect();
        assert_eq!(listed, legal);
        match game.end() {
            Some(end) => {
                assert_eq!(state["end"]["result"], Board::result_text(&end));
                assert_eq!(state["end"]["reason"], Board::end_reason(&end));
            }
            None => assert_eq!(state["end"], Value::Null),
        }
    }
    // Dobutsu: pieces, hands, and a game to its end (a Lion captured or a Try).
    let game = random_game::<Position>(Default::default(), 7, 300);
    let end = game.end().expect("a random Dobutsu game ends");
    let (status, state) = server.json(&format!(
        "api/state?variant=dobutsu&moves={}",
        encode(&move_words(&game))
    ));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["end"]["reason"], Position::end_reason(&end));
    assert_eq!(
        state["end"]["winner"],
        Position::PLAYER_NAMES[end.winner.unwrap() as usize]
    );
    assert_eq!(state["legal"].as_array().unwrap().len(), 0);
    let (_, start) = server.json("api/state?variant=dobutsu");
    assert_eq!(start["board"]["squares"]["b1"]["kind"], "L");
    assert_eq!(start["board"]["squares"]["b1"]["owner"], "Sente");
    assert_eq!(start["board"]["squares"]["a4"]["kind"], "G");
    assert_eq!(start["board"]["squares"]["a4"]["owner"], "Gote");
    assert_eq!(start["to_move"], "Sente");
    // The chick takes the chick: Sente has one in hand, and may drop it.
    let (_, after) = server.json("api/state?variant=dobutsu&moves=b2b3+b4b3+b1b2");
    assert_eq!(after["board"]["hands"]["Gote"]["C"], 1);
    assert_eq!(after["board"]["hands"]["Sente"]["C"], 1);
    assert!(after["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["move"] == "C@a3"));
}

#[test]
fn bad_input_gets_a_4xx_json_error_and_the_server_lives_on() {
    let server = WebServer::start(&[]);
    let cases = [
        ("api/state?variant=chess", "'chess' is not a variant"),
        ("api/state?moves=Z", "'Z' is not a move"),
        ("api/state?moves=A+A", "move 2 of the list: illegal move A"),
        ("api/state?position=4-4-4", "position:"),
        (
            "api/state?variant=dobutsu&position=rnbqkbnr/8/8/8/8/8/8/8+w",
            "position:",
        ),
        ("api/probe?variant=dobutsu&moves=b2b5", "moves:"),
        (
            "api/bestmove?level=9",
            "level: '9' is not a number from 1 to 6",
        ),
        ("api/analysis?multipv=0", "multipv: '0'"),
        ("api/bestmove?movetime=abc", "movetime: 'abc'"),
        ("api/bestmove?infinite=true", "a best move needs a limit"),
    ];
    for (path, message) in cases {
        let (status, body) = server.json(path);
        assert_eq!(status, 400, "{path}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(message), "{path}: {error}");
    }
    // A move after the game's end is refused.
    let game = random_game::<Position>(Default::default(), 7, 300);
    let mut words = move_words(&game);
    words.push("b1b2".into());
    let (status, body) = server.json(&format!(
        "api/state?variant=dobutsu&moves={}",
        encode(&words)
    ));
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("game is over"),
        "{body}"
    );
    let (status, body) = server.post(
        "api/import?variant=abapa",
        "[Variant \"Oware Abapa\"]\n\n1. Z *\n",
    );
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.post("api/import?variant=dobutsu", "");
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("no game"),
        "{body}"
    );
    // A start the record names but that cannot be read (hands without brackets) is refused,
    // not replaced by the start position.
    let (status, body) = server.post(
        "api/import?variant=dobutsu",
        "[Variant \"dobutsu\"]\n[SetUp \"1\"]\n[FEN \"1le/g2/1G1/EL1 w - - 2 4\"]\n\n1. C@a2 *\n",
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("record: game 1: [FEN \"1le/g2/1G1/EL1 w - - 2 4\"]: "),
        "{body}"
    );
    // A byte-order mark (Windows Notepad's files begin with one) is not a move.
    let (status, body) = server.post(
        "api/import?variant=abapa",
        "\u{feff}[Variant \"Oware Abapa\"]\n\n1. A a *\n",
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["records"][0]["moves"], serde_json::json!(["A", "a"]));
    let (status, _) = server.json("api/info");
    assert_eq!(status, 200);
}

/// The web board without `--no-solve` builds Oware's tablebase in its data directory in the
/// background, as the protocol's `AutoSolve` does (here to 14 seeds, `TablebaseBuildSeeds`):
/// the first look at an awari position starts the build and says so, a 14-seed position has no
/// value meanwhile (the 12-seed table built in memory does not reach it), and its exact value
/// (2 for South, stores 17 and 17) once the layers are written.
#[test]
fn the_server_builds_the_oware_tablebase_in_the_background() {
    let data = crate::common::fresh_dir("serve_oware_autobuild");
    let server = WebServer::start_with_data(
        &["--option", "TablebaseBuildSeeds=14"],
        data.to_str().unwrap(),
    );
    let probe = "api/probe?variant=awari&position=1-2-1-1-1-3-1-0-1-2-0-1-17-17-S";
    let (status, first) = server.json(probe);
    assert_eq!(status, 200, "{first}");
    let note = first["tables"].as_str().unwrap_or_default();
    assert!(
        note.starts_with("building the awari tablebase up to 14 seeds"),
        "{first}"
    );
    assert!(first["value"].is_null(), "{first}");
    let deadline = Instant::now() + Duration::from_secs(300);
    let written = loop {
        let (_, p) = server.json(probe);
        if !p["value"].is_null() {
            break p;
        }
        assert!(Instant::now() < deadline, "{p}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(written["value"]["score"], 2, "{written}");
    assert!(written["tables"].is_null(), "{written}");
    let layer = data.join("perfectplay/oware/oware-awari-14.tb");
    assert!(layer.exists());
    drop(server);
    std::fs::remove_dir_all(&data).unwrap();
}

/// Oware's distances, as `tablebase probe` gives them: the plies to the end where the table
/// knows them and the side ahead on the board is the one the stores make the winner (South is
/// behind by three in the stores and by one on the board: a loss by 4 seeds in 30 plies).
#[test]
fn oware_values_give_the_tables_distances() {
    let server = WebServer::start(&[]);
    let diagram = "0-0-0-0-2-1-1-0-0-0-0-1-20-23-S";
    let board = diagram
        .parse::<Board>()
        .unwrap()
        .with_variant(RuleSet::Awari);
    let tb = Tablebase::build(RuleSet::Awari, 5, &Silent);
    let (status, probe) = server.json(&format!("api/probe?variant=awari&position={diagram}"));
    assert_eq!(status, 200, "{probe}");
    assert_eq!(probe["value"]["plies"], 30, "{probe}");
    assert_eq!(probe["value"]["text"], "loss by 4 seeds in 30 plies");
    let plies = |board: &Board, stores: i64| -> Option<u64> {
        let v = i64::from(tb.probe(board)?.exact()?);
        let agrees = v != 0 && v.signum() == (stores + v).signum();
        agrees.then(|| tb.distance(board).map(u64::from)).flatten()
    };
    assert_eq!(plies(&board, -3), Some(30));
    let mut with_plies = 0;
    for mv in board.legal_move_list().iter() {
        let (child, captured) = board.sow_and_capture(*mv);
        let row = probe["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == mv.to_string())
            .unwrap();
        // The child's stores, from its mover (North): 23 against 20 plus the capture.
        let want = plies(&child, 23 - 20 - i64::from(captured)).map(|d| d + 1);
        assert_eq!(row["value"]["plies"].as_u64(), want, "{mv}: {row}");
        if let Some(d) = want {
            with_plies += 1;
            assert!(row["value"]["text"]
                .as_str()
                .unwrap()
                .ends_with(&format!(" in {d} plies")));
        }
    }
    // E and F, as `tablebase probe` lists them.
    assert_eq!(with_plies, 2, "{probe}");
}

/// An awari position of 10 seeds: the values of the position and of its moves are the table's
/// (plus the stores' difference, 2), best first; a move that gives up margin is marked by the
/// review with what it cost.
#[test]
fn probe_and_review_give_the_tables_values() {
    let server = WebServer::start(&[]);
    let diagram = "2-0-1-0-3-0-0-1-0-2-1-0-20-18-S";
    let board = diagram
        .parse::<Board>()
        .unwrap()
        .with_variant(RuleSet::Awari);
    let tb = Tablebase::build(RuleSet::Awari, 10, &Silent);
    let (status, probe) = server.json(&format!("api/probe?variant=awari&position={diagram}"));
    assert_eq!(status, 200, "{probe}");
    let value = tb.probe(&board).unwrap().exact().unwrap() as i64;
    assert_eq!(probe["value"]["score"], 2 + value, "{probe}");
    let mut expected: Vec<(String, i64)> = tb
        .move_values(&board)
        .unwrap()
        .iter()
        .map(|(m, v)| (m.to_string(), 2 + v.exact().unwrap() as i64))
        .collect();
    expected.sort_by_key(|(_, v)| -v);
    let listed: Vec<(String, i64)> = probe["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["value"]["score"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(probe["value"]["score"], listed[0].1);
    let (best, worst) = (&listed[0], listed.last().unwrap());
    assert!(best.1 > worst.1, "{listed:?}");
    let (status, review) = server.json(&format!(
        "api/review?variant=awari&position={diagram}&moves={}",
        worst.0
    ));
    assert_eq!(status, 200, "{review}");
    let ply = &review["moves"][0];
    assert_eq!(ply["before"]["score"], best.1);
    assert_eq!(ply["after"]["score"], worst.1);
    assert_eq!(
        ply["cost"],
        format!("lost {} seeds of margin", best.1 - worst.1)
    );
    // The seeds lost as a number, for the page's summary.
    assert_eq!(ply["seeds_lost"], best.1 - worst.1);
    let (_, review) = server.json(&format!(
        "api/review?variant=awari&position={diagram}&moves={}",
        best.0
    ));
    assert_eq!(review["moves"][0]["cost"], Value::Null);
    assert_eq!(review["moves"][0]["seeds_lost"], Value::Null);
    // Without tables, a Dobutsu position knows only its forced ends.
    let (_, probe) = server.json("api/probe?variant=dobutsu&moves=b2b3");
    assert_eq!(probe["value"], Value::Null);
    let a4a3 = probe["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "a4a3")
        .unwrap();
    // Gote's giraffe steps off a4, and the Sente chick on b3 takes the Lion: lost in 2 plies.
    assert_eq!(a4a3["value"]["result"], "loss");
    assert_eq!(a4a3["value"]["plies"], 2);
}

#[test]
fn records_export_and_import_in_the_runners_formats() {
    let server = WebServer::start(&[]);
    let game = random_game::<Board>(Default::default(), 11, 40);
    let words = move_words(&game);
    let (status, ogn) = server.get(&format!(
        "api/record?variant=abapa&moves={}&first=Ann&second=Bob",
        encode(&words)
    ));
    assert_eq!(status, 200);
    assert!(ogn.starts_with("[Variant \"Oware Abapa\"]"), "{ogn}");
    assert!(
        ogn.contains("[South \"Ann\"]") && ogn.contains("[North \"Bob\"]"),
        "{ogn}"
    );
    // The match runner's own reader reads it back to the same moves.
    let parsed = perfectplay::records::ogn::parse(&ogn).unwrap();
    let read: Vec<String> = parsed[0].moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(read, words);
    let (status, imported) = server.post("api/import?variant=abapa", &ogn);
    assert_eq!(status, 200, "{imported}");
    let record = &imported["records"][0];
    assert_eq!(record["variant"], "abapa");
    assert_eq!(record["position"], Value::Null);
    let moves: Vec<String> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves, words);
    assert_eq!(record["tags"]["South"], "Ann");
    // Dobutsu from a set-up position, to its end: the PGN keeps the FEN and the result.
    let fen = "g1e/1l1/1c1/ELG[C] w 0 1";
    let start: Position = Position::parse_position(fen, &Default::default()).unwrap();
    let game = play_out(GameState::new(start, Default::default()), 5, usize::MAX);
    let words = move_words(&game);
    let (status, pgn) = server.get(&format!(
        "api/record?variant=dobutsu&position={}&moves={}",
        fen.replace(' ', "+")
            .replace('[', "%5B")
            .replace(']', "%5D"),
        encode(&words)
    ));
    assert_eq!(status, 200, "{pgn}");
    let end = game.end().unwrap();
    assert!(
        pgn.contains(&format!("[Result \"{}\"]", end.result_string())),
        "{pgn}"
    );
    let (status, imported) = server.post("api/import?variant=dobutsu", &pgn);
    assert_eq!(status, 200, "{imported}");
    let record = &imported["records"][0];
    let (back, _) = Position::parse_position_with_counters(
        record["position"].as_str().unwrap(),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(back, start);
    assert_eq!(record["moves"].as_array().unwrap().len(), words.len());
    assert_eq!(record["end"]["reason"], Position::end_reason(&end));
}

/// The lines of each depth, best first, up to the depth asked for, and then the best move,
/// which is the first line's first move.
#[test]
fn analysis_streams_every_line_of_every_depth_then_the_best_move() {
    let server = WebServer::start(&[]);
    for variant in ["abapa", "dobutsu"] {
        let events = server.events(
            &format!("api/analysis?variant={variant}&depth=6&multipv=3"),
            |_, _| false,
        );
        let (last, infos) = events.split_last().unwrap();
        assert_eq!(last.0, "bestmove", "{events:?}");
        let lines: Vec<&Value> = infos
            .iter()
            .filter(|(n, _)| n == "info")
            .map(|(_, v)| v)
            .collect();
        for depth in 1..=6u64 {
            let ranks: Vec<u64> = lines
                .iter()
                .filter(|l| l["depth"] == depth)
                .map(|l| l["multipv"].as_u64().unwrap())
                .collect();
            assert_eq!(ranks, [1, 2, 3], "{variant} depth {depth}: {lines:?}");
        }
        let top = lines.iter().rfind(|l| l["multipv"] == 1).unwrap();
        assert_eq!(last.1["move"], top["pv"][0], "{variant}");
        assert_eq!(last.1["depth"], 6);
        let wdl: u64 = top["wdl"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(wdl, 1000);
    }
    let (status, best) = server.json("api/bestmove?variant=dobutsu&depth=4&level=3");
    assert_eq!(status, 200, "{best}");
    let (_, state) = server.json("api/state?variant=dobutsu");
    assert!(state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["move"] == best["move"]));
}

/// Searches run now, as `/api/info` counts them, once it falls to `want` (within 10 s).
fn wait_for_searches(server: &WebServer, want: u64) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, info) = server.json("api/info");
        let n = info["searches"].as_u64().unwrap();
        if n == want || Instant::now() > deadline {
            return n;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_search_stops_when_its_page_goes_away_or_starts_another() {
    let server = WebServer::start(&[]);
    // An endless analysis, left once a tick between two lines has counted nodes past the
    // last line's.
    let mut last_line = 0;
    let events = server.events("api/analysis?variant=abapa&page=p1", |name, v| {
        let nodes = v["nodes"].as_u64().unwrap_or(0);
        match name {
            "info" => {
                last_line = nodes;
                false
            }
            "tick" => last_line > 0 && nodes > last_line,
            _ => false,
        }
    });
    let (name, tick) = events.last().unwrap();
    assert_eq!(name, "tick", "{events:?}");
    assert!(tick["nps"].as_u64().unwrap() > 0, "{tick}");
    assert_eq!(wait_for_searches(&server, 0), 0);
    // A page's second search stops its first, which ends with its best move.
    let first = server.get_in_background("api/analysis?variant=dobutsu&page=p2");
    assert_eq!(wait_for_searches(&server, 1), 1);
    let second = server.events("api/analysis?variant=dobutsu&page=p2&depth=3", |_, _| false);
    assert_eq!(second.last().unwrap().0, "bestmove");
    assert!(
        first.join().unwrap().contains("event: bestmove"),
        "the first search ended with its best move"
    );
    assert_eq!(wait_for_searches(&server, 0), 0);
}

/// Romein and Bal's published Awari position (houses 1 1 1 1 1 2 / 4 2 3 0 0 0, South to move,
/// stores even): worth 0, the moves A to F worth -1, -1, -2, -2, -2 and 0.
#[test]
#[ignore = "builds the 16-seed awari table"]
fn the_published_awari_position_through_the_api() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-awari-16");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args([
            "tablebase",
            "build",
            "--variant",
            "awari",
            "--seeds",
            "16",
            "--dir",
        ])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let option = format!("TablebasePath={}", dir.display());
    let server = WebServer::start(&["--option", &option]);
    let (status, probe) =
        server.json("api/probe?variant=awari&position=1-1-1-1-1-2-4-2-3-0-0-0-16-16-S");
    assert_eq!(status, 200, "{probe}");
    assert_eq!(probe["value"]["score"], 0, "{probe}");
    let value_of = |mv: &str| {
        probe["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == mv)
            .unwrap()["value"]["score"]
            .as_i64()
            .unwrap()
    };
    let values: Vec<i64> = ["A", "B", "C", "D", "E", "F"]
        .iter()
        .map(|m| value_of(m))
        .collect();
    assert_eq!(values, [-1, -1, -2, -2, -2, 0]);
    assert_eq!(probe["moves"][0]["move"], "F");
}

/// With the solution, the Dobutsu start is lost in 78 plies, every move of it too, and the
/// review of the solution's own game finds nothing thrown away.
#[test]
#[ignore = "solves Dobutsu Shogi (about a minute and 300 MiB)"]
fn the_dobutsu_start_is_lost_in_78_plies_through_the_api() {
    let file = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-dobutsu.solution");
    if !file.exists() {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(["solve", "dobutsu", "--out"])
            .arg(&file)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    }
    let option = format!("SolutionPath={}", file.display());
    let server = WebServer::start(&["--option", &option]);
    let (status, probe) = server.json("api/probe?variant=dobutsu");
    assert_eq!(status, 200, "{probe}");
    assert_eq!(probe["value"]["result"], "loss", "{probe}");
    assert_eq!(probe["value"]["plies"], 78);
    // What was loaded is said by /api/info, not on every position.
    assert_eq!(probe["tables"], Value::Null, "{probe}");
    let (_, info) = server.json("api/info");
    assert!(
        info["variants"][2]["note"]
            .as_str()
            .unwrap()
            .starts_with("loaded the solution "),
        "{info}"
    );
    let moves = probe["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| m["value"]["result"] == "loss"));
    assert_eq!(moves[0]["value"]["plies"], 78);
    // The engine at level 6 plays the solution's moves: a game of its own moves to the end
    // keeps the value, ply by ply.
    let mut words: Vec<String> = Vec::new();
    for _ in 0..12 {
        let (_, best) = server.json(&format!(
            "api/bestmove?variant=dobutsu&movetime=50&moves={}",
            encode(&words)
        ));
        words.push(best["move"].as_str().unwrap().to_string());
    }
    let (_, review) = server.json(&format!(
        "api/review?variant=dobutsu&moves={}",
        encode(&words)
    ));
    for (i, ply) in review["moves"].as_array().unwrap().iter().enumerate() {
        assert_eq!(ply["cost"], Value::Null, "ply {}: {ply}", i + 1);
        let before = ply["before"]["plies"].as_u64().unwrap();
        assert_eq!(before, 78 - i as u64, "ply {}", i + 1);
    }
    // With both games' tables loaded (Oware's 12-seed table is built in memory at its first
    // probe), 60 analysis streams and 40 best moves at once keep the server under 1 GiB.
    assert_eq!(server.json("api/probe?variant=abapa").0, 200);
    let addr = server.addr();
    let clients: Vec<_> = (0..100)
        .map(|i| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let path = match i % 5 {
                    0 | 1 => format!("/api/analysis?variant=dobutsu&page=d{i}"),
                    2 => format!("/api/analysis?variant=abapa&page=a{i}"),
                    _ => "/api/bestmove?variant=abapa&level=1".to_string(),
                };
                let mut stream = std::net::TcpStream::connect(&addr).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(30)))
                    .unwrap();
                let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
                std::io::Write::write_all(&mut stream, request.as_bytes()).unwrap();
                let mut head = [0u8; 12];
                std::io::Read::read_exact(&mut stream, &mut head).unwrap();
                std::thread::sleep(Duration::from_secs(2));
                String::from_utf8_lossy(&head).into_owned()
            })
        })
        .collect();
    for client in clients {
        let head = client.join().unwrap();
        assert!(head == "HTTP/1.1 200" || head == "HTTP/1.1 503", "{head}");
    }
    let (_, peak) = server.memory_kib();
    assert!(peak < 1 << 20, "peak {peak} KiB");
}

/// HTTP's methods: `HEAD` as `GET` without the body, 405 with `Allow` for a method an endpoint
/// does not answer, 404 for no endpoint; a body of 1 MiB is read, one not UTF-8 gets 400; a
/// request line that is not UTF-8 gets 400.
#[test]
fn methods_and_bodies_get_http_answers() {
    let server = WebServer::start(&[]);
    for path in ["", "app.js", "api/state?variant=dobutsu", "api/info"] {
        let (status, _, body) = server.request("HEAD", path, b"");
        assert_eq!((status, body.as_str()), (200, ""), "HEAD {path}");
    }
    let cases = [
        ("GET", "api/import", 405, Some("POST")),
        ("POST", "api/state", 405, Some("GET, HEAD")),
        ("PUT", "api/record", 405, Some("GET, HEAD, POST")),
        ("HEAD", "api/analysis", 405, Some("GET")),
        ("DELETE", "", 405, Some("GET, HEAD")),
        ("GET", "api/nothing", 404, None),
        ("POST", "api/nothing", 404, None),
    ];
    for (method, path, want, allow) in cases {
        let (status, got_allow, body) = server.request(method, path, b"");
        assert_eq!(status, want, "{method} {path}: {body}");
        assert_eq!(got_allow.as_deref(), allow, "{method} {path}");
        if method != "HEAD" {
            let error: Value = serde_json::from_str(&body).unwrap();
            let text = error["error"].as_str().unwrap();
            assert!(
                text.contains(if want == 405 { method } else { "no " }),
                "{text}"
            );
        }
    }
    // A record of 1 MiB is read (one byte more is refused unread: tests/serve/hostile.rs).
    let mut big = b"[Variant \"Oware Abapa\"]\n\n1. A a ".to_vec();
    big.resize(1 << 20, b' ');
    let (status, _, body) = server.request("POST", "api/import?variant=abapa", &big);
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = server.request("POST", "api/import?variant=abapa", b"\xff\xfe");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("not UTF-8"), "{body}");
    // A raw request line that is not UTF-8 (no client sends one: they percent-encode).
    let reply = server.raw(
        b"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
        Duration::from_secs(10),
    );
    assert_eq!(reply.status, 400, "{reply:?}");
    assert_eq!(server.json("api/info").0, 200);
}

/// `/api/bestmove` thinks at most the server's `--max-movetime`: a depth it cannot reach in
/// that time is cut there with the move found so far, a longer movetime is refused, and
/// `/api/info` counts the search while it runs.
#[test]
fn bestmove_is_capped_and_counted() {
    let server = WebServer::start(&["--max-movetime", "1500"]);
    let (status, body) = server.json("api/bestmove?variant=abapa&movetime=1501");
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("at most 1500 ms"),
        "{body}"
    );
    let started = Instant::now();
    let search = server.get_in_background("api/bestmove?variant=abapa&depth=100");
    assert_eq!(wait_for_searches(&server, 1), 1);
    let best: Value = serde_json::from_str(&search.join().unwrap()).unwrap();
    assert!(started.elapsed() < Duration::from_secs(50), "{best}");
    assert!(best["depth"].as_u64().unwrap() < 100, "{best}");
    assert!("ABCDEF".contains(best["move"].as_str().unwrap()), "{best}");
    assert_eq!(wait_for_searches(&server, 0), 0);
}

/// A search on a game clock (`wtime`, `btime`, `winc`, `binc`, as the protocol's `go`) takes the
/// side to move's share of its time: with 300 ms left and the page's 100 ms kept back, a few
/// iterations, not the 1 s a plain request thinks; a clock that is not a number, or an
/// increment without a clock, is refused.
#[test]
fn bestmove_on_a_game_clock() {
    let server = WebServer::start(&[]);
    for bad in ["wtime=soon", "winc=100", "btime=-5", "wtime=1000&binc=x"] {
        let (status, body) = server.json(&format!("api/bestmove?variant=abapa&{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
    }
    // North to move after A: its clock (btime) is the one the search reads.
    let (status, on_clock) =
        server.json("api/bestmove?variant=abapa&moves=A&wtime=3600000&btime=300&winc=0&binc=0");
    assert_eq!(status, 200, "{on_clock}");
    assert!(
        "abcdef".contains(on_clock["move"].as_str().unwrap()),
        "{on_clock}"
    );
    let (_, plain) = server.json("api/bestmove?variant=abapa&moves=A");
    assert!(
        on_clock["nodes"].as_u64().unwrap() < plain["nodes"].as_u64().unwrap(),
        "{on_clock} {plain}"
    );
}

/// Dobutsu's FEN counters count on in every position the API writes: after each legal move
/// (the halfmove clock back to 0 after a capture, the move number up after Gote's move), at the
/// most a counter holds, and in a record's move numbers.
#[test]
fn dobutsu_counters_count_on() {
    let server = WebServer::start(&[]);
    let legal = |position: &str, moves: &str| -> Vec<(String, String)> {
        let (status, state) = server.json(&format!(
            "api/state?variant=dobutsu&position={}&moves={moves}",
            position
                .replace(' ', "+")
                .replace('[', "%5B")
                .replace(']', "%5D")
        ));
        assert_eq!(status, 200, "{state}");
        state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                let words: Vec<&str> = l["position"].as_str().unwrap().split(' ').collect();
                (
                    l["move"].as_str().unwrap().to_string(),
                    words[4..].join(" "),
                )
            })
            .collect()
    };
    let gote = legal("gle/1c1/1C1/ELG[] b - - 3 7", "");
    assert!(gote.contains(&("b3b2".into(), "0 8".into())), "{gote:?}");
    assert!(gote.contains(&("a4a3".into(), "4 8".into())), "{gote:?}");
    let sente = legal("gle/1c1/1C1/ELG[] w - - 3 7", "b1a2");
    assert!(sente.contains(&("b3b2".into(), "0 8".into())), "{sente:?}");
    let most = legal("gle/1c1/1C1/ELG[] b - - 4294967295 4294967295", "");
    assert!(
        most.contains(&("a4a3".into(), "4294967295 4294967295".into())),
        "{most:?}"
    );
    let (_, probe) =
        server.json("api/probe?variant=dobutsu&position=gle/1c1/1C1/ELG%5B%5D+b+-+-+3+7");
    let moves = probe["moves"].as_array().unwrap();
    assert!(moves
        .iter()
        .any(|m| m["move"] == "b3b2" && m["position"].as_str().unwrap().ends_with(" w - - 0 8")));
    let (status, pgn) = server.get(
        "api/record?variant=dobutsu&position=gle/1c1/1C1/ELG%5B%5D+b+-+-+3+7&moves=b3b2+b1b2+c4b3",
    );
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("7... b3b2 8. b1b2 c4b3"), "{pgn}");
}

/// The hands of a Dobutsu game's end: the captor holds the enemy Lion (`L` 1); when no Lion was
/// captured (a Try, a repetition) no one does.
#[test]
fn a_captured_lion_is_in_its_captors_hand() {
    use perfectplay::dobutsu::{Kind, Player};
    let server = WebServer::start(&[]);
    let mut seen = [false; 2];
    for seed in 1..40 {
        let game = random_game::<Position>(Default::default(), seed, 300);
        let Some(end) = game.end() else { continue };
        let (_, state) = server.json(&format!(
            "api/state?variant=dobutsu&moves={}",
            encode(&move_words(&game))
        ));
        let pos = game.position();
        for player in [Player::Sente, Player::Gote] {
            let name = Position::PLAYER_NAMES[player as usize];
            let held = pos.in_hand(player, Kind::Lion);
            assert_eq!(state["board"]["hands"][name]["L"], held, "seed {seed}");
            if held == 1 {
                assert_eq!(end.winner, Some(player), "seed {seed}");
            }
        }
        let captured = pos.lion(Player::Sente).is_none() || pos.lion(Player::Gote).is_none();
        seen[usize::from(captured)] = true;
    }
    assert_eq!(seen, [true, true], "games ending by a Try and by a capture");
}

/// An Oware end where each side takes the seeds of its own row: the result counts them, and the
/// end gives the board after that counting (houses empty, the stores the result's), so that the
/// page shows what the result says. South sows F into North's a (4 seeds, no capture); North
/// then cannot feed South's empty row: South keeps 20, North 18 + 10 = 28.
#[test]
fn an_end_by_own_rows_gives_the_counted_board() {
    let server = WebServer::start(&[]);
    let (status, state) =
        server.json("api/state?variant=abapa&position=0-0-0-0-0-1-3-2-2-2-0-0-20-18-S&moves=F");
    assert_eq!(status, 200, "{state}");
    let end = &state["end"];
    assert_eq!(end["result"], "20-28", "{state}");
    assert_eq!(end["winner"], "North");
    // The board as played: North's seeds still in its row, the stores as they were.
    assert_eq!(state["board"]["stores"]["North"], 18);
    assert_eq!(state["board"]["houses"]["a"], 4);
    let counted = &end["counted"];
    assert_eq!(counted["stores"]["South"], 20, "{end}");
    assert_eq!(counted["stores"]["North"], 28, "{end}");
    let houses = counted["houses"].as_object().unwrap();
    assert_eq!(houses.len(), 12);
    assert!(houses.values().all(|n| n == 0), "{counted}");
    // An end by captures past half the seeds leaves the board as it is: nothing to count.
    let (_, won) = server.json("api/state?variant=abapa&position=0-0-0-0-0-1-0-0-0-0-0-0-22-25-S");
    assert_eq!(won["end"]["result"], "22-25", "{won}");
    assert_eq!(won["end"]["counted"], Value::Null, "{won}");
    // Dobutsu's ends have no counting.
    let (_, lion) = server.json("api/state?variant=dobutsu&moves=b2b3+a4a3+b3b4%2B");
    assert!(!lion["end"].is_null(), "{lion}");
    assert_eq!(lion["end"]["counted"], Value::Null, "{lion}");
}

/// Level 6 is labelled by what it plays by now: Dobutsu without its solution plays by search
/// (not "perfect"), Oware by search with its endgame tables; a build running is said, and
/// starts only when its game is used.
#[test]
fn info_says_what_level_6_plays_by() {
    let server = WebServer::start(&[]);
    let (_, info) = server.json("api/info");
    let level6 = |info: &Value, name: &str| -> String {
        info["variants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .unwrap()["level6"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(level6(&info, "dobutsu"), "search");
    assert_eq!(level6(&info, "abapa"), "search with endgame tables");
    drop(server);
    // A data directory without the solution nor Oware's 13-seed layers: /api/info starts no
    // build; the first look at a Dobutsu position starts the solution's, and is said, and
    // Oware's waits for a look at an Oware position.
    let data = crate::common::fresh_dir("serve_level6_building");
    let server = WebServer::start_with_data(
        &["--option", "TablebaseBuildSeeds=13"],
        data.to_str().unwrap(),
    );
    // The words of each variant's level 6, Dobutsu's first.
    let words = |info: &Value| ["dobutsu", "abapa", "awari"].map(|v| level6(info, v));
    let oware = "search with endgame tables";
    let (_, info) = server.json("api/info");
    assert_eq!(words(&info), ["search", oware, oware], "{info}");
    let (status, _) = server.json("api/state?variant=dobutsu");
    assert_eq!(status, 200);
    let (_, info) = server.json("api/info");
    assert_eq!(
        words(&info),
        ["search; solution building", oware, oware],
        "{info}"
    );
    assert!(!data.join("perfectplay/oware").exists());
    drop(server);
    std::fs::remove_dir_all(&data).unwrap();
}

/// A record of a game the players ended (a resignation, a loss on time, a draw agreed) says so:
/// its result and `Termination`; it reads back; a winner or a way that is not one is refused.
#[test]
fn records_of_games_the_players_ended() {
    let server = WebServer::start(&[]);
    let (status, record) =
        server.get("api/record?variant=abapa&moves=C+f&winner=North&how=resigned");
    assert_eq!(status, 200, "{record}");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(
        record.contains("[Termination \"forfeit: South resigned\"]"),
        "{record}"
    );
    let (status, back) = server.post("api/import?variant=abapa", &record);
    assert_eq!(status, 200, "{back}");
    assert_eq!(back["records"][0]["moves"], serde_json::json!(["C", "f"]));
    assert_eq!(back["records"][0]["tags"]["Result"], "0-1");
    let (_, record) = server.get("api/record?variant=dobutsu&moves=b2b3&winner=Gote&how=on+time");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(
        record.contains("[Termination \"forfeit: Sente lost on time\"]"),
        "{record}"
    );
    let (_, record) =
        server.get("api/record?variant=dobutsu&moves=b2b3&winner=none&how=by+agreement");
    assert!(record.contains("[Result \"1/2-1/2\"]"), "{record}");
    assert!(
        record.contains("[Termination \"agreed: draw by agreement\"]"),
        "{record}"
    );
    // A game the rules ended keeps the rules' result.
    let (_, record) = server.get(
        "api/record?variant=abapa&position=0-0-0-0-0-1-3-2-2-2-0-0-20-18-S&moves=F&winner=South&how=resigned",
    );
    assert!(record.contains("[Result \"20-28\"]"), "{record}");
    for bad in [
        "winner=West&how=resigned",
        "winner=North&how=fainted",
        "winner=none&how=resigned",
        "winner=North",
    ] {
        let (status, body) = server.get(&format!("api/record?variant=abapa&moves=C&{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
    }
}

/// The records the board writes of games the players ended (a resignation, a loss on time, a
/// draw agreed), in both formats, replay with `perfectplay match --replay`, counted by kind
/// apart from a game a match wrote where an engine lost by a fault (an illegal move).
#[test]
fn records_the_players_ended_replay_apart_from_faults() {
    let server = WebServer::start(&[]);
    let dir = crate::common::fresh_dir("serve_players_end_replay");
    for (variant, game, moves, file) in [
        ("abapa", "oware", "C+f+D", "ended.ogn"),
        ("dobutsu", "dobutsu", "b2b3+b4b3", "ended.pgn"),
    ] {
        let mut text = String::new();
        for end in [
            "winner=South&how=resigned",
            "winner=North&how=on+time",
            "winner=none&how=by+agreement",
        ] {
            let end = if variant == "dobutsu" {
                end.replace("South", "Sente").replace("North", "Gote")
            } else {
                end.to_string()
            };
            let (status, record) =
                server.get(&format!("api/record?variant={variant}&moves={moves}&{end}"));
            assert_eq!(status, 200, "{record}");
            text.push_str(&record);
            text.push('\n');
        }
        // A match whose first engine plays an illegal move at its second turn: a real fault.
        let fault = dir.join(format!("fault-{file}"));
        let mut args = vec![
            "match".to_string(),
            "--engine".into(),
            crate::fake_engine::command(game, "illegal:2"),
            "--engine".into(),
            crate::fake_engine::command(game, "first"),
            "--games".into(),
            "1".into(),
            "--ogn".into(),
            fault.to_str().unwrap().into(),
            "--quiet".into(),
        ];
        if variant == "dobutsu" {
            args.extend(["--variant".into(), "dobutsu".into()]);
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let written = std::fs::read_to_string(&fault).unwrap();
        assert!(written.contains("forfeit: illegal move by "), "{written}");
        text.push_str(&written);
        let path = dir.join(file);
        std::fs::write(&path, &text).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(["match", "--replay", path.to_str().unwrap()])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{file}: {stdout}{stderr}\n{text}");
        assert!(
            stdout.starts_with(
                "Replayed 4 games: 0 ended by the rules, 1 by a fault, 3 ended by the players \
                 (1 resigned, 1 lost on time, 1 agreed drawn), 0 unfinished;"
            ),
            "{file}: {stdout}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
