//! What the ranks of `perfectplay tablebase build --mpi` agree on around the library's build:
//! that they see the same layers, that none is short of memory, that rank 0 wrote each layer,
//! and each rank's share of the report. Without MPI a build is its own one rank.

use std::path::Path;

use perfectplay::oware::tablebase::split::Split;
use perfectplay::oware::tablebase::LayerReport;
use perfectplay::oware::RuleSet;

use super::resources::bytes;

/// This process among the ranks of a build: alone, or one rank of a split build.
#[derive(Clone, Copy)]
pub(super) struct Ranks<'a> {
    split: Option<&'a Split<'a>>,
}

impl<'a> Ranks<'a> {
    /// A build alone (`None`) or as a rank of `split`.
    pub fn new(split: Option<&'a Split<'a>>) -> Ranks<'a> {
        Ranks { split }
    }

    /// The split build this rank is in, if any.
    pub fn split(self) -> Option<&'a Split<'a>> {
        self.split
    }

    /// Whether this rank writes the report (rank 0, or a build alone).
    pub fn lead(self) -> bool {
        self.split.is_none_or(|s| s.rank() == 0)
    }

    /// Fails on every rank unless all found the same layers in `dir` (`have`: 0 to that many
    /// seeds, `None`: none).
    pub fn same_layers(self, have: Option<u32>, dir: &Path) -> anyhow::Result<()> {
        let Some(split) = self.split else {
            return Ok(());
        };
        let have = have.map_or(-1, |s| s as i64);
        let all = split.all_gather(&have.to_le_bytes());
        anyhow::ensure!(
            all.iter().all(|h| h[..] == have.to_le_bytes()),
            "the ranks found different layers in {}: every rank must see the same directory \
             (rank {} found {})",
            dir.display(),
            split.rank(),
            if have < 0 {
                "none".to_string()
            } else {
                format!("0 to {have} seeds")
            }
        );
        Ok(())
    }

    /// Fails on every rank, unless `force`, when one rank's machine is `short` of what the
    /// build needs.
    pub fn refuse_with_any(
        self,
        short: Option<&str>,
        force: bool,
        variant: RuleSet,
        seeds: u32,
    ) -> anyhow::Result<()> {
        let Some(split) = self.split else {
            return Ok(());
        };
        let all = split.all_gather(short.unwrap_or("").as_bytes());
        if let Some((r, why)) = all.iter().enumerate().find(|(_, w)| !w.is_empty()) {
            anyhow::ensure!(
                force,
                "not building {variant} up to {seeds} seeds: on rank {r}, {}. Build fewer \
                 seeds, free memory or disk, or pass --force to start anyway",
                String::from_utf8_lossy(why)
            );
        }
        Ok(())
    }

    /// Fails on the other ranks when rank 0 could not write the layer of `report` (`written`
    /// is whether this rank did); what the layer's build exchanged, as the report's words, with
    /// the bytes this rank sent a position of the layer (empty without MPI).
    pub fn after_layer(self, written: bool, report: &LayerReport) -> anyhow::Result<String> {
        let seeds = report.seeds;
        let Some(split) = self.split else {
            return Ok(String::new());
        };
        // The other ranks stop with rank 0 when it cannot write the layer.
        let all = split.all_gather(&[written as u8]);
        anyhow::ensure!(
            all[0] == [1] || self.lead(),
            "rank 0 could not write layer {seeds}"
        );
        let x = split.take_exchanged();
        Ok(format!(
            ", exchanged {} sent + {} received ({:.1} bytes sent a position) in {} collectives \
             ({:.2} s)",
            bytes(x.sent),
            bytes(x.received),
            x.sent as f64 / report.positions.max(1) as f64,
            x.rounds,
            x.time.as_secs_f64()
        ))
    }

    /// Every rank's `mine` (its CPU and peak memory) for the report, rank 0's first (empty
    /// without MPI).
    pub fn usage(self, mine: &str) -> String {
        let Some(split) = self.split else {
            return String::new();
        };
        let all = split.all_gather(mine.as_bytes());
        let ranks: Vec<String> = all
            .iter()
            .enumerate()
            .map(|(r, m)| format!("rank {r}: {}", String::from_utf8_lossy(m)))
            .collect();
        format!("; {} ranks ({})", ranks.len(), ranks.join("; "))
    }
}
