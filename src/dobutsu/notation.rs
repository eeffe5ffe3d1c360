//! FEN and move notation (Fairy-Stockfish / pychess `dobutsu`), and the text diagram.

use super::{Kind, Move, Piece, Player, Position, Square};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Every way a FEN can be wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// Not 2 to 6 space-separated fields (`board[hand] side`, optionally `-` or `- -`, optionally
    /// the move number or both move counters).
    #[error("a FEN has 2 to 6 fields (board[hand] side [- [-]] [[halfmove] fullmove]), found {0}")]
    FieldCount(usize),
    /// The board is not followed by a hand in brackets.
    #[error("the board must be followed by the hands in brackets, as in gle/1c1/1C1/ELG[-]")]
    MissingHand,
    /// Not 4 ranks separated by `/`.
    #[error("the board has 4 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank does not describe exactly 3 squares.
    #[error("rank {rank} describes {width} squares, not 3")]
    RankWidth {
        /// The rank, 1-4.
        rank: u8,
        /// How many squares it described.
        width: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-3 on the board.
    #[error("'{0}' is not a piece (L G E C H, +C) or a count of empty squares (1-3)")]
    BadBoardChar(char),
    /// `+` not followed by `C` or `c`.
    #[error("only a Chick promotes: '+' must be followed by C or c")]
    BadPromoted,
    /// A character in the hands that is not `G E C L` (either case) or `-`.
    #[error("'{0}' cannot be in a hand (G E C, or L once a Lion has been captured)")]
    BadHandChar(char),
    /// The side to move is not `w` or `b`.
    #[error("side to move must be w or b, found '{0}'")]
    BadSide(String),
    /// The castling or en-passant placeholder is not `-`.
    #[error("Dobutsu has no castling or en passant: expected '-', found '{0}'")]
    BadPlaceholder(String),
    /// A move counter that is not a number (the fullmove number starts at 1).
    #[error("bad move counter '{0}'")]
    BadCounter(String),
    /// More than two pieces of a kind (Chick and Hen count together; hands included).
    #[error("more than two pieces of kind {0:?} (board and hands)")]
    TooMany(Kind),
    /// A player without exactly one Lion (on the board, or captured in the enemy's hand).
    #[error("{0:?} must have exactly one Lion, on the board or (captured) in the enemy's hand")]
    LionCount(Player),
    /// Both Lions captured.
    #[error("both Lions cannot have been captured")]
    BothLionsCaptured,
}

/// Every way a move can be wrong, in its syntax or in the position it is played in.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not of the forms `b2b3`, `b3b4+`, `C@b3`.
    #[error("'{0}' is not a move (b2b3, b3b4+ or C@b3)")]
    Syntax(String),
    /// A square name outside `a1`-`c4`.
    #[error("'{0}' is not a square (a1-c4)")]
    BadSquare(String),
    /// A drop of a piece that cannot be in a hand.
    #[error("a {0:?} cannot be dropped (only G, E and C)")]
    NotDroppable(Kind),
    /// The game is over in this position: no move is legal.
    #[error("the game is over: no move is legal")]
    GameOver,
    /// A Chick reaching the last rank written without `+`.
    #[error("'{0}' promotes: write it with a '+'")]
    PromotionMissing(String),
    /// A `+` on a move that does not promote.
    #[error("'{0}' does not promote: write it without '+'")]
    NotAPromotion(String),
    /// Well formed but not legal here.
    #[error("'{0}' is not legal in this position")]
    Illegal(String),
}

pub use crate::game::MoveCounters;

/// The fields after the side to move: `[-] [-] [[halfmove] fullmove]`.
fn read_counters(fields: &[&str]) -> Result<MoveCounters, FenError> {
    let placeholders = fields.iter().take(2).take_while(|f| **f == "-").count();
    let numbers = &fields[placeholders..];
    let number = |s: &str, least: u32| {
        s.parse::<u32>()
            .ok()
            .filter(|&n| n >= least && s.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| FenError::BadCounter(s.to_string()))
    };
    match numbers {
        [] => Ok(MoveCounters::default()),
        [full] => Ok(MoveCounters {
            halfmove: 0,
            fullmove: number(full, 1)?,
        }),
        [half, full] => Ok(MoveCounters {
            halfmove: number(half, 0)?,
            fullmove: number(full, 1)?,
        }),
        // Three words or more after the placeholders: the first stands where a placeholder
        // belongs.
        [first, ..] => Err(FenError::BadPlaceholder(first.to_string())),
    }
}

fn parse_square(s: &str) -> Result<Square, MoveError> {
    let b = s.as_bytes();
    if b.len() == 2 && (b'a'..=b'c').contains(&b[0]) && (b'1'..=b'4').contains(&b[1]) {
        Ok(Square::new(b[0] - b'a', b[1] - b'1').expect("in range"))
    } else {
        Err(MoveError::BadSquare(s.to_string()))
    }
}

