//! What a build of the tablebase takes before it starts: the positions to solve, the memory at
//! its peak, the bytes of its layer files and an estimate of its time, from the seeds and the
//! variant alone (the front end compares them with the machine).
//!
//! **Memory** follows how the build allocates (`build.rs`, `Tablebase::build_next`): while layer
//! `n` is built, every layer below it is held (built here, or mapped from its file and read),
//! [`bytes_per_value`] per position, and layer `n` itself takes [`work_bytes_per_position`]: the
//! 4-byte state word, and the best exits (1 byte awari, 2 abapa) while the moves and thresholds
//! run, then the new values (as many bytes) once the exits are dropped, and the distances (1
//! byte) while the state words serve the distance pass. The peak of a build is
//! the peak of its top layer, since both terms grow with `n`; [`OVERHEAD_BYTES`] covers the
//! program and its threads. Against the peak resident memory `/usr/bin/time -v` measured
//! (docs/tablebases.md), the estimate is 1.0 to 1.6 MiB above it from 14 to 20 seeds, both
//! variants, and 2 to 3 MiB above it at 24 and 28 seeds.

use super::index::MAX_SEEDS;
use super::reachable::{reachable_len, reachable_total_len};
use crate::oware::Variant;
use crate::retro::file::HEADER_LEN;

/// Bytes the process holds besides the tables: code, thread stacks, buffers (about 7 MiB were
/// measured above the tables at 14 to 20 seeds).
pub const OVERHEAD_BYTES: u64 = 8 << 20;

/// Bytes per position of a solved layer, in memory and in its file: 2 under awari (the exact
/// value and the distance), 3 under abapa (lower and upper bounds, the distance).
pub fn bytes_per_value(variant: Variant) -> u64 {
    match variant {
        Variant::Awari => 2,
        Variant::Abapa => 3,
    }
}

/// Bytes per position of the layer being built, at the peak: the state word (4), the new
/// values and the distances ([`bytes_per_value`]): 6 under awari, 7 under abapa.
pub fn work_bytes_per_position(variant: Variant) -> u64 {
    4 + bytes_per_value(variant)
}

/// Positions solved per second of one core's time (docs/tablebases.md), distances included:
/// awari 2.3 M, as the reachable index's build to 20 seeds did with its distances (216,135,140
/// positions in 92 to 94 s of CPU, quiet machine; 59 to 61 s without the distances); abapa
/// 1.05 M, the build to 20 seeds with its cycle pass on a busy machine (201 to 203 s of CPU,
/// where the build before the cycle pass took 116 to 117 s). The rate falls as the layers outgrow the
/// caches (from about 3 M per core-second at 16 seeds), so the larger layers may take longer
/// than this says.
pub fn positions_per_core_second(variant: Variant) -> f64 {
    match variant {
        Variant::Awari => 2.3e6,
        Variant::Abapa => 1.05e6,
    }
}

/// What building one layer takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerEstimate {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions in the layer, [`reachable_len`]`(seeds)`.
    pub positions: u64,
    /// Bytes of memory the build holds at its peak while building this layer: the layers below
    /// ([`bytes_per_value`] per position), the layer's own work ([`work_bytes_per_position`])
    /// and [`OVERHEAD_BYTES`].
    pub peak_memory: u64,
    /// Bytes of the layer's file: the table header and [`bytes_per_value`] per position.
    pub file_bytes: u64,
    /// Seconds of one core's time, estimated at [`positions_per_core_second`].
    pub core_seconds: f64,
}

impl LayerEstimate {
    /// The estimate for the layer of `seeds` seeds.
    ///
    /// # Panics
    /// If `seeds` is above [`MAX_SEEDS`].
    pub fn new(variant: Variant, seeds: u32) -> LayerEstimate {
        let positions = reachable_len(seeds);
        let below = seeds.checked_sub(1).map_or(0, reachable_total_len);
        LayerEstimate {
            seeds,
            positions,
            peak_memory: below * bytes_per_value(variant)
                + positions * work_bytes_per_position(variant)
                + OVERHEAD_BYTES,
            file_bytes: HEADER_LEN as u64 + positions * bytes_per_value(variant),
            core_seconds: positions as f64 / positions_per_core_second(variant),
        }
    }
}

