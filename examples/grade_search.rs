//! Grades the Dobutsu Shogi search by the solution on a fixed set of positions: every position of
//! the games given (their moves replayed, so the search sees the game's history for the cycle
//! rule) where the choice matters, that is where the solution knows the value, the rules do not
//! decide it, and some legal moves keep the value while others lose it. Each is searched without
//! the solution at a fixed node count (deterministic: the same build gives the same figures on any
//! machine and under any load) or for a fixed time, and the moves that lose value are counted as
//! `review_games` counts them. Two builds are compared position by position with `--failures`
//! (the positions each gets wrong): what tells them apart is the positions one gets wrong and
//! the other right, a sign test on those.
//!
//! ```text
//! perfectplay match --variant dobutsu ... --pgn games.pgn
//! cargo run --release --example grade_search -- games.pgn --nodes 100000 [--every 4] [--jobs 2]
//! ```

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

#[path = "shared/dobutsu_solution.rs"]
mod dobutsu_solution;

use anyhow::Context;
use clap::Parser;
use dobutsu_solution::{after, rank};
use perfectplay::dobutsu::solve::Solution;
use perfectplay::dobutsu::Position;
use perfectplay::game::{GameState, Outcome};
use perfectplay::records::pgn;
use perfectplay::search::{
    seed_hash, Control, Level, Limits, Root, SearchConfig, Searcher, Silent, DEFAULT_HASH_MB,
};

#[derive(Parser)]
struct Args {
    /// PGN files of Dobutsu games (a `perfectplay match --pgn` record, say).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// The solution file (default: the engine's default place).
    #[arg(long)]
    solution: Option<PathBuf>,
    /// Nodes a search (ignored with `--movetime`).
    #[arg(long, default_value_t = 100_000)]
    nodes: u64,
    /// Milliseconds a search, in place of a node count (then the figures depend on the load).
    #[arg(long)]
    movetime: Option<u64>,
    /// Keep every n-th position where the choice matters (1: all).
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// Writes the number (from 0, in the order kept) of each position whose move loses value,
    /// one a line, to this file: two builds' lists compared position by position.
    #[arg(long)]
    failures: Option<PathBuf>,
    /// Searches at once, each on its own thread with its own table.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

/// A position to grade, with the game's history up to it.
struct Case {
    root: Root<Position>,
    outcome: Outcome,
}

/// The positions of `games` where the choice matters, each position once.
fn cases(solution: &Solution, text: &str, seen: &mut HashSet<u64>) -> anyhow::Result<Vec<Case>> {
    let rules = Default::default();
    let mut out = Vec::new();
    for (g, game) in pgn::parse(text)
        .context("reading the games")?
        .iter()
        .enumerate()
    {
        let mut state = GameState::new(dobutsu_solution::start(game, g)?, rules);
        for (i, word) in game.moves.iter().enumerate() {
            let pos = *state.position();
            if Position::outcome(&pos).is_none() && seen.insert(Position::key(&pos)) {
                if let Some(value) = solution.probe(&pos) {
                    let mut moves = Vec::new();
                    pos.legal_moves(&mut moves);
                    let kept = moves
                        .iter()
                        .filter(|&&m| after(solution, &pos.play(m).0) == Some(value.outcome))
                        .count();
                    if kept > 0 && kept < moves.len() {
                        out.push(Case {
                            root: Root::from(&state),
                            outcome: value.outcome,
                        });
                    }
                }
            }
            let mv = pos
                .parse_move(word)
                .with_context(|| format!("game {}, move {}", g + 1, i + 1))?;
            if state.play(mv).is_err() {
                break;
            }
        }
    }
    Ok(out)
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let solution = dobutsu_solution::load(args.solution.as_deref())?;
    let mut seen = HashSet::new();
    let mut all = Vec::new();
    for games in &args.games {
        let text = std::fs::read_to_string(games)
            .with_context(|| format!("reading {}", games.display()))?;
        all.extend(cases(&solution, &text, &mut seen)?);
    }
    let cases: Vec<Case> = all.into_iter().step_by(args.every.max(1)).collect();
    let limits = match args.movetime {
        Some(ms) => Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        },
        None => Limits {
            nodes: Some(args.nodes),
            ..Limits::default()
        },
    };
    let next = AtomicUsize::new(0);
    // Per outcome of the position (loss, draw, win): positions, value-losing choices.
    let failed = std::sync::Mutex::new(Vec::new());
    let tallies: Vec<[[u64; 2]; 3]> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..args.jobs.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut searcher = Searcher::<Position>::with_hash_mb(DEFAULT_HASH_MB);
                    let mut tally = [[0u64; 2]; 3];
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(i) else { break };
                        let config = SearchConfig {
                            weights: Default::default(),
                            cycle: Default::default(),
                            level: Level::default(),
                            seed: seed_hash(&i.to_string()),
                            lines: 1,
                        };
                        searcher.clear();
                        let result = searcher.search(
                            &case.root,
                            &limits,
                            &config,
                            &Control::default(),
                            &mut Silent,
                        );
                        let t = &mut tally[usize::from(rank(case.outcome))];
                        t[0] += 1;
                        let kept = result.best_move.is_some_and(|m| {
                            after(&solution, &case.root.position.play(m).0) == Some(case.outcome)
                        });
                        t[1] += u64::from(!kept);
                        if !kept {
                            failed.lock().expect("the list").push(i);
                        }
                    }
                    tally
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker"))
            .collect()
    });
    if let Some(path) = &args.failures {
        let mut failed = failed.into_inner().expect("the list");
        failed.sort_unstable();
        let text: String = failed.iter().map(|i| format!("{i}\n")).collect();
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    let mut total = [[0u64; 2]; 3];
    for t in &tallies {
        for (a, b) in total.iter_mut().zip(t) {
            a[0] += b[0];
            a[1] += b[1];
        }
    }
    let (n, bad): (u64, u64) = total.iter().fold((0, 0), |(n, b), t| (n + t[0], b + t[1]));
    let rate = bad as f64 / n.max(1) as f64;
    let half = 1.96 * (rate * (1.0 - rate) / n.max(1) as f64).sqrt();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{n} positions: {bad} value-losing choices, {:.2}% ± {:.2}% (95%)",
        100.0 * rate,
        100.0 * half
    )
    .context("writing to stdout")?;
    for (name, t) in ["lost", "drawn", "won"].iter().zip(&total) {
        writeln!(out, "  {name} positions: {} of {} lose value", t[1], t[0])
            .context("writing to stdout")?;
    }
    Ok(())
}
