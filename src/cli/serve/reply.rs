//! The replies of the web board's JSON API, as types: each serializes to the JSON docs/web.md
//! describes and the page reads (`assets/types.js` mirrors them as JSDoc types). Requests are
//! read into [`super::api::Query`].

use std::collections::BTreeMap;

use serde::Serialize;

use perfectplay::records::Variation;

/// `{"error": ...}`: the body of every 4xx and 5xx answer.
#[derive(Serialize, Debug)]
pub struct ErrorReply<'a> {
    /// What was wrong, in words.
    pub error: &'a str,
}

/// `GET /api/info`: the engine, its variants and their tables, the searches.
#[derive(Serialize, Debug)]
pub struct InfoReply {
    /// `perfectplay VERSION`.
    pub engine: String,
    /// Each variant the server plays.
    pub variants: Vec<VariantInfo>,
    /// The searches running now (analysis streams and best moves).
    pub searches: usize,
    /// The searches waiting for a thread.
    pub queued: usize,
    /// The most searches that run at once.
    pub search_threads: usize,
}

/// A variant in [`InfoReply`].
#[derive(Serialize, Debug)]
pub struct VariantInfo {
    /// `abapa`, `awari`, `dobutsu`.
    pub name: &'static str,
    /// The game: `oware` or `dobutsu`.
    pub game: &'static str,
    /// The players' names, the first player's first.
    pub players: [&'static str; 2],
    /// Whether its tables are loaded.
    pub tables: bool,
    /// What was loaded, or that the tables are being built, or why there are none.
    pub note: Option<String>,
    /// What level 6 (full strength) plays by now, in a few words for its label: `perfect (the
    /// solution)`, `search with endgame tables`, `search; solution building`, `search`.
    pub level6: String,
}

/// `GET /api/state`: a game and its position.
#[derive(Serialize, Debug)]
pub struct StateReply {
    /// The game: `oware` or `dobutsu`.
    pub game: &'static str,
    /// The players' names, the first player's first.
    pub players: [&'static str; 2],
    /// The start position, with its counters.
    pub start: String,
    /// The moves played from it, in the protocol's notation.
    pub moves: Vec<String>,
    /// The position after the moves, with its counters.
    pub position: String,
    /// The player to move.
    pub to_move: &'static str,
    /// The board to draw.
    pub board: BoardReply,
    /// Each legal move with the position after it (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// The end of the game, or `null` while it goes on.
    pub end: Option<EndReply>,
    /// The plies played.
    pub ply: usize,
}

/// A legal move and the position after it.
#[derive(Serialize, Debug)]
pub struct LegalMove {
    /// The move, in the protocol's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after it, with its counters.
    pub position: String,
}

/// How a game ended.
#[derive(Serialize, Debug)]
pub struct EndReply {
    /// The result as a record writes it (`1-0`, `25-23`, ...).
    pub result: String,
    /// The winner's name, `null` for a draw.
    pub winner: Option<&'static str>,
    /// Why it ended, in words.
    pub reason: String,
    /// The board after the final counting where the end moves seeds to the stores (Oware: each
    /// side takes its own row, or the seeds left are split evenly), so that the stores show the
    /// result; `null` where the board as played is the final one.
    pub counted: Option<Box<BoardReply>>,
}

/// A board as the page draws it: Oware's houses and stores, or Dobutsu's squares and hands.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub enum BoardReply {
    /// An Oware board.
    Oware {
        /// The seeds of each house, by name (`A`-`F` South's, `a`-`f` North's).
        houses: BTreeMap<String, u8>,
        /// The seeds in each store, by player (`South`, `North`).
        stores: BTreeMap<&'static str, u8>,
        /// The rule set, `abapa` or `awari`.
        variant: &'static str,
    },
    /// A Dobutsu Shogi board.
    Dobutsu {
        /// The piece on each occupied square, by name (`a1`-`c4`).
        squares: BTreeMap<String, PieceReply>,
        /// Each player's hand (`Sente`, `Gote`): the count of each kind (`G`, `E`, `C`, and
        /// `L` 1 once that player has captured the enemy Lion).
        hands: BTreeMap<&'static str, BTreeMap<String, u8>>,
    },
}

/// A Dobutsu piece on the board.
#[derive(Serialize, Debug)]
pub struct PieceReply {
    /// Its kind's letter: `L`, `G`, `E`, `C`, `H`.
    pub kind: String,
    /// Its owner, `Sente` or `Gote`.
    pub owner: &'static str,
}

/// A value the tables (or the rules) know, from the side to move; docs/web.md.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ValueReply {
    /// `win`, `draw` or `loss`; `null` where bounds do not decide it.
    pub result: Option<&'static str>,
    /// Plies to the end under perfect play, where the tables know it.
    pub plies: Option<u32>,
    /// The exact final margin in seeds, stores included (Oware).
    pub score: Option<i32>,
    /// The least margin the side to move can force (Oware).
    pub low: Option<i32>,
    /// The most margin it can get (Oware).
    pub high: Option<i32>,
    /// The value in words.
    pub text: String,
}

