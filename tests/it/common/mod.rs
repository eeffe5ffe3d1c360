//! Shared helpers for the tests that drive the built binary over the protocol.
//!
//! Every read has a timeout, so a test that expects a reply that never comes fails with what it
//! did get instead of hanging.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long any single expected reply may take. Generous: the machine is shared.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// A data directory with nothing in it, so that the engine finds no table in its default place
/// (`$XDG_DATA_HOME/perfectplay`) whatever the machine has there.
pub const NO_DATA: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/no-data");

/// The engine binary, running, with its stdout read line by line on a thread.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the built binary with no arguments (the protocol loop).
    pub fn start() -> Engine {
        Engine::start_with_args(&[])
    }

    /// Starts the built binary with `args` (e.g. `--option NAME=VALUE` presets).
    pub fn start_with_args(args: &[&str]) -> Engine {
        Engine::start_with_data(args, NO_DATA)
    }

    /// Starts the built binary with `args` and `data` as its data directory (`XDG_DATA_HOME`,
    /// where it looks for tables).
    /// Unless `args` set `AutoSolve`, it is turned off: no test builds the Dobutsu solution by
    /// accident.
    pub fn start_with_data(args: &[&str], data: &str) -> Engine {
        let auto_solve_given = args.iter().any(|a| a.contains("AutoSolve"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(args)
            .args(if auto_solve_given {
                &[][..]
            } else {
                &["--option", "AutoSolve=false"][..]
            })
            .env("XDG_DATA_HOME", data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting the perfectplay binary");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("engine stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        writeln!(stdin, "{line}").expect("writing to the engine");
        stdin.flush().expect("flushing the engine's stdin");
    }

    /// Closes the engine's input (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` if none comes within `timeout` (or output ended).
    pub fn recv(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// Lines up to and including the first that satisfies `done`; panics with what was read if
    /// it does not come within [`REPLY_TIMEOUT`].
    pub fn read_until(&self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {what} within {REPLY_TIMEOUT:?}; read so far: {got:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine output ended before {what}; read: {got:#?}")
                }
            }
        }
    }

    /// Lines up to and including the `bestmove` line.
    pub fn until_bestmove(&self) -> Vec<String> {
        self.read_until("bestmove", |l| l.starts_with("bestmove"))
    }

    /// Sends `isready` and returns what came before `readyok` (not including it). Only for an
    /// idle engine: while searching, `isready` is answered ahead of the search's output.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut got = self.read_until("readyok", |l| l == "readyok");
        got.pop();
        got
    }

    /// Lines that arrive within `quiet`: fails if any does.
    pub fn expect_silence(&self, quiet: Duration, context: &str) {
        if let Some(line) = self.recv(quiet) {
            panic!("{context}: expected no output, got '{line}'");
        }
    }

    /// The `d` reply for the current position.
    pub fn board(&mut self) -> Vec<String> {
        self.send("d");
        self.sync()
    }

    /// Closes input and returns the rest of the output; fails if the engine does not exit in time
    /// or exits with an error status.
    pub fn finish(mut self) -> Vec<String> {
        self.close_input();
        let mut rest = Vec::new();
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => rest.push(line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("engine did not exit after end of input; output: {rest:#?}")
                }
            }
        }
        let status = self.child.wait().expect("waiting for the engine");
        assert!(
            status.success(),
            "engine exited with {status}; output: {rest:#?}"
        );
        rest
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A test that failed midway must not leave the engine running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `perfectplay ARGS --help`: what it prints, the binary having succeeded.
pub fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .arg("--help")
        .output()
        .expect("run perfectplay --help");
    assert!(out.status.success(), "{args:?} --help failed");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Runs the binary on `input` (all of it sent, then end of input) and returns its output lines.
pub fn transcript(input: &str) -> Vec<String> {
    let mut engine = Engine::start();
    for line in input.lines() {
        engine.send(line);
    }
    engine.finish()
}

/// One parsed `info depth ...` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    /// `cp S` or `mate N`, as printed.
    pub score: String,
    pub time: u64,
    pub nps: u64,
    pub pv: String,
}

/// Parses an `info depth` line by hand, field by field, in the documented order:
/// `info depth D seldepth S nodes N score (cp|mate) X time T nps R pv M1M2M3`. Panics naming the
/// line and the field when the shape is wrong.
pub fn parse_info(line: &str) -> Info {
    let mut words = Words {
        line,
        words: line.split(' ').collect(),
        at: 0,
    };
    words.keyword("info");
    words.keyword("depth");
    let depth = words.number("depth") as u32;
    words.keyword("seldepth");
    let seldepth = words.number("seldepth") as u32;
    words.keyword("nodes");
    let nodes = words.number("nodes");
    words.keyword("score");
    let kind = words.next("score kind");
    assert!(
        kind == "cp" || kind == "mate",
        "info line '{line}': score kind '{kind}'"
    );
    let value = words.next("score value");
    value
        .parse::<i32>()
        .unwrap_or_else(|_| panic!("info line '{line}': score '{value}' is not an integer"));
    let score = format!("{kind} {value}");
    words.keyword("time");
    let time = words.number("time");
    words.keyword("nps");
    let nps = words.number("nps");
    // `hashfull H` (per mille) comes before the pv when the search has a table.
    if words.words.get(words.at) == Some(&"hashfull") {
        words.at += 1;
        let hashfull = words.number("hashfull");
        assert!(
            hashfull <= 1000,
            "info line '{line}': hashfull {hashfull} above 1000"
        );
    }
    // `tbhits N` when the tablebase valued positions.
    if words.words.get(words.at) == Some(&"tbhits") {
        words.at += 1;
        words.number("tbhits");
    }
    words.keyword("pv");
    let pv = words.next("pv moves").to_string();
    assert!(
        !pv.is_empty() && pv.chars().all(|c| matches!(c, 'A'..='F' | 'a'..='f')),
        "info line '{line}': pv '{pv}' is not house letters run together"
    );
    assert_eq!(
        words.at,
        words.words.len(),
        "info line '{line}' has words after the pv"
    );
    Info {
        depth,
        seldepth,
        nodes,
        score,
        time,
        nps,
        pv,
    }
}

/// The words of a line being parsed, with the position reached.
struct Words<'a> {
    line: &'a str,
    words: Vec<&'a str>,
    at: usize,
}

impl<'a> Words<'a> {
    fn next(&mut self, what: &str) -> &'a str {
        let w = self
            .words
            .get(self.at)
            .unwrap_or_else(|| panic!("info line '{}' ends before {what}", self.line));
        self.at += 1;
        w
    }
    fn keyword(&mut self, key: &str) {
        let w = self.next(key);
        assert_eq!(w, key, "info line '{}': expected '{key}'", self.line);
    }
    fn number(&mut self, key: &str) -> u64 {
        let w = self.next(key);
        w.parse()
            .unwrap_or_else(|_| panic!("info line '{}': {key} '{w}' is not a number", self.line))
    }
}

/// The line with the `time` and `nps` values blanked (the only fields that may differ between two
/// runs of the same input).
pub fn without_timing(line: &str) -> String {
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 0..words.len().saturating_sub(1) {
        if line.starts_with("info ") && (words[i] == "time" || words[i] == "nps") {
            words[i + 1] = "_";
        }
    }
    words.join(" ")
}
pub mod arena;
pub mod perft_file;
pub mod web;

/// A fresh, empty directory `name` under Cargo's temporary directory for integration tests
/// (inside `target/`); what an earlier run left there is removed first.
pub fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
