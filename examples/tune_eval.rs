//! Fits the Oware evaluation's weights to self-play games ("Texel tuning"), in two steps, both
//! deterministic (see `docs/evaluation.md`):
//!
//! ```text
//! cargo run --release --example tune_eval -- generate --games 2500 --seed 12 > positions.txt
//! cargo run --release --example tune_eval -- fit positions.txt
//! ```
//!
//! `generate` plays perfectplay against itself (Abapa, default rules) from random openings
//! (`--opening-plies` random legal moves drawn from `--seed` by the match runner's opening
//! generator) at `--nodes` nodes a move, with the evaluation weights given by `--weights` (the
//! default weights when not given), and writes every position after the opening that is quiet
//! (the side to move has no capture, so the static evaluation is what the search would use) and
//! not over: one line each, `DIAGRAM RESULT SCORE`, the result of the game for the side to move
//! (1, 0.5 or 0) and the search's score of the position in centi-seeds (or `-` for a proven one).
//!
//! `records` writes the same lines from match records (`perfectplay match --ogn`, Abapa): every
//! position after the opening (the `OpeningPlies` tag) that is quiet and not over, with the game's
//! result for the side to move, and the search score of the player `--player` (the `South` or
//! `North` tag): its score on its own move where it is to move, the negation of its score on its
//! next move where the other player is (the score of the position after the other player's move);
//! `-` where that player gave none or a proven one. Games a fault decided or without a result are
//! left out.
//!
//! `label` rewrites such a file with the result an abapa tablebase (`--dir`, the layer files of
//! `perfectplay tablebase build`) proves for the side to move where its bounds decide it, the
//! game's result elsewhere (tried, and left out: docs/lab/2026-12-07-evaluation-history.md).
//!
//! `fit` minimises the mean squared error between the result and `sigmoid(x . w)` over the
//! positions (x the features of [`Board::features`], w in units of the logit), by full-batch
//! gradient descent with Adam for `--iterations` steps from zero weights; `--lambda` blends the
//! result with `sigmoid` of the search score (`K` fitted to the scores first) as the target. It
//! prints the weights in centi-seeds (the evaluation's unit): the logits divided by the `K` that
//! best fits the evaluation of `--scale-of` weights (the defaults when not given) to the same
//! targets, so the fitted evaluation keeps the scale of that one (the search's margins are in
//! centi-seeds); and the error of the fit and of the `--scale-of` weights.
//! Features left out by `--only` (a comma-separated list of names) stay at zero.

#[path = "shared/selfplay_positions.rs"]
mod selfplay_positions;
#[path = "shared/texel.rs"]
mod texel;

use std::fs;
use std::io::{self, Write};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use perfectplay::arena::runner::random_openings;
use perfectplay::game::{Game, GameState};
use perfectplay::oware::tablebase::file;
use perfectplay::oware::{Board, RuleSet, Rules, Side, Weights, FEATURES, FEATURE_NAMES};
use perfectplay::records::{ogn, SearchInfo};
use perfectplay::search::{
    seed_hash, Control, Level, Limits, Root, Score, SearchConfig, Searcher, Silent, DEFAULT_HASH_MB,
};
use selfplay_positions::{read_samples, Sample};
use texel::{fit_k, sigmoid};

