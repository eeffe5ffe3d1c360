//! The protocol session: one thread reads input lines, a search runs on its own thread, and the
//! session thread owns the output, writing and flushing one line at a time.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;

use crate::game::{find_option, OptionError};
use crate::protocol::options::{canonical_name, engine_options, EngineSettings};
use crate::protocol::selected::{engine_for, Go, SelectedGame};
use crate::protocol::{Command, Event, Reply};
use crate::search::{Control, Limits};

/// A search in progress.
struct Running {
    control: Arc<Control>,
    infinite: bool,
    pondering: bool,
    /// The `bestmove` line, once the search thread has finished but it is held back (`go
    /// infinite` and `go ponder` answer only after `stop` or `ponderhit`).
    result: Option<String>,
}

impl Running {
    fn holds_bestmove(&self) -> bool {
        self.infinite || self.pondering
    }
}

/// Runs the protocol until `quit` or the end of `input`, writing replies to `output`.
///
/// Commands that arrive while a search runs are answered at once if they are `isready`, `stop`,
/// `ponderhit` or `quit`; any other waits, in order, until the search has answered `bestmove`.
/// At the end of input a search with a node, depth or time limit runs to its end (so piped
/// scripts get the full answer); `go infinite` and `go ponder` are stopped.
///
/// # Errors
/// Only an error writing to `output`.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) -> io::Result<()> {
    run_with_presets(input, output, &[]).map_err(|e| match e {
        SessionError::Io(e) => e,
        SessionError::Preset(e) => io::Error::other(e),
    })
}

/// Why a session could not run.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// An option preset was refused (nothing was read or written then).
    #[error("--option {0}")]
    Preset(String),
    /// Writing to the output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// [`run`] with options set before the first command (the command line's `--option
/// NAME=VALUE`, each preset `NAME=VALUE`): as if each had been sent by `setoption` first, and
/// declared by `uci` with its value as the default.
///
/// # Errors
/// [`SessionError::Preset`] naming the first refused preset, before any input is read or any
/// output written; [`SessionError::Io`] for an error writing to `output`.
pub fn run_with_presets<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    presets: &[String],
) -> Result<(), SessionError> {
    let (tx, rx) = mpsc::channel();
    let mut session = Session::new(output, tx.clone());
    for preset in presets {
        let shown = crate::game::quoted(preset);
        let Some((name, value)) = preset.split_once('=').filter(|(n, _)| !n.trim().is_empty())
        else {
            return Err(SessionError::Preset(format!("'{shown}' is not NAME=VALUE")));
        };
        let lines = session
            .apply_option(name, value)
            .map_err(|e| SessionError::Preset(format!("'{shown}' refused: {e}")))?;
        lines.iter().for_each(|line| log_preset_line(line));
    }
    // The tables the presets name, loaded once for all of them.
    if let Some(line) = session.game.load_stale_tables() {
        log_preset_line(&line);
    }
    thread::spawn(move || {
        read_lines(input, |line| tx.send(Event::Line(line)).is_ok());
        let _ = tx.send(Event::EndOfInput);
    });
    session.event_loop(rx)?;
    Ok(())
}

/// Logs what a preset said (the table's report): nothing but replies may go out before the
/// first command.
fn log_preset_line(line: &str) {
    if line.contains("not enough memory") || line.starts_with("info string error") {
        log::warn!("{line}");
    } else {
        log::info!("{line}");
    }
}

