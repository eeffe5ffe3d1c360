//! Data-driven perft (the leaves of the move tree N plies deep; a game that ends earlier
//! contributes 0), checked three ways:
//!
//! - the generic `perft` on `Board` against every count in `tests/data/oware.perft` (the start position's counts
//!   were known before the move generator was written);
//! - an independent, deliberately slow reference implementation of the rules (module
//!   [`reference`]: one seed at a time, capture by walking back, legality by trying each move)
//!   against the same counts, for every count small enough to be quick;
//! - both implementations walked in lockstep over the first plies of every position, comparing the
//!   legal moves, every child position and the captures at every node.
//!
//! A proptest then plays random games from the start and from random positions, comparing the two
//! implementations move by move.
//!
//! File format (shakmaty-style): records separated by blank lines, `#` starts a comment line.
//! `id NAME`, `fen DIAGRAM`, `variant abapa|awari` (default abapa), then `depth N COUNT` lines. To
//! add a position, write its `id`/`fen`/`variant` and run
//! `cargo test --release --test perft -- --ignored --nocapture` to print its reference counts.

use crate::common::perft_file;
use perfectplay::game::{perft, perft_divide, Game, Step};
use perfectplay::oware::{Board, GameState, Move, RuleSet, Rules};
use perfectplay::variant::Variant;
use proptest::prelude::*;

/// A slow, obviously correct second implementation of the rules, written from the rules text
/// (protocol.md, "Rules") without looking at the library's arithmetic.
mod reference {
    /// Houses 0-11 (0-5 South's `A`-`F`, 6-11 North's `a`-`f`), stores `[South, North]`, side to
    /// move (0 South, 1 North), and whether the Awari variant applies.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Pos {
        pub houses: [u32; 12],
        pub stores: [u32; 2],
        pub side: usize,
        pub awari: bool,
    }

    /// Which player owns a house.
    fn owner(house: usize) -> usize {
        if house < 6 {
            0
        } else {
            1
        }
    }

    fn row_start(player: usize) -> usize {
        6 * player
    }

    /// Seeds in a player's row.
    pub fn row(p: &Pos, player: usize) -> u32 {
        (0..12)
            .filter(|&h| owner(h) == player)
            .map(|h| p.houses[h])
            .sum()
    }

    impl Pos {
        /// Reads `A-B-C-D-E-F-a-b-c-d-e-f-storeS-storeN-side` (no error handling: test data).
        pub fn parse(diagram: &str, awari: bool) -> Pos {
            let fields: Vec<&str> = diagram.split('-').collect();
            assert_eq!(fields.len(), 15, "{diagram}");
            let mut houses = [0; 12];
            for h in 0..12 {
                houses[h] = fields[h].parse().unwrap();
            }
            let stores = [fields[12].parse().unwrap(), fields[13].parse().unwrap()];
            let side = match fields[14] {
                "S" => 0,
                "N" => 1,
                other => panic!("side {other}"),
            };
            let p = Pos {
                houses,
                stores,
                side,
                awari,
            };
            assert_eq!(
                p.houses.iter().sum::<u32>() + stores[0] + stores[1],
                48,
                "{diagram}"
            );
            p
        }

        pub fn diagram(&self) -> String {
            let mut fields: Vec<String> = self.houses.iter().map(|h| h.to_string()).collect();
            fields.push(self.stores[0].to_string());
            fields.push(self.stores[1].to_string());
            fields.push(if self.side == 0 { "S" } else { "N" }.to_string());
            fields.join("-")
        }
    }

    /// What a move does: the position after it, the seeds captured, and the seeds it sowed into
    /// the opponent's row.
    pub struct Played {
        pub pos: Pos,
        pub captured: u32,
        pub fed: u32,
    }

    /// Takes every seed of `from` and drops them one at a time into the next houses round the
    /// ring, passing over `from` itself; then captures from the last house backwards.
    pub fn play(p: &Pos, from: usize) -> Played {
        assert!(owner(from) == p.side && p.houses[from] > 0);
        let me = p.side;
        let opp = 1 - me;
        let mut q = p.clone();
        let mut hand = q.houses[from];
        q.houses[from] = 0;
        let mut at = from;
        let mut fed = 0;
        while hand > 0 {
            at = (at + 1) % 12;
            if at == from {
                continue;
            }
            q.houses[at] += 1;
            hand -= 1;
            if owner(at) == opp {
                fed += 1;
            }
        }
        // The houses a capture would take: from the last one back, while in the opponent's row
        // and holding 2 or 3.
        let mut chain = Vec::new();
        let mut h = at;
        while owner(h) == opp && (q.houses[h] == 2 || q.houses[h] == 3) {
            chain.push(h);
            if h == row_start(opp) {
                break;
            }
            h -= 1;
        }
        let taken: u32 = chain.iter().map(|&h| q.houses[h]).sum();
        let grand_slam = taken > 0 && taken == row(&q, opp);
        let captured = if grand_slam && !p.awari { 0 } else { taken };
        if captured > 0 {
            for h in chain {
                q.houses[h] = 0;
            }
            q.stores[me] += captured;
        }
        q.side = opp;
        Played {
            pos: q,
            captured,
            fed,
        }
    }

    /// The legal moves, as house indices in ascending order.
    pub fn legal_moves(p: &Pos) -> Vec<usize> {
        let me = p.side;
        let opp = 1 - me;
        let candidates: Vec<usize> = (0..12)
            .filter(|&h| owner(h) == me && p.houses[h] > 0)
            .collect();
        if p.awari {
            // A move that leaves the opponent seedless is allowed only if all moves do.
            let keep: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&h| row(&play(p, h).pos, opp) > 0)
                .collect();
            if keep.is_empty() {
                candidates
            } else {
                keep
            }
        } else if row(p, opp) == 0 {
            // The opponent has no seed: only moves that give them one.
            candidates
                .into_iter()
                .filter(|&h| play(p, h).fed > 0)
                .collect()
        } else {
            candidates
        }
    }

    /// Whether a store decides the game (more than 24, or 24 each).
    pub fn decided_by_stores(p: &Pos) -> bool {
        p.stores[0] > 24 || p.stores[1] > 24 || (p.stores[0] == 24 && p.stores[1] == 24)
    }

    /// The final stores if the game is over by the position: as they are when a store decides
    /// it, else each player takes their own row when the side to move has no legal move.
    pub fn final_stores(p: &Pos) -> Option<[u32; 2]> {
        if decided_by_stores(p) {
            Some(p.stores)
        } else if legal_moves(p).is_empty() {
            Some([p.stores[0] + row(p, 0), p.stores[1] + row(p, 1)])
        } else {
            None
        }
    }

    pub fn perft(p: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if decided_by_stores(p) {
            return 0;
        }
        legal_moves(p)
            .into_iter()
            .map(|h| perft(&play(p, h).pos, depth - 1))
            .sum()
    }
}

