//! What probing the Dobutsu solution costs a search: nodes per second of the same searches with
//! and without the solution as the search's oracle, alternating (A B A B) so that the shared
//! machine's load falls on both alike; and probes per second on reachable positions.
//!
//! A search only runs with the solution loaded where the root is not in it (every child of a
//! reachable position is in the table, so the root is answered from the table at once): the roots
//! here are random placements of the eight pieces that no game reaches (a fixed seed), with a
//! move that leaves the solution too, so that the search runs. Inside their trees the search
//! probes every node (hits where the tree comes back into the reachable set, misses elsewhere).
//!
//! Needs the solution file: `PERFECTPLAY_SOLUTION=FILE cargo bench --bench solution`, or the file
//! in its default place (`perfectplay solve dobutsu` writes it there); without it, says so and
//! measures nothing.

use std::sync::Arc;
use std::time::Instant;

use perfectplay::bench::{bench_games, positions_of};
use perfectplay::dobutsu::solve::{file, Solution};
use perfectplay::dobutsu::Position;
use perfectplay::game::Game;
use perfectplay::search::{
    Control, Iteration, Limits, Oracle, Root, SearchConfig, SearchHandler, Searcher,
};
use perfectplay::variant::Variant;

/// Keeps the last iteration's `tbhits`.
struct Hits(u64);
impl<M> SearchHandler<M> for Hits {
    fn iteration(&mut self, info: &Iteration<M>) {
        self.0 = info.tbhits;
    }
}

/// Searches every root to `depth`; returns (nodes, tbhits, seconds).
fn search_all(
    searcher: &mut Searcher<Position>,
    roots: &[Root<Position>],
    depth: u32,
) -> (u64, u64, f64) {
    let config = SearchConfig::plain(
        Default::default(),
        Position::cycle_rule(&Default::default()),
    );
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let started = Instant::now();
    let (mut nodes, mut hits) = (0, 0);
    for root in roots {
        let mut handler = Hits(0);
        nodes += searcher
            .search(root, &limits, &config, &Control::default(), &mut handler)
            .nodes;
        hits += handler.0;
    }
    (nodes, hits, started.elapsed().as_secs_f64())
}

/// `count` positions (a fixed pseudo-random sequence) with both Lions and the other six pieces on
/// random squares or in random hands, that the rules have not decided and the solution does not
/// hold.
fn outside_positions(solution: &Solution, count: usize) -> Vec<Root<Position>> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut roots = Vec::new();
    while roots.len() < count {
        let mut board = [' '; 12];
        let mut hands = String::new();
        type Below<'a> = dyn FnMut(usize) -> usize + 'a;
        let place = |piece: char, board: &mut [char; 12], below: &mut Below| loop {
            let sq = below(12);
            if board[sq] == ' ' {
                board[sq] = piece;
                break;
            }
        };
        place('L', &mut board, &mut below);
        place('l', &mut board, &mut below);
        for kind in ['G', 'G', 'E', 'E', 'C', 'C'] {
            let piece = if below(2) == 0 {
                kind
            } else {
                kind.to_ascii_lowercase()
            };
            if below(2) == 0 {
                hands.push(piece);
            } else {
                place(piece, &mut board, &mut below);
            }
        }
        let ranks: Vec<String> = board
            .chunks(3)
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for &c in rank {
                    if c == ' ' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(c);
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let side = if below(2) == 0 { 'w' } else { 'b' };
        let fen = format!("{}[{hands}] {side}", ranks.join("/"));
        if let Ok(pos) = Position::from_fen(&fen) {
            // Not answered from the table at the root: some child is not in it either.
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let searched = moves
                .iter()
                .any(|&m| solution.probe(&pos.play(m).0).is_none());
            if pos.proven().is_none() && solution.probe(&pos).is_none() && searched {
                roots.push(Root::new(pos));
            }
        }
    }
    roots
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let path = std::env::var_os("PERFECTPLAY_SOLUTION")
        .map(std::path::PathBuf::from)
        .or_else(file::default_path);
    let Some(solution) = path.as_deref().and_then(|p| file::load(p).ok()) else {
        println!(
            "solution bench: no solution file at {path:?} (set PERFECTPLAY_SOLUTION or run \
             `perfectplay solve dobutsu`): nothing measured"
        );
        return;
    };
    let solution: Arc<Solution> = Arc::new(solution);
    let (games, _) = bench_games(Variant::Dobutsu);
    let bench = positions_of::<Position>(games, &Default::default());
    let roots = outside_positions(&solution, bench.len());
    let depth = 8;
    println!(
        "solution bench: {} random positions outside the solution, depth {depth}",
        roots.len()
    );
    let mut plain = Searcher::<Position>::with_hash_mb(16);
    let mut probing = Searcher::<Position>::with_hash_mb(16);
    let oracle: Arc<dyn Oracle<Position>> = solution.clone();
    probing.set_oracle(Some(oracle));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for round in 0..5 {
        let (n1, _, t1) = search_all(&mut plain, &roots, depth);
        let (n2, hits, t2) = search_all(&mut probing, &roots, depth);
        println!(
            "round {round}: without {n1} nodes {:.0} nps; with {n2} nodes, {hits} tbhits, \
             {:.0} nps",
            n1 as f64 / t1,
            n2 as f64 / t2
        );
        a.push(n1 as f64 / t1);
        b.push(n2 as f64 / t2);
    }
    let (ma, mb) = (median(a), median(b));
    println!(
        "median nps without {ma:.0}, with {mb:.0}: ratio {:.2}",
        mb / ma
    );

    // Probes of reachable positions: the bench positions and the positions two plies on.
    let mut reachable = Vec::new();
    let mut moves = Vec::new();
    let mut replies = Vec::new();
    for r in &bench {
        let p = &r.position;
        reachable.push(*p);
        moves.clear();
        p.legal_moves(&mut moves);
        for &m in &moves {
            let c = p.play(m).0;
            reachable.push(c);
            if c.outcome().is_some() {
                continue;
            }
            replies.clear();
            c.legal_moves(&mut replies);
            reachable.extend(replies.iter().map(|&r| c.play(r).0));
        }
    }
    let mut rates = Vec::new();
    let mut hits = 0;
    for _ in 0..5 {
        let started = Instant::now();
        hits = reachable
            .iter()
            .filter(|p| solution.probe(p).is_some())
            .count();
        rates.push(reachable.len() as f64 / started.elapsed().as_secs_f64());
    }
    println!(
        "probes of {} positions near the bench positions ({hits} in the table): median {:.0} \
         probes/s",
        reachable.len(),
        median(rates)
    );
}