/// Passes each input line to `line` until the end of input, a read error, or `line` returns
/// false. A line ends at `\n`, `\r\n` or a bare `\r` (some GUIs end lines with `\r` alone), and
/// the line end is not passed; a last line without an end is passed too. A UTF-8 byte-order mark
/// at the very start of the input is dropped. Bytes that are not UTF-8 are replaced (U+FFFD), so
/// such a line is refused as a bad command instead of ending the session as `BufRead::lines`
/// would.
fn read_lines(mut input: impl BufRead, mut line: impl FnMut(String) -> bool) {
    let mut buf = Vec::new();
    let mut first = true;
    // Whether the last byte was a `\r`, so that the `\n` of a `\r\n` ends no second line.
    let mut after_cr = false;
    let mut emit = |buf: &mut Vec<u8>| {
        let mut text = String::from_utf8_lossy(buf).into_owned();
        buf.clear();
        if std::mem::take(&mut first) && text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        line(text)
    };
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        if chunk.is_empty() {
            if !buf.is_empty() {
                emit(&mut buf);
            }
            return;
        }
        let mut used = 0;
        let mut go_on = true;
        for &byte in chunk {
            used += 1;
            match byte {
                b'\n' if after_cr => after_cr = false,
                b'\n' | b'\r' => {
                    after_cr = byte == b'\r';
                    if !emit(&mut buf) {
                        go_on = false;
                        break;
                    }
                }
                _ => {
                    after_cr = false;
                    buf.push(byte);
                }
            }
        }
        input.consume(used);
        if !go_on {
            return;
        }
    }
}

struct Session<W: Write> {
    out: W,
    tx: Sender<Event>,
    settings: EngineSettings,
    /// The selected game: its options, position and searcher.
    game: Box<dyn SelectedGame>,
    /// The game options set so far (name, value), applied again to a new game of the same kind
    /// when the variant changes.
    game_options: Vec<(String, String)>,
    running: Option<Running>,
    pending: VecDeque<String>,
    end_of_input: bool,
    quitting: bool,
}

impl<W: Write> Session<W> {
    fn new(out: W, tx: Sender<Event>) -> Self {
        let settings = EngineSettings::default();
        let mut game = engine_for(settings.variant, settings.hash_mb);
        // Nothing but replies may go out before the first command.
        if let Some(line) = game.take_loaded() {
            if line.starts_with("info string error") {
                log::warn!("{line}");
            } else {
                log::info!("{line}");
            }
        }
        Session {
            out,
            tx,
            game,
            settings,
            game_options: Vec::new(),
            running: None,
            pending: VecDeque::new(),
            end_of_input: false,
            quitting: false,
        }
    }

    fn event_loop(mut self, rx: Receiver<Event>) -> io::Result<()> {
        while let Ok(event) = rx.recv() {
            match event {
                Event::Line(line) => self.on_line(line)?,
                Event::EndOfInput => {
                    self.end_of_input = true;
                    if let Some(run) = &self.running {
                        if run.holds_bestmove() {
                            run.control.stop();
                        }
                    }
                }
                Event::Info(line) => self.say(&line)?,
                Event::Done(bestmove) => self.on_search_done(bestmove)?,
            }
            if self.running.is_none() {
                self.drain_pending()?;
            }
            if (self.quitting || self.end_of_input)
                && self.running.is_none()
                && self.pending.is_empty()
            {
                break;
            }
        }
        self.out.flush()
    }

    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn reply(&mut self, reply: &Reply) -> io::Result<()> {
        self.say(&reply.to_string())
    }

    fn say_all(&mut self, lines: &[String]) -> io::Result<()> {
        for line in lines {
            self.say(line)?;
        }
        Ok(())
    }

    fn error(&mut self, message: impl std::fmt::Display) -> io::Result<()> {
        log::debug!("refused input: {message}");
        self.say(&format!(
            "info string error: {}",
            printable(&message.to_string())
        ))
    }

    fn on_line(&mut self, line: String) -> io::Result<()> {
        if self.quitting {
            return Ok(());
        }
        if self.running.is_some() {
            match line.trim() {
                "isready" => return self.reply(&Reply::ReadyOk),
                "stop" => return self.stop_search(),
                "ponderhit" => return self.ponderhit(),
                "quit" => {
                    self.quitting = true;
                    self.pending.clear();
                    return self.stop_search();
                }
                _ => {
                    self.pending.push_back(line);
                    return Ok(());
                }
            }
        }
        self.handle(&line)
    }

