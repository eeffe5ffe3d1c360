//! The Oware position: twelve houses, two stores, the side to move and the rule variant, with
//! sowing, capture, grand slam and feeding.

use std::fmt;
use std::str::FromStr;

use crate::game::{CycleRule, Game, OptionDecl, Outcome, Settings, Step, TableSettings, Tables};
use crate::oware::{Move, NotationError, RuleSet, Rules, Side, Weights};

/// Seeds in play at the start: 12 houses of 4.
pub const TOTAL_SEEDS: u32 = 48;
/// A player with more than this many seeds in the store has won (25 of 48).
pub const HALF_SEEDS: u8 = 24;

/// An Oware position: the houses (indices 0-5 are South's `A`-`F`, 6-11 North's `a`-`f`; sowing
/// goes up the indices around the ring), the two stores (captured seeds, South first), the side to
/// move, and the rule [`RuleSet`] (which decides grand slams and feeding, so it travels with the
/// position).
///
/// The whole position is one 128-bit word, one byte per count, seen from the side to move: its
/// houses first, then the opponent's, then its store and the opponent's. A move is computed in
/// registers and written as a single 16-byte value, so reading a child right after making it never
/// stalls on partial stores (store-to-load forwarding); each move turns the word around (the rows
/// swap, and the stores), so sowing, capture, legality and evaluation never depend on which player
/// moves. A value type: [`Board::sow_and_capture`] returns a new board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Bytes 0-5: the houses of the side to move (its `A`-`F` or `a`-`f`); 6-11: the opponent's;
    /// 12: the store of the side to move; 13: the opponent's; 14: the side to move (0 South,
    /// 1 North); 15: the variant (0 Abapa, 1 Awari).
    w: u128,
}

/// The byte of the store of the side to move (the opponent's follows).
const STORE_BYTE: usize = 12;
const SIDE_BYTE: usize = 14;
const VARIANT_BYTE: usize = 15;
/// The twelve house bytes of a board's word.
const HOUSES_MASK: u128 = (1u128 << 96) - 1;
/// The relative index of the opponent's first house.
const OPP_FIRST: usize = 6;

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self}, {})", self.variant())
    }
}

/// Why a diagram or a house list does not describe a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The seeds in houses and stores do not add up to 48.
    #[error("the seeds total {0}, not 48")]
    WrongTotal(u32),
}

impl Board {
    /// The start position: four seeds in every house, empty stores, South to move.
    pub fn start(variant: RuleSet) -> Board {
        Board::from_parts([4; 12], [0; 2], Side::South, variant)
    }

    /// A position from its parts.
    ///
    /// # Errors
    /// [`BoardError::WrongTotal`] unless houses and stores hold 48 seeds together.
    pub fn new(
        houses: [u8; 12],
        stores: [u8; 2],
        side: Side,
        variant: RuleSet,
    ) -> Result<Board, BoardError> {
        let total: u32 = houses.iter().chain(stores.iter()).map(|&s| s as u32).sum();
        if total != TOTAL_SEEDS {
            return Err(BoardError::WrongTotal(total));
        }
        Ok(Board::from_parts(houses, stores, side, variant))
    }

    fn from_parts(houses: [u8; 12], stores: [u8; 2], side: Side, variant: RuleSet) -> Board {
        let mut bytes = [0u8; 16];
        bytes[..12].copy_from_slice(&houses);
        bytes[STORE_BYTE..STORE_BYTE + 2].copy_from_slice(&stores);
        bytes[SIDE_BYTE] = side as u8;
        bytes[VARIANT_BYTE] = variant as u8;
        let absolute = u128::from_le_bytes(bytes);
        Board {
            w: match side {
                Side::South => absolute,
                Side::North => turn(absolute),
            },
        }
    }

    /// The word in absolute order: South's houses and store first (the layout of
    /// [`Board::from_parts`]).
    #[inline]
    fn absolute(&self) -> u128 {
        match self.side_to_move() {
            Side::South => self.w,
            Side::North => turn(self.w),
        }
    }

    /// The twelve houses seen from the side to move (its row first, then the opponent's), as the
    /// low twelve bytes of a word; the tablebase's normalised position.
    #[inline]
    pub(crate) fn relative_houses(&self) -> u128 {
        self.w & HOUSES_MASK
    }

