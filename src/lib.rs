//! perfectplay: an engine for Oware (Abapa and Awari rules) and Dobutsu Shogi, driven over a
//! UCI-style text protocol.
//!
//! The library holds the game-independent [`game::Game`] trait, the two games ([`oware`] with its
//! endgame tablebases, [`dobutsu`] with its complete solution), the [`search`], the engine's
//! core that every front end shares ([`engine`]: tables through their life, a search set up
//! from the game in progress, typed notes), what the retrograde solvers share ([`retro`]), and
//! the front ends that speak the protocol ([`protocol`]) and referee matches ([`arena`]); only
//! the front ends do I/O.
#![deny(missing_docs)]

pub mod arena;
pub mod bench;
pub mod dobutsu;
pub mod engine;
pub mod game;
pub mod machine;
pub mod memory;
#[cfg(feature = "mpi")]
pub mod mpi_transport;
pub mod nnue;
pub mod oware;
pub mod protocol;
pub mod records;
pub mod retro;
pub mod search;
pub mod variant;