/// One record of the perft file.
#[derive(Debug)]
struct Case {
    id: String,
    fen: String,
    variant: RuleSet,
    counts: Vec<(u32, u64)>,
}

impl Case {
    fn board(&self) -> Board {
        let b: Board = self
            .fen
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", self.id));
        b.with_variant(self.variant)
    }
    fn reference(&self) -> reference::Pos {
        reference::Pos::parse(&self.fen, self.variant == RuleSet::Awari)
    }
}

fn cases() -> Vec<Case> {
    perft_file::records(perft_file::OWARE, Variant::Abapa)
        .into_iter()
        .map(|r| Case {
            variant: r.variant.rule_set().expect("an Oware variant"),
            id: r.id,
            fen: r.fen,
            counts: r.counts,
        })
        .collect()
}

/// The reference implementation checks counts up to this size (it is some 20 times slower).
const REFERENCE_MAX_LEAVES: u64 = 1_000_000;
/// Lockstep walks go as deep as this many leaves allow.
const LOCKSTEP_MAX_LEAVES: u64 = 100_000;

#[test]
fn perft_file_is_well_formed() {
    let cases = cases();
    assert!(cases.len() >= 10);
    for c in &cases {
        assert!(!c.counts.is_empty(), "{}: no counts", c.id);
        assert_eq!(
            c.board().to_string(),
            c.fen,
            "{}: the diagram reads back as written",
            c.id
        );
    }
}

