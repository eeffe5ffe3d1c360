//! The Dobutsu Shogi solver checked against a brute-force solver on reduced piece sets (always
//! run), and the full analysis against Tanaka's figures (ignored: it takes minutes).

use std::collections::HashMap;

use std::path::PathBuf;

use crate::common::Engine;
use perfectplay::dobutsu::Rules;
use perfectplay::game::{Game, Notation};
use perfectplay::records::pgn;

use perfectplay::dobutsu::solve::{self, file, Solution, Value};
use perfectplay::dobutsu::{Move, Position};
use perfectplay::game::Outcome;
use perfectplay::retro::file::TableError;
use perfectplay::retro::Silent;

/// The value of a decided position as the solver defines it: a Lion capture wins in 1, the rest
/// is over at once (0 plies).
fn decided(pos: &Position) -> Option<Value> {
    let outcome = pos.outcome()?;
    let me = pos.side_to_move();
    let capture = pos
        .lion(me.opponent())
        .is_some_and(|l| pos.is_attacked(l, me));
    let plies = if outcome == Outcome::Win && capture {
        1
    } else {
        0
    };
    Some(Value { outcome, plies })
}

/// Every position reachable from `start` (normalised, mirror images merged by
/// `Position::canonical`, decided positions not expanded) with its value, by a hash map and
/// rounds over all positions: in round `d` a position becomes a win in `d` if a move leads to a
/// loss in `d - 1`, a loss in `d` if every move leads to a win and the longest is `d - 1`.
fn brute_force(start: &Position) -> HashMap<u64, Value> {
    let key = |p: &Position| p.normalized().canonical().key();
    let mut ids: HashMap<u64, usize> = HashMap::new();
    let mut positions = vec![start.normalized().canonical()];
    ids.insert(key(start), 0);
    let mut children: Vec<Vec<usize>> = Vec::new();
    let mut moves = Vec::new();
    let mut next = 0;
    while next < positions.len() {
        let pos = positions[next];
        next += 1;
        let mut mine = Vec::new();
        if decided(&pos).is_none() {
            moves.clear();
            pos.legal_moves(&mut moves);
            for &mv in &moves {
                let child = pos.play(mv).0;
                let k = key(&child);
                let id = *ids.entry(k).or_insert_with(|| {
                    positions.push(child.normalized().canonical());
                    positions.len() - 1
                });
                mine.push(id);
            }
        }
        children.push(mine);
    }
    let mut value: Vec<Option<Value>> = positions.iter().map(decided).collect();
    let mut open: Vec<usize> = (0..positions.len())
        .filter(|&i| value[i].is_none())
        .collect();
    let mut d = 1u8;
    loop {
        // Decide round `d` from the values of earlier rounds only, then apply.
        let mut decided_now = Vec::new();
        open.retain(|&i| {
            let mut all_win = true;
            let mut longest = 0;
            let mut wins = false;
            for &c in &children[i] {
                match value[c] {
                    Some(v) if v.outcome == Outcome::Loss && v.plies + 1 == d => wins = true,
                    Some(v) if v.outcome == Outcome::Win && v.plies < d => {
                        longest = longest.max(v.plies)
                    }
                    _ => all_win = false,
                }
            }
            if wins {
                decided_now.push((i, Outcome::Win));
            } else if all_win && longest + 1 == d {
                decided_now.push((i, Outcome::Loss));
            }
            !(wins || all_win && longest + 1 == d)
        });
        let changed = !decided_now.is_empty();
        for (i, outcome) in decided_now {
            value[i] = Some(Value { outcome, plies: d });
        }
        if !changed && d > 2 {
            break;
        }
        d += 1;
    }
    positions
        .iter()
        .zip(value)
        .map(|(p, v)| {
            let v = v.unwrap_or(Value {
                outcome: Outcome::Draw,
                plies: 0,
            });
            (p.key(), v)
        })
        .collect()
}

fn check_against_brute_force(fen: &str) -> (Solution, usize) {
    let start = Position::from_fen(fen).unwrap();
    let (solution, figures) = solve::analyse(&start, &Silent);
    let expected = brute_force(&start);
    let mut undecided = 0;
    for (&key, &v) in &expected {
        let pos = Position::from_key(key).unwrap();
        assert_eq!(solution.probe(&pos), Some(v), "{fen}: {pos:?}");
        assert_eq!(solution.probe(&pos.mirrored().flipped()), Some(v));
        undecided += usize::from(decided(&pos).is_none());
        assert_best_move_keeps_value(&solution, &pos);
    }
    assert_eq!(solution.len() as usize, undecided, "{fen}");
    assert_eq!(figures.merged.total() as usize, expected.len(), "{fen}");
    assert_eq!(
        solution.probe(&start),
        expected.get(&start.normalized().canonical().key()).copied()
    );
    (solution, expected.len())
}

