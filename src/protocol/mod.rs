//! The UCI-style text protocol (documented in `protocol.md`): command parsing, options, the
//! session loop, and formatting of `info` lines and the board, for every game the engine plays.

mod command;
mod options;
mod reply;
mod selected;
mod session;

pub use command::{Command, CommandError};
pub use options::{canonical_name, engine_options, EngineSettings};
pub use options::{max_threads, MAX_MULTIPV};
pub use reply::{Info, OptionLine, Reply};
pub use session::{run, run_with_presets, SessionError};

use std::fmt::Write as _;

use crate::game::{GameState, Notation, WdlModel};
use crate::search::{HashReport, Iteration, Score, SearchResult};

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

/// Under `ScoreMateAsCp`, a proven win in N moves is sent as `score cp` of this minus N, a proven
/// loss in N moves as its negative: far above any heuristic score with the default weights (an
/// Oware margin of 48 seeds is 4,800), and shown by the Aualé GUI as about 100 seeds.
pub const MATE_AS_CP: i32 = 10_000;

/// A score as `info` sends it: `cp S` or `mate N`; with `mate_as_cp`, `mate N` becomes
/// `cp` [`MATE_AS_CP`]` - N` (`-(`[`MATE_AS_CP`]` - N)` for a loss in N moves).
pub fn score_sent(score: Score, mate_as_cp: bool) -> Score {
    match score {
        Score::Mate(n) if mate_as_cp => Score::Cp(if n >= 0 {
            MATE_AS_CP - n
        } else {
            -(MATE_AS_CP + n)
        }),
        other => other,
    }
}

/// [`score_sent`] as text: `cp S` or `mate N`.
pub fn score_text(score: Score, mate_as_cp: bool) -> String {
    score_sent(score, mate_as_cp).to_string()
}

/// What making a transposition table did, in one line (the protocol sends it as an `info
/// string` after `setoption name Hash`): the table's size, whether the system had too little
/// memory for the size asked, and the time making it resident and clearing it took.
pub fn format_hash_report(report: &HashReport) -> String {
    let size = if report.shrunk {
        format!(
            "not enough memory: the table was shrunk to {} MiB",
            report.table_mb().max(1)
        )
    } else {
        format!("table of {} MiB", report.bytes as f64 / f64::from(1 << 20))
    };
    format!(
        "Hash {} MiB: {size}, made resident and cleared in {} ms by {} thread{}{}",
        report.requested_mb,
        report.elapsed.as_millis(),
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        if report.huge_pages {
            ", huge pages asked for"
        } else {
            ""
        }
    )
}

/// How `info` lines are written: the options that shape them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InfoFormat {
    /// `ScoreMateAsCp`: proven results as large `score cp` values ([`score_text`]).
    pub mate_as_cp: bool,
    /// `MultiPV` above 1: each line says its rank (`multipv K`).
    pub multipv: bool,
    /// `UCI_ShowWDL`: each line says `wdl W D L`, from this model where the result is not
    /// proven.
    pub wdl: Option<WdlModel>,
}

pub use crate::engine::wdl;

/// Formats one iteration as `info depth D seldepth S [multipv K] nodes N score cp X [wdl W D L]
/// time T nps R [hashfull H] [tbhits B] pv ...` (`multipv` when `MultiPV` is above 1, `wdl`
/// under `UCI_ShowWDL`, `tbhits` when a table of exact values answered): integers only, `time`
/// in milliseconds, `nps` in nodes per second, and the principal variation as the game writes
/// move lists ([`Notation::write_moves`]; Oware runs them together, as the Aualé GUI keeps only
/// the first of space-separated pv moves).
pub fn format_info<G: Notation>(info: &Iteration<G::Move>, format: &InfoFormat) -> String {
    let secs = info.elapsed.as_secs_f64();
    let nps = if secs > 0.0 {
        (info.nodes as f64 / secs) as u64
    } else {
        0
    };
    Reply::Info(Info {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: format.multipv.then_some(info.multipv),
        nodes: Some(info.nodes),
        score: Some(score_sent(info.score, format.mate_as_cp)),
        wdl: format
            .wdl
            .as_ref()
            .map(|model| wdl(info.score, info.exact, model)),
        time: Some(info.elapsed.as_millis() as u64),
        nps: Some(nps),
        hashfull: info.hashfull,
        tbhits: (info.tbhits > 0).then_some(info.tbhits),
        pv: (!info.pv.is_empty()).then(|| G::write_moves(&info.pv)),
    })
    .to_string()
}

/// The `bestmove M [ponder P]` line of a search result; `bestmove 0000` when there is no move.
pub fn format_bestmove<G: Notation>(result: &SearchResult<G::Move>) -> String {
    Reply::BestMove {
        best: result
            .best_move
            .map_or_else(|| "0000".to_string(), |m| m.to_string()),
        ponder: result
            .best_move
            .and(result.pv.get(1))
            .map(ToString::to_string),
    }
    .to_string()
}

/// The `d` reply: the game's drawing of the position ([`Notation::diagram`]), then the moves
/// played and the game state.
pub fn format_board<G: Notation>(game: &GameState<G>) -> String {
    let mut s = game.position().diagram(game.counters());
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
                "state in play, {} {}",
                G::CYCLE_COUNT,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_reports_say_size_shrinking_and_time() {
        let mut report = HashReport {
            requested_mb: 1024,
            bytes: 1 << 30,
            shrunk: false,
            huge_pages: true,
            threads: 2,
            elapsed: std::time::Duration::from_millis(312),
        };
        assert_eq!(
            format_hash_report(&report),
            "Hash 1024 MiB: table of 1024 MiB, made resident and cleared in 312 ms by 2 threads, \
             huge pages asked for"
        );
        report.bytes = 512 << 20;
        report.shrunk = true;
        report.threads = 1;
        report.huge_pages = false;
        assert_eq!(
            format_hash_report(&report),
            "Hash 1024 MiB: not enough memory: the table was shrunk to 512 MiB, made resident and \
             cleared in 312 ms by 1 thread"
        );
        report.requested_mb = 100;
        report.bytes = 64 << 20;
        report.shrunk = false;
        assert!(format_hash_report(&report).starts_with("Hash 100 MiB: table of 64 MiB,"));
    }

    #[test]
    fn proven_results_as_cp() {
        assert_eq!(score_text(Score::Mate(3), false), "mate 3");
        assert_eq!(score_text(Score::Mate(-2), false), "mate -2");
        assert_eq!(score_text(Score::Cp(-15), false), "cp -15");
        assert_eq!(score_text(Score::Mate(1), true), "cp 9999");
        assert_eq!(score_text(Score::Mate(3), true), "cp 9997");
        assert_eq!(score_text(Score::Mate(-2), true), "cp -9998");
        assert_eq!(score_text(Score::Cp(-15), true), "cp -15");
    }
}
