//! Options declared once: each option's name, type, range, default and setter together, so the
//! `uci` listing, the validation of `setoption` and the setting itself come from one place.

/// An option's type and range, as UCI declares it. The `default` a declaration shows is the
/// option's current value ([`OptionDecl::get`]): the built-in default, or a preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check`: `true` or `false`.
    Check,
    /// `type spin`: a whole number from `min` to `max`.
    Spin {
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// `type combo`: one of `choices` (matched without regard to case).
    Combo {
        /// Every choice, as listed with `var`.
        choices: &'static [&'static str],
    },
    /// `type string`: any text.
    Text,
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

impl std::fmt::Display for OptionValue {
    /// As a declaration's `default` shows it: `true`/`false`, the number, the choice, the text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Check(b) => write!(f, "{b}"),
            OptionValue::Spin(v) => write!(f, "{v}"),
            OptionValue::Combo(c) => f.write_str(c),
            OptionValue::Text(t) => f.write_str(t),
        }
    }
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

/// One option: its name, type, and how to read and set it in the settings `S`.
pub struct OptionDecl<S> {
    /// The option's name: one word (the Aualé GUI's parser splits on spaces), matched without
    /// regard to case.
    pub name: &'static str,
    /// Type and range.
    pub kind: OptionKind,
    /// The current value, as a declaration shows it.
    pub get: fn(&S) -> OptionValue,
    /// Applies a value that [`OptionDecl::parse`] accepted.
    pub set: fn(&mut S, &OptionValue),
}

impl<S> Clone for OptionDecl<S> {
    fn clone(&self) -> Self {
        OptionDecl {
            name: self.name,
            kind: self.kind.clone(),
            get: self.get,
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
    pub fn check(
        name: &'static str,
        get: fn(&S) -> OptionValue,
        set: fn(&mut S, &OptionValue),
    ) -> Self {
        OptionDecl {
            name,
            kind: OptionKind::Check,
            get,
            set,
        }
    }

    /// A spin option from `min` to `max`.
    pub fn spin(
        name: &'static str,
        min: i64,
        max: i64,
        get: fn(&S) -> OptionValue,
        set: fn(&mut S, &OptionValue),
    ) -> Self {
        OptionDecl {
            name,
            kind: OptionKind::Spin { min, max },
            get,
            set,
        }
    }

    /// The line answering `uci` for settings `current`: `option name NAME type ... default V`
    /// with V the current value.
    pub fn declaration(&self, current: &S) -> String {
        let name = self.name;
        let default = (self.get)(current);
        match &self.kind {
            OptionKind::Check => format!("option name {name} type check default {default}"),
            OptionKind::Spin { min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { choices } => {
                let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            // UCI's way to show an empty text (Stockfish: `SyzygyPath`).
            OptionKind::Text if default.text().is_empty() => {
                format!("option name {name} type string default {EMPTY}")
            }
            OptionKind::Text => format!("option name {name} type string default {default}"),
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
            OptionKind::Check => match value.to_ascii_lowercase().as_str() {
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
            // A control character would reach the `uci` listing as it is (a line feed there
            // would forge a protocol line).
            OptionKind::Text if value.chars().any(char::is_control) => {
                Err(bad("text without control characters".into()))
            }
            OptionKind::Text if value == EMPTY => Ok(OptionValue::Text(String::new())),
            OptionKind::Text => Ok(OptionValue::Text(value.to_string())),
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

/// How a declaration shows an empty text, and a `setoption` value that means one (the UCI
/// convention).
pub const EMPTY: &str = "<empty>";

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
