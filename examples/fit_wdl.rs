//! Fits the model of a game's result from a heuristic score that `UCI_ShowWDL` reports
//! ([`perfectplay::game::WdlModel`]) to self-play games, and prints it with what it was fitted to.
//!
//! The games start from random openings (`--opening-plies` random legal moves from `--seed`, the
//! match runner's opening generator); the engine then plays both sides at `--nodes` nodes a move,
//! full strength, default options but `Seed` (the game's number), until the rules end the game.
//! Every search whose score is heuristic (`score cp`, not a proven result) gives one sample: that
//! score, from the side to move, and how the game ended for that side. The model's two numbers
//! are those of greatest likelihood over the samples (a coarse grid, then a fine one around its
//! best). Node-limited search is deterministic, so the same arguments print the same fit on every
//! machine. The fits in `src/oware/mod.rs` and `src/dobutsu/game.rs` (docs/wdl.md) came from:
//!
//! ```text
//! cargo run --release --example fit_wdl -- --variant abapa
//! cargo run --release --example fit_wdl -- --variant dobutsu --opening-plies 6 --games 1000
//! ```

use anyhow::{bail, Context};
use clap::Parser;
use perfectplay::arena::runner::random_openings;
use perfectplay::game::{GameState, Player, WdlModel};
use perfectplay::search::{
    seed_hash, Control, Level, Limits, Root, Score, SearchConfig, Searcher, Silent, DEFAULT_HASH_MB,
};
use perfectplay::variant::{Variant, VariantGame, VisitGame};

/// Fits the score-to-result model to self-play games.
#[derive(Parser)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 300)]
    games: usize,
    /// Nodes searched for every move after the opening.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 6)]
    opening_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Game and rules: abapa, awari or dobutsu.
    #[arg(long, default_value = "abapa")]
    variant: Variant,
}

/// A search's score from the side to move, and the game's result for that side (1 a win, 0.5 a
/// draw, 0 a loss).
struct Sample {
    score: f64,
    result: f64,
}

struct Collect<'a> {
    args: &'a Args,
}

impl VisitGame for Collect<'_> {
    type Output = anyhow::Result<Vec<Sample>>;
    fn visit<G: VariantGame>(self, rules: G::Rules) -> anyhow::Result<Vec<Sample>> {
        let args = self.args;
        let mut searcher = Searcher::<G>::with_hash_mb(DEFAULT_HASH_MB);
        let limits = Limits {
            nodes: Some(args.nodes),
            ..Limits::default()
        };
        let mut samples = Vec::new();
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
            // (score, index of the side to move) of each heuristic search.
            let mut scored = Vec::new();
            while !game.is_over() {
                let root = Root::from(&game);
                let result =
                    searcher.search(&root, &limits, &config, &Control::default(), &mut Silent);
                let Some(mv) = result.best_move else {
                    bail!("game {}: no move at ply {}", n + 1, game.ply());
                };
                if let (Score::Cp(cp), true) = (result.score, result.depth > 0) {
                    scored.push((cp, game.position().to_move().index()));
                }
                game.play(mv)
                    .with_context(|| format!("game {}: the engine's move {mv}", n + 1))?;
            }
            let end = game.end().context("a finished game has an end")?;
            // The first player's result.
            let first = match end.result_string() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                _ => 0.5,
            };
            samples.extend(scored.into_iter().map(|(cp, mover)| Sample {
                score: f64::from(cp),
                result: if mover == 0 { first } else { 1.0 - first },
            }));
        }
        Ok(samples)
    }
}

/// The mean log-likelihood of `samples` under `model` (draws get what the two sigmoids leave).
fn likelihood(samples: &[Sample], model: &WdlModel) -> f64 {
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let total: f64 = samples
        .iter()
        .map(|s| {
            let win = sigmoid((s.score - model.mid) / model.spread);
            let loss = sigmoid((-s.score - model.mid) / model.spread);
            let p = if s.result == 1.0 {
                win
            } else if s.result == 0.0 {
                loss
            } else {
                1.0 - win - loss
            };
            p.max(1e-9).ln()
        })
        .sum();
    total / samples.len() as f64
}

/// The model of greatest likelihood with `mid` in `mids` and `spread` in `spreads`.
fn best_on_grid(
    samples: &[Sample],
    mids: impl Iterator<Item = f64>,
    spreads: &[f64],
) -> (WdlModel, f64) {
    let mut best = (
        WdlModel {
            mid: 0.0,
            spread: 1.0,
        },
        f64::NEG_INFINITY,
    );
    for mid in mids {
        for &spread in spreads {
            let model = WdlModel { mid, spread };
            let l = likelihood(samples, &model);
            if l > best.1 {
                best = (model, l);
            }
        }
    }
    best
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let samples = args.variant.visit(Collect { args: &args })?;
    if samples.is_empty() {
        bail!("no heuristic scores to fit");
    }
    let coarse_spreads: Vec<f64> = (1..=60).map(|i| f64::from(i) * 20.0).collect();
    let (coarse, _) = best_on_grid(
        &samples,
        (0..=40).map(|i| f64::from(i) * 20.0),
        &coarse_spreads,
    );
    let fine_spreads: Vec<f64> = (-20..=20)
        .map(|d| coarse.spread + f64::from(d))
        .filter(|&s| s > 0.0)
        .collect();
    let (model, l) = best_on_grid(
        &samples,
        (-20..=20)
            .map(|d| coarse.mid + f64::from(d))
            .filter(|&m| m >= 0.0),
        &fine_spreads,
    );
    let count = |r: f64| samples.iter().filter(|s| s.result == r).count();
    println!(
        "{} games, {} samples ({} won, {} drawn, {} lost for the side to move)",
        args.games,
        samples.len(),
        count(1.0),
        count(0.5),
        count(0.0)
    );
    println!(
        "fit: mid {} spread {} (mean log-likelihood {l:.4})",
        model.mid, model.spread
    );
    println!("score band      samples  won%  drawn%  lost%  | model at the band's middle");
    for band in (-8..8).map(|b| b * 100) {
        let inside: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.score >= f64::from(band) && s.score < f64::from(band + 100))
            .collect();
        if inside.is_empty() {
            continue;
        }
        let share = |r: f64| {
            100.0 * inside.iter().filter(|s| s.result == r).count() as f64 / inside.len() as f64
        };
        let [w, d, lo] = model.wdl(band + 50);
        println!(
            "[{band:>5}, {:>5})  {:>7}  {:>4.1}  {:>6.1}  {:>5.1}  | {w} {d} {lo}",
            band + 100,
            inside.len(),
            share(1.0),
            share(0.5),
            share(0.0)
        );
    }
    Ok(())
}
