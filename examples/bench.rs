//! Search figures until `perfectplay bench` is wired: `cargo run --release --example bench --
//! [DEPTH [HASH_MB]]` runs [`perfectplay::bench::run_bench`]; `... -- movetime MS` searches the
//! start position for MS milliseconds at full strength and prints each iteration.

use perfectplay::oware::{Board, Move, Variant};
use perfectplay::search::{
    Control, Iteration, Level, Limits, Root, SearchConfig, SearchHandler, Searcher,
};

struct Print;

impl SearchHandler<Move> for Print {
    fn iteration(&mut self, i: &Iteration<Move>) {
        let pv: String = i.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {} seldepth {} nodes {} score {} time {} hashfull {} pv {pv}",
            i.depth,
            i.seldepth,
            i.nodes,
            i.score,
            i.elapsed.as_millis(),
            i.hashfull.unwrap_or(0)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("movetime") {
        let ms = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
        let config = SearchConfig {
            weights: Default::default(),
            cycle: Default::default(),
            level: Level::default(),
            seed: 0,
        };
        let limits = Limits {
            movetime: Some(std::time::Duration::from_millis(ms)),
            ..Limits::default()
        };
        let root = Root::new(Board::start(Variant::Abapa));
        let r = Searcher::<Board>::new().search(
            &root,
            &limits,
            &config,
            &Control::default(),
            &mut Print,
        );
        println!(
            "bestmove {} depth {} nodes {}",
            r.best_move.map(|m| m.to_string()).unwrap_or_default(),
            r.depth,
            r.nodes
        );
        return;
    }
    let depth = args.first().and_then(|s| s.parse().ok());
    let hash = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(perfectplay::search::DEFAULT_HASH_MB);
    let r = perfectplay::bench::run_bench(depth, hash);
    println!(
        "positions {} depth {} nodes {} time {} ms nps {}",
        r.positions,
        r.depth,
        r.nodes,
        r.elapsed.as_millis(),
        r.nps()
    );
}
