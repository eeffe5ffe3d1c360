//! Oware's records: South and North, the rules as `Variant`, `Repetitions` and
//! `NoCaptureLimit`, results as final seed counts, records in OGN.

use crate::game::{CycleRule, GameEnd, GameState};
use crate::oware::{Board, Move, RuleSet, Rules};
use crate::records::game::RuleSettings;
use crate::records::game::{export_end, PlayersEnd};
use crate::records::game::{GameRecord, Recorded};
use crate::records::ogn::{self, OgnGame};
use crate::records::{Checked, ImportError, ImportedRecord, ParseError, Variation};

impl Recorded for Board {
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

    fn set_cycle(rules: &mut Rules, cycle: CycleRule) {
        rules.cycle = cycle;
    }

    fn end_reason(end: &GameEnd<Board>) -> String {
        end.oware_reason().to_string()
    }

    /// The final seed counts, South first (`25-19`), as Aualé writes results.
    fn result_text(end: &GameEnd<Board>) -> String {
        ogn::seed_result(end)
    }

    fn final_margin(&self) -> Option<i32> {
        let stores = self.final_stores()?;
        let me = self.side_to_move().index();
        Some(i32::from(stores[me]) - i32::from(stores[1 - me]))
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

    fn export_record(
        game: &GameState<Board>,
        players: [&str; 2],
        event: &str,
        ended: Option<&PlayersEnd>,
        variations: &[Variation],
    ) -> String {
        let (result, termination) = export_end(game, ended);
        let mut record = OgnGame::default();
        let variant = game.start().variant();
        record.set_tag(
            "Variant",
            match variant {
                RuleSet::Abapa => "Oware Abapa",
                RuleSet::Awari => "Oware Awari",
            },
        );
        record.set_tag("Event", event);
        record.set_tag("South", players[0]);
        record.set_tag("North", players[1]);
        record.set_tag("Result", &result);
        if *game.start() != Board::start(variant) {
            record.set_tag("FEN", game.start().to_string());
        }
        let cycle = game.rules().cycle;
        record.set_tag("Repetitions", cycle.repetitions.to_string());
        record.set_tag("NoCaptureLimit", cycle.no_progress_limit.to_string());
        if let Some(termination) = termination {
            record.set_tag("Termination", termination);
        }
        for &mv in game.moves() {
            record.push_move(mv, None);
        }
        record.variations = variations.to_vec();
        record.to_string()
    }

    fn import_records(text: &str) -> Result<Vec<ImportedRecord>, ImportError> {
        let games = ogn::parse(text)?;
        games
            .iter()
            .enumerate()
            .map(|(i, game)| {
                let rules = game
                    .rules(Rules::default())
                    .map_err(|source| ImportError::Rules {
                        game: i + 1,
                        source,
                    })?;
                let start = game.start(rules.variant).map_err(|e| ImportError::Start {
                    game: i + 1,
                    text: game.tag("FEN").unwrap_or_default().to_string(),
                    reason: e.to_string(),
                })?;
                Ok(ImportedRecord {
                    variant: rules.variant.to_string(),
                    start: (start != Board::start(rules.variant)).then(|| start.to_string()),
                    moves: game.moves.iter().map(|m| m.to_string()).collect(),
                    variations: game.variations.clone(),
                    tags: game.tags.clone(),
                })
            })
            .collect()
    }
}
