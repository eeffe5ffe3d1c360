//! The binary's front ends beyond the protocol session: the subcommands that print progress and
//! reports, handle Ctrl-C and exit with a status (`solve`, `tablebase`, `match`), the progress
//! bars they share, and the web server (`serve`). Only these and `main.rs` print, read the
//! terminal or use `anyhow`.

pub mod match_args;
pub mod matches;
pub mod phase_bars;
pub mod serve;
pub mod solve;
pub mod tablebase;
