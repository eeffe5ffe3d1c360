//! A dense index over Dobutsu Shogi positions with Sente to move and both Lions on the board,
//! one representative per pair of left-right mirror images.
//!
//! An index is `pair × per_pair + within`: `pair` numbers the placements of the two Lions (only
//! one of each mirror pair of placements; when both Lions stand on file b the placement is its
//! own mirror image and the smaller index of the position and its mirror is taken), and
//! `within` numbers what stands on the other ten squares, in square order, and the hands. The ten
//! squares are read as two words of five symbols (empty or one of eight pieces), each word
//! ranked within the words with the same piece counts; the pair of word classes picks a block,
//! whose entries are ordered by hand, then first word, then second word. Every index below
//! [`Index::len`] is a legal arrangement of the piece set (nothing is wasted on two pieces on one
//! square or three pieces of a kind), so a bitset over it costs one bit per legal position: 107 MB
//! for the full piece set (1,567,925,964 positions before mirror merging).

use crate::dobutsu::{Position, Square};

/// The number of board symbols: empty, then Giraffe, Elephant, Chick, Hen, each Sente then Gote.
const SYMBOLS: usize = 9;
/// Squares per word.
const WORD_SQUARES: usize = 5;
/// The number of five-square words.
const WORDS: usize = 59_049;
/// Piece-count classes of a word: Giraffes + 3 × Elephants + 9 × (Chicks and Hens), each 0-2.
const CLASSES: usize = 27;
const NONE: u8 = u8::MAX;
/// Arrangements per entry of the block table.
const BLOCK_HINT_SHIFT: u32 = 10;

/// A position taken apart for indexing and unmoves: the code on each square (0 empty, else the
/// kind code 1-5 plus 8 for Gote, as in [`Position::key`]) and the hands (Sente's then Gote's,
/// counts of Giraffe, Elephant, Chick). Sente is always to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement {
    /// Code per square, `a1 b1 c1 a2 ... c4`.
    pub board: [u8; 12],
    /// `hands[player][hand index]`.
    pub hands: [[u8; 3]; 2],
    /// The squares of Sente's and Gote's Lions (kept in step with `board`).
    pub lions: [u8; 2],
}

const fn mirror_square(s: usize) -> usize {
    s - s % 3 + (2 - s % 3)
}

impl Placement {
    /// Takes apart the key of a position with Sente to move and no captured Lion.
    #[inline]
    pub fn from_key(key: u64) -> Placement {
        let mut board = [0u8; 12];
        for (sq, b) in board.iter_mut().enumerate() {
            let x = key >> sq;
            *b = (x & 1 | (x >> 11) & 2 | (x >> 22) & 4 | (x >> 33) & 8) as u8;
        }
        let h = key >> 48;
        let hands = [
            [(h & 3) as u8, (h >> 2 & 3) as u8, (h >> 4 & 3) as u8],
            [(h >> 6 & 3) as u8, (h >> 8 & 3) as u8, (h >> 10 & 3) as u8],
        ];
        let lions_bits = key & !(key >> 12) & !(key >> 24) & 0xFFF;
        let gote = key >> 36 & 0xFFF;
        let lions = [
            (lions_bits & !gote).trailing_zeros() as u8,
            (lions_bits & gote).trailing_zeros() as u8,
        ];
        Placement {
            board,
            hands,
            lions,
        }
    }

    /// The key of the position (Sente to move), the inverse of [`Placement::from_key`].
    #[inline]
    pub fn key(&self) -> u64 {
        let mut key = 0u64;
        for (sq, &c) in self.board.iter().enumerate() {
            let c = c as u64;
            key |= ((c & 1) | (c >> 1 & 1) << 12 | (c >> 2 & 1) << 24 | (c >> 3 & 1) << 36) << sq;
        }
        for p in 0..2 {
            for k in 0..3 {
                key |= (self.hands[p][k] as u64) << (48 + 6 * p + 2 * k);
            }
        }
        key
    }

    /// The position (Sente to move).
    pub fn position(&self) -> Position {
        let key = self.key();
        debug_assert!(Position::from_key(key).is_some(), "a legal position");
        Position::from_key_unchecked(key)
    }

