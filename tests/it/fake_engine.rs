//! The fake engines the match runner's tests play against: this test binary re-run as an engine.
//!
//! Run as `<test binary> fake_engine::GAME --exact --ignored --nocapture fake-mode=MODE` (see
//! [`command`]), the ignored test `oware` or `dobutsu` speaks the protocol on stdin/stdout
//! (libtest's own lines before `uciok` and after `quit` are ignored by the runner, as unknown lines
//! are).
//!
//! `oware`: MODE is `random` (a legal move picked by a hash of the Seed option and the ply),
//! `first` (the first legal move), or `KIND:K`, which plays random legal moves and does KIND at its
//! K-th `go` of the process: `crash` (exit status 3), `illegal` (a house of the opponent's row),
//! `silent` (never answers, ignores even `quit`), `garbage` (junk lines and a `bestmove` without a
//! move), `nomove` (`bestmove 0000` although it has legal moves). Two more modes play random moves
//! too: `slowstart:MS` waits MS milliseconds before `uciok` (a JVM starting), `strict` reads
//! `position` as Aalina does, the moves run together in one word (`moves FfBe`), and exits with
//! status 4 on moves separated by blanks. The game is chosen with the option `Variant` (`abapa` or
//! `awari`); `ucivariant` lists `UCI_Variant` instead, `bothvariants` lists both and exits with
//! status 7 when told `Variant`, `novariant` lists neither; `resetonuci` lists `UCI_Variant`,
//! forgets it at each `uci` (as Fairy-Stockfish does) and exits with status 8 at a `position` not
//! told it since; `refuserules` also lists `Repetitions` and refuses any value but 3. `clock:MS`
//! needs a game clock (`go wtime ...` when South moves, `go btime ...` when North does, else exit
//! status 5) and sleeps MS milliseconds before each move; `nodes` needs `go nodes N` (else exit
//! status 6).
//!
//! `dobutsu`: MODE `first` plays the first legal move, `illegal:K` plays the first legal move
//! except at its K-th `go`, where it answers a well-formed move that is not legal. It reads
//! `position` with the moves separated by blanks (as UCI engines do) and exits with status 5 if it
//! was not told `Variant dobutsu` before its first `position`, or was sent Oware's
//! `NoCaptureLimit`.

use std::io::{BufRead, Write};
use std::time::Duration;

use perfectplay::dobutsu::Position;
use perfectplay::game::{GameState, Notation};
use perfectplay::oware::{parse_moves, Board, Rules, Side};

/// The command line that runs the fake engine of `game` (`oware` or `dobutsu`) in `mode`.
pub fn command(game: &str, mode: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    format!(
        "'{}' fake_engine::{game} --exact --ignored --nocapture --quiet fake-mode={mode}",
        exe.display()
    )
}

#[test]
#[ignore = "not a test: the fake engine run by the other tests"]
fn oware() {
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
    let mut told_variant = false;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                // As Fairy-Stockfish does: `uci` sets the variant back to the default.
                if kind == "resetonuci" {
                    rules.variant = Default::default();
                    told_variant = false;
                }
                if kind == "slowstart" {
                    std::thread::sleep(Duration::from_millis(u64::from(fault_at)));
                }
                say(&format!("id name fake-{kind}"));
                let variant = "type combo default abapa var abapa var awari";
                match kind.as_str() {
                    "novariant" => {}
                    "ucivariant" | "resetonuci" => {
                        say(&format!("option name UCI_Variant {variant}"))
                    }
                    "bothvariants" => {
                        say(&format!("option name Variant {variant}"));
                        say(&format!("option name UCI_Variant {variant}"));
                    }
                    _ => say(&format!("option name Variant {variant}")),
                }
                if kind == "refuserules" {
                    say("option name Repetitions type spin default 3 min 3 max 9");
                }
                say("option name Seed type string default 1");
                say("uciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") if words.len() >= 5 => match words[2] {
                "Variant" if kind == "bothvariants" => {
                    eprintln!("fake engine: told Variant, though it lists UCI_Variant");
                    std::process::exit(7);
                }
                "Variant" | "UCI_Variant" => {
                    rules.variant = words[4].parse().unwrap();
                    told_variant = true;
                }
                "Repetitions" if words[4] != "3" => say("info string error: Repetitions below 3"),
                "Seed" => {
                    seed = words[4]
                        .bytes()
                        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
                }
                _ => {}
            },
            Some("position") => {
                if kind == "resetonuci" && !told_variant {
                    eprintln!("fake engine: a position without the variant since the last uci");
                    std::process::exit(8);
                }
                let (board, rest) = if words.get(1) == Some(&"fen") {
                    (words[2].parse::<Board>().unwrap(), &words[3..])
                } else {
                    (Board::start(rules.variant), &words[2..])
                };
                let moves: Vec<&str> = rest.iter().copied().filter(|w| *w != "moves").collect();
                if kind == "strict" && moves.len() > 1 {
                    eprintln!("fake engine: moves must be run together: {line}");
                    std::process::exit(4);
                }
                let moves = parse_moves(moves).unwrap();
                game = GameState::new(board.with_variant(rules.variant), rules);
                game.play_all(&moves).unwrap();
            }
            Some("go") => {
                gos += 1;
                if kind == "clock" {
                    let own = if game.board().side_to_move() == Side::South {
                        "wtime"
                    } else {
                        "btime"
                    };
                    if !words.contains(&own) {
                        eprintln!("fake engine: no clock in '{line}'");
                        std::process::exit(5);
                    }
                    std::thread::sleep(Duration::from_millis(u64::from(fault_at)));
                }
                if kind == "nodes" && words.get(1) != Some(&"nodes") {
                    eprintln!("fake engine: no node limit in '{line}'");
                    std::process::exit(6);
                }
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
                        "nomove" => {
                            say("bestmove 0000");
                            continue;
                        }
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
                // The record keeps the last line with a score: depth 4, the ply as the score.
                say("info depth 1 score cp 0");
                say(&format!("info depth 4 score cp {} nodes 9", game.ply()));
                say("info depth 5 currmove A currmovenumber 1");
                say(&format!("bestmove {}", legal[pick]));
            }
            Some("quit") => return,
            _ => {}
        }
    }
}

