//! What a layer's build keeps after its long passes, so that a build stopped in the middle of a
//! layer goes on from there.

/// A pass of a layer's build after which a [`Checkpoint`] keeps what the build holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// The moves pass: its one section is the state words (4 bytes a position).
    Moves = 1,
    /// The values: each position's distance by the captures that keep its value (what the
    /// distance pass starts from), its lower bound and, under abapa, its upper bound (1 byte a
    /// position each; none under awari).
    Values = 2,
}

/// Where a layer's build keeps what it holds after its long passes ([`Pass`]), so that a build
/// stopped in the middle of a layer goes on after the last pass kept instead of from the
/// layer's start. The build decides what is kept and when; this stores the bytes
/// ([`super::file::PassFiles`] in files). A build that resumes gives the same layer.
pub trait Checkpoint: Sync {
    /// Fills `sections` with what was kept after `pass` of the layer of `seeds` seeds, if that
    /// is what is kept, whole and of these lengths: whether it did. When it did not, the
    /// sections may hold anything.
    fn resume(&self, seeds: u32, pass: Pass, sections: &mut [&mut [u8]]) -> bool;

    /// Keeps `sections`, what the build of the layer of `seeds` seeds holds after `pass`, in
    /// place of what was kept for it before.
    fn save(&self, seeds: u32, pass: Pass, sections: &[&[u8]]);

    /// Whether [`Checkpoint::save`] keeps anything of the layer of `seeds` seeds (if not, the
    /// build does not gather what it would save).
    fn keeps(&self, seeds: u32) -> bool;

    /// Holds `bytes` of the layer of `seeds` seeds (its best exits, 1 byte a position) out of
    /// memory until the build reads them back with [`Checkpoint::unpark`], in place of what was
    /// parked before: whether it did (if not, the build keeps them in memory, 1 byte a position
    /// more at its peak). None by default.
    fn park(&self, _seeds: u32, _bytes: &[u8]) -> bool {
        false
    }

    /// Reads `into.len()` of the bytes parked for the layer of `seeds` seeds back into `into`,
    /// from the `at`-th: whether it could. When it could not, the build goes on without them to
    /// a layer that is wrong and keeps no checkpoint of its values: the implementation must make
    /// its caller drop that layer.
    fn unpark(&self, _seeds: u32, _at: u64, _into: &mut [u8]) -> bool {
        false
    }

    /// The build of the layer of `seeds` seeds has read back all it parked: what holds those
    /// bytes may let them go.
    fn unparked(&self, _seeds: u32) {}
}

/// No checkpoint: nothing kept, nothing resumed.
pub struct NoCheckpoint;

impl Checkpoint for NoCheckpoint {
    fn resume(&self, _: u32, _: Pass, _: &mut [&mut [u8]]) -> bool {
        false
    }

    fn save(&self, _: u32, _: Pass, _: &[&[u8]]) {}

    fn keeps(&self, _: u32) -> bool {
        false
    }
}