    /// The mirror image (files a and c swapped).
    #[inline]
    pub fn mirrored(&self) -> Placement {
        let mut board = [0u8; 12];
        for (s, &c) in self.board.iter().enumerate() {
            board[mirror_square(s)] = c;
        }
        Placement {
            board,
            hands: self.hands,
            lions: self.lions.map(|s| mirror_square(s as usize) as u8),
        }
    }

    /// The squares of Sente's and Gote's Lions.
    #[inline]
    fn lions(&self) -> (usize, usize) {
        debug_assert_eq!(self.board[self.lions[0] as usize], 1);
        debug_assert_eq!(self.board[self.lions[1] as usize], 9);
        (self.lions[0] as usize, self.lions[1] as usize)
    }
}

/// Board symbol of a square code other than a Lion.
#[inline]
fn symbol(code: u8) -> usize {
    SYMBOL[code as usize & 15] as usize
}

/// [`symbol`] by table (Lions and unused codes map to 0; they are never asked).
const SYMBOL: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut code = 0;
    while code < 16 {
        let k = code & 7;
        if k >= 2 && k <= 5 {
            t[code] = (2 * (k - 2) + 1 + (code >> 3)) as u8;
        }
        code += 1;
    }
    t
};

/// Square code of a board symbol.
#[inline]
fn code_of_symbol(sym: usize) -> u8 {
    if sym == 0 {
        0
    } else {
        let k = (sym - 1) / 2 + 2;
        (k | ((sym - 1) % 2) << 3) as u8
    }
}

/// How to read a placement with given Lion squares: the representative pair's number, and the
/// squares to read for its ten free squares, in order (through the mirror when the pair is the
/// mirror image of the representative); for a pair that is its own mirror image, also the
/// squares that read the mirror image.
#[derive(Clone, Copy, Default)]
struct Slot {
    pair: u8,
    order: [u8; 10],
    mirror_order: [u8; 10],
}

/// Where a block of two word classes lies within a Lion pair.
#[derive(Clone, Copy, Default)]
struct BlockInfo {
    offset: u64,
    size: u64,
    second: u64,
}

/// How a Lion placement relates to its mirror image.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PairKind {
    /// The placement is the representative of a pair with a different mirror image.
    Canonical(u8),
    /// Its mirror image is the representative.
    Mirrored,
    /// Both Lions on file b: the placement is its own mirror image.
    Symmetric(u8),
    /// Both Lions on one square.
    Invalid,
}

/// The index tables for one piece set (how many Giraffes, Elephants and Chicks the two players
/// have together, each 0-2; the Lions are always there).
pub struct Index {
    totals: [u8; 3],
    words_of_class: Vec<Vec<u32>>,
    /// `(offset, a, b)` for every block, by offset.
    blocks: Vec<(u64, u8, u8)>,
    /// Per word: its rank within its class times 32, plus the class (`u32::MAX` if invalid).
    word_code: Vec<u32>,
    /// Per pair of word classes: where its block starts, the entries per hand, per first word.
    block: Vec<BlockInfo>,
    /// Per sum of the two word classes: the number of Giraffe and of Elephant splits between
    /// the hands.
    hand_radix: [(u8, u8); CLASSES],
    /// Per word: the codes of its five squares.
    word_squares: Vec<[u8; WORD_SQUARES]>,
    /// Per Lion pair: the ten other squares, in order.
    free: Vec<[u8; 10]>,
    /// Per placement of the two Lions (Sente's square × 12 + Gote's).
    slots: Vec<Slot>,
    /// `block_hint[w >> BLOCK_HINT_SHIFT]`: the block holding that arrangement number.
    block_hint: Vec<u16>,
    per_pair: u64,
    pair_kind: [PairKind; 144],
    /// The Lion squares (Sente's, Gote's) of each pair number.
    pairs: Vec<(u8, u8)>,
    solvable_pairs: usize,
}

fn class_counts(class: usize) -> [usize; 3] {
    [class % 3, class / 3 % 3, class / 9]
}

