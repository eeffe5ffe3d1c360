//! What the web board needs of each game beyond the [`Refereed`] trait: the board as a reply for
//! the page to draw, the final margin of an ended Oware game, and the game's record format
//! (OGN for Oware, PGN for Dobutsu Shogi, as the match runner writes them).

use std::collections::BTreeMap;

use perfectplay::arena::games::Refereed;
use perfectplay::arena::record::{ogn, pgn, tag};
use perfectplay::dobutsu::{self, Kind, Square};
use perfectplay::game::{Game, GameState, Notation};
use perfectplay::oware::{self, Side};
use perfectplay::variant::Variant;

use super::reply::{BoardReply, PieceReply};

/// A game record as the page imports it: the start position (`None` for the start position),
/// the moves in the protocol's notation, and the header tags.
pub struct ImportedRecord {
    /// The variant the record names (`abapa`, `awari`, `dobutsu`).
    pub variant: String,
    /// The start position's text, when the record does not start from the start position.
    pub start: Option<String>,
    /// The moves, in the protocol's notation.
    pub moves: Vec<String>,
    /// The header tags, in the order read.
    pub tags: Vec<(String, String)>,
}

/// A game the web board can show.
pub trait WebGame: Refereed {
    /// The board for the page to draw: Oware's houses and stores, Dobutsu's squares and hands.
    fn board_reply(&self) -> BoardReply;

    /// The rules of `variant` if it is a variant of this game (Oware: abapa or awari).
    fn rules_of(variant: Variant) -> Option<Self::Rules>;

    /// The variant `rules` are (the server's key for the game's slot).
    fn variant_of(rules: &Self::Rules) -> Variant;

    /// The final margin in seeds of a position whose game is over, from the side to move (Oware:
    /// the final stores' difference); `None` for games without one.
    fn final_margin(&self) -> Option<i32> {
        None
    }

    /// Reads every record of `text` in the game's format.
    ///
    /// # Errors
    /// The format's parse error, in words.
    fn import_records(text: &str) -> Result<Vec<ImportedRecord>, String>;

    /// Writes the game so far as a record in the game's format, with `players` (the first
    /// player's first) and `event`.
    fn export_record(game: &GameState<Self>, players: [&str; 2], event: &str) -> String;
}

/// The name of the variant of an Oware rule set.
fn rule_set_name(variant: oware::RuleSet) -> &'static str {
    Variant::of_oware(variant).name()
}

/// The result tag of a game so far: its result when over, else `*`.
fn result_of<G: Refereed>(game: &GameState<G>) -> String {
    game.end()
        .map_or_else(|| "*".to_string(), |end| G::result_text(&end))
}

impl WebGame for oware::Board {
    fn rules_of(variant: Variant) -> Option<oware::Rules> {
        variant.oware_rules()
    }

    fn variant_of(rules: &oware::Rules) -> Variant {
        Variant::of_oware(rules.variant)
    }

    fn board_reply(&self) -> BoardReply {
        let houses = self.houses();
        let names = "ABCDEFabcdef".chars();
        BoardReply::Oware {
            houses: names
                .zip(houses)
                .map(|(name, seeds)| (name.to_string(), seeds))
                .collect(),
            stores: BTreeMap::from([
                ("South", self.store(Side::South)),
                ("North", self.store(Side::North)),
            ]),
            variant: rule_set_name(self.variant()),
        }
    }

    fn final_margin(&self) -> Option<i32> {
        let stores = self.final_stores()?;
        let me = self.side_to_move().index();
        Some(i32::from(stores[me]) - i32::from(stores[1 - me]))
    }

    fn import_records(text: &str) -> Result<Vec<ImportedRecord>, String> {
        let games = ogn::parse(text).map_err(|e| e.to_string())?;
        games
            .iter()
            .map(|game| {
                let rules = game
                    .rules(oware::Rules::default())
                    .map_err(|e| e.to_string())?;
                let start = game.start(rules.variant).map_err(|e| e.to_string())?;
                Ok(ImportedRecord {
                    variant: rule_set_name(rules.variant).to_string(),
                    start: (start != oware::Board::start(rules.variant)).then(|| start.to_string()),
                    moves: game.moves.iter().map(|m| m.to_string()).collect(),
                    tags: game.tags.clone(),
                })
            })
            .collect()
    }