#[test]
fn start_position_counts_are_the_known_ones() {
    let known = [6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872];
    let cases = cases();
    let start = cases
        .iter()
        .find(|c| c.id == "start")
        .expect("a record with id start");
    assert_eq!(start.fen, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    assert_eq!(start.variant, RuleSet::Abapa);
    let expected: Vec<(u32, u64)> = (1..).zip(known).collect();
    assert_eq!(start.counts, expected);
}

#[test]
fn reference_perft_matches_the_file() {
    let mut checked = 0;
    for c in cases() {
        let p = c.reference();
        for &(depth, count) in c.counts.iter().filter(|(_, n)| *n <= REFERENCE_MAX_LEAVES) {
            assert_eq!(
                reference::perft(&p, depth),
                count,
                "{} ({}) depth {depth}",
                c.id,
                c.variant
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} counts checked");
}

/// Walks the move trees of the library and the reference together, `depth` plies deep, comparing
/// at every node the position, the end of game, the legal moves and each move's captures.
fn lockstep(b: &Board, r: &reference::Pos, depth: u32) {
    assert_eq!(b.to_string(), r.diagram());
    let final_stores = b.final_stores().map(|s| s.map(u32::from));
    assert_eq!(
        final_stores,
        reference::final_stores(r),
        "end of game in {b}"
    );
    assert_eq!(b.outcome().is_some(), final_stores.is_some());
    if depth == 0 || reference::decided_by_stores(r) {
        return;
    }
    let library: Vec<usize> = b.legal_move_list().iter().map(|m| m.house()).collect();
    let legal = reference::legal_moves(r);
    assert_eq!(library, legal, "legal moves in {b} ({})", b.variant());
    let mut via_trait = Vec::new();
    Game::legal_moves(b, &mut via_trait);
    assert_eq!(via_trait.as_slice(), b.legal_move_list().as_slice());
    for h in legal {
        let mv = Move::from_house(h);
        let (child, captured) = b.sow_and_capture(mv);
        let played = reference::play(r, h);
        assert_eq!(
            u32::from(captured),
            played.captured,
            "captures of {mv} in {b}"
        );
        let step = Step {
            irreversible: captured > 0,
            noisy: captured > 0,
            reward: captured,
        };
        assert_eq!(Game::play(b, mv), (child, step));
        lockstep(&child, &played.pos, depth - 1);
    }
}

#[test]
fn library_and_reference_agree_node_by_node() {
    for c in cases() {
        let depth = c
            .counts
            .iter()
            .filter(|(_, n)| *n <= LOCKSTEP_MAX_LEAVES)
            .map(|&(d, _)| d)
            .max();
        lockstep(&c.board(), &c.reference(), depth.unwrap_or(1));
    }
}

/// Prints the reference counts of every position in the file, up to the first depth above
/// `REFERENCE_MAX_LEAVES` (or the deepest depth already in the file), in the file's format.
#[test]
#[ignore = "a tool: prints reference counts for tests/data/oware.perft"]
fn print_reference_counts() {
    for c in cases() {
        println!("id {}\nfen {}\nvariant {}", c.id, c.fen, c.variant);
        let p = c.reference();
        let deepest = c.counts.iter().map(|&(d, _)| d).max().unwrap_or(0);
        for depth in 1.. {
            let n = reference::perft(&p, depth);
            println!("depth {depth} {n}");
            if (n > REFERENCE_MAX_LEAVES && depth >= deepest) || n == 0 || depth >= 12 {
                break;
            }
        }
        println!();
    }
}

// ---------------------------------------------------------------------------------------------
// Random playouts
// ---------------------------------------------------------------------------------------------

/// A valid position: up to 48 seeds spread over the houses (sometimes one big house), the rest
/// split between the stores (which may decide the game already), either side to move.
fn any_position() -> impl Strategy<Value = reference::Pos> {
    (
        prop::array::uniform12(0u32..=6),
        0usize..12,
        0u32..=30,
        0u32..=100,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(mut houses, big, extra, split, north, awari)| {
            houses[big] += extra;
            // Remove seeds from the fullest houses until at most 48 are on the board.
            while houses.iter().sum::<u32>() > 48 {
                let max = (0..12).max_by_key(|&h| houses[h]).unwrap();
                houses[max] -= 1;
            }
            let rest = 48 - houses.iter().sum::<u32>();
            let south = rest * split / 100;
            reference::Pos {
                houses,
                stores: [south, rest - south],
                side: usize::from(north),
                awari,
            }
        })
}

/// Plays a game from `start` choosing moves by `choices`, checking the library against the
/// reference and the invariants at every ply.
fn playout(
    start: &reference::Pos,
    choices: &[usize],
    repetitions: u32,
    limit: u32,
) -> Result<(), TestCaseError> {
    let variant = if start.awari {
        RuleSet::Awari
    } else {
        RuleSet::Abapa
    };
    let board: Board = start
        .diagram()
        .parse()
        .map_err(|e| TestCaseError::fail(format!("{e}")))?;
    let rules = Rules {
        variant,
        cycle: perfectplay::game::CycleRule {
            repetitions,
            no_progress_limit: limit,
        },
    };
    let mut game = GameState::new(board, rules);
    let mut r = start.clone();
    for &choice in choices {
        let b = game.board();
        prop_assert_eq!(b.to_string(), r.diagram());
        prop_assert_eq!(
            b.houses().iter().map(|&h| u32::from(h)).sum::<u32>() + r.stores[0] + r.stores[1],
            48
        );
        prop_assert_eq!(
            b.final_stores().map(|s| s.map(u32::from)),
            reference::final_stores(&r)
        );
        if game.is_over() {
            prop_assert!(game.legal_moves().is_empty());
            return Ok(());
        }
        let legal = game.legal_moves();
        prop_assert_eq!(
            legal.iter().map(|m| m.house()).collect::<Vec<_>>(),
            reference::legal_moves(&r)
        );
        prop_assert!(!legal.is_empty(), "a game not over has a move: {}", b);
        let mv = legal[choice % legal.len()];
        prop_assert!(b.is_legal(mv));
        let (child, captured) = b.sow_and_capture(mv);
        let played = reference::play(&r, mv.house());
        prop_assert_eq!(u32::from(captured), played.captured);
        game.play(mv)
            .map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(game.board(), child);
        r = played.pos;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_games_from_the_start(awari: bool, choices in prop::collection::vec(0usize..6, 0..300)) {
        let start = reference::Pos { houses: [4; 12], stores: [0, 0], side: 0, awari };
        playout(&start, &choices, 3, 500)?;
    }

    #[test]
    fn random_games_from_random_positions(
        start in any_position(),
        choices in prop::collection::vec(0usize..6, 0..200),
        repetitions in 2u32..=3,
        limit in prop::sample::select(vec![0u32, 10, 50, 500]),
    ) {
        playout(&start, &choices, repetitions, limit)?;
    }

    #[test]
    fn diagram_parsing_never_panics_and_valid_diagrams_round_trip(s in "[0-9SNsnx-]{0,40}") {
        if let Ok(b) = s.parse::<Board>() {
            let again: Board = b.to_string().parse().unwrap();
            prop_assert_eq!(again, b);
        }
    }

    #[test]
    fn random_positions_print_and_parse_back(p in any_position()) {
        let b: Board = p.diagram().parse().unwrap();
        prop_assert_eq!(b.to_string(), p.diagram());
    }
}

/// `perft_divide` splits the count by root move and adds up to `perft`; it is empty at depth 0 and
/// for a game already decided by the stores.
#[test]
fn divide_adds_up_to_perft() {
    let board = Board::start(RuleSet::Abapa);
    let split = perft_divide(&board, 5);
    assert_eq!(split.len(), 6);
    assert_eq!(split.iter().map(|(_, c)| c).sum::<u64>(), 5219);
    assert!(perft_divide(&board, 0).is_empty());
    let decided: Board = "1-0-0-0-0-0-1-0-0-0-0-0-25-21-N".parse().unwrap();
    assert!(perft_divide(&decided, 3).is_empty());
    assert_eq!(perft(&decided, 3), 0);
}
