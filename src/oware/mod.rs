//! Oware (Abapa, and the Awari rules of the solved-game databases): position, moves, notation,
//! rules with the game history (cycle rule), evaluation.
//!
//! Notation follows the Aualé GUI and its engine: houses `A`-`F` are South's (indices 0-5), `a`-`f`
//! North's (6-11); a move is the letter of the house it sows; a position is the diagram
//! `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S` (twelve houses, South's store, North's store, side to move).

mod board;
mod eval;
pub mod net;
mod notation;
mod state;
pub mod tablebase;

pub use board::{Board, BoardError, MoveList, HALF_SEEDS, TOTAL_SEEDS};
pub use eval::{Weights, FEATURES, FEATURE_NAMES};
pub use state::{EndReason, GameEnd, GameState, Rules};

pub use crate::game::PlayError;
use crate::game::{OptionDecl, OptionValue, Player, Settings};

use std::fmt;
use std::str::FromStr;

/// One of the two players. South moves first and owns houses `A`-`F`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Side {
    /// The first player, houses 0-5 (`A`-`F`).
    South = 0,
    /// The second player, houses 6-11 (`a`-`f`).
    North = 1,
}

impl Side {
    /// 0 for South, 1 for North.
    pub fn index(self) -> usize {
        self as usize
    }
    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
    /// Index of the player's first house (0 or 6).
    pub fn first_house(self) -> usize {
        self.index() * 6
    }
    /// Whether house index `house` (0-11) is in this player's row.
    pub fn owns(self, house: usize) -> bool {
        house / 6 == self.index()
    }
}

impl Player for Side {
    const FIRST: Side = Side::South;
    fn index(self) -> usize {
        self as usize
    }
    fn opponent(self) -> Side {
        Side::opponent(self)
    }
}

impl fmt::Display for Side {
    /// `S` or `N`, as in diagrams.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "S",
            Side::North => "N",
        })
    }
}

impl FromStr for Side {
    type Err = NotationError;
    /// `S`/`N` (either case), or `South`/`North`.
    fn from_str(s: &str) -> Result<Side, NotationError> {
        match s.to_ascii_lowercase().as_str() {
            "s" | "south" => Ok(Side::South),
            "n" | "north" => Ok(Side::North),
            _ => Err(NotationError::DiagramSide(s.to_string())),
        }
    }
}

/// The rule set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum RuleSet {
    /// Abapa, the tournament rules (the default): a grand slam is legal but captures nothing; a
    /// player who cannot feed ends the game and each takes their own row's seeds, also on a cycle.
    #[default]
    Abapa = 0,
    /// The rules of Romein & Bal's solved Awari databases: a move that leaves the opponent without
    /// seeds is illegal unless every move does; then it is played with its captures and the mover
    /// takes the seeds left. A cycle splits the seeds left evenly.
    Awari = 1,
}

impl fmt::Display for RuleSet {
    /// `abapa` or `awari`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSet::Abapa => "abapa",
            RuleSet::Awari => "awari",
        })
    }
}

impl FromStr for RuleSet {
    type Err = NotationError;
    /// `abapa` or `awari`, any case.
    fn from_str(s: &str) -> Result<RuleSet, NotationError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "abapa" => Ok(RuleSet::Abapa),
            "awari" => Ok(RuleSet::Awari),
            _ => Err(NotationError::RuleSet(s.to_string())),
        }
    }
}

/// A move: the house whose seeds are sown, 0-11.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move(pub(crate) u8);

impl Move {
    /// The move that sows house `house` (0-11; panics above).
    pub fn from_house(house: usize) -> Move {
        assert!(house < 12, "house index {house} out of range");
        Move(house as u8)
    }
    /// The house index, 0-11.
    pub fn house(self) -> usize {
        self.0 as usize
    }
    /// The move from its letter: `A`-`F` for South's houses, `a`-`f` for North's.
    pub fn from_letter(c: char) -> Option<Move> {
        match c {
            'A'..='F' => Some(Move(c as u8 - b'A')),
            'a'..='f' => Some(Move(c as u8 - b'a' + 6)),
            _ => None,
        }
    }
    /// The letter of the house.
    pub fn letter(self) -> char {
        if self.0 < 6 {
            (b'A' + self.0) as char
        } else {
            (b'a' + self.0 - 6) as char
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Move {
    type Err = NotationError;
    /// One letter, `A`-`F` or `a`-`f`.
    fn from_str(s: &str) -> Result<Move, NotationError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => {
                Move::from_letter(c).ok_or_else(|| NotationError::Move(s.to_string()))
            }
            _ => Err(NotationError::Move(s.to_string())),
        }
    }
}

/// Parses a move list given space separated (`F f B e`) or run together (`FfBe`), or mixed.
///
/// # Errors
/// [`NotationError::Move`] naming the first character that is not a house letter.
pub fn parse_moves<'a>(
    words: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Move>, NotationError> {
    let mut moves = Vec::new();
    for word in words {
        for c in word.chars() {
            moves.push(Move::from_letter(c).ok_or_else(|| NotationError::Move(c.to_string()))?);
        }
    }
    Ok(moves)
}

/// Why a piece of notation could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A diagram must have 15 fields joined by `-`.
    #[error("a diagram has 15 fields joined by '-' (12 houses, 2 stores, side), found {0}")]
    DiagramFields(usize),
    /// A house or store count is not a number from 0 to 48.
    #[error("'{0}' is not a seed count from 0 to 48")]
    DiagramCount(String),
    /// The side to move is not `S` or `N`.
    #[error("'{0}' is not a side to move (S or N)")]
    DiagramSide(String),
    /// The counts do not describe a position.
    #[error("{0}")]
    Board(BoardError),
    /// Not a move letter.
    #[error("'{0}' is not a move (A-F for South's houses, a-f for North's)")]
    Move(String),
    /// Not a variant name.
    #[error("'{0}' is not a variant (abapa or awari)")]
    RuleSet(String),
}

