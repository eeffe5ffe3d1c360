//! The float twin of a [`perfectplay::nnue::Network`] that a trainer holds (binary inputs, one
//! hidden layer with a clipped ReLU, one output: the logit of the expected score), its training
//! by Adam on minibatches of the mean squared error between `sigmoid(logit)` and the label, and
//! the seeded random draws the trainers share (`train_oware_net`, `train_dobutsu_net`).

use std::path::{Path, PathBuf};

use anyhow::Context;
use perfectplay::nnue::{Network, QA, WEIGHT_LIMIT};

/// SplitMix64's step: the next state and its output. Written out so that the draw is the same on
/// every machine and crate version.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform float in [0, 1).
pub fn uniform(state: &mut u64) -> f32 {
    (splitmix(state) >> 40) as f32 / (1u64 << 24) as f32
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Labelled positions as their active inputs (flat, each an input index of type `T`: `u8`
/// holds a network of up to 256 inputs in half the memory) and labels (0 to 1).
pub struct Samples<T = u16> {
    inputs: Vec<T>,
    ends: Vec<u32>,
    /// The label of each.
    pub labels: Vec<f32>,
}

impl<T> Default for Samples<T> {
    fn default() -> Self {
        Samples {
            inputs: Vec::new(),
            ends: Vec::new(),
            labels: Vec::new(),
        }
    }
}

impl<T: Copy> Samples<T> {
    /// Adds a position of these active inputs.
    pub fn push(&mut self, active: &[T], label: f32) {
        self.inputs.extend_from_slice(active);
        self.ends.push(self.inputs.len() as u32);
        self.labels.push(label);
    }
    /// How many.
    pub fn len(&self) -> usize {
        self.labels.len()
    }
    /// The active inputs of sample `i`.
    pub fn active(&self, i: usize) -> &[T] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.inputs[start..self.ends[i] as usize]
    }
}

/// The float network: `w1[input][hidden]`.
#[derive(Clone)]
pub struct Float<const H: usize> {
    pub w1: Vec<[f32; H]>,
    pub b1: [f32; H],
    pub w2: [f32; H],
    pub b2: f32,
}

impl<const H: usize> Float<H> {
    /// Random input weights within ±`r1`, hidden biases 0.25, output weights within ±0.5.
    pub fn new(inputs: usize, r1: f32, state: &mut u64) -> Float<H> {
        let w1 = (0..inputs)
            .map(|_| std::array::from_fn(|_| (2.0 * uniform(state) - 1.0) * r1))
            .collect();
        let w2 = std::array::from_fn(|_| (2.0 * uniform(state) - 1.0) * 0.5);
        Float {
            w1,
            b1: [0.25; H],
            w2,
            b2: 0.0,
        }
    }

    fn params(&self) -> usize {
        self.w1.len() * H + 2 * H + 1
    }

    /// The hidden sums into `acc`, and the logit.
    pub fn forward<T: Copy + Into<usize>>(&self, active: &[T], acc: &mut [f32; H]) -> f32 {
        *acc = self.b1;
        for &i in active {
            for (a, w) in acc.iter_mut().zip(&self.w1[i.into()]) {
                *a += w;
            }
        }
        let mut z = self.b2;
        for (a, w) in acc.iter().zip(&self.w2) {
            z += a.clamp(0.0, 1.0) * w;
        }
        z
    }

    /// The quantized network.
    pub fn quantize<const I: usize>(&self) -> Network<I, H> {
        Network::quantize(&self.w1, &self.b1, &self.w2, self.b2)
    }
}

/// Quantizes `float` and writes its file under `magic` to `path`; returns the quantized network
/// and the line that reports the file: its path, length and checksum (the
/// `perfectplay::retro::file::Checksum` the engine's tests hold the committed files to).
pub fn write_network<const I: usize, const H: usize>(
    float: &Float<H>,
    magic: &[u8; 4],
    path: &Path,
) -> anyhow::Result<(Network<I, H>, String)> {
    let net: Network<I, H> = float.quantize();
    let bytes = net.to_bytes(magic);
    std::fs::write(path, &bytes).with_context(|| format!("writing {}", path.display()))?;
    let mut sum = perfectplay::retro::file::Checksum::default();
    sum.update(&bytes);
    let line = format!(
        "wrote {} ({} bytes, checksum {:016x})",
        path.display(),
        bytes.len(),
        sum.finish()
    );
    Ok((net, line))
}

/// The mean squared error of `predict` (a probability) over `samples`.
pub fn error<T: Copy>(samples: &Samples<T>, mut predict: impl FnMut(usize) -> f32) -> f64 {
    let sum: f64 = (0..samples.len())
        .map(|i| {
            let d = f64::from(predict(i) - samples.labels[i]);
            d * d
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// How a network is trained: the trainers' command-line options (with no text of their own
/// for the trainer's help).
#[derive(clap::Args)]
#[command(about = None, long_about = None)]
pub struct Schedule {
    /// Passes over the training set.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions a step.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Adam's step size (at the start; it falls to a tenth, cosine-shaped, by the end).
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
}

/// What a trainer's run is seeded with and what it writes: the trainers' other shared options.
#[derive(clap::Args)]
#[command(about = None, long_about = None)]
pub struct Run {
    /// Seed of every random choice (positions, initial weights, order).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Writes this many validation positions of each source (the first ones drawn whose value
    /// is exact, one a line: the position, a tab, its value) to `--holdout-out`: the held-out
    /// sample the game's network tests check.
    #[arg(long, default_value_t = 1000)]
    pub holdout: usize,
    /// Where to write the held-out sample.
    #[arg(long)]
    pub holdout_out: Option<PathBuf>,
    /// Where to write the network.
    #[arg(long)]
    pub out: PathBuf,
}

impl Run {
    /// Writes the first `--holdout` lines of each of `sets` to `--holdout-out`, if given.
    pub fn write_holdout<L: Iterator<Item = String>>(
        &self,
        sets: impl IntoIterator<Item = L>,
    ) -> anyhow::Result<()> {
        let Some(path) = &self.holdout_out else {
            return Ok(());
        };
        let mut text = String::new();
        for set in sets {
            for line in set.take(self.holdout) {
                text.push_str(&line);
                text.push('\n');
            }
        }
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
    }
}

/// Trains `net` on `train` by Adam, the order of each pass shuffled by `state`; after each
/// pass calls `report(pass, training error, &net)`. `moments` are the weights of a new gradient
/// in Adam's two moving averages, `1 − β₁` and `1 − β₂` (β₁ = 0.9, β₂ = 0.999): each trainer
/// gives them as its committed network was trained (the nearest floats, or `1.0 - 0.9`
/// computed in `f32`, which rounds otherwise), so that the same command writes the same file.
pub fn train<const H: usize, T: Copy + Into<usize>>(
    net: &mut Float<H>,
    train: &Samples<T>,
    schedule: &Schedule,
    moments: [f32; 2],
    state: &mut u64,
    mut report: impl FnMut(usize, f64, &Float<H>),
) {
    let inputs = net.w1.len();
    let params = net.params();
    let (mut m, mut v) = (vec![0.0f32; params], vec![0.0f32; params]);
    let mut grads = vec![0.0f32; params];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let total_steps = (train.len().div_ceil(schedule.batch) * schedule.epochs) as f32;
    let mut step = 0;
    for epoch in 0..schedule.epochs {
        for i in (1..order.len()).rev() {
            let j = (splitmix(state) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut loss = 0.0f64;
        for batch in order.chunks(schedule.batch) {
            grads.iter_mut().for_each(|g| *g = 0.0);
            let (gw1, rest) = grads.split_at_mut(inputs * H);
            let (gb1, rest) = rest.split_at_mut(H);
            let (gw2, gb2) = rest.split_at_mut(H);
            let mut acc = [0.0; H];
            for &s in batch {
                let active = train.active(s as usize);
                let p = sigmoid(net.forward(active, &mut acc));
                let d = p - train.labels[s as usize];
                loss += f64::from(d * d);
                let dz = 2.0 * d * p * (1.0 - p) / batch.len() as f32;
                gb2[0] += dz;
                let mut dh = [0.0f32; H];
                for h in 0..H {
                    gw2[h] += dz * acc[h].clamp(0.0, 1.0);
                    if acc[h] > 0.0 && acc[h] < 1.0 {
                        dh[h] = dz * net.w2[h];
                    }
                }
                for (g, d) in gb1.iter_mut().zip(&dh) {
                    *g += d;
                }
                for &i in active {
                    let row = &mut gw1[i.into() * H..(i.into() + 1) * H];
                    for (g, d) in row.iter_mut().zip(&dh) {
                        *g += d;
                    }
                }
            }
            step += 1;
            let progress = (step - 1) as f32 / total_steps;
            let lr =
                schedule.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let (c1, c2) = (1.0 - 0.9f32.powi(step), 1.0 - 0.999f32.powi(step));
            let all = net
                .w1
                .iter_mut()
                .flatten()
                .chain(net.b1.iter_mut())
                .chain(net.w2.iter_mut())
                .chain(std::iter::once(&mut net.b2));
            for (k, p) in all.enumerate() {
                let g = grads[k];
                m[k] = 0.9 * m[k] + moments[0] * g;
                v[k] = 0.999 * v[k] + moments[1] * g * g;
                *p -= lr * (m[k] / c1) / ((v[k] / c2).sqrt() + 1e-8);
            }
            // Weights within what the quantized network holds (`WEIGHT_LIMIT`, and an i16 at
            // scale QB).
            let limit = WEIGHT_LIMIT as f32 / QA as f32;
            for w in net.w1.iter_mut().flatten().chain(net.b1.iter_mut()) {
                *w = w.clamp(-limit, limit);
            }
            for w in net.w2.iter_mut() {
                *w = w.clamp(-100.0, 100.0);
            }
        }
        report(epoch, loss / train.len() as f64, net);
    }
}
