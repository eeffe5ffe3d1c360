//! The reachable index of a layer: a dense 64-bit rank of the boards of `n` seeds (the side to
//! move's row first, houses 0-5, then the opponent's, houses 6-11) whose opponent's row has an
//! empty house, in `0..`[`reachable_len`]`(n)`.
//!
//! **Why these boards.** Every position after a move is one of them: the side that just moved
//! (now the opponent) sowed from a house of its row, and sowing skips that house on every lap,
//! so it is empty after the move; a capture takes seeds only from the other row. A layer holds
//! C(n + 11, 11) boards, C(n + 5, 11) of them with no empty house in the opponent's row (take one
//! seed from each of its six houses), so this index has C(n + 11, 11) - C(n + 5, 11) boards: 92%
//! of layer 24, 73% of layer 48, 1,056,351,956,205 up to 48 seeds against 1,399,358,844,975. The
//! start position, with every house full, is not among them and is answered by its moves.
//! Romein and Bal's 889,063,398,406 is this count without layer 47 (a capture takes at least 2
//! seeds, so a game never holds 47), plus the start position.
//!
//! **The scheme.** A board is taken apart as
//!
//! - `s`, the seeds of the opponent's row (0 to `n`), and `j`, its first empty house (0-5): the
//!   houses before it hold a seed at least, those after it anything;
//! - the opponent's row as a composition of `s - j` into 5 parts: the `j` houses before the empty
//!   one, less a seed each, then the `5 - j` after it. There are C(s - j + 4, 4) of them;
//! - the mover's row, a composition of `m = n - s` into 6 parts, C(m + 5, 5) of them.
//!
//! Both compositions are ranked as [`super::index`] ranks a whole board (the combinatorial number
//! system over the bars between the seeds), and
//! `rank = BASE[n][(s, j)] + rank(opponent's parts) × C(m + 5, 5) + rank(mover's row)`, where
//! `BASE[n][(s, j)]` counts the boards of the groups `(s', j')` before `(s, j)` in the order of
//! `s`, then `j`. A rank is nine table lookups for the two compositions' terms, one for `BASE`,
//! one for C(m + 5, 5), one multiplication, and a word operation that finds the first empty
//! house: no loop over the seeds. Unranking finds the group by a binary search of `BASE[n]` (at
//! most 294 entries).

use super::index::{unrank_parts, word, CHOOSE, MAX_SEEDS, TERM};

/// Layers: 0 to [`MAX_SEEDS`] seeds.
const LAYERS: usize = MAX_SEEDS as usize + 1;

/// Groups `(s, j)` per layer, group `6 s + j`, for `s` up to [`MAX_SEEDS`].
const GROUPS: usize = 6 * LAYERS;

/// `BASE[n][6 s + j]`: the first rank of group `(s, j)` in layer `n` (the boards whose
/// opponent's row holds `s` seeds and has its first empty house at `j`); from `6 (n + 1)` on,
/// [`reachable_len`]`(n)`.
static BASE: [[u64; GROUPS + 1]; LAYERS] = {
    let mut base = [[0u64; GROUPS + 1]; LAYERS];
    let mut n = 0;
    while n < LAYERS {
        let mut first = 0;
        let mut g = 0;
        while g <= GROUPS {
            base[n][g] = first;
            let (s, j) = (g / 6, g % 6);
            if s <= n && j <= s {
                first += CHOOSE[s - j + 4][4] * CHOOSE[n - s + 5][5];
            }
            g += 1;
        }
        n += 1;
    }
    base
};

/// The number of boards of `n` seeds whose opponent's row has an empty house:
/// C(n + 11, 11) - C(n + 5, 11).
///
/// # Panics
/// If `n` is above [`MAX_SEEDS`].
pub fn reachable_len(n: u32) -> u64 {
    assert!(n <= MAX_SEEDS, "at most {MAX_SEEDS} seeds");
    BASE[n as usize][6 * (n as usize + 1)]
}

