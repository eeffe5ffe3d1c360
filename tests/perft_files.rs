//! The data-driven perft test shared by the games: every record of `tests/data/oware.perft` and
//! `tests/data/dobutsu.perft` is counted by the library's one generic [`perft`] on the game its
//! `variant` names (shakmaty's `test_perft_file`), and [`perft_divide`] must split each count.
//!
//! Format: records separated by blank lines, `#` starts a comment line; `id NAME`, `fen POSITION`
//! (the game's own notation, spaces allowed), `variant NAME` (the file's default when absent),
//! then `depth N COUNT` lines. Each game's own test file checks the counts against an independent
//! slow move generator.

use perfectplay::game::{perft, perft_divide, Notation};
use perfectplay::variant::{Variant, VisitGame};

/// Counts above this many leaves are left to `--ignored` runs (they take seconds each).
const MAX_LEAVES: u64 = 6_000_000;

struct Record {
    id: String,
    fen: String,
    variant: Variant,
    counts: Vec<(u32, u64)>,
}

fn records(text: &str, default: Variant) -> Vec<Record> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let lines: Vec<&str> = block
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if lines.is_empty() {
            continue;
        }
        let mut record = Record {
            id: String::new(),
            fen: String::new(),
            variant: default,
            counts: Vec::new(),
        };
        for line in lines {
            let (key, value) = line.split_once(' ').expect("a key and a value");
            match key {
                "id" => record.id = value.to_string(),
                "fen" => record.fen = value.to_string(),
                "variant" => record.variant = value.parse().expect("a variant"),
                "depth" => {
                    let (d, n) = value.split_once(' ').expect("depth N COUNT");
                    record
                        .counts
                        .push((d.parse().expect("a depth"), n.parse().expect("a count")));
                }
                other => panic!("unknown key '{other}' in a perft file"),
            }
        }
        assert!(!record.id.is_empty() && !record.fen.is_empty(), "{block}");
        assert!(!record.counts.is_empty(), "{}: no counts", record.id);
        out.push(record);
    }
    out
}

/// Checks one record on its game: every count up to `max_leaves`, and the divide of the deepest.
struct Check<'a> {
    record: &'a Record,
    max_leaves: u64,
}

impl VisitGame for Check<'_> {
    type Output = usize;
    fn visit<G: Notation>(self, rules: G::Rules) -> usize {
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
        if let Some(&(depth, count)) = r.counts.iter().filter(|c| c.1 <= 100_000).last() {
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
    let checked = check_file(include_str!("data/oware.perft"), Variant::Abapa, MAX_LEAVES);
    assert!(checked >= 50, "only {checked} counts checked");
}

#[test]
fn dobutsu_perft_file() {
    let checked = check_file(
        include_str!("data/dobutsu.perft"),
        Variant::Dobutsu,
        MAX_LEAVES,
    );
    assert!(checked >= 30, "only {checked} counts checked");
}

#[test]
fn dobutsu_start_counts_are_the_known_ones() {
    // Depths 1-3 from the start (no game ends before ply 4), as the issue gives them.
    let records = records(include_str!("data/dobutsu.perft"), Variant::Dobutsu);
    let start = records
        .iter()
        .find(|r| r.id == "start")
        .expect("a start record");
    assert_eq!(start.fen, "gle/1c1/1C1/ELG[-] w 0 1");
    assert_eq!(&start.counts[..3], &[(1, 4), (2, 17), (3, 123)]);
}

#[test]
#[ignore = "the largest counts: minutes"]
fn every_count_of_both_files() {
    check_file(include_str!("data/oware.perft"), Variant::Abapa, u64::MAX);
    check_file(
        include_str!("data/dobutsu.perft"),
        Variant::Dobutsu,
        u64::MAX,
    );
}
