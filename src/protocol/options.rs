//! The engine's options (`setoption`), their declarations (`uci`) and validation.

use crate::game::CycleRule;
use crate::oware::{Rules, Variant, Weights};
use crate::search::{Level, DEFAULT_HASH_MB, MAX_HASH_MB};

/// Why a `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option of that name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The value is not acceptable for the option.
    #[error("option {name}: '{value}' is not {expected}")]
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it accepts.
        expected: String,
    },
    /// A command-line preset not of the form `NAME=VALUE`.
    #[error("'{0}' is not NAME=VALUE")]
    PresetSyntax(String),
}

/// The settings the GUI can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `Level`, 1-6 (6 is full strength).
    pub level: Level,
    /// `Seed`: any text; the source of tie-breaks and level choices.
    pub seed: String,
    /// `Variant`, `Repetitions`, `NoCaptureLimit`.
    pub rules: Rules,
    /// `WeightCapture`, `WeightSeeds`, `WeightSmall`, `WeightLarge`.
    pub weights: Weights,
    /// `Hash`, transposition table size in MiB.
    pub hash_mb: usize,
    /// `ScoreMateAsCp`: report proven results as large `score cp` values (see
    /// [`crate::protocol::score_text`]) instead of `score mate N`, for GUIs that read only `cp`.
    pub score_mate_as_cp: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            level: Level::default(),
            seed: "perfectplay".to_string(),
            rules: Rules::default(),
            weights: Weights::default(),
            hash_mb: DEFAULT_HASH_MB,
            score_mate_as_cp: false,
        }
    }
}

const WEIGHT_RANGE: i64 = 100_000;

impl EngineOptions {
    /// The `option name ... type ...` lines answering `uci`, each option's `default` being its
    /// current value (the defaults, or the presets given on the command line). Names are single
    /// words (the Aualé GUI's parser splits on spaces).
    pub fn declarations(&self) -> Vec<String> {
        let d = self;
        let w = d.weights;
        vec![
            format!("option name Level type spin default {} min {} max {}", d.level.number(), Level::MIN, Level::FULL),
            format!("option name Seed type string default {}", d.seed),
            "option name Variant type combo default abapa var abapa var awari".to_string(),
            format!("option name Repetitions type spin default {} min 2 max 1000", d.rules.cycle.repetitions),
            format!("option name NoCaptureLimit type spin default {} min 0 max 100000", d.rules.cycle.no_progress_limit),
            format!("option name Hash type spin default {} min 1 max {MAX_HASH_MB}", d.hash_mb),
            "option name Ponder type check default false".to_string(),
            "option name OwnBook type check default false".to_string(),
            format!("option name ScoreMateAsCp type check default {}", d.score_mate_as_cp),
            format!("option name WeightCapture type spin default {} min -{WEIGHT_RANGE} max {WEIGHT_RANGE}", w.capture),
            format!("option name WeightSeeds type spin default {} min -{WEIGHT_RANGE} max {WEIGHT_RANGE}", w.row_seeds),
            format!("option name WeightSmall type spin default {} min -{WEIGHT_RANGE} max {WEIGHT_RANGE}", w.small_house),
            format!("option name WeightLarge type spin default {} min -{WEIGHT_RANGE} max {WEIGHT_RANGE}", w.big_house),
        ]
    }

