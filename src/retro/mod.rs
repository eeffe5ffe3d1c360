//! What the retrograde analyses share: the table file (header, checksum, written whole or not at
//! all, verified and memory-mapped on load).

pub mod file;
