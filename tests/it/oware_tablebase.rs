//! The Oware tablebase checked against a brute-force solver written here (value iteration over
//! every position with few seeds, found through the rules' moves, not through the table's index
//! or un-sowing), the sizes of its layers, its files, play-outs from its decisive positions, and
//! the position the Awari solvers published (ignored: it needs the 16-seed layers). The value
//! checks read their tables from the layer files in `$PERFECTPLAY_TEST_TABLES` when it is set
//! (`scripts/mpi-check.sh`: the files a split build wrote) instead of building them.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use crate::common::fresh_dir;
use perfectplay::oware::tablebase::{
    estimate, file, index, reachable, Checkpoint, Pass, Tablebase, Value,
};
use perfectplay::oware::{Board, Move, RuleSet, Side};
use perfectplay::retro::file::TableError;
use perfectplay::retro::Silent;

/// The directory whose layer files the value checks read instead of building their tables,
/// when set: `scripts/mpi-check.sh` gives the files its split builds wrote.
const TABLES_ENV: &str = "PERFECTPLAY_TEST_TABLES";

/// The table of `variant` up to `seeds` seeds for the value checks: built here, or loaded from
/// the directory [`TABLES_ENV`] names, which must hold those layers whole.
fn table(variant: RuleSet, seeds: u32) -> Tablebase {
    let Some(dir) = std::env::var_os(TABLES_ENV) else {
        return Tablebase::build(variant, seeds, &Silent);
    };
    let (tb, problems) = file::load(Path::new(&dir), variant, Some(seeds));
    assert!(
        problems.is_empty() && tb.seeds() == Some(seeds),
        "{TABLES_ENV}={}: {variant} up to {seeds} seeds: {problems:?}",
        dir.display()
    );
    tb
}

/// A board with these houses (the mover's row first, South to move) and the seeds not on the
/// board split between the stores.
fn board(houses: [u8; 12], variant: RuleSet) -> Board {
    let n: u32 = houses.iter().map(|&h| h as u32).sum();
    let off = 48 - n as u8;
    Board::new(houses, [off / 2, off - off / 2], Side::South, variant).expect("48 seeds")
}

/// The houses of a board from its mover's side.
fn relative(b: &Board) -> [u8; 12] {
    let h = b.houses();
    let mut r = [0u8; 12];
    match b.side_to_move() {
        Side::South => r = h,
        Side::North => {
            r[..6].copy_from_slice(&h[6..]);
            r[6..].copy_from_slice(&h[..6]);
        }
    }
    r
}

/// Every position with at most `max` seeds on the board (houses, mover's row first).
fn all_positions(max: u32) -> Vec<[u8; 12]> {
    fn rec(h: &mut [u8; 12], at: usize, left: u32, out: &mut Vec<[u8; 12]>) {
        if at == 12 {
            out.push(*h);
            return;
        }
        for s in 0..=left {
            h[at] = s as u8;
            rec(h, at + 1, left - s, out);
        }
        h[at] = 0;
    }
    let mut out = Vec::new();
    rec(&mut [0; 12], 0, max, &mut out);
    out
}

/// The brute-force values of every position with at most `max` seeds, layer by layer (a capture
/// leads to a smaller layer, solved before), each by its own rounds over the moves of the rules.
/// `awari`: value iteration of the game cut after `k` plies, for growing `k` until nothing
/// changes, a cut game giving the mover 0 (the seeds left split evenly). `abapa`: first the
/// bounds `(low_A, high_A)` each side forces by reaching an exit (a capture or the end of the
/// game) without any repetition, by the same value iteration with a cut game giving the mover
/// its worst, `-n` (its best, `n`, for the upper bound); then for each threshold `t` the
/// greatest set `Y_t` from which one side (`X`) gets at least `t` whatever the history: a
/// position is in it when an exit is forced (`low_A >= t` with `X` to move, `high_A <= -t`
/// with the other side to move), or when a cut there gives `X` at least `t` (the mover's row
/// less the opponent's at least `t`, or at most `-t`; any position no move leads to, which is
/// never seen twice) and `X`, to move, has a move that stays in the layer and in `Y_t`, or,
/// not to move, every move stays in the layer and in `Y_t`. The bounds are the largest `t`
/// with the position in `Y_t` (`X` to move) and the least `-t` (the other side to move). A
/// position without a legal move ends the game with each player taking their own row.
fn brute_force(max: u32, variant: RuleSet) -> HashMap<[u8; 12], (i32, i32)> {
    let mut values: HashMap<[u8; 12], (i32, i32)> = HashMap::new();
    for n in 0..=max {
        let positions: Vec<[u8; 12]> = all_positions(n)
            .into_iter()
            .filter(|p| p.iter().map(|&h| h as u32).sum::<u32>() == n)
            .collect();
        let layer = brute_force_layer(&positions, n as i32, variant, &values);
        values.extend(positions.into_iter().zip(layer));
    }
    values
}

/// [`brute_force`]'s values of one layer (`positions`, all of `n` seeds), the smaller layers'
/// in `lower`.
fn brute_force_layer(
    positions: &[[u8; 12]],
    n: i32,
    variant: RuleSet,
    lower: &HashMap<[u8; 12], (i32, i32)>,
) -> Vec<(i32, i32)> {
    let id: HashMap<[u8; 12], usize> = positions.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    // Per position: the children of its moves that stay in the layer, its exits' values for
    // the lower and upper bounds (captures, or the end of the game), and whether it has a legal
    // move.
    struct Node {
        inside: Vec<usize>,
        exits: Vec<(i32, i32)>,
        moves: bool,
        cut: i32,
        seen_once: bool,
    }
    let nodes: Vec<Node> = positions
        .iter()
        .map(|p| {
            let b = board(*p, variant);
            let list = b.legal_move_list();
            let mine: i32 = p[..6].iter().map(|&h| h as i32).sum();
            let cut = 2 * mine - n;
            let mut node = Node {
                inside: Vec::new(),
                exits: Vec::new(),
                moves: !list.is_empty(),
                cut,
                seen_once: p[6..].iter().all(|&h| h > 0),
            };
            if list.is_empty() {
                node.exits.push((cut, cut));
            }
            for &mv in list.iter() {
                let (c, cap) = b.sow_and_capture(mv);
                let child = relative(&c);
                if cap == 0 {
                    node.inside.push(id[&child]);
                } else {
                    let (l, h) = lower[&child];
                    node.exits.push((cap as i32 - h, cap as i32 - l));
                }
            }
            node
        })
        .collect();
    let cut_game = match variant {
        RuleSet::Awari => (0, 0),
        RuleSet::Abapa => (-n, n),
    };
    let mut low: Vec<i32> = vec![cut_game.0; positions.len()];
    let mut high: Vec<i32> = vec![cut_game.1; positions.len()];
    loop {
        let mut changed = false;
        let (mut nl, mut nh) = (low.clone(), high.clone());
        for (i, node) in nodes.iter().enumerate() {
            let inside_low = node.inside.iter().map(|&j| -high[j]);
            let inside_high = node.inside.iter().map(|&j| -low[j]);
            nl[i] = node
                .exits
                .iter()
                .map(|e| e.0)
                .chain(inside_low)
                .max()
                .unwrap();
            nh[i] = node
                .exits
                .iter()
                .map(|e| e.1)
                .chain(inside_high)
                .max()
                .unwrap();
            changed |= nl[i] != low[i] || nh[i] != high[i];
        }
        low = nl;
        high = nh;
        if !changed {
            break;
        }
    }
    if variant == RuleSet::Awari {
        return low.into_iter().zip(high).collect();
    }
    let (low_a, high_a) = (low, high);
    let mut low = vec![-n; positions.len()];
    let mut high = vec![n; positions.len()];
    for t in -n + 1..=n {
        // Y_t with X to move (`x`) and with the other side to move (`o`), from everything down.
        let mut x = vec![true; positions.len()];
        let mut o = vec![true; positions.len()];
        loop {
            let mut changed = false;
            for (i, node) in nodes.iter().enumerate() {
                let new_x = low_a[i] >= t
                    || ((node.cut >= t || node.seen_once) && node.inside.iter().any(|&j| o[j]));
                let new_o = high_a[i] <= -t
                    || ((node.cut <= -t || node.seen_once)
                        && node.moves
                        && node.exits.iter().all(|e| e.1 <= -t)
                        && node.inside.iter().all(|&j| x[j]));
                changed |= new_x != x[i] || new_o != o[i];
                x[i] = new_x;
                o[i] = new_o;
            }
            if !changed {
                break;
            }
        }
        for i in 0..positions.len() {
            if x[i] {
                low[i] = t;
            }
            if o[i] {
                high[i] = high[i].min(-t);
            }
        }
    }
    low.into_iter().zip(high).collect()
}

