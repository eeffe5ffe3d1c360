//! The bench: a fixed set of positions from self-play games searched to a fixed depth. Its node
//! total is the search's signature, so it must be the same on every run; a change of search
//! behaviour changes it, and then the recorded value below is updated with the commit that
//! changes it.

use perfectplay::bench::{bench_positions, run_bench, run_bench_variant};
use perfectplay::variant::Variant;
use std::process::Command;

/// Nodes of `perfectplay bench --depth 8` (16 MiB table), recorded from the search as committed.
const SIGNATURE_DEPTH_8: u64 = 80_094;

#[test]
fn bench_is_deterministic_and_matches_its_signature() {
    let first = run_bench(Some(8), 16);
    let second = run_bench(Some(8), 16);
    assert_eq!(first.positions, bench_positions().len());
    assert_eq!(first.positions, 105);
    assert_eq!(first.depth, 8);
    assert_eq!(first.nodes, second.nodes, "same bench, same node count");
    assert_eq!(first.nodes, SIGNATURE_DEPTH_8);
}

/// Nodes of `perfectplay bench --variant dobutsu --depth 6`, recorded from the search as committed.
const DOBUTSU_SIGNATURE_DEPTH_6: u64 = 248_758;

#[test]
fn dobutsu_bench_is_deterministic_and_matches_its_signature() {
    let first = run_bench_variant(Variant::Dobutsu, Some(6), 16, 1);
    let second = run_bench_variant(Variant::Dobutsu, Some(6), 16, 1);
    assert_eq!(first.positions, 80);
    assert_eq!(first.nodes, second.nodes, "same bench, same node count");
    assert_eq!(first.nodes, DOBUTSU_SIGNATURE_DEPTH_6);
}

#[test]
fn bench_subcommand_prints_nodes_and_nps() {
    let out = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["bench", "--depth", "8"])
        .output()
        .expect("run perfectplay bench");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(
        &words[..7],
        [
            "bench",
            "positions",
            "105",
            "depth",
            "8",
            "nodes",
            &SIGNATURE_DEPTH_8.to_string()
        ]
    );
    assert_eq!(words[7], "time");
    assert_eq!(words[9], "ms");
    assert_eq!(words[10], "nps");
    assert!(words[11].parse::<u64>().is_ok());
}

/// `bench --depth` takes 1 to 100, as `go depth` does: 0 and 101 are refused with a usage error.
#[test]
fn bench_depth_out_of_range_is_refused() {
    for depth in ["0", "101"] {
        let out = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(["bench", "--depth", depth])
            .output()
            .expect("run perfectplay bench");
        assert_eq!(out.status.code(), Some(2), "--depth {depth}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("1..=100"), "{err}");
    }
}
