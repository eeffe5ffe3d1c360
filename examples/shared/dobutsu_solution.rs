//! What the Dobutsu examples that read the solution share (`review_games`, `grade_search`,
//! `tune_dobutsu`, `train_dobutsu_net`): loading it, a game's start, and the value a move keeps.

use std::path::Path;

use anyhow::Context;
use perfectplay::dobutsu::solve::{file, Solution};
use perfectplay::dobutsu::Position;
use perfectplay::game::Outcome;
use perfectplay::records::pgn::PgnGame;

/// The solution at `path`, else at the engine's default place; the error names the file.
pub fn load(path: Option<&Path>) -> anyhow::Result<Solution> {
    let path = match path {
        Some(path) => path.to_path_buf(),
        None => file::default_path().context("no default place for the solution")?,
    };
    file::load(&path).with_context(|| format!("loading the solution {}", path.display()))
}

/// An outcome's order for the mover: a loss 0, a draw 1, a win 2 (a move loses value when the
/// outcome after it ranks lower than before).
#[allow(dead_code)]
pub fn rank(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Loss => 0,
        Outcome::Draw => 1,
        Outcome::Win => 2,
    }
}

/// The value for the mover of the move to `child`, by the solution (`None` where it does not
/// know `child`).
#[allow(dead_code)]
pub fn after(solution: &Solution, child: &Position) -> Option<Outcome> {
    solution.probe(child).map(|v| v.before_move().outcome)
}

/// The start of game `game` (number `g` from 0, for the error): its `FEN` tag, else the start.
#[allow(dead_code)]
pub fn start(game: &PgnGame, g: usize) -> anyhow::Result<Position> {
    match game.tag("FEN") {
        Some(fen) => Position::from_fen(fen).with_context(|| format!("game {}", g + 1)),
        None => Ok(Position::start()),
    }
}
