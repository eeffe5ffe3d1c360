//! Trains Oware's evaluation network (`src/oware/net.rs`) and writes the quantized network
//! file, deterministically (one thread, every random choice drawn from `--seed`);
//! docs/evaluation.md has the commands that made `data/oware.nnue`:
//!
//! ```text
//! perfectplay tablebase build --seeds 20 --dir tb
//! cargo run --release --example tune_eval -- generate --games 8000 --seed 21 > games.txt
//! cargo run --release --example train_oware_net -- --dir tb --games games.txt --out data/oware.nnue
//! ```
//!
//! Positions come from two sources, each labelled with the mover's expected score (win 1, draw
//! 1/2, loss 0):
//! - the positions of self-play games (`--games`, the lines `DIAGRAM RESULT SCORE` of
//!   `tune_eval generate`): where the abapa tablebase of `--dir` decides the result (its bounds
//!   and the stores), that result; elsewhere `--lambda` times the game's result plus the rest
//!   times `sigmoid(K × score)`, the search's score at the scale `K` below;
//! - positions met on random walks from the start (`--walks`: random legal moves, each
//!   position after the second ply kept with probability 1/4) where the tablebase decides them.
//!
//! A position whose key is a multiple of 16 goes to validation, the rest to training. `K`, the
//! logit per hundredth of a seed, is the one for which `sigmoid(K × linear evaluation)` best fits
//! the training labels (`net::LOGIT_PER_CENTI_SEED` is set to it, so the network's output keeps
//! the linear evaluation's scale). The report gives each pass's errors, the validation errors of
//! the network, quantized, and of the linear evaluation, how often each ranks a won position
//! above a lost one, and the file's checksum.

#[path = "shared/perceptron.rs"]
mod perceptron;
#[path = "shared/selfplay_positions.rs"]
mod selfplay_positions;
#[path = "shared/texel.rs"]
mod texel;

use std::fs;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Parser;
use perceptron::{error, sigmoid, splitmix, write_network, Float, Run, Samples, Schedule};
use perfectplay::oware::net::{self, HIDDEN, INPUTS, LOGIT_PER_CENTI_SEED};
use perfectplay::oware::tablebase::{file, Tablebase};
use perfectplay::oware::{Board, RuleSet, Weights};
use selfplay_positions::read_samples;

/// Adam's `1 − β₁` and `1 − β₂` as the nearest floats (`perceptron::train`): the network of
/// `data/oware.nnue` was trained with these.
const MOMENTS: [f32; 2] = [0.1, 0.001];

#[derive(Parser)]
struct Args {
    /// The directory of the abapa layer files (`perfectplay tablebase build --dir DIR`).
    #[arg(long)]
    dir: PathBuf,
    /// Positions of self-play games (`tune_eval generate`'s lines); may be given again.
    #[arg(long)]
    games: Vec<PathBuf>,
    /// Weight of a game's result in the label of a position the tablebase does not decide
    /// (the rest: the search's score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Positions from random walks from the start, where the tablebase decides them.
    #[arg(long, default_value_t = 1_000_000)]
    walks: usize,
    #[command(flatten)]
    schedule: Schedule,
    /// The seed, the held-out sample (`DIAGRAM<TAB>win|draw|loss`, positions whose result the
    /// tablebase decides, for `src/oware/net.rs`'s tests) and the network's file.
    #[command(flatten)]
    run: Run,
}

/// The result the tablebase proves for the side to move, where its bounds and the stores
/// decide it: 1, 0.5 or 0.
fn proven(tb: &Tablebase, board: &Board) -> Option<f32> {
    let me = board.side_to_move();
    let diff = i32::from(board.store(me)) - i32::from(board.store(me.opponent()));
    let v = tb.probe(board)?;
    let (low, high) = (diff + i32::from(v.low), diff + i32::from(v.high));
    if low > 0 {
        Some(1.0)
    } else if high < 0 {
        Some(0.0)
    } else if low == 0 && high == 0 {
        Some(0.5)
    } else {
        None
    }
}

/// A labelled position, and whether its label is the tablebase's.
struct Labelled {
    board: Board,
    label: f32,
    exact: bool,
}

/// `count` positions met on random walks from the start that the tablebase decides.
fn walk(tb: &Tablebase, count: usize, state: &mut u64) -> Vec<Labelled> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::start(RuleSet::Abapa);
        let mut ply = 0;
        while board.outcome().is_none() && ply < 400 && out.len() < count {
            let moves = board.legal_move_list();
            let mv = moves.as_slice()[(splitmix(state) % moves.len() as u64) as usize];
            board = board.sow_and_capture(mv).0;
            ply += 1;
            if ply > 2 && board.outcome().is_none() && splitmix(state).is_multiple_of(4) {
                if let Some(label) = proven(tb, &board) {
                    out.push(Labelled {
                        board,
                        label,
                        exact: true,
                    });
                }
            }
        }
    }
    out
}

fn is_validation(board: &Board) -> bool {
    board.key().is_multiple_of(16)
}

