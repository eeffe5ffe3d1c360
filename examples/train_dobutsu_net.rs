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

#[path = "shared/perceptron.rs"]
mod perceptron;

#[path = "shared/dobutsu_solution.rs"]
mod dobutsu_solution;

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Parser;
use perceptron::{error, sigmoid, splitmix, write_network, Float, Run, Samples, Schedule};
use perfectplay::dobutsu::net::{self, HIDDEN, INPUTS, LOGIT_PER_CENTI_CHICK, MAX_ACTIVE};
use perfectplay::dobutsu::solve::Solution;
use perfectplay::dobutsu::{evaluate, Position, Weights};
use perfectplay::game::Outcome;

/// Adam's `1 − β₁` and `1 − β₂` computed in `f32`, not the nearest floats (`perceptron::train`):
/// the network of `data/dobutsu.nnue` was trained with these.
const MOMENTS: [f32; 2] = [1.0 - 0.9, 1.0 - 0.999];

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
    /// Positions of played games (`tune_dobutsu generate`'s lines), added to the training set.
    #[arg(long)]
    games: Option<PathBuf>,
    #[command(flatten)]
    schedule: Schedule,
    /// The seed, the held-out sample (`FEN<TAB>VALUE`, for `src/dobutsu/net.rs`'s tests) and
    /// the network's file.
    #[command(flatten)]
    run: Run,
}

/// Labelled positions: the network's inputs and the labels, and the positions.
#[derive(Default)]
struct Set {
    samples: Samples<u8>,
    positions: Vec<Position>,
}

impl Set {
    fn push(&mut self, pos: &Position, label: f32) {
        let mut active = [0u16; MAX_ACTIVE];
        let n = net::active_inputs(pos, &mut active);
        // 158 inputs: each fits a byte.
        let bytes: [u8; MAX_ACTIVE] = std::array::from_fn(|i| active[i] as u8);
        self.samples.push(&bytes[..n], label);
        self.positions.push(*pos);
    }
    fn len(&self) -> usize {
        self.samples.len()
    }
    fn labels(&self) -> &[f32] {
        &self.samples.labels
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
fn draw(solution: &Solution, count: usize, state: &mut u64) -> Set {
    let mut samples = Set::default();
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
fn walk(solution: &Solution, count: usize, guided: bool, state: &mut u64) -> Set {
    let linear = Weights::linear();
    let mut samples = Set::default();
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
fn read_games(text: &str, samples: &mut Set) -> anyhow::Result<usize> {
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

/// The share of (won, lost) pairs of `samples` (each won position with the next lost one in
/// order) where `score` ranks the won position higher (ties count half).
fn pair_accuracy(samples: &Set, score: impl Fn(usize) -> f32) -> f64 {
    let won: Vec<usize> = (0..samples.len())
        .filter(|&i| samples.labels()[i] == 1.0)
        .collect();
    let lost: Vec<usize> = (0..samples.len())
        .filter(|&i| samples.labels()[i] == 0.0)
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
    let solution = dobutsu_solution::load(args.solution.as_deref())?;
    let mut state = args.run.seed;
    let valid = draw(&solution, args.validation, &mut state);
    let valid_walks = walk(&solution, args.walk_validation, false, &mut state);
    let mut train = draw(&solution, args.samples, &mut state);
    let walks = walk(&solution, args.walks, false, &mut state);
    let guided = walk(&solution, args.guided_walks, true, &mut state);
    for set in [&walks, &guided] {
        for i in 0..set.len() {
            train.push(&set.positions[i], set.labels()[i]);
        }
    }
    // The validation sets keep only positions the training set does not hold (mirror images
    // and sides to move merged): the common positions of the openings stay in training.
    let trained: HashSet<u64> = train
        .positions
        .iter()
        .map(|p| p.normalized().canonical().key())
        .collect();
    let unseen = |set: &Set| {
        let mut kept = Set::default();
        for i in 0..set.len() {
            if !trained.contains(&set.positions[i].normalized().canonical().key()) {
                kept.push(&set.positions[i], set.labels()[i]);
            }
        }
        kept
    };
    let (valid, valid_walks) = (unseen(&valid), unseen(&valid_walks));
    drop(trained);
    args.run.write_holdout([&valid, &valid_walks].map(|set| {
        set.positions.iter().map(|pos| {
            let v = solution.probe(pos).expect("a stored position");
            format!("{}\t{v}", pos.to_fen())
        })
    }))?;
    if let Some(games) = &args.games {
        let text =
            fs::read_to_string(games).with_context(|| format!("reading {}", games.display()))?;
        let n = read_games(&text, &mut train)?;
        eprintln!("{n} positions of games added");
    }
    let count = |s: &Set, l: f32| s.labels().iter().filter(|&&x| x == l).count();
    eprintln!(
        "training {} positions ({} won, {} drawn, {} lost), validation {}",
        train.len(),
        count(&train, 1.0),
        count(&train, 0.5),
        count(&train, 0.0),
        valid.len()
    );

    // Inputs: about 30 active, so a hidden unit's sum starts within about ±0.5.
    let mut float = Float::<HIDDEN>::new(INPUTS, 0.1, &mut state);
    perceptron::train(
        &mut float,
        &train.samples,
        &args.schedule,
        MOMENTS,
        &mut state,
        |epoch, loss, net| {
            let mut acc = [0.0; HIDDEN];
            let mut err =
                |s: &Samples<u8>| error(s, |i| sigmoid(net.forward(s.active(i), &mut acc)));
            eprintln!(
                "epoch {:2}: training error {loss:.5}, validation {:.5}, walks {:.5}",
                epoch + 1,
                err(&valid.samples),
                err(&valid_walks.samples)
            );
        },
    );

    let (q, wrote): (net::Network, _) = write_network(&float, net::MAGIC, &args.run.out)?;

    let k = LOGIT_PER_CENTI_CHICK;
    let linear = Weights::linear();
    for (name, set) in [("uniform", &valid), ("walks", &valid_walks)] {
        let net_eval = |i: usize| net::evaluate_with(&q, &set.positions[i]) as f32;
        let lin_eval = |i: usize| evaluate(&set.positions[i], &linear) as f32;
        let (s, mut acc) = (&set.samples, [0.0; HIDDEN]);
        println!(
            "{name} validation ({} positions): error of the network {:.5}, quantized {:.5}, \
             linear evaluation {:.5}; won ranked above lost: network {:.4}, linear {:.4}",
            set.len(),
            error(s, |i| sigmoid(float.forward(s.active(i), &mut acc))),
            error(s, |i| sigmoid(k * net_eval(i))),
            error(s, |i| sigmoid(k * lin_eval(i))),
            pair_accuracy(set, net_eval),
            pair_accuracy(set, lin_eval)
        );
    }
    println!("{wrote}");
    Ok(())
}
