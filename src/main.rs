use perfectplay::oware::{Board, Variant, Weights};
use perfectplay::search::*;
struct P;
impl SearchHandler<perfectplay::oware::Move> for P {
    fn iteration(&mut self, i: &Iteration<perfectplay::oware::Move>) {
        let pv: String = i.pv.iter().map(|m| m.to_string()).collect();
        println!("info depth {} seldepth {} nodes {} score {} time {} pv {}", i.depth, i.seldepth, i.nodes, i.score, i.elapsed.as_millis(), pv);
    }
}
fn main() {
    let n: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let b = Board::start(Variant::Abapa);
    let mut s = Searcher::<Board>::new();
    let cfg = SearchConfig { weights: Weights::default(), cycle: Default::default(), level: Level::default(), seed: seed_hash("") };
    let t = std::time::Instant::now();
    let r = s.search(&Root::new(b), &Limits { nodes: Some(n), ..Default::default() }, &cfg, &Control::new(false), &mut P);
    println!("{:?} {:.1} Mnps", r.best_move, r.nodes as f64 / t.elapsed().as_secs_f64() / 1e6);
}
