//! What the match runner needs of a game beyond [`Notation`]: how its players are named, which
//! engine options carry its rules, how a result is written, and its record format (OGN for Oware,
//! PGN for Dobutsu Shogi).

use crate::arena::engine::RuleSettings;
use crate::arena::pgn;
use crate::arena::runner::GameRecord;
use crate::game::{GameEnd, Notation};
use crate::{dobutsu, oware};

/// A game the match runner can referee and record.
pub trait Refereed: Notation {
    /// The players' names in records, summaries and fault messages, the first player's first
    /// (`South`, `North`; `Sente`, `Gote`).
    const PLAYER_NAMES: [&'static str; 2];
    /// The extension of the record files (`ogn`, `pgn`).
    const RECORD_EXTENSION: &'static str;

    /// Reads the move word of a `bestmove` line (its syntax only; the referee judges legality).
    fn read_move(word: &str) -> Option<Self::Move>;

    /// What tells an engine the rules: the variant's name (for `UCI_Variant` or `Variant`) and
    /// the cycle rule's `setoption` settings (each sent if the engine lists it).
    fn rule_options(rules: &Self::Rules) -> RuleSettings;

    /// The rules in a few words for the start line and the summary (`abapa, repetitions 3,
    /// no-capture limit 500`).
    fn describe_rules(rules: &Self::Rules) -> String;

    /// Sets the cycle rule's repetition count of `rules` (a record's `Repetitions` tag).
    fn set_repetitions(rules: &mut Self::Rules, repetitions: u32);

    /// Why the rules ended a game, in words, for the `Termination` tag (Oware: `South captured
    /// more than half the seeds`-like reasons; Dobutsu: `the Lion of the side to move was
    /// captured`, `a Try`); the cycle rule's ends as [`crate::game::EndReason`] says them.
    fn end_reason(end: &GameEnd<Self>) -> String;

    /// The result of a game the rules ended, as its records write it.
    fn result_text(end: &GameEnd<Self>) -> String;

    /// The whole record of a finished game in the game's format (ending in a blank line, so that
    /// records can follow one another in a file).
    fn write_record(
        record: &GameRecord<Self>,
        event: &str,
        date: &str,
        rules: &Self::Rules,
    ) -> String;
}

impl Refereed for oware::Board {
    const PLAYER_NAMES: [&'static str; 2] = ["South", "North"];
    const RECORD_EXTENSION: &'static str = "ogn";

    fn read_move(word: &str) -> Option<oware::Move> {
        word.parse().ok()
    }

    /// The default variant is Abapa's: an engine told no variant plays Oware by its rules.
    fn rule_options(rules: &oware::Rules) -> RuleSettings {
        RuleSettings {
            variant: Some(rules.variant.to_string()),
            default_variant: rules.variant == oware::Variant::default(),
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

    fn describe_rules(rules: &oware::Rules) -> String {
        format!(
            "{}, repetitions {}, no-capture limit {}",
            rules.variant, rules.cycle.repetitions, rules.cycle.no_progress_limit
        )
    }

    fn set_repetitions(rules: &mut oware::Rules, repetitions: u32) {
        rules.cycle.repetitions = repetitions;
    }

    fn end_reason(end: &GameEnd<oware::Board>) -> String {
        end.oware_reason().to_string()
    }

    /// The final seed counts, South first (`25-19`), as Aualé writes results.
    fn result_text(end: &GameEnd<oware::Board>) -> String {
        crate::arena::ogn::seed_result(end)
    }

    fn write_record(
        record: &GameRecord<oware::Board>,
        event: &str,
        date: &str,
        rules: &oware::Rules,
    ) -> String {
        record.to_ogn(event, date, *rules).to_string()
    }
}

impl Refereed for dobutsu::Position {
    const PLAYER_NAMES: [&'static str; 2] = ["Sente", "Gote"];
    const RECORD_EXTENSION: &'static str = "pgn";

    fn read_move(word: &str) -> Option<dobutsu::Move> {
        word.parse().ok()
    }

    /// `dobutsu` and `Repetitions`: Dobutsu has no ply limit, so no `NoCaptureLimit`.
    fn rule_options(rules: &dobutsu::Rules) -> RuleSettings {
        RuleSettings {
            variant: Some(<Self as crate::game::Game>::NAME.to_string()),
            default_variant: false,
            options: vec![(
                "Repetitions".to_string(),
                rules.cycle.repetitions.to_string(),
            )],
        }
    }

    fn describe_rules(rules: &dobutsu::Rules) -> String {
        format!("dobutsu, repetitions {}", rules.cycle.repetitions)
    }

    fn set_repetitions(rules: &mut dobutsu::Rules, repetitions: u32) {
        rules.cycle.repetitions = repetitions;
    }

    /// [`Notation::describe_end`] without its parentheses.
    fn end_reason(end: &GameEnd<dobutsu::Position>) -> String {
        let text = dobutsu::Position::describe_end(end);
        text.trim_start_matches('(')
            .trim_end_matches(')')
            .to_string()
    }

    /// `1-0`, `0-1`, `1/2-1/2`.
    fn result_text(end: &GameEnd<dobutsu::Position>) -> String {
        end.result_string().to_string()
    }

    fn write_record(
        record: &GameRecord<dobutsu::Position>,
        event: &str,
        date: &str,
        rules: &dobutsu::Rules,
    ) -> String {
        let mut game = pgn::PgnGame::from_record(record, event, date);
        game.set_tag("Repetitions", rules.cycle.repetitions.to_string());
        game.to_string()
    }
}
