//! The eight real game lines of the Aalina benchmark replayed over the protocol, move by move.
//!
//! For each line (a start diagram, `moves`, the moves run together) one engine process gets
//! `position ... moves <first k moves>` and `go nodes 20000` for every k until the rules end the
//! game: every position is accepted, every search answers a legal `bestmove` (checked with the
//! library), and `bestmove 0000` once the game is over. Several lines run on past a player's 25th
//! seed: the first move past the end is refused with one `info string error` saying the game is
//! over, and then there is no position (`d` says so) until the next valid `position`.

mod common;

use common::{bench_games_path, parse_info, Engine};
use perfectplay::oware::{parse_moves, Board, GameState, Move, Rules};

const START: &str = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";

/// One game line of the data file.
struct GameLine {
    number: usize,
    diagram: String,
    moves: Vec<Move>,
}

fn read_lines() -> Vec<GameLine> {
    let path = bench_games_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let [diagram, "moves", moves] = words.as_slice() else {
                panic!(
                    "{}:{}: not 'DIAGRAM moves MOVES': {l}",
                    path.display(),
                    i + 1
                );
            };
            GameLine {
                number: i + 1,
                diagram: diagram.to_string(),
                moves: parse_moves([*moves])
                    .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1)),
            }
        })
        .collect()
}

/// The `position` command for the line's first `k` moves.
fn position_command(line: &GameLine, k: usize) -> String {
    let base = if line.diagram == START {
        "position startpos".to_string()
    } else {
        format!("position fen {}", line.diagram)
    };
    if k == 0 {
        return base;
    }
    let moves: String = line.moves[..k].iter().map(|m| m.letter()).collect();
    format!("{base} moves {moves}")
}

/// Replays one line; returns the game as far as the rules accepted it and whether the line ran on
/// past its end.
fn replay(line: &GameLine) -> (GameState, bool) {
    let start: Board = line.diagram.parse().expect("diagram");
    let mut game = GameState::new(start, Rules::default());
    let mut engine = Engine::start();
    let mut k = 0;
    loop {
        engine.send(&position_command(line, k));
        engine.send("go nodes 20000");
        let out = engine.until_bestmove();
        let (best, infos) = out.split_last().expect("output");
        let context = format!("line {} after {k} moves ({})", line.number, game.board());
        for info in infos {
            assert!(
                !info.starts_with("info string"),
                "{context}: unexpected '{info}'"
            );
            parse_info(info);
        }
        if game.is_over() {
            assert_eq!(best, "bestmove 0000", "{context}: the game is over");
            assert!(infos.is_empty(), "{context}: no search when over");
            break;
        }
        let mv: Move = best
            .split(' ')
            .nth(1)
            .and_then(|m| m.parse().ok())
            .unwrap_or_else(|| panic!("{context}: bad reply '{best}'"));
        assert!(
            game.legal_moves().contains(&mv),
            "{context}: bestmove {mv} is not legal (legal {:?})",
            game.legal_moves()
        );
        if k == line.moves.len() {
            break;
        }
        game.play(line.moves[k])
            .unwrap_or_else(|e| panic!("{context}: the game line's move refused: {e}"));
        k += 1;
    }
    let runs_on = k < line.moves.len();
    if runs_on {
        let finished = engine.board();
        engine.send(&position_command(line, k + 1));
        let reply = engine.sync();
        assert_eq!(
            reply.len(),
            1,
            "line {}: one reply to a move past the end: {reply:?}",
            line.number
        );
        assert!(
            reply[0].starts_with("info string error: ")
                && reply[0].contains(&format!("move {} refused: the game is over", line.moves[k])),
            "line {}: move {} past the end answered '{}'",
            line.number,
            k + 1,
            reply[0]
        );
        // A refused `position` leaves no position to search.
        engine.send("d");
        assert_eq!(
            engine.sync(),
            ["info string error: no valid position (the last 'position' command was refused)"],
            "line {}: no position after a refused one",
            line.number
        );
        assert!(finished.iter().any(|l| l.starts_with("state over")));
    }
    engine.finish();
    (game, runs_on)
}

#[test]
fn the_bench_game_lines_replay_over_the_protocol() {
    let lines = read_lines();
    assert_eq!(lines.len(), 8, "eight game lines");
    let mut ran_on = 0;
    for line in &lines {
        let (game, runs_on) = replay(line);
        let end = match game.end() {
            Some(end) => format!(
                "{} ({}, stores {:?})",
                end.result_string(),
                end.reason,
                end.stores
            ),
            None => "game goes on".to_string(),
        };
        eprintln!(
            "line {}: {} of {} moves accepted{}; {end}",
            line.number,
            game.ply(),
            line.moves.len(),
            if runs_on { ", the next refused" } else { "" }
        );
        ran_on += runs_on as usize;
    }
    // The data's README: several lines go on past a player's 25th seed.
    assert!(ran_on >= 2, "only {ran_on} lines run past the end");
}
