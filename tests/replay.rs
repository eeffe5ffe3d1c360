//! Replays the eight real game lines of `tests/data/aalina-bench-games.txt` (a copy of
//! `shared/data/aalina-bench-games.txt`, see `tests/data/README.md`) with [`GameState`] under the
//! default rules (Abapa, Repetitions 3, NoCaptureLimit 500): every move is accepted until the rules
//! end the game, and a move after the end is refused with [`PlayError::GameOver`]. Several lines
//! run on past a player's 25th seed; two stop while the game is still going on.
//!
//! The ending of each line (ply, reason, final stores) was found by running the replay and then
//! checked by hand on lines 3 and 6 (the capture that takes a store past 24, below).
//!
//! To do once the search exists: after each accepted move, the engine must answer `go nodes 20000`
//! with a legal move (issue 2, "Done when"). Not built here.

use perfectplay::oware::{parse_moves, Board, EndReason, GameState, Move, PlayError, Rules, Side};

const GAMES: &str = include_str!("data/aalina-bench-games.txt");

/// How a line ends under the default rules.
#[derive(Debug, PartialEq, Eq)]
enum Expected {
    /// The game ends after `ply` moves of the line, for `reason`, with these final stores.
    Ends {
        ply: usize,
        reason: EndReason,
        stores: [u8; 2],
        winner: Option<Side>,
    },
    /// The line stops with the game still going on, in this position.
    GoesOn { diagram: &'static str },
}

/// Per line: the number of moves in it, and how it ends.
const EXPECTED: [(usize, Expected); 8] = [
    // Line 1 ends exactly where the game does: South (A4 B2 C2 D2 E1, none reaching a) cannot
    // feed North's empty row and takes its 11 seeds: 15 + 11 = 26 against 22.
    (
        78,
        Expected::Ends {
            ply: 78,
            reason: EndReason::NoMoves,
            stores: [26, 22],
            winner: Some(Side::South),
        },
    ),
    (
        117,
        Expected::Ends {
            ply: 110,
            reason: EndReason::Majority,
            stores: [14, 27],
            winner: Some(Side::North),
        },
    ),
    // Hand check, line 3: after 82 plies, 0-0-1-1-0-14-1-0-1-1-2-3-17-7-S, South plays F (14): one
    // lap (+1 everywhere but F: A1 B1 C2 D2 E1 | a2 b1 c2 d2 e3 f4) and 3 more seeds to a3 b2 c3,
    // the last in c. Back from c: c3 b2 a3 = 8 seeds, d2 e3 f4 stay (no grand slam): 17 + 8 = 25.
    (
        93,
        Expected::Ends {
            ply: 83,
            reason: EndReason::Majority,
            stores: [25, 7],
            winner: Some(Side::South),
        },
    ),
    (
        107,
        Expected::Ends {
            ply: 65,
            reason: EndReason::Majority,
            stores: [26, 11],
            winner: Some(Side::South),
        },
    ),
    (
        119,
        Expected::GoesOn {
            diagram: "0-0-0-1-1-0-0-2-1-1-1-0-20-21-N",
        },
    ),
    // Hand check, line 6: after 39 plies, 0-1-0-0-0-0-0-3-0-0-3-8-10-23-N, North plays e (3):
    // f9 A1 B2, the last in B making 2: taken; A1 stops the walk. North 23 + 2 = 25.
    (
        70,
        Expected::Ends {
            ply: 40,
            reason: EndReason::Majority,
            stores: [10, 25],
            winner: Some(Side::North),
        },
    ),
    (
        116,
        Expected::Ends {
            ply: 77,
            reason: EndReason::Majority,
            stores: [28, 7],
            winner: Some(Side::South),
        },
    ),
    (
        97,
        Expected::GoesOn {
            diagram: "0-0-1-1-1-1-0-0-0-1-1-1-24-17-N",
        },
    ),
];

/// A line: its start position and moves.
fn parse_line(line: &str) -> (Board, Vec<Move>) {
    let mut words = line.split_whitespace();
    let start: Board = words
        .next()
        .expect("a diagram")
        .parse()
        .expect("a valid diagram");
    assert_eq!(words.next(), Some("moves"));
    (start, parse_moves(words).expect("house letters"))
}

/// Replays a line under the default rules: plays its moves while the game goes on, asserting each
/// is accepted; returns the game and the index of the first move that was not played.
fn replay(start: Board, moves: &[Move]) -> (GameState, usize) {
    let mut game = GameState::new(start, Rules::default());
    for (i, &mv) in moves.iter().enumerate() {
        if game.is_over() {
            return (game, i);
        }
        let legal = game.legal_moves();
        assert!(
            legal.contains(&mv),
            "move {} ({mv}) is not in the legal list {legal:?}",
            i + 1
        );
        game.play(mv)
            .unwrap_or_else(|e| panic!("move {} ({mv}) refused: {e}", i + 1));
        assert_eq!(game.ply(), i + 1);
    }
    let played = game.ply();
    (game, played)
}

#[test]
fn the_data_file_holds_eight_games_from_the_start() {
    let lines: Vec<&str> = GAMES.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), EXPECTED.len());
    for (n, line) in lines.iter().enumerate() {
        let (start, moves) = parse_line(line);
        assert_eq!(start, Board::start(start.variant()), "line {}", n + 1);
        assert_eq!(moves.len(), EXPECTED[n].0, "line {}: moves", n + 1);
    }
}

