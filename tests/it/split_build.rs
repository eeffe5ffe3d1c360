//! The build split over ranks (`perfectplay::oware::tablebase::split`), owner computes, its
//! ranks as threads of this process (`InProcess`), against the plain build: the layer files the
//! ranks write together from their shares are the same bytes as the plain build's, for both
//! variants, with 1, 2 and 3 ranks, and so are those of a split build started again from the
//! files of its first layers.

use std::path::Path;

use crate::common::fresh_dir;
use perfectplay::oware::tablebase::split::Split;
use perfectplay::oware::tablebase::{file, Tablebase};
use perfectplay::oware::RuleSet;
use perfectplay::retro::transport::{Alone, InProcess, Transport};
use perfectplay::retro::Silent;

/// The most seeds built: layer 12 has about 350,000 positions under each variant.
const SEEDS: u32 = 12;

/// Blocks of 32,768 positions (the least), so that the layers from 8 seeds on are spread over
/// every rank.
const BLOCK: u64 = 1 << 15;

/// One rank's build up to `seeds` into `dir`, from the layers there: the bytes it received from
/// the other ranks.
fn rank_build(variant: RuleSet, seeds: u32, dir: &Path, transport: &dyn Transport) -> u64 {
    let split = Split::with_block(transport, BLOCK);
    let (mut tb, problems) = file::load_share(dir, variant, &split);
    assert!(problems.is_empty(), "{problems:?}");
    let mut received = 0;
    while tb.seeds().is_none_or(|s| s < seeds) {
        let park = file::PassFiles::of_rank(dir, variant, split.rank());
        let report = tb.build_next_split(None, &Silent, &split, &park);
        file::save_share(&mut tb, report.seeds, dir, &split).unwrap();
        received += split.take_exchanged().received;
    }
    received
}

/// Every rank's build up to `seeds` into `dir` with `k` ranks as threads: what each received.
fn split_build(variant: RuleSet, seeds: u32, dir: &Path, k: usize) -> Vec<u64> {
    let ranks = InProcess::ranks(k);
    std::thread::scope(|s| {
        let handles: Vec<_> = ranks
            .iter()
            .map(|t| s.spawn(move || rank_build(variant, seeds, dir, t)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The layer files 0 to [`SEEDS`] in `dir`.
fn layer_files(variant: RuleSet, dir: &Path) -> Vec<Vec<u8>> {
    (0..=SEEDS)
        .map(|n| std::fs::read(dir.join(file::layer_name(variant, n))).unwrap())
        .collect()
}

#[test]
fn split_builds_write_the_plain_builds_files() {
    for variant in [RuleSet::Awari, RuleSet::Abapa] {
        let plain_dir = fresh_dir(&format!("split_plain_{variant}"));
        file::save(&Tablebase::build(variant, SEEDS, &Silent), &plain_dir).unwrap();
        let plain = layer_files(variant, &plain_dir);
        let alone = fresh_dir(&format!("split_alone_{variant}"));
        assert_eq!(rank_build(variant, SEEDS, &alone, &Alone), 0);
        assert!(
            layer_files(variant, &alone) == plain,
            "{variant}: one rank differs"
        );
        for k in [2, 3] {
            let dir = fresh_dir(&format!("split_{variant}_{k}"));
            for (r, received) in split_build(variant, SEEDS, &dir, k).iter().enumerate() {
                assert!(
                    *received > 0,
                    "{variant}, {k} ranks: rank {r} received nothing"
                );
            }
            for (n, (a, b)) in layer_files(variant, &dir).iter().zip(&plain).enumerate() {
                assert!(a == b, "{variant}, {k} ranks: layer {n} differs");
            }
        }
        // Started again from layers 0 to 9 written by 2 ranks, with 3.
        let dir = fresh_dir(&format!("split_resumed_{variant}"));
        split_build(variant, 9, &dir, 2);
        split_build(variant, SEEDS, &dir, 3);
        for (n, (a, b)) in layer_files(variant, &dir).iter().zip(&plain).enumerate() {
            assert!(a == b, "{variant}, resumed: layer {n} differs");
        }
    }
}
