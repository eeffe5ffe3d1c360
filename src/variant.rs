//! The games and rule sets the engine plays, chosen at run time (the `Variant` option, the
//! command line's `--variant`), and the way generic code is run on the chosen one.

use std::fmt;
use std::str::FromStr;

use crate::game::Notation;
use crate::{dobutsu, oware};

/// A game with its rule set: what `setoption name Variant` and `--variant` name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Oware under the Abapa tournament rules (the default).
    #[default]
    Abapa,
    /// Oware under the rules of Romein & Bal's solved Awari databases.
    Awari,
    /// Dobutsu Shogi (3x4 animal shogi), as in Tanaka's complete analysis.
    Dobutsu,
}

impl Variant {
    /// Every variant, in the order `uci` lists them.
    pub const ALL: [Variant; 3] = [Variant::Abapa, Variant::Awari, Variant::Dobutsu];
    /// Their names, as [`Variant::ALL`].
    pub const NAMES: &'static [&'static str] = &["abapa", "awari", "dobutsu"];

    /// The variant's name (`abapa`, `awari`, `dobutsu`).
    pub fn name(self) -> &'static str {
        Variant::NAMES[self as usize]
    }

    /// The variant of an Oware rule set (the inverse of [`Variant::rule_set`]).
    pub fn of_oware(variant: oware::RuleSet) -> Variant {
        match variant {
            oware::RuleSet::Abapa => Variant::Abapa,
            oware::RuleSet::Awari => Variant::Awari,
        }
    }

    /// The Oware rule set this variant names; `None` for Dobutsu.
    pub fn rule_set(self) -> Option<oware::RuleSet> {
        match self {
            Variant::Abapa => Some(oware::RuleSet::Abapa),
            Variant::Awari => Some(oware::RuleSet::Awari),
            Variant::Dobutsu => None,
        }
    }

    /// The default Oware rules of this variant (its rule set, the default cycle rule); `None`
    /// for Dobutsu.
    pub fn oware_rules(self) -> Option<oware::Rules> {
        self.rule_set().map(|variant| oware::Rules {
            variant,
            ..oware::Rules::default()
        })
    }

    /// Runs `visitor` on this variant's game type with its rules.
    pub fn visit<V: VisitGame>(self, visitor: V) -> V::Output {
        match self.oware_rules() {
            Some(rules) => visitor.visit::<oware::Board>(rules),
            None => visitor.visit::<dobutsu::Position>(dobutsu::Rules::default()),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a variant ({names})", names = Variant::NAMES.join(", "))]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    /// A name of [`Variant::NAMES`], any case.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s.trim()))
            .map(|i| Variant::ALL[i])
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// Code that is generic over the game, run on the game a [`Variant`] names
/// ([`Variant::visit`]): Rust has no generic closures, so the code is a type with a generic
/// method.
pub trait VisitGame {
    /// What the code returns.
    type Output;
    /// Runs the code on game `G` with the variant's `rules`.
    fn visit<G: Notation>(self, rules: G::Rules) -> Self::Output;
}