    /// The word's bytes seen from the side to move: its houses (0-5), the opponent's (6-11), its
    /// store (12) and the opponent's (13), the side (14) and the variant (15).
    #[inline]
    pub(crate) fn relative_bytes(&self) -> [u8; 16] {
        self.w.to_le_bytes()
    }

    /// The position with these houses (the low twelve bytes of `houses`, the side to move's row
    /// first), South to move, empty stores: the tablebase's positions, which ignore the stores.
    /// The seeds need not total 48.
    #[inline]
    pub(crate) fn from_relative_houses(houses: u128, variant: RuleSet) -> Board {
        Board {
            w: (houses & HOUSES_MASK) | (variant as u128) << (8 * VARIANT_BYTE),
        }
    }

    /// The twelve houses, `A`-`F` then `a`-`f`.
    pub fn houses(&self) -> [u8; 12] {
        let mut houses = [0u8; 12];
        houses.copy_from_slice(&self.absolute().to_le_bytes()[..12]);
        houses
    }

    /// The stores, South's first.
    fn stores(&self) -> [u8; 2] {
        [self.store_at(0), self.store_at(1)]
    }

    /// The store of side index `i` (0 South, 1 North).
    #[inline]
    fn store_at(&self, i: usize) -> u8 {
        let relative = i ^ self.side_to_move().index();
        ((self.w >> (8 * STORE_BYTE)) as u16 >> (8 * relative)) as u8
    }

    /// The stores of the side to move and of its opponent.
    #[inline]
    fn relative_stores(&self) -> (u8, u8) {
        let stores = (self.w >> (8 * STORE_BYTE)) as u16;
        (stores as u8, (stores >> 8) as u8)
    }

    /// Seeds in one player's store.
    pub fn store(&self, side: Side) -> u8 {
        self.store_at(side.index())
    }

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        if (self.w >> (8 * SIDE_BYTE)) as u8 == 0 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The rule variant this position is played under.
    #[inline]
    pub fn variant(&self) -> RuleSet {
        if (self.w >> (8 * VARIANT_BYTE)) as u8 == 0 {
            RuleSet::Abapa
        } else {
            RuleSet::Awari
        }
    }

    /// The same position under another variant.
    pub fn with_variant(mut self, variant: RuleSet) -> Board {
        self.w =
            (self.w & !(0xFFu128 << (8 * VARIANT_BYTE))) | (variant as u128) << (8 * VARIANT_BYTE);
        self
    }

    /// Seeds in one player's row of six houses.
    pub fn row_seeds(&self, side: Side) -> u8 {
        if side == self.side_to_move() {
            byte_sum(mine(self.w))
        } else {
            byte_sum(theirs(self.w))
        }
    }

    /// Seeds still on the board (48 minus both stores).
    pub fn seeds_on_board(&self) -> u8 {
        byte_sum(mine(self.w)) + byte_sum(theirs(self.w))
    }

    /// Sows the `n` seeds of house `from` (relative to the side to move, so 0-5; `n` not 0) one by
    /// one into the following houses, skipping `from` on every lap; returns the houses after
    /// sowing and the relative house that got the last seed.
    ///
    /// The houses are the low twelve bytes of the board's word: emptying the origin and adding a
    /// precomputed mask of ones ([`SOW_MASKS`], [`LAP_MASKS`]) sows every seed at once. No byte
    /// can carry into the next, as no house can hold more than 48 seeds.
    #[inline]
    fn sow(word: u128, from: usize, n: usize) -> (u128, usize) {
        // The origin is one of the mover's houses, in the low half of the word.
        let word = word & !((0xFFu64 << (8 * from)) as u128);
        if n <= 11 {
            (word + SOW_MASKS[from][n], wrap(from + n))
        } else {
            // 12 or more seeds lap the board; each lap feeds the 11 other houses.
            let (laps, rest) = (n / 11, n % 11);
            let word = word + LAP_MASKS[from] * laps as u128 + SOW_MASKS[from][rest];
            let last = if rest == 0 {
                wrap(from + 11)
            } else {
                wrap(from + rest)
            };
            (word, last)
        }
    }

