//! Dobutsu Shogi ("Let's Catch the Lion!", 3x4 animal shogi): position, moves, rules, notation.
//!
//! # Rules
//! The board has 3 files (`a`-`c`) and 4 ranks (`1`-`4`). The first player, Sente
//! ([`Player::Sente`], uppercase, `w` in a FEN), starts with Elephant a1, Lion b1, Giraffe c1 and
//! Chick b2; the second, Gote ([`Player::Gote`], lowercase, `b`), with Giraffe a4, Lion b4,
//! Elephant c4 and Chick b3.
//! Sente's home rank is rank 1, Gote's rank 4; "forward" is towards the enemy's home rank.
//!
//! - Lion: one step in any of the 8 directions. Giraffe: one step orthogonally. Elephant: one step
//!   diagonally. Chick: one step forward. Hen (a promoted Chick): one step orthogonally or
//!   diagonally forward (a shogi gold).
//! - A move either steps one piece (capturing an enemy piece on the target square) or drops a piece
//!   from the mover's hand on any empty square. Captured pieces go to the captor's hand, a Hen
//!   going back to a Chick. A Chick may be dropped on the last rank too: it then stays a Chick,
//!   cannot move and never promotes. Two Chicks of one side on one file are allowed, and so is a
//!   drop that attacks the enemy Lion.
//! - A Chick that steps onto the last rank promotes to a Hen (always).
//! - Nothing forbids a Lion to step into attack. Capturing the enemy Lion wins. A Lion that reaches
//!   the enemy's home rank (a *Try*) wins if it is not captured on the reply.
//!
//! # When the game is over: two conventions
//! [`Position::outcome`] follows Tanaka's formulation (Tetsuro Tanaka, "An Analysis of a Board
//! Game 'Doubutsu Shogi'", IPSJ SIG-GI 2009, the complete analysis), in which the result is judged
//! at the start of a turn, from the side to move:
//! 1. a side whose Lion has been captured (it sits in the captor's hand) has lost;
//! 2. otherwise the mover wins if one of its pieces attacks the enemy Lion (it can capture it);
//! 3. otherwise the mover loses if the enemy Lion stands on the mover's home rank (a Try that the
//!    mover cannot answer);
//! 4. otherwise the mover wins if its own Lion stands on the enemy's home rank and no enemy piece
//!    attacks it (a Try that survived the reply). Tanaka's list has no such rule because a game
//!    judged his way never gets there (the reply would have captured the Lion, or lost); it is
//!    needed for set-up positions and for the move trees of the other convention, where the reply
//!    may leave a capturable Lion alone;
//! 5. otherwise the mover loses if it has no legal move (as in shogi, and Fairy-Stockfish's
//!    `stalemateValue` for this variant). It can happen: in `GE1/LGE/CCl/3[] w` every Sente piece
//!    is hemmed in by its own and the hand is empty (a scan of every board with the Gote Lion alone
//!    against any Sente pieces, Sente to move with an empty hand, found 4: this one, the Lion on
//!    c4 instead, and their mirror images).
//!
//! [`Position::legal_moves`] (and so [`perft`](crate::game::perft)) follows Fairy-Stockfish's
//! `dobutsu` variant (extinction of the Lion, `flagPiece` Lion with `flagPieceSafe`,
//! `stalemateValue` a loss), so that perft counts compare with it: a position has **no moves** in
//! cases 1, 3, 4 and 5 above, but a position where the mover could capture the enemy Lion (case 2)
//! still lists **all** its moves; the capture is just one of them, and the game ends (case 1) in
//! the position after it. So `outcome` is `Some` whenever `legal_moves` is empty; the converse
//! fails only when the mover can capture the enemy Lion (its moves are listed, unless its own Lion
//! also stands unattacked on the enemy home rank). A leaf counts at depth N only if every position
//! above it on its line has moves.
//!
//! The only position where the two conventions disagree about the result: both Lions on the enemy
//! home ranks, neither attacked. Fairy-Stockfish calls it a draw, rule 3 a loss for the mover. A
//! game judged Tanaka's way never gets there (each Try is decided on the next turn).
//!
//! Repetition is not part of the position: the engine's cycle rule (a draw after three
//! occurrences) belongs to the game history.
//!
//! # Where the published rules differ
//! The publisher's rules (doubutsushogi.jp, "How To Play") say: "the first one who moves his Lion
//! into the farthest row will win, unless the Lion is captured by the opponent in the next turn",
//! and "when two players repeat the same movement alternately for three times, the game is draw".
//! So the Try belongs to the move that makes it, and any reply that does not capture the Lion
//! loses, even one that could have. Tanaka's formulation judges at the start of the reply instead;
//! under best play both give the same results (a capturable Lion is captured, case 2; an
//! uncapturable one wins, case 3), and only a careless reply is judged differently (Fairy-Stockfish
//! lets that game go on while the Lion is still attacked, case 4). The published repetition rule
//! counts repeated moves, not positions; here, as in Tanaka's analysis, a repetition is a draw by
//! the engine's position-based cycle rule.
//!
//! # Notation (Fairy-Stockfish / pychess `dobutsu`)
//! - FEN: ranks from 4 down to 1, files `a`-`c` within a rank, digits for empty squares;
//!   `L G E C` for Lion, Giraffe, Elephant, Chick, uppercase for Sente; a Hen is written `+C`
//!   (Fairy-Stockfish's output; `H` is accepted on input), hands in brackets after the board
//!   (`[-]` or `[]` when empty; Fairy-Stockfish's order: Sente's then Gote's, each `L G C E`),
//!   then the side to move `w` (Sente) or `b` (Gote), then optionally `- -` and the two move
//!   counters: `gle/1c1/1C1/ELG[-] w 0 1` (the variant's start FEN) and
//!   `gle/1c1/1C1/ELG[] w - - 0 1` (what Fairy-Stockfish writes, and what [`Position::to_fen`]
//!   writes) are both read.
//! - Moves: `b2b3` (from, to), `b3b4+` (a Chick promoting: the `+` is required, as in
//!   Fairy-Stockfish), `C@b3` (a drop; the letter is uppercase for both sides).
//!
//! # Representation
//! A [`Position`] is one `u64` (see [`Position::key`]): four 12-bit planes (three bits of piece
//! kind and one of colour per square), the two hands, a captured Lion and the side to move. Move
//! generation works on 12-square bitboards with attack tables per piece and square.

