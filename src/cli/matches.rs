//! The terminal front end of `perfectplay match`: Ctrl-C handling, the start line, the progress
//! bar and the line per game on standard error, and the report on standard output. The match
//! itself is [`perfectplay::arena::run_match`], which prints nothing.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::bail;
use indicatif::{ProgressBar, ProgressStyle};
use perfectplay::arena::runner::StopReason;
use perfectplay::arena::{progress_message, run_match, MatchEvent, MatchReport};

use crate::cli::match_args::MatchArgs;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static CTRL_C_PRESSES: AtomicUsize = AtomicUsize::new(0);

/// Installs the Ctrl-C handler: the first Ctrl-C stops the match (finished games are kept and
/// summarised), the second exits at once.
fn install_ctrl_c() {
    let installed = ctrlc::set_handler(|| {
        if CTRL_C_PRESSES.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(130);
        }
        INTERRUPTED.store(true, Ordering::SeqCst);
    });
    if let Err(e) = installed {
        log::warn!(
            "cannot install the Ctrl-C handler ({e}); Ctrl-C will end the match without a summary"
        );
    }
}

/// A match stopped by Ctrl-C, after its summary was printed: the command exits with status 130,
/// as shells expect of a program interrupted by SIGINT.
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

/// Runs `perfectplay match` and prints its report on `out`.
///
/// # Errors
/// Those of [`run_match`], a failed write to `out`, game records that could not be written
/// (after the summary that says so), and [`Interrupted`] for a match stopped by Ctrl-C (its
/// summary printed and its records whole).
pub fn run(args: MatchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let quiet = args.quiet;
    let replay = args.replay.is_some();
    if !replay {
        install_ctrl_c();
    }
    let mut progress = ProgressBar::hidden();
    let mut names = [String::new(), String::new()];
    let mut sprt = None;
    let mut on_event = |event: MatchEvent<'_>| match event {
        MatchEvent::Started(start) => {
            // Even under --quiet: with a plain `go` a match can run for minutes without output.
            eprintln!("{start}");
            for note in &start.notes {
                eprintln!("Note: {note}");
            }
            names = start.names.clone();
            sprt = start.sprt;
            if !quiet {
                progress = ProgressBar::new(start.games as u64);
                let style = ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar());
                progress.set_style(style);
                progress.set_message(progress_message(&names, &Default::default(), None));
                progress.enable_steady_tick(Duration::from_millis(500));
            }
        }
        MatchEvent::Game { record, tally } => {
            progress.inc(1);
            progress.set_message(progress_message(&names, tally, sprt.as_ref()));
            if !quiet {
                progress.suspend(|| {
                    eprintln!(
                        "Game {} {} vs {}: {} ({})",
                        record.number,
                        record.names[0],
                        record.names[1],
                        record.result_string(),
                        record.termination_string()
                    )
                });
            }
        }
    };
    let options = args.to_options()?;
    let report = run_match(options, &INTERRUPTED, &mut on_event);
    progress.finish_and_clear();
    let report = report?;
    write!(out, "{report}")?;
    out.flush()?;
    if let MatchReport::Played(summary) = &report {
        let records = &summary.records;
        if records.failed > 0 {
            bail!(
                "{} of {} game records could not be written",
                records.failed,
                records.failed + records.written
            );
        }
        if summary.stop == StopReason::Interrupted {
            return Err(Interrupted.into());
        }
    }
    Ok(())
}