    /// Sets one option by name (case-insensitive, as UCI names are).
    ///
    /// # Errors
    /// [`OptionError`] for an unknown name or a value out of range; `self` is unchanged then.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "level" => {
                self.level =
                    Level::new(spin("Level", value, Level::MIN as i64, Level::FULL as i64)? as u8)
            }
            "seed" => self.seed = value.to_string(),
            "variant" => {
                self.rules.variant =
                    value
                        .parse::<Variant>()
                        .map_err(|_| OptionError::BadValue {
                            name: "Variant",
                            value: quoted(value),
                            expected: "abapa or awari".into(),
                        })?
            }
            "repetitions" => {
                self.rules.cycle.repetitions = spin("Repetitions", value, 2, 1000)? as u32
            }
            "nocapturelimit" => {
                self.rules.cycle.no_progress_limit =
                    spin("NoCaptureLimit", value, 0, 100_000)? as u32
            }
            "hash" => self.hash_mb = spin("Hash", value, 1, MAX_HASH_MB as i64)? as usize,
            "ponder" => {
                check("Ponder", value)?;
            }
            // There is no opening book: accepted (the Aualé GUI sends it), no effect.
            "ownbook" => {
                check("OwnBook", value)?;
            }
            "scoremateascp" => self.score_mate_as_cp = check("ScoreMateAsCp", value)?,
            "weightcapture" => self.weights.capture = weight("WeightCapture", value)?,
            "weightseeds" => self.weights.row_seeds = weight("WeightSeeds", value)?,
            "weightsmall" => self.weights.small_house = weight("WeightSmall", value)?,
            "weightlarge" => self.weights.big_house = weight("WeightLarge", value)?,
            _ => return Err(OptionError::Unknown(quoted(name))),
        }
        Ok(())
    }

    /// Sets one option from a command-line preset `NAME=VALUE` (as `setoption name NAME value
    /// VALUE` would).
    ///
    /// # Errors
    /// [`OptionError::PresetSyntax`] without `=`, else as [`EngineOptions::set`].
    pub fn set_preset(&mut self, preset: &str) -> Result<(), OptionError> {
        let Some((name, value)) = preset.split_once('=') else {
            return Err(OptionError::PresetSyntax(quoted(preset)));
        };
        if name.trim().is_empty() {
            return Err(OptionError::PresetSyntax(quoted(preset)));
        }
        self.set(name, value)
    }

    /// The cycle rule in force.
    pub fn cycle(&self) -> CycleRule {
        self.rules.cycle
    }
}

/// The longest name or value an [`OptionError`] quotes, in characters.
pub const MAX_QUOTED_CHARS: usize = 60;

/// `text` as an error quotes it: cut after [`MAX_QUOTED_CHARS`] characters (marked `...`), so that
/// a huge name or value gives a short message wherever it is shown.
fn quoted(text: &str) -> String {
    let mut out: String = text.chars().take(MAX_QUOTED_CHARS).collect();
    if text.chars().nth(MAX_QUOTED_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

fn spin(name: &'static str, value: &str, min: i64, max: i64) -> Result<i64, OptionError> {
    match value.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(OptionError::BadValue {
            name,
            value: quoted(value),
            expected: format!("a whole number from {min} to {max}"),
        }),
    }
}

/// A `check` option's value: `true` or `false`, any case.
fn check(name: &'static str, value: &str) -> Result<bool, OptionError> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::BadValue {
            name,
            value: quoted(value),
            expected: "true or false".into(),
        }),
    }
}

fn weight(name: &'static str, value: &str) -> Result<i32, OptionError> {
    spin(name, value, -WEIGHT_RANGE, WEIGHT_RANGE).map(|v| v as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_quote_long_names_and_values_cut() {
        let mut options = EngineOptions::default();
        let huge = "x".repeat(1 << 20);
        let unknown = options.set(&huge, "1").unwrap_err().to_string();
        assert_eq!(
            unknown,
            format!("unknown option '{}...'", "x".repeat(MAX_QUOTED_CHARS))
        );
        for name in ["Level", "Variant", "Ponder", "WeightCapture"] {
            let message = options.set(name, &huge).unwrap_err().to_string();
            assert!(message.len() < 200, "{name}: {} bytes", message.len());
            assert!(message.contains(&format!("'{}...'", "x".repeat(MAX_QUOTED_CHARS))));
        }
        // Short ones are quoted whole.
        assert_eq!(
            options.set("Nope", "1").unwrap_err().to_string(),
            "unknown option 'Nope'"
        );
        assert_eq!(options, EngineOptions::default(), "nothing changed");
    }

    #[test]
    fn presets_are_name_equals_value() {
        let mut options = EngineOptions::default();
        options.set_preset("ScoreMateAsCp=true").unwrap();
        options.set_preset("repetitions=2").unwrap();
        options.set_preset("Seed=a=b").unwrap();
        assert!(options.score_mate_as_cp);
        assert_eq!(options.rules.cycle.repetitions, 2);
        assert_eq!(options.seed, "a=b");
        assert!(options
            .declarations()
            .contains(&"option name Repetitions type spin default 2 min 2 max 1000".to_string()));
        for bad in ["Level", "=3", "Level=9", "Nope=1", "OwnBook=maybe"] {
            assert!(options.clone().set_preset(bad).is_err(), "{bad}");
        }
        assert_eq!(
            options.set_preset("Level").unwrap_err().to_string(),
            "'Level' is not NAME=VALUE"
        );
        options.set_preset("OwnBook=true").unwrap();
        options.set_preset("OwnBook=FALSE").unwrap();
    }
}