pub mod eval;
mod game;
pub mod net;
mod notation;
mod position;
pub mod solve;

pub use eval::{evaluate, Weights};
pub use game::{NotationError, Rules};
pub use notation::{FenError, MoveCounters, MoveError};
pub use position::{Position, Step};

use std::fmt;

/// One of the two players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    /// The first player (uppercase pieces, `w` in a FEN), home rank 1.
    Sente = 0,
    /// The second player (lowercase pieces, `b` in a FEN), home rank 4.
    Gote = 1,
}

impl Player {
    /// Both players, Sente first.
    pub const BOTH: [Player; 2] = [Player::Sente, Player::Gote];

    /// 0 for Sente, 1 for Gote.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::Sente => Player::Gote,
            Player::Gote => Player::Sente,
        }
    }

    /// The player's home rank (0-based: 0 for Sente's rank 1, 3 for Gote's rank 4).
    #[inline]
    pub fn home_rank(self) -> u8 {
        match self {
            Player::Sente => 0,
            Player::Gote => 3,
        }
    }
}

impl fmt::Display for Player {
    /// `w` or `b`, as in a FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Sente => "w",
            Player::Gote => "b",
        })
    }
}

/// A kind of piece. The discriminants are the codes used in the packed position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// The royal piece: one step in any direction.
    Lion = 1,
    /// One step orthogonally.
    Giraffe = 2,
    /// One step diagonally.
    Elephant = 3,
    /// One step forward; promotes to a Hen on the last rank.
    Chick = 4,
    /// A promoted Chick: one step orthogonally or diagonally forward.
    Hen = 5,
}

impl Kind {
    /// All kinds, in code order.
    pub const ALL: [Kind; 5] = [
        Kind::Lion,
        Kind::Giraffe,
        Kind::Elephant,
        Kind::Chick,
        Kind::Hen,
    ];

    /// The kinds that can be dropped from a hand, in the order of [`Kind::hand_index`].
    pub const DROPPABLE: [Kind; 3] = [Kind::Giraffe, Kind::Elephant, Kind::Chick];

    #[inline]
    pub(crate) fn from_code(code: u8) -> Option<Kind> {
        match code {
            1 => Some(Kind::Lion),
            2 => Some(Kind::Giraffe),
            3 => Some(Kind::Elephant),
            4 => Some(Kind::Chick),
            5 => Some(Kind::Hen),
            _ => None,
        }
    }

    /// The kind a captured piece becomes in the captor's hand (a Hen becomes a Chick).
    #[inline]
    pub fn demoted(self) -> Kind {
        match self {
            Kind::Hen => Kind::Chick,
            k => k,
        }
    }

    /// Index of a droppable kind in a hand (Giraffe 0, Elephant 1, Chick 2); `None` for the Lion
    /// and the Hen.
    #[inline]
    pub fn hand_index(self) -> Option<usize> {
        match self {
            Kind::Giraffe => Some(0),
            Kind::Elephant => Some(1),
            Kind::Chick => Some(2),
            Kind::Lion | Kind::Hen => None,
        }
    }

