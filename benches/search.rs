//! Criterion benchmarks of the search: a fixed-depth search of a few bench positions (fresh table
//! each, as in `perfectplay bench`), and the start position. `cargo bench` runs them.

use criterion::{criterion_group, criterion_main, Criterion};
use perfectplay::bench::{bench_positions, search_to_depth as search};
use perfectplay::oware::{Board, Variant};
use perfectplay::search::{Root, Searcher};

fn bench_search(c: &mut Criterion) {
    let mut searcher = Searcher::<Board>::with_hash_mb(16);
    let roots: Vec<Root<Board>> = bench_positions().into_iter().step_by(8).collect();
    c.bench_function("bench positions, depth 10", |b| {
        b.iter(|| {
            roots
                .iter()
                .map(|r| search(&mut searcher, r, 10))
                .sum::<u64>()
        })
    });
    let start = Root::new(Board::start(Variant::Abapa));
    c.bench_function("start position, depth 12", |b| {
        b.iter(|| search(&mut searcher, &start, 12))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_search
}
criterion_main!(benches);