impl FromStr for Move {
    type Err = MoveError;

    /// Reads `b2b3`, `b3b4+` or `C@b3` (drop letters uppercase, as Fairy-Stockfish writes them).
    /// Only the syntax is checked; [`Position::parse_move`] also checks legality.
    fn from_str(s: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(s.to_string());
        if !s.is_ascii() {
            return Err(syntax());
        }
        if let Some((piece, to)) = s.split_once('@') {
            let mut chars = piece.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(syntax());
            };
            let kind = Kind::from_letter(c)
                .filter(|_| c.is_ascii_uppercase())
                .ok_or_else(syntax)?;
            let to = parse_square(to)?;
            return Move::drop(kind, to).ok_or(MoveError::NotDroppable(kind));
        }
        let (squares, promotes) = match s.strip_suffix('+') {
            Some(rest) => (rest, true),
            None => (s, false),
        };
        if squares.len() != 4 {
            return Err(syntax());
        }
        let from = parse_square(&squares[..2])?;
        let to = parse_square(&squares[2..])?;
        Ok(Move::step(from, to, promotes))
    }
}

/// Hand letters in Fairy-Stockfish's order (its piece types from the highest: Lion, Giraffe,
/// Chick, Elephant).
const HAND_ORDER: [Kind; 4] = [Kind::Lion, Kind::Giraffe, Kind::Chick, Kind::Elephant];

fn piece_text(p: Piece) -> String {
    let s = match p.kind {
        Kind::Hen => "+C".to_string(),
        k => k.letter().to_string(),
    };
    match p.owner {
        Player::Sente => s,
        Player::Gote => s.to_ascii_lowercase(),
    }
}