#[test]
fn lions_and_chicks_match_brute_force() {
    let (_, n) = check_against_brute_force("1l1/1c1/1C1/1L1[] w");
    assert!(n > 1000, "{n}");
}

#[test]
fn giraffe_and_chicks_match_brute_force() {
    let (_, n) = check_against_brute_force("1l1/1c1/1C1/GL1[] w");
    assert!(n > 10_000, "{n}");
}

#[test]
fn elephant_and_chicks_match_brute_force() {
    let (_, n) = check_against_brute_force("1le/1c1/1C1/1L1[] w");
    assert!(n > 10_000, "{n}");
}

/// The engine's full-strength search settings under the default rules, seed 0, with `lines`
/// lines (MultiPV).
fn search_config(lines: usize) -> perfectplay::search::SearchConfig<<Position as Game>::Weights> {
    perfectplay::search::SearchConfig {
        weights: Default::default(),
        cycle: Rules::default().cycle,
        level: perfectplay::search::Level::default(),
        seed: 0,
        lines,
    }
}

/// The search's pruning beyond alpha-beta (`Game::PRUNING`: reverse futility and late move
/// pruning) keeps the short wins: on every fourth undecided position of the giraffe-and-chicks
/// set (without history), a depth-7 search proves each win in at most 3 plies (2 moves), never
/// faster than perfect play. The distance may be longer: a pruned search can settle on a longer
/// win (`1cG/l1L/3/2+C[] w`, a win in 2 moves, is found as a win in 3 at depth 3), and it stops
/// at the first proven win; all but a few are exact.
#[test]
fn pruned_search_finds_the_short_wins() {
    use perfectplay::search::{Control, Limits, Root, Score, Searcher, Silent};
    let start = Position::from_fen("1l1/1c1/1C1/GL1[] w").unwrap();
    let expected = brute_force(&start);
    let mut keys: Vec<u64> = expected.keys().copied().collect();
    keys.sort_unstable();
    let mut searcher = Searcher::<Position>::new();
    let config = search_config(1);
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let (mut short_wins, mut exact) = (0, 0);
    for key in keys.iter().step_by(4) {
        let pos = Position::from_key(*key).unwrap();
        let v = expected[key];
        if decided(&pos).is_some() || v.outcome != Outcome::Win || v.plies > 3 {
            continue;
        }
        let root = Root::new(pos);
        let result = searcher.search(&root, &limits, &config, &Control::default(), &mut Silent);
        if result.depth == 0 {
            continue; // a single legal move, played without search
        }
        short_wins += 1;
        let fastest = (i32::from(v.plies) + 1) / 2;
        match result.score {
            Score::Mate(moves) if moves >= fastest => exact += usize::from(moves == fastest),
            score => panic!("{pos:?} {v:?}: {score:?}"),
        }
    }
    assert!(short_wins > 1000, "{short_wins}");
    assert!(
        exact * 100 >= short_wins * 99,
        "{exact} of {short_wins} exact"
    );
}

/// Takes about 30 s.
#[test]
#[ignore = "30 s"]
fn giraffe_elephant_and_chicks_match_brute_force() {
    let (_, n) = check_against_brute_force("1le/1c1/1C1/GL1[] w");
    assert!(n > 100_000, "{n}");
}

/// The proven results (`score mate`) that searches of the undecided positions of the set `fen`
/// (no history) report, on every line of every iteration up to `depth` with `lines` lines, agree
/// with the brute force's values (the position's for the first line, and each line's move's):
/// the winner is the brute force's, and the distance is never shorter than the brute force's (a
/// win claimed in `n` moves is won in `n` or fewer, a loss claimed in `n` moves cannot be put off
/// beyond `n`). Only every `step`-th position (in key order) is searched,
/// and `also`. Returns how many positions were searched.
fn check_search_results(fen: &str, depth: u32, lines: usize, step: usize, also: &[&str]) -> usize {
    use perfectplay::search::{Control, Iteration, Limits, Root, Score, SearchHandler, Searcher};
    /// Every line of every iteration a search reports: its depth, its rank, its first move
    /// and its score.
    struct Reports(Vec<(u32, u32, Move, Score)>);
    impl SearchHandler<Move> for Reports {
        fn iteration(&mut self, info: &Iteration<Move>) {
            self.0
                .push((info.depth, info.multipv, info.pv[0], info.score));
        }
    }
    let key = |p: &Position| p.normalized().canonical().key();
    let expected = brute_force(&Position::from_fen(fen).unwrap());
    let mut keys: Vec<u64> = expected.keys().copied().collect();
    keys.sort_unstable();
    let mut keys: Vec<u64> = keys.into_iter().step_by(step).collect();
    keys.extend(also.iter().map(|f| key(&Position::from_fen(f).unwrap())));
    let mut searcher = Searcher::<Position>::new();
    let config = search_config(lines);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut searched = 0;
    for k in &keys {
        let pos = Position::from_key(*k).unwrap();
        if decided(&pos).is_some() {
            continue;
        }
        let mut reports = Reports(Vec::new());
        searcher.search(
            &Root::new(pos),
            &limits,
            &config,
            &Control::default(),
            &mut reports,
        );
        searched += 1;
        for (depth, rank, mv, score) in reports.0 {
            let Score::Mate(moves) = score else { continue };
            let what = format!("{fen}: {pos:?} depth {depth} line {rank} {mv}: mate {moves}");
            // The first line's score is the position's value, every line's the value of its move.
            let mut values = vec![expected[&key(&pos.play(mv).0)].before_move()];
            if rank == 1 {
                values.push(expected[k]);
            }
            for v in values {
                // The fewest moves (of the winner) the game can last.
                let fastest = (i32::from(v.plies) + 1) / 2;
                match v.outcome {
                    Outcome::Win => assert!(moves >= fastest, "{what}, {v:?}"),
                    Outcome::Loss => assert!(-moves >= fastest, "{what}, {v:?}"),
                    Outcome::Draw => panic!("{what}, a draw"),
                }
            }
        }
    }
    searched
}

