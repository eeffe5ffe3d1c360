//! The eight self-play games of `data/selfplay-games.txt` (the bench games) replayed over the
//! protocol, move by move.
//!
//! For each line (a start diagram, `moves`, the moves run together) one engine process gets
//! `position ... moves <first k moves>` and `go nodes 20000` for every k until the rules end the
//! game: every position is accepted, every search answers a legal `bestmove` (checked with the
//! library), and `bestmove 0000` once the rules end the game. A game the cycle rule ends is
//! answered with an `info string` saying so and still a legal move, and a move past that end is
//! accepted (GUIs that count repetitions their own way play on) while `d` keeps the end. A move
//! past an end by the rules is refused with one `info string error` saying the game is over, and
//! then there is no position (`d` says so) until the next valid `position`.

use crate::common::{parse_info, Engine};
use perfectplay::bench::BENCH_GAMES;
use perfectplay::oware::{parse_moves, Board, GameState, Move, Rules};

const START: &str = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";

/// One game line of the data file.
struct GameLine {
    number: usize,
    diagram: String,
    moves: Vec<Move>,
}

fn read_lines() -> Vec<GameLine> {
    let path = "data/selfplay-games.txt";
    BENCH_GAMES
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let [diagram, "moves", moves] = words.as_slice() else {
                panic!("{path}:{}: not 'DIAGRAM moves MOVES': {l}", i + 1);
            };
            GameLine {
                number: i + 1,
                diagram: diagram.to_string(),
                moves: parse_moves([*moves]).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1)),
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

/// Replays one line, then sends one move past its end; returns the game as far as the rules
/// accepted it.
fn replay(line: &GameLine) -> GameState {
    let start: Board = line.diagram.parse().expect("diagram");
    let mut game = GameState::new(start, Rules::default());
    let mut engine = Engine::start();
    let mut k = 0;
    loop {
        engine.send(&position_command(line, k));
        engine.send("go nodes 20000");
        let out = engine.until_bestmove();
        let (best, mut infos) = out.split_last().expect("output");
        let context = format!("line {} after {k} moves ({})", line.number, game.board());
        let cycle_end = game.end().filter(|e| e.reason.is_cycle_rule());
        if cycle_end.is_some() {
            let (said, rest) = infos.split_first().expect("an info string first");
            assert!(
                said.starts_with("info string the cycle rule has ended the game"),
                "{context}: '{said}'"
            );
            infos = rest;
        }
        for info in infos {
            assert!(
                !info.starts_with("info string"),
                "{context}: unexpected '{info}'"
            );
            parse_info(info);
        }
        if game.is_over() && cycle_end.is_none() {
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
            game.moves_past_cycle_end().contains(&mv),
            "{context}: bestmove {mv} is not legal (legal {:?})",
            game.moves_past_cycle_end()
        );
        if k == line.moves.len() {
            break;
        }
        game.play(line.moves[k])
            .unwrap_or_else(|e| panic!("{context}: the game line's move refused: {e}"));
        k += 1;
    }
    assert!(
        game.is_over(),
        "line {}: the game goes on after its last move",
        line.number
    );
    let finished = engine.board();
    assert!(finished.iter().any(|l| l.starts_with("state over")));
    let end = game.end().expect("over");
    if end.reason.is_cycle_rule() {
        // One move more, past the cycle rule's end: accepted, and the end stays.
        let extra = game.moves_past_cycle_end()[0];
        engine.send(&format!("{}{extra}", position_command(line, k)));
        assert_eq!(engine.sync(), Vec::<String>::new(), "line {}", line.number);
        let state = engine.board();
        let over = |b: &[String]| b.iter().find(|l| l.starts_with("state")).cloned();
        assert_eq!(
            over(&state),
            over(&finished),
            "line {}: the end stays",
            line.number
        );
    } else {
        // One move more, past an end by the rules: refused, and then there is no position.
        let extra = game
            .board()
            .legal_move_list()
            .iter()
            .next()
            .copied()
            .unwrap_or_else(|| Move::from_house(6 * game.board().side_to_move().index()));
        engine.send(&format!("{}{extra}", position_command(line, k)));
        let reply = engine.sync();
        assert_eq!(
            reply.len(),
            1,
            "line {}: one reply to a move past the end: {reply:?}",
            line.number
        );
        assert!(
            reply[0].starts_with("info string error: ")
                && reply[0].contains(&format!("move {extra} refused: the game is over")),
            "line {}: move {extra} past the end answered '{}'",
            line.number,
            reply[0]
        );
        engine.send("d");
        assert_eq!(
            engine.sync(),
            ["info string error: no valid position (the last 'position' command was refused)"],
            "line {}: no position after a refused one",
            line.number
        );
    }
    engine.finish();
    game
}

#[test]
fn the_bench_game_lines_replay_over_the_protocol() {
    let lines = read_lines();
    assert_eq!(lines.len(), 8, "eight game lines");
    for line in &lines {
        let game = replay(line);
        assert_eq!(
            game.ply(),
            line.moves.len(),
            "line {}: every move accepted",
            line.number
        );
    }
}