/// A well-formed move that is not legal in `pos` (Fairy-Stockfish's notation, `a1b2`).
fn illegal_move(pos: &Position) -> String {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let legal: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
    let squares: Vec<String> = (0..4)
        .flat_map(|r| (0..3).map(move |f| format!("{}{}", (b'a' + f) as char, r + 1)))
        .collect();
    squares
        .iter()
        .flat_map(|a| squares.iter().map(move |b| format!("{a}{b}")))
        .find(|m| !legal.contains(m))
        .expect("some step is illegal")
}

#[test]
#[ignore = "not a test: the fake engine run by the other tests"]
fn dobutsu() {
    let Some(mode) =
        std::env::args().find_map(|a| a.strip_prefix("fake-mode=").map(str::to_string))
    else {
        return;
    };
    let fault_at = mode
        .split_once(':')
        .map_or(0, |(_, k)| k.parse::<u32>().unwrap());
    let mut out = std::io::stdout();
    let mut say = |text: &str| {
        out.write_all(text.as_bytes()).unwrap();
        out.write_all(b"\n").unwrap();
        out.flush().unwrap();
    };
    let rules = perfectplay::dobutsu::Rules::default();
    let mut variant = String::new();
    let mut game = GameState::<Position>::from_start(rules);
    let mut gos = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say("id name fake-dobutsu");
                say("option name Variant type combo default abapa var abapa var dobutsu");
                say("option name Repetitions type spin default 3 min 2 max 1000");
                say("option name NoCaptureLimit type spin default 500 min 0 max 1000");
                say("uciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") if words.len() >= 5 => match words[2] {
                "Variant" => variant = words[4].to_string(),
                "NoCaptureLimit" => {
                    eprintln!("fake engine: NoCaptureLimit is no Dobutsu rule");
                    std::process::exit(5);
                }
                _ => {}
            },
            Some("position") => {
                if variant != "dobutsu" {
                    eprintln!("fake engine: not told Variant dobutsu");
                    std::process::exit(5);
                }
                let cut = words.iter().position(|&w| w == "moves");
                let moves = cut.map_or(&[][..], |i| &words[i + 1..]);
                let start = if words.get(1) == Some(&"fen") {
                    let fen = words[2..cut.unwrap_or(words.len())].join(" ");
                    Position::parse_position(&fen, &rules).unwrap()
                } else {
                    <Position as perfectplay::game::Game>::start(&rules)
                };
                let moves = start.parse_moves(moves).unwrap();
                game = GameState::new(start, rules);
                game.play_all(&moves).unwrap();
            }
            Some("go") => {
                gos += 1;
                if gos == fault_at {
                    say(&format!("bestmove {}", illegal_move(game.position())));
                    continue;
                }
                match game.legal_moves().first() {
                    Some(mv) => say(&format!("bestmove {mv}")),
                    None => say("bestmove 0000"),
                }
            }
            Some("quit") => return,
            _ => {}
        }
    }
}
