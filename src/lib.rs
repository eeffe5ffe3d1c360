//! perfectplay: an Oware engine (Abapa and Awari rules) driven over a UCI-style text protocol.
//!
//! The library holds the rules ([`oware`]), the game-independent [`game::Game`] trait and the
//! [`search`]; it does no I/O of its own except in the front ends ([`protocol`]).
#![deny(missing_docs)]

pub mod arena;
pub mod bench;
pub mod dobutsu;
pub mod game;
pub mod oware;
pub mod protocol;
pub mod retro;
pub mod search;
pub mod variant;
