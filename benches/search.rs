//! Criterion benchmarks of the search: a fixed-depth search of a few bench positions (fresh table
//! each, as in `perfectplay bench`), and the start position; and the same bench positions with a
//! table of 16 MiB and one of 1024 MiB side by side (a large `Hash` must not slow the search: the
//! table is resident and on huge pages from the start). `cargo bench` runs them.

use criterion::{criterion_group, criterion_main, Criterion};
use perfectplay::bench::{bench_positions, search_to_depth as search};
use perfectplay::oware::{Board, RuleSet};
use perfectplay::search::{Root, Searcher};

fn bench_search(c: &mut Criterion) {
    let mut searcher = Searcher::<Board>::with_hash_mb(16);
    let roots: Vec<Root<Board>> = bench_positions().into_iter().step_by(8).collect();
    c.bench_function("bench positions, depth 10", |b| {
        b.iter(|| {
            roots
                .iter()
                .map(|r| search(&mut searcher, r, &Default::default(), 10))
                .sum::<u64>()
        })
    });
    let start = Root::new(Board::start(RuleSet::Abapa));
    c.bench_function("start position, depth 12", |b| {
        b.iter(|| search(&mut searcher, &start, &Default::default(), 12))
    });
}

fn bench_hash_sizes(c: &mut Criterion) {
    let roots: Vec<Root<Board>> = bench_positions().into_iter().step_by(4).collect();
    let mut group = c.benchmark_group("bench positions, depth 10, by Hash");
    for mb in [16, 1024] {
        let mut searcher = Searcher::<Board>::with_hash_mb(mb);
        group.bench_function(format!("Hash {mb}"), |b| {
            b.iter(|| {
                roots
                    .iter()
                    .map(|r| search(&mut searcher, r, &Default::default(), 10))
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_search, bench_hash_sizes
}
criterion_main!(benches);