/// What building the layers of `first` to `seeds` seeds takes (the layers below `first` are
/// there already, loaded from their files).
#[derive(Clone, Debug, PartialEq)]
pub struct BuildEstimate {
    /// The rules.
    pub variant: Variant,
    /// The most seeds on the board the build reaches.
    pub seeds: u32,
    /// The layers to build, `first..=seeds` in order; empty when every layer is there.
    pub layers: Vec<LayerEstimate>,
    /// Positions to solve, the sum over [`BuildEstimate::layers`].
    pub positions: u64,
    /// Bytes of memory at the peak of the build, the largest of the layers' (that of the top
    /// layer); [`OVERHEAD_BYTES`] when there is nothing to build.
    pub peak_memory: u64,
    /// Bytes of the layer files the build writes.
    pub disk: u64,
    /// Seconds of one core's time, estimated at [`positions_per_core_second`].
    pub core_seconds: f64,
}

impl BuildEstimate {
    /// The estimate for building the layers of `first` to `seeds` seeds under `variant` (none
    /// when `first > seeds`).
    ///
    /// # Panics
    /// If `seeds` is above [`MAX_SEEDS`].
    pub fn new(variant: Variant, first: u32, seeds: u32) -> BuildEstimate {
        assert!(seeds <= MAX_SEEDS, "at most {MAX_SEEDS} seeds");
        let layers: Vec<LayerEstimate> = (first..=seeds)
            .map(|n| LayerEstimate::new(variant, n))
            .collect();
        BuildEstimate {
            variant,
            seeds,
            positions: layers.iter().map(|l| l.positions).sum(),
            peak_memory: layers
                .iter()
                .map(|l| l.peak_memory)
                .max()
                .unwrap_or(OVERHEAD_BYTES),
            disk: layers.iter().map(|l| l.file_bytes).sum(),
            core_seconds: layers.iter().map(|l| l.core_seconds).sum(),
            layers,
        }
    }

    /// Seconds of wall-clock time on `cores` cores (at least 1), if the work splits evenly
    /// over them (the builds to 24 seeds kept 2 cores 95% busy).
    pub fn wall_seconds(&self, cores: usize) -> f64 {
        self.core_seconds / cores.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awari_to_20_seeds() {
        let e = BuildEstimate::new(Variant::Awari, 0, 20);
        assert_eq!(e.layers.len(), 21);
        assert_eq!(e.positions, 216_135_140);
        let top = e.layers[20];
        assert_eq!(top.positions, 80_214_915);
        // Layers 0 to 19 (135,920,225 positions, 2 bytes each: value and distance) and 6 bytes
        // per position of layer 20, plus the overhead.
        assert_eq!(
            top.peak_memory,
            2 * 135_920_225 + 6 * 80_214_915 + (8 << 20)
        );
        assert_eq!(e.peak_memory, top.peak_memory);
        assert_eq!(e.disk, 21 * 192 + 2 * 216_135_140);
        assert!((e.core_seconds - 216_135_140.0 / 2.3e6).abs() < 1e-6);
        assert!((e.wall_seconds(2) - e.core_seconds / 2.0).abs() < 1e-9);
    }

    #[test]
    fn abapa_from_loaded_layers() {
        // Layers 0 to 16 there: only 17 and 18 are built.
        let e = BuildEstimate::new(Variant::Abapa, 17, 18);
        let seeds: Vec<u32> = e.layers.iter().map(|l| l.seeds).collect();
        assert_eq!(seeds, [17, 18]);
        assert_eq!(e.positions, 20_768_748 + 33_245_212);
        // Layers 0 to 17 (C(29, 12) - C(23, 12) = 50,543,857 positions, 3 bytes each) and 7
        // bytes per position of layer 18.
        assert_eq!(e.peak_memory, 3 * 50_543_857 + 7 * 33_245_212 + (8 << 20));
        assert_eq!(e.disk, 2 * 192 + 3 * (20_768_748 + 33_245_212));
    }

    #[test]
    fn the_whole_game() {
        let e = BuildEstimate::new(Variant::Awari, 0, 48);
        assert_eq!(e.positions, 1_056_351_956_205);
        // Layers 0 to 47, C(59, 12) - C(53, 12), 2 bytes each, and 6 bytes per position of
        // layer 48.
        assert_eq!(
            e.peak_memory,
            2 * 852_703_940_270 + 6 * 203_648_015_935 + (8 << 20)
        );
        assert_eq!(e.disk, 49 * 192 + 2 * 1_056_351_956_205);
        let abapa = BuildEstimate::new(Variant::Abapa, 0, 48);
        assert_eq!(
            abapa.peak_memory,
            3 * 852_703_940_270 + 7 * 203_648_015_935 + (8 << 20)
        );
    }

    #[test]
    fn nothing_to_build() {
        let e = BuildEstimate::new(Variant::Awari, 13, 12);
        assert!(e.layers.is_empty());
        assert_eq!((e.positions, e.disk), (0, 0));
        assert_eq!(e.peak_memory, OVERHEAD_BYTES);
        assert_eq!(e.core_seconds, 0.0);
    }
}
