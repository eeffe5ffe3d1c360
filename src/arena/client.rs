//! A protocol client for one engine subprocess: start and handshake, options, new games, and one
//! move per `go`, with every read bounded in time.
//!
//! A reader thread per engine turns its standard output into lines on a channel; the runner waits
//! on the channel with `recv_timeout`, so an engine that hangs, floods or dies never blocks it. The
//! engine's standard error is kept (its last lines) for the fault report. On Unix engines run in
//! their own process group, so a Ctrl-C in the terminal reaches the runner only and the games in
//! progress can be wound down cleanly.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::protocol::{Command as Sent, OptionLine, Reply};
use crate::records::{RuleSettings, SearchInfo};

/// Longest output line kept; the rest of a longer line is read as the next line.
const MAX_LINE: u64 = 64 * 1024;
/// Lines of standard error kept for fault reports.
const STDERR_LINES: usize = 5;
/// How long an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How often a wait checks the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// How to start an engine and what to tell it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line: a program and its arguments, split as a POSIX shell splits words
    /// ([`split_command`]).
    pub command: String,
    /// A display name replacing the engine's `id name`.
    pub name: Option<String>,
    /// Options sent as `setoption name N value V` after the handshake, in order.
    pub options: Vec<(String, String)>,
}

/// The names of the option that selects the game, in the order the runner prefers them: the
/// standard one first (Fairy-Stockfish, cutechess), then this engine's older name.
pub const VARIANT_OPTIONS: [&str; 2] = ["UCI_Variant", "Variant"];

/// What went wrong with an engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start '{command}': {message}")]
    Spawn {
        /// The command line.
        command: String,
        /// The operating system's reason.
        message: String,
    },
    /// Nothing expected arrived in time.
    #[error("no {expected} within {ms} ms")]
    Timeout {
        /// What the runner waited for (`uciok`, `readyok`, `bestmove`).
        expected: &'static str,
        /// The time allowed, in milliseconds.
        ms: u128,
    },
    /// The process ended.
    #[error("the engine exited ({status}) while the runner waited for {expected}{stderr}")]
    Exited {
        /// Exit status as the OS reports it (`exit status: 3`, `signal: 9`).
        status: String,
        /// What the runner waited for.
        expected: &'static str,
        /// `; stderr: ...` with its last lines, or empty.
        stderr: String,
    },
    /// Standard output or input was closed while the process still ran.
    #[error("the engine closed its pipe while the runner waited for {expected}")]
    Closed {
        /// What the runner waited for or sent.
        expected: &'static str,
    },
    /// A `bestmove` line without a move.
    #[error("garbage instead of a move: '{0}'")]
    Garbage(String),
    /// Options of the match that the engine does not list in its `uci` reply (under the
    /// match's variant): it would ignore them, or refuse them, and play something else.
    #[error("it lists no option {names} (its options: {listed})")]
    UnknownOptions {
        /// The names, quoted and separated by commas (`'Levle'`).
        names: String,
        /// The options it lists, separated by commas (or `none`).
        listed: String,
    },
    /// An option value the engine refused (with an `info string error` line before `readyok`).
    #[error("it refused --option {name}={value}: {reply}")]
    RefusedOption {
        /// The option's name as given.
        name: String,
        /// The value refused.
        value: String,
        /// What the engine said.
        reply: String,
    },
    /// The match's game is not the default one and the engine lists no option to select it.
    #[error(
        "it lists no UCI_Variant or Variant option, so it cannot be told to play {variant} (its options: {listed})"
    )]
    NoVariantOption {
        /// The match's variant.
        variant: String,
        /// The options it lists, separated by commas (or `none`).
        listed: String,
    },
    /// The engine's variant option offers choices, and the match's variant is not one of them.
    #[error("its {option} option offers {choices}, not {variant}")]
    UnsupportedVariant {
        /// `UCI_Variant` or `Variant`.
        option: String,
        /// The match's variant.
        variant: String,
        /// The choices it lists, separated by commas.
        choices: String,
    },
    /// A rule setting (the variant, `Repetitions`, `NoCaptureLimit`) the engine refused (with an
    /// `info string error` line before `readyok` or `uciok`): it would play by other rules than
    /// the referee's.
    #[error("it refused the rule setting {name}={value}: {reply}")]
    RefusedRule {
        /// The option's name.
        name: String,
        /// The value refused.
        value: String,
        /// What the engine said.
        reply: String,
    },
    /// The match is stopping (Ctrl-C or a decided SPRT); not the engine's fault.
    #[error("interrupted")]
    Interrupted,
}

