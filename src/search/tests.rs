//! Tests of the search as a whole: agreement with plain minimax (with and without the table, with
//! repetitions in the history), determinism, levels, reports, and a hand-worked tactic.

use super::bands::{outcome_score, to_score};
use super::negamax::CHECK_EXTENSION_PLIES;
use super::thread::TtUse;
use super::*;
use crate::bench::bench_positions;
use crate::game::{CycleRule, Game};
use crate::oware::tablebase::index::{houses, layer_len, unrank};
use crate::oware::tablebase::oracle::TableOracle;
use crate::oware::{Board, Move, RuleSet, Side, Weights};

fn config(cycle: CycleRule) -> SearchConfig<Weights> {
    SearchConfig {
        weights: Weights::linear(),
        cycle,
        level: Level::default(),
        seed: seed_hash("test"),
        lines: 1,
    }
}

/// Plain minimax (no pruning, no table) to `depth` then captures only, with the cycle rule
/// applied to `keys` (positions since the last capture, current last), scored as the search
/// scores.
fn minimax(pos: &Board, depth: u32, ply: usize, keys: &mut Vec<u64>, cycle: CycleRule) -> i32 {
    if let Some(outcome) = Game::outcome(pos) {
        return outcome_score(outcome, ply);
    }
    let current = *keys.last().expect("current key");
    let occurrences = keys.iter().filter(|&&k| k == current).count() as u32;
    let since = keys.len() as u32 - 1;
    if occurrences >= cycle.repetitions
        || (cycle.no_progress_limit > 0 && since >= cycle.no_progress_limit)
    {
        return outcome_score(Game::cycle_outcome(pos), ply);
    }
    if depth == 0 {
        return quiescence(pos, ply);
    }
    let mut best = i32::MIN;
    for &mv in pos.legal_move_list().iter() {
        let (child, captured) = pos.sow_and_capture(mv);
        let saved = if captured > 0 {
            std::mem::take(keys)
        } else {
            Vec::new()
        };
        keys.push(child.key());
        let score = -minimax(&child, depth - 1, ply + 1, keys, cycle);
        keys.pop();
        if captured > 0 {
            *keys = saved;
        }
        best = best.max(score);
    }
    best
}

/// The leaf value: the evaluation, or better if a capture (followed to the end of the captures)
/// gains, without pruning.
fn quiescence(pos: &Board, ply: usize) -> i32 {
    let mut best = pos.evaluate(&Weights::linear());
    for &mv in pos.legal_move_list().iter() {
        let (child, captured) = pos.sow_and_capture(mv);
        if captured > 0 {
            let score = match Game::outcome(&child) {
                Some(outcome) => -outcome_score(outcome, ply + 1),
                None => -quiescence(&child, ply + 1),
            };
            best = best.max(score);
        }
    }
    best
}

fn search_score(root: &Root<Board>, depth: u32, tt_use: TtUse, cycle: CycleRule) -> (Score, u32) {
    let mut searcher = Searcher::<Board>::with_hash_mb(1);
    searcher.tt_use = tt_use;
    searcher.reductions = false;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = searcher.search(
        root,
        &limits,
        &config(cycle),
        &Control::default(),
        &mut Silent,
    );
    (r.score, r.depth)
}

fn sample_roots() -> Vec<Root<Board>> {
    // Roots with one legal move are answered without search; leave them out.
    bench_positions()
        .into_iter()
        .step_by(3)
        .filter(|r| r.position.legal_move_list().len() > 1)
        .map(|r| Root::new(r.position))
        .collect()
}

#[test]
fn search_agrees_with_minimax_with_and_without_table() {
    let cycle = CycleRule {
        repetitions: 3,
        no_progress_limit: 0,
    };
    for root in sample_roots() {
        for depth in 1..=5 {
            for tt_use in [TtUse::Off, TtUse::ExactDepth] {
                let (score, reached) = search_score(&root, depth, tt_use, cycle);
                let mut keys = vec![root.position.key()];
                let expected = to_score(minimax(&root.position, reached, 0, &mut keys, cycle));
                assert_eq!(
                    score, expected,
                    "{} depth {depth} ({tt_use:?})",
                    root.position
                );
            }
        }
    }
}