    fn drain_pending(&mut self) -> io::Result<()> {
        while self.running.is_none() {
            let Some(line) = self.pending.pop_front() else {
                break;
            };
            self.handle(&line)?;
        }
        Ok(())
    }

    /// Handles one line while no search runs.
    fn handle(&mut self, line: &str) -> io::Result<()> {
        if line.trim().is_empty() {
            return Ok(());
        }
        let command = match line.parse::<Command>() {
            Ok(c) => c,
            Err(e) if line.split_whitespace().next() == Some("position") => {
                self.game.forget_position();
                return self.error(format!("{e}; {NO_POSITION_SET}"));
            }
            Err(e) => return self.error(e),
        };
        match command {
            Command::Uci => {
                self.reply(&Reply::Id {
                    field: "name".into(),
                    value: format!("perfectplay {}", env!("CARGO_PKG_VERSION")),
                })?;
                self.reply(&Reply::Id {
                    field: "author".into(),
                    value: "the perfectplay developers".into(),
                })?;
                let mut lines: Vec<String> = engine_options()
                    .iter()
                    .map(|d| d.declaration(&self.settings))
                    .collect();
                lines.extend(self.game.declarations());
                self.say_all(&lines)?;
                self.reply(&Reply::UciOk)
            }
            Command::IsReady => {
                // Ready means the tables are ready: loaded if an option named them since, and
                // the in-memory table that `ucinewgame` or `go` started building built.
                let loaded: Vec<String> = self.game.load_stale_tables().into_iter().collect();
                self.say_all(&loaded)?;
                self.game.wait_tables();
                self.reply(&Reply::ReadyOk)
            }
            Command::Debug => Ok(()),
            Command::NewGame => {
                let loaded: Vec<String> = self.game.load_stale_tables().into_iter().collect();
                self.say_all(&loaded)?;
                self.game.new_game();
                self.game.prepare_tables(&self.settings);
                Ok(())
            }
            Command::SetOption { name, value } => match self.apply_option(&name, &value) {
                Ok(lines) => self.say_all(&lines),
                Err(e) => self.error(e),
            },
            Command::Position { start, moves } => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                match self.game.set_position(start.as_deref(), &moves) {
                    Ok(()) => Ok(()),
                    Err(e) => self.error(format!("{e}; {NO_POSITION_SET}")),
                }
            }
            Command::Go {
                limits,
                ponder,
                searchmoves,
            } => self.go(limits, ponder, &searchmoves),
            Command::Stop | Command::PonderHit => Ok(()),
            Command::Legal => match self.game.legal() {
                Ok(line) => self.say(&line),
                Err(e) => self.error(e),
            },
            Command::Display => match self.game.display() {
                Ok(text) => {
                    for line in text.lines() {
                        self.say(line)?;
                    }
                    Ok(())
                }
                Err(e) => self.error(e),
            },
            Command::Quit => {
                self.quitting = true;
                Ok(())
            }
        }
    }

    /// Sets an engine option or one of the selected game's; returns the `info string` lines to
    /// write. Nothing changes on error.
    fn apply_option(&mut self, name: &str, value: &str) -> Result<Vec<String>, OptionError> {
        let name = canonical_name(name);
        let engine = engine_options();
        if let Some(decl) = find_option(&engine, name) {
            let mut settings = self.settings.clone();
            decl.apply(&mut settings, value)?;
            let old = std::mem::replace(&mut self.settings, settings);
            let mut lines = self.engine_settings_changed(&old);
            if decl.name == "Hash" {
                // A new table, also when the size is unchanged (as Stockfish, it clears it).
                lines.extend(self.game.resize_hash(self.settings.hash_mb));
            }
            return Ok(lines);
        }
        match self.game.set_option(name, value) {
            Some(result) => {
                let lines = result?;
                self.game_options
                    .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                self.game_options
                    .push((name.to_string(), value.to_string()));
                Ok(lines)
            }
            None => Err(OptionError::Unknown(crate::game::quoted(name))),
        }
    }

    /// Applies what changed from `old` to the current settings: a new game for a new variant
    /// (keeping the game's options, position and table when it is the same game under other
    /// rules).
    fn engine_settings_changed(&mut self, old: &EngineSettings) -> Vec<String> {
        let mut lines = Vec::new();
        if self.settings.variant != old.variant {
            let mut new = engine_for(self.settings.variant, self.settings.hash_mb);
            lines.extend(new.take_loaded());
            let previous = std::mem::replace(&mut self.game, new);
            let position = previous.game_text();
            if position.is_none() {
                // After a refused `position` there is still none, whatever the game.
                self.game.forget_position();
            }
            if previous.game_name() == self.game.game_name() {
                for (name, value) in &self.game_options {
                    if let Some(Ok(said)) = self.game.set_option(name, value) {
                        lines.extend(said);
                    }
                }
                if let Some((start, moves)) = position {
                    let words: Vec<&str> = moves.iter().map(String::as_str).collect();
                    if let Err(e) = self.game.set_position(start.as_deref(), &words) {
                        self.game.new_game();
                        lines.push(format!(
                            "info string the current game is not legal under the new rules \
                             ({}); the position is reset to the start",
                            crate::game::quoted(&e.to_string())
                        ));
                    }
                }
                self.game.adopt_searcher(previous.into_searcher());
            } else {
                self.game_options.clear();
            }
        }
        lines
    }

    fn go(&mut self, mut limits: Limits, ponder: bool, searchmoves: &[String]) -> io::Result<()> {
        if let Some(clock) = limits.clock.as_mut() {
            clock.overhead_ms = self.settings.move_overhead_ms;
        }
        let control = Arc::new(Control::new(ponder));
        let running = Running {
            control: Arc::clone(&control),
            infinite: limits.infinite,
            pondering: ponder,
            result: None,
        };
        match self.game.go(
            limits,
            searchmoves,
            &self.settings,
            control,
            self.tx.clone(),
        ) {
            Go::Answered(lines) => self.say_all(&lines),
            Go::Searching(lines) => {
                if self.end_of_input && running.holds_bestmove() {
                    running.control.stop();
                }
                self.running = Some(running);
                self.say_all(&lines)
            }
        }
    }

    fn stop_search(&mut self) -> io::Result<()> {
        let Some(run) = self.running.as_mut() else {
            return Ok(());
        };
        run.control.stop();
        run.infinite = false;
        run.pondering = false;
        if let Some(result) = run.result.take() {
            self.running = None;
            return self.say(&result);
        }
        Ok(())
    }

    fn ponderhit(&mut self) -> io::Result<()> {
        let Some(run) = self.running.as_mut() else {
            return Ok(());
        };
        if !run.pondering {
            return Ok(());
        }
        run.control.ponderhit();
        run.pondering = false;
        if !run.holds_bestmove() {
            if let Some(result) = run.result.take() {
                self.running = None;
                return self.say(&result);
            }
        }
        Ok(())
    }

    fn on_search_done(&mut self, bestmove: String) -> io::Result<()> {
        let Some(run) = self.running.as_mut() else {
            return Ok(());
        };
        if run.holds_bestmove() && !run.control.is_stopped() {
            run.result = Some(bestmove);
            return Ok(());
        }
        self.running = None;
        self.say(&bestmove)
    }
}