impl Position {
    /// Reads a FEN (see the [module documentation](super) for the forms accepted), dropping the
    /// move counters.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with_counters(fen).map(|(p, _)| p)
    }

    /// Reads a FEN and its move counters (`0 1` when absent), in every form the field writes:
    /// after the side to move, up to two `-` placeholders (castling and en passant, which
    /// Dobutsu has not), then no counter, the move number alone (cutechess: `w - 1`) or the
    /// halfmove clock and the move number (Fairy-Stockfish: `w - - 0 1`; ours: `w 0 1`).
    pub fn from_fen_with_counters(fen: &str) -> Result<(Position, MoveCounters), FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let side = match fields[1] {
            "w" => Player::Sente,
            "b" => Player::Gote,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        let counters = read_counters(&fields[2..])?;
        let (board, hand) = fields[0]
            .strip_suffix(']')
            .and_then(|s| s.split_once('['))
            .ok_or(FenError::MissingHand)?;
        let mut pos = Position::empty(side);
        let mut counts = [0u8; 6];
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 4 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 3 - i as u8;
            let mut pieces: Vec<Option<Piece>> = Vec::new();
            let mut chars = text.chars();
            while let Some(c) = chars.next() {
                match c {
                    '1'..='3' => pieces.extend((0..c as u8 - b'0').map(|_| None)),
                    '+' => match chars.next() {
                        Some('C') => pieces.push(Some(Piece {
                            owner: Player::Sente,
                            kind: Kind::Hen,
                        })),
                        Some('c') => pieces.push(Some(Piece {
                            owner: Player::Gote,
                            kind: Kind::Hen,
                        })),
                        _ => return Err(FenError::BadPromoted),
                    },
                    c => {
                        let kind = Kind::from_letter(c).ok_or(FenError::BadBoardChar(c))?;
                        let owner = if c.is_ascii_uppercase() {
                            Player::Sente
                        } else {
                            Player::Gote
                        };
                        pieces.push(Some(Piece { owner, kind }));
                    }
                }
            }
            if pieces.len() != 3 {
                return Err(FenError::RankWidth {
                    rank: rank + 1,
                    width: pieces.len(),
                });
            }
            for (file, piece) in pieces.into_iter().enumerate() {
                if let Some(piece) = piece {
                    let sq = Square::new(file as u8, rank).expect("on the board");
                    pos.put(sq, piece);
                    count(&mut counts, piece.kind, piece.owner)?;
                }
            }
        }
        let mut lions_held = [0u8; 2];
        if hand != "-" {
            for c in hand.chars() {
                let kind = Kind::from_letter(c)
                    .filter(|&k| k != Kind::Hen)
                    .ok_or(FenError::BadHandChar(c))?;
                let holder = if c.is_ascii_uppercase() {
                    Player::Sente
                } else {
                    Player::Gote
                };
                if kind == Kind::Lion {
                    lions_held[holder.index()] += 1;
                    count(&mut counts, kind, holder.opponent())?;
                } else {
                    count(&mut counts, kind, holder)?;
                }
                pos.add_to_hand(holder, kind);
            }
        }
        for p in Player::BOTH {
            if counts[p.index()] != 1 {
                return Err(FenError::LionCount(p));
            }
        }
        if lions_held == [1, 1] {
            return Err(FenError::BothLionsCaptured);
        }
        Ok((pos, counters))
    }

    /// The FEN as Fairy-Stockfish writes it, with counters `0 1`: `gle/1c1/1C1/ELG[] w - - 0 1`.
    pub fn to_fen(&self) -> String {
        self.to_fen_with_counters(MoveCounters::default())
    }

    /// The FEN as Fairy-Stockfish writes it, with the given move counters.
    pub fn to_fen_with_counters(&self, counters: MoveCounters) -> String {
        let mut s = String::new();
        for rank in (0..4).rev() {
            let mut empty = 0;
            for file in 0..3 {
                match self.piece_at(Square::new(file, rank).expect("on the board")) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push_str(&piece_text(p));
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push('[');
        s.push_str(&self.hand_text(Player::Sente));
        s.push_str(&self.hand_text(Player::Gote));
        s.push(']');
        format!(
            "{s} {} - - {} {}",
            self.side_to_move(),
            counters.halfmove,
            counters.fullmove
        )
    }

    /// A player's hand in Fairy-Stockfish's order, uppercase for Sente (empty string if empty).
    fn hand_text(&self, holder: Player) -> String {
        let mut s = String::new();
        for kind in HAND_ORDER {
            for _ in 0..self.in_hand(holder, kind) {
                s.push(match holder {
                    Player::Sente => kind.letter(),
                    Player::Gote => kind.letter().to_ascii_lowercase(),
                });
            }
        }
        s
    }

    /// Reads a move and checks that it is legal here (see [`Position::legal_moves`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv: Move = text.parse()?;
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(&mv) {
            return Ok(mv);
        }
        if legal.is_empty() {
            return Err(MoveError::GameOver);
        }
        if let Some(from) = mv.from() {
            let other = Move::step(from, mv.to(), !mv.promotes());
            if legal.contains(&other) {
                return Err(if mv.promotes() {
                    MoveError::NotAPromotion(text.to_string())
                } else {
                    MoveError::PromotionMissing(text.to_string())
                });
            }
        }
        Err(MoveError::Illegal(text.to_string()))
    }

    /// A text diagram for the `d` command: the 3x4 board with rank 4 on top, Gote's hand by rank 4
    /// and Sente's by rank 1 (`*` marks the side to move), then the FEN with counters `0 1`.
    /// Lines end with `\n`.
    pub fn diagram(&self) -> String {
        self.diagram_with_counters(MoveCounters::default())
    }

    /// [`Position::diagram`] with the FEN's move counters.
    pub fn diagram_with_counters(&self, counters: MoveCounters) -> String {
        let border = "  +---+---+---+\n";
        let mut s = String::from(border);
        for rank in (0..4).rev() {
            s.push_str(&format!("{} |", rank + 1));
            for file in 0..3 {
                let cell = match self.piece_at(Square::new(file, rank).expect("on the board")) {
                    None => "   ".to_string(),
                    Some(p) => format!("{:^3}", piece_text(p)),
                };
                s.push_str(&cell);
                s.push('|');
            }
            let holder = match rank {
                3 => Some(Player::Gote),
                0 => Some(Player::Sente),
                _ => None,
            };
            if let Some(p) = holder {
                let hand = self.hand_text(p);
                let mark = if self.side_to_move() == p { '*' } else { ' ' };
                s.push_str(&format!(
                    " {mark} hand: {}",
                    if hand.is_empty() { "-" } else { &hand }
                ));
            }
            s.push('\n');
            s.push_str(border);
        }
        s.push_str("    a   b   c\n");
        s.push_str(&format!("fen: {}\n", self.to_fen_with_counters(counters)));
        s
    }
}

/// Counts a piece (a Lion for its owner) and fails past two of a kind or one Lion per player.
fn count(counts: &mut [u8; 6], kind: Kind, owner: Player) -> Result<(), FenError> {
    let slot = match kind {
        Kind::Lion => owner.index(),
        Kind::Hen => Kind::Chick as usize,
        k => k as usize,
    };
    counts[slot] += 1;
    if kind == Kind::Lion {
        if counts[slot] > 1 {
            return Err(FenError::LionCount(owner));
        }
    } else if counts[slot] > 2 {
        return Err(FenError::TooMany(kind.demoted()));
    }
    Ok(())
}

impl FromStr for Position {
    type Err = FenError;

    /// [`Position::from_fen`].
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// [`Position::to_fen`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
