//! The protocol session: one thread reads input lines, a search runs on its own thread, and the
//! session thread owns the output, writing and flushing one line at a time.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;

use crate::oware::{Board, GameState, Move, Rules};
use crate::protocol::options::EngineOptions;
use crate::protocol::{format_board, format_hash_report, format_info, Command};
use crate::search::{
    Control, Iteration, Root, SearchConfig, SearchHandler, SearchResult, Searcher,
};

/// What reaches the session thread.
enum Event {
    Line(String),
    EndOfInput,
    Info(String),
    Done(SearchResult<Move>, Box<Searcher<Board>>),
}

/// A search in progress.
struct Running {
    control: Arc<Control>,
    infinite: bool,
    pondering: bool,
    /// The result, once the search thread has finished but `bestmove` is held back (`go infinite`
    /// and `go ponder` answer only after `stop` or `ponderhit`).
    result: Option<SearchResult<Move>>,
}

impl Running {
    fn holds_bestmove(&self) -> bool {
        self.infinite || self.pondering
    }
}

/// Sends each completed iteration to the session thread as an `info` line (proven results as
/// `cp` when the flag, `ScoreMateAsCp`, is set).
struct InfoSender(Sender<Event>, bool);

impl SearchHandler<Move> for InfoSender {
    fn iteration(&mut self, info: &Iteration<Move>) {
        let _ = self.0.send(Event::Info(format_info(info, self.1)));
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
    run_with_options(input, output, EngineOptions::default())
}

/// [`run`] with the options set to `options` before the first command (the command line's
/// presets): as if each had been sent by `setoption` first, and declared by `uci` with its value
/// as the default.
///
/// # Errors
/// Only an error writing to `output`.
pub fn run_with_options<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    options: EngineOptions,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    thread::spawn(move || {
        read_lines(input, |line| reader_tx.send(Event::Line(line)).is_ok());
        let _ = reader_tx.send(Event::EndOfInput);
    });
    Session::new(output, tx, options).event_loop(rx)
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
    options: EngineOptions,
    /// The game to search; `None` after a refused `position`, until a valid one (or
    /// `ucinewgame`) arrives, so that `go` never answers for a position the GUI did not mean.
    game: Option<GameState>,
    searcher: Option<Box<Searcher<Board>>>,
    running: Option<Running>,
    pending: VecDeque<String>,
    end_of_input: bool,
    quitting: bool,
}