    /// Plays a move, which must be legal ([`Board::is_legal`]). Returns the new position and the
    /// seeds captured.
    ///
    /// Capture: the last seed lands in an opponent's house making it 2 or 3; those seeds and those
    /// of the houses before it, while they are the opponent's and hold 2 or 3, go to the mover's
    /// store. Under [`RuleSet::Abapa`] a capture that would take every seed of the opponent's row
    /// (a grand slam) captures nothing; under [`RuleSet::Awari`] it is made (legality then decides,
    /// see [`Board::legal_move_list`]).
    ///
    /// Computed on the rows as words: the houses captured are found at once (the run of houses
    /// holding 2 or 3 that ends at the last seed's), and the child's word is assembled already
    /// turned to the opponent.
    #[inline]
    pub fn sow_and_capture(&self, mv: Move) -> (Board, u8) {
        let from = mv.house() - self.side_to_move().first_house();
        // The mover's houses are the low bytes of the word.
        let n = (self.w as u64 >> (8 * from)) as u8 as usize;
        debug_assert!(from < 6 && n > 0, "illegal move {mv} in {self}");
        let (word, last) = Board::sow(self.w, from, n);
        let (my_row, mut their_row) = (mine(word), theirs(word));
        let mut captured = 0u8;
        if last >= OPP_FIRST {
            let k = last - OPP_FIRST;
            if matches!((their_row >> (8 * k)) as u8, 2 | 3) {
                // Houses 0..=k of the opponent's row, and those of them holding 2 or 3.
                let upto = (2u8 << k) - 1;
                let two_or_three = pack_high_bits(two_or_three(their_row)) & upto;
                // The run of such houses that ends at house k: above the highest one that is not.
                let gaps = upto & !two_or_three;
                let run = if gaps == 0 {
                    upto
                } else {
                    upto & !((2u8 << (7 - gaps.leading_zeros())) - 1)
                };
                let taken = their_row & SPREAD[run as usize];
                let grand_slam = taken == their_row;
                if !(grand_slam && self.variant() == RuleSet::Abapa) {
                    captured = byte_sum(taken);
                    their_row -= taken;
                }
            }
        }
        // The word turned to the opponent: its row first, then the mover's; the stores swap (the
        // mover's gaining the capture), and the side byte flips between 0 and 1.
        let hi = (self.w >> 64) as u64;
        let stores = ((hi >> 32) as u16 + captured as u16).rotate_left(8);
        let lo = their_row | my_row << 48;
        let hi = my_row >> 16 | (stores as u64) << 32 | ((hi ^ 1 << 48) & 0xFFFF << 48);
        (
            Board {
                w: lo as u128 | (hi as u128) << 64,
            },
            captured,
        )
    }

    /// The legal moves, in house order (`A`..`F` for South, `a`..`f` for North).
    ///
    /// A move sows a non-empty house of the mover. Under [`RuleSet::Abapa`], if the opponent's row
    /// is empty only moves that feed it are legal, and with none the game is over. Under
    /// [`RuleSet::Awari`], a move after which the opponent has no seeds (not fed, or all captured)
    /// is illegal unless every move is such a move; then all are legal, and the game ends after
    /// the move (Romein & Bal's rules for the solved game). Empty exactly when the game is over by the position
    /// ([`Board::outcome`]), apart from a store above 24 or a 24-24 draw, which this does not check.
    pub fn legal_move_list(&self) -> MoveList {
        MOVE_LISTS[self.side_to_move().index()][self.legal_mask() as usize]
    }

