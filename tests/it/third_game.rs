//! The genericity check: a third game, written here against the public traits only, played
//! through the library's search, game state and perft, and checked against plain minimax.
//!
//! The game is a subtraction game: a pile of counters, each move takes 1, 2 or 3 (never more than
//! are left), and the player who takes the last counter wins. The mover loses exactly when the pile
//! is a multiple of 4 (Bouton's theory of such games); the fastest win takes `pile % 4` and the
//! slowest loss takes 1.

use std::fmt;

use perfectplay::game::{
    perft, CycleRule, Game, GameState, Notation, OptionDecl, Outcome, Player, Settings, Step,
};
use perfectplay::search::{Control, Level, Limits, Root, Score, SearchConfig, Searcher, Silent};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    A,
    B,
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl Player for Turn {
    const FIRST: Turn = Turn::A;
    fn index(self) -> usize {
        self as usize
    }
    fn opponent(self) -> Turn {
        match self {
            Turn::A => Turn::B,
            Turn::B => Turn::A,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pile {
    counters: u8,
    turn: Turn,
}

#[derive(Clone, Debug, PartialEq, Default)]
struct PileRules;

#[derive(Clone, Debug, PartialEq, Default)]
struct NoWeights;

impl Game for Pile {
    type Move = u8;
    type Player = Turn;
    type Rules = PileRules;
    type Weights = NoWeights;
    type EvalParent = ();
    const NAME: &'static str = "pile";

    fn start(_: &PileRules) -> Pile {
        Pile {
            counters: 21,
            turn: Turn::A,
        }
    }
    fn cycle_rule(_: &PileRules) -> CycleRule {
        CycleRule::default()
    }
    fn options() -> Vec<OptionDecl<Settings<Pile>>> {
        Vec::new()
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.extend((1..=3).filter(|&n| n <= self.counters));
    }
    fn play(&self, take: u8) -> (Pile, Step) {
        let next = Pile {
            counters: self.counters - take,
            turn: self.turn.opponent(),
        };
        // Every move is irreversible (the pile only shrinks); taking 3 counts as noisy, so
        // quiescence and the reductions see some moves of each kind.
        let step = Step {
            irreversible: true,
            noisy: take == 3,
            reward: take,
        };
        (next, step)
    }
    fn outcome(&self) -> Option<Outcome> {
        // The previous player took the last counter.
        (self.counters == 0).then_some(Outcome::Loss)
    }
    fn cycle_outcome(&self) -> Outcome {
        Outcome::Draw
    }
    fn evaluate(&self, _: &NoWeights) -> i32 {
        // A deliberately misleading heuristic: only search to the end finds the values.
        i32::from(self.counters % 3) * 10
    }
    fn key(&self) -> u64 {
        u64::from(self.counters) << 1 | self.turn.index() as u64
    }
    fn to_move(&self) -> Turn {
        self.turn
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a pile or a move")]
struct PileError(String);

impl Notation for Pile {
    type Error = PileError;
    const CYCLE_COUNT: &'static str = "plies since the last take";
    fn parse_position(text: &str, _: &PileRules) -> Result<Pile, PileError> {
        let (n, t) = text.split_once(' ').ok_or_else(|| PileError(text.into()))?;
        let counters = n.parse().map_err(|_| PileError(n.into()))?;
        let turn = match t {
            "A" => Turn::A,
            "B" => Turn::B,
            _ => return Err(PileError(t.into())),
        };
        Ok(Pile { counters, turn })
    }
    fn write_position(&self) -> String {
        format!("{} {}", self.counters, self.turn)
    }
    fn parse_moves(&self, words: &[&str]) -> Result<Vec<u8>, PileError> {
        words
            .iter()
            .map(|w| w.parse().map_err(|_| PileError(w.to_string())))
            .collect()
    }
    fn write_moves(moves: &[u8]) -> String {
        moves
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn diagram(&self, _counters: perfectplay::game::MoveCounters) -> String {
        "|".repeat(self.counters as usize)
    }
    fn describe_end(end: &perfectplay::game::GameEnd<Pile>) -> String {
        format!("(the last counter taken at ply {})", end.ply)
    }
}

/// Plain minimax to the end: `(won, plies)` for the side to move, the winner ending as fast as
/// it can and the loser lasting as long as it can.
fn minimax(pile: u8) -> (bool, u32) {
    if pile == 0 {
        return (false, 0);
    }
    let children: Vec<(bool, u32)> = (1..=3.min(pile)).map(|t| minimax(pile - t)).collect();
    let fastest_win = children.iter().filter(|c| !c.0).map(|c| c.1 + 1).min();
    match fastest_win {
        Some(plies) => (true, plies),
        None => (false, children.iter().map(|c| c.1 + 1).max().unwrap_or(0)),
    }
}

fn search(pile: u8, limits: Limits) -> perfectplay::search::SearchResult<u8> {
    let root = Root::new(Pile {
        counters: pile,
        turn: Turn::A,
    });
    let config = SearchConfig {
        weights: NoWeights,
        cycle: CycleRule::default(),
        level: Level::default(),
        seed: 1,
        lines: 1,
    };
    Searcher::<Pile>::with_hash_mb(1).search(
        &root,
        &limits,
        &config,
        &Control::default(),
        &mut Silent,
    )
}

#[test]
fn search_finds_the_minimax_value_of_every_pile() {
    for pile in 2..=24u8 {
        let (won, plies) = minimax(pile);
        assert_eq!(won, pile % 4 != 0, "pile {pile}");
        let result = search(
            pile,
            Limits {
                depth: Some(30),
                ..Limits::default()
            },
        );
        // UCI counts mate distances in moves of both sides: plies / 2, rounded up.
        let moves = (plies as i32 + 1) / 2;
        let expected = if won { moves } else { -moves };
        assert_eq!(result.score, Score::Mate(expected), "pile {pile}");
        let best = result.best_move.expect("a move");
        if won {
            assert_eq!(best, pile % 4, "pile {pile}: the only winning move");
        }
        assert!(
            result.pv.len() as u32 <= plies,
            "pile {pile}: pv {:?}",
            result.pv
        );
    }
}

#[test]
fn a_node_budget_still_gives_a_legal_move_and_is_reproducible() {
    let limits = Limits {
        nodes: Some(50),
        ..Limits::default()
    };
    let a = search(23, limits);
    let b = search(23, limits);
    assert_eq!(a, b);
    assert!((1..=3).contains(&a.best_move.expect("a move")));
}

#[test]
fn perft_counts_compositions_of_the_pile() {
    // Leaves at depth d from a pile of n: the ways to take d times 1-3 with a sum of at most n
    // (the pile cannot be empty before the last take then). From 5: depth 1 takes 1, 2 or 3;
    // depth 2 every pair but 3+3 (8); depth 3 the orders of 1+1+1, 1+1+2 (3), 1+1+3 (3) and
    // 1+2+2 (3): 10; depth 4 the orders of 1+1+1+1 and 1+1+1+2 (4): 5; depth 5 only 1+1+1+1+1.
    let five = Pile::parse_position("5 A", &PileRules).unwrap();
    assert_eq!([1, 2, 3, 4, 5].map(|d| perft(&five, d)), [3, 8, 10, 5, 1]);
}

#[test]
fn game_state_plays_refuses_and_ends() {
    let mut game = GameState::new(Pile::parse_position("5 A", &PileRules).unwrap(), PileRules);
    let moves = game.position().parse_moves(&["3", "1"]).unwrap();
    game.play_all(&moves).unwrap();
    assert_eq!(game.position().write_position(), "1 A");
    assert!(game.play(2).is_err(), "taking 2 of 1 is illegal");
    game.play(1).unwrap();
    let end = game.end().expect("the last counter is taken");
    assert_eq!((end.winner, end.result_string()), (Some(Turn::A), "1-0"));
    assert!(matches!(
        game.play(1),
        Err(perfectplay::game::PlayError::GameOver { .. })
    ));
}

/// A table of exact values for piles of at most `max` counters (from [`minimax`]): plies to the
/// end as the game is played, the winner fastest and the loser slowest.
struct PileTable {
    max: u8,
}

impl perfectplay::search::Oracle<Pile> for PileTable {
    fn probe(&self, pos: &Pile) -> Option<(Outcome, u32)> {
        (pos.counters <= self.max).then(|| {
            let (won, plies) = minimax(pos.counters);
            (if won { Outcome::Win } else { Outcome::Loss }, plies)
        })
    }
}

fn search_with_table(pile: u8, max: u8) -> (perfectplay::search::SearchResult<u8>, u64) {
    let root = Root::new(Pile {
        counters: pile,
        turn: Turn::A,
    });
    let config = SearchConfig {
        weights: NoWeights,
        cycle: CycleRule::default(),
        level: Level::default(),
        seed: 1,
        lines: 1,
    };
    let mut searcher = Searcher::<Pile>::with_hash_mb(1);
    searcher.set_oracle(Some(std::sync::Arc::new(PileTable { max })));
    struct Hits(u64);
    impl perfectplay::search::SearchHandler<u8> for Hits {
        fn iteration(&mut self, info: &perfectplay::search::Iteration<u8>) {
            self.0 = info.tbhits;
        }
    }
    let mut hits = Hits(0);
    let limits = Limits {
        depth: Some(30),
        ..Limits::default()
    };
    let result = searcher.search(&root, &limits, &config, &Control::default(), &mut hits);
    (result, hits.0)
}

#[test]
fn a_table_of_exact_values_answers_at_once_and_inside_the_search() {
    for pile in 2..=24u8 {
        let plain = search(
            pile,
            Limits {
                depth: Some(30),
                ..Limits::default()
            },
        );
        // A table of every pile: the root's children are all in it, so no search at all.
        let (whole, hits) = search_with_table(pile, 24);
        assert_eq!(whole.score, plain.score, "pile {pile}");
        assert_eq!(whole.depth, 1);
        assert_eq!(
            hits,
            u64::from(pile.min(3)),
            "pile {pile}: one probe per move"
        );
        if pile % 4 != 0 {
            assert_eq!(whole.best_move, Some(pile % 4), "pile {pile}");
        }
        // The table's line is the game played perfectly to its end.
        assert_eq!(
            whole.pv.len() as u32,
            minimax(pile).1,
            "pile {pile}: {:?}",
            whole.pv
        );
        // A table of small piles only: the search meets it below the root and finds the value.
        let (part, hits) = search_with_table(pile, 6);
        assert_eq!(part.score, plain.score, "pile {pile}");
        if pile > 9 {
            assert!(
                hits > 0 && part.nodes < plain.nodes,
                "pile {pile}: {hits} hits"
            );
        }
    }
}
