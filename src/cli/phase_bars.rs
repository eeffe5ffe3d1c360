//! Progress bars by phase for the long-running commands (`solve`, `tablebase build`): the
//! [`Progress`] of the retrograde analyses, shown as one bar at a time on standard error, with
//! the wall time each phase took for the command's report.

use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use perfectplay::retro::{Phase, Progress};

/// The bar of the phase running now and the phases finished, with their wall seconds.
pub(crate) struct PhaseBars {
    bar: Mutex<Option<(ProgressBar, Phase, Instant)>>,
    times: Mutex<Vec<(Phase, f64)>>,
    /// The bar's label for a phase of a layer (`None`: a solver without layers).
    label: fn(Option<u32>, Phase) -> String,
    /// Whether a finished phase's bar is cleared (else left on screen).
    clear: bool,
}

impl PhaseBars {
    /// No phase yet; bars labelled by `label`, cleared when their phase ends if `clear`.
    pub(crate) fn new(label: fn(Option<u32>, Phase) -> String, clear: bool) -> PhaseBars {
        PhaseBars {
            bar: Mutex::new(None),
            times: Mutex::new(Vec::new()),
            label,
            clear,
        }
    }

    /// The phases finished so far, in order, with their wall seconds.
    pub(crate) fn times(&self) -> Vec<(Phase, f64)> {
        self.times.lock().expect("times lock").clone()
    }
}

impl Progress for PhaseBars {
    fn start(&self, layer: Option<u32>, phase: Phase, total: Option<u64>) {
        let bar = match total {
            Some(n) => ProgressBar::new(n).with_style(
                ProgressStyle::with_template(
                    "{msg:>16} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} \
                     ({eta})",
                )
                .expect("template"),
            ),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template("{msg:>16} [{elapsed_precise}] {human_pos} positions")
                    .expect("template"),
            ),
        };
        bar.set_message((self.label)(layer, phase));
        *self.bar.lock().expect("bar lock") = Some((bar, phase, Instant::now()));
    }

    fn advance(&self, n: u64) {
        if let Some((bar, ..)) = &*self.bar.lock().expect("bar lock") {
            bar.inc(n);
        }
    }

    fn finish(&self) {
        if let Some((bar, phase, t)) = self.bar.lock().expect("bar lock").take() {
            if self.clear {
                bar.finish_and_clear();
            } else {
                bar.finish();
            }
            self.times
                .lock()
                .expect("times lock")
                .push((phase, t.elapsed().as_secs_f64()));
        }
    }
}