/// Endgame roots (8 seeds on the board, 24 and 16 in the stores, either side to move), where
/// captures end the game inside the quiescence search: the search still agrees with minimax
/// there. (Quiescence once took the value of a game-ending capture's position for the
/// capturer's own, so a winning capture counted as a loss.)
#[test]
fn search_agrees_with_minimax_where_captures_end_the_game() {
    let cycle = CycleRule::default();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut proven = 0;
    for i in 0..60 {
        let mut houses = [0u8; 12];
        for _ in 0..8 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            houses[(state >> 33) as usize % 12] += 1;
        }
        let (stores, side) = [
            ("24-16", "S"),
            ("16-24", "N"),
            ("16-24", "S"),
            ("24-16", "N"),
        ][i % 4];
        let counts: Vec<String> = houses.iter().map(u8::to_string).collect();
        let diagram = format!("{}-{stores}-{side}", counts.join("-"));
        let pos: Board = diagram.parse().expect("diagram");
        if pos.outcome().is_some() || pos.legal_move_list().len() < 2 {
            continue;
        }
        let root = Root::new(pos);
        for depth in 1..=4 {
            let (score, reached) = search_score(&root, depth, TtUse::Off, cycle);
            let mut keys = vec![pos.key()];
            let expected = to_score(minimax(&pos, reached, 0, &mut keys, cycle));
            assert_eq!(score, expected, "{diagram} depth {depth}");
            proven += usize::from(matches!(score, Score::Mate(_)));
        }
    }
    assert!(proven > 10, "{proven}");
}

/// Roots whose history holds a grandchild twice, so reaching it again inside the tree is a third
/// occurrence and ends the game there.
fn roots_with_repetitions() -> Vec<Root<Board>> {
    let mut roots = Vec::new();
    for root in sample_roots() {
        let pos = root.position;
        let quiet = |b: &Board| {
            b.legal_move_list()
                .iter()
                .copied()
                .find(|&m| b.sow_and_capture(m).1 == 0)
        };
        let Some(m1) = quiet(&pos) else { continue };
        let child = pos.sow_and_capture(m1).0;
        let Some(m2) = quiet(&child) else { continue };
        let grandchild = child.sow_and_capture(m2).0;
        let history = vec![grandchild.key(), 1, grandchild.key(), 2, pos.key()];
        roots.push(Root {
            position: pos,
            history,
            game_ply: 10,
            searchmoves: Vec::new(),
        });
    }
    roots
}

#[test]
fn repetitions_in_the_history_are_scored_and_do_not_poison_the_table() {
    let cycle = CycleRule {
        repetitions: 3,
        no_progress_limit: 500,
    };
    let mut changed = 0;
    for root in roots_with_repetitions() {
        for depth in [2, 3, 4, 5] {
            let mut keys = root.history.clone();
            let expected = minimax(&root.position, depth, 0, &mut keys, cycle);
            for tt_use in [TtUse::Off, TtUse::ExactDepth] {
                let (score, reached) = search_score(&root, depth, tt_use, cycle);
                if reached == depth {
                    assert_eq!(
                        score,
                        to_score(expected),
                        "{} depth {depth} ({tt_use:?})",
                        root.position
                    );
                }
            }
            let mut fresh = vec![root.position.key()];
            if minimax(&root.position, depth, 0, &mut fresh, cycle) != expected {
                changed += 1;
            }
        }
    }
    assert!(
        changed > 0,
        "no history changed a score: the test proves nothing"
    );
}

#[test]
fn ply_limit_is_applied_in_the_tree() {
    // 499 plies without capture before the root: every move ends the game by the limit unless it
    // captures, so the search must see the ending.
    let cycle = CycleRule {
        repetitions: 3,
        no_progress_limit: 500,
    };
    for root in sample_roots().into_iter().take(5) {
        let mut history: Vec<u64> = (1..=499).collect();
        history.push(root.position.key());
        let root = Root {
            history: history.clone(),
            ..root
        };
        let mut keys = history;
        let expected = minimax(&root.position, 3, 0, &mut keys, cycle);
        assert_eq!(
            search_score(&root, 3, TtUse::Normal, cycle).0,
            to_score(expected),
            "{}",
            root.position
        );
    }
}

#[derive(Default)]
struct Record(Vec<Iteration<Move>>);

impl SearchHandler<Move> for Record {
    fn iteration(&mut self, info: &Iteration<Move>) {
        let mut info = info.clone();
        info.elapsed = Default::default();
        self.0.push(info);
    }
}