/// The search never makes up a result: its proven results agree with the brute force on small
/// piece sets ([`check_search_results`]), at every depth from 1 to 8, with one line and three.
/// Every undecided position of the lions-and-chicks set is searched (with three lines, every
/// fourth), and every 64th of the giraffe-and-chicks and elephant-and-chicks sets, with the
/// position whose depth-7 iteration reported `mate -5` for a loss in 20 plies when quiescence
/// took a capture's proven value for the capturer's (a capture the opponent answers by taking
/// the Lion counted as a win, taking the Lion as a loss). A full run of all three sets at depth 8,
/// one line and three, took 18 minutes.
#[test]
fn search_results_agree_with_brute_force() {
    let lions = "1l1/1c1/1C1/1L1[] w";
    assert!(check_search_results(lions, 8, 1, 1, &[]) > 10_000);
    check_search_results(lions, 8, 3, 4, &[]);
    let giraffe = "1l1/1c1/1C1/GL1[] w";
    check_search_results(giraffe, 8, 1, 64, &["3/1G1/l1C/+c1L[] w - - 0 1"]);
    check_search_results("1le/1c1/1C1/1L1[] w", 8, 1, 64, &[]);
}

/// The solution's move from `pos` (when the game goes on) has the position's value, and the
/// position after it has the value one ply nearer the end, from the other side.
fn assert_best_move_keeps_value(solution: &Solution, pos: &Position) -> Option<Position> {
    let v = solution.probe(pos).expect("a reachable position");
    let (mv, mv_value) = solution.best_move(pos)?;
    assert_eq!(mv_value, v, "{pos:?} {mv}");
    let child = pos.play(mv).0;
    let after = solution.probe(&child).expect("the position after a move");
    assert_eq!(after.before_move(), v, "{pos:?} {mv}");
    Some(child)
}

/// A file name in the target directory, unique to the test.
fn temp_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    dir.join(format!("{name}-{}", std::process::id()))
}

#[test]
fn solution_file_round_trips_and_bad_files_are_refused() {
    let start = Position::from_fen("1l1/1c1/1C1/GL1[] w").unwrap();
    let (solution, figures) = solve::analyse(&start, &Silent);
    let path = temp_file("chicks.solution");
    file::save(&solution, &figures, &path).unwrap();
    let loaded = file::load(&path).unwrap();
    assert_eq!(loaded.len(), solution.len());
    let expected = brute_force(&start);
    for &key in expected.keys() {
        let pos = Position::from_key(key).unwrap();
        assert_eq!(loaded.probe(&pos), solution.probe(&pos), "{pos:?}");
    }
    let bytes = std::fs::read(&path).unwrap();
    let bad = temp_file("bad.solution");
    let load_bad = |data: &[u8]| {
        std::fs::write(&bad, data).unwrap();
        file::load(&bad).err().expect("refused")
    };
    assert!(matches!(
        load_bad(&bytes[..bytes.len() - 1]),
        TableError::Truncated { .. }
    ));
    assert!(matches!(
        load_bad(&bytes[..100]),
        TableError::Truncated { .. }
    ));
    let mut corrupt = bytes.clone();
    corrupt[bytes.len() / 2] ^= 0x10;
    assert!(matches!(load_bad(&corrupt), TableError::Corrupt(_)));
    let mut foreign = bytes.clone();
    foreign[16..23].copy_from_slice(b"oware\0\0");
    assert!(matches!(load_bad(&foreign), TableError::Foreign { .. }));
    let mut not_table = bytes.clone();
    not_table[0] = b'X';
    assert!(matches!(load_bad(&not_table), TableError::NotATable(_)));
    let longer = [&bytes[..], b"extra"].concat();
    let err = load_bad(&longer);
    assert!(matches!(err, TableError::Truncated { .. }));
    assert!(
        err.to_string()
            .ends_with("(truncated, or not a whole table)"),
        "{err}"
    );
    assert!(matches!(load_bad(b"hello\n"), TableError::NotATable(_)));
    let dir = file::load(path.parent().unwrap()).err().expect("refused");
    assert!(matches!(dir, TableError::Directory(_)), "{dir}");
    assert!(dir
        .to_string()
        .ends_with("is a directory, not a table file"));
    std::fs::remove_file(&bad).unwrap();
    std::fs::remove_file(&path).unwrap();
    let err = file::load(&path).err().expect("refused");
    assert!(matches!(err, TableError::Missing(_)));
    assert!(err.to_string().contains("no table file"), "{err}");
}