/// The engine's answer to `go`, with a move of the game `M`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove<M> {
    /// `bestmove X` with a move in the game's notation (Oware's house letter, Dobutsu's `b2b3`).
    Move(M),
    /// `bestmove 0000` (or `(none)`): the engine sees no move.
    NoMove,
}

/// The depth and score of an `info` line (`info depth 12 ... score cp -35 ...`); `None` for
/// a line that is not `info`, has no readable score, is an `info string`, or gives a line
/// other than the first (`multipv 2`).
pub fn read_search_info(line: &str) -> Option<SearchInfo> {
    let Ok(Reply::Info(info)) = line.parse::<Reply>() else {
        return None;
    };
    if info.multipv.is_some_and(|k| k != 1) {
        return None;
    }
    Some(SearchInfo {
        depth: info.depth,
        score: Some(info.score?),
    })
}

/// One `option name` line of an engine's reply to `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ListedOption {
    /// The option's name.
    name: String,
    /// The values of its `var` words (a combo's choices), empty for other types.
    choices: Vec<String>,
}

impl From<OptionLine> for ListedOption {
    fn from(line: OptionLine) -> ListedOption {
        ListedOption {
            name: line.name,
            choices: line.vars,
        }
    }
}

/// An `info string` line's text as a refusal is reported: the whole line, cut.
fn reply_text(text: &str) -> String {
    Reply::InfoString(text.to_string()).to_string()
}

/// An engine's reply to `uci`.
struct OptionList {
    /// Its `id name`.
    id_name: Option<String>,
    /// Its `option name` lines, in order.
    options: Vec<ListedOption>,
    /// The `info string error` lines before `uciok` (refusals of the commands before `uci`).
    refusals: Vec<String>,
}

/// A running engine that has answered `uciok` and `readyok`.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    id_name: Option<String>,
    options: Vec<ListedOption>,
    label: String,
    last_info_string: Option<String>,
    last_search: SearchInfo,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("label", &self.label)
            .field("id_name", &self.id_name)
            .finish()
    }
}

/// Splits a command line into words as a POSIX shell does (shlex): blanks separate, `"..."`
/// and `'...'` group, `\` escapes the next character; `None` for a line a shell would refuse
/// (an unterminated quote).
pub fn split_command(line: &str) -> Option<Vec<String>> {
    shlex::split(line)
}

