//! What the two evaluation tuners share (`tune_eval`, `tune_dobutsu`): the logistic curve and
//! the scale that best fits scores to results.

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` (per unit of score) for which `sigmoid(K * score)` best fits the results (mean
/// squared error) of `scored` (score, result from 0 to 1), by golden-section search over
/// 1e-5 to 0.05.
pub fn fit_k(scored: &[(f64, f64)]) -> f64 {
    let err = |k: f64| -> f64 {
        scored
            .iter()
            .map(|&(s, y)| {
                let p = sigmoid(k * s);
                (p - y) * (p - y)
            })
            .sum::<f64>()
    };
    let (mut a, mut b) = (1e-5, 0.05);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..100 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}