    /// The uppercase letter: `L`, `G`, `E`, `C`, and `H` for the Hen (FENs write a Hen `+C`).
    pub fn letter(self) -> char {
        match self {
            Kind::Lion => 'L',
            Kind::Giraffe => 'G',
            Kind::Elephant => 'E',
            Kind::Chick => 'C',
            Kind::Hen => 'H',
        }
    }

    /// The kind of an uppercase or lowercase letter `L G E C H`.
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'L' => Some(Kind::Lion),
            'G' => Some(Kind::Giraffe),
            'E' => Some(Kind::Elephant),
            'C' => Some(Kind::Chick),
            'H' => Some(Kind::Hen),
            _ => None,
        }
    }
}

/// A piece: its owner and kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Who owns it.
    pub owner: Player,
    /// What it is.
    pub kind: Kind,
}

/// A square, 0-11: `a1 b1 c1 a2 ... c4` (index = 3 x (rank - 1) + file, file a = 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 12;

    /// The square with 0-based `file` (0-2 for `a`-`c`) and `rank` (0-3 for `1`-`4`); `None`
    /// outside the board.
    #[inline]
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 3 && rank < 4).then_some(Square(rank * 3 + file))
    }

    /// The square with index `index` (0-11); `None` above 11.
    #[inline]
    pub fn from_index(index: u8) -> Option<Square> {
        (index < 12).then_some(Square(index))
    }

    /// The index 0-11.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (0 = `a`).
    #[inline]
    pub fn file(self) -> u8 {
        self.0 % 3
    }

    /// 0-based rank (0 = rank `1`).
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 / 3
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..12).map(Square)
    }
}

impl fmt::Display for Square {
    /// `a1` ... `c4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A move: a step of a piece on the board (with a promotion flag) or a drop from the hand.
///
/// Two bytes: `from` is a square index (0-11) or 12 + the hand index of the dropped kind; `to` is
/// the target square index, plus 16 for a promotion. Built by [`Position::legal_moves`] or by
/// parsing (`FromStr`, [`Position::parse_move`]); `Display` writes Fairy-Stockfish's notation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: u8,
    to: u8,
}

const PROMOTION_FLAG: u8 = 16;
const DROP_BASE: u8 = 12;

impl Move {
    /// A step from `from` to `to`; `promotes` for a Chick reaching the last rank.
    #[inline]
    pub fn step(from: Square, to: Square, promotes: bool) -> Move {
        Move {
            from: from.0,
            to: to.0 | if promotes { PROMOTION_FLAG } else { 0 },
        }
    }

    /// A drop of `kind` on `to`; `None` unless `kind` is droppable (Giraffe, Elephant, Chick).
    #[inline]
    pub fn drop(kind: Kind, to: Square) -> Option<Move> {
        kind.hand_index().map(|k| Move {
            from: DROP_BASE + k as u8,
            to: to.0,
        })
    }

    #[inline]
    pub(crate) fn raw(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// The target square.
    #[inline]
    pub fn to(self) -> Square {
        Square(self.to & 15)
    }

    /// The square the piece leaves; `None` for a drop.
    #[inline]
    pub fn from(self) -> Option<Square> {
        (self.from < DROP_BASE).then_some(Square(self.from))
    }

    /// The dropped kind; `None` for a step.
    #[inline]
    pub fn dropped(self) -> Option<Kind> {
        (self.from >= DROP_BASE).then(|| Kind::DROPPABLE[(self.from - DROP_BASE) as usize])
    }

    /// Whether this is a drop.
    #[inline]
    pub fn is_drop(self) -> bool {
        self.from >= DROP_BASE
    }

    /// Whether the moving Chick promotes.
    #[inline]
    pub fn promotes(self) -> bool {
        self.to & PROMOTION_FLAG != 0
    }

    /// The same move seen on the board mirrored left-right (files a and c swapped), for
    /// [`Position::mirrored`].
    pub fn mirrored(self) -> Move {
        let m = |s: u8| s - s % 3 + (2 - s % 3);
        Move {
            from: if self.is_drop() {
                self.from
            } else {
                m(self.from)
            },
            to: m(self.to & 15) | (self.to & PROMOTION_FLAG),
        }
    }

    /// The same move seen on the board turned by 180 degrees, for [`Position::flipped`].
    pub fn flipped(self) -> Move {
        Move {
            from: if self.is_drop() {
                self.from
            } else {
                11 - self.from
            },
            to: (11 - (self.to & 15)) | (self.to & PROMOTION_FLAG),
        }
    }
}

impl fmt::Display for Move {
    /// `b2b3`, `b3b4+` or `C@b3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dropped() {
            Some(kind) => write!(f, "{}@{}", kind.letter(), self.to()),
            None => write!(
                f,
                "{}{}{}",
                Square(self.from),
                self.to(),
                if self.promotes() { "+" } else { "" }
            ),
        }
    }
}
