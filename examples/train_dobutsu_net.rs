//! Trains Dobutsu Shogi's evaluation network (`src/dobutsu/net.rs`) on the exact values of the
//! solved game, deterministically (one thread, every random choice drawn from `--seed`), and
//! writes the quantized network file (docs/evaluation.md has the command that made
//! `data/dobutsu.nnue`):
//!
//! ```text
//! perfectplay solve dobutsu
//! cargo run --release --example train_dobutsu_net -- --out data/dobutsu.nnue
//! ```
//!
//! Positions are drawn uniformly from the solution's stored positions (every position reachable
//! from the start that the rules do not decide at once, mirror images merged): a random index
//! of the solution's index, kept if the solution stores it, mirrored at random; and positions
//! met on walks from the start, of random moves (`--walks`) or half of them the linear
//! evaluation's choice after one ply (`--guided-walks`). Separate draws before these give the
//! validation positions, kept where the training set does not hold them. Each position is
//! labelled with its value for the side to move (win 1, draw 1/2, loss 0). With `--games FILE`
//! (the lines of `tune_dobutsu generate`, `FEN<TAB>VALUE`) positions of played games are added
//! to the training set.
//!
//! The network's float twin is trained by Adam on minibatches to minimise the mean squared
//! error between `sigmoid(logit)` and the label; then quantized (`Network::quantize`). The
//! report gives each epoch's errors, the validation error of the quantized network and of the
//! linear evaluation (at its scale `K`), how often each ranks a won position above a lost one,
//! and the file's checksum.

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Parser;
use perfectplay::dobutsu::net::{self, Network, HIDDEN, INPUTS, LOGIT_PER_CENTI_CHICK, MAX_ACTIVE};
use perfectplay::dobutsu::solve::{file, Solution};
use perfectplay::dobutsu::{evaluate, Position, Weights};
use perfectplay::game::Outcome;
use perfectplay::nnue::{QA, WEIGHT_LIMIT};

#[derive(Parser)]
struct Args {
    /// The solution file (default: the engine's default place).
    #[arg(long)]
    solution: Option<PathBuf>,
    /// Training positions drawn from the solution.
    #[arg(long, default_value_t = 4_000_000)]
    samples: usize,
    /// Validation positions drawn from the solution (apart from the training ones).
    #[arg(long, default_value_t = 100_000)]
    validation: usize,
    /// Training positions from random walks from the start (see `walk`).
    #[arg(long, default_value_t = 4_000_000)]
    walks: usize,
    /// Training positions from guided walks (see `walk`): half the moves the linear evaluation's
    /// best after one ply, half at random.
    #[arg(long, default_value_t = 0)]
    guided_walks: usize,
    /// Validation positions from random walks (apart from the training ones).
    #[arg(long, default_value_t = 20_000)]
    walk_validation: usize,
    /// Writes this many positions of each validation set (`FEN<TAB>VALUE`, the first ones
    /// drawn) to `--holdout-out`: the held-out sample `src/dobutsu/net.rs`'s tests check.
    #[arg(long, default_value_t = 1000)]
    holdout: usize,
    /// Where to write the held-out sample.
    #[arg(long)]
    holdout_out: Option<PathBuf>,
    /// Positions of played games (`tune_dobutsu generate`'s lines), added to the training set.
    #[arg(long)]
    games: Option<PathBuf>,
    /// Seed of every random choice (positions, initial weights, order).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Passes over the training set.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions a step.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// Adam's step size (at the start; it falls to a tenth, cosine-shaped, by the end).
    #[arg(long, default_value_t = 0.002)]
    lr: f32,
    /// Where to write the network.
    #[arg(long)]
    out: PathBuf,
}

/// SplitMix64's step: the next state and its output. Written out so that the draw is the same on
/// every machine and crate version.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform float in [0, 1).
fn uniform(state: &mut u64) -> f32 {
    (splitmix(state) >> 40) as f32 / (1u64 << 24) as f32
}

/// Labelled positions: their active inputs, flat, and their labels.
#[derive(Default)]
struct Samples {
    inputs: Vec<u8>,
    ends: Vec<u32>,
    labels: Vec<f32>,
    positions: Vec<Position>,
}

impl Samples {
    fn push(&mut self, pos: &Position, label: f32) {
        let mut active = [0u16; MAX_ACTIVE];
        let n = net::active_inputs(pos, &mut active);
        self.inputs.extend(active[..n].iter().map(|&i| i as u8));
        self.ends.push(self.inputs.len() as u32);
        self.labels.push(label);
        self.positions.push(*pos);
    }
    fn len(&self) -> usize {
        self.labels.len()
    }
    fn active(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.inputs[start..self.ends[i] as usize]
    }
}