fn check_against_brute_force(variant: RuleSet, max: u32) {
    let tb = table(variant, max);
    let expected = brute_force(max, variant);
    let mut bounded = 0;
    for (p, (low, high)) in &expected {
        let v = tb.probe(&board(*p, variant)).expect("in the table");
        assert_eq!(
            (v.low as i32, v.high as i32),
            (*low, *high),
            "{variant} {p:?}"
        );
        // The layers hold (and count) the positions that can follow a move; the others are
        // answered from their moves.
        let held = reachable::rank(index::word(p)).is_some();
        bounded += (held && low != high) as u64;
    }
    assert_eq!(
        bounded,
        (0..=max).map(|n| tb.bounded(n).unwrap()).sum::<u64>()
    );
    if variant == RuleSet::Awari {
        assert_eq!(bounded, 0);
    }
}

#[test]
fn awari_values_equal_brute_force_up_to_8_seeds() {
    check_against_brute_force(RuleSet::Awari, 8);
}

#[test]
fn abapa_bounds_equal_brute_force_up_to_8_seeds() {
    check_against_brute_force(RuleSet::Abapa, 8);
}

#[test]
fn layers_have_their_sizes_and_values_in_range() {
    for variant in [RuleSet::Abapa, RuleSet::Awari] {
        let tb = Tablebase::build(variant, 6, &Silent);
        assert_eq!(tb.seeds(), Some(6));
        for n in 0..=6u32 {
            let all: Vec<[u8; 12]> = all_positions(n)
                .into_iter()
                .filter(|p| p.iter().map(|&h| h as u32).sum::<u32>() == n)
                .collect();
            assert_eq!(all.len() as u64, index::layer_len(n));
            let mut ranks: Vec<u64> = Vec::new();
            for p in &all {
                let w = index::word(p);
                let r = index::rank(w);
                assert_eq!(index::unrank(r, n), w);
                ranks.push(r);
                let v = tb.probe(&board(*p, variant)).unwrap();
                let n = n as i8;
                assert!(-n <= v.low && v.low <= v.high && v.high <= n, "{p:?} {v}");
            }
            ranks.sort();
            ranks.dedup();
            assert_eq!(ranks.len(), all.len(), "ranks are distinct");
            assert_eq!(ranks.last(), Some(&(index::layer_len(n) - 1)));
        }
    }
}

/// Plays from `start` until the game ends, each move chosen by `choose` (given the board and
/// whether its mover is the first mover), the game ending at the `repetitions`-th occurrence of
/// a position (the seeds left split evenly under `awari`, each player's own row under `abapa`) or
/// when the mover has no legal move; the first mover's margin at the end, from the seeds on the
/// board at the start.
fn play_game(
    tb: &Tablebase,
    start: Board,
    repetitions: u32,
    mut choose: impl FnMut(&Board, bool) -> Move,
) -> i32 {
    let first = start.side_to_move();
    let o = first.opponent();
    let gained = |b: &Board, side: Side| (b.store(side) - start.store(side)) as i32;
    let mut b = start;
    let mut seen: HashMap<Board, u32> = HashMap::new();
    for _ in 0..100_000 {
        let count = seen.entry(b).or_default();
        *count += 1;
        let captured = gained(&b, first) - gained(&b, o);
        let rows = b.row_seeds(first) as i32 - b.row_seeds(o) as i32;
        if *count == repetitions {
            return match tb.variant() {
                RuleSet::Awari => captured,
                RuleSet::Abapa => captured + rows,
            };
        }
        if b.legal_move_list().is_empty() {
            return captured + rows;
        }
        let mv = choose(&b, b.side_to_move() == first);
        let (next, taken) = b.sow_and_capture(mv);
        if taken > 0 {
            seen.clear();
        }
        b = next;
    }
    panic!("the game from {start} did not end");
}

/// Plays both sides from `start` with the table's best moves, under the cycle rule's third
/// repetition; the first mover's margin at the end ([`play_game`]).
fn play_out(tb: &Tablebase, start: Board) -> i32 {
    play_game(tb, start, 3, |b, _| {
        tb.best_move(b, 1_000_000).expect("a move").0
    })
}

#[test]
fn play_outs_from_decisive_positions_end_with_the_stored_value() {
    for variant in [RuleSet::Awari, RuleSet::Abapa] {
        let tb = table(variant, 4);
        let mut games = 0;
        for p in all_positions(4) {
            let b = board(p, variant);
            let v = tb.probe(&b).unwrap();
            let Some(exact) = v.exact() else { continue };
            if exact == 0 || b.legal_move_list().is_empty() {
                continue;
            }
            assert_eq!(play_out(&tb, b), exact as i32, "{variant} from {b}");
            games += 1;
        }
        assert!(games > 500, "{games} play-outs");
    }
}