/// The largest magnitude of an evaluation weight option.
const WEIGHT_RANGE: i64 = 100_000;

/// Oware's options: the cycle rule (`Repetitions`, `NoCaptureLimit`), the evaluation network
/// (`EvalNetwork`: [`net`], or the linear weights when false), the linear evaluation's weights
/// (`WeightCapture`, `WeightSeeds`, `WeightSmall`, `WeightLarge`, `WeightEmpty`, `WeightReach`,
/// `WeightThreats`, `WeightTempo`, `WeightCaptureLate`, `WeightSeedsLate`: the fields of
/// [`Weights`], in hundredths of a seed) and the endgame tablebase (`TablebasePath`: a directory
/// of layer files, empty for a table built in memory; `TablebaseSeeds`: the most seeds on the
/// board it is used for, 0 for none). The variant is chosen by the engine's `Variant` option.
pub fn options() -> Vec<OptionDecl<Settings<Board>>> {
    type Decl = OptionDecl<Settings<Board>>;
    fn weight(
        name: &'static str,
        get: fn(&Settings<Board>) -> OptionValue,
        set: fn(&mut Settings<Board>, &OptionValue),
    ) -> Decl {
        OptionDecl::spin(name, -WEIGHT_RANGE, WEIGHT_RANGE, get, set)
    }
    vec![
        OptionDecl::spin(
            "Repetitions",
            2,
            1000,
            |s| OptionValue::Spin(s.rules.cycle.repetitions.into()),
            |s, v| s.rules.cycle.repetitions = v.spin() as u32,
        ),
        OptionDecl::spin(
            "NoCaptureLimit",
            0,
            100_000,
            |s| OptionValue::Spin(s.rules.cycle.no_progress_limit.into()),
            |s, v| s.rules.cycle.no_progress_limit = v.spin() as u32,
        ),
        // The trained network (`net`); false evaluates with the linear weights.
        OptionDecl::check(
            "EvalNetwork",
            |s| OptionValue::Check(s.weights.network),
            |s, v| s.weights.network = v.check(),
        ),
        weight(
            "WeightCapture",
            |s| OptionValue::Spin(s.weights.capture.into()),
            |s, v| s.weights.capture = v.spin() as i32,
        ),
        weight(
            "WeightSeeds",
            |s| OptionValue::Spin(s.weights.row_seeds.into()),
            |s, v| s.weights.row_seeds = v.spin() as i32,
        ),
        weight(
            "WeightSmall",
            |s| OptionValue::Spin(s.weights.small_house.into()),
            |s, v| s.weights.small_house = v.spin() as i32,
        ),
        weight(
            "WeightLarge",
            |s| OptionValue::Spin(s.weights.big_house.into()),
            |s, v| s.weights.big_house = v.spin() as i32,
        ),
        weight(
            "WeightEmpty",
            |s| OptionValue::Spin(s.weights.empty.into()),
            |s, v| s.weights.empty = v.spin() as i32,
        ),
        weight(
            "WeightReach",
            |s| OptionValue::Spin(s.weights.reach.into()),
            |s, v| s.weights.reach = v.spin() as i32,
        ),
        weight(
            "WeightThreats",
            |s| OptionValue::Spin(s.weights.threats.into()),
            |s, v| s.weights.threats = v.spin() as i32,
        ),
        weight(
            "WeightTempo",
            |s| OptionValue::Spin(s.weights.tempo.into()),
            |s, v| s.weights.tempo = v.spin() as i32,
        ),
        weight(
            "WeightCaptureLate",
            |s| OptionValue::Spin(s.weights.store_late.into()),
            |s, v| s.weights.store_late = v.spin() as i32,
        ),
        weight(
            "WeightSeedsLate",
            |s| OptionValue::Spin(s.weights.rows_late.into()),
            |s, v| s.weights.rows_late = v.spin() as i32,
        ),
        OptionDecl {
            name: "TablebasePath",
            kind: crate::game::OptionKind::Text,
            get: |s| OptionValue::Text(s.tables.path.clone().unwrap_or_default()),
            set: |s, v| s.tables.path = Some(v.text().to_string()),
        },
        OptionDecl::spin(
            "TablebaseSeeds",
            0,
            tablebase::index::MAX_SEEDS as i64,
            |s| {
                OptionValue::Spin(
                    s.tables
                        .limit
                        .unwrap_or(tablebase::oracle::DEFAULT_SEEDS)
                        .into(),
                )
            },
            |s, v| s.tables.limit = Some(v.spin() as u32),
        ),
        // -1: as far as the machine builds in a few minutes (`tablebase::auto::auto_seeds`).
        OptionDecl::spin(
            "TablebaseBuildSeeds",
            -1,
            tablebase::index::MAX_SEEDS as i64,
            |s| OptionValue::Spin(s.tables.build.map_or(-1, i64::from)),
            |s, v| s.tables.build = u32::try_from(v.spin()).ok(),
        ),
    ]
}