impl Index {
    /// The index for the full piece set of the game.
    pub fn full() -> Index {
        Index::new([2, 2, 2])
    }

    /// The index for a piece set: `totals` Giraffes, Elephants and Chicks (Hens included) over
    /// both players, each at most 2.
    ///
    /// # Panics
    /// If a total is above 2.
    pub fn new(totals: [u8; 3]) -> Index {
        assert!(totals.iter().all(|&t| t <= 2), "at most two pieces a kind");
        let words = WordClasses::new(totals);
        let (block, blocks, per_pair) = lay_out_blocks(totals, &words.of_class);
        assert!(per_pair < 1 << 32, "arrangements per pair fit 32 bits");
        let block_hint = block_hints(&blocks, per_pair);
        let (pairs, pair_kind, solvable_pairs) = order_lion_pairs();
        let free = free_squares(&pairs);
        let slots = slots(&pairs, &free);
        Index {
            slots,
            word_squares: word_square_codes(),
            word_code: words.codes(),
            block,
            hand_radix: hand_radixes(totals),
            free,
            totals,
            words_of_class: words.of_class,
            blocks,
            block_hint,
            per_pair,
            pair_kind,
            pairs,
            solvable_pairs,
        }
    }

    /// The piece set.
    pub fn totals(&self) -> [u8; 3] {
        self.totals
    }

    /// The number of indices: Lion pairs × arrangements per pair.
    pub fn len(&self) -> u64 {
        self.pairs.len() as u64 * self.per_pair
    }

    /// Whether the index is empty (never: there is always a Lion pair).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The indices below this bound hold every position that is not decided by its Lions alone
    /// (Gote's Lion on Sente's home rank, or next to Sente's Lion).
    pub fn solvable_len(&self) -> u64 {
        self.solvable_pairs as u64 * self.per_pair
    }

    /// Whether index `i` lies in a Lion pair that is its own mirror image (both Lions on file b),
    /// where a position can be its own mirror image.
    pub fn may_be_symmetric(&self, i: u64) -> bool {
        let (ls, lg) = self.pairs[(i / self.per_pair) as usize];
        matches!(
            self.pair_kind[ls as usize * 12 + lg as usize],
            PairKind::Symmetric(_)
        )
    }

    /// The index of a placement whose Lion pair is a representative; `None` otherwise.
    #[inline]
    fn raw(&self, p: &Placement, pair: u8, free: &[u8; 10]) -> u64 {
        let mut wa = 0;
        let mut wb = 0;
        for k in 0..WORD_SQUARES {
            wa = wa * SYMBOLS + symbol(p.board[free[k] as usize]);
            wb = wb * SYMBOLS + symbol(p.board[free[k + WORD_SQUARES] as usize]);
        }
        let (xa, xb) = (self.word_code[wa], self.word_code[wb]);
        let (a, b) = ((xa & 31) as usize, (xb & 31) as usize);
        debug_assert!(xa != u32::MAX && xb != u32::MAX, "piece counts");
        // Class numbers add without carry when the counts fit the piece set.
        let (m1, m2) = self.hand_radix[a + b];
        let h = &p.hands[0];
        let hand = h[0] as u64 + m1 as u64 * (h[1] as u64 + m2 as u64 * h[2] as u64);
        let block = &self.block[a * CLASSES + b];
        let within =
            block.offset + hand * block.size + (xa >> 5) as u64 * block.second + (xb >> 5) as u64;
        pair as u64 * self.per_pair + within
    }

    /// The index of the class of a placement (it or its mirror image).
    #[inline]
    pub fn index(&self, p: &Placement) -> u64 {
        let (ls, lg) = p.lions();
        let slot = &self.slots[ls * 12 + lg];
        match self.pair_kind[ls * 12 + lg] {
            PairKind::Canonical(n) => self.raw(p, n, &slot.order),
            PairKind::Mirrored => self.raw(p, slot.pair, &slot.order),
            PairKind::Symmetric(n) => {
                self.raw(p, n, &slot.order)
                    .min(self.raw(p, n, &slot.mirror_order))
            }
            PairKind::Invalid => panic!("two Lions on one square"),
        }
    }