fn label(outcome: Outcome) -> f32 {
    match outcome {
        Outcome::Win => 1.0,
        Outcome::Draw => 0.5,
        Outcome::Loss => 0.0,
    }
}

/// `count` positions drawn uniformly from the solution's stored ones, by `state`.
fn draw(solution: &Solution, count: usize, state: &mut u64) -> Samples {
    let mut samples = Samples::default();
    let len = solution.index().len();
    while samples.len() < count {
        let i = splitmix(state) % len;
        let mut pos = solution.index().placement(i).position();
        // Each stored position once: an index whose placement is not its pair's representative
        // would find the representative's entry.
        if pos.outcome().is_some() || solution.index().index_of(&pos) != Some(i) {
            continue;
        }
        if splitmix(state) & 1 == 1 {
            pos = pos.mirrored();
        }
        if let Some(v) = solution.probe(&pos) {
            samples.push(&pos, label(v.outcome));
        }
    }
    samples
}

/// `count` positions met on random walks from the start: each walk a random length of up to 80
/// plies, each ply a random legal move among those after which the rules do not decide the game
/// (the Lion left en prise, a Try given up), every position after the first two plies kept with
/// probability 1/4 (so that one walk gives few of the positions kept). `guided`: half the moves
/// (drawn at random) are instead the one after which the linear evaluation is best for the
/// mover. These are closer to the positions of games than the uniform draw.
fn walk(solution: &Solution, count: usize, guided: bool, state: &mut u64) -> Samples {
    let linear = Weights::linear();
    let mut samples = Samples::default();
    let mut moves = Vec::new();
    while samples.len() < count {
        let mut pos = Position::start();
        let length = splitmix(state) % 81;
        for ply in 0..length {
            moves.clear();
            pos.legal_moves(&mut moves);
            moves.retain(|&m| pos.play(m).0.outcome().is_none());
            if moves.is_empty() {
                break;
            }
            let mut pick = (splitmix(state) % moves.len() as u64) as usize;
            if guided && splitmix(state) & 1 == 0 {
                // The move after which the enemy's evaluation is lowest (the first such).
                let child = |m| -evaluate(&pos.play(m).0, &linear);
                pick = (0..moves.len())
                    .max_by_key(|&i| (child(moves[i]), std::cmp::Reverse(i)))
                    .expect("a move");
            }
            pos = pos.play(moves[pick]).0;
            if ply >= 2 && splitmix(state).is_multiple_of(4) && samples.len() < count {
                if let Some(v) = solution.probe(&pos) {
                    samples.push(&pos, label(v.outcome));
                }
            }
        }
    }
    samples
}

/// Lines `FEN<TAB>win N|loss N|draw` added to `samples`.
fn read_games(text: &str, samples: &mut Samples) -> anyhow::Result<usize> {
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let (fen, value) = line
            .split_once('\t')
            .with_context(|| format!("line {}: no tab", i + 1))?;
        let pos = Position::from_fen(fen).with_context(|| format!("line {}", i + 1))?;
        let outcome = match value.split(' ').next() {
            Some("win") => Outcome::Win,
            Some("loss") => Outcome::Loss,
            Some("draw") => Outcome::Draw,
            _ => bail!("line {}: value '{value}'", i + 1),
        };
        samples.push(&pos, label(outcome));
        n += 1;
    }
    Ok(n)
}

/// The float network the trainer holds.
#[derive(Clone)]
struct Float {
    w1: Vec<[f32; HIDDEN]>,
    b1: [f32; HIDDEN],
    w2: [f32; HIDDEN],
    b2: f32,
}

impl Float {
    fn new(state: &mut u64) -> Float {
        // Inputs: about 30 active, so a hidden unit's sum starts within about ±0.5.
        let r1 = 0.1;
        let w1 = (0..INPUTS)
            .map(|_| std::array::from_fn(|_| (2.0 * uniform(state) - 1.0) * r1))
            .collect();
        let b1 = [0.25; HIDDEN];
        let w2 = std::array::from_fn(|_| (2.0 * uniform(state) - 1.0) * 0.5);
        Float {
            w1,
            b1,
            w2,
            b2: 0.0,
        }
    }

