//! Checks every move of Dobutsu Shogi games against the solution: for each player (the PGN's
//! `White` and `Black` tags), the moves played from a known value and the value-losing ones (a
//! win thrown to a draw or a loss, a draw thrown to a loss), as the issue's strength figures
//! count them. Moves from positions the rules decide are not counted.
//!
//! ```text
//! perfectplay match --variant dobutsu ... --pgn games.pgn
//! cargo run --release --example review_games -- games.pgn [--solution FILE]
//! ```

#[path = "shared/dobutsu_solution.rs"]
mod dobutsu_solution;

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Parser;
use dobutsu_solution::{after, rank};
use perfectplay::game::Outcome;
use perfectplay::records::pgn;

#[derive(Parser)]
struct Args {
    /// The PGN file of the games.
    games: PathBuf,
    /// The solution file (default: the engine's default place).
    #[arg(long)]
    solution: Option<PathBuf>,
}

/// One player's moves.
#[derive(Default)]
struct ValueCounts {
    moves: u64,
    losing: u64,
    wins_to_draws: u64,
    wins_to_losses: u64,
    draws_to_losses: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let solution = dobutsu_solution::load(args.solution.as_deref())?;
    let text = std::fs::read_to_string(&args.games)
        .with_context(|| format!("reading {}", args.games.display()))?;
    let games = pgn::parse(&text).context("reading the games")?;
    let mut tallies: BTreeMap<String, ValueCounts> = BTreeMap::new();
    for (g, game) in games.iter().enumerate() {
        let mut pos = dobutsu_solution::start(game, g)?;
        let names = [
            game.tag("White").unwrap_or("White").to_string(),
            game.tag("Black").unwrap_or("Black").to_string(),
        ];
        for (i, word) in game.moves.iter().enumerate() {
            let mv = pos
                .parse_move(word)
                .with_context(|| format!("game {}, move {}", g + 1, i + 1))?;
            let (child, _) = pos.play(mv);
            if let (Some(before), Some(after)) = (solution.probe(&pos), after(&solution, &child)) {
                let tally = tallies
                    .entry(names[pos.side_to_move().index()].clone())
                    .or_default();
                tally.moves += 1;
                if rank(after) < rank(before.outcome) {
                    tally.losing += 1;
                    match (before.outcome, after) {
                        (Outcome::Win, Outcome::Draw) => tally.wins_to_draws += 1,
                        (Outcome::Win, Outcome::Loss) => tally.wins_to_losses += 1,
                        (Outcome::Draw, Outcome::Loss) => tally.draws_to_losses += 1,
                        _ => bail!("unreachable value change"),
                    }
                }
            }
            pos = child;
        }
    }
    println!("{} games", games.len());
    for (name, t) in &tallies {
        println!(
            "{name}: {} value-losing moves in {} ({} wins to draws, {} wins to losses, {} draws to losses)",
            t.losing, t.moves, t.wins_to_draws, t.wins_to_losses, t.draws_to_losses
        );
    }
    Ok(())
}
