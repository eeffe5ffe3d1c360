//! Whole engine-against-engine games at every pairing of levels 1-6, through the library (the
//! same calls the protocol's plain `go` makes: a `Searcher`, the game's history as the `Root`, the
//! level in the `SearchConfig`).
//!
//! Every game must end by the rules, with every move taken from the legal list.
//!
//! Time: at their full node caps, levels 5 (400,000 nodes a move) and 6 (4,000,000) would take
//! minutes for the 36 games. Levels 1-4 play with their real settings (plain `go`: the level's
//! depth and node caps). Levels 5 and 6 are given an explicit node limit through `Limits` (as
//! `go nodes N` would), 40,000 and 80,000 nodes: level 5 keeps its depth cap of 11 and the
//! search, move choice and rules are the same code; only the budget is smaller. The real caps
//! of levels 5 and 6 are exercised by one short game below (a few moves each at full budget).

use perfectplay::oware::{Board, EndReason, GameState, Move, Rules, Side};
use perfectplay::search::{
    seed_hash, Control, Iteration, Level, Limits, Root, Score, SearchConfig, SearchHandler,
    SearchResult, Searcher,
};

/// Node limits standing in for the full caps of levels 5 and 6 (see the module comment).
const LEVEL5_TEST_NODES: u64 = 40_000;
const LEVEL6_TEST_NODES: u64 = 80_000;
/// No real game comes near this; reaching it means the game did not end by the rules.
const MAX_PLIES: usize = 5_000;

/// Keeps the last completed iteration: the search's own best move before a level's weaker choice.
#[derive(Default)]
struct LastIteration(Option<Iteration<Move>>);

impl SearchHandler<Move> for LastIteration {
    fn iteration(&mut self, info: &Iteration<Move>) {
        self.0 = Some(info.clone());
    }
}

/// The limits a level plays with in these games: plain `go` for 1-4, a node limit for 5 and 6.
fn test_limits(level: u8) -> Limits {
    match level {
        5 => Limits {
            nodes: Some(LEVEL5_TEST_NODES),
            ..Limits::default()
        },
        6 => Limits {
            nodes: Some(LEVEL6_TEST_NODES),
            ..Limits::default()
        },
        _ => Limits::default(),
    }
}

/// A finished game and what the searches did in it.
struct Played {
    game: GameState,
    /// Moves that scored strictly worse than the search's best (levels 1-2 only, by design).
    weaker: usize,
    /// Moves chosen by a search with at least two legal moves, per level (index 1-6).
    searched: [usize; 7],
}

/// One search as the protocol's `go` makes it.
fn search(
    searcher: &mut Searcher<Board>,
    game: &GameState,
    level: u8,
    limits: &Limits,
    seed: &str,
    handler: &mut LastIteration,
) -> SearchResult<Move> {
    let root = Root {
        position: game.board(),
        history: game.keys_since_capture().to_vec(),
        game_ply: game.ply() as u32,
        searchmoves: Vec::new(),
    };
    let config = SearchConfig {
        weights: Default::default(),
        cycle: game.rules().cycle,
        level: Level::new(level),
        seed: seed_hash(seed),
        lines: 1,
    };
    searcher.search(&root, limits, &config, &Control::new(false), handler)
}

/// Plays South at level `south` against North at level `north` from the start until the rules
/// end the game, checking each move, and returns the finished game.
fn play_game(south: u8, north: u8, seed: &str) -> Played {
    let mut game = GameState::new(Board::start(Default::default()), Rules::default());
    let mut searchers = [Searcher::<Board>::new(), Searcher::<Board>::new()];
    let mut weaker = 0;
    let mut searched = [0; 7];
    while !game.is_over() {
        assert!(
            game.ply() < MAX_PLIES,
            "levels {south}-{north}: no end after {MAX_PLIES} plies"
        );
        let side = game.board().side_to_move();
        let level = if side == Side::South { south } else { north };
        let mut last = LastIteration::default();
        let result = search(
            &mut searchers[side.index()],
            &game,
            level,
            &test_limits(level),
            seed,
            &mut last,
        );
        let legal = game.legal_moves();
        let mv = result.best_move.unwrap_or_else(|| {
            panic!(
                "levels {south}-{north}, ply {}: no move in {} (legal {legal:?})",
                game.ply(),
                game.board()
            )
        });
        assert!(
            legal.contains(&mv),
            "levels {south}-{north}, ply {}: {mv} is not legal in {} (legal {legal:?})",
            game.ply(),
            game.board()
        );
        if legal.len() == 1 {
            assert_eq!(result.depth, 0, "a forced move is played without search");
        } else {
            assert!(
                result.depth >= 1,
                "a search completes at least one iteration"
            );
            let best = last.0.expect("an iteration was reported");
            assert!(
                result.depth <= Level::new(level).max_depth().unwrap_or(u32::MAX),
                "level {level} searched deeper than its cap"
            );
            searched[level as usize] += 1;
            if score_value(result.score) < score_value(best.score) {
                assert!(
                    level <= 2,
                    "level {level} played a weaker move than its best"
                );
                weaker += 1;
            }
        }
        game.play(mv).expect("the engine's move is accepted");
    }
    check_ending(&game, south, north);
    Played {
        game,
        weaker,
        searched,
    }
}