/// Plays from `start` until the game ends ([`play_game`], `repetitions`), the table's best moves
/// for one side (the first mover when `table_first`) and moves drawn at random (a xorshift from
/// `seed`) for the other; the first mover's margin at the end.
fn play_against_random(
    tb: &Tablebase,
    start: Board,
    table_first: bool,
    repetitions: u32,
    mut seed: u64,
) -> i32 {
    play_game(tb, start, repetitions, |b, first| {
        if first == table_first {
            return tb.best_move(b, 100_000).expect("a move").0;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let moves = b.legal_move_list();
        let k = (seed % moves.len() as u64) as usize;
        moves.iter().nth(k).copied().expect("a move")
    })
}

/// The abapa bounds hold in play, whatever the cycle rule's count: from every position up to 5
/// seeds, the table's best moves secure at least the lower bound against moves drawn at random,
/// and hold the opponent to at most the upper bound, the game ending at the second or the third
/// occurrence of a position (each player taking their own row).
#[test]
fn abapa_bounds_hold_against_random_play_at_2_and_3_repetitions() {
    let tb = table(RuleSet::Abapa, 5);
    let mut games = 0;
    for (k, p) in all_positions(5).into_iter().enumerate() {
        let b = board(p, RuleSet::Abapa);
        let v = tb.probe(&b).unwrap();
        for repetitions in [2, 3] {
            for seed in [1, 2] {
                let seed = (seed * 0x9E37_79B9_7F4A_7C15) ^ (k as u64 + 1);
                let low = play_against_random(&tb, b, true, repetitions, seed);
                assert!(low >= v.low as i32, "{b} ({v}): {low} at {repetitions}");
                let high = play_against_random(&tb, b, false, repetitions, seed);
                assert!(high <= v.high as i32, "{b} ({v}): {high} at {repetitions}");
                games += 2;
            }
        }
    }
    assert!(games > 20_000, "{games} games");
}

/// The distances to the end of every position with at most `max` seeds, by value iteration
/// over the moves of the rules (not the table's un-sowing): only a position valued exactly has
/// one; 0 at the end of the game; the side ahead (a positive value) takes the least `1 + d`
/// over its moves that keep the value (their value for it, the seeds captured minus the child's
/// upper bound, is the position's), the side behind the most, and none when one of its own has
/// none; a value of 0 before the end has none. Starting from none everywhere, rounds until
/// nothing changes give the least distances, the ones the table promises.
fn brute_force_distances(tb: &Tablebase, max: u32) -> HashMap<[u8; 12], Option<u32>> {
    let positions = all_positions(max);
    let at: HashMap<[u8; 12], usize> = positions.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    // Per position: its value, whether the game is over, and the children its moves that keep
    // the value lead to.
    let nodes: Vec<(i8, bool, Vec<usize>)> = positions
        .iter()
        .map(|&p| {
            let b = board(p, tb.variant());
            let v = tb.probe(&b).unwrap();
            let moves = b.legal_move_list();
            let keep = tb
                .move_values(&b)
                .unwrap()
                .into_iter()
                .filter(|(_, mv)| v.exact().is_some() && mv.low == v.low)
                .map(|(m, _)| at[&relative(&b.sow_and_capture(m).0)])
                .collect();
            (
                v.exact().unwrap_or(0),
                moves.is_empty() && v.exact().is_some(),
                keep,
            )
        })
        .collect();
    let mut d: Vec<Option<u32>> = nodes.iter().map(|n| n.1.then_some(0)).collect();
    loop {
        let mut changed = false;
        for (i, (v, end, keep)) in nodes.iter().enumerate() {
            if *end || *v == 0 {
                continue;
            }
            let children = keep.iter().map(|&c| d[c].map(|x| x + 1));
            let new = if *v > 0 {
                children.flatten().min()
            } else {
                children
                    .collect::<Option<Vec<u32>>>()
                    .and_then(|x| x.into_iter().max())
            };
            if new != d[i] {
                d[i] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    positions.into_iter().zip(d).collect()
}

/// Every distance the table gives up to 8 seeds (the positions it holds and those it answers by
/// their moves), both variants, is the brute force's least distance.
#[test]
fn distances_equal_brute_force_up_to_8_seeds() {
    for variant in [RuleSet::Awari, RuleSet::Abapa] {
        let tb = table(variant, 8);
        let expected = brute_force_distances(&tb, 8);
        let mut known = 0;
        for (p, d) in &expected {
            let b = board(*p, variant);
            assert_eq!(
                tb.distance(&b),
                *d,
                "{variant} {b} ({})",
                tb.probe(&b).unwrap()
            );
            known += d.is_some() as u32;
        }
        assert!(known > 50_000, "{variant}: {known} distances");
    }
}

/// From every decisive position up to 7 seeds with a distance, both variants, the table's best
/// moves for both sides end the game (no legal move for the side to move) in exactly the stored
/// number of plies, the value kept; on the way, no move of the side behind that keeps the value
/// lasts longer, and none of the side ahead ends it sooner.
#[test]
fn play_outs_from_decisive_positions_end_in_the_stored_distance() {
    for variant in [RuleSet::Awari, RuleSet::Abapa] {
        let tb = table(variant, 7);
        let mut games = 0;
        for p in all_positions(7) {
            let start = board(p, variant);
            let Some(value) = tb.probe(&start).unwrap().exact() else {
                continue;
            };
            let Some(plies) = tb.distance(&start) else {
                continue;
            };
            if value == 0 {
                continue;
            }
            let (mut b, mut v, mut d) = (start, value, plies);
            while d > 0 {
                for (m, mv) in tb.move_values(&b).unwrap() {
                    if mv.low != v {
                        continue;
                    }
                    let after = tb.distance(&b.sow_and_capture(m).0).map(|x| x + 1);
                    match after {
                        Some(x) if v > 0 => assert!(x >= d, "{variant} {b}: {m} ends sooner"),
                        Some(x) => assert!(x <= d, "{variant} {b}: {m} lasts longer"),
                        None => assert!(v > 0, "{variant} {b}: {m} lasts for ever"),
                    }
                }
                let (m, mv) = tb.best_move(&b, 0).unwrap();
                assert_eq!(mv.exact(), Some(v), "{variant} {b}: {m} keeps the value");
                let (next, captured) = b.sow_and_capture(m);
                v = tb.probe(&next).unwrap().exact().unwrap();
                assert_eq!(captured as i8 - v, mv.low);
                b = next;
                d -= 1;
                assert_eq!(tb.distance(&b), Some(d), "{variant} from {start}, at {b}");
            }
            assert!(
                b.legal_move_list().is_empty(),
                "{variant} from {start}: {b} goes on"
            );
            games += 1;
        }
        assert!(games > 10_000, "{variant}: {games} play-outs");
    }
}

/// A fresh directory under the target directory for one test.
/// Asserts that the layer files of 0 to `seeds` seeds of `variant` in `a` and `b` are the same,
/// byte for byte.
fn assert_same_layers(variant: RuleSet, seeds: u32, a: &Path, b: &Path) {
    for n in 0..=seeds {
        let name = file::layer_name(variant, n);
        let (x, y) = (
            std::fs::read(a.join(&name)).unwrap(),
            std::fs::read(b.join(&name)).unwrap(),
        );
        assert!(x == y, "{name} differs");
    }
}

/// Runs `perfectplay tablebase ARGS --dir DIR`: whether it succeeded, its standard output and
/// its standard error.
fn tablebase(args: &[&str], dir: &Path) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .arg("tablebase")
        .args(args)
        .arg("--dir")
        .arg(dir)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn files_round_trip_and_bad_files_are_refused() {
    let dir = fresh_dir("oware_tablebase_files");
    for variant in [RuleSet::Abapa, RuleSet::Awari] {
        let tb = Tablebase::build(variant, 4, &Silent);
        let written = file::save(&tb, &dir).unwrap();
        assert_eq!(written.len(), 5);
        let (loaded, problems) = file::load(&dir, variant, None);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(loaded.seeds(), Some(4));
        for p in all_positions(4) {
            let b = board(p, variant);
            assert_eq!(loaded.probe(&b), tb.probe(&b));
            assert_eq!(loaded.distance(&b), tb.distance(&b));
        }
    }
    let name = |n| dir.join(file::layer_name(RuleSet::Awari, n));
    // One byte changed in layer 3: refused, so the table stops at 2 seeds.
    let mut bytes = std::fs::read(name(3)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(name(3), &bytes).unwrap();
    let (loaded, problems) = file::load(&dir, RuleSet::Awari, None);
    assert_eq!(loaded.seeds(), Some(2));
    assert!(
        matches!(&problems[..], [TableError::Corrupt(p)] if *p == name(3)),
        "{problems:?}"
    );
    // Layer 2 truncated, and a stray file: both reported.
    let bytes = std::fs::read(name(2)).unwrap();
    std::fs::write(name(2), &bytes[..bytes.len() - 10]).unwrap();
    std::fs::write(dir.join("oware-awari-03.tb.tmp99"), b"left over").unwrap();
    let (loaded, problems) = file::load(&dir, RuleSet::Awari, None);
    assert_eq!(loaded.seeds(), Some(1));
    assert!(
        matches!(&problems[..], [TableError::Truncated { path, .. }, TableError::Inconsistent { path: stray, .. }]
            if *path == name(2) && stray.ends_with("oware-awari-03.tb.tmp99")),
        "{problems:?}"
    );
    // The abapa layer 1 under the name of awari layer 1: another variant, refused (by its
    // table version, 4 for abapa, before its counts are read).
    std::fs::copy(dir.join(file::layer_name(RuleSet::Abapa, 1)), name(1)).unwrap();
    let (loaded, problems) = file::load(&dir, RuleSet::Awari, Some(4));
    assert_eq!(loaded.seeds(), Some(0));
    assert!(
        matches!(&problems[0], TableError::Foreign { path, found_version: 4, .. } if *path == name(1)),
        "{problems:?}"
    );
    // An abapa layer of the builds before the cycle pass (table version 3, looser bounds):
    // refused by its version, not read as today's; awari's layers are still version 3.
    let abapa = |n| dir.join(file::layer_name(RuleSet::Abapa, n));
    let mut bytes = std::fs::read(abapa(2)).unwrap();
    assert_eq!(bytes[12..16], 4u32.to_le_bytes());
    bytes[12..16].copy_from_slice(&3u32.to_le_bytes());
    std::fs::write(abapa(2), &bytes).unwrap();
    let (loaded, problems) = file::load(&dir, RuleSet::Abapa, None);
    assert_eq!(loaded.seeds(), Some(1));
    assert!(
        matches!(&problems[0], TableError::Foreign { path, found_version: 3, expected_version: 4, .. }
            if *path == abapa(2)),
        "{problems:?}"
    );
    assert_eq!(std::fs::read(name(0)).unwrap()[12..16], 3u32.to_le_bytes());
    // Nothing there: an empty table, and with `up_to` the missing layer 0 is named.
    let empty = fresh_dir("oware_tablebase_empty");
    let (loaded, problems) = file::load(&empty, RuleSet::Awari, Some(3));
    assert_eq!(loaded.seeds(), None);
    assert!(matches!(&problems[..], [TableError::Missing(p)] if p.ends_with("oware-awari-00.tb")));
}

/// `tablebase probe` for a position beyond the layers built says which layers are there and the
/// command that builds the rest.
#[test]
fn probe_beyond_the_layers_built_says_what_is_there_and_how_to_build_the_rest() {
    let dir = fresh_dir("oware_tablebase_probe_missing");
    let probe = |diagram: &str| {
        let (ok, _, err) = tablebase(&["probe", "--variant", "awari", diagram], &dir);
        assert!(!ok);
        err
    };
    // 14 seeds on the board: more than probe builds in memory.
    let fourteen = "2-2-2-1-0-0-2-2-2-1-0-0-17-17-S";
    let err = probe(fourteen);
    let command = format!(
        "`perfectplay tablebase build --seeds 14 --variant awari --dir {}`",
        dir.display()
    );
    assert!(
        err.contains(&format!(
            "the position has 14 seeds on the board and {} holds no awari layer: build the layers \
             of 0 to 14 seeds with {command}",
            dir.display()
        )),
        "{err}"
    );
    let tb = Tablebase::build(RuleSet::Awari, 3, &Silent);
    file::save(&tb, &dir).unwrap();
    let err = probe(fourteen);
    assert!(
        err.contains(&format!(
            "{} holds the awari layers of 0 to 3 seeds: build the layers of 4 to 14 seeds with \
             {command}",
            dir.display()
        )),
        "{err}"
    );
    assert!(!err.contains("none"), "{err}");
}

/// `tablebase build` says what the build takes before it starts (positions per layer and in all,
/// memory at the peak, disk, time) and refuses a build this machine cannot hold, naming what is
/// short, with a status that says so.
#[test]
fn build_says_what_it_takes_and_refuses_what_the_machine_cannot_hold() {
    let dir = fresh_dir("oware_tablebase_estimate");
    let build = |seeds: &str| tablebase(&["build", "--variant", "awari", "--seeds", seeds], &dir);
    // The whole game. Layer 48's moves pass alone holds 4 bytes per position of it, and then
    // its sweeps over the layers below each read one layer (no machine these tests run on has
    // memory beside it for more): the largest, layer 46, 2 * 136,883,249,790 bytes beside 4 *
    // 203,648,015,935, 1013.6 GiB, is the peak (the later passes hold 5 bytes per position: the
    // state words and the values, the best exits parked on disk).
    let (ok, out, err) = build("48");
    assert!(!ok, "{out}{err}");
    assert!(
        err.contains(
            "not building awari up to 48 seeds: it needs 1013.6 GiB of memory at its peak \
             (building layer 48) and this machine has "
        ),
        "{err}"
    );
    // Beside the layer files, layer 48's checkpoints: the moves pass's (4 bytes a position)
    // beside the values' (2 bytes) while that is written, 1.11 TiB.
    assert!(
        err.contains("its layer files take 1.92 TiB (and 1.11 TiB more while a layer is built)"),
        "{err}"
    );
    assert!(err.contains("pass --force to start anyway"), "{err}");
    // Layers 30 to 46 are read, each in a sweep of its own (47 with 46, and 0 to 29 with 30).
    assert!(
        out.contains(
            "to build: layer 48:  203648015935 positions, 1013.6 GiB at the peak (its moves \
             pass in 18 sweeps over the layers below)"
        ),
        "{out}"
    );
    assert!(
        out.contains("to build: awari layers 0 to 48: 1056351956205 positions;"),
        "{out}"
    );
    // The same on 64 ranks of 256 GiB (`--ranks`, the check alone): each holds a 64th of what
    // the plain build holds at the peak with the layers below mapped, layer 48's moves pass
    // (its state words, 4 bytes a position, and the layers of 30 to 46 seeds its captures lead
    // into, 2 bytes a position), 2,171 GB in all, plus its exchanges' 64 MiB and the overhead
    // (8 MiB): 31.7 GiB. No checkpoint (a split build keeps none), but layer 48's best exits
    // parked, 1 byte a position.
    let (_, out, err) = tablebase(
        &[
            "build",
            "--variant",
            "awari",
            "--seeds",
            "48",
            "--ranks",
            "64",
            "--memory",
            "256G",
        ],
        &dir,
    );
    assert!(
        out.contains(
            "to build: awari layers 0 to 48: 1056351956205 positions; memory 31.7 GiB on each \
             of 64 ranks at the peak (building layer 48), 256.0 GiB available of 256.0 GiB; \
             disk 1.92 TiB of layer files and 189.7 GiB more while a layer is built,"
        ),
        "{out}"
    );
    assert!(!err.contains("of memory"), "{err}");
    // 26 seeds on 4 ranks of 4 GiB: 1.3 GiB each, where one process needs 5.0 GiB (4.6 GiB of
    // layer files, and layer 26's best exits parked); the time is the plain build's core-seconds
    // times 2.5 (the split build's CPU), over the ranks' cores.
    let (ok, out, err) = tablebase(
        &[
            "build",
            "--variant",
            "awari",
            "--seeds",
            "26",
            "--ranks",
            "4",
            "--memory",
            "4G",
        ],
        &dir,
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("memory 1.3 GiB on each of 4 ranks"), "{out}");
    assert!(
        out.contains(
            "\nawari up to 26 seeds: 4 nodes of 4.0 GiB (1.3 GiB a rank at the peak), 5.3 GiB \
             of disk, about "
        ),
        "{out}"
    );
    assert!(
        out.ends_with("(the plain build's rates, times 2.5 for the split build)\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
    // A build the machine holds: the estimate, then the layers.
    let (ok, out, err) = build("3");
    assert!(ok, "{out}{err}");
    assert!(
        out.contains(
            "to build: layer  3:           364 positions, 8.0 MiB at the peak, a file of 920 B"
        ),
        "{out}"
    );
    assert!(out.contains("to build: awari layers 0 to 3: 455 positions; memory 8.0 MiB at the peak (building layer 3)"), "{out}");
    assert!(
        out.contains("awari up to 3 seeds: 455 positions (455 built)"),
        "{out}"
    );
    // Layers 0 to 3 are there: only 4 and 5 are estimated and built.
    let (ok, out, err) = build("5");
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("to build: awari layers 4 to 5: 5733 positions;"),
        "{out}"
    );
    assert!(!out.contains("to build: layer  3"), "{out}");
}

#[test]
fn a_memory_bound_builds_the_same_layers_in_sweeps() {
    // 1 MiB leaves no room beside the overhead: every layer the moves pass reads is a sweep of
    // its own, as a 30-seed build on a small machine does with its largest layers.
    let tiny = 1 << 20;
    // Layers 0 to 10 are read, each alone.
    assert_eq!(estimate::sweeps(RuleSet::Abapa, 12, Some(tiny)).len(), 11);
    assert_eq!(estimate::sweeps(RuleSet::Abapa, 12, None).len(), 1);
    for variant in [RuleSet::Awari, RuleSet::Abapa] {
        let whole = Tablebase::build(variant, 12, &Silent);
        let mut swept = Tablebase::empty(variant);
        while swept.seeds().is_none_or(|s| s < 12) {
            swept.build_next_within(Some(tiny), &Silent);
        }
        let (a, b) = (
            fresh_dir(&format!("sweeps_whole_{variant}")),
            fresh_dir(&format!("sweeps_swept_{variant}")),
        );
        file::save(&whole, &a).unwrap();
        file::save(&swept, &b).unwrap();
        assert_same_layers(variant, 12, &a, &b);
    }
    // The command line: `--memory` gives the bound, and the files are the same.
    let (a, b) = (fresh_dir("bound_cli_default"), fresh_dir("bound_cli_1m"));
    let (ok, out, err) = tablebase(&["build", "--seeds", "10"], &a);
    assert!(ok, "{out}{err}");
    assert!(!out.contains("sweeps over"), "{out}");
    let (ok, out, err) = tablebase(&["build", "--seeds", "10", "--memory", "1M", "--force"], &b);
    assert!(ok, "{out}{err}");
    // Layers 0 to 8 are read, each alone (one sweep of layers 0 to 8 would hold 10.7 MiB); the
    // peak is layer 10's later passes (6 bytes for each of its 351,351 positions, its best
    // exits parked) beside the overhead (8 MiB): 10.0 MiB, above its moves pass (4 bytes a
    // position beside layer 8, 75,504 positions of 3 bytes: 9.6 MiB).
    assert!(
        out.contains(
            "to build: layer 10:        351351 positions, 10.0 MiB at the peak (its moves pass \
             in 9 sweeps over the layers below), a file of 1.0 MiB"
        ),
        "{out}"
    );
    assert_same_layers(RuleSet::Abapa, 10, &a, &b);
    let (ok, _, err) = tablebase(&["build", "--seeds", "10", "--memory", "lots"], &b);
    assert!(!ok);
    assert!(
        err.contains("'lots' is not a size such as 16G, 512M or 1048576"),
        "{err}"
    );
}

/// The position of Romein and Bal's Awari solution, houses A..F = 1 1 1 1 1 2, a..f = 4 2 3 0 0
/// 0, South to move: worth 0, the moves A..F worth -1, -1, -2, -2, -2 and 0.
#[test]
#[ignore = "builds the 16-seed awari table (about 30 million positions)"]
fn the_published_awari_position() {
    let tb = table(RuleSet::Awari, 16);
    let b = board([1, 1, 1, 1, 1, 2, 4, 2, 3, 0, 0, 0], RuleSet::Awari);
    assert_eq!(tb.probe(&b), Some(Value { low: 0, high: 0 }));
    let moves: Vec<i8> = tb
        .move_values(&b)
        .unwrap()
        .iter()
        .map(|(_, v)| v.exact().unwrap())
        .collect();
    assert_eq!(moves, [-1, -1, -2, -2, -2, 0]);
}

#[test]
fn probe_refuses_other_variants_and_larger_boards() {
    let tb = Tablebase::build(RuleSet::Awari, 3, &Silent);
    assert_eq!(tb.probe(&Board::start(RuleSet::Awari)), None);
    assert_eq!(
        tb.probe(&board([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], RuleSet::Abapa)),
        None
    );
    // One seed each, mover's in F: it sows into a, which then holds 2 and is captured.
    let v = tb
        .probe(&board([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], RuleSet::Awari))
        .unwrap();
    assert_eq!(v, Value { low: 2, high: 2 });
}

/// The engine scores a position of the table by it (`tbhits`, an exact `score cp`: 100 per seed
/// of final margin, stores included) and plays a move that keeps the value; with
/// `TablebaseSeeds` 0 it searches without the table.
#[test]
fn the_engine_plays_table_positions_by_the_table() {
    let diagram = "2-0-1-0-3-0-0-1-0-2-1-0-20-18-S";
    let b: Board = diagram
        .parse::<Board>()
        .unwrap()
        .with_variant(RuleSet::Awari);
    let tb = Tablebase::build(RuleSet::Awari, 10, &Silent);
    let value = tb.probe(&b).unwrap().exact().unwrap() as i32;
    let input = format!("setoption name Variant value awari\nposition fen {diagram}\ngo depth 6\n");
    let out = crate::common::transcript(&input);
    let (last, infos) = out.split_last().unwrap();
    let info = crate::common::parse_info(infos.last().unwrap());
    assert_eq!(info.score, format!("cp {}", 100 * (2 + value)), "{out:?}");
    assert!(infos.iter().all(|l| l.contains(" tbhits ")), "{out:?}");
    let best: perfectplay::oware::Move = last.strip_prefix("bestmove ").unwrap().parse().unwrap();
    let moves = tb.move_values(&b).unwrap();
    assert!(
        moves
            .iter()
            .any(|(m, v)| *m == best && v.exact() == Some(value as i8)),
        "{best} in {moves:?}"
    );
    let without =
        crate::common::transcript(&format!("setoption name TablebaseSeeds value 0\n{input}"));
    assert!(without.iter().all(|l| !l.contains("tbhits")), "{without:?}");
}

/// Inside the in-memory table, the engine reports a position with a distance to the end as
/// `score mate N` (N moves: the table's plies plus one, halved; negative for the loser) and plays
/// a move that keeps the value and brings the end one ply nearer, and with MultiPV each move's
/// line by its child's distance; so does the winner later in the game, at its first position
/// with a choice of moves.
#[test]
fn the_engine_reports_table_distances_as_mate() {
    let diagram = "0-1-0-2-0-1-1-0-0-0-0-0-20-23-S";
    let b: Board = diagram.parse().unwrap();
    let tb = Tablebase::build(RuleSet::Abapa, 5, &Silent);
    let value = tb.probe(&b).unwrap().exact().unwrap();
    let plies = tb.distance(&b).unwrap();
    // South, 3 seeds behind in the stores, is also behind on the board: it loses.
    assert!(value < 0 && plies > 10, "{value} {plies}");
    let out = crate::common::transcript(&format!("position fen {diagram}\ngo depth 6\n"));
    let (last, infos) = out.split_last().unwrap();
    let info = crate::common::parse_info(infos.last().unwrap());
    assert_eq!(
        info.score,
        format!("mate -{}", plies.div_ceil(2)),
        "{out:?}"
    );
    let best: perfectplay::oware::Move = last.strip_prefix("bestmove ").unwrap().parse().unwrap();
    assert_eq!(
        tb.distance(&b.sow_and_capture(best).0),
        Some(plies - 1),
        "{best}"
    );
    // With a line per move, each move's score is its child's distance plus the move, as the
    // child's result says (here every move loses: South stays behind).
    let lines = b.legal_move_list().len();
    let out = crate::common::transcript(&format!(
        "setoption name MultiPV value {lines}\nposition fen {diagram}\ngo depth 6\n"
    ));
    let last_lines = &out[out.len() - 1 - lines..out.len() - 1];
    for line in last_lines {
        let words: Vec<&str> = line.split(' ').collect();
        let field = |name: &str| words[words.iter().position(|w| *w == name).unwrap() + 1];
        let mv: perfectplay::oware::Move = field("pv").parse().unwrap();
        let after = tb.distance(&b.sow_and_capture(mv).0).unwrap() + 1;
        let score = format!(
            "{} {}",
            field("score"),
            words[words.iter().position(|w| *w == "score").unwrap() + 2]
        );
        assert_eq!(score, format!("mate -{}", after.div_ceil(2)), "{line}");
    }
    // The table's line on to the winner's first choice.
    let (mut at, mut moves) = (b, Vec::new());
    loop {
        let (m, _) = tb.best_move(&at, 0).unwrap();
        moves.push(m.to_string());
        at = at.sow_and_capture(m).0;
        if at.side_to_move() != b.side_to_move() && at.legal_move_list().len() > 1 {
            break;
        }
    }
    let left = tb.distance(&at).unwrap();
    assert_eq!(left, plies - moves.len() as u32);
    let input = format!(
        "position fen {diagram} moves {}\ngo depth 6\n",
        moves.join(" ")
    );
    let out = crate::common::transcript(&input);
    let (last, infos) = out.split_last().unwrap();
    let info = crate::common::parse_info(infos.last().unwrap());
    assert_eq!(info.score, format!("mate {}", left.div_ceil(2)), "{out:?}");
    let best: perfectplay::oware::Move = last.strip_prefix("bestmove ").unwrap().parse().unwrap();
    assert_eq!(
        tb.distance(&at.sow_and_capture(best).0),
        Some(left - 1),
        "{best}"
    );
}

/// The in-memory table `ucinewgame` starts building in the background and `isready` waits for
/// gives the first search of a 12-seed abapa position (bounded at the root, so it is searched)
/// the same `info` lines (timing aside), `tbhits` and `bestmove` as an engine that builds the
/// table when the search first needs it: results do not depend on when the table was built.
#[test]
fn a_table_built_in_the_background_searches_as_one_built_when_needed() {
    let position = "position fen 2-0-1-0-3-0-0-1-0-2-1-2-18-18-S";
    let search = |before: &[&str]| {
        let mut engine = crate::common::Engine::start();
        for line in before {
            engine.send(line);
        }
        let said = engine.sync();
        assert!(said.iter().all(|l| !l.starts_with("info")), "{said:?}");
        engine.send(position);
        engine.send("go nodes 20000");
        let out: Vec<String> = engine
            .until_bestmove()
            .iter()
            .map(|l| crate::common::without_timing(l))
            .collect();
        engine.finish();
        out
    };
    let prepared = search(&["uci", "ucinewgame"]);
    let lazy = search(&[]);
    assert!(prepared.len() > 2, "{prepared:?}");
    let last_info = &prepared[prepared.len() - 2];
    assert!(last_info.contains(" tbhits "), "{prepared:?}");
    assert_eq!(prepared, lazy);
}

/// Under `abapa`, where the table only bounds a position's value (it depends on the game's
/// history), the search uses the bounds: the score it reports lies within them (100 per seed of
/// final margin, stores included), and bounded positions in its tree answer at once when the
/// window is outside them (`tbhits`, which the exact values alone never gave at depth 3 here).
#[test]
fn the_engine_keeps_abapa_scores_within_the_tables_bounds() {
    let tb = Tablebase::build(RuleSet::Abapa, 10, &Silent);
    let diagrams = [
        "1-1-1-1-1-0-0-0-3-0-1-1-19-19-S",
        "3-2-0-1-1-0-1-0-1-1-0-0-19-19-S",
        "1-1-0-0-2-1-0-0-3-2-0-0-19-19-S",
    ];
    for diagram in diagrams {
        let b: Board = diagram.parse().unwrap();
        let v = tb.probe(&b).unwrap();
        assert!(v.exact().is_none() && v.low > -10, "{diagram}: {v}");
        let (low, high) = (100 * v.low as i64, 100 * v.high as i64);
        let mut engine = crate::common::Engine::start();
        for depth in 3..=7 {
            engine.send(&format!("position fen {diagram}"));
            engine.send(&format!("go depth {depth}"));
            let out = engine.until_bestmove();
            let last = out
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .unwrap();
            let score: i64 = last
                .split(" score cp ")
                .nth(1)
                .and_then(|s| s.split(' ').next())
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{diagram}: {last}"));
            assert!(
                (low..=high).contains(&score),
                "{diagram} depth {depth}: {score} outside {low}..{high}: {last}"
            );
            if diagram == diagrams[0] && depth == 3 {
                assert!(last.contains(" tbhits "), "{last}");
            }
        }
        engine.finish();
    }
}

/// A layer file cut short while the engine has it mapped (a read of what is gone would kill the
/// engine with `SIGBUS`) is found at the next `go`: one error line naming the file, then a search
/// without the tables, and the engine plays on.
#[test]
fn a_layer_file_cut_while_loaded_is_dropped_before_the_next_search() {
    let dir = fresh_dir("oware_tablebase_cut_while_loaded");
    let tb = Tablebase::build(RuleSet::Abapa, 10, &Silent);
    file::save(&tb, &dir).unwrap();
    let mut engine = crate::common::Engine::start();
    engine.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    let said = engine.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string loaded the abapa tablebase up to 10")),
        "{said:?}"
    );
    // Ten seeds on the board: the root's own layer is the one cut.
    let position = "position fen 2-0-1-0-3-0-0-1-0-2-1-0-20-18-S";
    let search = |engine: &mut crate::common::Engine| {
        engine.send(position);
        engine.send("go depth 4");
        engine.until_bestmove()
    };
    let before = search(&mut engine);
    assert!(before.iter().any(|l| l.contains(" tbhits ")), "{before:?}");
    let layer = dir.join(file::layer_name(RuleSet::Abapa, 10));
    let full = std::fs::metadata(&layer).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&layer)
        .unwrap()
        .set_len(full / 2)
        .unwrap();
    let after = search(&mut engine);
    let errors: Vec<&String> = after
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(
        errors,
        [&format!(
            "info string error: table file {} has {} bytes, {full} expected (truncated, or not \
             a whole table); the tables are dropped (set the option again to load them once \
             the file is whole): playing by search",
            layer.display(),
            full / 2
        )],
        "{after:?}"
    );
    assert!(after.last().unwrap().starts_with("bestmove "), "{after:?}");
    assert!(after.iter().all(|l| !l.contains(" tbhits ")), "{after:?}");
    // The engine plays on, by search, without saying it again.
    let again = search(&mut engine);
    assert!(again.last().unwrap().starts_with("bestmove "), "{again:?}");
    assert!(
        again.iter().all(|l| !l.starts_with("info string")),
        "{again:?}"
    );
    engine.finish();
}

/// A directory with layer 5 deleted, layer 10 cut to half and two stray files: the engine says
/// in one line, once for the two table options set, which seeds it uses and names each file it
/// does not use, and why.
#[test]
fn a_damaged_directory_is_reported_in_one_line_naming_each_bad_file() {
    let dir = fresh_dir("oware_tablebase_damaged_directory");
    let tb = Tablebase::build(RuleSet::Abapa, 12, &Silent);
    file::save(&tb, &dir).unwrap();
    let name = |n| dir.join(file::layer_name(RuleSet::Abapa, n));
    std::fs::remove_file(name(5)).unwrap();
    let full = std::fs::metadata(name(10)).unwrap().len();
    let bytes = std::fs::read(name(10)).unwrap();
    std::fs::write(name(10), &bytes[..full as usize / 2]).unwrap();
    std::fs::write(dir.join("junk.tb"), b"junk").unwrap();
    std::fs::write(dir.join("README"), b"layers 0 to 12").unwrap();
    let mut engine = crate::common::Engine::start();
    engine.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    engine.send("setoption name TablebaseSeeds value 12");
    let stray = |f: &str| {
        format!(
            "table file {} is inconsistent: a stray file, not a layer file \
             (oware-<variant>-<seeds>.tb); skipped",
            dir.join(f).display()
        )
    };
    assert_eq!(
        engine.sync(),
        [format!(
            "info string loaded the abapa tablebase up to 4 seeds from {} (not used: no table \
             file at {}; table file {} has {} bytes, {full} expected (truncated, or not a whole \
             table); {}; {})",
            dir.display(),
            name(5).display(),
            name(10).display(),
            full / 2,
            stray("README"),
            stray("junk.tb"),
        )]
    );
    // Four seeds on the board: the layers kept are used.
    engine.send("position fen 0-0-0-0-1-1-1-1-0-0-0-0-22-22-S");
    engine.send("go depth 4");
    let out = engine.until_bestmove();
    assert!(out.iter().any(|l| l.contains(" tbhits ")), "{out:?}");
    assert!(out.iter().all(|l| !l.starts_with("info string")), "{out:?}");
    engine.finish();
}

/// `tablebase probe` says a value once (`value exact -1`, the value's own words), its distance to
/// the end, and each move's value and distance;
/// an error is its message and causes, one a line, without a backtrace even with
/// `RUST_BACKTRACE` set.
#[test]
fn probe_prints_values_once_and_errors_without_backtraces() {
    let dir = fresh_dir("oware_tablebase_probe_words");
    let run = |diagram: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(["tablebase", "probe", "--dir"])
            .arg(&dir)
            .arg(diagram)
            .env("RUST_BACKTRACE", "1")
            .output()
            .unwrap()
    };
    let out = run("0-0-0-0-2-1-1-0-0-0-0-1-20-23-S");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let tb = Tablebase::build(RuleSet::Abapa, 5, &Silent);
    let board: perfectplay::oware::Board = "0-0-0-0-2-1-1-0-0-0-0-1-20-23-S".parse().unwrap();
    let value = tb.probe(&board).unwrap();
    assert!(value.exact().is_some());
    let d = tb.distance(&board).unwrap();
    let mut want = vec![
        format!("value {value}: the margin S can still secure from the 5 seeds on the board"),
        format!("distance {d} plies to the end of the game, both sides keeping the value"),
    ];
    for (mv, v) in tb.move_values(&board).unwrap() {
        let child = board.sow_and_capture(mv).0;
        want.push(match tb.distance(&child) {
            Some(c) => format!("{mv} {v}, {} plies to the end", c + 1),
            None => format!("{mv} {v}"),
        });
    }
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
    // As the table was built: South is behind by one seed and lasts 29 plies by F; E ends
    // the game sooner, in 15.
    assert_eq!(
        text,
        "value exact -1: the margin S can still secure from the 5 seeds on the board\n\
         distance 29 plies to the end of the game, both sides keeping the value\n\
         E exact -1, 15 plies to the end\n\
         F exact -1, 29 plies to the end\n"
    );
    let out = run("0-0-0");
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "Error: reading the diagram '0-0-0'\n  caused by: a diagram has 15 fields joined by '-' \
         (12 houses, 2 stores, side), found 3\n"
    );
}

/// The sections a checkpoint kept, by layer and pass.
type Sections = HashMap<(u32, Pass), Vec<Vec<u8>>>;

/// A checkpoint in memory: every pass saved, and the one a resume may use; bytes parked (read
/// back, or `lose`s them).
#[derive(Default)]
struct Kept {
    saved: Mutex<Sections>,
    serve: Option<Pass>,
    resumed: Mutex<Vec<Pass>>,
    parked: Mutex<Vec<u8>>,
    lose: bool,
}

impl Checkpoint for Kept {
    fn resume(&self, seeds: u32, pass: Pass, sections: &mut [&mut [u8]]) -> bool {
        if self.serve != Some(pass) {
            return false;
        }
        let saved = self.saved.lock().unwrap();
        let Some(kept) = saved.get(&(seeds, pass)) else {
            return false;
        };
        assert_eq!(kept.len(), sections.len());
        for (s, k) in sections.iter_mut().zip(kept) {
            s.copy_from_slice(k);
        }
        self.resumed.lock().unwrap().push(pass);
        true
    }

    fn save(&self, seeds: u32, pass: Pass, sections: &[&[u8]]) {
        let kept = sections.iter().map(|s| s.to_vec()).collect();
        self.saved.lock().unwrap().insert((seeds, pass), kept);
    }

    fn keeps(&self, _: u32) -> bool {
        true
    }

    fn park(&self, _: u32, bytes: &[u8]) -> bool {
        *self.parked.lock().unwrap() = bytes.to_vec();
        true
    }

    fn unpark(&self, _: u32, at: u64, into: &mut [u8]) -> bool {
        let parked = self.parked.lock().unwrap();
        into.copy_from_slice(&parked[at as usize..at as usize + into.len()]);
        !self.lose
    }
}

/// The bytes of the file of layer `n` of `tb`, written to a scratch directory `name`.
fn layer_file(tb: &Tablebase, n: u32, name: &str) -> Vec<u8> {
    let dir = fresh_dir(name);
    file::save(tb, &dir).unwrap();
    std::fs::read(dir.join(file::layer_name(tb.variant(), n))).unwrap()
}

#[test]
fn a_layer_resumed_from_either_checkpoint_is_the_same_layer() {
    for variant in [RuleSet::Awari, RuleSet::Abapa] {
        let mut whole = Tablebase::build(variant, 11, &Silent);
        let kept = Kept::default();
        whole.build_next_resumable(None, &Silent, &kept);
        let expected = layer_file(&whole, 12, &format!("resume_whole_{variant}"));
        // Its best exits parked and read back: the same layer as the build that holds them.
        let held = Tablebase::build(variant, 12, &Silent);
        assert!(layer_file(&held, 12, &format!("resume_held_{variant}")) == expected);
        let saved = std::mem::take(&mut *kept.saved.lock().unwrap());
        // Layer 12: the state words after the moves pass (4 bytes a position), then the best
        // exits' distances, the lower and the upper bounds; 1 byte a position parked.
        let len = reachable::reachable_len(12) as usize;
        assert_eq!(kept.parked.lock().unwrap().len(), len);
        let sizes = |pass| saved[&(12, pass)].iter().map(Vec::len).collect::<Vec<_>>();
        let values = match variant {
            RuleSet::Awari => vec![len, len, 0],
            RuleSet::Abapa => vec![len, len, len],
        };
        assert_eq!(sizes(Pass::Moves), [4 * len]);
        assert_eq!(sizes(Pass::Values), values);
        for pass in [Pass::Moves, Pass::Values] {
            let resumer = Kept {
                saved: Mutex::new(saved.clone()),
                serve: Some(pass),
                ..Kept::default()
            };
            let mut tb = Tablebase::build(variant, 11, &Silent);
            tb.build_next_resumable(None, &Silent, &resumer);
            assert_eq!(*resumer.resumed.lock().unwrap(), [pass]);
            let got = layer_file(&tb, 12, &format!("resume_{variant}_{pass:?}"));
            assert!(got == expected, "{variant} resumed after {pass:?} differs");
        }
        // A checkpoint that is not the build's gives another layer: the resume is used.
        let mut wrong = saved.clone();
        let state = &mut wrong.get_mut(&(12, Pass::Values)).unwrap()[1];
        state.iter_mut().for_each(|b| *b = 0);
        let resumer = Kept {
            saved: Mutex::new(wrong),
            serve: Some(Pass::Values),
            ..Kept::default()
        };
        let mut tb = Tablebase::build(variant, 11, &Silent);
        tb.build_next_resumable(None, &Silent, &resumer);
        assert!(layer_file(&tb, 12, &format!("resume_wrong_{variant}")) != expected);
        // Parked bytes that cannot be read back: the layer is not the same (the front end
        // drops it), and no checkpoint of its values is kept.
        let loser = Kept {
            lose: true,
            ..Kept::default()
        };
        let mut tb = Tablebase::build(variant, 11, &Silent);
        tb.build_next_resumable(None, &Silent, &loser);
        assert!(layer_file(&tb, 12, &format!("resume_lost_{variant}")) != expected);
        let saved = loser.saved.lock().unwrap();
        assert!(saved.contains_key(&(12, Pass::Moves)));
        assert!(!saved.contains_key(&(12, Pass::Values)));
    }
}

#[test]
fn checkpoint_files_are_read_back_whole_or_not_at_all() {
    let dir = fresh_dir("pass_files");
    let files = file::PassFiles::new(&dir, RuleSet::Abapa, 0);
    let len = reachable::reachable_len(5) as usize;
    let (a, b): (Vec<u8>, Vec<u8>) = ((0..4 * len).map(|i| i as u8).collect(), vec![7; len]);
    files.save(5, Pass::Moves, &[&a, &b]);
    assert!(files.path(5).ends_with("oware-abapa-05.pass"));
    let (mut x, mut y) = (vec![0; 4 * len], vec![0; len]);
    // Another pass's checkpoint is not read, and is no problem.
    assert!(!files.resume(5, Pass::Values, &mut [&mut x, &mut y]));
    assert!(files.resume(5, Pass::Moves, &mut [&mut x, &mut y]));
    assert_eq!((x == a, y == b), (true, true));
    let p = files.take_problems();
    assert!(p.unread.is_empty() && p.unwritten.is_empty(), "{p:?}");
    // Parked bytes are read back from anywhere in them.
    assert!(files.park(5, &a));
    assert!(files.park_path(5).ends_with("oware-abapa-05.park"));
    let mut part = vec![0; 100];
    assert!(files.unpark(5, 1000, &mut part));
    assert!(part == a[1000..1100]);
    // The loader takes the checkpoint and the parked bytes for no stray file.
    let (_, problems) = file::load(&dir, RuleSet::Abapa, None);
    assert!(
        problems.iter().all(|p| !p.to_string().contains("stray")),
        "{problems:?}"
    );
    // Sections of other lengths, or a byte changed: not resumed, and said.
    let mut short = vec![0; len - 1];
    assert!(!files.resume(5, Pass::Moves, &mut [&mut x, &mut short]));
    let mut bytes = std::fs::read(files.path(5)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(files.path(5), &bytes).unwrap();
    assert!(!files.resume(5, Pass::Moves, &mut [&mut x, &mut y]));
    let p = files.take_problems();
    assert_eq!(p.unread.len(), 2, "{p:?}");
    assert!(
        matches!(p.unread[1], TableError::Corrupt(_)),
        "{:?}",
        p.unread
    );
    // Smaller layers than asked are not kept; a checkpoint that cannot be written is said.
    let big = file::PassFiles::new(&dir, RuleSet::Abapa, len as u64 + 1);
    big.save(5, Pass::Values, &[&a]);
    assert!(!big.resume(5, Pass::Moves, &mut [&mut x, &mut y]));
    let gone = file::PassFiles::new(&dir.join("no/such/dir"), RuleSet::Abapa, 0);
    gone.save(5, Pass::Moves, &[&a, &b]);
    assert!(!gone.park(5, &a));
    assert!(!gone.unpark(5, 0, &mut part));
    let p = gone.take_problems();
    assert_eq!(
        (p.unwritten.len(), p.unparked.len(), p.lost.len()),
        (1, 1, 1),
        "{p:?}"
    );
    // Past the end of the parked bytes: lost too.
    assert!(!files.unpark(5, a.len() as u64 - 10, &mut part));
    assert_eq!(files.take_problems().lost.len(), 1);
    // Read back, they are let go at once.
    files.unparked(5);
    assert!(!files.park_path(5).exists());
    files.done(5).unwrap();
    assert!(!files.path(5).exists() && !files.park_path(5).exists());
    files.done(5).unwrap();
}

#[test]
fn the_command_line_keeps_checkpoints_only_while_a_layer_is_built() {
    let dir = fresh_dir("pass_cli");
    // A stale, broken checkpoint of layer 10: said, built again, and gone with the layer.
    std::fs::write(dir.join("oware-abapa-10.pass"), b"PPTABLE\0 broken").unwrap();
    let (ok, out, err) = tablebase(
        &["build", "--seeds", "10", "--checkpoint-positions", "0"],
        &dir,
    );
    assert!(ok, "{out}{err}");
    assert!(err.contains("oware-abapa-10.pass"), "{err}");
    assert!(err.contains("built that part of the layer again"), "{err}");
    // Layer 10 is the largest checkpoint: after its moves pass, 351,351 positions of 4 bytes
    // (the state words) beside its parked best exits (1 byte a position), then beside the
    // checkpoint of its values (3 bytes a position) while that is written, and two headers.
    assert!(
        out.contains("disk 1.8 MiB of layer files and 2.3 MiB more while a layer is built"),
        "{out}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".tb"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // The same layers as without checkpoints.
    let plain = fresh_dir("pass_cli_plain");
    let (ok, out, err) = tablebase(&["build", "--seeds", "10"], &plain);
    assert!(ok, "{out}{err}");
    // Only the parked best exits.
    assert!(
        out.contains("of layer files and 343.1 KiB more while a layer is built"),
        "{out}"
    );
    assert_same_layers(RuleSet::Abapa, 10, &dir, &plain);
}

/// The `info string` lines of an engine's output, with what a build takes on this machine
/// (`(about 4 s on 1 thread, ...)`) as `(...)`.
fn notes(out: &[String]) -> Vec<String> {
    out.iter()
        .filter_map(|l| l.strip_prefix("info string "))
        .map(|n| match (n.find(" (about "), n.find(" of disk)")) {
            (Some(a), Some(b)) => format!("{} (...){}", &n[..a], &n[b + " of disk)".len()..]),
            _ => n.to_string(),
        })
        .collect()
}

/// The engine as installed (`AutoSolve` on, no `TablebasePath`), under awari, with
/// `XDG_DATA_HOME` `data`, building the tablebase up to `seeds` (`TablebaseBuildSeeds`), set to
/// `diagram`.
fn auto_engine(data: &Path, seeds: u32, diagram: &str) -> crate::common::Engine {
    let build = format!("TablebaseBuildSeeds={seeds}");
    let args = [
        "--option",
        "AutoSolve=true",
        "--option",
        "UCI_Variant=awari",
        "--option",
        &build,
    ];
    let mut e = crate::common::Engine::start_with_data(&args, data.to_str().unwrap());
    e.send(&format!("position fen {diagram}"));
    e
}

/// `go depth 2`: the output up to `bestmove`.
fn go_shallow(e: &mut crate::common::Engine) -> Vec<String> {
    e.send("go depth 2");
    e.until_bestmove()
}

/// Searches until the engine says `loaded` (its build, or another engine's, written); fails
/// after 5 minutes.
fn wait_for_tables(e: &mut crate::common::Engine, loaded: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    loop {
        let out = go_shallow(e);
        if notes(&out).iter().any(|n| n == loaded) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never loaded: {out:#?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// The score of the engine's last `info depth` line at `go depth 2`, and whether it has
/// `tbhits`.
fn shallow_score(e: &mut crate::common::Engine) -> (String, bool) {
    let out = go_shallow(e);
    let last = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("{out:#?}"));
    (
        crate::common::parse_info(last).score,
        last.contains(" tbhits "),
    )
}

/// A 14-seed awari position (stores 17 and 17) whose exact value is 2 for South, the side to
/// move (`perfectplay tablebase probe`): the table scores it `cp 200` (no distance is defined),
/// and a search of depth 2 with the 12-seed table built in memory does not (its leaves hold
/// more than 12 seeds).
const FOURTEEN_SEEDS: &str = "1-2-1-1-1-3-1-0-1-2-0-1-17-17-S";

/// The engine as installed (`AutoSolve`, no `TablebasePath`) builds the tablebase in its data
/// directory in the background, here to 14 seeds (`TablebaseBuildSeeds`), and plays by search
/// meanwhile: it builds nothing while another holds the build's lock, and says so when that
/// build ends without the tables; once it builds, a second engine waits for it; both load the
/// layers once written and score a 14-seed position by them (its exact value, with `tbhits`);
/// no lock or temporary file is left. A layer cut short in place
/// is never used: the engines that mapped it drop the tables, and a fresh engine builds it
/// again before it loads them.
#[test]
fn the_engine_builds_its_tablebase_in_the_background() {
    let data = fresh_dir("oware_autobuild");
    let place = data.join("perfectplay");
    let dir = place.join("oware");
    let lock = place.join("oware-awari.lock");
    let start = || auto_engine(&data, 14, FOURTEEN_SEEDS);
    let building = format!(
        "the awari tablebase up to 14 seeds (...) in {}",
        dir.join("oware-awari-14.tb").display()
    );

    // Another engine holds the lock: this one plays by search and writes nothing.
    std::fs::create_dir_all(&place).unwrap();
    let held = std::fs::File::create(&lock).unwrap();
    held.lock().unwrap();
    let mut a = start();
    let out = go_shallow(&mut a);
    assert_eq!(
        notes(&out),
        [format!(
            "another engine is building {building}; playing by search until it is written"
        )],
        "{out:#?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:#?}");
    assert_eq!(std::fs::read_dir(&dir).map_or(0, |d| d.count()), 0);
    // Unlocked, not only closed: a child another test forks meanwhile shares the open file.
    held.unlock().unwrap();
    drop(held);
    let out = go_shallow(&mut a);
    assert_eq!(
        notes(&out),
        [format!(
            "error: the other engine's build of {} ended without it; playing by search",
            dir.join("oware-awari-14.tb").display()
        )],
        "{out:#?}"
    );

    // The option set again: this engine builds, and searches meanwhile; a second one waits.
    a.send("setoption name TablebaseBuildSeeds value 14");
    let out = go_shallow(&mut a);
    assert_eq!(
        notes(&out),
        [format!(
            "building {building} in the background; playing by search until it is written"
        )],
        "{out:#?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:#?}");
    let mut b = start();
    let out = go_shallow(&mut b);
    assert!(
        notes(&out)
            .iter()
            .any(|n| n.starts_with("another engine is building the awari")),
        "{out:#?}"
    );
    // Meanwhile the search alone scores the 14-seed position, not by its exact value.
    let (score, _) = shallow_score(&mut b);
    assert_ne!(score, "cp 200");

    // Both load the layers once written and score the position by them.
    let loaded = format!(
        "loaded the awari tablebase up to 14 seeds from {}",
        dir.display()
    );
    for e in [&mut a, &mut b] {
        wait_for_tables(e, &loaded);
    }
    let (tb, problems) = file::load(&dir, RuleSet::Awari, None);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(tb.seeds(), Some(14));
    let won: Board = FOURTEEN_SEEDS
        .parse::<Board>()
        .unwrap()
        .with_variant(RuleSet::Awari);
    assert_eq!(tb.probe(&won), Some(Value { low: 2, high: 2 }));
    for e in [&mut a, &mut b] {
        assert_eq!(shallow_score(e), ("cp 200".to_string(), true));
    }
    assert!(!lock.exists());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let layers: Vec<String> = (0..=14).map(|n| format!("oware-awari-{n:02}.tb")).collect();
    assert_eq!(names, layers);
    drop(tb);

    // A layer cut short in place: dropped by the engines that mapped it, built again by a fresh
    // engine before it uses the layers.
    let cut = dir.join("oware-awari-13.tb");
    let len = std::fs::metadata(&cut).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&cut)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let out = go_shallow(&mut a);
    assert!(
        notes(&out)
            .iter()
            .any(|n| n.starts_with("error: ") && n.contains("the tables are dropped")),
        "{out:#?}"
    );
    assert!(!out.iter().any(|l| l.contains(" tbhits ")), "{out:#?}");
    let mut c = start();
    let out = go_shallow(&mut c);
    assert_eq!(
        notes(&out),
        [format!(
            "building {building} in the background; playing by search until it is written"
        )],
        "{out:#?}"
    );
    wait_for_tables(&mut c, &loaded);
    assert_eq!(shallow_score(&mut c), ("cp 200".to_string(), true));
    assert_eq!(std::fs::metadata(&cut).unwrap().len(), len);
    for e in [a, b, c] {
        e.finish();
    }
    std::fs::remove_dir_all(&data).unwrap();
}

/// An engine killed half way through its background build leaves whole layer files only (and
/// perhaps a temporary file), never a layer cut short; the next engine goes on from them, removes
/// the temporary file and ends with the layers a build in one go makes. A build that cannot
/// start (the data directory is a file) says why, plays by search and writes nothing.
#[test]
fn a_background_build_killed_half_way_leaves_whole_layers() {
    let data = fresh_dir("oware_autobuild_killed");
    let dir = data.join("perfectplay/oware");
    let a = {
        let mut a = auto_engine(&data, 15, FOURTEEN_SEEDS);
        let out = go_shallow(&mut a);
        assert!(
            notes(&out)[0].starts_with("building the awari tablebase up to 15 seeds"),
            "{out:#?}"
        );
        a
    };
    // Killed (SIGKILL) while it builds layer 14.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while !dir.join("oware-awari-13.tb").exists() {
        assert!(std::time::Instant::now() < deadline, "no layer 13");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    drop(a);
    let (tb, problems) = file::load(&dir, RuleSet::Awari, None);
    let whole = tb.seeds().unwrap();
    assert!((13..15).contains(&whole), "{whole}");
    // Only a temporary file of the layer in progress may be there besides the whole layers.
    for p in &problems {
        assert!(p.to_string().contains(".tb.tmp"), "{problems:?}");
    }
    drop(tb);

    let mut b = auto_engine(&data, 15, FOURTEEN_SEEDS);
    let out = go_shallow(&mut b);
    assert!(
        notes(&out)[0].starts_with("building the awari tablebase up to 15 seeds"),
        "{out:#?}"
    );
    let loaded = format!(
        "loaded the awari tablebase up to 15 seeds from {}",
        dir.display()
    );
    wait_for_tables(&mut b, &loaded);
    assert_eq!(shallow_score(&mut b), ("cp 200".to_string(), true));
    b.finish();
    let (tb, problems) = file::load(&dir, RuleSet::Awari, None);
    assert!(problems.is_empty(), "{problems:?}");
    let fresh = fresh_dir("oware_autobuild_killed_whole");
    let mut one_go = Tablebase::build(RuleSet::Awari, 15, &Silent);
    for n in 0..=15 {
        file::save_and_map_layer(&mut one_go, n, &fresh).unwrap();
        let name = file::layer_name(RuleSet::Awari, n);
        assert!(
            std::fs::read(dir.join(&name)).unwrap() == std::fs::read(fresh.join(&name)).unwrap(),
            "{name}"
        );
    }
    drop((tb, one_go));

    // The data directory is a file: the build cannot start, and says so once.
    let blocked = data.join("not-a-directory");
    std::fs::write(&blocked, "x").unwrap();
    let mut c = auto_engine(&blocked, 15, FOURTEEN_SEEDS);
    let out = go_shallow(&mut c);
    let said = notes(&out);
    assert_eq!(said.len(), 1, "{out:#?}");
    assert!(
        said[0].starts_with("error: cannot build the awari tablebase up to 15 seeds")
            && said[0].ends_with("; playing by search"),
        "{said:?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:#?}");
    assert!(notes(&go_shallow(&mut c)).is_empty());
    c.finish();
    assert_eq!(std::fs::read(&blocked).unwrap(), b"x");
    for d in [data, fresh] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
