//! The UCI-style text protocol (documented in `protocol.md`): command parsing, options, the
//! session loop, and formatting of `info` lines and the board, for every game the engine plays.

mod command;
mod engine;
mod options;
mod session;

pub use command::{Command, CommandError};
pub use options::{canonical_name, engine_options, EngineSettings};
pub use session::{run, run_with_presets};

use std::fmt::Write as _;

use crate::game::{GameState, Notation};
use crate::search::{Iteration, Score, SearchResult};

/// What reaches the session thread.
pub(crate) enum Event {
    /// An input line.
    Line(String),
    /// The end of input.
    EndOfInput,
    /// An `info` line of the running search.
    Info(String),
    /// The running search's `bestmove` line.
    Done(String),
}

/// The `cp` value a proven win is sent as under `ScoreMateAsCp`, less one per move to the end (a
/// proven loss is its negative): 25 seeds and more, a won Oware game, as Aalina sends it.
pub const MATE_AS_CP: i32 = 3000;

/// A score as `info` lines write it: `cp S` or `mate N`, or under `ScoreMateAsCp` a proven result
/// as `cp ±(MATE_AS_CP - N)` for a result N moves away.
pub fn format_score(score: Score, mate_as_cp: bool) -> String {
    match score {
        Score::Mate(n) if mate_as_cp => {
            let cp = MATE_AS_CP - n.abs().min(MATE_AS_CP / 2);
            format!("cp {}", if n > 0 { cp } else { -cp })
        }
        other => other.to_string(),
    }
}

/// Formats one iteration as `info depth D seldepth S nodes N score cp X time T nps R [hashfull H]
/// pv ...`: integers only, `time` in milliseconds, `nps` in nodes per second, and the principal
/// variation as the game writes move lists ([`Notation::write_moves`]; Oware runs them together,
/// as the Aualé GUI keeps only the first of space-separated pv moves).
pub fn format_info<G: Notation>(info: &Iteration<G::Move>, mate_as_cp: bool) -> String {
    let ms = info.elapsed.as_millis();
    let secs = info.elapsed.as_secs_f64();
    let nps = if secs > 0.0 {
        (info.nodes as f64 / secs) as u64
    } else {
        0
    };
    let mut line = format!(
        "info depth {} seldepth {} nodes {} score {} time {} nps {}",
        info.depth,
        info.seldepth,
        info.nodes,
        format_score(info.score, mate_as_cp),
        ms,
        nps
    );
    if let Some(h) = info.hashfull {
        let _ = write!(line, " hashfull {h}");
    }
    if !info.pv.is_empty() {
        let _ = write!(line, " pv {}", G::write_moves(&info.pv));
    }
    line
}

/// The `bestmove M [ponder P]` line of a search result; `bestmove 0000` when there is no move.
pub fn format_bestmove<G: Notation>(result: &SearchResult<G::Move>) -> String {
    match (result.best_move, result.pv.get(1)) {
        (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
        (Some(best), None) => format!("bestmove {best}"),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// The `d` reply: the game's drawing of the position ([`Notation::diagram`]), then the moves
/// played and the game state.
pub fn format_board<G: Notation>(game: &GameState<G>) -> String {
    let mut s = game.position().diagram();
    let moves = G::write_moves(game.moves());
    let _ = write!(
        s,
        "\nmoves {}\n",
        if moves.is_empty() { "-" } else { &moves }
    );
    match game.end() {
        None => {
            let _ = write!(
                s,
                "state in play, plies since the last irreversible move {}",
                game.keys_since_irreversible().len() - 1
            );
        }
        Some(end) => {
            let _ = write!(
                s,
                "state over {} {}",
                end.result_string(),
                G::describe_end(&end)
            );
        }
    }
    s
}