impl<W: Write> Session<W> {
    fn new(out: W, tx: Sender<Event>, options: EngineOptions) -> Self {
        let game = Some(start_game(options.rules));
        let searcher = Box::new(Searcher::with_hash_mb(options.hash_mb));
        // Before the first command nothing but protocol lines may go out: the table made for a
        // preset goes to the log, and a shrunk one is a warning there.
        let report = searcher.hash_report();
        if report.shrunk {
            log::warn!("{}", format_hash_report(report));
        } else {
            log::info!("{}", format_hash_report(report));
        }
        Session {
            out,
            tx,
            options,
            game,
            searcher: Some(searcher),
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
                Event::Done(result, searcher) => self.on_search_done(result, searcher)?,
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
                "isready" => return self.say("readyok"),
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
                self.game = None;
                return self.error(format!("{e}; {NO_POSITION_SET}"));
            }
            Err(e) => return self.error(e),
        };
        match command {
            Command::Uci => {
                self.say(&format!(
                    "id name perfectplay {}",
                    env!("CARGO_PKG_VERSION")
                ))?;
                self.say("id author the perfectplay developers")?;
                for line in self.options.declarations() {
                    self.say(&line)?;
                }
                self.say("uciok")
            }
            Command::IsReady => self.say("readyok"),
            Command::Debug => Ok(()),
            Command::NewGame => {
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.game = Some(start_game(self.options.rules));
                Ok(())
            }
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go { limits, ponder } => self.go(limits, ponder),
            Command::Stop | Command::PonderHit => Ok(()),
            Command::Legal => {
                let Some(game) = &self.game else {
                    return self.error(NO_POSITION);
                };
                let moves: Vec<String> = game
                    .moves_past_cycle_end()
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                self.say(format!("legal {}", moves.join(" ")).trim_end())
            }
            Command::Display => {
                let Some(game) = &self.game else {
                    return self.error(NO_POSITION);
                };
                for line in format_board(game).lines() {
                    self.say(line)?;
                }
                Ok(())
            }
            Command::Quit => {
                self.quitting = true;
                Ok(())
            }
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> io::Result<()> {
        let mut options = self.options.clone();
        if let Err(e) = options.set(name, value) {
            return self.error(e);
        }
        let rules_changed = options.rules != self.options.rules;
        let hash = name.trim().eq_ignore_ascii_case("hash");
        self.options = options;
        if hash {
            // A new table, made resident now (a search never waits for page faults), and what
            // that took said, also when the size is unchanged (as Stockfish, it clears it).
            if let Some(s) = self.searcher.as_mut() {
                let line = format!(
                    "info string {}",
                    format_hash_report(s.set_hash(self.options.hash_mb))
                );
                self.say(&line)?;
            }
        }
        if rules_changed {
            return self.replay_under_new_rules();
        }
        Ok(())
    }

    /// After a rule option changed: the current game replayed under the new rules, or, if it is
    /// not legal under them, the start position (said in an `info string`).
    fn replay_under_new_rules(&mut self) -> io::Result<()> {
        let Some(game) = &self.game else {
            return Ok(());
        };
        let rules = self.options.rules;
        match replay(game.start(), game.moves(), rules) {
            Ok(game) => {
                self.game = Some(game);
                Ok(())
            }
            Err(e) => {
                self.game = Some(start_game(rules));
                self.say(&format!(
                    "info string the current game is not legal under the new rules ({}); \
                     the position is reset to the start",
                    printable(&e)
                ))
            }
        }
    }

    fn set_position(&mut self, start: Option<Board>, moves: &[Move]) -> io::Result<()> {
        let start = start.unwrap_or_else(|| Board::start(self.options.rules.variant));
        match replay(start, moves, self.options.rules) {
            Ok(game) => {
                self.game = Some(game);
                Ok(())
            }
            Err(e) => {
                self.game = None;
                self.error(format!("{e}; {NO_POSITION_SET}"))
            }
        }
    }

    fn go(&mut self, limits: crate::search::Limits, ponder: bool) -> io::Result<()> {
        let Some(game) = &self.game else {
            self.error(NO_POSITION)?;
            return self.say("bestmove 0000");
        };
        if game.moves_past_cycle_end().is_empty() {
            return self.say("bestmove 0000");
        }
        let root = Root {
            position: game.board(),
            history: game.keys_since_capture().to_vec(),
            game_ply: game.ply() as u32,
        };
        if let Some(end) = game.end() {
            // Only the cycle rule ends a game that still has moves. Like a chess engine past the
            // fifty-move rule, answer with a move anyway: a GUI that counts repetitions its own
            // way, or has no ply limit, waits for one.
            let line = format!(
                "info string the cycle rule has ended the game ({}, {}); searching the legal \
                 moves all the same",
                end.reason,
                end.result_string()
            );
            self.say(&line)?;
        }
        let Some(mut searcher) = self.searcher.take() else {
            return self.error("no searcher available");
        };
        let control = Arc::new(Control::new(ponder));
        let config = SearchConfig {
            weights: self.options.weights,
            cycle: self.options.rules.cycle,
            level: self.options.level,
            seed: crate::search::seed_hash(&self.options.seed),
        };
        let running = Running {
            control: Arc::clone(&control),
            infinite: limits.infinite,
            pondering: ponder,
            result: None,
        };
        if self.end_of_input && running.holds_bestmove() {
            control.stop();
        }
        self.running = Some(running);
        let tx = self.tx.clone();
        let mate_as_cp = self.options.score_mate_as_cp;
        thread::spawn(move || {
            let mut handler = InfoSender(tx.clone(), mate_as_cp);
            let result = searcher.search(&root, &limits, &config, &control, &mut handler);
            let _ = tx.send(Event::Done(result, searcher));
        });
        Ok(())
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
            return self.say_bestmove(&result);
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
                return self.say_bestmove(&result);
            }
        }
        Ok(())
    }

    fn on_search_done(
        &mut self,
        result: SearchResult<Move>,
        searcher: Box<Searcher<Board>>,
    ) -> io::Result<()> {
        self.searcher = Some(searcher);
        let Some(run) = self.running.as_mut() else {
            return Ok(());
        };
        if run.holds_bestmove() && !run.control.is_stopped() {
            run.result = Some(result);
            return Ok(());
        }
        self.running = None;
        self.say_bestmove(&result)
    }

    fn say_bestmove(&mut self, result: &SearchResult<Move>) -> io::Result<()> {
        match (result.best_move, result.pv.get(1)) {
            (Some(best), Some(ponder)) => self.say(&format!("bestmove {best} ponder {ponder}")),
            (Some(best), None) => self.say(&format!("bestmove {best}")),
            (None, _) => self.say("bestmove 0000"),
        }
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

/// The error when there is no position: the last `position` command was refused.
const NO_POSITION: &str = "no valid position (the last 'position' command was refused)";
/// What a refused `position` adds to its error.
const NO_POSITION_SET: &str = "no valid position until the next 'position' or 'ucinewgame'";

/// A game from the start position under `rules`.
fn start_game(rules: Rules) -> GameState {
    GameState::new(Board::start(rules.variant), rules)
}

/// A game from `start` with `moves` played under `rules`; moves past the cycle rule's end are
/// accepted ([`GameState::play_past_cycle_end`]).
fn replay(start: Board, moves: &[Move], rules: Rules) -> Result<GameState, String> {
    let mut game = GameState::new(start, rules);
    game.play_all_past_cycle_end(moves)
        .map_err(|(i, e)| format!("move {} of the list: {e}", i + 1))?;
    Ok(game)
}

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
