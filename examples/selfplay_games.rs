//! Writes self-play games of perfectplay, one a line, in the format of `data/selfplay-games.txt`:
//! the start position, the word `moves`, then the moves as the game writes move lists (Oware: the
//! house letters run together, `A`-`F` South, `a`-`f` North; Dobutsu: `b2b3 C@a3 ...`).
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
//!
//! and `data/dobutsu-selfplay-games.txt` with
//!
//! ```text
//! cargo run --release --example selfplay_games -- --variant dobutsu --opening-plies 2 \
//!     --games 24 > data/dobutsu-selfplay-games.txt
//! ```

use std::io::{self, Write};

use anyhow::{bail, Context};
use clap::Parser;
use perfectplay::arena::runner::random_openings;
use perfectplay::game::GameState;
use perfectplay::search::{
    seed_hash, Control, Level, Limits, Root, SearchConfig, Searcher, Silent, DEFAULT_HASH_MB,
};
use perfectplay::variant::{Variant, VariantGame, VisitGame};

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
    /// Game and rules: abapa, awari or dobutsu.
    #[arg(long, default_value = "abapa")]
    variant: Variant,
}

struct SelfPlay<'a> {
    args: &'a Args,
}

impl VisitGame for SelfPlay<'_> {
    type Output = anyhow::Result<()>;
    fn visit<G: VariantGame>(self, rules: G::Rules) -> anyhow::Result<()> {
        let args = self.args;
        let mut searcher = Searcher::<G>::with_hash_mb(DEFAULT_HASH_MB);
        let limits = Limits {
            nodes: Some(args.nodes),
            ..Limits::default()
        };
        let mut out = io::stdout().lock();
        let openings = random_openings::<G>(args.games, args.opening_plies, args.seed, &rules);
        for (n, opening) in openings.iter().enumerate() {
            let mut game = GameState::new(opening.start.clone(), rules.clone());
            game.play_all(&opening.moves)
                .map_err(|(i, e)| anyhow::anyhow!("opening {}, move {}: {e}", n + 1, i + 1))?;
            let config = SearchConfig {
                weights: Default::default(),
                cycle: G::cycle_rule(&rules),
                level: Level::default(),
                seed: seed_hash(&(n + 1).to_string()),
                lines: 1,
            };
            while !game.is_over() {
                let root = Root::from(&game);
                let result =
                    searcher.search(&root, &limits, &config, &Control::default(), &mut Silent);
                let Some(mv) = result.best_move else {
                    bail!("game {}: no move at ply {}", n + 1, game.ply());
                };
                game.play(mv)
                    .with_context(|| format!("game {}: the engine's move {mv}", n + 1))?;
            }
            writeln!(
                out,
                "{} moves {}",
                game.start().write_position(),
                G::write_moves(game.moves())
            )
            .context("writing to stdout")?;
            if let Some(end) = game.end() {
                eprintln!(
                    "game {}: {} plies, {} {}",
                    n + 1,
                    game.ply(),
                    end.result_string(),
                    G::describe_end(&end)
                );
            }
        }
        out.flush().context("writing to stdout")?;
        Ok(())
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    args.variant.visit(SelfPlay { args: &args })
}