#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays self-play games and prints their quiet positions with the games' results.
    Generate {
        /// Games to play.
        #[arg(long, default_value_t = 2500)]
        games: usize,
        /// Nodes searched for every move after the opening.
        #[arg(long, default_value_t = 4000)]
        nodes: u64,
        /// Random plies at the start of each game.
        #[arg(long, default_value_t = 8)]
        opening_plies: usize,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 11)]
        seed: u64,
        /// Evaluation weights (as printed by `fit`: FEATURES comma-separated integers), instead
        /// of the engine's default evaluation (the network).
        #[arg(long)]
        weights: Option<String>,
    },
    /// Prints the quiet positions of match records (OGN) as `generate` does, with a player's
    /// search scores.
    Records {
        /// The OGN files (`perfectplay match --ogn`).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// The player (`South` or `North` tag) whose scores are written.
        #[arg(long, default_value = "perfectplay")]
        player: String,
    },
    /// Rewrites positions written by `generate` with the result an Oware tablebase proves for
    /// the side to move where its bounds decide it (the store difference plus the lower bound
    /// above 0: a win; plus the upper bound below 0: a loss; both 0: a draw), the game's result
    /// elsewhere; prints how many it decided and changed on standard error.
    Label {
        /// The positions file.
        file: String,
        /// The directory of the layer files (`perfectplay tablebase build --dir DIR`).
        #[arg(long)]
        dir: std::path::PathBuf,
    },
    /// Fits the weights to positions written by `generate`.
    Fit {
        /// The positions file.
        file: String,
        /// Gradient steps.
        #[arg(long, default_value_t = 3000)]
        iterations: usize,
        /// Weight of the game result in the target (the rest: the search score).
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
        /// Fit only these features (comma-separated names); the others stay 0.
        #[arg(long)]
        only: Option<String>,
        /// The weights whose best-fitting `K` sets the scale of the printed weights (as printed
        /// by `fit`: FEATURES comma-separated integers; the default weights when not given).
        #[arg(long)]
        scale_of: Option<String>,
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
        } => {
            let weights = match weights {
                Some(text) => parse_weights(&text)?,
                None => Weights::default(),
            };
            generate(games, nodes, opening_plies, seed, weights)
        }
        Command::Records { files, player } => records(&files, &player),
        Command::Label { file, dir } => {
            let text = fs::read_to_string(&file).with_context(|| format!("reading {file}"))?;
            label(&read_samples(&text)?, &dir)
        }
        Command::Fit {
            file,
            iterations,
            lambda,
            only,
            scale_of,
        } => {
            let text = fs::read_to_string(&file).with_context(|| format!("reading {file}"))?;
            let samples = read_samples(&text)?;
            let mask = feature_mask(only.as_deref())?;
            let scale = match scale_of {
                Some(text) => parse_weights(&text)?,
                None => Weights::default(),
            };
            fit(&samples, iterations, lambda, &mask, &scale);
            Ok(())
        }
    }
}

fn parse_weights(text: &str) -> anyhow::Result<Weights> {
    let values: Vec<i32> = text
        .split(',')
        .map(|w| w.trim().parse::<i32>())
        .collect::<Result<_, _>>()
        .context("weights are comma-separated integers")?;
    let Ok(array) = <[i32; FEATURES]>::try_from(values.as_slice()) else {
        bail!("{} weights given, {FEATURES} expected", values.len());
    };
    Ok(Weights::from_array(array))
}

fn feature_mask(only: Option<&str>) -> anyhow::Result<[bool; FEATURES]> {
    let Some(only) = only else {
        return Ok([true; FEATURES]);
    };
    let mut mask = [false; FEATURES];
    for name in only.split(',') {
        let Some(i) = FEATURE_NAMES.iter().position(|&n| n == name.trim()) else {
            bail!(
                "no feature '{name}' (features: {})",
                FEATURE_NAMES.join(",")
            );
        };
        mask[i] = true;
    }
    Ok(mask)
}

fn generate(
    games: usize,
    nodes: u64,
    opening_plies: usize,
    seed: u64,
    weights: Weights,
) -> anyhow::Result<()> {
    let rules = Rules::default();
    let mut searcher = Searcher::<Board>::with_hash_mb(DEFAULT_HASH_MB);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let openings = random_openings::<Board>(games, opening_plies, seed, &rules);
    let mut written = 0usize;
    for (n, opening) in openings.iter().enumerate() {
        let mut game = GameState::new(opening.start, rules);
        game.play_all(&opening.moves)
            .map_err(|(i, e)| anyhow::anyhow!("opening {}, move {}: {e}", n + 1, i + 1))?;
        let config = SearchConfig {
            weights,
            cycle: Board::cycle_rule(&rules),
            level: Level::default(),
            seed: seed_hash(&(n + 1).to_string()),
            lines: 1,
        };
        let mut seen: Vec<(Board, Option<i32>)> = Vec::new();
        while !game.is_over() {
            let board = *game.position();
            let root = Root::from(&game);
            let result = searcher.search(&root, &limits, &config, &Control::default(), &mut Silent);
            let Some(mv) = result.best_move else {
                bail!("game {}: no move at ply {}", n + 1, game.ply());
            };
            if is_quiet(&board) {
                let score = match result.score {
                    Score::Cp(cp) => Some(cp),
                    Score::Mate(_) => None,
                };
                seen.push((board, score));
            }
            game.play(mv)
                .with_context(|| format!("game {}: the engine's move {mv}", n + 1))?;
        }
        let Some(end) = game.end() else {
            bail!("game {}: over without an end", n + 1);
        };
        for (board, score) in seen {
            let result = match end.winner {
                None => "0.5",
                Some(side) if side == board.side_to_move() => "1",
                Some(_) => "0",
            };
            let score = score.map_or("-".to_string(), |s| s.to_string());
            writeln!(out, "{board} {result} {score}").context("writing to stdout")?;
            written += 1;
        }
        if (n + 1) % 100 == 0 {
            eprintln!("{} games, {written} positions", n + 1);
        }
    }
    out.flush().context("writing to stdout")?;
    Ok(())
}

