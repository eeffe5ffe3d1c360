//! Un-sowing: the positions whose moves without capture lead to a given position, the moves of
//! the game taken backwards.

use super::index::houses;
use crate::oware::{Board, Move, RuleSet};

/// The houses sown after house `h` of the mover's row, in order (eleven houses, `h` skipped).
const AFTER: [[usize; 11]; 6] = {
    let mut a = [[0usize; 11]; 6];
    let mut h = 0;
    while h < 6 {
        let mut k = 0;
        while k < 11 {
            a[h][k] = (h + 1 + k) % 12;
            k += 1;
        }
        h += 1;
    }
    a
};

/// Calls `f` with every position (word of houses, its mover's row first) that has a legal move
/// without capture leading to `child` (one call per such position and move).
#[inline]
pub(super) fn predecessors(child: u128, variant: RuleSet, mut f: impl FnMut(u128)) {
    const ROW: u128 = 0xFFFF_FFFF_FFFF;
    // The position before, from its mover's side: the child's second row first (as a word, and
    // as bytes for the tests; a word read back from bytes just stored would wait for them).
    let swapped = (child >> 48) | (child & ROW) << 48;
    let p = houses(swapped);
    // Whether the opponent has seeds after the move. A move without capture only adds seeds to
    // the opponent's row, so with none after it the opponent had none before either: under
    // abapa the move did not feed an empty row and was illegal; under awari it starved the
    // opponent and was legal only if every move did.
    let fed = child & ROW != 0;
    if !fed && variant == RuleSet::Abapa {
        return;
    }
    for h in 0..6 {
        if p[h] != 0 {
            continue;
        }
        // The board before: the seeds left in the houses sown from (house `h` is never among
        // them) as bytes, for the test, and the whole board as a word kept in step (a word read
        // back from bytes just stored would wait for the stores; testing the word's bytes is
        // slower).
        let mut left = p;
        let mut before = swapped;
        for &house in AFTER[h].iter().cycle() {
            if left[house] == 0 {
                break;
            }
            left[house] -= 1;
            before = before - (1u128 << (8 * house)) + (1u128 << (8 * h));
            // The last seed landed in `house`: a capture if it is the opponent's and now holds 2
            // or 3, unless the capture would take every seed of the opponent's row (a grand
            // slam), which abapa forbids (the move is played, nothing is taken) and awari allows.
            // Such a house holds seeds, so the opponent is fed.
            if house >= 6 && matches!(p[house], 2 | 3) {
                if variant == RuleSet::Abapa && takes_the_row(&p[6..], house - 6) {
                    f(before);
                }
                continue;
            }
            if fed {
                f(before);
                continue;
            }
            // Awari, the opponent not fed: legal only when every move starves it.
            let board = Board::from_relative_houses(before, variant);
            if board.legal_mask() & (1 << h) == 0 {
                continue;
            }
            let (after, captured) = board.sow_and_capture(Move::from_house(h));
            if captured == 0 {
                debug_assert_eq!(after.relative_houses(), child);
                f(before);
            }
        }
    }
}

/// Whether a capture that ends in house `k` of the opponent's row `row` (six houses, after the
/// sowing) would take every seed of the row: the houses after `k` are empty, and going back from
/// `k` the houses of 2 or 3 seeds reach the empty ones before them (the capture's run, as
/// [`Board::sow_and_capture`] takes it). `row[k]` holds 2 or 3.
#[inline]
fn takes_the_row(row: &[u8], k: usize) -> bool {
    let run = row[..=k]
        .iter()
        .rev()
        .take_while(|&&x| matches!(x, 2 | 3))
        .count();
    row[..k + 1 - run].iter().all(|&x| x == 0) && row[k + 1..].iter().all(|&x| x == 0)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::oware::tablebase::index::{layer_len, unrank};

    /// Un-sowing ([`predecessors`]) gives every board of up to 10 seeds exactly the boards whose
    /// legal moves without capture lead to it, once per such move: the rules played forwards
    /// ([`Board::legal_mask`], [`Board::sow_and_capture`]), grand slams included.
    #[test]
    fn predecessors_are_the_moves_without_capture_played_backwards() {
        for variant in [RuleSet::Abapa, RuleSet::Awari] {
            let mut grand_slams = 0;
            for n in 0..=10 {
                let mut forward: HashMap<u128, Vec<u128>> = HashMap::new();
                for r in 0..layer_len(n) {
                    let before = unrank(r, n);
                    let board = Board::from_relative_houses(before, variant);
                    for k in 0..6 {
                        if board.legal_mask() & (1 << k) == 0 {
                            continue;
                        }
                        let (after, captured) = board.sow_and_capture(Move::from_house(k));
                        if captured > 0 {
                            continue;
                        }
                        let under_awari = Board::from_relative_houses(before, RuleSet::Awari);
                        grand_slams +=
                            usize::from(under_awari.sow_and_capture(Move::from_house(k)).1 > 0);
                        forward
                            .entry(after.relative_houses())
                            .or_default()
                            .push(before);
                    }
                }
                for r in 0..layer_len(n) {
                    let child = unrank(r, n);
                    let mut back = Vec::new();
                    predecessors(child, variant, |b| back.push(b));
                    let mut played = forward.remove(&child).unwrap_or_default();
                    back.sort_unstable();
                    played.sort_unstable();
                    assert_eq!(back, played, "{variant:?} {:?}", houses(child));
                }
                assert!(forward.is_empty());
            }
            // Abapa's grand slams (moves that would take the whole row, so take nothing) are
            // among the moves checked; awari has none (they capture).
            assert_eq!(grand_slams > 0, variant == RuleSet::Abapa, "{variant:?}");
        }
    }
}
