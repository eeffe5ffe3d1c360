//! Options declared once: each option's name, type, range, default and setter together, so the
//! `uci` listing, the validation of `setoption` and the setting itself come from one place.

/// An option's type, with its default and range, as UCI declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check`: `true` or `false`.
    Check {
        /// The default value.
        default: bool,
    },
    /// `type spin`: a whole number from `min` to `max`.
    Spin {
        /// The default value.
        default: i64,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// `type combo`: one of `choices` (matched without regard to case).
    Combo {
        /// The default choice.
        default: &'static str,
        /// Every choice, as listed with `var`.
        choices: &'static [&'static str],
    },
    /// `type string`: any text.
    Text {
        /// The default text.
        default: &'static str,
    },
}

/// A value read for an option, checked against its [`OptionKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A check option's value.
    Check(bool),
    /// A spin option's value, inside its range.
    Spin(i64),
    /// A combo option's choice, as declared (not as typed).
    Combo(&'static str),
    /// A string option's text, trimmed.
    Text(String),
}

impl OptionValue {
    /// The value of a check option (false for other kinds).
    pub fn check(&self) -> bool {
        matches!(self, OptionValue::Check(true))
    }
    /// The value of a spin option (0 for other kinds).
    pub fn spin(&self) -> i64 {
        match self {
            OptionValue::Spin(v) => *v,
            _ => 0,
        }
    }
    /// The choice of a combo option, or the text of a string option ("" for other kinds).
    pub fn text(&self) -> &str {
        match self {
            OptionValue::Combo(c) => c,
            OptionValue::Text(t) => t,
            _ => "",
        }
    }
}

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
}

/// One option: its name, type and the setter that applies a checked value to the settings `S`.
pub struct OptionDecl<S> {
    /// The option's name: one word (the Aualé GUI's parser splits on spaces), matched without
    /// regard to case.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// Applies a value that [`OptionDecl::parse`] accepted.
    pub set: fn(&mut S, &OptionValue),
}

impl<S> Clone for OptionDecl<S> {
    fn clone(&self) -> Self {
        OptionDecl {
            name: self.name,
            kind: self.kind.clone(),
            set: self.set,
        }
    }
}

impl<S> std::fmt::Debug for OptionDecl<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OptionDecl")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish()
    }
}

impl<S> OptionDecl<S> {
    /// A check option.
    pub fn check(name: &'static str, default: bool, set: fn(&mut S, &OptionValue)) -> Self {
        OptionDecl {
            name,
            kind: OptionKind::Check { default },
            set,
        }
    }

    /// A spin option (`min <= default <= max`).
    pub fn spin(
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
        set: fn(&mut S, &OptionValue),
    ) -> Self {
        debug_assert!(
            min <= default && default <= max,
            "{name}: default out of range"
        );
        OptionDecl {
            name,
            kind: OptionKind::Spin { default, min, max },
            set,
        }
    }

    /// The line answering `uci`: `option name NAME type ...`.
    pub fn declaration(&self) -> String {
        let name = self.name;
        match &self.kind {
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, choices } => {
                let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionKind::Text { default } => {
                format!("option name {name} type string default {default}")
            }
        }
    }

    /// Checks `value` against the option's type and range.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] saying what the option accepts.
    pub fn parse(&self, value: &str) -> Result<OptionValue, OptionError> {
        let value = value.trim();
        let bad = |expected: String| OptionError::BadValue {
            name: self.name,
            value: quoted(value),
            expected,
        };
        match &self.kind {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(bad("true or false".into())),
            },
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) && is_plain_integer(value) => {
                    Ok(OptionValue::Spin(v))
                }
                _ => Err(bad(format!("a whole number from {min} to {max}"))),
            },
            OptionKind::Combo { choices, .. } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(value))
                .map(|c| OptionValue::Combo(c))
                .ok_or_else(|| bad(choices.join(" or "))),
            OptionKind::Text { .. } => Ok(OptionValue::Text(value.to_string())),
        }
    }

    /// Checks `value` and applies it to `settings`, which is unchanged on error.
    ///
    /// # Errors
    /// As [`OptionDecl::parse`].
    pub fn apply(&self, settings: &mut S, value: &str) -> Result<(), OptionError> {
        let value = self.parse(value)?;
        (self.set)(settings, &value);
        Ok(())
    }
}

/// The longest name or value an [`OptionError`] quotes, in characters.
pub const MAX_QUOTED_CHARS: usize = 60;

/// `text` as an error quotes it: cut after [`MAX_QUOTED_CHARS`] characters (marked `...`), so that
/// a huge name or value gives a short message wherever it is shown.
pub fn quoted(text: &str) -> String {
    let mut out: String = text.chars().take(MAX_QUOTED_CHARS).collect();
    if text.chars().nth(MAX_QUOTED_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// Digits with an optional leading `-`: no `+`, no blanks.
fn is_plain_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The declaration named `name` (without regard to case).
pub fn find_option<'a, S>(decls: &'a [OptionDecl<S>], name: &str) -> Option<&'a OptionDecl<S>> {
    let name = name.trim();
    decls.iter().find(|d| d.name.eq_ignore_ascii_case(name))
}
