//! Dobutsu Shogi behind the engine's traits ([`Game`], [`Notation`]): what the search, the
//! protocol and the referee see of it.

use crate::dobutsu::eval::{evaluate, Weights};
use crate::dobutsu::{FenError, MoveError, Player, Position};
use crate::game::{
    self, CycleRule, Game, Notation, OptionDecl, OptionKind, OptionValue, Outcome, Pruning,
    Settings, Step, TableSettings, Tables,
};

/// Dobutsu Shogi's rule set: the cycle rule only (a repetition is a draw; there is no ply limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Occurrences of one position that end the game as a draw (3 by default, as the published
    /// rules' "three times"); `no_progress_limit` is 0 (none).
    pub cycle: CycleRule,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            cycle: CycleRule {
                repetitions: 3,
                no_progress_limit: 0,
            },
        }
    }
}

impl game::Player for Player {
    const FIRST: Player = Player::Sente;
    fn index(self) -> usize {
        self as usize
    }
    fn opponent(self) -> Player {
        Player::opponent(self)
    }
}

/// splitmix64's finalizer: the exact position code spread over all 64 bits, as the
/// transposition table takes its bucket from the low bits.
#[inline]
fn spread(code: u64) -> u64 {
    let mut z = code.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Game for Position {
    type Move = crate::dobutsu::Move;
    type Player = Player;
    type Rules = Rules;
    type Weights = Weights;
    type EvalParent = crate::dobutsu::net::Parent;

    const NAME: &'static str = "dobutsu";

    /// Fitted to 16,615 searches of 1,000 self-play games at 20,000 nodes a move, with the fitted
    /// evaluation (`examples/fit_wdl.rs`, docs/wdl.md): even odds at +115 (1.15 Chicks), spread
    /// 281.
    fn wdl_model() -> game::WdlModel {
        game::WdlModel {
            mid: 115.0,
            spread: 281.0,
        }
    }

    fn start(_: &Rules) -> Position {
        Position::start()
    }
    fn cycle_rule(rules: &Rules) -> CycleRule {
        rules.cycle
    }
    fn options() -> Vec<OptionDecl<Settings<Position>>> {
        vec![
            OptionDecl::spin(
                "Repetitions",
                2,
                1000,
                |s| OptionValue::Spin(s.rules.cycle.repetitions.into()),
                |s, v| s.rules.cycle.repetitions = v.spin() as u32,
            ),
            // The trained network (`crate::dobutsu::net`); false evaluates with the linear
            // weights (the fitted ones unless other options changed them).
            OptionDecl::check(
                "EvalNetwork",
                |s| OptionValue::Check(s.weights.network),
                |s, v| s.weights.network = v.check(),
            ),
            // The baseline of evaluation matches: the piece values alone
            // (`Weights::material_only`, no network); false restores the defaults.
            OptionDecl::check(
                "MaterialOnly",
                |s| OptionValue::Check(s.weights == Weights::material_only()),
                |s, v| {
                    s.weights = if v.check() {
                        Weights::material_only()
                    } else {
                        Weights::default()
                    };
                },
            ),
            OptionDecl::spin(
                "Mobility",
                -1000,
                1000,
                |s| OptionValue::Spin(s.weights.mobility().into()),
                |s, v| s.weights.table[crate::dobutsu::eval::feature::MOBILITY] = v.spin() as i32,
            ),
            // The solution file (`perfectplay solve dobutsu`): shown as the default place's path
            // until set; an empty value (`<empty>`) loads none.
            OptionDecl {
                name: "SolutionPath",
                kind: OptionKind::Text,
                get: |s| {
                    OptionValue::Text(match &s.tables.path {
                        Some(path) => path.clone(),
                        None => crate::dobutsu::solve::file::default_path()
                            .map(|p| p.display().to_string())
                            .unwrap_or_default(),
                    })
                },
                set: |s, v| s.tables.path = Some(v.text().to_string()),
            },
        ]
    }

    /// The solution file named by `SolutionPath`, or the one in the default place
    /// ([`crate::dobutsu::solve::file::default_path`]) if there is one there.
    fn load_tables(tables: &TableSettings, _rules: &Rules) -> Result<Option<Tables<Self>>, String> {
        use crate::dobutsu::solve::file;
        let path = match &tables.path {
            Some(path) if path.is_empty() => return Ok(None),
            Some(path) => std::path::PathBuf::from(path),
            None => match file::default_path() {
                Some(path) if path.exists() => path,
                _ => return Ok(None),
            },
        };
        let solution = file::load(&path).map_err(|e| e.to_string())?;
        Ok(Some(Tables {
            description: format!(
                "the solution {} ({} positions besides those the rules decide)",
                path.display(),
                solution.len()
            ),
            outside: Some(
                "the position is not in the solution (no game from the start reaches it); \
                 playing by search"
                    .into(),
            ),
            oracle: std::sync::Arc::new(solution),
        }))
    }
    /// The complete analysis from the start ([`crate::dobutsu::solve::analyse`]), written to
    /// the default place when `SolutionPath` names none and no file is there.
    fn default_tables_build(tables: &TableSettings, _rules: &Rules) -> Option<game::TablesBuild> {
        use crate::dobutsu::solve::{self, file};
        if tables.path.is_some() {
            return None;
        }
        let path = file::default_path().filter(|p| !p.exists())?;
        let target = path.clone();
        let mut lock = path.clone().into_os_string();
        lock.push(".lock");
        let written = path.clone();
        Some(game::TablesBuild {
            path,
            lock: lock.into(),
            written: Box::new(move || written.exists()),
            description: "the Dobutsu Shogi solution (about a minute on two cores, under 300 MiB)"
                .into(),
            run: Box::new(move || {
                let (solution, figures) = solve::analyse(&Position::start(), &crate::retro::Silent);
                file::save(&solution, &figures, &target)
            }),
        })
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        Position::legal_moves(self, out)
    }
    #[inline]
    fn play(&self, mv: Self::Move) -> (Position, Step) {
        let (next, step) = Position::play(self, mv);
        (
            next,
            Step {
                irreversible: false,
                noisy: step.is_noisy(),
                reward: 0,
            },
        )
    }
    /// The end as games are played (Fairy-Stockfish's convention): a Lion captured, a Try the
    /// mover cannot answer, or a Try that survived the reply. A mover that can capture the enemy
    /// Lion has not won yet: it still has to play the capture.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.is_over() {
            Position::outcome(self)
        } else {
            None
        }
    }
    /// Tanaka's formulation: also a win, one ply away, when the mover can capture the enemy Lion.
    #[inline]
    fn proven(&self) -> Option<(Outcome, u8)> {
        let outcome = Position::outcome(self)?;
        Some((outcome, u8::from(!self.is_over())))
    }
    #[inline]
    fn in_check(&self) -> bool {
        let me = self.side_to_move();
        self.lion(me)
            .is_some_and(|lion| self.attacks(me.opponent()) >> lion.index() & 1 != 0)
    }
    fn cycle_outcome(&self) -> Outcome {
        Outcome::Draw
    }
    #[inline]
    fn evaluate(&self, weights: &Weights) -> i32 {
        if weights.network {
            crate::dobutsu::net::evaluate(self)
        } else {
            evaluate(self, weights)
        }
    }
    #[inline]
    fn eval_parent(&self, weights: &Weights) -> Option<Self::EvalParent> {
        weights.network.then(|| crate::dobutsu::net::parent(self))
    }
    #[inline]
    fn evaluate_child(&self, parent: &Self::EvalParent, weights: &Weights) -> i32 {
        if weights.network {
            crate::dobutsu::net::evaluate_child(self, parent)
        } else {
            evaluate(self, weights)
        }
    }
    #[inline]
    fn key(&self) -> u64 {
        spread(Position::key(self))
    }
    #[inline]
    fn to_move(&self) -> Player {
        self.side_to_move()
    }
    /// Measured by matches (docs/search.md).
    const PRUNING: Pruning = Pruning {
        futility_margin: 150,
        futility_depth: 3,
        late_moves: 3,
    };
    #[inline]
    fn may_be_noisy(&self, mv: Self::Move) -> bool {
        mv.promotes() || (!mv.is_drop() && self.piece_at(mv.to()).is_some())
    }
}