fn records(files: &[std::path::PathBuf], player: &str) -> anyhow::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (mut used, mut left_out, mut written) = (0usize, 0usize, 0usize);
    for path in files {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let games = ogn::parse(&text).with_context(|| format!("in {}", path.display()))?;
        for (n, game) in games.iter().enumerate() {
            let place = || format!("{}, game {}", path.display(), n + 1);
            let rules = game.rules(Rules::default()).with_context(place)?;
            if rules.variant != RuleSet::Abapa {
                bail!("{}: not an Abapa game", place());
            }
            let replayed = ogn::replay(game, rules).with_context(place)?;
            let scorer = if game.tag("South") == Some(player) {
                Side::South
            } else if game.tag("North") == Some(player) {
                Side::North
            } else {
                bail!("{}: no player {player:?}", place());
            };
            let (Some(winner), false) = (replayed.winner, replayed.forfeit) else {
                left_out += 1;
                continue;
            };
            used += 1;
            let opening: usize = match game.tag("OpeningPlies") {
                Some(plies) => plies
                    .parse()
                    .with_context(|| format!("{}: OpeningPlies {plies:?}", place()))?,
                None => 0,
            };
            let score = |i: usize| {
                let comment = game.comments.get(i)?.as_deref()?;
                match SearchInfo::from_comment(comment).score? {
                    Score::Cp(cp) => Some(cp),
                    Score::Mate(_) => None,
                }
            };
            let mut board = game.start(rules.variant).with_context(place)?;
            for (i, &mv) in game.moves.iter().enumerate() {
                if i >= opening && is_quiet(&board) {
                    let mover = board.side_to_move();
                    let score = if mover == scorer {
                        score(i)
                    } else {
                        score(i + 1).map(|s| -s)
                    };
                    let result = match winner {
                        None => "0.5",
                        Some(side) if side == mover => "1",
                        Some(_) => "0",
                    };
                    let score = score.map_or("-".to_string(), |s| s.to_string());
                    writeln!(out, "{board} {result} {score}").context("writing to stdout")?;
                    written += 1;
                }
                board = board.sow_and_capture(mv).0;
            }
        }
    }
    out.flush().context("writing to stdout")?;
    eprintln!(
        "{used} games, {written} positions; {left_out} games left out (a fault or no result)"
    );
    Ok(())
}

