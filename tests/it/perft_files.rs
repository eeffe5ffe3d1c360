//! The data-driven perft test shared by the games: every record of `tests/data/oware.perft` and
//! `tests/data/dobutsu.perft` is counted by the library's one generic [`perft`] on the game its
//! `variant` names (shakmaty's `test_perft_file`), and [`perft_divide`] must split each count.
//!
//! The format is in `common::perft_file`. Each game's own test module checks the counts against
//! an independent slow move generator.

use crate::common::perft_file::{self, records, Record};
use perfectplay::game::{perft, perft_divide};
use perfectplay::variant::{Variant, VariantGame, VisitGame};

/// Counts above this many leaves are left to `--ignored` runs (they take seconds each).
const MAX_LEAVES: u64 = 6_000_000;

/// Checks one record on its game: every count up to `max_leaves`, and the divide of the deepest.
struct Check<'a> {
    record: &'a Record,
    max_leaves: u64,
}

impl VisitGame for Check<'_> {
    type Output = usize;
    fn visit<G: VariantGame>(self, rules: G::Rules) -> usize {
        let r = self.record;
        let pos = G::parse_position(&r.fen, &rules)
            .unwrap_or_else(|e| panic!("{}: '{}' does not read: {e}", r.id, r.fen));
        let mut checked = 0;
        for &(depth, count) in r.counts.iter().filter(|c| c.1 <= self.max_leaves) {
            assert_eq!(
                perft(&pos, depth),
                count,
                "{} ({}) depth {depth}",
                r.id,
                r.variant
            );
            checked += 1;
        }
        if let Some(&(depth, count)) = r.counts.iter().rfind(|c| c.1 <= 100_000) {
            let split = perft_divide(&pos, depth);
            assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), count, "{}", r.id);
        }
        checked
    }
}

fn check_file(text: &str, default: Variant, max_leaves: u64) -> usize {
    records(text, default)
        .iter()
        .map(|record| record.variant.visit(Check { record, max_leaves }))
        .sum()
}

#[test]
fn oware_perft_file() {
    let checked = check_file(perft_file::OWARE, Variant::Abapa, MAX_LEAVES);
    assert!(checked >= 50, "only {checked} counts checked");
}

#[test]
fn dobutsu_perft_file() {
    let checked = check_file(perft_file::DOBUTSU, Variant::Dobutsu, MAX_LEAVES);
    assert!(checked >= 30, "only {checked} counts checked");
}

#[test]
#[ignore = "the largest counts: minutes"]
fn every_count_of_both_files() {
    check_file(perft_file::OWARE, Variant::Abapa, u64::MAX);
    check_file(perft_file::DOBUTSU, Variant::Dobutsu, u64::MAX);
}