/// The number of boards of at most `n` seeds whose opponent's row has an empty house:
/// C(n + 12, 12) - C(n + 6, 12).
///
/// # Panics
/// If `n` is above [`MAX_SEEDS`].
pub fn reachable_total_len(n: u32) -> u64 {
    (0..=n).map(reachable_len).sum()
}

/// The first empty house (0-5) of the opponent's row (houses 6-11) of a word of houses; `None`
/// when every one holds seeds.
#[inline]
fn first_empty(word: u128) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The row's six bytes, and two bytes that are never zero above them. The lowest byte
    // flagged is the first zero byte (a borrow only runs upwards from a zero byte).
    let row = (word >> 48) as u64 & 0xFFFF_FFFF_FFFF | 0xFFFF << 48;
    let zero = row.wrapping_sub(ONES) & !row & HIGH;
    (zero != 0).then(|| zero.trailing_zeros() as usize / 8)
}

/// The opponent's row of the five parts `parts` with its first empty house at `j`, written to
/// `row` (six houses).
#[inline]
fn opponent_row(parts: &[u8; 5], j: usize, row: &mut [u8]) {
    for (k, house) in row.iter_mut().enumerate() {
        *house = match k.cmp(&j) {
            std::cmp::Ordering::Less => parts[k] + 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => parts[k - 1],
        };
    }
}

/// The rank of a board (a word of twelve houses, the mover's row first, at most [`MAX_SEEDS`]
/// seeds) among the boards of its layer whose opponent's row has an empty house; `None` for a
/// board whose opponent's houses all hold seeds (no position after a move).
#[inline]
pub fn rank(word: u128) -> Option<u64> {
    let j = first_empty(word)?;
    let h = word.to_le_bytes();
    let (mut m, mut mover) = (0usize, 0u64);
    for (k, term) in TERM[..5].iter().enumerate() {
        m += h[k] as usize;
        mover += term[m];
    }
    m += h[5] as usize;
    // The opponent's row's prefix sums, and from them its parts' (see `opponent_parts_word`):
    // before the empty house, less a seed per house; after it, skipping it.
    let mut sums = [0usize; 6];
    let mut s = 0;
    for (k, sum) in sums.iter_mut().enumerate() {
        s += h[6 + k] as usize;
        *sum = s;
    }
    let mut opponent = 0u64;
    for (k, term) in TERM[..4].iter().enumerate() {
        let p = sums[k + (k >= j) as usize] - (k + 1).min(j);
        opponent += term[p];
    }
    Some(BASE[m + s][6 * s + j] + opponent * CHOOSE[m + 5][5] + mover)
}

/// The board of rank `r` in the reachable index of the layer of `n` seeds, as a word of twelve
/// houses (the mover's row first).
///
/// # Panics
/// If `r` is not below [`reachable_len`]`(n)`.
pub fn unrank(r: u64, n: u32) -> u128 {
    assert!(
        r < reachable_len(n),
        "rank {r} outside the reachable layer of {n} seeds"
    );
    let n = n as usize;
    let base = &BASE[n][..6 * (n + 1)];
    // The last group starting at or before `r` (empty groups start where the next one does).
    let g = base.partition_point(|&b| b <= r) - 1;
    let (s, j) = (g / 6, g % 6);
    let m = n - s;
    let width = CHOOSE[m + 5][5];
    let within = r - base[g];
    let mut h = [0u8; 12];
    unrank_parts(within % width, m as u32, &mut h[..6]);
    let mut parts = [0u8; 5];
    unrank_parts(within / width, (s - j) as u32, &mut parts);
    opponent_row(&parts, j, &mut h[6..]);
    word(&h)
}

/// Bytes `0..k` of a word set (`k` at most 8).
#[inline]
fn low_bytes(k: usize) -> u64 {
    if k >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * k)) - 1
    }
}

