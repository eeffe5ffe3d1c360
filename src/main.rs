use perfectplay::oware::{Board, Variant};
fn main() {
    let d: u32 = std::env::args().nth(1).unwrap().parse().unwrap();
    let b = Board::start(Variant::Abapa);
    for i in 1..=d {
        let t = std::time::Instant::now();
        let n = b.perft(i);
        println!("{i} {n} {:.1} Mnps", n as f64 / t.elapsed().as_secs_f64() / 1e6);
    }
}
