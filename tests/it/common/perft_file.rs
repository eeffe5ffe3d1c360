//! The one reader of the perft files, `tests/data/oware.perft` and `tests/data/dobutsu.perft`
//! (shakmaty's `*.perft` format).
//!
//! Records are separated by blank lines, and `#` starts a comment line. Each record has `id NAME`,
//! `fen POSITION` (the game's own notation, spaces allowed), `variant NAME` (the file's default
//! when absent), then `depth N COUNT` lines.

use perfectplay::variant::Variant;

/// The Oware file (default variant abapa).
pub const OWARE: &str = include_str!("../../data/oware.perft");
/// The Dobutsu file.
pub const DOBUTSU: &str = include_str!("../../data/dobutsu.perft");

/// One record: a position and its leaf counts by depth.
#[derive(Debug)]
pub struct Record {
    pub id: String,
    pub fen: String,
    pub variant: Variant,
    pub counts: Vec<(u32, u64)>,
}

/// Every record of `text`, a record's variant `default` unless it names one. Panics, naming the
/// line, on a malformed file.
pub fn records(text: &str, default: Variant) -> Vec<Record> {
    let mut out = Vec::new();
    let mut current: Option<Record> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            out.extend(current.take());
            continue;
        }
        let record = current.get_or_insert_with(|| Record {
            id: String::new(),
            fen: String::new(),
            variant: default,
            counts: Vec::new(),
        });
        let bad = || -> ! { panic!("line {}: '{raw}'", n + 1) };
        let (key, value) = line.split_once(' ').unwrap_or_else(|| bad());
        match key {
            "id" => record.id = value.to_string(),
            "fen" => record.fen = value.to_string(),
            "variant" => record.variant = value.parse().unwrap_or_else(|_| bad()),
            "depth" => {
                let (d, c) = value.split_once(' ').unwrap_or_else(|| bad());
                let depth = d.parse().unwrap_or_else(|_| bad());
                record
                    .counts
                    .push((depth, c.parse().unwrap_or_else(|_| bad())));
            }
            _ => bad(),
        }
    }
    out.extend(current);
    for r in &out {
        assert!(
            !r.id.is_empty() && !r.fen.is_empty(),
            "a record without id or fen: {r:?}"
        );
        assert!(!r.counts.is_empty(), "{}: no counts", r.id);
    }
    out
}