    /// The legal moves as a bit set: bit `k` stands for the mover's `k`-th house (`A`+k or
    /// `a`+k). Computed on the row as the bytes of a word, in registers (see
    /// [`Board::legal_move_list`] for the rules).
    #[inline]
    pub fn legal_mask(&self) -> u8 {
        let row = mine(self.w);
        let non_empty = pack_high_bits(at_least(row, ROW_ONES));
        match self.variant() {
            RuleSet::Abapa => {
                if theirs(self.w) == 0 {
                    // House k feeds the opponent when it holds at least 6 - k seeds.
                    non_empty & pack_high_bits(at_least(row, FEED_THRESHOLDS))
                } else {
                    non_empty
                }
            }
            RuleSet::Awari => {
                let base = self.side_to_move().first_house();
                let mut feeding = 0u8;
                for k in 0..6 {
                    // After the move the board has turned: the opponent's row comes first.
                    if non_empty & (1 << k) != 0
                        && mine(self.sow_and_capture(Move::from_house(base + k)).0.w) != 0
                    {
                        feeding |= 1 << k;
                    }
                }
                if feeding == 0 {
                    non_empty
                } else {
                    feeding
                }
            }
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_move_list().contains(mv)
    }

    /// The game's result if it is over by the position alone, from the side to move: a store above
    /// 24 wins, 24-24 is a draw, and a side to move without a legal move (it cannot feed, or has no
    /// seeds) ends the game with each player taking the seeds of their own row.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        let (me, opp) = self.relative_stores();
        if self.is_decided_by_stores() {
            return Some(compare(me, opp));
        }
        if !self.has_legal_move() {
            return Some(compare(
                me + byte_sum(mine(self.w)),
                opp + byte_sum(theirs(self.w)),
            ));
        }
        None
    }

    /// The final stores if the game is over by the position alone (see [`Board::outcome`]):
    /// `[South, North]`, with the seeds left on the board given to the owner of their row.
    pub fn final_stores(&self) -> Option<[u8; 2]> {
        if self.is_decided_by_stores() {
            return Some(self.stores());
        }
        if !self.has_legal_move() {
            return Some(self.stores_with_own_rows());
        }
        None
    }

    /// The stores if each player takes the seeds of their own row (Abapa's ending when a player
    /// cannot feed, and its cycle rule).
    pub fn stores_with_own_rows(&self) -> [u8; 2] {
        [
            self.store_at(0) + self.row_seeds(Side::South),
            self.store_at(1) + self.row_seeds(Side::North),
        ]
    }

    /// The stores if the seeds left are split evenly (Awari's cycle rule). With an odd number left
    /// the odd seed goes to no one; the winner is decided by the stores alone either way.
    pub fn stores_split_evenly(&self) -> [u8; 2] {
        let half = self.seeds_on_board() / 2;
        [self.store_at(0) + half, self.store_at(1) + half]
    }

    /// The stores when the cycle rule ends the game here: own rows under Abapa, the seeds left
    /// split evenly under Awari.
    pub fn cycle_stores(&self) -> [u8; 2] {
        match self.variant() {
            RuleSet::Abapa => self.stores_with_own_rows(),
            RuleSet::Awari => self.stores_split_evenly(),
        }
    }

    /// Faster than `!legal_moves().is_empty()`: under Awari any seed gives a legal move.
    #[inline]
    fn has_legal_move(&self) -> bool {
        let row = mine(self.w);
        if row == 0 {
            return false;
        }
        if self.variant() == RuleSet::Awari || theirs(self.w) != 0 {
            return true;
        }
        at_least(row, FEED_THRESHOLDS) != 0
    }

    /// The static evaluation from the side to move, in hundredths of a seed: the features of
    /// [`Board::features`] times the [`Weights`].
    ///
    /// Computed on each row's six houses as the bytes of one word (the search calls this for
    /// nearly every node); [`Board::evaluate_plain`] is the same sum written out.
    #[inline]
    pub fn evaluate(&self, w: &Weights) -> i32 {
        let (my_row, their_row) = (mine(self.w), theirs(self.w));
        let (mine, theirs) = (RowStats::of(my_row), RowStats::of(their_row));
        let (me, opp) = self.relative_stores();
        let store = me as i32 - opp as i32;
        let stored = me as i32 + opp as i32;
        let rows = mine.seeds - theirs.seeds;
        w.capture * store
            + w.row_seeds * rows
            + w.empty * (theirs.non_empty - mine.non_empty)
            + w.small_house * (mine.small - theirs.small)
            + w.big_house * (mine.big - theirs.big)
            + w.reach * (mine.reach - theirs.reach)
            + w.threats * threatened(their_row, mine.small_mask)
            + w.tempo
            + w.store_late * (store * stored / 16)
            + w.rows_late * (rows * stored / 16)
    }