/// A small deterministic generator (xorshift64*) for the random positions.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// The whole analysis (about 4 minutes of CPU on this machine, 280 MB): Tanaka's figures
/// exactly, the start lost in 78 plies and played out as such, by the solution and by the engine
/// with the solution loaded; that engine against the plain search at every level; and 1,000
/// random reachable positions played out by the solution with the value kept and the distance
/// falling by one each ply. Run with `cargo test --release --test dobutsu_solve -- --ignored`.
#[test]
#[ignore = "the full analysis takes minutes"]
fn full_analysis_reproduces_tanaka_and_plays_perfectly() {
    let start = Position::start();
    let (solution, f) = solve::analyse(&start, &Silent);
    assert_eq!(f.merged.total(), 246_803_167);
    assert_eq!(f.merged.lion_captures, 140_298_614);
    assert_eq!(f.merged.try_losses, 7_018_985);
    assert_eq!(f.merged.undecided + f.merged.no_moves, 99_485_568);
    assert_eq!(f.values_merged.wins(), 56_474_473);
    assert_eq!(f.values_merged.draws(), 2_682_700);
    assert_eq!(f.values_merged.losses() + f.merged.no_moves, 40_328_395);
    assert_eq!(
        f.start,
        Value {
            outcome: Outcome::Loss,
            plies: 78
        }
    );
    assert_eq!(solution.len(), 99_485_568);

    // Both sides play the solution: the second player wins at ply 78.
    let mut pos = start;
    let mut ply = 0;
    while let Some(next) = assert_best_move_keeps_value(&solution, &pos) {
        pos = next;
        ply += 1;
    }
    assert_eq!(ply, 78);
    assert_eq!(pos.side_to_move(), perfectplay::dobutsu::Player::Sente);
    assert_eq!(pos.outcome(), Some(Outcome::Loss));

    the_fitted_evaluation_predicts_the_solution_better(&solution);

    let path = temp_file("full.solution");
    file::save(&solution, &f, &path).unwrap();
    engine_plays_the_start_out(&solution, &path);
    matches_against_the_plain_search(&solution, &path);
    std::fs::remove_file(&path).unwrap();

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut moves = Vec::new();
    for _ in 0..1000 {
        let mut pos = start;
        for _ in 0..rng.below(80) {
            moves.clear();
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut moves);
            pos = pos.play(moves[rng.below(moves.len())]).0;
        }
        let mut plies = 0;
        while let Some(next) = assert_best_move_keeps_value(&solution, &pos) {
            pos = next;
            plies += 1;
            if plies == 40 && solution.probe(&pos).unwrap().outcome == Outcome::Draw {
                break;
            }
        }
    }
}

/// The fitted evaluation (`Weights::linear`) against the hand-set one it replaced, on the quiet
/// positions (no capture for the side to move) that end 10,000 random walks from the start (of
/// up to 59 plies, each a random move that does not leave the Lion to be taken), which the
/// tuner's self-play games did not draw from: the mean squared error of `sigmoid(K × eval)`
/// against the solution's value (win 1, draw 1/2, loss 0), `K` the tuner's fitted scale. The
/// fitted one errs less: measured 0.0586 against 0.0891 over 1,455 positions (the tuner's own
/// positions: 0.0464 against 0.0743).
fn the_fitted_evaluation_predicts_the_solution_better(solution: &Solution) {
    use perfectplay::dobutsu::eval::{evaluate, Weights};
    let (fitted, hand_set) = (Weights::linear(), Weights::hand_set());
    let k = 0.006;
    let mut rng = Rng(7);
    let mut moves = Vec::new();
    let (mut n, mut err_fitted, mut err_hand_set) = (0u32, 0f64, 0f64);
    for _ in 0..10_000 {
        let mut pos = Position::start();
        for _ in 0..rng.below(60) {
            moves.clear();
            pos.legal_moves(&mut moves);
            moves.retain(|&m| pos.play(m).0.outcome().is_none());
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]).0;
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() || moves.iter().any(|&m| pos.play(m).1.capture.is_some()) {
            continue;
        }
        let y = match solution.probe(&pos).unwrap().outcome {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        };
        let sq = |w: &Weights| {
            let p = 1.0 / (1.0 + (-k * f64::from(evaluate(&pos, w))).exp());
            (p - y) * (p - y)
        };
        n += 1;
        err_fitted += sq(&fitted);
        err_hand_set += sq(&hand_set);
    }
    let (fitted, hand_set) = (err_fitted / f64::from(n), err_hand_set / f64::from(n));
    assert_eq!(n, 1455, "quiet positions");
    assert!(
        fitted < hand_set * 0.85,
        "fitted {fitted:.4}, hand-set {hand_set:.4} over {n} positions"
    );
}

