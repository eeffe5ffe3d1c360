//! Fits the Dobutsu Shogi evaluation's weights to the exact values of the solved game (Texel
//! tuning with perfect labels), in two steps, both deterministic (docs/evaluation.md):
//!
//! ```text
//! perfectplay solve dobutsu
//! cargo run --release --example tune_dobutsu -- generate --games 4000 --seed 1 > dobutsu-positions.txt
//! cargo run --release --example tune_dobutsu -- fit dobutsu-positions.txt
//! ```
//!
//! `generate` plays perfectplay against itself from random openings (`--opening-plies` random
//! legal moves drawn from `--seed` by the match runner's opening generator) at `--nodes` nodes a
//! move with the evaluation `--weights` (`fitted`, the linear one and the default, `hand-set` or `network`), so that the
//! positions are the kind the search meets, `--random` percent of the moves played at random to
//! spread the games (the labels are exact whatever the play); and writes every position after the opening that
//! is quiet (the side to move has no capture: the static evaluation is what the search would
//! use there) and not over, once each, with its exact value from the solution (`--solution`,
//! else the default place): one line each, `FEN<TAB>VALUE`, the value `win N`, `loss N` or
//! `draw` for the side to move.
//!
//! `fit` minimises the mean squared error between the value (win 1, draw 0.5, loss 0) and
//! `sigmoid(x . w)` (x the features of `perfectplay::dobutsu::eval::features`, w in logits), by
//! full-batch Adam for `--iterations` steps from the hand-set weights, with `--l2` pulling each
//! weight toward them. It prints the weights in hundredths of a Chick (the evaluation's unit):
//! the logits divided by the `K` that best fits the hand-set evaluation to the same labels, so
//! the fitted evaluation keeps its scale (the search's margins and the WDL model are in that
//! unit); then the errors, and the table as Rust for `src/dobutsu/eval.rs`.

#[path = "shared/texel.rs"]
mod texel;

#[path = "shared/dobutsu_solution.rs"]
mod dobutsu_solution;

use std::collections::HashSet;
use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use perfectplay::arena::runner::random_openings;
use perfectplay::dobutsu::eval::{feature_names, features, Weights, FEATURES};
use perfectplay::dobutsu::Position;
use perfectplay::game::{GameState, Outcome};
use perfectplay::search::{
    seed_hash, Control, Level, Limits, Root, SearchConfig, Searcher, Silent, DEFAULT_HASH_MB,
};
use texel::{fit_k, sigmoid};

#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays self-play games and prints their quiet positions with their exact values.
    Generate {
        /// Games to play.
        #[arg(long, default_value_t = 4000)]
        games: usize,
        /// Nodes searched for every move after the opening.
        #[arg(long, default_value_t = 4000)]
        nodes: u64,
        /// Random plies at the start of each game.
        #[arg(long, default_value_t = 6)]
        opening_plies: usize,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The evaluation that plays: `fitted` (linear), `hand-set` or `network`.
        #[arg(long, default_value = "fitted")]
        weights: String,
        /// Percent of the moves after the opening played at random (drawn from the seed and
        /// the game's number) instead of searched: the labels are exact whatever the play, and
        /// the random moves spread the games over more positions.
        #[arg(long, default_value_t = 10)]
        random: u64,
        /// The solution file (default: the engine's default place).
        #[arg(long)]
        solution: Option<PathBuf>,
    },
    /// Fits the weights to a file of `generate`.
    Fit {
        /// The positions, as `generate` writes them.
        file: PathBuf,
        /// Adam steps.
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
        /// Pull of each weight toward its hand-set value, in logits² per unit.
        #[arg(long, default_value_t = 1e-4)]
        l2: f64,
    },
}