/// An error message made safe to echo: control characters become `?` and a message longer than
/// [`MAX_ERROR_CHARS`] (one that quotes a huge input line) is cut, so a GUI's line reader never
/// sees a NUL or a megabyte line.
fn printable(message: &str) -> String {
    let mut out: String = message
        .chars()
        .take(MAX_ERROR_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if message.chars().nth(MAX_ERROR_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// The longest error message echoed, in characters.
const MAX_ERROR_CHARS: usize = 300;

/// What a refused `position` adds to its error.
const NO_POSITION_SET: &str = "no valid position until the next 'position' or 'ucinewgame'";

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: &[u8]) -> Vec<String> {
        let mut got = Vec::new();
        read_lines(input, |l| {
            got.push(l);
            true
        });
        got
    }

    #[test]
    fn lines_end_at_lf_crlf_or_a_bare_cr() {
        assert_eq!(lines_of(b"isready\risready\r"), ["isready", "isready"]);
        assert_eq!(lines_of(b"a\r\nb\nc\rd"), ["a", "b", "c", "d"]);
        // An empty line between two line ends is still a line (ignored by the session).
        assert_eq!(
            lines_of(b"a\n\nb\r\rc\r\n\r\n"),
            ["a", "", "b", "", "c", ""]
        );
        // A line split across reads is one line, and so is a `\r\n` split across reads.
        let reader = std::io::BufReader::with_capacity(2, &b"uci\r\nisready\r\n"[..]);
        let mut got = Vec::new();
        read_lines(reader, |l| {
            got.push(l);
            true
        });
        assert_eq!(got, ["uci", "isready"]);
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_dropped() {
        assert_eq!(lines_of(b"\xef\xbb\xbfuci\nisready\n"), ["uci", "isready"]);
        // Only at the very start: elsewhere it is part of the line (and refused by the parser).
        assert_eq!(
            lines_of(b"uci\n\xef\xbb\xbfisready\n"),
            ["uci", "\u{feff}isready"]
        );
    }

    /// An output the test reads while the session writes it.
    #[derive(Clone, Default)]
    struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }
    }

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// An oracle that records what the session asks of it, with the output written so far.
    struct Recorder {
        out: Shared,
        events: std::sync::Mutex<Vec<String>>,
    }

    impl crate::search::Oracle<crate::oware::Board> for Recorder {
        fn probe(&self, _pos: &crate::oware::Board) -> Option<(crate::game::Outcome, u32)> {
            None
        }
        fn prepare(&self) {
            self.events.lock().unwrap().push("prepare".into());
        }
        fn wait_prepared(&self) {
            let said = self.out.text().replace('\n', " ");
            self.events
                .lock()
                .unwrap()
                .push(format!("wait [{}]", said.trim()));
        }
    }

    /// `ucinewgame` starts preparing the tables at full strength (not below it), and `isready`
    /// answers only once they are ready.
    #[test]
    fn isready_waits_for_the_tables_ucinewgame_prepared() {
        let out = Shared::default();
        let recorder = Arc::new(Recorder {
            out: out.clone(),
            events: Default::default(),
        });
        let tables = crate::game::Tables {
            oracle: Arc::clone(&recorder) as Arc<dyn crate::search::Oracle<crate::oware::Board>>,
            description: String::new(),
            outside: None,
        };
        let (tx, _rx) = mpsc::channel();
        let mut session = Session::new(out.clone(), tx);
        session.game = Box::new(crate::protocol::selected::GameEngine::with_tables(
            crate::oware::Rules::default(),
            tables,
        ));
        let events = || recorder.events.lock().unwrap().clone();
        session.handle("setoption name Level value 5").unwrap();
        session.handle("ucinewgame").unwrap();
        assert_eq!(events(), Vec::<String>::new());
        session.handle("setoption name Level value 6").unwrap();
        session.handle("ucinewgame").unwrap();
        assert_eq!(events(), ["prepare"]);
        session.handle("isready").unwrap();
        assert_eq!(events(), ["prepare", "wait []"]);
        assert_eq!(out.text(), "readyok\n");
    }

    #[test]
    fn error_messages_are_cut_and_control_characters_replaced() {
        assert_eq!(
            printable("unknown command 'a\0b\tc'"),
            "unknown command 'a?b?c'"
        );
        let long = "x".repeat(10_000);
        let shown = printable(&long);
        assert_eq!(shown.chars().count(), MAX_ERROR_CHARS + 3);
        assert!(shown.ends_with("..."));
        assert_eq!(printable("short"), "short");
    }
}