/// `GET /api/probe`: a position's value and every legal move's, best first.
#[derive(Serialize, Debug)]
pub struct ProbeReply {
    /// The position, with its counters.
    pub position: String,
    /// The player to move.
    pub to_move: &'static str,
    /// The position's value, `null` when unknown.
    pub value: Option<ValueReply>,
    /// Each legal move, best first.
    pub moves: Vec<MoveValue>,
    /// A note on the tables (a build running, an error), `null` when there is nothing to say.
    pub tables: Option<String>,
}

/// A legal move with the position after it and its value.
#[derive(Serialize, Debug)]
pub struct MoveValue {
    /// The move, in the protocol's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after it.
    pub position: String,
    /// Its value, from the mover, `null` when unknown.
    pub value: Option<ValueReply>,
}

/// `GET /api/review`: each move of a game against the tables.
#[derive(Serialize, Debug)]
pub struct ReviewReply {
    /// The moves, in order.
    pub moves: Vec<ReviewedMove>,
    /// A note on the tables, `null` when there is nothing to say.
    pub tables: Option<String>,
}

/// A move of a reviewed game.
#[derive(Serialize, Debug)]
pub struct ReviewedMove {
    /// The move, in the protocol's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who played it.
    pub player: &'static str,
    /// The value of the position before it, from the mover.
    pub before: Option<ValueReply>,
    /// The value of the move played, from the mover.
    pub after: Option<ValueReply>,
    /// What it cost in words, `null` where it kept the value or the values are unknown.
    pub cost: Option<String>,
    /// The seeds of final margin it lost (Oware, exact values on both sides), `null` where
    /// none were lost or the values are unknown.
    pub seeds_lost: Option<i32>,
}

/// `POST /api/import`: the records read.
#[derive(Serialize, Debug)]
pub struct ImportReply {
    /// Each record, replayed.
    pub records: Vec<ImportedGame>,
}

/// A record read by an import.
#[derive(Serialize, Debug)]
pub struct ImportedGame {
    /// The variant the record names.
    pub variant: String,
    /// The start position, `null` for the game's own.
    pub position: Option<String>,
    /// The moves, in the protocol's notation.
    pub moves: Vec<String>,
    /// The side lines, each checked by the rules, in the order of the record.
    pub variations: Vec<SideLine>,
    /// The header tags, by name.
    pub tags: BTreeMap<String, String>,
    /// The end of the game, `null` when it goes on.
    pub end: Option<EndReply>,
}

/// A side line of an imported record: moves played instead of one move of the line it
/// branches from, from the position before that move.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct SideLine {
    /// The 0-based index, in the line it branches from, of the move it replaces.
    pub at: usize,
    /// Its moves, in the protocol's notation.
    pub moves: Vec<String>,
    /// Its own side lines, their `at` counting in `moves`.
    pub variations: Vec<SideLine>,
}

impl From<Variation> for SideLine {
    fn from(line: Variation) -> SideLine {
        SideLine {
            at: line.at,
            moves: line.moves,
            variations: line.variations.into_iter().map(SideLine::from).collect(),
        }
    }
}

/// A search's score, from the side to move: `{"cp": 35}` or `{"mate": -4}`.
#[derive(Serialize, Debug, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum ScoreReply {
    /// Centipawns (Dobutsu) or hundredths of a seed (Oware).
    Cp(i32),
    /// A result in this many moves (negative: lost).
    Mate(i32),
}

