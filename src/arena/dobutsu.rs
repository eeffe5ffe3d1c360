//! Dobutsu Shogi in the match runner: Sente and Gote, the option `Repetitions` (no ply limit),
//! results as `1-0`, records in PGN.

use crate::arena::client::RuleSettings;
use crate::arena::games::{GameRecord, Refereed};
use crate::arena::record::pgn::{self, PgnGame};
use crate::arena::record::{Checked, ParseError};
use crate::dobutsu::{Move, Position, Rules};
use crate::game::{Game, GameEnd, Notation};

impl Refereed for Position {
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

    fn set_repetitions(rules: &mut Rules, repetitions: u32) {
        rules.cycle.repetitions = repetitions;
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
}