    fn params(&self) -> usize {
        INPUTS * HIDDEN + 2 * HIDDEN + 1
    }

    /// The hidden sums and the logit.
    fn forward(&self, active: &[u8], acc: &mut [f32; HIDDEN]) -> f32 {
        *acc = self.b1;
        for &i in active {
            for (a, w) in acc.iter_mut().zip(&self.w1[i as usize]) {
                *a += w;
            }
        }
        let mut z = self.b2;
        for (a, w) in acc.iter().zip(&self.w2) {
            z += a.clamp(0.0, 1.0) * w;
        }
        z
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adam's moments over a flat parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, params: &mut [&mut f32], grads: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (k, p) in params.iter_mut().enumerate() {
            let g = grads[k];
            self.m[k] = B1 * self.m[k] + (1.0 - B1) * g;
            self.v[k] = B2 * self.v[k] + (1.0 - B2) * g * g;
            **p -= lr * (self.m[k] / c1) / ((self.v[k] / c2).sqrt() + 1e-8);
        }
    }
}

/// The mean squared error of `predict` (a probability) over `samples`.
fn error(samples: &Samples, mut predict: impl FnMut(usize) -> f32) -> f64 {
    let sum: f64 = (0..samples.len())
        .map(|i| {
            let d = f64::from(predict(i) - samples.labels[i]);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The share of (won, lost) pairs of `samples` (each won position with the next lost one in
/// order) where `score` ranks the won position higher (ties count half).
fn pair_accuracy(samples: &Samples, score: impl Fn(usize) -> f32) -> f64 {
    let won: Vec<usize> = (0..samples.len())
        .filter(|&i| samples.labels[i] == 1.0)
        .collect();
    let lost: Vec<usize> = (0..samples.len())
        .filter(|&i| samples.labels[i] == 0.0)
        .collect();
    let pairs = won.len().min(lost.len());
    let mut right = 0.0;
    for k in 0..pairs {
        let (a, b) = (score(won[k]), score(lost[k]));
        right += if a > b {
            1.0
        } else if a == b {
            0.5
        } else {
            0.0
        };
    }
    right / pairs as f64
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let path = match args.solution {
        Some(path) => path,
        None => file::default_path().context("no default place for the solution")?,
    };
    let solution =
        file::load(&path).with_context(|| format!("loading the solution {}", path.display()))?;
    let mut state = args.seed;
    let valid = draw(&solution, args.validation, &mut state);
    let valid_walks = walk(&solution, args.walk_validation, false, &mut state);
    let mut train = draw(&solution, args.samples, &mut state);
    let walks = walk(&solution, args.walks, false, &mut state);
    let guided = walk(&solution, args.guided_walks, true, &mut state);
    for set in [&walks, &guided] {
        for i in 0..set.len() {
            train.push(&set.positions[i], set.labels[i]);
        }
    }
    // The validation sets keep only positions the training set does not hold (mirror images
    // and sides to move merged): the common positions of the openings stay in training.
    let trained: HashSet<u64> = train
        .positions
        .iter()
        .map(|p| p.normalized().canonical().key())
        .collect();
    let unseen = |set: &Samples| {
        let mut kept = Samples::default();
        for i in 0..set.len() {
            if !trained.contains(&set.positions[i].normalized().canonical().key()) {
                kept.push(&set.positions[i], set.labels[i]);
            }
        }
        kept
    };
    let (valid, valid_walks) = (unseen(&valid), unseen(&valid_walks));
    drop(trained);
    if let Some(path) = &args.holdout_out {
        let mut text = String::new();
        for set in [&valid, &valid_walks] {
            for i in 0..args.holdout.min(set.len()) {
                let v = solution
                    .probe(&set.positions[i])
                    .expect("a stored position");
                text.push_str(&format!("{}\t{v}\n", set.positions[i].to_fen()));
            }
        }
        fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(games) = &args.games {
        let text =
            fs::read_to_string(games).with_context(|| format!("reading {}", games.display()))?;
        let n = read_games(&text, &mut train)?;
        eprintln!("{n} positions of games added");
    }
    let count = |s: &Samples, l: f32| s.labels.iter().filter(|&&x| x == l).count();
    eprintln!(
        "training {} positions ({} won, {} drawn, {} lost), validation {}",
        train.len(),
        count(&train, 1.0),
        count(&train, 0.5),
        count(&train, 0.0),
        valid.len()
    );

    let mut net = Float::new(&mut state);
    let mut adam = Adam {
        m: vec![0.0; net.params()],
        v: vec![0.0; net.params()],
        t: 0,
    };
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let steps_per_epoch = train.len().div_ceil(args.batch);
    let total_steps = (steps_per_epoch * args.epochs) as f32;
    let mut grads = vec![0.0f32; net.params()];
    let mut step = 0;
    for epoch in 0..args.epochs {
        for i in (1..order.len()).rev() {
            let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut loss = 0.0f64;
        for batch in order.chunks(args.batch) {
            grads.iter_mut().for_each(|g| *g = 0.0);
            let (gw1, rest) = grads.split_at_mut(INPUTS * HIDDEN);
            let (gb1, rest) = rest.split_at_mut(HIDDEN);
            let (gw2, gb2) = rest.split_at_mut(HIDDEN);
            let mut acc = [0.0; HIDDEN];
            for &s in batch {
                let active = train.active(s as usize);
                let z = net.forward(active, &mut acc);
                let p = sigmoid(z);
                let d = p - train.labels[s as usize];
                loss += f64::from(d * d);
                let dz = 2.0 * d * p * (1.0 - p) / batch.len() as f32;
                gb2[0] += dz;
                let mut dh = [0.0f32; HIDDEN];
                for h in 0..HIDDEN {
                    let a = acc[h];
                    gw2[h] += dz * a.clamp(0.0, 1.0);
                    if a > 0.0 && a < 1.0 {
                        dh[h] = dz * net.w2[h];
                    }
                }
                for (g, d) in gb1.iter_mut().zip(&dh) {
                    *g += d;
                }
                for &i in active {
                    let row = &mut gw1[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
                    for (g, d) in row.iter_mut().zip(&dh) {
                        *g += d;
                    }
                }
            }
            let progress = step as f32 / total_steps;
            let lr = args.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let mut params: Vec<&mut f32> = net
                .w1
                .iter_mut()
                .flatten()
                .chain(net.b1.iter_mut())
                .chain(net.w2.iter_mut())
                .chain(std::iter::once(&mut net.b2))
                .collect();
            adam.step(&mut params, &grads, lr);
            // Weights within what the quantized network holds (`WEIGHT_LIMIT`, and an
            // i16 at scale QB).
            let limit = WEIGHT_LIMIT as f32 / QA as f32;
            for w in net.w1.iter_mut().flatten().chain(net.b1.iter_mut()) {
                *w = w.clamp(-limit, limit);
            }
            for w in net.w2.iter_mut() {
                *w = w.clamp(-100.0, 100.0);
            }
            step += 1;
        }
        let mut acc = [0.0; HIDDEN];
        let v = error(&valid, |i| sigmoid(net.forward(valid.active(i), &mut acc)));
        let w = error(&valid_walks, |i| {
            sigmoid(net.forward(valid_walks.active(i), &mut acc))
        });
        eprintln!(
            "epoch {:2}: training error {:.5}, validation {:.5}, walks {:.5}",
            epoch + 1,
            loss / train.len() as f64,
            v,
            w
        );
    }

    let q = Network::quantize(&net.w1, &net.b1, &net.w2, net.b2);
    let bytes = q.to_bytes(net::MAGIC);
    fs::write(&args.out, &bytes).with_context(|| format!("writing {}", args.out.display()))?;
    let mut sum = perfectplay::retro::file::Checksum::default();
    sum.update(&bytes);

    let k = LOGIT_PER_CENTI_CHICK;
    let linear = Weights::linear();
    for (name, set) in [("uniform", &valid), ("walks", &valid_walks)] {
        let net_eval = |i: usize| net::evaluate_with(&q, &set.positions[i]) as f32;
        let lin_eval = |i: usize| evaluate(&set.positions[i], &linear) as f32;
        let mut acc = [0.0; HIDDEN];
        println!(
            "{name} validation ({} positions): error of the network {:.5}, quantized {:.5}, \
             linear evaluation {:.5}; won ranked above lost: network {:.4}, linear {:.4}",
            set.len(),
            error(set, |i| sigmoid(net.forward(set.active(i), &mut acc))),
            error(set, |i| sigmoid(k * net_eval(i))),
            error(set, |i| sigmoid(k * lin_eval(i))),
            pair_accuracy(set, net_eval),
            pair_accuracy(set, lin_eval)
        );
    }
    println!(
        "wrote {} ({} bytes, checksum {:016x})",
        args.out.display(),
        bytes.len(),
        sum.finish()
    );
    Ok(())
}
