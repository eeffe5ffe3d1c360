//! The Dobutsu Shogi solver checked against a brute-force solver on reduced piece sets (always
//! run), and the full analysis against Tanaka's figures (ignored: it takes minutes).

use std::collections::HashMap;

use perfectplay::dobutsu::solve::{self, Silent, Solution, Value};
use perfectplay::dobutsu::Position;
use perfectplay::game::Outcome;

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
    let mut d = 1u8;
    loop {
        let mut changed = false;
        let before = value.clone();
        for (i, kids) in children.iter().enumerate() {
            if before[i].is_some() {
                continue;
            }
            let mut all_win = true;
            let mut longest = 0;
            let mut wins = false;
            for &c in kids {
                match before[c] {
                    Some(v) if v.outcome == Outcome::Loss && v.plies + 1 == d => wins = true,
                    Some(v) if v.outcome == Outcome::Win => longest = longest.max(v.plies),
                    _ => all_win = false,
                }
            }
            if wins {
                value[i] = Some(Value {
                    outcome: Outcome::Win,
                    plies: d,
                });
                changed = true;
            } else if all_win && longest + 1 == d {
                value[i] = Some(Value {
                    outcome: Outcome::Loss,
                    plies: d,
                });
                changed = true;
            }
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
fn giraffe_elephant_and_chicks_match_brute_force() {
    let (_, n) = check_against_brute_force("1le/1c1/1C1/GL1[] w");
    assert!(n > 100_000, "{n}");
}
