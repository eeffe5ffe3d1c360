//! What every pass of one layer's build is given besides the bytes it works on.

use super::reachable::reachable_len;
use super::split::{Part, Split};
use crate::oware::RuleSet;
use crate::retro::Progress;

/// One layer's build: the rules, the layer (`n` seeds), where its progress goes and, in a build
/// split over several ranks ([`super::split`]), this rank.
#[derive(Clone, Copy)]
pub(super) struct Job<'a> {
    pub variant: RuleSet,
    pub n: u32,
    pub progress: &'a dyn Progress,
    pub split: Option<&'a Split<'a>>,
}

impl Job<'_> {
    /// Positions in the layer.
    pub fn len(&self) -> u64 {
        reachable_len(self.n)
    }

    /// Positions of the layer this rank holds: its share, or the whole layer unless split.
    pub fn share_len(&self) -> u64 {
        self.part().share_of(self.len())
    }

    /// Whether every value is exact (`awari`): one value byte holds both bounds.
    pub fn exact(&self) -> bool {
        self.variant == RuleSet::Awari
    }

    /// The blocks of the layer this rank works on ([`Part::WHOLE`] unless split).
    pub fn part(&self) -> Part {
        self.split.map_or(Part::WHOLE, Split::part)
    }
}
