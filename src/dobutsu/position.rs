//! The packed position, move generation, play and the end-of-game rules.

use super::{Kind, Move, Piece, Player, Square, DROP_BASE, PROMOTION_FLAG};
use crate::game::Outcome;

/// The 12 squares of one plane.
const SQUARES: u16 = 0xFFF;
/// The four board planes (three of piece kind, one of colour).
const BOARD_MASK: u64 = (1 << 48) - 1;
/// Bit `s` of each of the four planes, shifted by `s`.
const SQUARE_SPREAD: u64 = 0x001_001_001_001;
/// Plane of the colour bit (set for a Gote piece).
const GOTE_PLANE: u32 = 36;
/// First bit of the hands: 6 bits per player (2 per droppable kind, Giraffe, Elephant, Chick).
const HAND_SHIFT: u32 = 48;
/// Bit of a Lion captured by Sente (in Sente's hand); the next bit for Gote.
const LION_IN_HAND: u32 = 60;
/// Bit of the side to move (set for Gote).
const SIDE_BIT: u32 = 62;

/// Files a, b and c in all four planes.
const FILE_A4: u64 = 0x249_249_249_249;
const FILE_B4: u64 = 0x492_492_492_492;
const FILE_C4: u64 = 0x924_924_924_924;

/// More than the most moves a position can have (7 pieces on the board make at most 36 steps;
/// drops go to at most 10 empty squares, 3 kinds).
const MAX_MOVES: usize = 72;

/// Rank 1 and rank 4 of one plane.
const RANK_1: u16 = 0x007;
const RANK_4: u16 = 0xE00;

/// Steps `(file, rank)` of each kind for Sente (Gote's are the same turned round).
pub(crate) const fn steps(kind: u8) -> &'static [(i8, i8)] {
    match kind {
        1 => &[
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ],
        2 => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
        3 => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
        4 => &[(0, 1)],
        5 => &[(0, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
        _ => &[],
    }
}

/// `ATTACKS[player][kind code][square]`: the squares a piece attacks (and may step to).
const ATTACKS: [[[u16; 12]; 8]; 2] = {
    let mut table = [[[0u16; 12]; 8]; 2];
    let mut player = 0;
    while player < 2 {
        let mut kind = 1;
        while kind <= 5 {
            let dirs = steps(kind as u8);
            let mut sq = 0;
            while sq < 12 {
                let (file, rank) = ((sq % 3) as i8, (sq / 3) as i8);
                let mut bits = 0u16;
                let mut d = 0;
                while d < dirs.len() {
                    let (df, dr) = dirs[d];
                    let dr = if player == 0 { dr } else { -dr };
                    let (f, r) = (file + df, rank + dr);
                    if f >= 0 && f < 3 && r >= 0 && r < 4 {
                        bits |= 1 << (r * 3 + f);
                    }
                    d += 1;
                }
                table[player][kind][sq] = bits;
                sq += 1;
            }
            kind += 1;
        }
        player += 1;
    }
    table
};

/// A 4-bit square code (kind code, plus 8 for Gote) spread over the four planes.
const SPREAD: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut c = 0;
    while c < 16 {
        t[c] = (c as u64 & 1)
            | ((c as u64 >> 1) & 1) << 12
            | ((c as u64 >> 2) & 1) << 24
            | ((c as u64 >> 3) & 1) << 36;
        c += 1;
    }
    t
};

/// `CAPTURE_GAIN[player][kind code]`: what capturing a piece adds to the packed position (a count
/// in the hand, the Hen's as a Chick; the captured-Lion bit; 0 for an empty square).
const CAPTURE_GAIN: [[u64; 8]; 2] = {
    let mut t = [[0u64; 8]; 2];
    let mut p = 0;
    while p < 2 {
        let hand = HAND_SHIFT + 6 * p as u32;
        t[p][1] = 1 << (LION_IN_HAND + p as u32);
        t[p][2] = 1 << hand;
        t[p][3] = 1 << (hand + 2);
        t[p][4] = 1 << (hand + 4);
        t[p][5] = 1 << (hand + 4);
        p += 1;
    }
    t
};