/// Orders scores: any win above any heuristic value above any loss.
fn score_value(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 1_000_000_000 - n as i64,
        Score::Mate(n) => -1_000_000_000 - n as i64,
    }
}

/// The ending agrees with the rules: a majority or an even split keeps the stores as captured;
/// the other endings share out the seeds left, so the final stores hold all 48.
fn check_ending(game: &GameState, south: u8, north: u8) {
    let end = game.end().expect("the game is over");
    let board = game.board();
    let [s, n] = end.stores();
    let captured = [board.store(Side::South), board.store(Side::North)];
    let context = format!(
        "levels {south}-{north}: {board}, {:?}, {:?}",
        end.oware_reason(),
        end.stores()
    );
    match end.oware_reason() {
        EndReason::Majority => {
            assert!(captured[0] > 24 || captured[1] > 24, "{context}");
            assert_eq!(end.stores(), captured, "{context}");
        }
        EndReason::EvenSplit => assert_eq!(end.stores(), [24, 24], "{context}"),
        EndReason::NoMoves => {
            assert!(board.legal_move_list().is_empty(), "{context}");
            assert_eq!(s as u32 + n as u32, 48, "{context}");
        }
        EndReason::Repetition | EndReason::NoCaptureLimit => {
            assert_eq!(s as u32 + n as u32, 48, "{context}")
        }
    }
    match end.winner {
        Some(Side::South) => assert!(s > n),
        Some(Side::North) => assert!(n > s),
        None => assert_eq!(s, n),
    }
}

#[test]
fn every_level_pairing_plays_a_whole_legal_game() {
    let mut weaker = 0;
    let mut searched = [0usize; 7];
    let mut endings = Vec::new();
    for south in 1..=6 {
        for north in 1..=6 {
            let played = play_game(south, north, "levels");
            weaker += played.weaker;
            for (total, n) in searched.iter_mut().zip(played.searched) {
                *total += n;
            }
            let end = played.game.end().expect("over");
            endings.push(format!(
                "{south}-{north}: {} in {} plies ({:?})",
                end.result_string(),
                played.game.ply(),
                end.oware_reason()
            ));
        }
    }
    eprintln!("{}", endings.join("\n"));
    eprintln!("weaker {weaker}, searched {searched:?}");
    // Levels 1 and 2 play the second-best move 25 times in 100 and the third-best 10 times; a
    // "weaker" move here must score strictly lower, so ties make the count a little smaller.
    let weak_level_moves = searched[1] + searched[2];
    assert!(
        weak_level_moves > 100,
        "too few level 1-2 moves: {searched:?}"
    );
    let percent = weaker * 100 / weak_level_moves;
    assert!(
        (10..=45).contains(&percent),
        "levels 1-2 played a weaker move {weaker} times in {weak_level_moves} ({percent}%)"
    );
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let first = play_game(1, 2, "repeat");
    let second = play_game(1, 2, "repeat");
    assert_eq!(first.game.moves(), second.game.moves());
    assert!(first.weaker > 0, "level 1-2 game without a weaker move");
    // Other seeds choose differently somewhere.
    let others: Vec<Vec<Move>> = ["other", "seeds", "differ"]
        .iter()
        .map(|s| play_game(1, 2, s).game.moves().to_vec())
        .collect();
    assert!(
        others.iter().any(|m| m.as_slice() != first.game.moves()),
        "every seed gave the same game"
    );
}

/// The real caps of levels 5 and 6 (plain `go`), for a few moves of a game: the moves are legal
/// and the budgets are respected.
#[test]
fn levels_5_and_6_at_full_budget_play_legal_moves() {
    let mut game = GameState::new(Board::start(Default::default()), Rules::default());
    let mut searcher = Searcher::<Board>::new();
    for (ply, level) in [5u8, 6, 5, 6].into_iter().enumerate() {
        let mut last = LastIteration::default();
        let result = search(
            &mut searcher,
            &game,
            level,
            &Limits::default(),
            "full",
            &mut last,
        );
        let cap = Level::new(level).max_nodes();
        assert!(
            result.nodes <= cap + 1_000,
            "ply {ply}: level {level} used {} nodes (cap {cap})",
            result.nodes
        );
        let mv = result.best_move.expect("a move");
        game.play(mv).expect("legal");
    }
}
