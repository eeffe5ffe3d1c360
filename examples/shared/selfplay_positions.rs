//! The positions `tune_eval generate` writes, read back (`tune_eval` and `train_oware_net`
//! share them): one a line, `DIAGRAM RESULT SCORE`.

use anyhow::{bail, Context};
use perfectplay::oware::Board;

/// A quiet position with its game's result for the side to move, and its search score.
pub struct Sample {
    pub board: Board,
    pub result: f64,
    pub score: Option<i32>,
}

/// The positions of a file, in order; an error names the first bad line.
pub fn read_samples(text: &str) -> anyhow::Result<Vec<Sample>> {
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [diagram, result, score] = words[..] else {
            bail!("line {}: expected DIAGRAM RESULT SCORE", i + 1);
        };
        let board: Board = diagram
            .parse()
            .with_context(|| format!("line {}: diagram", i + 1))?;
        let result: f64 = result
            .parse()
            .with_context(|| format!("line {}: result", i + 1))?;
        let score = match score {
            "-" => None,
            s => Some(
                s.parse()
                    .with_context(|| format!("line {}: score", i + 1))?,
            ),
        };
        samples.push(Sample {
            board,
            result,
            score,
        });
    }
    if samples.is_empty() {
        bail!("no positions");
    }
    Ok(samples)
}