/// The kind of each code 0-7.
const KIND_OF_CODE: [Option<Kind>; 8] = [
    None,
    Some(Kind::Lion),
    Some(Kind::Giraffe),
    Some(Kind::Elephant),
    Some(Kind::Chick),
    Some(Kind::Hen),
    None,
    None,
];

/// The last rank of each player (where its Chick promotes and its Lion makes a Try).
#[inline]
fn far_rank(p: Player) -> u16 {
    match p {
        Player::Sente => RANK_4,
        Player::Gote => RANK_1,
    }
}

#[inline]
fn home_rank(p: Player) -> u16 {
    far_rank(p.opponent())
}

#[inline]
fn hand_shift(p: Player, hand_index: usize) -> u32 {
    HAND_SHIFT + 6 * p as u32 + 2 * hand_index as u32
}

/// Iterates over the set squares of a bitboard.
#[inline]
fn squares(mut bits: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let s = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(s)
        }
    })
}

/// A Dobutsu Shogi position: board, hands and side to move, packed into one `u64` (see
/// [`Position::key`] for the layout). A value type: [`Position::play`] returns a new position.
///
/// A position holds at most two pieces of each kind (Hen and Chick counted together) and a Lion
/// of each player, one of which may have been captured (it is then in the captor's hand, and the
/// game is over). Set-up positions may have fewer pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position(u64);

/// What [`Position::play`] did, for the search and the game history.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Step {
    /// The kind of the captured piece, as it stood on the board (a Hen is reported as a Hen).
    pub capture: Option<Kind>,
    /// Whether a Chick promoted.
    pub promotion: bool,
}

impl Step {
    /// A capture or a promotion: what quiescence search and late-move reductions treat as noisy.
    #[inline]
    pub fn is_noisy(&self) -> bool {
        self.capture.is_some() || self.promotion
    }

    /// Always false: no move in Dobutsu Shogi is irreversible (pieces come back by drops), so no
    /// move restarts a cycle count.
    #[inline]
    pub fn is_irreversible(&self) -> bool {
        false
    }
}

/// The planes of a position as bitboards.
#[derive(Clone, Copy)]
struct Boards {
    p0: u16,
    p1: u16,
    p2: u16,
    gote: u16,
}

impl Boards {
    #[inline]
    fn of(raw: u64) -> Boards {
        Boards {
            p0: (raw & 0xFFF) as u16,
            p1: ((raw >> 12) & 0xFFF) as u16,
            p2: ((raw >> 24) & 0xFFF) as u16,
            gote: ((raw >> GOTE_PLANE) & 0xFFF) as u16,
        }
    }
    #[inline]
    fn occupied(self) -> u16 {
        self.p0 | self.p1 | self.p2
    }
    #[inline]
    fn of_player(self, p: Player) -> u16 {
        match p {
            Player::Sente => self.occupied() & !self.gote,
            Player::Gote => self.gote,
        }
    }
    /// Squares holding a piece of kind code `k` (either colour).
    #[inline]
    fn kind(self, k: u8) -> u16 {
        let a = if k & 1 != 0 { self.p0 } else { !self.p0 };
        let b = if k & 2 != 0 { self.p1 } else { !self.p1 };
        let c = if k & 4 != 0 { self.p2 } else { !self.p2 };
        a & b & c & SQUARES
    }
    #[inline]
    fn lions(self) -> u16 {
        self.p0 & !self.p1 & !self.p2
    }
    /// Whether one of `me`'s pieces (`mine`) can step somewhere.
    #[inline]
    fn has_step(self, me: Player, mine: u16) -> bool {
        let attacks = &ATTACKS[me as usize];
        (1..=5u8).any(|k| {
            squares(self.kind(k) & mine).any(|s| attacks[k as usize][s as usize] & !mine != 0)
        })
    }