/// Why a Dobutsu position or move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A FEN that is not a position.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// A move that cannot be read or is not legal where it is played.
    #[error("move {index} ('{text}'): {error}")]
    Move {
        /// Its place in the list, from 1.
        index: usize,
        /// The word.
        text: String,
        /// What is wrong with it.
        error: MoveError,
    },
}

impl Notation for Position {
    type Error = NotationError;
    /// Nothing is irreversible: the cycle rule counts every ply.
    const CYCLE_COUNT: &'static str = "plies since the set-up position";

    fn parse_position(text: &str, _: &Rules) -> Result<Position, NotationError> {
        Ok(Position::from_fen(text)?)
    }

    fn write_position(&self) -> String {
        self.to_fen()
    }

    fn parse_position_with_counters(
        text: &str,
        _: &Rules,
    ) -> Result<(Position, game::MoveCounters), NotationError> {
        Ok(Position::from_fen_with_counters(text)?)
    }

    fn write_position_with_counters(&self, counters: game::MoveCounters) -> String {
        self.to_fen_with_counters(counters)
    }

    /// Moves separated by spaces (`b2b3 b3b2`), each read in the position the moves before it
    /// lead to, and so checked for legality there.
    fn parse_moves(&self, words: &[&str]) -> Result<Vec<Self::Move>, NotationError> {
        let mut pos = *self;
        let mut moves = Vec::with_capacity(words.len());
        for (i, &text) in words.iter().enumerate() {
            let mv = pos.parse_move(text).map_err(|error| NotationError::Move {
                index: i + 1,
                text: crate::game::quoted(text),
                error,
            })?;
            pos = Position::play(&pos, mv).0;
            moves.push(mv);
        }
        Ok(moves)
    }