/// `perfectplay solve dobutsu --probe FEN --table FILE` prints the position's value and each
/// legal move's, best first; a missing table is a clear error and a failing exit status.
#[test]
fn probe_command_prints_the_value_of_every_move() {
    let start = Position::from_fen("1l1/1c1/1C1/1L1[] w").unwrap();
    let (solution, figures) = solve::analyse(&start, &Silent);
    let path = temp_file("probe.solution");
    file::save(&solution, &figures, &path).unwrap();
    let fen = "1l1/1c1/1C1/1L1[] w";
    let run = |table: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(["solve", "dobutsu", "--probe", fen, "--table"])
            .arg(table)
            .output()
            .unwrap()
    };
    let out = run(&path);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let v = solution.probe(&start).unwrap();
    assert_eq!(lines.next().unwrap(), format!("{fen}: {v}"));
    let mut expected: Vec<_> = solution.move_values(&start);
    expected.sort_by_key(|(_, v)| std::cmp::Reverse(v.unwrap().preference()));
    let listed: Vec<&str> = lines.collect();
    assert_eq!(listed.len(), expected.len());
    for (line, (mv, v)) in listed.iter().zip(&expected) {
        assert_eq!(line.split_whitespace().next().unwrap(), mv.to_string());
        assert!(line.ends_with(&v.unwrap().to_string()), "{line}");
    }
    assert!(
        listed[0].ends_with(&v.to_string()),
        "the best move keeps the value"
    );
    std::fs::remove_file(&path).unwrap();
    let out = run(&path);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no table file"), "{err}");
}

/// What the engine answers when it has loaded the solution at `path`.
fn loaded_line(path: &std::path::Path, solution: &Solution) -> String {
    format!(
        "info string loaded the solution {} ({} positions besides those the rules decide)",
        path.display(),
        solution.len()
    )
}

/// The `score` an engine with the solution loaded reports for a position of value `v`: `mate N`
/// with N the moves to the end (plies halved, rounded up; negative for a loss), `cp 0` for a draw.
fn solution_score(v: Value) -> String {
    let moves = (i32::from(v.plies) + 1) / 2;
    match v.outcome {
        Outcome::Win => format!("mate {moves}"),
        Outcome::Loss => format!("mate -{moves}"),
        Outcome::Draw => "cp 0".into(),
    }
}