    /// Whether a piece of `by` attacks square `sq`: the reverse attack from `sq` of each kind, as
    /// the other player's piece, meets `by`'s pieces of that kind.
    #[inline]
    fn attacked(self, sq: u8, by: Player) -> bool {
        let theirs = self.of_player(by);
        let rev = &ATTACKS[by.opponent() as usize];
        let s = sq as usize;
        (1..=5u8).any(|k| rev[k as usize][s] & self.kind(k) & theirs != 0)
    }
}

impl Position {
    /// The start position `gle/1c1/1C1/ELG[] w`: Sente to move.
    pub fn start() -> Position {
        let mut p = Position::empty(Player::Sente);
        for (sq, owner, kind) in [
            (0, Player::Sente, Kind::Elephant),
            (1, Player::Sente, Kind::Lion),
            (2, Player::Sente, Kind::Giraffe),
            (4, Player::Sente, Kind::Chick),
            (7, Player::Gote, Kind::Chick),
            (9, Player::Gote, Kind::Giraffe),
            (10, Player::Gote, Kind::Lion),
            (11, Player::Gote, Kind::Elephant),
        ] {
            p.put(Square(sq), Piece { owner, kind });
        }
        p
    }

    /// An empty board with empty hands (not a legal game position: no Lions).
    pub(crate) fn empty(to_move: Player) -> Position {
        Position((to_move as u64) << SIDE_BIT)
    }