fn main() -> anyhow::Result<()> {
    match Args::parse().command {
        Command::Generate {
            games,
            nodes,
            opening_plies,
            seed,
            weights,
            random,
            solution,
        } => {
            let weights = match weights.as_str() {
                "fitted" => Weights::linear(),
                "hand-set" => Weights::hand_set(),
                "network" => Weights::default(),
                other => bail!("--weights: '{other}' is not fitted, hand-set or network"),
            };
            let solution = dobutsu_solution::load(solution.as_deref())?;
            let play = Play {
                nodes,
                weights,
                random,
            };
            generate(games, opening_plies, seed, &play, &|pos| {
                solution.probe(pos).map(|v| match v.outcome {
                    Outcome::Win => format!("win {}", v.plies),
                    Outcome::Loss => format!("loss {}", v.plies),
                    Outcome::Draw => "draw".to_string(),
                })
            })
        }
        Command::Fit {
            file,
            iterations,
            l2,
        } => {
            let text =
                fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            let samples = read_samples(&text)?;
            fit(&samples, iterations, l2);
            Ok(())
        }
    }
}

/// Whether the side to move has no capture (and the game goes on).
fn is_quiet(pos: &Position) -> bool {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    !moves.is_empty() && moves.iter().all(|&mv| pos.play(mv).1.capture.is_none())
}

/// How the games of `generate` are played.
struct Play {
    nodes: u64,
    weights: Weights,
    random: u64,
}

/// SplitMix64's step: the next state and its output.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn generate(
    games: usize,
    opening_plies: usize,
    seed: u64,
    play: &Play,
    value: &dyn Fn(&Position) -> Option<String>,
) -> anyhow::Result<()> {
    let rules = Default::default();
    let mut searcher = Searcher::<Position>::with_hash_mb(DEFAULT_HASH_MB);
    let limits = Limits {
        nodes: Some(play.nodes),
        ..Limits::default()
    };
    let mut out = io::stdout().lock();
    let mut seen = HashSet::new();
    let mut unknown = 0u64;
    let openings = random_openings::<Position>(games, opening_plies, seed, &rules);
    for (n, opening) in openings.iter().enumerate() {
        let mut game = GameState::new(opening.start, rules);
        game.play_all(&opening.moves)
            .map_err(|(i, e)| anyhow::anyhow!("opening {}, move {}: {e}", n + 1, i + 1))?;
        let mut dice = seed ^ (n as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
        let config = SearchConfig {
            weights: play.weights,
            cycle: rules.cycle,
            level: Level::default(),
            seed: seed_hash(&(n + 1).to_string()),
            lines: 1,
        };
        while !game.is_over() {
            let pos = *game.position();
            if is_quiet(&pos) && seen.insert(pos.normalized()) {
                // A position the solution does not follow (after one the rules decide, which a
                // game played on past) is left out.
                match value(&pos) {
                    Some(v) => {
                        writeln!(out, "{}\t{v}", pos.to_fen()).context("writing to stdout")?
                    }
                    None => unknown += 1,
                }
            }
            // A position the rules decide (the mover can take the Lion) is not played at random:
            // the solution, as Tanaka's, does not follow such positions.
            if Position::outcome(&pos).is_none() && splitmix(&mut dice) % 100 < play.random {
                let moves = game.legal_moves();
                let mv = moves[(splitmix(&mut dice) % moves.len() as u64) as usize];
                game.play(mv)
                    .with_context(|| format!("game {}: the random move {mv}", n + 1))?;
                continue;
            }
            let root = Root::from(&game);
            let result = searcher.search(&root, &limits, &config, &Control::default(), &mut Silent);
            let Some(mv) = result.best_move else {
                bail!("game {}: no move at ply {}", n + 1, game.ply());
            };
            game.play(mv)
                .with_context(|| format!("game {}: the engine's move {mv}", n + 1))?;
        }
        if (n + 1) % 500 == 0 {
            eprintln!(
                "{} games, {} positions ({unknown} outside the solution)",
                n + 1,
                seen.len()
            );
        }
    }
    out.flush().context("writing to stdout")?;
    Ok(())
}

/// A quiet position's features and its value for the side to move (win 1, draw 0.5, loss 0).
struct Sample {
    x: [f64; FEATURES],
    y: f64,
}

fn read_samples(text: &str) -> anyhow::Result<Vec<Sample>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let (fen, value) = line
                .split_once('\t')
                .with_context(|| format!("line {}: no tab", i + 1))?;
            let pos = Position::from_fen(fen).with_context(|| format!("line {}", i + 1))?;
            let y = match value.split_whitespace().next() {
                Some("win") => 1.0,
                Some("draw") => 0.5,
                Some("loss") => 0.0,
                _ => bail!("line {}: '{value}' is not a value", i + 1),
            };
            Ok(Sample {
                x: features(&pos).map(f64::from),
                y,
            })
        })
        .collect()
}