#[test]
fn same_search_gives_same_result_and_nodes() {
    let roots = bench_positions();
    let root = &roots[7];
    let limits = Limits {
        nodes: Some(150_000),
        ..Limits::default()
    };
    let cfg = config(CycleRule::default());
    let mut searcher = Searcher::<Board>::new();
    let mut runs = Vec::new();
    for fresh in [true, false, true] {
        if fresh {
            searcher = Searcher::<Board>::new();
        }
        let mut record = Record::default();
        let result = searcher.search(root, &limits, &cfg, &Control::default(), &mut record);
        runs.push((result, record.0));
    }
    assert!(runs[0].0.nodes > 50_000 && runs[0].0.depth > 5);
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
    let last = runs[0].1.last().expect("iterations");
    assert!(last.hashfull.is_some_and(|h| h > 0 && h <= 1000));
    assert!(last.seldepth >= last.depth);
}

/// A search cut by its node budget inside an iteration plays the move that iteration had found
/// better than the previous best, and reports it at that depth; otherwise the cut iteration is
/// dropped, and the last one reported is whole (it ended within the budget). Over the bench
/// positions at 30,000 and 100,000 nodes some searches end so.
#[test]
fn a_cut_iteration_gives_its_better_move_and_nothing_else() {
    let cfg = config(CycleRule::default());
    let mut cut = 0;
    for (root, budget) in bench_positions()
        .into_iter()
        .flat_map(|root| [(root.clone(), 30_000), (root, 100_000)])
    {
        let limits = Limits {
            nodes: Some(budget),
            ..Limits::default()
        };
        let mut record = Record::default();
        let result =
            Searcher::<Board>::new().search(&root, &limits, &cfg, &Control::default(), &mut record);
        let [.., before, last] = &record.0[..] else {
            continue;
        };
        assert_eq!(result.best_move, last.pv.first().copied());
        assert_eq!(result.depth, last.depth);
        if last.nodes >= budget {
            cut += 1;
            assert_eq!(last.depth, before.depth + 1, "{}", root.position);
            assert_ne!(last.pv.first(), before.pv.first(), "{}", root.position);
        }
    }
    assert!(cut > 0, "no search ended on a cut iteration's move");
}

/// Searches that depend on time keep the table of the searches before them; reproducible ones
/// (nodes, depth) ignore it, whatever ran before. A `movetime` of an hour, never reached, makes
/// a search that depends on time but ends at its depth, so the figures are exact.
#[test]
fn time_searches_reuse_the_table_and_node_searches_stay_reproducible() {
    let roots = bench_positions();
    let cfg = config(CycleRule::default());
    let depth_only = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let timed = Limits {
        movetime: Some(std::time::Duration::from_secs(3600)),
        ..depth_only
    };
    let clocked = Limits {
        clock: Some(Clock {
            time_ms: [Some(3_600_000); 2],
            ..Clock::default()
        }),
        ..depth_only
    };
    let nodes = Limits {
        nodes: Some(60_000),
        ..Limits::default()
    };
    let control = Control::default();
    let fresh = |limits: &Limits, root: &Root<Board>| {
        Searcher::<Board>::with_hash_mb(4).search(root, limits, &cfg, &control, &mut Silent)
    };
    let mut searcher = Searcher::<Board>::with_hash_mb(4);
    let root = &roots[5];
    let first = searcher.search(root, &timed, &cfg, &control, &mut Silent);
    assert_eq!(first, fresh(&depth_only, root));
    // The same search again finds the first one's entries: far fewer nodes.
    let again = searcher.search(root, &timed, &cfg, &control, &mut Silent);
    assert!(
        again.nodes * 2 < first.nodes,
        "{} nodes after {}",
        again.nodes,
        first.nodes
    );
    let clock_again = searcher.search(root, &clocked, &cfg, &control, &mut Silent);
    assert!(clock_again.nodes * 2 < first.nodes);
    // A node search after them is the one of a fresh searcher, and the entries before it do not
    // come back for the time search after it (which sees the node search's own).
    assert_eq!(
        searcher.search(root, &nodes, &cfg, &control, &mut Silent),
        fresh(&nodes, root)
    );
    let mut other = Searcher::<Board>::with_hash_mb(4);
    other.search(root, &nodes, &cfg, &control, &mut Silent);
    assert_eq!(
        searcher.search(root, &timed, &cfg, &control, &mut Silent),
        other.search(root, &timed, &cfg, &control, &mut Silent)
    );
    // Pondering keeps the table too.
    let pondering = Control::new(true);
    let pondered = searcher.search(root, &depth_only, &cfg, &pondering, &mut Silent);
    assert!(pondered.nodes * 2 < first.nodes);
    assert_eq!(
        searcher.search(&roots[6], &depth_only, &cfg, &control, &mut Silent),
        fresh(&depth_only, &roots[6])
    );
}