/// The share of (won, lost) pairs of the exact positions of `set` (each won position with the
/// next lost one in order) where `score` ranks the won position higher (ties count half).
fn pair_accuracy(set: &[Labelled], score: impl Fn(&Board) -> i32) -> f64 {
    let exact = |l: f32| set.iter().filter(move |s| s.exact && s.label == l);
    let pairs: Vec<(i32, i32)> = exact(1.0)
        .zip(exact(0.0))
        .map(|(w, l)| (score(&w.board), score(&l.board)))
        .collect();
    let right: f64 = pairs
        .iter()
        .map(|(a, b)| match a.cmp(b) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .sum();
    right / pairs.len().max(1) as f64
}

fn samples(set: &[Labelled]) -> Samples {
    let mut s = Samples::default();
    for p in set {
        s.push(&net::active_inputs(&p.board), p.label);
    }
    s
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let (tb, problems) = file::load(&args.dir, RuleSet::Abapa, None);
    for p in &problems {
        eprintln!("warning: {p}");
    }
    let Some(seeds) = tb.seeds() else {
        bail!("no abapa layer in {}", args.dir.display());
    };
    let linear = Weights::linear();
    let mut state = args.run.seed;

    // The games first: K is fitted to their labels before the search scores are turned into
    // probabilities.
    let mut games = Vec::new();
    for path in &args.games {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        games.extend(read_samples(&text).with_context(|| format!("in {}", path.display()))?);
    }
    let decided: Vec<Option<f32>> = games.iter().map(|g| proven(&tb, &g.board)).collect();
    let walks = walk(&tb, args.walks, &mut state);
    let mut scored: Vec<(f64, f64)> = games
        .iter()
        .zip(&decided)
        .map(|(g, d)| {
            (
                f64::from(g.board.evaluate(&linear)),
                d.map_or(g.result, f64::from),
            )
        })
        .collect();
    scored.extend(
        walks
            .iter()
            .map(|w| (f64::from(w.board.evaluate(&linear)), f64::from(w.label))),
    );
    let k = texel::fit_k(&scored) as f32;
    eprintln!(
        "K = {k:.6} (the network's unit: net::LOGIT_PER_CENTI_SEED = {LOGIT_PER_CENTI_SEED})"
    );
    let lambda = args.lambda as f32;
    let games: Vec<Labelled> = games
        .iter()
        .zip(&decided)
        .map(|(g, d)| match d {
            Some(label) => Labelled {
                board: g.board,
                label: *label,
                exact: true,
            },
            None => Labelled {
                board: g.board,
                label: match g.score {
                    Some(s) => lambda * g.result as f32 + (1.0 - lambda) * sigmoid(k * s as f32),
                    None => g.result as f32,
                },
                exact: false,
            },
        })
        .collect();

    let (valid_games, train_games): (Vec<Labelled>, Vec<Labelled>) =
        games.into_iter().partition(|p| is_validation(&p.board));
    let (valid_walks, train_walks): (Vec<Labelled>, Vec<Labelled>) =
        walks.into_iter().partition(|p| is_validation(&p.board));
    args.run
        .write_holdout([&valid_games, &valid_walks].map(|set| {
            set.iter().filter(|p| p.exact).map(|p| {
                let value = match p.label {
                    1.0 => "win",
                    0.0 => "loss",
                    _ => "draw",
                };
                format!("{}\t{value}", p.board)
            })
        }))?;
    let mut train = samples(&train_games);
    for p in &train_walks {
        train.push(&net::active_inputs(&p.board), p.label);
    }
    let exact = train_games.iter().filter(|p| p.exact).count();
    eprintln!(
        "tablebase up to {seeds} seeds; training {} positions ({} of games, {exact} of them \
         decided by the tablebase; {} of walks), validation {} of games, {} of walks",
        train.len(),
        train_games.len(),
        train_walks.len(),
        valid_games.len(),
        valid_walks.len()
    );
    drop((train_games, train_walks));

    let (vg, vw) = (samples(&valid_games), samples(&valid_walks));
    let mut float = Float::<HIDDEN>::new(INPUTS, 0.1, &mut state);
    perceptron::train(
        &mut float,
        &train,
        &args.schedule,
        MOMENTS,
        &mut state,
        |epoch, loss, net| {
            let mut acc = [0.0; HIDDEN];
            let mut err = |s: &Samples| error(s, |i| sigmoid(net.forward(s.active(i), &mut acc)));
            eprintln!(
                "pass {:2}: training error {loss:.5}, validation: games {:.5}, walks {:.5}",
                epoch + 1,
                err(&vg),
                err(&vw)
            );
        },
    );

    let (q, wrote): (net::Network, _) = write_network(&float, net::MAGIC, &args.run.out)?;
    for (name, set, s) in [("games", &valid_games, &vg), ("walks", &valid_walks, &vw)] {
        let net_eval = |b: &Board| net::evaluate_with(&q, b);
        let lin_eval = |b: &Board| b.evaluate(&linear);
        println!(
            "{name} validation ({} positions): error of the network {:.5}, linear evaluation \
             {:.5}; won ranked above lost: network {:.4}, linear {:.4}",
            set.len(),
            error(s, |i| sigmoid(
                LOGIT_PER_CENTI_SEED * net_eval(&set[i].board) as f32
            )),
            error(s, |i| sigmoid(k * lin_eval(&set[i].board) as f32)),
            pair_accuracy(set, net_eval),
            pair_accuracy(set, lin_eval)
        );
    }
    println!("{wrote}");
    Ok(())
}