    /// Separated by spaces, as UCI writes moves.
    fn write_moves(moves: &[Self::Move]) -> String {
        moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn diagram(&self, counters: game::MoveCounters) -> String {
        let mut d = Position::diagram_with_counters(self, counters);
        let side = match self.side_to_move() {
            Player::Sente => "Sente",
            Player::Gote => "Gote",
        };
        d.push_str(&format!("side to move {side}"));
        d
    }

    fn describe_end(end: &game::GameEnd<Position>) -> String {
        let reason = match end.reason {
            game::EndReason::Rules => {
                let p = &end.position;
                let mover = p.side_to_move();
                if p.lion(mover).is_none() {
                    "the Lion of the side to move was captured".to_string()
                } else if p.lion(mover.opponent()).is_none() {
                    "the Lion of the side not to move was captured".to_string()
                } else {
                    "a Try".to_string()
                }
            }
            other => other.to_string(),
        };
        format!("({reason})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions along games of pseudo-random moves from the start (a fixed linear congruential
    /// sequence picks the moves).
    fn walk() -> Vec<Position> {
        let mut seen = Vec::new();
        let mut state = 12345u64;
        for _ in 0..200 {
            let mut pos = Position::start();
            for _ in 0..60 {
                seen.push(pos);
                let mut moves = Vec::new();
                Game::legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = Game::play(&pos, moves[(state >> 33) as usize % moves.len()]).0;
            }
        }
        seen
    }

    #[test]
    fn the_end_is_when_no_move_is_legal_and_proven_adds_the_lion_capture() {
        let mut captures = 0;
        for pos in walk() {
            let mut moves = Vec::new();
            Game::legal_moves(&pos, &mut moves);
            assert_eq!(Game::outcome(&pos).is_some(), moves.is_empty(), "{pos:?}");
            match Game::proven(&pos) {
                Some((Outcome::Win, 1)) => {
                    // The mover can take the Lion: one of its moves ends the game, won.
                    captures += 1;
                    assert!(Game::outcome(&pos).is_none());
                    assert!(moves.iter().any(|&m| {
                        let child = Game::play(&pos, m).0;
                        Game::outcome(&child) == Some(Outcome::Loss)
                    }));
                }
                Some((o, 0)) => assert_eq!(Game::outcome(&pos), Some(o), "{pos:?}"),
                Some(other) => panic!("unexpected {other:?} in {pos:?}"),
                None => assert!(Game::outcome(&pos).is_none()),
            }
        }
        assert!(captures > 100, "only {captures} Lion captures met");
    }

    #[test]
    fn noisy_moves_are_captures_and_promotions_and_the_test_finds_them() {
        for pos in walk() {
            let mut moves = Vec::new();
            Game::legal_moves(&pos, &mut moves);
            for mv in moves {
                let (_, step) = Game::play(&pos, mv);
                assert!(!step.irreversible);
                if step.noisy {
                    assert!(pos.may_be_noisy(mv), "{pos:?} {mv}");
                }
            }
        }
    }

    /// The search's sum and the tuner's features agree: `evaluate` is the features' dot product
    /// with the weights, for the fitted and the hand-set weights.
    #[test]
    fn the_evaluation_is_the_features_weighted() {
        use crate::dobutsu::eval::features;
        for w in [
            Weights::default(),
            Weights::hand_set(),
            Weights::material_only(),
        ] {
            for pos in walk() {
                let x = features(&pos);
                let dot: i32 = x.iter().zip(&w.table).map(|(a, b)| a * b).sum();
                assert_eq!(dot, evaluate(&pos, &w), "{pos:?}");
            }
        }
    }

    /// In check: the side to move's Lion attacked (Gote's Giraffe on b3 attacks b2).
    #[test]
    fn in_check_is_the_lion_attacked() {
        assert!(!Position::start().in_check());
        let checked = Position::from_fen("l2/1g1/1L1/3[] w - - 0 1").unwrap();
        assert!(checked.in_check());
        let other = Position::from_fen("l2/1g1/1L1/3[] b - - 0 1").unwrap();
        assert!(!other.in_check());
    }

    #[test]
    fn the_evaluation_is_the_same_for_the_mirror_image() {
        let w = Weights::default();
        for pos in walk() {
            assert_eq!(evaluate(&pos, &w), evaluate(&pos.mirrored(), &w), "{pos:?}");
        }
    }
}