    /// [`Board::evaluate`] as the sum of [`Board::features`] times the weights (the reference
    /// for tests).
    pub fn evaluate_plain(&self, w: &Weights) -> i32 {
        self.features()
            .iter()
            .zip(w.to_array())
            .map(|(f, w)| f * w)
            .sum()
    }

    /// A 64-bit hash of houses, stores, side to move and variant (of the word as it is: each
    /// position has one word, as the side byte says which way it is turned).
    #[inline]
    pub fn key(&self) -> u64 {
        mix(self.w as u64, (self.w >> 64) as u64)
    }

    /// Whether a store above 24 or a 24-24 split has ended the game.
    #[inline]
    fn is_decided_by_stores(&self) -> bool {
        let (me, opp) = self.relative_stores();
        me > HALF_SEEDS || opp > HALF_SEEDS || (me == HALF_SEEDS && opp == HALF_SEEDS)
    }
}

/// The outcome for the side whose final store is `me` against the opponent's `opp`.
#[inline]
fn compare(me: u8, opp: u8) -> Outcome {
    match me.cmp(&opp) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

/// The outcome for `side` given final stores.
pub(crate) fn outcome_of(stores: [u8; 2], side: Side) -> Outcome {
    compare(stores[side.index()], stores[side.opponent().index()])
}

/// What the evaluation counts in one row: seeds, houses holding some seeds, 1 or 2 (also as bits
/// 0-5), 12 or more, and the seeds the first lap of each house's sowing puts in the other row.
struct RowStats {
    seeds: i32,
    non_empty: i32,
    small: i32,
    small_mask: u8,
    big: i32,
    reach: i32,
}

impl RowStats {
    /// From a row as bytes of a word (each at most 48, so below 128: no byte borrows from the next).
    #[inline]
    fn of(row: u64) -> RowStats {
        // Byte k of `at_least(row, n)` has its high bit set iff house k holds at least n seeds.
        // The two unused bytes are 0: they count as neither small nor big.
        let (one, three, twelve) = (
            at_least(row, ROW_ONES),
            at_least(row, 3 * ROW_ONES),
            at_least(row, 12 * ROW_ONES),
        );
        // Byte k holds max(n - (5 - k), 0), then at most 6: the seeds sown past the row's end.
        let past =
            ((row | ROW_HIGH) - REACH_THRESHOLDS) & spread_high(at_least(row, REACH_THRESHOLDS));
        let over_six =
            ((past | ROW_HIGH) - 6 * ROW_ONES) & spread_high(at_least(past, 6 * ROW_ONES));
        let reach = past - over_six;
        let small = one & !three;
        RowStats {
            seeds: byte_sum(row) as i32,
            non_empty: byte_sum(one >> 7) as i32,
            small: byte_sum(small >> 7) as i32,
            small_mask: pack_high_bits(small),
            big: byte_sum(twelve >> 7) as i32,
            reach: byte_sum(reach) as i32,
        }
    }
}

/// Byte k holds 5 - k: the seeds house k of a row sows before the row ends.
const REACH_THRESHOLDS: u64 = 0x0001_0203_0405;

/// 0x7F in each byte whose high bit is set in `high` (a mask of high bits), else 0.
#[inline]
fn spread_high(high: u64) -> u64 {
    high - (high >> 7)
}

/// The houses in `targets` (bits 0-5 of the row sown into) on which the sowing of a house of
/// `row` (the row before it, as bytes) of fewer than 12 seeds ends.
#[inline]
fn threatened(row: u64, targets: u8) -> i32 {
    // House k of n seeds ends on the next row's house k + n - 6 when 6 <= k + n < 12 (an empty
    // house, or 12 and more seeds, lands outside bits 6-11).
    // The shift is at most 5 + 48.
    let mut ends = 0u64;
    for k in 0..6 {
        ends |= 1u64 << (k + (row >> (8 * k)) as u8 as u32);
    }
    let hit = (ends >> 6) as u8 & 0x3F & targets;
    BIT_COUNT[hit as usize] as i32
}

/// `BIT_COUNT[b]`: the bits set in the 6-bit `b`.
const BIT_COUNT: [u8; 64] = {
    let mut counts = [0u8; 64];
    let mut b = 0;
    while b < 64 {
        counts[b] = (b as u32).count_ones() as u8;
        b += 1;
    }
    counts
};

/// The byte of house `i` in a word of houses.
#[inline]
fn byte_at(word: u128, i: usize) -> u8 {
    word.to_le_bytes()[i]
}

/// The six houses of the side to move, from a board's word, as the low six bytes of a word.
#[inline]
fn mine(word: u128) -> u64 {
    word as u64 & ROW_MASK
}

/// The opponent's six houses, from a board's word, as the low six bytes of a word.
#[inline]
fn theirs(word: u128) -> u64 {
    // From the two halves of the word, so the compiler keeps it in registers instead of reading
    // six bytes at an odd offset of a value just stored (which would stall store forwarding).
    let (lo, hi) = (word as u64, (word >> 64) as u64);
    ((lo >> 48) | (hi << 16)) & ROW_MASK
}

/// A board's word seen from the other side: the two rows swap, and the two stores; the side and
/// variant bytes stay. Its own inverse.
#[inline]
fn turn(word: u128) -> u128 {
    let hi = (word >> 64) as u64;
    let (first, second) = (mine(word), theirs(word));
    let stores = (hi >> 32) as u16;
    let new_lo = second | (first << 48);
    let new_hi = (first >> 16) | (stores.rotate_left(8) as u64) << 32 | (hi & 0xFFFF << 48);
    new_lo as u128 | (new_hi as u128) << 64
}

/// The six bytes of a row word.
const ROW_MASK: u64 = 0xFFFF_FFFF_FFFF;
/// The high bit of each of the six bytes of a row word.
const ROW_HIGH: u64 = 0x8080_8080_8080;
/// A one in each of the six bytes of a row word.
const ROW_ONES: u64 = 0x0101_0101_0101;
/// Byte k holds 6 - k: the seeds house k of a row needs to reach the opponent's row.
const FEED_THRESHOLDS: u64 = 0x0102_0304_0506;

/// Byte k of the result has its high bit set iff byte k of `row` is at least byte k of
/// `thresholds` (both below 128, so no byte borrows from the next).
#[inline]
fn at_least(row: u64, thresholds: u64) -> u64 {
    ((row | ROW_HIGH) - thresholds) & ROW_HIGH
}

/// The high bit set in each byte of a row word that holds 2 or 3.
#[inline]
fn two_or_three(row: u64) -> u64 {
    // Bytes of 2 or 3 become 0 once their low bit is dropped and 2 subtracted by xor; every
    // other byte stays at least 1.
    let y = (row & 0xFEFE_FEFE_FEFE) ^ 0x0202_0202_0202;
    !at_least(y, ROW_ONES) & ROW_HIGH
}

/// `SPREAD[bits]`: the byte mask (0xFF in byte k) of a set of six houses given as bits.
const SPREAD: [u64; 64] = {
    let mut masks = [0u64; 64];
    let mut bits = 0;
    while bits < 64 {
        let mut k = 0;
        while k < 6 {
            if bits & (1 << k) != 0 {
                masks[bits] |= 0xFF << (8 * k);
            }
            k += 1;
        }
        bits += 1;
    }
    masks
};

/// Gathers the high bits of the six bytes of a row word into bits 0-5.
#[inline]
fn pack_high_bits(x: u64) -> u8 {
    // Bit 8k + 7 moves to bit 56 + k under the multiplication (no two terms meet).
    ((x >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The sum of the bytes of a word whose bytes add up to less than 256 (one multiplication).
#[inline]
fn byte_sum(x: u64) -> u8 {
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8
}

/// `SOW_MASKS[from][n]`: a one in the byte of each of the `n` (at most 11) houses after `from`
/// (relative to the side to move).
const SOW_MASKS: [[u128; 12]; 6] = {
    let mut masks = [[0u128; 12]; 6];
    let mut from = 0;
    while from < 6 {
        let mut n = 1;
        while n < 12 {
            masks[from][n] = masks[from][n - 1] | (1u128 << (8 * ((from + n) % 12)));
            n += 1;
        }
        from += 1;
    }
    masks
};

/// `LAP_MASKS[from]`: a one in the byte of each of the eleven houses other than `from`.
const LAP_MASKS: [u128; 6] = {
    let mut masks = [0u128; 6];
    let mut from = 0;
    while from < 6 {
        masks[from] = SOW_MASKS[from][11];
        from += 1;
    }
    masks
};

fn wrap(i: usize) -> usize {
    if i >= 12 {
        i - 12
    } else {
        i
    }
}

/// Mixes two words into one well-spread 64-bit hash (a multiply-xorshift finalizer).
fn mix(a: u64, b: u64) -> u64 {
    let mut x = a ^ b.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 32;
    x = x.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    x ^= x >> 32;
    x = x.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    x ^ (x >> 32)
}

/// `MOVE_LISTS[side][mask]`: the moves of the houses in a [`Board::legal_mask`] of that side's
/// row, in house order.
const MOVE_LISTS: [[MoveList; 64]; 2] = {
    let mut lists = [[MoveList::new(); 64]; 2];
    let mut side = 0;
    while side < 2 {
        let mut mask = 0;
        while mask < 64 {
            let list = &mut lists[side][mask];
            let mut k = 0;
            while k < 6 {
                if mask & (1 << k) != 0 {
                    list.moves[list.len as usize] = Move((6 * side + k) as u8);
                    list.len += 1;
                }
                k += 1;
            }
            mask += 1;
        }
        side += 1;
    }
    lists
};

/// Up to six moves, without allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveList {
    moves: [Move; 6],
    len: u8,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); 6],
            len: 0,
        }
    }
    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.iter().any(|&m| m == mv)
    }
    /// The moves in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves[..self.len as usize].iter()
    }
    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