/// Under a clock with nothing usable left, the search does its first iteration only (the
/// clock's hard limit is 0, and the first iteration always completes); the side to move's clock
/// is the one read.
#[test]
fn an_empty_clock_gives_the_first_iteration_only() {
    let root = &bench_positions()[2];
    let cfg = config(CycleRule::default());
    let to_move = root.position.to_move().index();
    let mut time_ms = [Some(3_600_000); 2];
    time_ms[to_move] = Some(-20);
    let limits = Limits {
        clock: Some(Clock {
            time_ms,
            overhead_ms: 30,
            ..Clock::default()
        }),
        depth: Some(6),
        ..Limits::default()
    };
    let mut searcher = Searcher::<Board>::with_hash_mb(1);
    let result = searcher.search(root, &limits, &cfg, &Control::default(), &mut Silent);
    assert_eq!(result.depth, 1);
    // `go infinite` ignores the clock (here the depth ends it).
    let infinite = Limits {
        infinite: true,
        ..limits
    };
    let result = searcher.search(root, &infinite, &cfg, &Control::default(), &mut Silent);
    assert_eq!(result.depth, 6);
    // The opponent's empty clock does not matter: depth 6 in microseconds, far below an hour.
    time_ms.swap(0, 1);
    let limits = Limits {
        clock: limits.clock.map(|c| Clock { time_ms, ..c }),
        ..limits
    };
    let result = searcher.search(root, &limits, &cfg, &Control::default(), &mut Silent);
    assert_eq!(result.depth, 6);
}

#[test]
fn clear_and_resize_keep_results() {
    let root = &bench_positions()[3];
    let limits = Limits {
        depth: Some(9),
        ..Limits::default()
    };
    let cfg = config(CycleRule::default());
    let mut searcher = Searcher::<Board>::with_hash_mb(4);
    let a = searcher.search(root, &limits, &cfg, &Control::default(), &mut Silent);
    searcher.clear();
    let b = searcher.search(root, &limits, &cfg, &Control::default(), &mut Silent);
    searcher.set_hash(4);
    let c = searcher.search(root, &limits, &cfg, &Control::default(), &mut Silent);
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(searcher.hash_mb(), 4);
    assert!(searcher.hash_bytes() <= 4 << 20);
    let report = searcher.set_hash(2).clone();
    assert!(searcher.hash_bytes() <= 2 << 20);
    assert_eq!((report.requested_mb, report.bytes), (2, 2 << 20));
    assert!(!report.shrunk);
    assert_eq!(searcher.hash_report(), &report);
}

#[test]
fn weak_levels_are_seeded_and_legal() {
    for level in [1, 2] {
        for (i, root) in bench_positions().iter().enumerate().take(12) {
            let cfg = SearchConfig {
                level: Level::new(level),
                seed: seed_hash(&format!("s{i}")),
                lines: 1,
                ..config(CycleRule::default())
            };
            let run = || {
                Searcher::<Board>::new().search(
                    root,
                    &Limits::default(),
                    &cfg,
                    &Control::default(),
                    &mut Silent,
                )
            };
            let (a, b) = (run(), run());
            assert_eq!(a, b);
            let mv = a.best_move.expect("a move");
            assert!(root.position.legal_move_list().contains(mv));
        }
    }
}