    /// The index of a placement if it is the representative of its class (the one
    /// [`Index::placement`] gives back); `None` if its mirror image is.
    #[inline]
    pub fn index_if_representative(&self, p: &Placement) -> Option<u64> {
        let (ls, lg) = p.lions();
        let slot = &self.slots[ls * 12 + lg];
        match self.pair_kind[ls * 12 + lg] {
            PairKind::Canonical(n) => Some(self.raw(p, n, &slot.order)),
            PairKind::Mirrored => None,
            PairKind::Symmetric(n) => {
                let i = self.raw(p, n, &slot.order);
                (i <= self.raw(p, n, &slot.mirror_order)).then_some(i)
            }
            PairKind::Invalid => panic!("two Lions on one square"),
        }
    }

    /// For the backward pass: the index of the class of a predecessor `p` of a position `c`,
    /// and how many times the move from `p` into `c` stands for a move of the class's
    /// representative into the class of `c` (0, 1 or 2). `c_symmetric` says whether `c` is its
    /// own mirror image.
    ///
    /// When `c` is not its own mirror image, the unmoves of `c` alone find every move of a
    /// representative into `c` or its mirror image: a move `p -> mirror(c)` shows as
    /// `mirror(p) -> c`. So each predecessor stands for its representative once, and twice when
    /// it is its own mirror image (its moves to `c` and to `mirror(c)` are two moves). When `c` is
    /// its own mirror image, only the representatives' own moves count.
    #[inline]
    pub fn predecessor(&self, p: &Placement, c_symmetric: bool) -> (u64, u8) {
        let (ls, lg) = p.lions();
        let slot = &self.slots[ls * 12 + lg];
        match self.pair_kind[ls * 12 + lg] {
            PairKind::Canonical(n) => (self.raw(p, n, &slot.order), 1),
            PairKind::Mirrored if c_symmetric => (0, 0),
            PairKind::Mirrored => (self.raw(p, slot.pair, &slot.order), 1),
            PairKind::Symmetric(n) => {
                let (a, b) = (
                    self.raw(p, n, &slot.order),
                    self.raw(p, n, &slot.mirror_order),
                );
                match (a.cmp(&b), c_symmetric) {
                    (std::cmp::Ordering::Less, _) => (a, 1),
                    (std::cmp::Ordering::Equal, true) => (a, 1),
                    (std::cmp::Ordering::Equal, false) => (a, 2),
                    (std::cmp::Ordering::Greater, true) => (0, 0),
                    (std::cmp::Ordering::Greater, false) => (b, 1),
                }
            }
            PairKind::Invalid => panic!("two Lions on one square"),
        }
    }

    /// The index of a position (any side to move: it is normalised); `None` if a Lion has been
    /// captured or a piece count exceeds the piece set.
    pub fn index_of(&self, pos: &Position) -> Option<u64> {
        let pos = pos.normalized();
        let key = pos.key();
        if key >> 60 & 3 != 0 {
            return None;
        }
        let p = Placement::from_key(key);
        let mut counts = [0u8; 3];
        for &c in &p.board {
            if c & 7 >= 2 {
                counts[((c & 7) as usize - 2).min(2)] += 1;
            }
        }
        for (k, c) in counts.iter_mut().enumerate() {
            *c += p.hands[0][k] + p.hands[1][k];
        }
        (counts == self.totals).then(|| self.index(&p))
    }

    /// The placement with index `i` (below [`Index::len`]).
    pub fn placement(&self, i: u64) -> Placement {
        self.decode(i).0
    }