/// The sum of the bytes of `w` (at most 255).
#[inline]
fn byte_sum(w: u64) -> u8 {
    (w.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8
}

/// [`super::index`]'s next composition (see `next_parts`) for a row of at most eight parts held
/// as the bytes of a word, part 0 lowest: the smallest bar that can move up is the one below the
/// first part `j >= 1` holding seeds; it moves up by one and the bars below it drop to the
/// bottom (part `j` loses a seed, part `j - 1` gets the seeds of parts `0..j` and one more, parts
/// below it none). `None` for the last composition, every seed in part 0.
#[inline]
fn next_row(w: u64) -> Option<u64> {
    let above = w & !0xFF;
    if above == 0 {
        return None;
    }
    let j = above.trailing_zeros() as usize / 8;
    let below = w & low_bytes(j);
    Some(w - below + (u64::from(byte_sum(below)) + 1) * (1 << (8 * (j - 1))) - (1 << (8 * j)))
}

/// The opponent's row (six houses as the bytes of a word, the first empty one at `j`) as its
/// five parts: the houses before `j` less a seed each, then the houses after it.
#[inline]
fn opponent_parts_word(row: u64, j: usize) -> u64 {
    let ones = 0x0101_0101_0101 & low_bytes(j);
    ((row & low_bytes(j)) - ones) | (row >> (8 * (j + 1)) << (8 * j))
}

/// The opponent's row of the five parts `parts` with its first empty house at `j`, as the
/// bytes of a word ([`opponent_row`]'s).
#[inline]
fn opponent_row_word(parts: u64, j: usize) -> u64 {
    let ones = 0x0101_0101_0101 & low_bytes(j);
    ((parts & low_bytes(j)) + ones) | (parts >> (8 * j) << (8 * (j + 1)))
}

/// The board after `w` (a word of houses) in the reachable index's order (rank + 1), in place;
/// false (and `w` unchanged) for the last of its layer. `w` must be in the index (its
/// opponent's row has an empty house). Word operations only: a byte stored and read back as
/// part of a word would wait for the store.
#[inline]
pub fn next(w: &mut u128) -> bool {
    const ROW: u64 = 0xFFFF_FFFF_FFFF;
    let mover = *w as u64 & ROW;
    if let Some(m) = next_row(mover) {
        *w = (*w & !u128::from(ROW)) | u128::from(m);
        return true;
    }
    let Some(j) = first_empty(*w) else {
        return false;
    };
    let opponent = (*w >> 48) as u64 & ROW;
    let (m, s) = (byte_sum(mover), byte_sum(opponent));
    let (parts, j, m) = match next_row(opponent_parts_word(opponent, j)) {
        Some(parts) => (parts, j, m),
        // The next group that has boards: the first empty house one further, else one seed
        // more in the opponent's row; each starts at its first composition (every seed in the
        // last part).
        None if (j as u8) < s.min(5) => (u64::from(s - j as u8 - 1) << 32, j + 1, m),
        None if m > 0 => (u64::from(s + 1) << 32, 0, m - 1),
        None => return false,
    };
    // The mover's row starts again at its first composition: every seed in house 5.
    *w = u128::from(u64::from(m) << 40) | u128::from(opponent_row_word(parts, j)) << 48;
    true
}

/// The boards of a layer asked for by rank, mostly in rising order (the seeds a scan finds): each
/// is walked to from the one before by [`next`] when it is at most [`Cursor::STEPS`] ranks on
/// (a step is a few word operations), else found by [`unrank`] (a binary search and two loops
/// over the seeds).
pub struct Cursor {
    n: u32,
    /// The rank of `w`; `u64::MAX` before the first board.
    rank: u64,
    w: u128,
}

impl Cursor {
    /// The most ranks walked by [`next`] rather than found by [`unrank`].
    pub const STEPS: u64 = 8;

    /// A cursor over the reachable index of the layer of `n` seeds.
    pub fn new(n: u32) -> Cursor {
        Cursor {
            n,
            rank: u64::MAX,
            w: 0,
        }
    }

    /// The board of rank `r`, as [`unrank`]`(r, n)` gives it.
    ///
    /// # Panics
    /// If `r` is not below [`reachable_len`]`(n)`.
    #[inline]
    pub fn board(&mut self, r: u64) -> u128 {
        match r.checked_sub(self.rank) {
            Some(d) if d <= Self::STEPS => {
                for _ in 0..d {
                    assert!(next(&mut self.w), "rank {r} outside the reachable layer");
                }
            }
            _ => self.w = unrank(r, self.n),
        }
        self.rank = r;
        self.w
    }
}

#[cfg(test)]
mod tests {
    use super::super::index::{self, houses, layer_len, total_len};
    use super::*;
    use crate::oware::{Board, Move, RuleSet};
    use proptest::prelude::*;

    /// A cursor gives unrank's boards for ranks asked for in any order, near ones (walked) and
    /// far ones (unranked), to the layer's last board.
    #[test]
    fn a_cursor_gives_unranks_boards() {
        for n in [0, 1, 2, 7, 16, 30] {
            let len = reachable_len(n);
            let mut cursor = Cursor::new(n);
            let mut r = 0u64;
            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ n as u64;
            for _ in 0..5000 {
                assert_eq!(cursor.board(r), unrank(r, n), "{n} {r}");
                // Mostly small steps forwards, sometimes a jump anywhere.
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                r = if x.is_multiple_of(16) {
                    (x >> 8) % len
                } else {
                    (r + (x >> 8) % (2 * Cursor::STEPS)).min(len - 1)
                };
            }
            assert_eq!(cursor.board(len - 1), unrank(len - 1, n));
        }
    }

    /// C(a, b) computed here, not from the tables.
    fn choose(a: u64, b: u64) -> u64 {
        if b > a {
            return 0;
        }
        (0..b).fold(1u128, |c, i| c * (a - i) as u128 / (i + 1) as u128) as u64
    }

    fn in_set(h: &[u8; 12]) -> bool {
        h[6..].contains(&0)
    }

    #[test]
    fn counts_match_the_formula_and_romein_and_bal() {
        for n in 0..=MAX_SEEDS as u64 {
            assert_eq!(
                reachable_len(n as u32),
                choose(n + 11, 11) - choose(n + 5, 11),
                "layer {n}"
            );
        }
        assert_eq!(reachable_len(0), 1);
        assert_eq!(reachable_len(1), 12);
        assert_eq!(reachable_len(6), 12_375); // C(17, 11) less the board of six 1s
        assert_eq!(reachable_len(24), 382_628_610);
        // jh85/smallgames's count of the abapa positions up to 20 seeds (issue 21).
        assert_eq!(reachable_total_len(20), 216_135_140);
        assert_eq!(reachable_len(47), 167_288_557_800);
        assert_eq!(reachable_len(48), 203_648_015_935);
        let all: u64 = (0..=MAX_SEEDS).map(reachable_len).sum();
        assert_eq!(all, 1_056_351_956_205);
        for n in 0..=MAX_SEEDS as u64 {
            let total = reachable_total_len(n as u32);
            assert_eq!(total, choose(n + 12, 12) - choose(n + 6, 12), "up to {n}");
        }
        assert_eq!(total_len(MAX_SEEDS), 1_399_358_844_975);
        assert_eq!(all, total_len(MAX_SEEDS) - choose(54, 12));
        // Romein and Bal's count: no layer 47 (a capture takes 2 seeds at least), and the start
        // position, the one board outside the set that a game holds.
        assert_eq!(all - reachable_len(47) + 1, 889_063_398_406);
        // Above 2^32 from 32 seeds on.
        assert!(reachable_len(31) < 1 << 32 && reachable_len(32) > 1 << 32);
    }

    /// Every board of the small layers, in the order of the whole index: those with an empty
    /// opponent's house get every rank below the length once and unrank back; the others none.
    #[test]
    fn dense_and_round_trip_up_to_10_seeds() {
        for n in 0..=10 {
            let len = reachable_len(n);
            let mut seen = vec![false; len as usize];
            let mut h = houses(index::unrank(0, n));
            let mut boards = 0;
            loop {
                let w = word(&h);
                match rank(w) {
                    Some(r) => {
                        assert!(in_set(&h), "{h:?}");
                        assert!(r < len, "{h:?}: rank {r} of {len}");
                        assert!(!seen[r as usize], "{h:?}: rank {r} twice");
                        seen[r as usize] = true;
                        assert_eq!(unrank(r, n), w);
                    }
                    None => assert!(!in_set(&h), "{h:?}"),
                }
                boards += 1;
                if !index::next(&mut h) {
                    break;
                }
            }
            assert_eq!(boards, layer_len(n));
            assert!(seen.iter().all(|&s| s), "layer {n}: a rank not hit");
        }
    }

    /// `next` walks the ranks one by one, from rank 0 to the last of the layer.
    #[test]
    fn next_counts_up_to_10_seeds() {
        for n in 0..=10 {
            let walk = std::iter::successors(Some(unrank(0, n)), |w| {
                let mut after = *w;
                next(&mut after).then_some(after)
            });
            let mut boards = 0;
            for (r, w) in walk.enumerate() {
                assert_eq!(rank(w), Some(r as u64), "layer {n}: {:?}", houses(w));
                boards += 1;
            }
            assert_eq!(boards, reachable_len(n));
        }
    }

    #[test]
    fn the_start_position_is_outside() {
        assert_eq!(rank(word(&[4; 12])), None);
        let mut h = [4u8; 12];
        h[9] = 0;
        h[3] = 8;
        assert!(rank(word(&h)).is_some());
    }

    /// A board of `n` seeds from a rank of the whole layer (uniform over the boards).
    fn any_board() -> impl Strategy<Value = (u32, [u8; 12])> {
        (0..=MAX_SEEDS).prop_flat_map(|n| {
            (0..layer_len(n)).prop_map(move |r| (n, houses(index::unrank(r, n))))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Random ranks of every layer unrank to boards of the set with their seeds, which rank
        /// back; the board after one has the next rank.
        #[test]
        fn random_ranks_round_trip(n in 0..=MAX_SEEDS, x in any::<u64>()) {
            let len = reachable_len(n);
            let r = x % len;
            let w = unrank(r, n);
            prop_assert!(in_set(&houses(w)));
            prop_assert_eq!(index::seeds(w), n);
            prop_assert_eq!(rank(w), Some(r));
            let mut after = w;
            if next(&mut after) {
                prop_assert_eq!(rank(after), Some(r + 1));
            } else {
                prop_assert_eq!(r + 1, len);
            }
        }

        /// Random boards: ranked when the opponent's row has an empty house (and unranked back),
        /// else not.
        #[test]
        fn random_boards_round_trip((n, h) in any_board()) {
            let w = word(&h);
            match rank(w) {
                Some(r) => {
                    prop_assert!(in_set(&h));
                    prop_assert!(r < reachable_len(n));
                    prop_assert_eq!(unrank(r, n), w);
                }
                None => prop_assert!(!in_set(&h)),
            }
        }

        /// Every position after a legal move, seen from its side to move as the tablebase sees
        /// it, is in the set, under both rules.
        #[test]
        fn every_child_is_in_the_set((_n, h) in any_board(), awari in any::<bool>()) {
            let variant = if awari { RuleSet::Awari } else { RuleSet::Abapa };
            let board = Board::from_relative_houses(word(&h), variant);
            for k in 0..6 {
                if board.legal_mask() & (1 << k) == 0 {
                    continue;
                }
                let (child, _) = board.sow_and_capture(Move::from_house(k));
                let c = child.relative_houses();
                prop_assert!(rank(c).is_some(), "{:?} after {} from {:?}", houses(c), k, h);
            }
        }
    }
}