#[test]
fn finds_the_capture_chain() {
    // South's F (3 seeds) sows a, b, c, making them 2, 3, 2: the last seed lands in c and the chain
    // c, b, a (7 seeds) is captured; North has no recapture at once (its 5-seed houses reach South's
    // row and captures nothing there). The only other move (A) captures nothing. Deeper, North's 15
    // seeds on the board against South's one tell, but F stays best.
    let pos: Board = "1-0-0-0-0-3-1-2-1-5-5-5-10-15-S".parse().expect("diagram");
    let f = Move::from_house(5);
    assert_eq!(pos.sow_and_capture(f).1, 7);
    for depth in [1, 2, 5, 8] {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        // Weights whose value can be worked out by hand: 100 a stored seed, 2 a seed in the row,
        // -5 a house of 1-2 seeds, 3 a house of 12 or more (the engine's first evaluation).
        let cfg = SearchConfig {
            weights: Weights::from_array([100, 2, 0, -5, 3, 0, 0, 0, 0, 0]),
            ..config(CycleRule::default())
        };
        let r = Searcher::<Board>::new().search(
            &Root::new(pos),
            &limits,
            &cfg,
            &Control::default(),
            &mut Silent,
        );
        assert_eq!(r.best_move, Some(f), "depth {depth}");
        if depth <= 2 {
            // Seven seeds up (17-15 in the stores against 10-15 before), less the seeds North keeps.
            assert_eq!(r.score, Score::Cp(167), "depth {depth}");
        }
    }
    assert_eq!(pos.side_to_move(), Side::South);
    assert_eq!(pos.variant(), RuleSet::Abapa);
}

#[test]
fn word_evaluation_equals_the_plain_sum() {
    let weights = [
        Weights::linear(),
        Weights::from_array([7, -3, 11, -13, 6, -17, 19, 3, -5, 9]),
    ];
    let mut count = 0;
    for root in bench_positions() {
        let mut frontier = vec![root.position];
        for _ in 0..3 {
            let mut next = Vec::new();
            for pos in &frontier {
                for w in &weights {
                    assert_eq!(pos.evaluate(w), pos.evaluate_plain(w), "{pos}");
                    count += 1;
                }
                next.extend(
                    pos.legal_move_list()
                        .iter()
                        .map(|&m| pos.sow_and_capture(m).0),
                );
            }
            frontier = next;
        }
    }
    // Big houses (12+) and every count of small houses occur among these.
    assert!(count > 1000);
    let lap: Board = "13-1-2-0-0-12-1-1-2-0-0-16-0-0-S".parse().expect("diagram");
    for w in &weights {
        assert_eq!(lap.evaluate(w), lap.evaluate_plain(w));
    }
}