fn dot(x: &[f64; FEATURES], w: &[f64; FEATURES]) -> f64 {
    x.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// Mean squared error of `sigmoid(x . w)` against the labels.
fn error(samples: &[Sample], w: &[f64; FEATURES]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (sigmoid(dot(&s.x, w)) - s.y).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The `K` for which `sigmoid(K * (x . w))` best fits the labels.
fn fit_k_of(samples: &[Sample], w: &[f64; FEATURES]) -> f64 {
    let evals: Vec<(f64, f64)> = samples.iter().map(|s| (dot(&s.x, w), s.y)).collect();
    fit_k(&evals)
}

fn fit(samples: &[Sample], iterations: usize, l2: f64) {
    let names = feature_names();
    let hand_set = Weights::hand_set().table.map(f64::from);
    let k = fit_k_of(samples, &hand_set);
    let prior = hand_set.map(|w| w * k);
    let wins = samples.iter().filter(|s| s.y == 1.0).count();
    let draws = samples.iter().filter(|s| s.y == 0.5).count();
    println!(
        "{} positions ({wins} wins, {draws} draws, {} losses for the side to move), {FEATURES} features",
        samples.len(),
        samples.len() - wins - draws
    );
    println!(
        "hand-set: K = {k:.6} per hundredth of a Chick, error {:.6}",
        error(samples, &prior)
    );
    let (rate, beta1, beta2, eps) = (0.002, 0.9, 0.999, 1e-8);
    let mut w = prior;
    let mut m = [0f64; FEATURES];
    let mut v = [0f64; FEATURES];
    let n = samples.len() as f64;
    for t in 1..=iterations {
        let mut grad = [0f64; FEATURES];
        for s in samples {
            let p = sigmoid(dot(&s.x, &w));
            let g = 2.0 * (p - s.y) * p * (1.0 - p);
            for (gi, xi) in grad.iter_mut().zip(&s.x) {
                *gi += g * xi;
            }
        }
        for i in 0..FEATURES {
            let g = grad[i] / n + 2.0 * l2 * (w[i] - prior[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let mh = m[i] / (1.0 - beta1.powi(t as i32));
            let vh = v[i] / (1.0 - beta2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if t % 250 == 0 {
            eprintln!("step {t}: error {:.6}", error(samples, &w));
        }
    }
    // The rounded weights, in the hand-set evaluation's unit.
    let scaled: Vec<i32> = w.iter().map(|wi| (wi / k).round() as i32).collect();
    let rounded: [f64; FEATURES] = std::array::from_fn(|i| f64::from(scaled[i]) * k);
    println!(
        "fitted: error {:.6} (rounded {:.6})",
        error(samples, &w),
        error(samples, &rounded)
    );
    for (i, name) in names.iter().enumerate() {
        println!(
            "  {name:16} {:6}  (hand-set {:5}, {:+.4} logit)",
            scaled[i], hand_set[i] as i32, w[i]
        );
    }
    println!("const FITTED: [i32; FEATURES] = [");
    let rows: [(&str, std::ops::Range<usize>); 9] = [
        ("Lion", 0..8),
        ("Giraffe", 8..16),
        ("Elephant", 16..24),
        ("Chick", 24..32),
        ("Hen", 32..40),
        ("hand: G1 G2 E1 E2 C1 C2", 40..46),
        (
            "tempo, lion attacked, try, enemy try, lion net, mobility",
            46..52,
        ),
        ("threatened G E C H", 52..56),
        ("hanging G E C H", 56..60),
    ];
    for (label, range) in rows {
        let row: Vec<String> = scaled[range].iter().map(|s| s.to_string()).collect();
        println!("    {}, // {label}", row.join(", "));
    }
    println!("];");
}