/// An analysis stream's `info` event: one line of one iteration.
#[derive(Serialize, Debug)]
pub struct LineReply {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The line's rank, from 1.
    pub multipv: u32,
    /// Its score.
    pub score: ScoreReply,
    /// Win, draw and loss per mille, from the side to move.
    pub wdl: [u32; 3],
    /// Whether the score is the tables' exact value.
    pub exact: bool,
    /// The nodes searched.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// The time searched, in ms.
    pub time: u64,
    /// The table lookups.
    pub tbhits: u64,
    /// The principal variation, in the protocol's notation.
    pub pv: Vec<String>,
}

/// An analysis stream's `tick` event: the search's progress while no line comes.
#[derive(Serialize, Debug)]
pub struct TickReply {
    /// The time searched, in ms.
    pub time: u64,
    /// The nodes searched.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// Whether the search still waits for a thread.
    pub queued: bool,
}

/// An analysis stream's `note` event.
#[derive(Serialize, Debug)]
pub struct NoteReply {
    /// What to tell the user.
    pub text: String,
}

/// `GET /api/bestmove`, and an analysis stream's last event: the search's result.
#[derive(Serialize, Debug)]
pub struct BestReply {
    /// The move, `null` when the game is over.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Its score, `null` when the game is over.
    pub score: Option<ScoreReply>,
    /// Win, draw and loss per mille from the side to move (exact for a proven result or the
    /// tables' value, else the search's model), `null` when the game is over.
    pub wdl: Option<[u32; 3]>,
    /// The depth of the last iteration.
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<String>,
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    type Fields = BTreeMap<String, BTreeSet<String>>;

    /// The fields of each struct of this file, as serialized (a `rename` followed).
    fn rust_fields() -> Fields {
        let mut structs = Fields::new();
        let mut current: Option<String> = None;
        let mut rename: Option<String> = None;
        for line in include_str!("reply.rs").lines() {
            let line = line.trim_end();
            if let Some(rest) = line.strip_prefix("pub struct ") {
                let name = rest.split(['<', ' ']).next().unwrap_or_default();
                current = Some(name.to_string());
                structs.insert(name.to_string(), BTreeSet::new());
            } else if line == "}" {
                current = None;
            } else if let Some(name) = &current {
                let line = line.trim();
                if let Some(r) = line.strip_prefix("#[serde(rename = \"") {
                    rename = r.split('"').next().map(str::to_string);
                } else if let Some(field) = line.strip_prefix("pub ") {
                    let field = field.split(':').next().unwrap_or_default().to_string();
                    let field = rename.take().unwrap_or(field);
                    structs.get_mut(name).map(|f| f.insert(field));
                }
            }
        }
        structs
    }

    /// The properties of each object typedef of assets/types.js.
    fn js_fields() -> Fields {
        let mut types = Fields::new();
        let mut current: Option<String> = None;
        for line in include_str!("assets/types.js").lines() {
            let line = line.trim_start_matches([' ', '*']);
            if let Some(rest) = line.strip_prefix("@typedef {object} ") {
                current = Some(rest.trim().to_string());
                types.insert(rest.trim().to_string(), BTreeSet::new());
            } else if let Some(rest) = line.strip_prefix("@typedef {{ ") {
                let (body, name) = rest.rsplit_once("}} ").unwrap_or_default();
                let fields = body
                    .split(", ")
                    .filter_map(|f| f.split_once(':').map(|(n, _)| n.trim().to_string()));
                types.insert(name.trim().to_string(), fields.collect());
            } else if let Some(rest) = line.strip_prefix("@property {") {
                let field = rest.split("} ").nth(1).unwrap_or_default();
                let field = field.split_whitespace().next().unwrap_or_default();
                if let Some(name) = &current {
                    types.get_mut(name).map(|f| f.insert(field.to_string()));
                }
            } else if line.starts_with('/') {
                current = None;
            }
        }
        types
    }

    /// The page's JSDoc types name the fields the server sends: every reply struct has a
    /// typedef of its name with the same properties.
    #[test]
    fn the_pages_types_mirror_the_replies() {
        let rust = rust_fields();
        let js = js_fields();
        assert!(rust.len() >= 18, "{rust:?}");
        for (name, fields) in &rust {
            assert_eq!(js.get(name), Some(fields), "{name} in assets/types.js");
        }
    }
}
