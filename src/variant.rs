//! The games and rule sets the engine plays, chosen at run time (the `Variant` option, the
//! command line's `--variant`), and the one way generic code is run on the chosen one
//! ([`Variant::visit`] with a [`VisitGame`]), for every front end: the protocol session, the
//! match runner, the web board, `perft` and `bench`.

use std::fmt;
use std::str::FromStr;

use crate::records::Recorded;
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

    /// Runs `visitor` on this variant's game type with its rules (the default cycle rule).
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
    fn visit<G: VariantGame>(self, rules: G::Rules) -> Self::Output;
}

/// A game a [`Variant`] names: its notation and records ([`Recorded`]), which variant its
/// rules are, and its positions as a [`GamePosition`] for what shows them whatever the game.
pub trait VariantGame: Recorded {
    /// The variant `rules` play.
    fn variant_of(rules: &Self::Rules) -> Variant;

    /// The rules of `variant` (its default cycle rule) if it is a variant of this game (Oware:
    /// abapa or awari).
    fn rules_of(variant: Variant) -> Option<Self::Rules>;

    /// The position, as one of the games' positions.
    fn as_position(&self) -> GamePosition<'_>;
}

/// A position of one of the games, for code that shows a board whatever the game.
#[derive(Clone, Copy, Debug)]
pub enum GamePosition<'a> {
    /// An Oware board.
    Oware(&'a oware::Board),
    /// A Dobutsu Shogi position.
    Dobutsu(&'a dobutsu::Position),
}

impl VariantGame for oware::Board {
    fn variant_of(rules: &oware::Rules) -> Variant {
        Variant::of_oware(rules.variant)
    }

    fn rules_of(variant: Variant) -> Option<oware::Rules> {
        variant.oware_rules()
    }

    fn as_position(&self) -> GamePosition<'_> {
        GamePosition::Oware(self)
    }
}

impl VariantGame for dobutsu::Position {
    fn variant_of(_: &dobutsu::Rules) -> Variant {
        Variant::Dobutsu
    }

    fn rules_of(variant: Variant) -> Option<dobutsu::Rules> {
        (variant == Variant::Dobutsu).then(dobutsu::Rules::default)
    }

    fn as_position(&self) -> GamePosition<'_> {
        GamePosition::Dobutsu(self)
    }
}
