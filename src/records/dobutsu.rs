//! Dobutsu Shogi's records: Sente and Gote, the rules as `Variant` and `Repetitions` (no ply
//! limit), results as `1-0`, records in PGN.

use crate::dobutsu::{Move, Position, Rules};
use crate::game::{CycleRule, Game, GameEnd, GameState, Notation};
use crate::records::game::RuleSettings;
use crate::records::game::{export_end, PlayersEnd};
use crate::records::game::{GameRecord, Recorded};
use crate::records::pgn::{self, PgnGame};
use crate::records::{tag, Checked, ImportError, ImportedRecord, ParseError, Variation};

impl Recorded for Position {
    const PLAYER_NAMES: [&'static str; 2] = ["Sente", "Gote"];
    const RECORD_EXTENSION: &'static str = "pgn";

    fn read_move(word: &str) -> Option<Move> {
        word.parse().ok()
    }

    /// `dobutsu` and `Repetitions`: Dobutsu has no ply limit, so no `NoCaptureLimit`.
    fn rule_options(rules: &Rules) -> RuleSettings {
        RuleSettings {
            variant: Some(<Position as Game>::NAME.to_string()),
            default_variant: false,
            options: vec![(
                "Repetitions".to_string(),
                rules.cycle.repetitions.to_string(),
            )],
        }
    }

    fn describe_rules(rules: &Rules) -> String {
        format!("dobutsu, repetitions {}", rules.cycle.repetitions)
    }

    /// The repetition count only: Dobutsu has no ply limit.
    fn set_cycle(rules: &mut Rules, cycle: CycleRule) {
        rules.cycle.repetitions = cycle.repetitions;
    }

    /// [`Notation::describe_end`] without its parentheses.
    fn end_reason(end: &GameEnd<Position>) -> String {
        let text = Position::describe_end(end);
        text.trim_start_matches('(')
            .trim_end_matches(')')
            .to_string()
    }

    /// `1-0`, `0-1`, `1/2-1/2`.
    fn result_text(end: &GameEnd<Position>) -> String {
        end.result_string().to_string()
    }

    fn write_record(
        record: &GameRecord<Position>,
        event: &str,
        date: &str,
        rules: &Rules,
    ) -> String {
        let mut game = PgnGame::from_record(record, event, date);
        game.set_tag("Repetitions", rules.cycle.repetitions.to_string());
        game.to_string()
    }

    fn replay_records(text: &str, rules: &Rules) -> Result<Vec<Checked>, ParseError> {
        let games = pgn::parse(text)?;
        Ok(games
            .iter()
            .map(|game| {
                let replayed = pgn::record_rules::<Position>(game, rules)
                    .and_then(|rules| pgn::replay::<Position>(game, &rules));
                Checked::new(game, replayed)
            })
            .collect())
    }

    fn export_record(
        game: &GameState<Position>,
        players: [&str; 2],
        event: &str,
        ended: Option<&PlayersEnd>,
        variations: &[Variation],
    ) -> String {
        let (result, termination) = export_end(game, ended);
        let mut record = PgnGame::default();
        record.set_tag("Event", event);
        record.set_tag("White", players[0]);
        record.set_tag("Black", players[1]);
        record.set_tag("Result", &result);
        record.set_tag("Variant", "dobutsu");
        record.set_tag("SetUp", "1");
        record.set_tag(
            "FEN",
            game.start()
                .write_position_with_counters(game.start_counters()),
        );
        record.set_tag("Repetitions", game.rules().cycle.repetitions.to_string());
        if let Some(termination) = termination {
            record.set_tag("Termination", termination);
        }
        record.moves = game.moves().iter().map(|m| m.to_string()).collect();
        record.comments = vec![None; record.moves.len()];
        record.second_player_starts = game.start().to_move().index() == 1;
        record.variations = variations.to_vec();
        record.to_string()
    }

    /// A start the record names but that cannot be read is an error: importing from the start
    /// instead would blame a later move, or show another game.
    fn import_records(text: &str) -> Result<Vec<ImportedRecord>, ImportError> {
        let games = pgn::parse(text)?;
        games
            .into_iter()
            .enumerate()
            .map(|(i, game)| {
                let start = match tag(&game.tags, "FEN") {
                    None => None,
                    Some(fen) => {
                        let (pos, counters) =
                            Position::parse_position_with_counters(fen, &Rules::default())
                                .map_err(|e| ImportError::Start {
                                    game: i + 1,
                                    text: fen.to_string(),
                                    reason: e.to_string(),
                                })?;
                        (pos != Position::start() || counters != Default::default())
                            .then(|| fen.to_string())
                    }
                };
                Ok(ImportedRecord {
                    variant: Position::NAME.to_string(),
                    start,
                    moves: game.moves,
                    variations: game.variations,
                    tags: game.tags,
                })
            })
            .collect()
    }
}