    /// The placement with index `i`, and the run of indices that differ from it only in the
    /// second word: (its first index, its length, the second word's class).
    fn decode(&self, i: u64) -> (Placement, u64, u32, usize) {
        let small = u32::try_from(i).expect("indices fit 32 bits");
        let pp = self.per_pair as u32;
        let pair = (small / pp) as usize;
        let within = small % pp;
        let mut block = self.block_hint[(within >> BLOCK_HINT_SHIFT) as usize] as usize;
        while block + 1 < self.blocks.len() && self.blocks[block + 1].0 <= within as u64 {
            block += 1;
        }
        let (offset, a, b) = self.blocks[block];
        let (a, b) = (a as usize, b as usize);
        let (sa, sb) = (
            self.words_of_class[a].len() as u32,
            self.words_of_class[b].len() as u32,
        );
        let rest = within - offset as u32;
        let mut hand = (rest / (sa * sb)) as usize;
        let in_run = rest % sb;
        let wa = self.words_of_class[a][(rest % (sa * sb) / sb) as usize] as usize;
        let wb = self.words_of_class[b][in_run as usize] as usize;
        let (ls, lg) = self.pairs[pair];
        let mut board = [0u8; 12];
        board[ls as usize] = 1;
        board[lg as usize] = 9;
        let free = &self.free[pair];
        let (ca, cb) = (&self.word_squares[wa], &self.word_squares[wb]);
        for k in 0..WORD_SQUARES {
            board[free[k] as usize] = ca[k];
            board[free[k + WORD_SQUARES] as usize] = cb[k];
        }
        let (ca, cb) = (class_counts(a), class_counts(b));
        let mut hands = [[0u8; 3]; 2];
        for k in 0..3 {
            let spare = self.totals[k] as usize - ca[k] - cb[k];
            let s = hand % (spare + 1);
            hand /= spare + 1;
            hands[0][k] = s as u8;
            hands[1][k] = (spare - s) as u8;
        }
        let p = Placement {
            board,
            hands,
            lions: [ls, lg],
        };
        (p, i - in_run as u64, sb, b)
    }
}

/// The five-square words that fit a piece set, by class (their piece counts).
struct WordClasses {
    /// Per word: its class, or [`NONE`] when it holds more pieces of a kind than the set.
    class_of: Vec<u8>,
    /// Per word: its rank among the words of its class.
    rank_of: Vec<u32>,
    /// Per class: its words, in increasing order.
    of_class: Vec<Vec<u32>>,
}

impl WordClasses {
    fn new(totals: [u8; 3]) -> WordClasses {
        let mut class_of = vec![NONE; WORDS];
        let mut rank_of = vec![0u32; WORDS];
        let mut of_class = vec![Vec::new(); CLASSES];
        for w in 0..WORDS {
            let mut counts = [0usize; 3];
            let mut x = w;
            for _ in 0..WORD_SQUARES {
                let sym = x % SYMBOLS;
                x /= SYMBOLS;
                if sym != 0 {
                    counts[(sym - 1).min(5) / 2] += 1;
                }
            }
            if (0..3).all(|k| counts[k] <= totals[k] as usize) {
                let class = counts[0] + 3 * counts[1] + 9 * counts[2];
                class_of[w] = class as u8;
                rank_of[w] = of_class[class].len() as u32;
                of_class[class].push(w as u32);
            }
        }
        WordClasses {
            class_of,
            rank_of,
            of_class,
        }
    }

    /// Per word: its rank within its class times 32, plus the class (`u32::MAX` if it does not
    /// fit the piece set).
    fn codes(&self) -> Vec<u32> {
        (0..WORDS)
            .map(|w| match self.class_of[w] {
                NONE => u32::MAX,
                c => self.rank_of[w] << 5 | c as u32,
            })
            .collect()
    }
}

/// The blocks of a Lion pair's arrangements, one per pair of word classes whose pieces fit the
/// piece set together: where each lies (by pair of classes), the blocks by offset, and the
/// arrangements per Lion pair. A block holds every split of the spare pieces between the hands,
/// times the first class's words, times the second's.
fn lay_out_blocks(
    totals: [u8; 3],
    words_of_class: &[Vec<u32>],
) -> (Vec<BlockInfo>, Vec<(u64, u8, u8)>, u64) {
    let mut block = vec![BlockInfo::default(); CLASSES * CLASSES];
    let mut blocks = Vec::new();
    let mut offset = 0u64;
    for a in 0..CLASSES {
        for b in 0..CLASSES {
            let (ca, cb) = (class_counts(a), class_counts(b));
            let fits = (0..3).all(|k| ca[k] + cb[k] <= totals[k] as usize);
            if !fits || words_of_class[a].is_empty() || words_of_class[b].is_empty() {
                continue;
            }
            let hands: u64 = (0..3)
                .map(|k| (totals[k] as usize - ca[k] - cb[k] + 1) as u64)
                .product();
            let (sa, sb) = (
                words_of_class[a].len() as u64,
                words_of_class[b].len() as u64,
            );
            block[a * CLASSES + b] = BlockInfo {
                offset,
                size: sa * sb,
                second: sb,
            };
            blocks.push((offset, a as u8, b as u8));
            offset += hands * sa * sb;
        }
    }
    (block, blocks, offset)
}