impl Engine {
    /// Starts the engine and runs the handshake: `uci` until `uciok` (noting `id name` and the
    /// `option name` lines); the referee's `rules`: the variant through `UCI_Variant` or
    /// `Variant` (then `uci` again, since the variant changes the engine's options), and each
    /// cycle-rule setting the engine lists, each followed by `isready` until `readyok`; then for
    /// every option of `spec` `setoption` and `isready` until `readyok`. Each wait is bounded by
    /// `timeout`; `label` names the engine in logs.
    ///
    /// # Errors
    /// [`EngineError::Spawn`] if the program does not start; [`EngineError::NoVariantOption`],
    /// [`EngineError::UnsupportedVariant`] or [`EngineError::RefusedRule`] for an engine that
    /// cannot be told the referee's rules; [`EngineError::UnknownOptions`] for options of `spec`
    /// the engine does not list (none of them is sent then), [`EngineError::RefusedOption`] for
    /// the first it refuses; or the error of a failed handshake (the process is killed then).
    pub fn start(
        spec: &EngineSpec,
        rules: &RuleSettings,
        timeout: Duration,
        label: &str,
        stop: Option<&AtomicBool>,
    ) -> Result<Engine, EngineError> {
        let spawn_error = |message: String| EngineError::Spawn {
            command: spec.command.clone(),
            message,
        };
        let words = split_command(&spec.command)
            .ok_or_else(|| spawn_error("the command line has an unterminated quote".into()))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| spawn_error("empty command".into()))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|e| spawn_error(e.to_string()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error("no pipes".into()));
        };
        let (tx, lines) = mpsc::channel();
        let tag = label.to_string();
        spawn_thread(format!("{label} stdout"), move || {
            let mut reader = BufReader::new(stdout);
            for_each_line(&mut reader, |line| {
                log::debug!("{tag} > {line}");
                tx.send(line).is_ok()
            });
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let tag = label.to_string();
        spawn_thread(format!("{label} stderr"), move || {
            let mut reader = BufReader::new(stderr);
            for_each_line(&mut reader, |line| {
                log::debug!("{tag} stderr: {line}");
                if let Ok(mut t) = tail.lock() {
                    if t.len() == STDERR_LINES {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
                true
            });
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            stderr_tail,
            id_name: None,
            options: Vec::new(),
            label: label.to_string(),
            last_info_string: None,
            last_search: SearchInfo::default(),
        };
        engine.handshake(spec, rules, timeout, stop)?;
        Ok(engine)
    }

    fn handshake(
        &mut self,
        spec: &EngineSpec,
        rules: &RuleSettings,
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<(), EngineError> {
        let listed = self.list_options(timeout, stop)?;
        self.id_name = listed.id_name.filter(|n| !n.is_empty());
        self.options = listed.options;
        self.tell_variant(rules, timeout, stop)?;
        self.tell_cycle_rule(rules, timeout, stop)?;
        self.check_listed(spec)?;
        self.set_options(spec, timeout, stop)
    }

    /// Selects the match's game with the engine's variant option (`UCI_Variant` preferred to
    /// `Variant`), then asks for the option list again: the variant changes an engine's
    /// options (our engine lists its Dobutsu options only under Dobutsu), and the match's options
    /// are checked against the list of the game it plays.
    ///
    /// # Errors
    /// [`EngineError::NoVariantOption`] for an engine without one in a game not its default,
    /// [`EngineError::UnsupportedVariant`] when its choices do not include the game,
    /// [`EngineError::RefusedRule`] when it refuses it.
    fn tell_variant(
        &mut self,
        rules: &RuleSettings,
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<(), EngineError> {
        let Some(variant) = &rules.variant else {
            return Ok(());
        };
        let Some(option) = VARIANT_OPTIONS
            .iter()
            .find_map(|&name| self.listed(name))
            .cloned()
        else {
            if rules.default_variant {
                return Ok(());
            }
            return Err(EngineError::NoVariantOption {
                variant: variant.clone(),
                listed: self.listed_names(),
            });
        };
        if !option.choices.is_empty()
            && !option
                .choices
                .iter()
                .any(|c| c.eq_ignore_ascii_case(variant))
        {
            return Err(EngineError::UnsupportedVariant {
                option: option.name,
                variant: variant.clone(),
                choices: option.choices.join(", "),
            });
        }
        let set_variant = Sent::SetOption {
            name: option.name.clone(),
            value: variant.clone(),
        };
        self.send(&set_variant, "setoption")?;
        let listed = self.list_options(timeout, stop)?;
        if let Some(name) = listed.id_name.filter(|n| !n.is_empty()) {
            self.id_name = Some(name);
        }
        self.options = listed.options;
        // Fairy-Stockfish's `uci` sets its variant back to chess: the game is told again, after
        // the list (our engine keeps the game it was told, so this changes nothing there).
        self.send(&set_variant, "setoption")?;
        let mut refusals = listed.refusals;
        refusals.extend(self.sync(timeout, stop)?);
        match refusals.is_empty() {
            true => Ok(()),
            false => Err(EngineError::RefusedRule {
                name: option.name,
                value: variant.clone(),
                reply: truncate(&refusals.join(" | ")),
            }),
        }
    }

    /// Sends each cycle-rule setting the engine lists, each settled on its own so that a
    /// refusal names its option.
    ///
    /// # Errors
    /// [`EngineError::RefusedRule`] for the first it refuses.
    fn tell_cycle_rule(
        &mut self,
        rules: &RuleSettings,
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<(), EngineError> {
        for (name, value) in &rules.options {
            if !self.has_option(name) {
                continue;
            }
            if let Some(reply) = self.settle(name, value, timeout, stop)? {
                return Err(EngineError::RefusedRule {
                    name: name.clone(),
                    value: value.clone(),
                    reply,
                });
            }
        }
        Ok(())
    }

    /// Checks that the engine lists every option of `spec` (none is sent otherwise).
    ///
    /// # Errors
    /// [`EngineError::UnknownOptions`] naming those it does not list.
    fn check_listed(&self, spec: &EngineSpec) -> Result<(), EngineError> {
        let mut unknown: Vec<&str> = Vec::new();
        for (name, _) in &spec.options {
            if !self.has_option(name) && !unknown.contains(&name.as_str()) {
                unknown.push(name);
            }
        }
        if unknown.is_empty() {
            return Ok(());
        }
        let quoted: Vec<String> = unknown.iter().map(|n| format!("'{n}'")).collect();
        Err(EngineError::UnknownOptions {
            names: quoted.join(", "),
            listed: self.listed_names(),
        })
    }

    /// Sends the options of `spec`. An engine that refuses a value says so before `readyok`
    /// (our engine with an `info string error: ...` line): the match would test something else,
    /// so it does not start. Each option is settled on its own, so that a refusal names it.
    ///
    /// # Errors
    /// [`EngineError::RefusedOption`] for the first it refuses.
    fn set_options(
        &mut self,
        spec: &EngineSpec,
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<(), EngineError> {
        for (name, value) in &spec.options {
            if let Some(reply) = self.settle(name, value, timeout, stop)? {
                return Err(EngineError::RefusedOption {
                    name: name.clone(),
                    value: value.clone(),
                    reply,
                });
            }
        }
        Ok(())
    }

    /// Sends `setoption name {name} value {value}`, then [`Engine::sync`]: the engine's refusal
    /// (its `info string error` lines, joined), or `None` if it took the setting.
    fn settle(
        &mut self,
        name: &str,
        value: &str,
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<Option<String>, EngineError> {
        let set = Sent::SetOption {
            name: name.to_string(),
            value: value.to_string(),
        };
        self.send(&set, "setoption")?;
        let refusals = self.sync(timeout, stop)?;
        Ok((!refusals.is_empty()).then(|| truncate(&refusals.join(" | "))))
    }

    /// The option `name` (case-insensitive) of the engine's last list.
    fn listed(&self, name: &str) -> Option<&ListedOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// The names of the options the engine lists, separated by commas (or `none`).
    fn listed_names(&self) -> String {
        if self.options.is_empty() {
            return "none".to_string();
        }
        let names: Vec<&str> = self.options.iter().map(|o| o.name.as_str()).collect();
        names.join(", ")
    }

    /// `uci`, then waits up to `timeout` for `uciok`: returns the `id name`, the names of the
    /// `option name` lines, and the `info string error` lines sent meanwhile.
    fn list_options(
        &mut self,
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<OptionList, EngineError> {
        self.send(&Sent::Uci, "uciok")?;
        let mut id_name = None;
        let mut options = Vec::new();
        let mut refusals = Vec::new();
        self.wait_for("uciok", timeout, stop, |line| {
            let Ok(reply) = line.parse::<Reply>();
            match reply {
                Reply::UciOk => return Some(Ok(())),
                Reply::Id { field, value } if field == "name" => id_name = Some(value),
                Reply::Option(option) => options.push(ListedOption::from(option)),
                Reply::InfoString(text) if text.starts_with("error") => {
                    refusals.push(reply_text(&text))
                }
                _ => {}
            }
            None
        })?;
        Ok(OptionList {
            id_name,
            options,
            refusals,
        })
    }

    /// The last `info string ...` line the engine sent during the latest [`Engine::best_move`]
    /// (an engine refusing a `position` says why there), for fault reports.
    pub fn last_info_string(&self) -> Option<&str> {
        self.last_info_string.as_deref()
    }

    /// The depth and score of the last `info` line with a score that the engine sent during the
    /// latest [`Engine::best_move`] (both `None` when it sent none).
    pub fn last_search(&self) -> SearchInfo {
        self.last_search
    }

    /// Whether the engine listed option `name` (case-insensitive) in its handshake (its last
    /// list: the one after `Variant` when it was told one).
    pub fn has_option(&self, name: &str) -> bool {
        self.listed(name).is_some()
    }

    /// The name from the engine's `id name` line, if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// `isready`, then waits up to `timeout` for `readyok`. Returns the `info string error ...`
    /// lines the engine sent meanwhile (its refusals of the commands before), in order.
    ///
    /// # Errors
    /// The [`EngineError`] of a failed write or wait.
    pub fn sync(
        &mut self,
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<Vec<String>, EngineError> {
        self.send(&Sent::IsReady, "readyok")?;
        let mut refusals = Vec::new();
        self.wait_for("readyok", timeout, stop, |line| {
            let Ok(reply) = line.parse::<Reply>();
            match reply {
                Reply::ReadyOk => Some(Ok(())),
                Reply::InfoString(text) if text.starts_with("error") => {
                    refusals.push(reply_text(&text));
                    None
                }
                _ => None,
            }
        })?;
        Ok(refusals)
    }

    /// `ucinewgame`, then [`Engine::sync`].
    ///
    /// # Errors
    /// The [`EngineError`] of a failed write or wait.
    pub fn new_game(
        &mut self,
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<(), EngineError> {
        self.send(&Sent::NewGame, "readyok")?;
        self.sync(timeout, stop).map(drop)
    }

    /// Sends `position` (the full command, e.g. `position startpos moves F f`) and `go` (e.g.
    /// `go nodes 1000`), and waits up to `timeout` for `bestmove`. The depth and score of the
    /// last `info` line with a score are kept ([`Engine::last_search`]); other lines are skipped.
    /// `read_move` reads the move word in the game's notation (its syntax only: the referee
    /// judges legality).
    ///
    /// # Errors
    /// [`EngineError::Garbage`] when the `bestmove` line holds no move (a word `read_move`
    /// refuses, other than `0000` or `(none)`), or the [`EngineError`] of a failed write or wait.
    pub fn best_move<M>(
        &mut self,
        position: &Sent,
        go: &Sent,
        timeout: Duration,
        stop: Option<&AtomicBool>,
        read_move: impl Fn(&str) -> Option<M>,
    ) -> Result<BestMove<M>, EngineError> {
        self.last_info_string = None;
        self.last_search = SearchInfo::default();
        self.send(position, "bestmove")?;
        self.send(go, "bestmove")?;
        let mut search = SearchInfo::default();
        let answer = self.wait_for("bestmove", timeout, stop, |line| {
            if let Some(info) = read_search_info(line) {
                search = info;
                return None;
            }
            let Ok(Reply::BestMove { best, .. }) = line.parse::<Reply>() else {
                return None;
            };
            Some(match best.as_str() {
                "0000" | "(none)" => Ok(BestMove::NoMove),
                word => match read_move(word) {
                    Some(mv) => Ok(BestMove::Move(mv)),
                    None => Err(EngineError::Garbage(truncate(line))),
                },
            })
        });
        self.last_search = search;
        answer
    }

    /// Writes one line and flushes.
    ///
    /// # Errors
    /// [`EngineError::Exited`] or [`EngineError::Closed`] when the pipe is gone; `expected` says
    /// what the runner was about to wait for.
    pub fn send(&mut self, command: &Sent, expected: &'static str) -> Result<(), EngineError> {
        let line = command.to_string();
        log::debug!("{} < {line}", self.label);
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        written.map_err(|_| self.gone(expected))
    }

    /// Waits until `handle` returns `Some` for a line, the timeout passes, the engine's output
    /// ends, or `stop` is raised.
    fn wait_for<T>(
        &mut self,
        expected: &'static str,
        timeout: Duration,
        stop: Option<&AtomicBool>,
        mut handle: impl FnMut(&str) -> Option<Result<T, EngineError>>,
    ) -> Result<T, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(EngineError::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout {
                    expected,
                    ms: timeout.as_millis(),
                });
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(line) => {
                    if line.starts_with("info string") {
                        self.last_info_string = Some(truncate(&line));
                    }
                    if let Some(result) = handle(&line) {
                        return result;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone(expected)),
            }
        }
    }

    /// The error for a pipe that is gone: [`EngineError::Exited`] if the process ended (given a
    /// moment to do so), else [`EngineError::Closed`].
    fn gone(&mut self, expected: &'static str) -> EngineError {
        let deadline = Instant::now() + Duration::from_millis(300);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    // Give the stderr thread a moment to collect the last words.
                    thread::sleep(Duration::from_millis(20));
                    let tail = self
                        .stderr_tail
                        .lock()
                        .map(|t| t.iter().cloned().collect::<Vec<_>>().join(" | "));
                    let stderr = match tail {
                        Ok(t) if !t.is_empty() => format!("; stderr: {}", truncate(&t)),
                        _ => String::new(),
                    };
                    return EngineError::Exited {
                        status: status.to_string(),
                        expected,
                        stderr,
                    };
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => return EngineError::Closed { expected },
            }
        }
    }

    /// Sends `quit`, gives the engine half a second to exit, then kills it.
    pub fn quit(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        let _ = writeln!(self.stdin, "{}", Sent::Quit).and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    /// An engine is never left running: dropping it quits it (and kills it if it lingers).
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.shut_down();
        }
    }
}

/// Calls `f` with each line of `reader` (without the line end, invalid UTF-8 replaced, lines
/// longer than [`MAX_LINE`] cut in pieces) until the input ends, fails, or `f` returns false.
fn for_each_line(reader: &mut impl BufRead, mut f: impl FnMut(String) -> bool) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !f(line.trim_end_matches(['\n', '\r']).to_string()) {
                    return;
                }
            }
        }
    }
}

fn spawn_thread(name: String, f: impl FnOnce() + Send + 'static) {
    // A thread that cannot be created leaves the channel closed, which reads as a closed pipe.
    if let Err(e) = thread::Builder::new().name(name).spawn(f) {
        log::error!("cannot start a reader thread: {e}");
    }
}

/// At most 200 characters of engine output, for messages.
fn truncate(text: &str) -> String {
    let mut t: String = text.chars().take(200).collect();
    if t.len() < text.len() {
        t.push_str("...");
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;

    #[test]
    fn info_lines_give_depth_and_score() {
        let read = read_search_info;
        let line = "info depth 19 seldepth 30 nodes 2267764 score cp -42 time 378 pv FfBc";
        let info = read(line).unwrap();
        assert_eq!((info.depth, info.score), (Some(19), Some(Score::Cp(-42))));
        let mate = read("info multipv 1 depth 7 score mate -3 lowerbound nodes 10").unwrap();
        assert_eq!((mate.depth, mate.score), (Some(7), Some(Score::Mate(-3))));
        assert_eq!(
            read("info score cp 5").unwrap(),
            SearchInfo {
                depth: None,
                score: Some(Score::Cp(5))
            }
        );
        // Lines that say nothing of the played line's score.
        assert_eq!(read("info depth 9 currmove F currmovenumber 2"), None);
        assert_eq!(read("info multipv 2 depth 9 score cp 10"), None);
        assert_eq!(read("info string depth 9 score cp 10"), None);
        assert_eq!(read("info depth banana score cp"), None);
        assert_eq!(read("bestmove F score cp 10"), None);
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        let split = |line: &str| split_command(line).unwrap();
        assert_eq!(split("engine --level 3"), ["engine", "--level", "3"]);
        assert_eq!(
            split("  'my engine' \"a b\"  c\\ d "),
            ["my engine", "a b", "c d"]
        );
        assert_eq!(split("x '' y"), ["x", "", "y"]);
        assert!(split("   ").is_empty());
        // A quote left open is refused, as a shell refuses it.
        assert_eq!(split_command("engine 'no end"), None);
        assert_eq!(split_command("engine \"no end"), None);
    }

    #[test]
    fn option_lines_give_names_and_choices() {
        let read = |rest: &str| match format!("option name {rest}").parse::<Reply>() {
            Ok(Reply::Option(option)) => ListedOption::from(option),
            other => panic!("{other:?}"),
        };
        let combo = read("UCI_Variant type combo default chess var chess var dobutsu");
        assert_eq!(combo.name, "UCI_Variant");
        assert_eq!(combo.choices, ["chess", "dobutsu"]);
        let spin = read("Hash Size type spin default 16 min 1 max 1024");
        assert_eq!((spin.name.as_str(), spin.choices.len()), ("Hash Size", 0));
        let last = read("Style type combo var two words default two words");
        assert_eq!(last.choices, ["two words"]);
    }

    #[test]
    fn lines_are_cut_and_decoded() {
        let mut input: &[u8] = b"one\r\ntwo\n\xff\xfe junk\nlast";
        let mut lines = Vec::new();
        for_each_line(&mut input, |l| {
            lines.push(l);
            true
        });
        assert_eq!(lines, ["one", "two", "\u{fffd}\u{fffd} junk", "last"]);
    }

    #[test]
    fn missing_program_is_a_spawn_error() {
        let spec = EngineSpec {
            command: "/nonexistent/engine --x".into(),
            ..EngineSpec::default()
        };
        let rules = RuleSettings::default();
        let err = Engine::start(&spec, &rules, Duration::from_secs(1), "test", None).unwrap_err();
        assert!(matches!(err, EngineError::Spawn { .. }), "{err}");
        let spec = EngineSpec::default();
        assert!(matches!(
            Engine::start(&spec, &rules, Duration::from_secs(1), "test", None),
            Err(EngineError::Spawn { .. })
        ));
    }
}
