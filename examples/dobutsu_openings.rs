//! Writes Dobutsu Shogi openings as an EPD file in cutechess's FEN form, for
//! `cutechess-cli -openings file=FILE format=epd` (see `scripts/cutechess-dobutsu.sh`).
//!
//! Each line is the position after `--plies` random legal moves from the start (the match
//! runner's opening generator: no game ended, no Lion left to be captured), written as cutechess
//! writes Dobutsu positions, `board[hand] side - movenumber` (`g1e/1l1/1c1/ELG[C] b - 1`; an
//! empty hand `[-]`), so that cutechess reads it and sends it back to the engines in that form.
//! `data/dobutsu-openings.epd` was written with
//!
//! ```text
//! cargo run --release --example dobutsu_openings > data/dobutsu-openings.epd
//! ```

use std::io::{self, Write};

use anyhow::Context;
use clap::Parser;
use perfectplay::arena::runner::random_openings;
use perfectplay::dobutsu::Position;
use perfectplay::game::{GameState, Notation};

/// Prints random Dobutsu openings, one EPD line each.
#[derive(Parser)]
struct Args {
    /// Openings to write.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Random plies from the start.
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 17)]
    seed: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let rules = Default::default();
    let mut out = io::stdout().lock();
    for (n, opening) in random_openings::<Position>(args.count, args.plies, args.seed, &rules)
        .iter()
        .enumerate()
    {
        let mut game = GameState::new(opening.start, rules);
        game.play_all(&opening.moves)
            .map_err(|(i, e)| anyhow::anyhow!("opening {}, move {}: {e}", n + 1, i + 1))?;
        // Fairy-Stockfish's form, `board[hand] side - - halfmove fullmove`, cut to cutechess's.
        let fen = game
            .position()
            .write_position_with_counters(game.counters());
        let words: Vec<&str> = fen.split(' ').collect();
        let board = words[0].replace("[]", "[-]");
        writeln!(out, "{board} {} - {}", words[1], words[5]).context("writing to stdout")?;
    }
    Ok(())
}
