//! Match statistics: score, Elo difference with a confidence interval, likelihood of superiority
//! (LOS), pentanomial pair counts and the sequential probability ratio test (SPRT).
//!
//! Elo here is logistic Elo: a score `s` (0..1, a draw counting one half) corresponds to
//! `-400 log10(1/s - 1)` Elo. Confidence intervals come from the normal approximation of the mean
//! score, with the variance estimated from the trinomial (win/draw/loss per game) or pentanomial
//! (score of a pair of games with colours swapped) counts, as cutechess-cli and fishtest do, plus a
//! small-sample term that keeps the interval honest over a handful of games (a Wilson-type score
//! interval, see [`Trinomial::elo`]). The SPRT
//! is the generalised SPRT with the normal approximation of the log-likelihood ratio described by
//! M. Van den Bergh ("A practical introduction to the GSPRT"), fishtest's `LLR_alt2`, on logistic Elo
//! bounds.

use std::fmt;
use std::str::FromStr;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference for an expected score `score` (0..1): `-400 log10(1/score - 1)`. Gives
/// `-inf` at 0 and `+inf` at 1 (and NaN outside 0..1).
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score (0..1) of a player `elo` Elo stronger: `1 / (1 + 10^(-elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, accurate to about 1e-15 (a Taylor series near zero, a continued fraction for
/// the complement further out).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let value = if a < 2.5 {
        erf_series(a)
    } else {
        1.0 - erfc_continued_fraction(a)
    };
    value.copysign(x)
}

/// `erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))`, summed until the terms vanish.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x; // (-1)^n x^(2n+1) / n!
    let mut sum = x;
    for n in 1..200 {
        term *= -x2 / n as f64;
        let add = term / (2 * n + 1) as f64;
        sum += add;
        if add.abs() < 1e-17 * sum.abs() {
            break;
        }
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

/// `erfc(x)` for `x >= 2.5` by the Laplace continued fraction, evaluated backwards.
fn erfc_continued_fraction(x: f64) -> f64 {
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
    let mut f = x;
    for k in (1..60).rev() {
        f = x + (k as f64 / 2.0) / f;
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// The standard normal distribution function, `P(Z <= x)`.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Likelihood of superiority: the probability that the player with `wins` wins and `losses`
/// losses (draws do not count) is the stronger one, `0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`, as
/// cutechess-cli reports it. 0.5 when there is no decisive game.
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * (wins + losses) as f64).sqrt()))
}

/// Results of single games from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game (0..1); 0.5 before any game.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        self.points() / self.games() as f64
    }

    /// Counts in the order of [`TRINOMIAL_SCORES`] (losses, draws, wins).
    fn counts(&self) -> [f64; 3] {
        [self.losses as f64, self.draws as f64, self.wins as f64]
    }

    /// Elo difference and its 95% confidence interval from the per-game score variance and a
    /// small-sample term: the mean scores `p` with `(mean - p)^2 <= z^2 v(p) / n`, where `v(p)` is
    /// the sample variance plus `k/n` times `p (1 - p)` (the largest variance of a score with mean
    /// `p`), `k` = [`SMALL_SAMPLE_WEIGHT`]. The interval is never empty of width, and for two won
    /// games out of two it is Wilson's. `None` before any game.
    pub fn elo(&self) -> Option<EloEstimate> {
        elo_estimate(&self.counts(), &TRINOMIAL_SCORES, Z95)
    }
}

/// Scores of a loss, a draw and a win.
const TRINOMIAL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];
/// Mean scores of a pair of games scoring 0, 1/2, 1, 3/2 or 2 points.
const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Results of game pairs (the same opening played twice with colours swapped) from the first
/// player's point of view: `counts[k]` pairs scored `k` half points (0 = two losses, 1 = a loss and a
/// draw, 2 = two draws or a win and a loss, 3 = a win and a draw, 4 = two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by half points scored, 0..=4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts one pair that scored `half_points` (0..=4; larger values are clamped to 4).
    pub fn record(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score per game over the pairs (0..1); 0.5 before any pair.
    pub fn score(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.5;
        }
        let half_points: u64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| k as u64 * c)
            .sum();
        half_points as f64 / (4 * self.pairs()) as f64
    }

    fn counts_f64(&self) -> [f64; 5] {
        self.counts.map(|c| c as f64)
    }

    /// Elo difference and its 95% confidence interval from the per-pair score variance, with the
    /// small-sample term of [`Trinomial::elo`] (so that pairs all split 1-1, which have no sample
    /// variance, still get an interval); `None` before any pair.
    pub fn elo(&self) -> Option<EloEstimate> {
        elo_estimate(&self.counts_f64(), &PENTANOMIAL_SCORES, Z95)
    }
}

/// An Elo difference with a confidence interval, all in logistic Elo. Bounds may be infinite when
/// the interval of the score reaches 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate, from the mean score.
    pub elo: f64,
    /// Lower end of the interval.
    pub lower: f64,
    /// Upper end of the interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval (the `±` figure cutechess-cli prints).
    pub fn half_width(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

impl fmt::Display for EloEstimate {
    /// `+12.3 ± 45.6 [-30.1, +60.0]`; without the `±` when a bound is infinite (a score of 0 or
    /// 1 at the edge of the interval): `+250.0 [+120.5, +inf]`; and without a point estimate when
    /// every game was won or every game lost: `too few games for an estimate [-354.2, +inf]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.elo.is_finite() {
            write!(f, "too few games for an estimate ")?;
        } else if self.half_width().is_finite() {
            write!(f, "{:+.1} ± {:.1} ", self.elo, self.half_width())?;
        } else {
            write!(f, "{:+.1} ", self.elo)?;
        }
        write!(f, "[{:+.1}, {:+.1}]", self.lower, self.upper)
    }
}