    fn export_record(game: &GameState<Self>, players: [&str; 2], event: &str) -> String {
        let mut record = ogn::OgnGame::default();
        let variant = game.start().variant();
        record.set_tag(
            "Variant",
            match variant {
                oware::RuleSet::Abapa => "Oware Abapa",
                oware::RuleSet::Awari => "Oware Awari",
            },
        );
        record.set_tag("Event", event);
        record.set_tag("South", players[0]);
        record.set_tag("North", players[1]);
        record.set_tag("Result", result_of(game));
        if *game.start() != oware::Board::start(variant) {
            record.set_tag("FEN", game.start().to_string());
        }
        let cycle = game.rules().cycle;
        record.set_tag("Repetitions", cycle.repetitions.to_string());
        record.set_tag("NoCaptureLimit", cycle.no_progress_limit.to_string());
        if let Some(end) = game.end() {
            record.set_tag(
                "Termination",
                format!("rules: {}", <Self as Refereed>::end_reason(&end)),
            );
        }
        for &mv in game.moves() {
            record.push_move(mv, None);
        }
        record.to_string()
    }
}

/// The page's name of a Dobutsu player.
fn dobutsu_player(player: dobutsu::Player) -> &'static str {
    <dobutsu::Position as Refereed>::PLAYER_NAMES[player.index()]
}

impl WebGame for dobutsu::Position {
    fn rules_of(variant: Variant) -> Option<dobutsu::Rules> {
        (variant == Variant::Dobutsu).then(dobutsu::Rules::default)
    }

    fn variant_of(_: &dobutsu::Rules) -> Variant {
        Variant::Dobutsu
    }

    fn board_reply(&self) -> BoardReply {
        let squares = Square::all()
            .filter_map(|sq| {
                let piece = self.piece_at(sq)?;
                let reply = PieceReply {
                    kind: piece.kind.letter().to_string(),
                    owner: dobutsu_player(piece.owner),
                };
                Some((sq.to_string(), reply))
            })
            .collect();
        // The droppable kinds, and the enemy Lion once it has been captured (the game's end).
        let hand = |holder| -> BTreeMap<String, u8> {
            Kind::DROPPABLE
                .iter()
                .chain([&Kind::Lion])
                .map(|&k| (k.letter().to_string(), self.in_hand(holder, k)))
                .collect()
        };
        BoardReply::Dobutsu {
            squares,
            hands: BTreeMap::from([
                ("Sente", hand(dobutsu::Player::Sente)),
                ("Gote", hand(dobutsu::Player::Gote)),
            ]),
        }
    }

    fn import_records(text: &str) -> Result<Vec<ImportedRecord>, String> {
        let games = pgn::parse(text).map_err(|e| e.to_string())?;
        games
            .into_iter()
            .enumerate()
            .map(|(i, game)| {
                // A start the record names but that cannot be read is an error: importing from
                // the start instead would blame a later move, or show another game.
                let start = match tag(&game.tags, "FEN") {
                    None => None,
                    Some(fen) => {
                        let (pos, counters) = dobutsu::Position::parse_position_with_counters(
                            fen,
                            &Default::default(),
                        )
                        .map_err(|e| format!("game {}: [FEN \"{fen}\"]: {e}", i + 1))?;
                        (pos != dobutsu::Position::start() || counters != Default::default())
                            .then(|| fen.to_string())
                    }
                };
                Ok(ImportedRecord {
                    variant: "dobutsu".to_string(),
                    start,
                    moves: game.moves.clone(),
                    tags: game.tags.clone(),
                })
            })
            .collect()
    }

    fn export_record(game: &GameState<Self>, players: [&str; 2], event: &str) -> String {
        let mut record = pgn::PgnGame::default();
        record.set_tag("Event", event);
        record.set_tag("White", players[0]);
        record.set_tag("Black", players[1]);
        record.set_tag("Result", result_of(game));
        record.set_tag("Variant", "dobutsu");
        record.set_tag("SetUp", "1");
        record.set_tag(
            "FEN",
            game.start()
                .write_position_with_counters(game.start_counters()),
        );
        record.set_tag("Repetitions", game.rules().cycle.repetitions.to_string());
        if let Some(end) = game.end() {
            record.set_tag(
                "Termination",
                format!("rules: {}", <Self as Refereed>::end_reason(&end)),
            );
        }
        record.moves = game.moves().iter().map(|m| m.to_string()).collect();
        record.comments = vec![None; record.moves.len()];
        record.second_player_starts = game.start().to_move().index() == 1;
        record.to_string()
    }
}