    /// Puts a piece on an empty square.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.piece_at(sq).is_none());
        let code = piece.kind as usize | (piece.owner as usize) << 3;
        self.0 |= SPREAD[code] << sq.0;
    }

    /// Adds one piece to a player's hand; `kind` must be droppable or the Lion.
    pub(crate) fn add_to_hand(&mut self, holder: Player, kind: Kind) {
        match kind.hand_index() {
            Some(k) => self.0 += 1 << hand_shift(holder, k),
            None => self.0 |= 1 << (LION_IN_HAND + holder as u32),
        }
    }

    /// The exact code of the position, an injective 63-bit value (bit 63 is 0), usable as a hash
    /// key and as an identifier. Layout: bits 0-47 are four 12-bit planes over squares 0-11
    /// (`a1 b1 c1 a2 ... c4`): bits 0-2 of the square's kind code (0 empty, [`Kind`] discriminants
    /// 1-5) in planes 0-2 and the colour (1 = Gote) in plane 3; bits 48-53 Sente's hand and 54-59
    /// Gote's (2 bits per count: Giraffe, Elephant, Chick); bit 60 a Lion in Sente's hand, 61 in
    /// Gote's; bit 62 the side to move (1 = Gote). Not a mixing hash: a hash table should mix it.
    #[inline]
    pub fn key(&self) -> u64 {
        self.0
    }

    /// The position whose [`Position::key`] is `key`, if `key` is one: bit 63 clear, a kind code
    /// 1-5 on every square whose colour bit is set, hand counts within the piece counts, at most
    /// two pieces of each kind (Hen and Chick together) and one Lion per player (on the board, or
    /// captured in the enemy's hand, not both captured). Every position read from a FEN or reached
    /// by play passes.
    pub fn from_key(key: u64) -> Option<Position> {
        let pos = Position(key);
        if key >> 63 != 0 {
            return None;
        }
        let mut counts = [0u8; 6];
        for sq in 0..12 {
            let code = pos.code_at(sq);
            match code & 7 {
                0 if code != 0 => return None,
                0 => {}
                1 => counts[(code >> 3) as usize] += 1,
                k @ 2..=5 => counts[k.min(4) as usize] += 1,
                _ => return None,
            }
        }
        for p in Player::BOTH {
            for kind in Kind::DROPPABLE {
                counts[kind as usize] += pos.in_hand(p, kind);
            }
            counts[p.opponent().index()] += pos.in_hand(p, Kind::Lion);
        }
        let lions_ok = counts[0] == 1 && counts[1] == 1 && key >> LION_IN_HAND & 3 != 3;
        (lions_ok && counts[2..5].iter().all(|&n| n <= 2)).then_some(pos)
    }

    /// The position whose key is `key`, which the caller knows to be one (the solver's index
    /// builds only legal keys); [`Position::from_key`] checks.
    #[inline]
    pub(crate) fn from_key_unchecked(key: u64) -> Position {
        Position(key)
    }

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Player {
        if self.0 >> SIDE_BIT & 1 == 0 {
            Player::Sente
        } else {
            Player::Gote
        }
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let code = self.code_at(sq.0);
        Kind::from_code(code & 7).map(|kind| Piece {
            owner: if code & 8 != 0 {
                Player::Gote
            } else {
                Player::Sente
            },
            kind,
        })
    }

    /// The 4-bit code of a square (kind code, plus 8 for Gote).
    #[inline]
    fn code_at(&self, sq: u8) -> u8 {
        let x = self.0 >> sq;
        (x & 1 | (x >> 11) & 2 | (x >> 22) & 4 | (x >> 33) & 8) as u8
    }

    /// How many pieces of a droppable kind (Giraffe, Elephant, Chick) a player holds in hand
    /// (0-2); for the Lion, 1 if the player has captured the enemy Lion; 0 for the Hen.
    #[inline]
    pub fn in_hand(&self, holder: Player, kind: Kind) -> u8 {
        match kind.hand_index() {
            Some(k) => (self.0 >> hand_shift(holder, k) & 3) as u8,
            None if kind == Kind::Lion => (self.0 >> (LION_IN_HAND + holder as u32) & 1) as u8,
            None => 0,
        }
    }

    /// The square of a player's Lion; `None` once it has been captured.
    #[inline]
    pub fn lion(&self, owner: Player) -> Option<Square> {
        let b = Boards::of(self.0);
        let l = b.lions() & b.of_player(owner);
        (l != 0).then(|| Square(l.trailing_zeros() as u8))
    }

    /// Whether a piece of `by` attacks `sq`.
    pub fn is_attacked(&self, sq: Square, by: Player) -> bool {
        Boards::of(self.0).attacked(sq.0, by)
    }

    /// Whether a Lion has been captured (the game is then over).
    #[inline]
    fn lion_captured(&self) -> bool {
        self.0 & (3 << LION_IN_HAND) != 0
    }

    /// Appends the legal moves to `out` (which the caller clears), following Fairy-Stockfish's
    /// convention (see the [module documentation](super)): none once a Lion has been captured, none
    /// when the enemy Lion stands uncapturable on the mover's home rank or the mover's Lion stands
    /// unattacked on the enemy's home rank; otherwise every step and drop, also when the mover
    /// could capture the enemy Lion.
    ///
    /// Order: steps of Lions, Giraffes, Elephants, Chicks, Hens (each from the lowest square, to
    /// the lowest square), then drops of Giraffes, Elephants, Chicks.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.lion_captured() {
            return;
        }
        let me = self.side_to_move();
        let b = Boards::of(self.0);
        let mine = b.of_player(me);
        let lions = b.lions();
        if self.try_decided(b, me, mine, lions) {
            return;
        }
        // Moves go to a buffer on the stack first: one copy into `out` instead of a capacity
        // check per move.
        let mut buf = [Move::raw(0, 0); MAX_MOVES];
        let mut n = 0;
        let attacks = &ATTACKS[me as usize];
        let free = !mine & SQUARES;
        let (p0, p1, p2) = (b.p0, b.p1, b.p2);
        let by_kind = [
            lions,
            !p0 & p1 & !p2,
            p0 & p1 & !p2,
            !p0 & !p1 & p2,
            p0 & !p1 & p2,
        ];
        for (i, &of_kind) in by_kind.iter().enumerate() {
            let table = &attacks[i + 1];
            let promotion = if i + 1 == Kind::Chick as usize {
                far_rank(me)
            } else {
                0
            };
            for from in squares(of_kind & mine) {
                for to in squares(table[from as usize] & free) {
                    let flag = ((promotion >> to) & 1) as u8 * PROMOTION_FLAG;
                    buf[n] = Move::raw(from, to | flag);
                    n += 1;
                }
            }
        }
        let empty = !b.occupied() & SQUARES;
        let hand = self.0 >> hand_shift(me, 0);
        for k in 0..3u8 {
            if hand >> (2 * k) & 3 != 0 {
                for to in squares(empty) {
                    buf[n] = Move::raw(DROP_BASE + k, to);
                    n += 1;
                }
            }
        }
        out.extend_from_slice(&buf[..n]);
    }

    /// Whether the game is over as games are played, so that no move is legal
    /// ([`Position::legal_moves`] is empty): a Lion has been captured, a Try decides it, or the
    /// mover cannot move.
    #[inline]
    pub fn is_over(&self) -> bool {
        if self.lion_captured() {
            return true;
        }
        let me = self.side_to_move();
        let b = Boards::of(self.0);
        let mine = b.of_player(me);
        if self.try_decided(b, me, mine, b.lions()) {
            return true;
        }
        let hand_empty = (self.0 >> hand_shift(me, 0)) & 0x3F == 0;
        hand_empty && !b.has_step(me, mine)
    }

    /// The squares of `owner`'s pieces of `kind` (bit `i` for square `i`: a1 b1 c1 a2 ... c4).
    #[inline]
    pub fn pieces(&self, owner: Player, kind: Kind) -> u16 {
        let b = Boards::of(self.0);
        b.kind(kind as u8) & b.of_player(owner)
    }

    /// The squares `by`'s pieces attack (could step to, whatever stands there), as bits.
    #[inline]
    pub fn attacks(&self, by: Player) -> u16 {
        let b = Boards::of(self.0);
        let mine = b.of_player(by);
        let table = &ATTACKS[by as usize];
        let mut all = 0;
        for k in 1..=5u8 {
            for from in squares(b.kind(k) & mine) {
                all |= table[k as usize][from as usize];
            }
        }
        all
    }

    /// The squares a Lion on `sq` reaches, as bits.
    #[inline]
    pub fn lion_steps(sq: Square) -> u16 {
        ATTACKS[0][Kind::Lion as usize][sq.index()]
    }

    /// The squares of `owner`'s pieces, as bits.
    #[inline]
    pub fn occupied_by(&self, owner: Player) -> u16 {
        Boards::of(self.0).of_player(owner)
    }

    /// Fairy-Stockfish's Try rule: the enemy Lion on the mover's home rank and not attacked by the
    /// mover, or the mover's Lion on the enemy home rank and not attacked by the enemy.
    #[inline]
    fn try_decided(&self, b: Boards, me: Player, mine: u16, lions: u16) -> bool {
        let theirs = b.occupied() & !mine;
        let their_lion = lions & theirs & home_rank(me);
        if their_lion != 0 && !b.attacked(their_lion.trailing_zeros() as u8, me) {
            return true;
        }
        let my_lion = lions & mine & far_rank(me);
        my_lion != 0 && !b.attacked(my_lion.trailing_zeros() as u8, me.opponent())
    }

    /// Plays a move that [`Position::legal_moves`] listed (anything else gives a meaningless
    /// position). Returns the new position and what the move did.
    #[inline]
    pub fn play(&self, mv: Move) -> (Position, Step) {
        let me = self.side_to_move() as usize;
        let to = mv.to & 15;
        let mut x = self.0;
        let step = if mv.from >= DROP_BASE {
            let k = mv.from - DROP_BASE;
            x -= 1 << hand_shift(self.side_to_move(), k as usize);
            // Hand index k holds kind code k + 2 (Giraffe, Elephant, Chick).
            x |= SPREAD[(k as usize + 2) | me << 3] << to;
            Step::default()
        } else {
            let from = mv.from;
            let promotes = mv.to >> 4 & 1;
            // A Chick's code (4) with the low bit set is the Hen's (5).
            let placed = self.code_at(from) as usize | promotes as usize;
            let captured = (self.code_at(to) & 7) as usize;
            x &= !((SQUARE_SPREAD << from) | (SQUARE_SPREAD << to));
            x |= SPREAD[placed] << to;
            x += CAPTURE_GAIN[me][captured];
            Step {
                capture: KIND_OF_CODE[captured],
                promotion: promotes != 0,
            }
        };
        (Position(x ^ 1 << SIDE_BIT), step)
    }

    /// Whether the game is over in this position, and its result from the side to move's view,
    /// by Tanaka's rules (see the [module documentation](super)): a captured Lion loses; else the
    /// mover wins if it attacks the enemy Lion; else it loses if the enemy Lion stands on its home
    /// rank; else it wins if its own Lion stands unattacked on the enemy home rank; else it loses
    /// if it has no legal move. Never a draw (repetitions are the game history's business).
    /// [`Position::legal_moves`] is empty exactly when this is `Some`, except when the mover can
    /// capture the enemy Lion.
    pub fn outcome(&self) -> Option<Outcome> {
        let me = self.side_to_move();
        if self.lion_captured() {
            return Some(if self.in_hand(me, Kind::Lion) != 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            });
        }
        let b = Boards::of(self.0);
        let mine = b.of_player(me);
        let lions = b.lions();
        let their_lion = (lions & !mine).trailing_zeros() as u8;
        if b.attacked(their_lion, me) {
            return Some(Outcome::Win);
        }
        if (1 << their_lion) & home_rank(me) != 0 {
            return Some(Outcome::Loss);
        }
        let my_lion = lions & mine & far_rank(me);
        if my_lion != 0 && !b.attacked(my_lion.trailing_zeros() as u8, me.opponent()) {
            return Some(Outcome::Win);
        }
        let hand_empty = (self.0 >> hand_shift(me, 0)) & 0x3F == 0;
        if hand_empty && !b.has_step(me, mine) {
            return Some(Outcome::Loss);
        }
        None
    }

    /// The position mirrored left-right (files a and c swapped). Dobutsu's pieces move
    /// symmetrically, so it has the same value; moves map by [`Move::mirrored`].
    #[inline]
    pub fn mirrored(&self) -> Position {
        let board = self.0 & BOARD_MASK;
        let swapped = (board & FILE_B4) | ((board & FILE_A4) << 2) | ((board & FILE_C4) >> 2);
        Position(self.0 & !BOARD_MASK | swapped)
    }

    /// The position with the board turned by 180 degrees and the players' roles swapped (each piece
    /// changes colour, the hands are exchanged, the other player moves): the same game seen from
    /// the other side, so the value for the side to move is unchanged. Moves map by
    /// [`Move::flipped`].
    #[inline]
    pub fn flipped(&self) -> Position {
        // Reversing the 48 board bits reverses each plane (square s goes to 11 - s) and the order
        // of the planes.
        let rev = (self.0 & BOARD_MASK).reverse_bits() >> 16;
        let colour_rev = rev & 0xFFF;
        let kinds = (rev >> 36) & 0xFFF | ((rev >> 24) & 0xFFF) << 12 | ((rev >> 12) & 0xFFF) << 24;
        let occupied = (kinds | kinds >> 12 | kinds >> 24) & 0xFFF;
        let colour = occupied & !colour_rev;
        let hands = self.0 >> HAND_SHIFT;
        let sente_hand = hands & 0x3F;
        let gote_hand = (hands >> 6) & 0x3F;
        let lions = (hands >> 12) & 3;
        let lions = (lions >> 1) | (lions & 1) << 1;
        let side = (hands >> 14) & 1 ^ 1;
        let hands = gote_hand | sente_hand << 6 | lions << 12 | side << 14;
        Position(kinds | colour << GOTE_PLANE | hands << HAND_SHIFT)
    }

    /// The position with Sente to move: itself, or [`Position::flipped`] when Gote moves.
    #[inline]
    pub fn normalized(&self) -> Position {
        match self.side_to_move() {
            Player::Sente => *self,
            Player::Gote => self.flipped(),
        }
    }

    /// Whichever of the position and its mirror image has the smaller key: one representative of
    /// the pair for a solver's index.
    #[inline]
    pub fn canonical(&self) -> Position {
        let m = self.mirrored();
        if m.0 < self.0 {
            m
        } else {
            *self
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