/// Per `1 << BLOCK_HINT_SHIFT` arrangements of a Lion pair: the block holding the first of them.
fn block_hints(blocks: &[(u64, u8, u8)], per_pair: u64) -> Vec<u16> {
    (0..=per_pair >> BLOCK_HINT_SHIFT)
        .map(|h| (blocks.partition_point(|b| b.0 <= h << BLOCK_HINT_SHIFT) - 1) as u16)
        .collect()
}

/// The Lion pairs, one of each mirror pair of placements: their squares (Sente's, Gote's) by
/// number, how every placement relates to them, and how many come first because they can hold
/// an undecided position (Gote's Lion off Sente's home rank and not next to Sente's Lion), so
/// that the solved positions lie in a prefix of the index.
fn order_lion_pairs() -> (Vec<(u8, u8)>, [PairKind; 144], usize) {
    let lion_reach = |s: usize| Position::lion_steps(Square::from_index(s as u8).unwrap());
    let mut order: Vec<(bool, usize, usize)> = Vec::new();
    for ls in 0..12 {
        for lg in 0..12 {
            let (ms, mg) = (mirror_square(ls), mirror_square(lg));
            if ls != lg && (ls, lg) <= (ms, mg) {
                let decided = lg < 3 || lion_reach(ls) >> lg & 1 != 0;
                order.push((decided, ls, lg));
            }
        }
    }
    order.sort();
    let solvable_pairs = order.iter().filter(|p| !p.0).count();
    let mut pair_kind = [PairKind::Invalid; 144];
    let mut pairs = Vec::new();
    for (n, &(_, ls, lg)) in order.iter().enumerate() {
        let (ms, mg) = (mirror_square(ls), mirror_square(lg));
        pair_kind[ls * 12 + lg] = if (ms, mg) == (ls, lg) {
            PairKind::Symmetric(n as u8)
        } else {
            pair_kind[ms * 12 + mg] = PairKind::Mirrored;
            PairKind::Canonical(n as u8)
        };
        pairs.push((ls as u8, lg as u8));
    }
    (pairs, pair_kind, solvable_pairs)
}

/// Per sum of two word classes: the number of Giraffe and of Elephant splits between the hands
/// of the spare pieces (the radixes of the hand's number).
fn hand_radixes(totals: [u8; 3]) -> [(u8, u8); CLASSES] {
    let mut hand_radix = [(0u8, 0u8); CLASSES];
    for (sum, r) in hand_radix.iter_mut().enumerate() {
        let c = class_counts(sum);
        if (0..3).all(|k| c[k] <= totals[k] as usize) {
            *r = (totals[0] - c[0] as u8 + 1, totals[1] - c[1] as u8 + 1);
        }
    }
    hand_radix
}

/// Per Lion pair: the ten squares the Lions leave free, in square order.
fn free_squares(pairs: &[(u8, u8)]) -> Vec<[u8; 10]> {
    pairs
        .iter()
        .map(|&(ls, lg)| {
            let mut f = [0u8; 10];
            let mut n = 0;
            for s in 0..12u8 {
                if s != ls && s != lg {
                    f[n] = s;
                    n += 1;
                }
            }
            f
        })
        .collect()
}

/// Per word: the square codes of its five symbols.
fn word_square_codes() -> Vec<[u8; WORD_SQUARES]> {
    (0..WORDS)
        .map(|w| {
            let mut codes = [0u8; WORD_SQUARES];
            let mut x = w;
            for c in codes.iter_mut().rev() {
                *c = code_of_symbol(x % SYMBOLS);
                x /= SYMBOLS;
            }
            codes
        })
        .collect()
}