/// Number of samples, mean and (population) variance of the values `values` seen `counts` times.
fn mean_and_variance(counts: &[f64], values: &[f64]) -> (f64, f64, f64) {
    let n: f64 = counts.iter().sum();
    let mean = counts.iter().zip(values).map(|(c, v)| c * v).sum::<f64>() / n;
    let var = counts
        .iter()
        .zip(values)
        .map(|(c, v)| c * (v - mean) * (v - mean))
        .sum::<f64>()
        / n;
    (n, mean, var)
}

/// Weight, in samples, of the small-sample term of the interval's variance (see [`Trinomial::elo`]).
pub const SMALL_SAMPLE_WEIGHT: f64 = 2.0;

/// The Elo difference for mean score `mean` (0..1) and its 95% interval: the mean scores `p` with
/// `(mean - p)^2 <= z^2 v(p) / n`, a Wilson-type score interval whose per-sample variance is
/// `v(p) = var + (k / n) p (1 - p)`: the sample variance `var` plus a small-sample term, `k` =
/// [`SMALL_SAMPLE_WEIGHT`] samples of the largest variance a score in 0..1 with mean `p` can have
/// (`p (1 - p)`, the Bhatia-Davis bound). Without the term (`k = 0`) this is the normal
/// interval `mean +- z sqrt(var / n)`; with it the interval never has zero width (a sample of equal
/// scores has no sample variance) and stays wide while `n` is small (two won games out of two give
/// Wilson's binomial interval), and the term fades as `1/n` against the sample variance.
fn elo_estimate(counts: &[f64], values: &[f64], z: f64) -> Option<EloEstimate> {
    let (n, mean, var) = mean_and_variance(counts, values);
    if n <= 0.0 {
        return None;
    }
    // (mean - p)^2 - a (var + c p (1 - p)) <= 0 with a = z^2/n, c = k/n: a quadratic in p.
    let (a, c) = (z * z / n, SMALL_SAMPLE_WEIGHT / n);
    let qa = 1.0 + a * c;
    let qb = 2.0 * mean + a * c;
    let qc = mean * mean - a * var;
    // The discriminant is at least (a c)^2 + 4 a (var + c mean (1 - mean)) > 0.
    let root = (qb * qb - 4.0 * qa * qc).max(0.0).sqrt();
    // The interval holds the mean (there the left side is 0); `min`/`max` keep rounding from
    // moving a bound of 0 or 1 off the edge.
    let lower = ((qb - root) / (2.0 * qa)).clamp(0.0, 1.0).min(mean);
    let upper = ((qb + root) / (2.0 * qa)).clamp(0.0, 1.0).max(mean);
    // `+ 0.0` turns the -0.0 of an even score into 0.0.
    Some(EloEstimate {
        elo: score_to_elo(mean) + 0.0,
        lower: score_to_elo(lower) + 0.0,
        upper: score_to_elo(upper) + 0.0,
    })
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1` (logistic Elo
/// of the first engine over the second), with false-positive rate `alpha` and false-negative rate
/// `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under the null hypothesis.
    pub elo0: f64,
    /// Elo difference under the alternative hypothesis (larger than `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (0..1).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (0..1).
    pub beta: f64,
}

/// What an SPRT says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The log-likelihood ratio is between the bounds: play on.
    Continue,
    /// The LLR reached the lower bound: H0 (Elo = `elo0` rather than `elo1`) accepted.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (Elo = `elo1` rather than `elo0`) accepted.
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

