//! Progress bars by phase for the long-running commands (`solve`, `tablebase build`): one bar at
//! a time on standard error, and the wall time each phase took, for the command's report.

use std::sync::Mutex;
use std::time::Instant;

use indicatif::ProgressBar;

/// The bar of the phase running now and the phases finished, with their wall seconds. `P` is
/// the library's phase type (Dobutsu's analysis or the Oware tablebase's).
pub(crate) struct PhaseBars<P> {
    bar: Mutex<Option<(ProgressBar, P, Instant)>>,
    times: Mutex<Vec<(P, f64)>>,
}

impl<P: Copy> PhaseBars<P> {
    /// No phase yet.
    pub(crate) fn new() -> PhaseBars<P> {
        PhaseBars {
            bar: Mutex::new(None),
            times: Mutex::new(Vec::new()),
        }
    }

    /// `phase` starts, shown by `bar` (styled by the caller); its clock starts now.
    pub(crate) fn begin(&self, bar: ProgressBar, phase: P) {
        *self.bar.lock().expect("bar lock") = Some((bar, phase, Instant::now()));
    }

    /// `n` more units of the running phase done.
    pub(crate) fn advance(&self, n: u64) {
        if let Some((bar, ..)) = &*self.bar.lock().expect("bar lock") {
            bar.inc(n);
        }
    }

    /// The running phase is over: its bar is finished (left on screen, or cleared when `clear`)
    /// and its time kept.
    pub(crate) fn end(&self, clear: bool) {
        if let Some((bar, phase, t)) = self.bar.lock().expect("bar lock").take() {
            if clear {
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

    /// The phases finished so far, in order, with their wall seconds.
    pub(crate) fn times(&self) -> Vec<(P, f64)> {
        self.times.lock().expect("times lock").clone()
    }
}