impl fmt::Display for Board {
    /// The diagram: houses `A`..`F`, `a`..`f`, South's store, North's store, side (`S`/`N`), all
    /// joined by `-`, e.g. `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S` (the Aualé GUI's notation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for h in self.houses() {
            write!(f, "{h}-")?;
        }
        write!(
            f,
            "{}-{}-{}",
            self.store_at(0),
            self.store_at(1),
            self.side_to_move()
        )
    }
}

impl FromStr for Board {
    type Err = NotationError;
    /// Parses a diagram (see the `Display` impl) under [`RuleSet::Abapa`]; use
    /// [`Board::with_variant`] for another.
    ///
    /// # Errors
    /// [`NotationError`] when the diagram does not have 15 fields, a count is not a number from 0
    /// to 48 written in plain digits (no sign, no leading zero), the side is not `S` or `N`
    /// (upper case), or the seeds do not total 48.
    fn from_str(s: &str) -> Result<Board, NotationError> {
        let fields: Vec<&str> = s.trim().split('-').collect();
        if fields.len() != 15 {
            return Err(NotationError::DiagramFields(fields.len()));
        }
        let mut counts = [0u8; 14];
        for (i, field) in fields[..14].iter().enumerate() {
            counts[i] = seed_count(field)?;
        }
        // Strict: the side is written `S` or `N`, as the diagram prints it.
        let side = match fields[14] {
            "S" => Side::South,
            "N" => Side::North,
            other => return Err(NotationError::DiagramSide(other.to_string())),
        };
        let mut houses = [0u8; 12];
        houses.copy_from_slice(&counts[..12]);
        Board::new(houses, [counts[12], counts[13]], side, RuleSet::Abapa)
            .map_err(NotationError::Board)
    }
}