/// Why an SPRT specification could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// A word is not `key=value` with a known key and a number.
    #[error("'{0}' is not elo0=A, elo1=B, alpha=X or beta=Y")]
    Word(String),
    /// `elo0` and `elo1` are both required.
    #[error("the SPRT needs both elo0 and elo1")]
    MissingBound,
    /// The values do not make a test.
    #[error("the SPRT needs elo0 < elo1 and 0 < alpha, beta < 0.5 (found elo0={elo0} elo1={elo1} alpha={alpha} beta={beta})")]
    Range {
        /// The parsed elo0.
        elo0: f64,
        /// The parsed elo1.
        elo1: f64,
        /// The parsed alpha.
        alpha: f64,
        /// The parsed beta.
        beta: f64,
    },
}

impl Sprt {
    /// Parses words `elo0=A elo1=B alpha=X beta=Y` (any order, also comma separated; alpha and
    /// beta default to 0.05).
    ///
    /// # Errors
    /// [`SprtError`] for an unknown word, a missing Elo bound or values that make no test.
    pub fn from_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for word in words
            .into_iter()
            .flat_map(|w| w.split([',', ' ']))
            .filter(|w| !w.is_empty())
        {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError::Word(word.to_string()))?;
            let value: f64 = value
                .trim()
                .parse()
                .map_err(|_| SprtError::Word(word.to_string()))?;
            match key.trim().to_ascii_lowercase().as_str() {
                "elo0" => elo0 = Some(value),
                "elo1" => elo1 = Some(value),
                "alpha" => alpha = value,
                "beta" => beta = value,
                _ => return Err(SprtError::Word(word.to_string())),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(SprtError::MissingBound);
        };
        let valid = |p: f64| p > 0.0 && p < 0.5;
        if !(elo0 < elo1 && valid(alpha) && valid(beta) && elo0.is_finite() && elo1.is_finite()) {
            return Err(SprtError::Range {
                elo0,
                elo1,
                alpha,
                beta,
            });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The (lower, upper) bounds of the log-likelihood ratio: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)` (±2.94 for alpha = beta = 0.05).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 on single-game results.
    pub fn llr_trinomial(&self, results: &Trinomial) -> f64 {
        self.llr(&results.counts(), &TRINOMIAL_SCORES)
    }

    /// The log-likelihood ratio of H1 against H0 on game-pair results (the better model when games
    /// are paired: the two games of a pair are correlated through their opening).
    pub fn llr_pentanomial(&self, results: &Pentanomial) -> f64 {
        self.llr(&results.counts_f64(), &PENTANOMIAL_SCORES)
    }

    /// The normal approximation of the GSPRT's log-likelihood ratio:
    /// `N (s1 - s0) (2 mean - s0 - s1) / (2 var)`, with `s0`, `s1` the expected scores at `elo0`,
    /// `elo1` and `mean`, `var` the sample mean and variance of the `N` unit scores (games or
    /// pairs). Empty categories count as 0.001 so that the variance is never zero (as fishtest
    /// regularises); no result gives 0.
    fn llr(&self, counts: &[f64], values: &[f64]) -> f64 {
        if counts.iter().sum::<f64>() <= 0.0 {
            return 0.0;
        }
        let regularised: Vec<f64> = counts.iter().map(|&c| c.max(1e-3)).collect();
        let (n, mean, var) = mean_and_variance(&regularised, values);
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

impl FromStr for Sprt {
    type Err = SprtError;
    /// See [`Sprt::from_words`].
    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        Sprt::from_words(s.split_whitespace())
    }
}

impl fmt::Display for Sprt {
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    //! Reference values: the standard tables of erf and the normal distribution, and the formulas
    //! above evaluated by hand (Python's `math` module, step by step), plus the exact constrained
    //! maximum-likelihood GSPRT as a cross-check of the normal approximation.
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn erf_matches_tables() {
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (-0.3, -0.328_626_759_459_127_4),
            (3.0, 0.999_977_909_503_001_4),
            (5.0, 0.999_999_999_998_462_5),
        ] {
            assert!(
                close(erf(x), want, 1e-14),
                "erf({x}) = {} want {want}",
                erf(x)
            );
        }
        assert!(close(normal_cdf(Z95), 0.975, 1e-12));
        assert!(close(normal_cdf(2.0), 0.977_249_868_051_820_8, 1e-14));
        assert!(close(normal_cdf(-1.0), 0.158_655_253_931_457_05, 1e-14));
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(close(score_to_elo(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(score_to_elo(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_to_elo(0.5), 0.0, 1e-12));
        // The textbook figure: 100 Elo stronger expects 64.0% of the points.
        assert!(close(elo_to_score(100.0), 0.640_064_999_802_885_1, 1e-12));
        for elo in [-350.0, -20.0, 0.0, 3.5, 400.0] {
            assert!(close(score_to_elo(elo_to_score(elo)), elo, 1e-9));
        }
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn los_values() {
        // (W - L) / sqrt(2 (W + L)) = 20 / sqrt(200) = sqrt(2): LOS = Phi(2).
        assert!(close(los(60, 40), 0.977_249_868_051_820_8, 1e-12));
        // 10 / sqrt(200): LOS = Phi(1).
        assert!(close(los(55, 45), 0.841_344_746_068_542_9, 1e-12));
        assert_eq!(los(0, 0), 0.5);
        assert!(close(los(7, 7), 0.5, 1e-15));
        assert!(close(los(40, 60) + los(60, 40), 1.0, 1e-12));
    }

    #[test]
    fn trinomial_interval() {
        // 40 W, 20 D, 40 L: mean 0.5, per-game variance (40*0.25 + 40*0.25)/100 = 0.2; with the
        // small-sample term the bounds solve (0.5 - p)^2 = (z^2/100)(0.2 + 0.02 p (1 - p)): p =
        // 0.5 -+ 0.0888896..., Elo -+62.2992 (the plain normal interval would be -+61.5427).
        let t = Trinomial {
            wins: 40,
            draws: 20,
            losses: 40,
        };
        let e = t.elo().unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.lower, -62.299_205_609_667_32, 1e-9), "{e:?}");
        assert!(close(e.upper, 62.299_205_609_667_275, 1e-9));
        assert_eq!(e.to_string(), "+0.0 ± 62.3 [-62.3, +62.3]");
        let t = Trinomial {
            wins: 40,
            draws: 30,
            losses: 30,
        };
        let e = t.elo().unwrap();
        assert!(close(e.elo, 34.860_070_287_560_08, 1e-9));
        assert!(close(e.lower, -22.663_917_720_774_47, 1e-9));
        assert!(close(e.upper, 94.316_076_866_218_04, 1e-9));
        assert!(close(t.score(), 0.55, 1e-15));
        assert_eq!(Trinomial::default().elo(), None);
    }

    #[test]
    fn small_samples_get_honest_intervals() {
        // One won game: (1 - p)^2 = z^2 * 2 p (1 - p), so p = 1 / (1 + 2 z^2) = 0.11517...,
        // -354.2 Elo; no point estimate.
        let one = Trinomial {
            wins: 1,
            draws: 0,
            losses: 0,
        };
        assert_eq!(
            one.elo().unwrap().to_string(),
            "too few games for an estimate [-354.2, +inf]"
        );
        let lost = Trinomial {
            wins: 0,
            draws: 0,
            losses: 1,
        };
        assert_eq!(
            lost.elo().unwrap().to_string(),
            "too few games for an estimate [-inf, +354.2]"
        );
        // Two won games out of two: Wilson's interval, lower end 1 / (1 + z^2 / 2) = 0.34235...
        let two = Trinomial {
            wins: 2,
            draws: 0,
            losses: 0,
        };
        let e = two.elo().unwrap();
        let wilson = 1.0 / (1.0 + Z95 * Z95 / 2.0);
        assert!(close(e.lower, score_to_elo(wilson), 1e-9), "{e:?}");
        assert_eq!(
            e.to_string(),
            "too few games for an estimate [-113.4, +inf]"
        );
        let five = Trinomial {
            wins: 5,
            draws: 0,
            losses: 0,
        };
        assert_eq!(
            five.elo().unwrap().to_string(),
            "too few games for an estimate [+205.0, +inf]"
        );
        // Ten pairs, every one split 1-1: no sample variance, yet not a zero-width interval.
        // (0.5 - p)^2 = (z^2/10)(0.2 p (1 - p)): p = 0.5 -+ 0.13286..., -+95.1 Elo.
        let split = Pentanomial {
            counts: [0, 0, 10, 0, 0],
        };
        assert_eq!(
            split.elo().unwrap().to_string(),
            "+0.0 ± 95.1 [-95.1, +95.1]"
        );
        // Three pairs won twice over.
        let won = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        assert_eq!(
            won.elo().unwrap().to_string(),
            "too few games for an estimate [+27.5, +inf]"
        );
    }

    #[test]
    fn pentanomial_interval() {
        // Pairs [LL, LD, DD|WL, WD, WW] = [3, 12, 40, 25, 20]: mean 0.6175.
        let mut p = Pentanomial {
            counts: [3, 12, 40, 25, 20],
        };
        assert!(close(p.score(), 0.6175, 1e-15));
        let e = p.elo().unwrap();
        assert!(close(e.elo, 83.202_208_976_826_77, 1e-9));
        assert!(close(e.lower, 45.427_775_475_228_46, 1e-9), "{e:?}");
        assert!(close(e.upper, 122.878_061_760_914_45, 1e-9));
        let e = Pentanomial {
            counts: [5, 10, 20, 10, 5],
        }
        .elo()
        .unwrap();
        assert!(close(e.lower, -56.561_865_379_882_79, 1e-9), "{e:?}");
        // The same games counted as single games give a wider interval (pairs remove the opening's
        // share of the variance): 5 LL + 10 LD + 10 WL + 10 DD + 10 WD + 5 WW
        // = 40 W, 20 D, 40 L -> +-62.3 against +-56.6.
        let t = Trinomial {
            wins: 40,
            draws: 20,
            losses: 40,
        };
        assert!(t.elo().unwrap().half_width() > e.half_width());
        p.record(9);
        assert_eq!(p.counts[4], 21);
    }

    #[test]
    fn sprt_bounds() {
        let s: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.05".parse().unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979_166_440_3, 1e-12));
        assert!(close(hi, 2.944_438_979_166_440_3, 1e-12));
        let s = Sprt::from_words(["elo0=0,elo1=5,alpha=0.05,beta=0.1"]).unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.251_291_798_606_495, 1e-12));
        assert!(close(hi, 2.890_371_757_896_164_5, 1e-12));
        assert_eq!(s.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(s.decide(-2.3), SprtDecision::AcceptH0);
        assert_eq!(s.decide(0.0), SprtDecision::Continue);
        assert_eq!(Sprt::from_words(["elo0=0"]), Err(SprtError::MissingBound));
        assert!(matches!(
            Sprt::from_words(["elo0=5", "elo1=0"]),
            Err(SprtError::Range { .. })
        ));
        assert!(matches!(
            Sprt::from_words(["elo0=0", "elo1=5", "alpha=0.7"]),
            Err(SprtError::Range { .. })
        ));
        assert_eq!(
            Sprt::from_words(["elo=3"]),
            Err(SprtError::Word("elo=3".into()))
        );
    }

    #[test]
    fn sprt_llr_trinomial() {
        let s = Sprt::from_words(["elo0=0", "elo1=3"]).unwrap();
        // 4307 W, 8620 D, 4063 L: mean 0.507180..., variance 0.24568..., s0 = 0.5,
        // s1 = 0.504317...: LLR = 16990 * 0.004317 * 0.010043 / (2 * 0.24568) = 2.99221.
        let t = Trinomial {
            wins: 4307,
            draws: 8620,
            losses: 4063,
        };
        let llr = s.llr_trinomial(&t);
        assert!(close(llr, 2.992_212_838_504_888, 1e-9), "{llr}");
        // The exact constrained-MLE GSPRT gives 2.99129 on these counts.
        assert!(close(llr, 2.991_288_808_308_485, 0.01));
        let s = Sprt::from_words(["elo0=0", "elo1=20"]).unwrap();
        let t = Trinomial {
            wins: 40,
            draws: 30,
            losses: 30,
        };
        assert!(close(s.llr_trinomial(&t), 0.593_756_946_406_795_3, 1e-9));
        assert_eq!(s.llr_trinomial(&Trinomial::default()), 0.0);
    }

    #[test]
    fn sprt_llr_pentanomial() {
        let s = Sprt::from_words(["elo0=0", "elo1=5"]).unwrap();
        let p = Pentanomial {
            counts: [10, 100, 300, 120, 15],
        };
        let llr = s.llr_pentanomial(&p);
        assert!(close(llr, 1.091_709_977_020_124_4, 1e-9), "{llr}");
        assert!(close(llr, 1.089_002_214_645_727_4, 0.01), "exact MLE GSPRT");
        let s = Sprt::from_words(["elo0=-5", "elo1=0"]).unwrap();
        assert!(close(s.llr_pentanomial(&p), 1.864_535_525_639_453, 1e-9));
        let s = Sprt::from_words(["elo0=0", "elo1=10"]).unwrap();
        let p = Pentanomial {
            counts: [3, 12, 40, 25, 20],
        };
        assert!(close(s.llr_pentanomial(&p), 2.375_079_757_390_953, 1e-9));
        // Empty categories are regularised to 0.001 pairs, so three won pairs give a finite LLR.
        let p = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        assert!(s.llr_pentanomial(&p) > 0.0);
        assert_eq!(s.llr_pentanomial(&Pentanomial::default()), 0.0);
    }
}