/// Per placement of the two Lions: the pair it reads as and the order of the free squares to
/// read (through the mirror for the mirror image of a representative pair).
fn slots(pairs: &[(u8, u8)], free: &[[u8; 10]]) -> Vec<Slot> {
    let mut slots = vec![Slot::default(); 144];
    for (n, &(ls, lg)) in pairs.iter().enumerate() {
        let f: &[u8; 10] = &free[n];
        let m = f.map(|s| mirror_square(s as usize) as u8);
        let (ls, lg) = (ls as usize, lg as usize);
        slots[ls * 12 + lg] = Slot {
            pair: n as u8,
            order: *f,
            mirror_order: m,
        };
        let (ms, mg) = (mirror_square(ls), mirror_square(lg));
        if (ms, mg) != (ls, lg) {
            slots[ms * 12 + mg] = Slot {
                pair: n as u8,
                order: m,
                mirror_order: *f,
            };
        }
    }
    slots
}

/// Decodes indices one after the other, faster when they are close: indices that differ only
/// in the second word (the last five free squares) share the rest of the placement.
pub struct Decoder<'a> {
    index: &'a Index,
    start: u64,
    len: u32,
    class: usize,
    base: Placement,
}

impl<'a> Decoder<'a> {
    /// A decoder for `index`.
    pub fn new(index: &'a Index) -> Decoder<'a> {
        Decoder {
            index,
            start: 0,
            len: 0,
            class: 0,
            base: Placement {
                board: [0; 12],
                hands: [[0; 3]; 2],
                lions: [0, 0],
            },
        }
    }

    /// The placement with index `i`, as [`Index::placement`].
    #[inline]
    pub fn placement(&mut self, i: u64) -> Placement {
        if i >= self.start && i - self.start < self.len as u64 {
            let ix = self.index;
            let w = ix.words_of_class[self.class][(i - self.start) as usize] as usize;
            let mut p = self.base;
            let free = &ix.free[(i / ix.per_pair) as usize];
            let codes = &ix.word_squares[w];
            for k in 0..WORD_SQUARES {
                p.board[free[k + WORD_SQUARES] as usize] = codes[k];
            }
            return p;
        }
        let (p, start, len, class) = self.index.decode(i);
        (self.start, self.len, self.class, self.base) = (start, len, class, p);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_index_counts_every_legal_arrangement_once() {
        let index = Index::full();
        // 11,878,227 arrangements of the six other pieces around two Lions (counted by hand:
        // choose squares for the pieces on the board, colours and promotions, split the rest
        // between the hands); 72 Lion pairs up to mirroring.
        assert_eq!(index.per_pair, 11_878_227);
        assert_eq!(index.pairs.len(), 72);
        assert!(index.solvable_len() < index.len());
    }

    #[test]
    fn placement_inverts_index_on_a_sample() {
        let index = Index::full();
        let step = index.len() / 200_003;
        for i in (0..index.len()).step_by(step as usize) {
            let p = index.placement(i);
            assert_eq!(Placement::from_key(p.key()), p);
            // In a pair of Lions on file b, only one of a position and its mirror image is used.
            let j = index.index(&p);
            assert!(j == i || index.placement(j) == p.mirrored(), "{i}");
            assert_eq!(index.index(&p.mirrored()), j);
            assert_eq!(index.index_of(&p.position()), Some(j));
            assert_eq!(index.index_if_representative(&index.placement(j)), Some(j));
        }
    }

    #[test]
    fn decoder_agrees_with_placement() {
        let index = Index::full();
        let mut decoder = Decoder::new(&index);
        let step = index.len() / 100_003;
        for i in (0..index.len()).step_by(step as usize) {
            for j in i..(i + 50).min(index.len()) {
                assert_eq!(decoder.placement(j), index.placement(j), "{j}");
            }
        }
    }

    #[test]
    fn start_position_indexes() {
        let index = Index::full();
        let start = Position::start();
        let i = index.index_of(&start).unwrap();
        assert_eq!(index.placement(i).position().canonical(), start.canonical());
    }
}