/// A diagram's seed count, written as the diagram prints it: decimal digits only, no sign, no
/// spaces and no leading zero (so `4`, never `+4`, ` 4` or `04`), from 0 to 48.
fn seed_count(field: &str) -> Result<u8, NotationError> {
    let bad = || NotationError::DiagramCount(field.to_string());
    let digits_only = !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit());
    if !digits_only || (field.len() > 1 && field.starts_with('0')) || field.len() > 2 {
        return Err(bad());
    }
    let v: u32 = field.parse().map_err(|_| bad())?;
    if v > TOTAL_SEEDS {
        return Err(bad());
    }
    Ok(v as u8)
}

impl Game for Board {
    /// Reverse futility pruning, 100 (a seed) a ply up to 3 plies, without late move pruning
    /// (measured: docs/lab/2026-12-06-search-measurements.md).
    const PRUNING: crate::game::Pruning = crate::game::Pruning {
        futility_margin: 100,
        futility_depth: 3,
        late_moves: 0,
    };
    type Move = Move;
    type Player = Side;
    type Rules = Rules;
    type Weights = Weights;
    type EvalParent = ();

    const NAME: &'static str = "oware";

    /// Fitted to 31,990 searches of 300 self-play games at 20,000 nodes a move
    /// (`examples/fit_wdl.rs`, docs/wdl.md): even odds at +133 (1.3 seeds), spread 378.
    fn wdl_model() -> crate::game::WdlModel {
        crate::game::WdlModel {
            mid: 133.0,
            spread: 378.0,
        }
    }

