//! Replays the eight self-play games of `data/selfplay-games.txt` (the bench games, see
//! `data/README.md`) with [`GameState`] under the default rules (Abapa, Repetitions 3,
//! NoCaptureLimit 500): every move is accepted, the game goes on until the line's last move and
//! ends exactly there, and any move after the end is refused with [`PlayError::GameOver`]. The
//! games end in every way the default rules allow but the no-capture limit: a capture past 24
//! seeds, a player who cannot feed, a repetition.
//!
//! The ending of each line (plies, reason, final stores) was found by running the replay and then
//! checked by hand on lines 2, 3 and 6 (below).

use perfectplay::bench::BENCH_GAMES as GAMES;
use perfectplay::oware::{parse_moves, Board, EndReason, GameState, Move, PlayError, Rules, Side};

/// How a line ends under the default rules: after all its moves, for `reason`, with these final
/// stores and this winner.
#[derive(Debug, PartialEq, Eq)]
struct Expected {
    plies: usize,
    reason: EndReason,
    stores: [u8; 2],
    winner: Option<Side>,
}

const fn ends(plies: usize, reason: EndReason, stores: [u8; 2], winner: Option<Side>) -> Expected {
    Expected {
        plies,
        reason,
        stores,
        winner,
    }
}

/// Per line, how it ends.
const EXPECTED: [Expected; 8] = [
    ends(187, EndReason::NoMoves, [23, 25], Some(Side::North)),
    // Hand check, line 2: the position after plies 106, 118 and 130 is
    // 0-0-0-0-0-1-0-0-1-0-1-1-23-21-S (a 12-ply cycle; the last capture was at ply 96), so its
    // third occurrence ends the game.
    // Each player keeps their own row: South 23 + 1 (F), North 21 + 3 (c, e, f): 24-24.
    ends(130, EndReason::Repetition, [24, 24], None),
    // Hand check, line 3: after 113 plies, 0-0-1-1-1-0-0-0-0-0-0-1-22-22-N, North plays f (1):
    // A1, and North's row is empty. South's A1, C1, D1, E1 all stay in South's row, so South
    // cannot feed: the game ends and South takes its 4 seeds, 22 + 4 = 26 against 22.
    ends(114, EndReason::NoMoves, [26, 22], Some(Side::South)),
    ends(78, EndReason::Majority, [10, 26], Some(Side::North)),
    ends(145, EndReason::NoMoves, [22, 26], Some(Side::North)),
    // Hand check, line 6: after 76 plies, 1-0-1-0-2-2-0-1-0-0-0-0-23-18-S, South plays F (2):
    // a1 b2, the last in b making 2: taken; a1 stops the walk. South 23 + 2 = 25.
    ends(77, EndReason::Majority, [25, 18], Some(Side::South)),
    ends(137, EndReason::Majority, [25, 20], Some(Side::South)),
    // Cannot feed with 24 each: a draw, not an even split found on the board.
    ends(236, EndReason::NoMoves, [24, 24], None),
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

fn lines() -> impl Iterator<Item = &'static str> {
    GAMES.lines().filter(|l| !l.trim().is_empty())
}

#[test]
fn the_data_file_holds_eight_games_from_the_start() {
    assert_eq!(lines().count(), EXPECTED.len());
    for (n, line) in lines().enumerate() {
        let (start, moves) = parse_line(line);
        assert_eq!(start, Board::start(start.variant()), "line {}", n + 1);
        assert_eq!(moves.len(), EXPECTED[n].plies, "line {}: moves", n + 1);
    }
}

#[test]
fn every_move_is_accepted_and_the_rules_end_the_game_at_the_last() {
    for (n, line) in lines().enumerate() {
        let (start, moves) = parse_line(line);
        let (game, played) = replay(start, &moves);
        let expected = &EXPECTED[n];
        assert_eq!(played, moves.len(), "line {}: the game ended early", n + 1);
        let end = game
            .end()
            .unwrap_or_else(|| panic!("line {}: the game should be over", n + 1));
        assert_eq!(
            (end.oware_reason(), end.stores(), end.winner),
            (expected.reason, expected.stores, expected.winner),
            "line {}",
            n + 1
        );
        let before = board_before_last_move(&start, &moves);
        match end.oware_reason() {
            // The last move was the capture that took a store past 24.
            EndReason::Majority => {
                assert!(before.store(Side::South) <= 24 && before.store(Side::North) <= 24);
                assert!(
                    game.board().store(Side::South) > 24 || game.board().store(Side::North) > 24
                );
            }
            // The last move changed no store: a repetition needs no capture since.
            EndReason::Repetition => assert_eq!(
                (before.store(Side::South), before.store(Side::North)),
                (
                    game.board().store(Side::South),
                    game.board().store(Side::North)
                ),
                "line {}",
                n + 1
            ),
            _ => {}
        }
    }
}

fn board_before_last_move(start: &Board, moves: &[Move]) -> Board {
    let mut game = GameState::new(*start, Rules::default());
    game.play_all(&moves[..moves.len() - 1])
        .expect("replayed above");
    assert!(!game.is_over());
    game.board()
}

#[test]
fn a_move_after_the_end_is_refused_with_game_over() {
    let mut on_board_legal = 0;
    for (n, line) in lines().enumerate() {
        let (start, moves) = parse_line(line);
        let (mut game, played) = replay(start, &moves);
        let end = game.end().expect("every line ends");
        let board = game.board();
        // Moves the board alone would allow (after a repetition or a capture past 24 there are
        // some), then every house letter at all.
        let board_legal: Vec<Move> = board.legal_move_list().iter().copied().collect();
        on_board_legal += board_legal.len();
        for mv in board_legal.into_iter().chain((0..12).map(Move::from_house)) {
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
        // play_all over the line and one move more stops at that move and reports its index.
        let mut longer = moves.clone();
        longer.push(Move::from_house(0));
        let mut again = GameState::new(start, Rules::default());
        let (index, err) = again.play_all(&longer).expect_err("over");
        assert_eq!(index, moves.len(), "line {}", n + 1);
        assert!(
            matches!(err, PlayError::GameOver { .. }),
            "line {}: {err}",
            n + 1
        );
    }
    assert!(
        on_board_legal > 0,
        "no line ends with moves left on the board"
    );
}

#[test]
fn space_separated_and_run_together_lines_read_the_same() {
    for line in lines() {
        let (_, moves) = parse_line(line);
        let spaced: String = moves.iter().map(|m| format!("{m} ")).collect();
        assert_eq!(parse_moves(spaced.split_whitespace()), Ok(moves));
    }
}