#[test]
fn capture_test_never_misses_a_capture() {
    let mut checked = 0;
    for root in bench_positions() {
        let mut frontier = vec![root.position];
        for _ in 0..3 {
            let mut next = Vec::new();
            for pos in &frontier {
                for &mv in pos.legal_move_list().iter() {
                    let (child, captured) = pos.sow_and_capture(mv);
                    if captured > 0 {
                        assert!(pos.may_be_noisy(mv), "{pos} {mv}");
                    }
                    checked += 1;
                    next.push(child);
                }
            }
            frontier = next;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn multipv_lines_are_the_minimax_values_of_their_moves() {
    // With the table off and no reductions, each line of a MultiPV search scores its first
    // move exactly: the plain minimax value of the position it leads to, one ply less deep.
    let cycle = CycleRule {
        repetitions: 3,
        no_progress_limit: 0,
    };
    let mut compared = 0;
    for root in sample_roots().into_iter().take(12) {
        for depth in 1..=4 {
            let mut searcher = Searcher::<Board>::with_hash_mb(1);
            searcher.tt_use = TtUse::Off;
            searcher.reductions = false;
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let mut record = Record(Vec::new());
            let lines = 4;
            let cfg = SearchConfig {
                lines,
                ..config(cycle)
            };
            searcher.search(&root, &limits, &cfg, &Control::default(), &mut record);
            let last: Vec<&Iteration<Move>> =
                record.0.iter().filter(|i| i.depth == depth).collect();
            let legal = root.position.legal_move_list().len();
            assert_eq!(last.len(), lines.min(legal), "{}", root.position);
            let mut previous = i32::MAX;
            for (rank, line) in last.iter().enumerate() {
                assert_eq!(line.multipv as usize, rank + 1);
                let mv = line.pv[0];
                let child = root.position.sow_and_capture(mv).0;
                let mut keys = vec![root.position.key(), child.key()];
                if root.position.sow_and_capture(mv).1 > 0 {
                    keys = vec![child.key()];
                }
                let value = -minimax(&child, depth - 1, 1, &mut keys, cycle);
                assert_eq!(line.score, to_score(value), "{} {mv}", root.position);
                assert!(value <= previous, "lines best first");
                previous = value;
                compared += 1;
            }
            let firsts: std::collections::BTreeSet<String> =
                last.iter().map(|l| l.pv[0].to_string()).collect();
            assert_eq!(firsts.len(), last.len(), "distinct first moves");
        }
    }
    assert!(compared > 100);
}

#[test]
fn searchmoves_restrict_the_root() {
    let root = sample_roots().remove(0);
    let legal: Vec<Move> = root.position.legal_move_list().iter().copied().collect();
    let only = vec![legal[legal.len() - 1]];
    let mut searcher = Searcher::<Board>::with_hash_mb(1);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let restricted = Root {
        searchmoves: only.clone(),
        ..root.clone()
    };
    let mut record = Record(Vec::new());
    let r = searcher.search(
        &restricted,
        &limits,
        &config(CycleRule::default()),
        &Control::default(),
        &mut record,
    );
    // A single move given is searched for its score, and played.
    assert_eq!(r.best_move, Some(only[0]));
    assert_eq!(r.depth, 6);
    assert!(record.0.iter().all(|i| i.pv[0] == only[0]));
}

#[test]
fn helper_threads_share_the_budget_and_the_move_is_legal() {
    let mut searcher = Searcher::<Board>::with_hash_mb(4);
    searcher.set_threads(2);
    let limits = Limits {
        nodes: Some(200_000),
        ..Limits::default()
    };
    for root in sample_roots().into_iter().take(6) {
        let mut record = Record(Vec::new());
        let r = searcher.search(
            &root,
            &limits,
            &config(CycleRule::default()),
            &Control::default(),
            &mut record,
        );
        let best = r.best_move.unwrap();
        assert!(root.position.legal_move_list().iter().any(|&m| m == best));
        // Every reported iteration was completed within the budget of all threads' nodes.
        assert!(record.0.iter().all(|i| i.nodes < 200_000));
        // The search stops short of the budget only at the depth limit or on a proven score: a
        // helper's entries can let the main thread prove the game's end (within the depth's plies)
        // early. `Mate(n)` ends in 2|n| - 2 or 2|n| - 1 plies, whoever moves last (bands::to_score).
        let proven = matches!(r.score, Score::Mate(n) if 2 * n.unsigned_abs() <= r.depth + 2);
        assert!(
            r.nodes >= 200_000 || r.depth == MAX_DEPTH || proven,
            "{} {:?} depth {}",
            r.nodes,
            r.score,
            r.depth
        );
    }
}

#[test]
fn multipv_from_the_table_scores_a_move_that_ends_the_game_for_its_mover() {
    // Inside the tablebase, MultiPV values every root move from the table; a move that ends the
    // game at once (a capture past 24 seeds, or to 24-24) is scored by the game's result, from
    // the mover's side. Such a move is not always the table's best (the first line, scored by
    // the table's final margin), which wants the widest margin: those roots are the ones checked.
    let oracle = std::sync::Arc::new(TableOracle::in_memory(RuleSet::Abapa, 5));
    let mut searcher = Searcher::<Board>::with_hash_mb(1);
    searcher.set_oracle(Some(oracle.clone()));
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    // Every board of 5 seeds (the tablebase index's layer), South to move, stores from 21-22 to
    // 24-19.
    let mut checked = 0;
    for (rank, south) in (0..layer_len(5)).flat_map(|r| (21..=24).map(move |s| (r, s))) {
        let houses = houses(unrank(rank, 5));
        let board = Board::new(houses, [south, 43 - south], Side::South, RuleSet::Abapa).unwrap();
        let legal = board.legal_move_list();
        let ends = |mv: Move| Game::outcome(&board.sow_and_capture(mv).0);
        let Some(best) = oracle.root_move(&board) else {
            continue;
        };
        if !legal.iter().any(|&mv| mv != best && ends(mv).is_some()) {
            continue;
        }
        let mut record = Record(Vec::new());
        let cfg = SearchConfig {
            lines: legal.len(),
            ..config(CycleRule::default())
        };
        searcher.search(
            &Root::new(board),
            &limits,
            &cfg,
            &Control::default(),
            &mut record,
        );
        for line in &record.0[record.0.len() - legal.len()..] {
            let mv = line.pv[0];
            if let Some(outcome) = ends(mv).filter(|_| mv != best) {
                // The child's outcome is its mover's (North's); South's is the opposite.
                assert_eq!(
                    line.score,
                    to_score(-outcome_score(outcome, 1)),
                    "{board} {mv}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "{checked}");
}

/// Dobutsu Shogi's plain minimax, as [`minimax`] for Oware: no pruning, no table, every move
/// into check a ply deeper below [`CHECK_EXTENSION_PLIES`] (not at the root, as the search),
/// then [`dobutsu_quiescence`]. Scored as the search scores; the cycle rule is left out (the
/// depths tested are too short for a repetition).
fn dobutsu_minimax(pos: &crate::dobutsu::Position, depth: i32, ply: usize) -> i32 {
    use super::bands::proven_score;
    if let Some(proven) = Game::proven(pos) {
        return proven_score(proven, ply);
    }
    if depth <= 0 {
        return dobutsu_quiescence(pos, ply, Game::in_check(pos));
    }
    let mut moves = Vec::new();
    Game::legal_moves(pos, &mut moves);
    let mut best = i32::MIN;
    for mv in moves {
        let (child, _) = Game::play(pos, mv);
        let check = Game::in_check(&child);
        let extend = ply > 0 && ply < CHECK_EXTENSION_PLIES && check;
        best = best.max(-dobutsu_minimax(
            &child,
            depth - 1 + i32::from(extend),
            ply + 1,
        ));
    }
    best
}

/// The leaf value for [`dobutsu_minimax`]: the evaluation, or better if a capture or a
/// promotion (followed to the end of such moves) gains; in check (`in_check`) the best move of
/// all, never the evaluation.
fn dobutsu_quiescence(pos: &crate::dobutsu::Position, ply: usize, in_check: bool) -> i32 {
    use super::bands::{clamp_eval, proven_score};
    let stand = clamp_eval(Game::evaluate(pos, &Default::default()));
    let mut best = if in_check { i32::MIN } else { stand };
    let mut moves = Vec::new();
    Game::legal_moves(pos, &mut moves);
    for mv in moves {
        let (child, step) = Game::play(pos, mv);
        if !in_check && !step.noisy {
            continue;
        }
        let score = match Game::proven(&child) {
            Some(proven) => -proven_score(proven, ply + 1),
            None => -dobutsu_quiescence(&child, ply + 1, Game::in_check(&child)),
        };
        best = best.max(score);
    }
    best
}

/// Dobutsu Shogi's search with its check extensions and quiescence (which, in check, tries
/// every move rather than stand on the evaluation) agrees with plain minimax at depths 1 to
/// 3, without the table and reductions, on positions of pseudo-random games. Standing on the
/// evaluation in check, after a capture that attacks the Lion, gave other values at some of
/// them.
#[test]
fn dobutsu_search_agrees_with_minimax_and_quiescence_evades_checks() {
    use crate::dobutsu::{Position, Rules};
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let (mut searched, mut checking_captures) = (0, 0);
    for game in 0..100 {
        let mut pos = Position::start();
        for ply in 0..40 {
            let mut moves = Vec::new();
            Game::legal_moves(&pos, &mut moves);
            if moves.is_empty() || Game::proven(&pos).is_some() {
                break;
            }
            if (game + ply) % 2 == 0 && moves.len() > 1 {
                for depth in 1..=3 {
                    let mut searcher = Searcher::<Position>::with_hash_mb(1);
                    searcher.tt_use = TtUse::Off;
                    searcher.reductions = false;
                    let config = SearchConfig::plain(Default::default(), Rules::default().cycle);
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    let r = searcher.search(
                        &Root::new(pos),
                        &limits,
                        &config,
                        &Control::default(),
                        &mut Silent,
                    );
                    // A search that proves a result stops at that iteration.
                    let expected = to_score(dobutsu_minimax(&pos, r.depth as i32, 0));
                    assert_eq!(r.score, expected, "{pos:?} depth {depth} ({})", r.depth);
                    searched += 1;
                }
                let capture_checks = |p: &Position| {
                    let mut moves = Vec::new();
                    Game::legal_moves(p, &mut moves);
                    moves.iter().any(|&mv| {
                        let (c, step) = Game::play(p, mv);
                        step.noisy && Game::proven(&c).is_none() && Game::in_check(&c)
                    })
                };
                checking_captures += usize::from(capture_checks(&pos));
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos = Game::play(&pos, moves[(state >> 33) as usize % moves.len()]).0;
        }
    }
    assert!(searched > 300, "{searched}");
    assert!(checking_captures > 10, "{checking_captures}");
}