fn label(samples: &[Sample], dir: &std::path::Path) -> anyhow::Result<()> {
    // The positions are Abapa's (generate's rules).
    let (tb, problems) = file::load(dir, RuleSet::Abapa, None);
    for p in &problems {
        eprintln!("warning: {p}");
    }
    let Some(seeds) = tb.seeds() else {
        bail!("no abapa layer in {}", dir.display());
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (mut decided, mut changed) = (0usize, 0usize);
    for s in samples {
        let me = s.board.side_to_move();
        let diff = s.board.store(me) as i32 - s.board.store(me.opponent()) as i32;
        let proven = tb.probe(&s.board).and_then(|v| {
            let (low, high) = (diff + v.low as i32, diff + v.high as i32);
            if low > 0 {
                Some(1.0)
            } else if high < 0 {
                Some(0.0)
            } else if low == 0 && high == 0 {
                Some(0.5)
            } else {
                None
            }
        });
        let result = proven.unwrap_or(s.result);
        decided += proven.is_some() as usize;
        changed += (result != s.result) as usize;
        let score = s.score.map_or("-".to_string(), |x| x.to_string());
        writeln!(out, "{} {result} {score}", s.board).context("writing to stdout")?;
    }
    out.flush().context("writing to stdout")?;
    eprintln!(
        "{} positions; the tablebase (up to {seeds} seeds) decided {decided}, of which {changed} \
         had another result in their game",
        samples.len()
    );
    Ok(())
}

/// Whether the side to move has no capture (so the search would stand pat on the evaluation).
fn is_quiet(board: &Board) -> bool {
    board.outcome().is_none()
        && board
            .legal_move_list()
            .iter()
            .all(|&mv| board.sow_and_capture(mv).1 == 0)
}

/// Mean squared error of `sigmoid(x . w)` against the targets.
fn error(xs: &[[f64; FEATURES]], ys: &[f64], w: &[f64; FEATURES]) -> f64 {
    let sum: f64 = xs
        .iter()
        .zip(ys)
        .map(|(x, y)| {
            let p = sigmoid(dot(x, w));
            (p - y) * (p - y)
        })
        .sum();
    sum / xs.len() as f64
}

fn dot(x: &[f64; FEATURES], w: &[f64; FEATURES]) -> f64 {
    x.iter().zip(w).map(|(a, b)| a * b).sum()
}

fn fit(
    samples: &[Sample],
    iterations: usize,
    lambda: f64,
    mask: &[bool; FEATURES],
    scale: &Weights,
) {
    let xs: Vec<[f64; FEATURES]> = samples
        .iter()
        .map(|s| s.board.features().map(f64::from))
        .collect();
    let scored: Vec<(f64, f64)> = samples
        .iter()
        .filter_map(|s| s.score.map(|c| (c as f64, s.result)))
        .collect();
    let k_score = fit_k(&scored);
    let ys: Vec<f64> = samples
        .iter()
        .map(|s| match s.score {
            Some(c) => lambda * s.result + (1.0 - lambda) * sigmoid(k_score * c as f64),
            None => s.result,
        })
        .collect();
    println!(
        "{} positions, {FEATURES} features; search score K = {k_score:.6} per centi-seed",
        samples.len()
    );
    let default = scale.to_array().map(f64::from);
    let k_default = {
        let evals: Vec<(f64, f64)> = xs
            .iter()
            .zip(&ys)
            .map(|(x, &y)| (dot(x, &default), y))
            .collect();
        fit_k(&evals)
    };
    let default_scaled = default.map(|w| w * k_default);
    println!(
        "scale weights: K = {k_default:.6}, error {:.6}",
        error(&xs, &ys, &default_scaled)
    );

    // Adam, full batch, from zero.
    let (rate, beta1, beta2, eps) = (0.01, 0.9, 0.999, 1e-8);
    let mut w = [0f64; FEATURES];
    let mut m = [0f64; FEATURES];
    let mut v = [0f64; FEATURES];
    let n = xs.len() as f64;
    for t in 1..=iterations {
        let mut grad = [0f64; FEATURES];
        for (x, &y) in xs.iter().zip(&ys) {
            let p = sigmoid(dot(x, &w));
            let g = 2.0 * (p - y) * p * (1.0 - p);
            for (gi, xi) in grad.iter_mut().zip(x) {
                *gi += g * xi;
            }
        }
        for i in 0..FEATURES {
            if !mask[i] {
                continue;
            }
            let g = grad[i] / n;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let mh = m[i] / (1.0 - beta1.powi(t as i32));
            let vh = v[i] / (1.0 - beta2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if t % 500 == 0 {
            eprintln!("step {t}: error {:.6}", error(&xs, &ys, &w));
        }
    }
    let fitted_error = error(&xs, &ys, &w);
    let k = k_default;
    println!("fitted: K = {k:.6}, error {fitted_error:.6}");
    let scaled: Vec<i32> = w.iter().map(|wi| (wi / k).round() as i32).collect();
    for (name, (wi, si)) in FEATURE_NAMES.iter().zip(w.iter().zip(&scaled)) {
        println!("  {name:12} {si:6}   ({wi:+.5} logit)");
    }
    println!(
        "weights: {}",
        scaled
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let rounded = Weights::from_array(
        <[i32; FEATURES]>::try_from(scaled.as_slice()).expect("FEATURES weights"),
    );
    let rounded_scaled = rounded.to_array().map(|wi| f64::from(wi) * k);
    println!(
        "rounded weights: error {:.6}",
        error(&xs, &ys, &rounded_scaled)
    );
}
