//! Oware in the match runner: South and North, the options `Repetitions` and `NoCaptureLimit`,
//! results as final seed counts, records in OGN.

use crate::arena::client::RuleSettings;
use crate::arena::games::{GameRecord, Refereed};
use crate::arena::record::ogn::{self, OgnGame};
use crate::arena::record::{Checked, ParseError};
use crate::game::GameEnd;
use crate::oware::{Board, Move, RuleSet, Rules};

impl Refereed for Board {
    const PLAYER_NAMES: [&'static str; 2] = ["South", "North"];
    const RECORD_EXTENSION: &'static str = "ogn";

    fn read_move(word: &str) -> Option<Move> {
        word.parse().ok()
    }

    /// The default variant is Abapa's: an engine told no variant plays Oware by its rules.
    fn rule_options(rules: &Rules) -> RuleSettings {
        RuleSettings {
            variant: Some(rules.variant.to_string()),
            default_variant: rules.variant == RuleSet::default(),
            options: vec![
                (
                    "Repetitions".to_string(),
                    rules.cycle.repetitions.to_string(),
                ),
                (
                    "NoCaptureLimit".to_string(),
                    rules.cycle.no_progress_limit.to_string(),
                ),
            ],
        }
    }

    fn describe_rules(rules: &Rules) -> String {
        format!(
            "{}, repetitions {}, no-capture limit {}",
            rules.variant, rules.cycle.repetitions, rules.cycle.no_progress_limit
        )
    }

    fn set_repetitions(rules: &mut Rules, repetitions: u32) {
        rules.cycle.repetitions = repetitions;
    }

    fn end_reason(end: &GameEnd<Board>) -> String {
        end.oware_reason().to_string()
    }

    /// The final seed counts, South first (`25-19`), as Aualé writes results.
    fn result_text(end: &GameEnd<Board>) -> String {
        ogn::seed_result(end)
    }

    fn write_record(record: &GameRecord<Board>, event: &str, date: &str, rules: &Rules) -> String {
        OgnGame::from_record(record, event, date, *rules).to_string()
    }

    fn replay_records(text: &str, rules: &Rules) -> Result<Vec<Checked>, ParseError> {
        let games = ogn::parse(text)?;
        Ok(games
            .iter()
            .map(|game| Checked::new(game, ogn::replay(game, *rules)))
            .collect())
    }
}