#[test]
fn every_move_is_accepted_until_the_rules_end_the_game() {
    for (n, line) in GAMES.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let (start, moves) = parse_line(line);
        let (game, played) = replay(start, &moves);
        let (_, expected) = &EXPECTED[n];
        match *expected {
            Expected::Ends {
                ply,
                reason,
                stores,
                winner,
            } => {
                assert_eq!(played, ply, "line {}: moves accepted", n + 1);
                let end = game
                    .end()
                    .unwrap_or_else(|| panic!("line {}: the game should be over", n + 1));
                assert_eq!(
                    (end.oware_reason(), end.stores(), end.winner),
                    (reason, stores, winner),
                    "line {}",
                    n + 1
                );
                if reason == EndReason::Majority {
                    // The last move was the capture that took a store past 24.
                    let before = board_before_last_move(&start, &moves[..ply]);
                    assert!(before.store(Side::South) <= 24 && before.store(Side::North) <= 24);
                }
            }
            Expected::GoesOn { diagram } => {
                assert_eq!(played, moves.len(), "line {}: every move accepted", n + 1);
                assert!(!game.is_over(), "line {}: {:?}", n + 1, game.end());
                assert_eq!(game.board().to_string(), diagram, "line {}", n + 1);
            }
        }
    }
}

fn board_before_last_move(start: &Board, moves: &[Move]) -> Board {
    let mut game = GameState::new(*start, Rules::default());
    game.play_all(&moves[..moves.len() - 1])
        .expect("replayed above");
    game.board()
}

#[test]
fn a_move_after_the_end_is_refused_with_game_over() {
    for (n, line) in GAMES.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let (start, moves) = parse_line(line);
        let (mut game, played) = replay(start, &moves);
        let Some(end) = game.end() else { continue };
        let board = game.board();
        // The line's own next move, where it runs on, and any house letter at all.
        let next = moves.get(played).copied();
        for mv in next.into_iter().chain((0..12).map(Move::from_house)) {
            let err = game.play(mv).expect_err("the game is over");
            assert_eq!(
                err,
                PlayError::GameOver {
                    mv: mv.to_string(),
                    reason: perfectplay::game::Notation::describe_end(&end),
                    result: end.result_string()
                },
                "line {}",
                n + 1
            );
            assert!(err.to_string().contains("game is over"), "{err}");
        }
        assert_eq!(
            (game.ply(), game.board()),
            (played, board),
            "line {}: refused moves change nothing",
            n + 1
        );
        assert!(game.legal_moves().is_empty());
        // play_all stops at the first refused move and reports its index.
        let rest = &moves[played..];
        if !rest.is_empty() {
            let (index, _) = game.play_all(rest).expect_err("over");
            assert_eq!(index, 0);
        }
    }
}

#[test]
fn space_separated_and_run_together_lines_read_the_same() {
    for line in GAMES.lines().filter(|l| !l.trim().is_empty()) {
        let (_, moves) = parse_line(line);
        let spaced: String = moves.iter().map(|m| format!("{m} ")).collect();
        assert_eq!(parse_moves(spaced.split_whitespace()), Ok(moves));
    }
}

#[test]
fn the_copy_matches_shared_data_when_it_is_beside_the_repo() {
    let shared = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/aalina-bench-games.txt"
    );
    match std::fs::read_to_string(shared) {
        Ok(original) => {
            assert_eq!(
                GAMES, original,
                "tests/data/aalina-bench-games.txt differs from {shared}"
            )
        }
        Err(e) => eprintln!("{shared} not read ({e}); the copy in tests/data is used alone"),
    }
}