    fn start(rules: &Rules) -> Board {
        Board::start(rules.variant)
    }
    fn under_rules(self, rules: &Rules) -> Board {
        self.with_variant(rules.variant)
    }
    fn cycle_rule(rules: &Rules) -> CycleRule {
        rules.cycle
    }
    fn options() -> Vec<OptionDecl<Settings<Board>>> {
        super::options()
    }
    /// The endgame tablebase `TablebasePath` and `TablebaseSeeds` name
    /// ([`crate::oware::tablebase::oracle::load_tables`]).
    fn load_tables(tables: &TableSettings, rules: &Rules) -> Result<Option<Tables<Board>>, String> {
        crate::oware::tablebase::oracle::load_tables(tables, rules.variant)
            .map_err(|e| e.to_string())
    }
    /// The layers up to `TablebaseBuildSeeds` seeds (by default as many as this machine builds
    /// in a few minutes, [`crate::oware::tablebase::auto`]) in the data directory, when
    /// neither `TablebasePath` nor `TablebaseSeeds` is set and they are not all there.
    fn default_tables_build(
        tables: &TableSettings,
        rules: &Rules,
    ) -> Option<crate::game::TablesBuild> {
        use crate::oware::tablebase::{auto, oracle};
        if tables.path.is_some() || tables.limit.is_some() {
            return None;
        }
        auto::default_build(rules.variant, tables.build, oracle::DEFAULT_SEEDS)
    }
    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        // Copied from a table: all six entries (a fixed-size copy, no call to memcpy), then the
        // unused ones dropped.
        let list = &MOVE_LISTS[self.side_to_move().index()][self.legal_mask() as usize];
        let end = out.len() + list.len();
        out.extend_from_slice(&list.moves);
        out.truncate(end);
    }
    #[inline]
    fn play(&self, mv: Move) -> (Board, Step) {
        let (b, c) = Board::sow_and_capture(self, mv);
        let capture = c > 0;
        (
            b,
            Step {
                irreversible: capture,
                noisy: capture,
                reward: c,
            },
        )
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        Board::outcome(self)
    }
    fn cycle_outcome(&self) -> Outcome {
        outcome_of(self.cycle_stores(), self.side_to_move())
    }
    #[inline]
    fn evaluate(&self, weights: &Weights) -> i32 {
        if weights.network {
            crate::oware::net::evaluate(self)
        } else {
            Board::evaluate(self, weights)
        }
    }
    #[inline]
    fn key(&self) -> u64 {
        Board::key(self)
    }
    #[inline]
    fn to_move(&self) -> Side {
        self.side_to_move()
    }
    #[inline]
    fn may_be_noisy(&self, mv: Move) -> bool {
        // Fewer than 12 seeds put one seed in each of the next houses: the move captures only if
        // the last lands in an opponent's house holding 1 or 2 (a grand slam makes it capture
        // nothing, which playing it tells). 12 or more lap the board: let playing it tell.
        let from = mv.house() - self.side_to_move().first_house();
        let n = byte_at(self.w, from) as usize;
        if n >= 12 {
            return true;
        }
        // The last seed lands in relative house `from + n` (below 17; 12 and up are the mover's).
        let last = from + n;
        (OPP_FIRST..12).contains(&last) && matches!(byte_at(self.w, last), 1 | 2)
    }
}
