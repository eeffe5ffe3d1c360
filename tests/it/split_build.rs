//! The build split over ranks (`perfectplay::oware::tablebase::split`), its ranks as threads of
//! this process (`InProcess`), against the plain build: every rank's layer files are the same
//! bytes as the plain build's, for both variants, with 2 and 3 ranks.

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

/// One rank's build up to `seeds`: its table and the bytes it received from the other ranks.
fn rank_build(variant: RuleSet, seeds: u32, transport: &dyn Transport) -> (Tablebase, u64) {
    let split = Split::with_block(transport, BLOCK);
    let mut tb = Tablebase::empty(variant);
    let mut received = 0;
    while tb.seeds().is_none_or(|s| s < seeds) {
        tb.build_next_split(None, &Silent, &split);
        received += split.take_exchanged().received;
    }
    (tb, received)
}

/// The files of `tb` written to `dir`, layer by layer.
fn layer_files(tb: &Tablebase, dir: &Path) -> Vec<Vec<u8>> {
    file::save(tb, dir).unwrap();
    (0..=SEEDS)
        .map(|n| std::fs::read(dir.join(file::layer_name(tb.variant(), n))).unwrap())
        .collect()
}

#[test]
fn split_builds_write_the_plain_builds_files() {
    for variant in [RuleSet::Awari, RuleSet::Abapa] {
        let plain = layer_files(
            &Tablebase::build(variant, SEEDS, &Silent),
            &fresh_dir(&format!("split_plain_{variant}")),
        );
        let (alone, received) = rank_build(variant, SEEDS, &Alone);
        assert_eq!(received, 0);
        assert!(
            layer_files(&alone, &fresh_dir(&format!("split_alone_{variant}"))) == plain,
            "{variant}: one rank differs"
        );
        for k in [2, 3] {
            let ranks = InProcess::ranks(k);
            let built: Vec<(Tablebase, u64)> = std::thread::scope(|s| {
                let handles: Vec<_> = ranks
                    .iter()
                    .map(|t| s.spawn(move || rank_build(variant, SEEDS, t)))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            for (r, (tb, received)) in built.iter().enumerate() {
                assert!(
                    *received > 0,
                    "{variant}, {k} ranks: rank {r} received nothing"
                );
                let files = layer_files(tb, &fresh_dir(&format!("split_{variant}_{k}_{r}")));
                for (n, (a, b)) in files.iter().zip(&plain).enumerate() {
                    assert!(a == b, "{variant}, {k} ranks: rank {r}'s layer {n} differs");
                }
            }
        }
    }
}