/// What the engine said for one `go`: the move, the last `info depth` line's score and its
/// `tbhits` (0 when absent), and the `info string`s.
fn engine_answer(engine: &mut Engine, position: &str) -> (String, String, u64, Vec<String>) {
    engine.send(position);
    engine.send("go nodes 2000");
    let lines = engine.until_bestmove();
    let mv = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
    let info = lines.iter().rev().find(|l| l.starts_with("info depth"));
    let words: Vec<&str> = info.map_or(Vec::new(), |l| l.split(' ').collect());
    let after = |key: &str| {
        words.iter().position(|&w| w == key).map(|i| {
            words[i + 1..]
                .iter()
                .take(if key == "score" { 2 } else { 1 })
                .copied()
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    let score = after("score").unwrap_or_default();
    let tbhits = after("tbhits").map_or(0, |t| t.parse().unwrap());
    let strings = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .cloned()
        .collect();
    (mv, score, tbhits, strings)
}

/// With a solution loaded by `SolutionPath`, the engine plays it: from positions of a small piece
/// set's solution it reports the exact distance as `score mate N` with `tbhits`, and its move
/// keeps the value; playing both sides from a won position ends the game in exactly the stored
/// number of plies; a position outside the solution is searched, saying so; a weaker level does
/// not use it; a bad file is refused with one line and the engine plays on by search.
#[test]
fn the_engine_plays_a_loaded_solution_perfectly() {
    let fen = "1l1/1c1/1C1/GL1[] w";
    let start = Position::from_fen(fen).unwrap();
    let (solution, figures) = solve::analyse(&start, &Silent);
    let path = temp_file("engine.solution");
    file::save(&solution, &figures, &path).unwrap();
    let mut engine = Engine::start();
    engine.send("setoption name Variant value dobutsu");
    // Set twice: the same file is loaded again (and said so) each time.
    for _ in 0..2 {
        engine.send(&format!(
            "setoption name SolutionPath value {}",
            path.display()
        ));
        assert_eq!(engine.sync(), [loaded_line(&path, &solution)]);
    }

    // Every 97th position of the solution's piece set that the rules have not decided (a Lion
    // capture available is decided: the search sees it without the table, and the positions
    // after it are not in the solution).
    let mut checked = [0; 3];
    let mut longest: Option<(Position, Value)> = None;
    for (i, &key) in brute_force(&start).keys().enumerate() {
        let pos = Position::from_key(key).unwrap();
        if i % 97 != 0 || pos.proven().is_some() {
            continue;
        }
        let v = solution.probe(&pos).unwrap();
        let (mv, score, tbhits, strings) = engine_answer(
            &mut engine,
            &format!("position fen {}", pos.write_position()),
        );
        assert!(strings.is_empty(), "{strings:?}");
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.len() > 1 {
            assert_eq!(score, solution_score(v), "{}", pos.write_position());
            assert!(tbhits > 0, "{}", pos.write_position());
        }
        let mv = pos.parse_moves(&[mv.as_str()]).unwrap()[0];
        let after = solution.probe(&pos.play(mv).0).unwrap();
        assert_eq!(after.before_move(), v, "{} {mv}", pos.write_position());
        checked[v.outcome as usize] += 1;
        if v.outcome == Outcome::Win && longest.is_none_or(|(_, l)| v.plies > l.plies) {
            longest = Some((pos, v));
        }
    }
    assert!(
        checked.iter().all(|&n| n > 0),
        "wins, draws and losses: {checked:?}"
    );

    // Both sides played by the engine from the longest win found: the game ends as stored.
    let (from, v) = longest.unwrap();
    let mut game = vec![];
    let mut pos = from;
    while Game::outcome(&pos).is_none() {
        let (mv, ..) = engine_answer(
            &mut engine,
            &format!(
                "position fen {} moves {}",
                from.write_position(),
                game.join(" ")
            ),
        );
        pos = pos.play(pos.parse_moves(&[mv.as_str()]).unwrap()[0]).0;
        game.push(mv);
        assert!(game.len() <= usize::from(v.plies), "{game:?}");
    }
    assert_eq!(game.len(), usize::from(v.plies));
    assert_eq!(Game::outcome(&pos), Some(Outcome::Loss));

    // The start position has other pieces: not in this solution.
    let (_, score, tbhits, strings) = engine_answer(&mut engine, "position startpos");
    assert_eq!(
        strings,
        [
            "info string the position is not in the solution (no game from the start reaches it); \
          playing by search"
        ]
    );
    assert!(score.starts_with("cp"), "{score}");
    assert_eq!(tbhits, 0);

    // Level 5 plays by search.
    let position = format!("position fen {}", from.write_position());
    engine.send("setoption name Level value 5");
    let (_, _, tbhits, _) = engine_answer(&mut engine, &position);
    assert_eq!(tbhits, 0);
    engine.send("setoption name Level value 6");

    // A corrupt file: one error line, then search.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let bad = temp_file("engine-bad.solution");
    std::fs::write(&bad, &bytes).unwrap();
    engine.send(&format!(
        "setoption name SolutionPath value {}",
        bad.display()
    ));
    assert_eq!(
        engine.sync(),
        [format!(
            "info string error: table file {} is corrupt (checksum mismatch); playing by search",
            bad.display()
        )]
    );
    let (_, _, tbhits, _) = engine_answer(&mut engine, &position);
    assert_eq!(tbhits, 0);
    engine.send("setoption name SolutionPath value <empty>");
    assert_eq!(
        engine.sync(),
        ["info string no tables loaded: playing by search"]
    );
}

/// The engine with the full solution plays both sides from the start: every move's score is the
/// exact distance (`mate -39`, `mate 39`, `mate -38`, ...), and Gote wins at ply 78.
fn engine_plays_the_start_out(solution: &Solution, path: &std::path::Path) {
    let mut engine = Engine::start();
    engine.send("setoption name Variant value dobutsu");
    engine.send(&format!(
        "setoption name SolutionPath value {}",
        path.display()
    ));
    let said = engine.sync();
    assert_eq!(said.len(), 1);
    assert!(said[0].contains("(99485568 positions"), "{said:?}");
    let mut game: Vec<String> = Vec::new();
    let mut pos = Position::start();
    while Game::outcome(&pos).is_none() {
        let (mv, score, tbhits, strings) = engine_answer(
            &mut engine,
            &format!("position startpos moves {}", game.join(" ")),
        );
        assert!(strings.is_empty(), "{strings:?}");
        let v = solution.probe(&pos).unwrap();
        assert_eq!(v.plies as usize, 78 - game.len());
        if pos.proven().is_none() {
            assert_eq!(score, solution_score(v), "after {game:?}");
            assert!(tbhits > 0);
        }
        pos = pos.play(pos.parse_moves(&[mv.as_str()]).unwrap()[0]).0;
        game.push(mv);
        assert!(game.len() <= 78, "{game:?}");
    }
    assert_eq!(game.len(), 78);
    assert_eq!(pos.side_to_move(), perfectplay::dobutsu::Player::Sente);
    assert_eq!(Game::outcome(&pos), Some(Outcome::Loss));
}

/// Matches of the engine with the solution against the plain search (20,000 nodes a move) at
/// each level, from the start and from random 4-ply openings, colours swapped in each pair: the
/// solution never loses as the second player from the start, never loses an opening it was given
/// drawn or won, and wins every opening it was given won.
fn matches_against_the_plain_search(solution: &Solution, path: &std::path::Path) {
    let engine = format!(
        "env 'XDG_DATA_HOME={}' '{}' --option AutoSolve=false",
        crate::common::NO_DATA,
        env!("CARGO_BIN_EXE_perfectplay")
    );
    let mut games = 0;
    for level in 1..=6 {
        for (plies, pairs) in [(0, 1), (4, 9)] {
            let pgn = temp_file(&format!("solution-match-{level}-{plies}.pgn"));
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
                .args([
                    "match",
                    "--variant",
                    "dobutsu",
                    "--quiet",
                    "--nodes",
                    "20000",
                ])
                .args(["--engine", &engine, "--engine", &engine])
                .args(["--name", "1:solution", "--name", "2:search"])
                .arg(format!("--option=1:SolutionPath={}", path.display()))
                .arg(format!("--option=2:Level={level}"))
                .args(["--games", &(2 * pairs).to_string()])
                .args(["--opening-plies", &plies.to_string()])
                .args(["--seed", &level.to_string()])
                .arg("--pgn")
                .arg(&pgn)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let records = pgn::parse(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
            assert_eq!(records.len(), 2 * pairs);
            for g in &records {
                let r = pgn::replay::<Position>(g, &Rules::default()).unwrap();
                let end = r.end.expect("every game ends by the rules");
                // The position the engines were given, and the solution engine's side.
                let mut pos = Position::start();
                for word in &g.moves[..plies] {
                    pos = pos.play(pos.parse_moves(&[word.as_str()]).unwrap()[0]).0;
                }
                let solution_side = if g.tag("White") == Some("solution") {
                    0
                } else {
                    1
                };
                let v = solution.probe(&pos).unwrap();
                let given = if pos.side_to_move() as usize == solution_side {
                    v.outcome
                } else {
                    v.outcome.flip()
                };
                let won = end
                    .winner
                    .map(|w| perfectplay::game::Player::index(w) == solution_side);
                let context = format!("level {level}: {:?} {}", g.moves, end.result_string());
                match given {
                    Outcome::Win => assert_eq!(won, Some(true), "{context}"),
                    Outcome::Draw => assert_ne!(won, Some(false), "{context}"),
                    Outcome::Loss => {}
                }
                if plies == 0 && solution_side == 1 {
                    assert_eq!(won, Some(true), "{context}");
                }
                games += 1;
            }
        }
    }
    assert_eq!(games, 120);
}

/// The engine finds the solution in its default place, `$XDG_DATA_HOME/perfectplay/
/// dobutsu.solution`, when Dobutsu is selected, says so, and shows the place as `SolutionPath`'s
/// default.
#[test]
fn the_engine_finds_the_solution_in_its_default_place() {
    let start = Position::from_fen("1l1/1c1/1C1/1L1[] w").unwrap();
    let (solution, figures) = solve::analyse(&start, &Silent);
    let data = temp_file("data");
    let path = data.join("perfectplay").join("dobutsu.solution");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    file::save(&solution, &figures, &path).unwrap();
    let mut engine = Engine::start_with_data(&[], data.to_str().unwrap());
    engine.send("setoption name Variant value dobutsu");
    assert_eq!(engine.sync(), [loaded_line(&path, &solution)]);
    engine.send("uci");
    let listed = engine.read_until("uciok", |l| l == "uciok");
    assert!(listed.contains(&format!(
        "option name SolutionPath type string default {}",
        path.display()
    )));
    let (_, score, tbhits, _) = engine_answer(&mut engine, "position fen 1l1/1c1/1C1/1L1[] w");
    assert_eq!(score, solution_score(solution.probe(&start).unwrap()));
    assert!(tbhits > 0);
    std::fs::remove_dir_all(&data).unwrap();
}

/// A bad solution file given as a preset is a warning on standard error (the log's default level
/// shows it), and the engine plays on; `--table` without `--probe` is a usage error rather than
/// the start of a solve.
#[test]
fn a_bad_preset_solution_is_a_warning_and_table_needs_probe() {
    let missing = temp_file("no-such.solution");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["--option", "Variant=dobutsu", "--option"])
        .arg(format!("SolutionPath={}", missing.display()))
        .env("XDG_DATA_HOME", crate::common::NO_DATA)
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"position startpos\ngo nodes 100\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "info string error: no table file at {}; playing by search",
            missing.display()
        )),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().last().unwrap().starts_with("bestmove "),
        "{stdout}"
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["solve", "dobutsu", "--table"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--probe"));
}

/// `AutoSolve`: two engines started together on a data folder without the solution build it
/// there once (one builds, the other says another engine does), both play by search meanwhile,
/// and each loads it once written and plays the start as lost in 78 plies; no lock or temporary
/// file is left. The whole analysis: about a minute or two (run with `--ignored`, as CI does).
#[test]
#[ignore]
fn a_missing_solution_is_built_in_the_background_once() {
    let data = temp_file("autosolve");
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let path = data.join("perfectplay").join("dobutsu.solution");
    let args = [
        "--option",
        "AutoSolve=true",
        "--option",
        "UCI_Variant=dobutsu",
    ];
    let mut engines = [
        Engine::start_with_data(&args, data.to_str().unwrap()),
        Engine::start_with_data(&args, data.to_str().unwrap()),
    ];
    let mut said = Vec::new();
    for engine in &mut engines {
        engine.send("go depth 4");
        let out = engine.until_bestmove();
        said.extend(out.into_iter().filter(|l| l.starts_with("info string")));
    }
    said.sort();
    assert_eq!(said.len(), 2, "{said:#?}");
    assert!(
        said[0].starts_with("info string another engine is building the Dobutsu Shogi solution")
    );
    assert!(said[1].starts_with("info string building the Dobutsu Shogi solution"));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(900);
    for engine in &mut engines {
        loop {
            assert!(std::time::Instant::now() < deadline, "no solution written");
            engine.send("go depth 1");
            let out = engine.until_bestmove();
            if let Some(line) = out.iter().find(|l| l.starts_with("info string")) {
                assert_eq!(
                    line,
                    &format!(
                        "info string loaded the solution {} (99485568 positions besides those \
                         the rules decide)",
                        path.display()
                    )
                );
                break;
            }
            std::thread::sleep(std::time::Duration::from_secs(2));
        }
        engine.send("position startpos");
        engine.send("go depth 5");
        let out = engine.until_bestmove();
        let last = out
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        assert!(
            last.contains(" score mate -39 ") && last.contains(" tbhits "),
            "{last}"
        );
    }
    let left: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["dobutsu.solution"]);
    std::fs::remove_dir_all(&data).unwrap();
}

/// With a solution loaded, `MultiPV` lines carry the solution's exact value of each move, best
/// first, and `UCI_ShowWDL` the certain result of each: `1000 0 0`, `0 1000 0` or `0 0 1000`.
#[test]
fn multipv_and_wdl_lines_from_a_loaded_solution_are_exact() {
    let start = Position::from_fen("1l1/1c1/1C1/GL1[] w").unwrap();
    let (solution, figures) = solve::analyse(&start, &Silent);
    let path = temp_file("multipv.solution");
    file::save(&solution, &figures, &path).unwrap();
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Variant value dobutsu");
    engine.send(&format!(
        "setoption name SolutionPath value {}",
        path.display()
    ));
    engine.send("setoption name MultiPV value 3");
    engine.send("setoption name UCI_ShowWDL value true");
    assert_eq!(engine.sync(), [loaded_line(&path, &solution)]);
    let mut checked = [0; 3];
    for (i, &key) in brute_force(&start).keys().enumerate() {
        let pos = Position::from_key(key).unwrap();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if i % 41 != 0 || pos.proven().is_some() || moves.len() < 3 {
            continue;
        }
        engine.send(&format!("position fen {}", pos.write_position()));
        engine.send("go depth 3");
        let out = engine.until_bestmove();
        let lines: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
        assert_eq!(lines.len(), 3, "{}: {out:#?}", pos.write_position());
        let mut seen = Vec::new();
        for (rank, line) in lines.iter().enumerate() {
            let words: Vec<&str> = line.split(' ').collect();
            let at = |key: &str| words.iter().position(|&w| w == key).unwrap() + 1;
            assert_eq!(words[at("multipv")], (rank + 1).to_string());
            let mv = pos.parse_moves(&[words[at("pv")]]).unwrap()[0];
            assert!(!seen.contains(&mv), "{line}");
            seen.push(mv);
            let v = solution.probe(&pos.play(mv).0).unwrap().before_move();
            let score = format!("{} {}", words[at("score")], words[at("score") + 1]);
            assert_eq!(score, solution_score(v), "{} {line}", pos.write_position());
            let wdl = &words[at("wdl")..at("wdl") + 3];
            let expected = match v.outcome {
                Outcome::Win => ["1000", "0", "0"],
                Outcome::Draw => ["0", "1000", "0"],
                Outcome::Loss => ["0", "0", "1000"],
            };
            assert_eq!(wdl, expected, "{line}");
            checked[v.outcome as usize] += 1;
        }
    }
    assert!(
        checked.iter().all(|&n| n > 0),
        "wins, draws and losses: {checked:?}"
    );
    std::fs::remove_file(&path).unwrap();
}
