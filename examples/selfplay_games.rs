//! Writes self-play games of perfectplay, one a line, in the format of `data/selfplay-games.txt`:
//! the start diagram, the word `moves`, then the moves run together (`A`-`F` South, `a`-`f`
//! North).
//!
//! Each game starts with a random opening (`--opening-plies` random legal moves, drawn from
//! `--seed` by the match runner's opening generator), then the engine plays both sides at
//! `--nodes` nodes a move, full strength, default options except `Seed` (the game's number, so
//! tie-breaks differ between games), under the default rules (Abapa, Repetitions 3,
//! NoCaptureLimit 500) until the rules end the game. Node-limited search is deterministic, so the
//! same arguments give the same file on every machine. `data/selfplay-games.txt` was written
//! with the defaults:
//!
//! ```text
//! cargo run --release --example selfplay_games > data/selfplay-games.txt
//! ```

use std::io::{self, Write};

use anyhow::{bail, Context};
use clap::Parser;
use perfectplay::arena::runner::random_openings;
use perfectplay::oware::{Board, GameState, Rules};
use perfectplay::search::{
    seed_hash, Control, Level, Limits, Root, SearchConfig, Searcher, Silent, DEFAULT_HASH_MB,
};

/// Plays perfectplay against itself and prints each game as one line.
#[derive(Parser)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 8)]
    games: usize,
    /// Nodes searched for every move after the opening.
    #[arg(long, default_value_t = 100_000)]
    nodes: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let rules = Rules::default();
    let openings = random_openings(args.games, args.opening_plies, args.seed, rules);
    let mut searcher = Searcher::<Board>::with_hash_mb(DEFAULT_HASH_MB);
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let mut out = io::stdout().lock();
    for (n, opening) in openings.iter().enumerate() {
        let mut game = GameState::new(opening.start, rules);
        game.play_all(&opening.moves)
            .map_err(|(i, e)| anyhow::anyhow!("opening {}, move {}: {e}", n + 1, i + 1))?;
        let config = SearchConfig {
            weights: Default::default(),
            cycle: rules.cycle,
            level: Level::default(),
            seed: seed_hash(&(n + 1).to_string()),
        };
        while !game.is_over() {
            let root = Root {
                position: game.board(),
                history: game.keys_since_capture().to_vec(),
                game_ply: game.ply() as u32,
            };
            let result = searcher.search(&root, &limits, &config, &Control::default(), &mut Silent);
            let Some(mv) = result.best_move else {
                bail!(
                    "game {}: no move at ply {} ({})",
                    n + 1,
                    game.ply(),
                    game.board()
                );
            };
            game.play(mv)
                .with_context(|| format!("game {}: the engine's move {mv}", n + 1))?;
        }
        let moves: String = game.moves().iter().map(|m| m.letter()).collect();
        writeln!(out, "{} moves {moves}", game.start()).context("writing to stdout")?;
        if let Some(end) = game.end() {
            eprintln!(
                "game {}: {} plies, {} ({}, stores {:?})",
                n + 1,
                game.ply(),
                end.result_string(),
                end.reason,
                end.stores()
            );
        }
    }
    out.flush().context("writing to stdout")?;
    Ok(())
}
