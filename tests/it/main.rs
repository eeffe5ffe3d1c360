//! The integration tests, one crate so the library links once: a module per concern, shared
//! helpers and fake engines in `common`. Ignored tests run by name, for example
//! `cargo test --release --test it dobutsu_solve:: -- --ignored` (see `.ci/run`).

mod arena;
mod arena_dobutsu;
mod bench;
mod common;
mod dobutsu_protocol;
mod dobutsu_rules;
mod dobutsu_solve;
mod examples;
mod fake_engine;
mod fuzz_protocol;
mod hash;
mod help;
mod levels;
mod oware_tablebase;
mod perft;
mod perft_files;
mod pluggable;
mod protocol;
mod records;
mod replay;
mod replay_protocol;
mod rules;
mod serve;
mod split_build;
mod third_game;
mod web_browser;
