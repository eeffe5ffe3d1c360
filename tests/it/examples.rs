//! Every example the documents show runs as written: README.md, protocol.md, docs/*.md and the
//! `--help` texts (issue 22).
//!
//! - **Notation.** Every Oware diagram (`4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`, or the twelve houses
//!   alone), every Dobutsu FEN and every inline code span of moves alone (`F f B e`, `C@b3`)
//!   parses (a move list the text calls one "from the start" is played from it, each move
//!   legal); every `position ...` line shown is accepted by the engine (its moves legal), and
//!   each diagram in `perfectplay tablebase --help` probes with no table files; every Oware
//!   `info depth` line shown has the documented fields in their order.
//! - **Sessions.** A fenced block after the comment `<!-- example: session -->` is protocol input:
//!   it is sent to the engine as it stands, then end of input. The next block after
//!   `<!-- example: replies -->` is what the engine answers: every line as shown, a line `...`
//!   standing for any lines, and the numbers that vary (`time` and `nps` of `info` lines,
//!   durations such as `1.5 s`) read as any number. A session without replies must answer no
//!   `info string error`. `<!-- example: replies to LINE | LINE -->` gives a replies block the
//!   input the document does not show.
//! - **Commands.** Every line of a fenced block that starts `perfectplay` (also as
//!   `target/release/perfectplay`, `/path/to/perfectplay`, `pp`, or `cargo run --release --`),
//!   with its `\` continuations, is run by `sh` in a scratch directory, the document's commands
//!   in order (so a record one writes is there for the next), and must exit 0. In a transcript
//!   (commands after `$ `), the lines after a command are its standard output, read as replies.
//!   `solve dobutsu --probe` runs against a stand-in solution of a reduced game (the real one
//!   takes a minute to make): the command line, the loading and the output, not the values.
//!   The commands of a block after `<!-- example: long -->` (minutes of work, other programs,
//!   files made by such commands) and those in inline code spans are only parsed: with
//!   `PERFECTPLAY_PARSE_ONLY` set the binary checks its command line and exits. A command with a
//!   placeholder (`...`, `<...>`, `[optional]`, an upper-case word such as `FILE`) is a
//!   synopsis, left alone.
//! - **Records.** A game record after `<!-- example: record -->` replays (`match --replay`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{help, without_timing, Engine};
use perfectplay::game::{Game, Notation};
use perfectplay::{dobutsu, oware};

/// A document, by its path in the source tree.
struct Doc {
    name: String,
    text: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, protocol.md and docs/*.md.
fn docs() -> Vec<Doc> {
    let mut names = vec!["README.md".to_string(), "protocol.md".to_string()];
    let mut more: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| {
            e.expect("docs/ entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    more.sort();
    names.extend(more);
    names
        .into_iter()
        .map(|name| Doc {
            text: std::fs::read_to_string(root().join(&name)).expect(&name),
            name,
        })
        .collect()
}

/// A fenced code block, with the `<!-- example: ... -->` comment just before it.
struct Block {
    /// `file:line` of the opening fence.
    place: String,
    mark: Option<String>,
    lines: Vec<String>,
}

/// A stretch of text outside the fenced blocks: a paragraph, its lines joined by blanks.
struct Paragraph {
    place: String,
    text: String,
}

fn split(doc: &Doc) -> (Vec<Block>, Vec<Paragraph>) {
    let mut blocks = Vec::new();
    let mut paragraphs = Vec::new();
    let mut mark = None;
    let mut open: Option<Block> = None;
    let mut para: Option<Paragraph> = None;
    for (i, line) in doc.text.lines().enumerate() {
        let place = format!("{}:{}", doc.name, i + 1);
        if let Some(block) = open.as_mut() {
            if line.trim_start().starts_with("```") {
                blocks.push(open.take().expect("open block"));
            } else {
                block.lines.push(line.to_string());
            }
            continue;
        }
        if line.trim_start().starts_with("```") {
            paragraphs.extend(para.take());
            open = Some(Block {
                place,
                mark: mark.take(),
                lines: Vec::new(),
            });
            continue;
        }
        if let Some(m) = line
            .trim()
            .strip_prefix("<!-- example:")
            .and_then(|m| m.strip_suffix("-->"))
        {
            mark = Some(m.trim().to_string());
            continue;
        }
        if line.trim().is_empty() {
            paragraphs.extend(para.take());
            continue;
        }
        match para.as_mut() {
            Some(p) => {
                p.text.push(' ');
                p.text.push_str(line.trim());
            }
            None => {
                para = Some(Paragraph {
                    place,
                    text: line.trim().to_string(),
                })
            }
        }
    }
    assert!(open.is_none(), "{}: a code block is not closed", doc.name);
    paragraphs.extend(para);
    (blocks, paragraphs)
}

/// The inline code spans of a text (between single backticks).
fn spans(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.trim().to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Notation

/// The words of a text, cut at blanks and at the characters around examples in prose.
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || "`\"'(),;|".contains(c))
        .map(|w| w.trim_end_matches(['.', ':']))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The Oware diagrams of a text: the whole ones (14 counts and the side) and the houses alone
/// (12 counts, as the literature gives positions).
fn diagrams(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| {
            let fields: Vec<&str> = w.split('-').collect();
            let counts = fields
                .iter()
                .take_while(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()))
                .count();
            counts >= 12 && (counts == fields.len() || counts + 1 == fields.len())
        })
        .map(str::to_string)
        .collect()
}

/// The Dobutsu FENs of a text: four ranks and the hands, then the side to move and counters
/// as far as they go.
fn fens(text: &str) -> Vec<String> {
    let words = words(text);
    let mut found = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let board = w.split('[').next().unwrap_or("");
        if board.split('/').count() != 4 || !w.ends_with(']') || !w.contains('[') {
            continue;
        }
        let mut fen = vec![*w];
        let rest = &words[i + 1..];
        if let Some(side @ ("w" | "b")) = rest.first().copied() {
            fen.push(side);
            for more in rest[1..].iter().take(4) {
                if *more == "-" || more.chars().all(|c| c.is_ascii_digit()) {
                    fen.push(more);
                } else {
                    break;
                }
            }
        }
        found.push(fen.join(" "));
    }
    found
}

/// The span is moves alone: Oware houses or Dobutsu moves (`b2b3`, `b3b4+`, `C@b3`).
fn move_list(span: &str) -> Option<Kind> {
    let words: Vec<&str> = span.split(' ').collect();
    let oware = |w: &str| !w.is_empty() && w.chars().all(|c| matches!(c, 'A'..='F' | 'a'..='f'));
    let dobutsu = |w: &str| {
        let b = w.as_bytes();
        let square =
            |s: &[u8]| s.len() == 2 && (b'a'..=b'c').contains(&s[0]) && s[1].is_ascii_digit();
        (b.len() >= 4 && square(&b[..2]) && square(&b[2..4]) && (b.len() == 4 || &b[4..] == b"+"))
            || (b.len() == 4 && b[0].is_ascii_uppercase() && b[1] == b'@' && square(&b[2..]))
    };
    if words.iter().all(|w| oware(w)) {
        Some(Kind::Oware)
    } else if words.iter().all(|w| dobutsu(w)) {
        Some(Kind::Dobutsu)
    } else {
        None
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Oware,
    Dobutsu,
}

/// Parses a diagram (whole, or the houses alone with stores making up 48 seeds).
fn check_diagram(diagram: &str) -> Result<(), String> {
    let fields: Vec<&str> = diagram.split('-').collect();
    let text = if fields.len() == 12 {
        let on_board: u32 = fields.iter().map(|f| f.parse::<u32>().unwrap_or(99)).sum();
        let stores = 48u32.saturating_sub(on_board);
        format!("{diagram}-{}-{}-S", stores / 2, stores - stores / 2)
    } else {
        diagram.to_string()
    };
    oware::Board::parse_position(&text, &Default::default())
        .map(|_| ())
        .map_err(|e| format!("diagram '{diagram}': {e}"))
}

fn check_fen(fen: &str) -> Result<(), String> {
    dobutsu::Position::from_fen(fen)
        .map(|_| ())
        .map_err(|e| format!("FEN '{fen}': {e}"))
}

/// Plays `words` from the start of `G`: each move legal where it is played.
fn legal_from_start<G: Notation>(words: &[&str]) -> Result<(), String>
where
    G::Rules: Default,
    G::Move: PartialEq + std::fmt::Display,
{
    let mut pos = G::start(&Default::default());
    let moves = pos.parse_moves(words).map_err(|e| e.to_string())?;
    let mut legal = Vec::new();
    for (i, mv) in moves.into_iter().enumerate() {
        legal.clear();
        pos.legal_moves(&mut legal);
        if pos.outcome().is_some() || !legal.contains(&mv) {
            return Err(format!("move {} ({mv}) is not legal there", i + 1));
        }
        pos = pos.play(mv).0;
    }
    Ok(())
}

/// Reads a move list; `from_start`: the text says it is played from the start, so it must be
/// legal there.
fn check_moves(span: &str, game: Kind, from_start: bool) -> Result<(), String> {
    let words: Vec<&str> = span.split(' ').collect();
    let parsed = match (game, from_start) {
        (Kind::Oware, true) => legal_from_start::<oware::Board>(&words),
        (Kind::Dobutsu, true) => legal_from_start::<dobutsu::Position>(&words),
        (Kind::Oware, false) => <oware::Board as Game>::start(&Default::default())
            .parse_moves(&words)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        // Notation alone: which position a move list in the text is played from, the text says.
        (Kind::Dobutsu, false) => words
            .iter()
            .try_for_each(|w| w.parse::<dobutsu::Move>().map(|_| ()))
            .map_err(|e| e.to_string()),
    };
    parsed.map_err(|e| format!("moves '{span}': {e}"))
}

/// How many examples of each kind a text holds, and what is wrong with them.
#[derive(Default)]
struct Checked {
    diagrams: usize,
    fens: usize,
    move_lists: usize,
    info_lines: usize,
    failures: Vec<String>,
}

impl Checked {
    fn text(&mut self, place: &str, text: &str) {
        for d in diagrams(text) {
            self.diagrams += 1;
            if let Err(e) = check_diagram(&d) {
                self.failures.push(format!("{place}: {e}"));
            }
        }
        for f in fens(text) {
            self.fens += 1;
            if let Err(e) = check_fen(&f) {
                self.failures.push(format!("{place}: {e}"));
            }
        }
    }

    /// The move lists among the inline code spans of `text`; those shortly after the words
    /// "from the start" are played from it.
    fn spans(&mut self, place: &str, text: &str) {
        let mut at = 0;
        for span in spans(text) {
            let found = text[at..].find(&format!("`{span}`")).map_or(at, |i| at + i);
            let mut from = found.saturating_sub(60);
            while !text.is_char_boundary(from) {
                from -= 1;
            }
            let before = &text[from..found];
            at = found + 1;
            if let Some(game) = move_list(&span) {
                self.move_lists += 1;
                if let Err(e) = check_moves(&span, game, before.contains("from the start")) {
                    self.failures.push(format!("{place}: {e}"));
                }
            }
        }
    }
}

#[test]
fn every_diagram_fen_and_move_list_in_the_documents_parses() {
    let mut checked = Checked::default();
    for doc in docs() {
        let (blocks, paragraphs) = split(&doc);
        for p in &paragraphs {
            checked.text(&p.place, &p.text);
            checked.spans(&p.place, &p.text);
        }
        for b in &blocks {
            for line in &b.lines {
                checked.text(&b.place, line);
                // An Oware `info` line (its pv run together) in the documented field order;
                // parse_info names what is out of place.
                if line.starts_with("info depth ") && !line.contains(" multipv ") {
                    let pv = line.split(" pv ").nth(1).unwrap_or("");
                    if pv.chars().all(|c| c.is_ascii_alphabetic()) {
                        checked.info_lines += 1;
                        crate::common::parse_info(line);
                    }
                }
            }
        }
    }
    assert!(checked.failures.is_empty(), "{:#?}", checked.failures);
    assert!(checked.info_lines >= 3, "{} info lines", checked.info_lines);
    // The documents hold this many at least: an extraction that finds none checks nothing.
    assert!(checked.diagrams >= 5, "{} diagrams", checked.diagrams);
    assert!(checked.fens >= 5, "{} FENs", checked.fens);
    assert!(checked.move_lists >= 5, "{} move lists", checked.move_lists);
}

/// The subcommands a help text lists (below `Commands:`), `help` left out.
fn subcommands(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(str::to_string)
        .collect()
}

/// The help texts of the binary and of every subcommand, with the arguments that show them.
fn help_texts() -> Vec<(Vec<String>, String)> {
    let mut todo = vec![Vec::<String>::new()];
    let mut texts = Vec::new();
    while let Some(args) = todo.pop() {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = help(&refs);
        for sub in subcommands(&text) {
            let mut more = args.clone();
            more.push(sub);
            todo.push(more);
        }
        texts.push((args, text));
    }
    texts
}

#[test]
fn every_diagram_fen_and_move_list_in_the_help_parses() {
    let mut checked = Checked::default();
    let mut probed = 0;
    let empty = scratch_dir("help-no-tables");
    for (args, text) in help_texts() {
        // Help wraps its lines: an example may run over two of them.
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let place = format!("perfectplay {} --help", args.join(" "));
        checked.text(&place, &joined);
        checked.spans(&place, &joined);
        if args.first().is_some_and(|a| a == "tablebase") {
            for d in diagrams(&joined)
                .into_iter()
                .filter(|d| d.ends_with(['S', 'N']))
            {
                probed += 1;
                let out = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
                    .args(["tablebase", "probe", &d, "--dir"])
                    .arg(&empty)
                    .output()
                    .expect("run tablebase probe");
                if !out.status.success() {
                    checked.failures.push(format!(
                        "{place}: tablebase probe {d}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
            }
        }
    }
    assert!(checked.failures.is_empty(), "{:#?}", checked.failures);
    assert!(checked.diagrams >= 2, "{} diagrams", checked.diagrams);
    assert!(checked.fens >= 1, "{} FENs", checked.fens);
    assert!(checked.move_lists >= 3, "{} move lists", checked.move_lists);
    assert!(probed >= 1, "no diagram in tablebase --help");
}

/// A `position` line is one to send: not a synopsis (`position startpos [moves M...]`).
fn position_line(text: &str) -> Option<&str> {
    let line = text.trim().trim_start_matches("$ ");
    (line.starts_with("position startpos") || line.starts_with("position fen "))
        .then_some(line)
        .filter(|l| !l.contains("...") && !l.contains('<'))
}

#[test]
fn every_position_line_shown_is_accepted() {
    let mut lines = Vec::new();
    for doc in docs() {
        let (blocks, paragraphs) = split(&doc);
        for p in &paragraphs {
            for span in spans(&p.text) {
                if let Some(l) = position_line(&span) {
                    lines.push((p.place.clone(), l.to_string()));
                }
            }
        }
        for b in &blocks {
            for line in &b.lines {
                if let Some(l) = position_line(line) {
                    lines.push((b.place.clone(), l.to_string()));
                }
            }
        }
    }
    assert!(lines.len() >= 5, "{} position lines", lines.len());
    let mut engine = Engine::start();
    let mut failures = Vec::new();
    for (place, line) in &lines {
        // A Dobutsu position has digits in its moves or a FEN with ranks.
        let dobutsu = line.contains('/')
            || line
                .split(' ')
                .skip(3)
                .any(|w| w.contains(['1', '2', '3', '4']));
        let variant = if dobutsu { "dobutsu" } else { "abapa" };
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        engine.send(line);
        engine.send("legal");
        let got = engine.sync();
        if got.iter().any(|l| l.starts_with("info string error")) || got.is_empty() {
            failures.push(format!("{place}: '{line}': {got:?}"));
        }
    }
    engine.finish();
    assert!(failures.is_empty(), "{failures:#?}");
}

// ---------------------------------------------------------------------------------------------
// Replies

/// The line with the numbers that vary from run to run read as `_`: `time` and `nps` of `info`
/// lines, and durations (`1.5 s`, `12 ms`).
fn steady(line: &str) -> String {
    let line = without_timing(line.trim_end());
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let unit = words
            .get(i + 1)
            .map(|u| u.trim_end_matches([',', ';', ')']));
        let number = !w.is_empty() && w.parse::<f64>().is_ok();
        if number && matches!(unit, Some("s" | "ms")) {
            out.push("_");
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

/// Whether `got` reads as `shown`: the lines in order, `...` for any lines between (or before,
/// or after).
fn reads_as(shown: &[String], got: &[String]) -> Result<(), String> {
    let got: Vec<String> = got.iter().map(|l| steady(l)).collect();
    let runs: Vec<Vec<String>> = shown
        .split(|l| l.trim() == "...")
        .map(|run| run.iter().map(|l| steady(l)).collect())
        .collect();
    let last = runs.len() - 1;
    let mut at = 0;
    for (i, run) in runs.iter().enumerate() {
        let fits = |from: usize| got.get(from..from + run.len()) == Some(&run[..]);
        let found = if i == 0 {
            fits(0).then_some(0)
        } else if i == last && !run.is_empty() {
            let from = got.len().checked_sub(run.len()).filter(|&f| f >= at);
            from.filter(|&f| fits(f))
        } else {
            (at..=got.len()).find(|&f| fits(f))
        };
        let Some(from) = found else {
            return Err(format!(
                "the lines {run:#?} are not where the example shows them in the output {got:#?}"
            ));
        };
        at = from + run.len();
    }
    if runs.len() == 1 && at != got.len() {
        return Err(format!("more output than shown: {got:#?}"));
    }
    Ok(())
}

#[test]
fn every_session_gives_the_replies_shown() {
    let mut sessions = 0;
    let mut failures = Vec::new();
    for doc in docs() {
        let (blocks, _) = split(&doc);
        let mut last: Option<(String, Vec<String>)> = None;
        for (i, b) in blocks.iter().enumerate() {
            let input = match b.mark.as_deref() {
                Some("session") => {
                    let replies_next = blocks.get(i + 1).is_some_and(|n| {
                        n.mark.as_deref().is_some_and(|m| m.starts_with("replies"))
                    });
                    if !replies_next {
                        sessions += 1;
                        let got = run_session(&b.lines);
                        if let Some(e) = got.iter().find(|l| l.starts_with("info string error")) {
                            failures.push(format!("{}: the session answers '{e}'", b.place));
                        }
                    }
                    last = Some((b.place.clone(), b.lines.clone()));
                    continue;
                }
                Some("replies") => last.take(),
                Some(m) if m.starts_with("replies to ") => Some((
                    b.place.clone(),
                    m["replies to ".len()..]
                        .split('|')
                        .map(|l| l.trim().to_string())
                        .collect(),
                )),
                _ => continue,
            };
            let Some((place, input)) = input else {
                failures.push(format!("{}: replies to no session", b.place));
                continue;
            };
            sessions += 1;
            let got = run_session(&input);
            if let Err(e) = reads_as(&b.lines, &got) {
                failures.push(format!("{place} (replies at {}): {e}", b.place));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(sessions >= 3, "{sessions} sessions");
}

fn run_session(input: &[String]) -> Vec<String> {
    let mut engine = Engine::start();
    for line in input {
        engine.send(line);
    }
    engine.finish()
}

// ---------------------------------------------------------------------------------------------
// Commands

/// A command line as the document shows it, and the output shown after it (transcripts).
struct Shown {
    place: String,
    command: String,
    output: Option<Vec<String>>,
}

/// The command as `sh` runs it, if it runs `perfectplay`.
fn ours(command: &str) -> Option<String> {
    let first = command.split_whitespace().next()?;
    if ["perfectplay", "target/release/perfectplay", "pp"].contains(&first) {
        return Some(command.to_string());
    }
    if let Some(rest) = command.strip_prefix("/path/to/perfectplay") {
        return Some(format!("perfectplay{rest}"));
    }
    let rest = command.strip_prefix("cargo run --release")?;
    let rest = rest.trim_start();
    if rest.is_empty() || rest.starts_with('#') {
        return Some("perfectplay".into());
    }
    rest.strip_prefix("-- ").map(|r| format!("perfectplay {r}"))
}

/// A command with a placeholder is a synopsis: `...`, `<...>`, `[optional]` or an upper-case
/// word (`FILE`, `NAME=VALUE`, `--seeds N`) outside quotes.
fn synopsis(command: &str) -> bool {
    let code = command.split(" #").next().unwrap_or(command);
    let mut unquoted = String::new();
    for (i, part) in code.split(['"', '\'']).enumerate() {
        if i % 2 == 0 {
            unquoted.push_str(part);
            unquoted.push(' ');
        }
    }
    code.contains("...")
        || code.contains('<')
        || unquoted.contains('[')
        || unquoted.split_whitespace().any(|w| {
            w.split(['=', ':', '/']).any(|p| {
                !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                    && p.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            })
        })
}

/// The commands of a block, each with its `\` continuations joined.
fn commands(block: &Block) -> Vec<Shown> {
    let transcript = block.lines.iter().any(|l| l.starts_with("$ "));
    let mut shown: Vec<Shown> = Vec::new();
    let mut lines = block.lines.iter().peekable();
    while let Some(line) = lines.next() {
        let start = if transcript {
            match line.strip_prefix("$ ") {
                Some(c) => c,
                None => {
                    if let Some(Shown {
                        output: Some(out), ..
                    }) = shown.last_mut()
                    {
                        out.push(line.clone());
                    }
                    continue;
                }
            }
        } else {
            line.as_str()
        };
        let mut command = start.trim_end().to_string();
        while command.ends_with('\\') {
            command.pop();
            if !command.ends_with(' ') {
                command.push(' ');
            }
            match lines.next() {
                Some(next) => command.push_str(next.trim()),
                None => break,
            }
        }
        if let Some(command) = ours(&command) {
            shown.push(Shown {
                place: block.place.clone(),
                command,
                output: transcript.then(Vec::new),
            });
        }
    }
    shown
}

/// A fresh scratch directory in the target directory.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("examples-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The place where a document's commands run: the binary as `perfectplay` and `pp` on the
/// `PATH` and as `target/release/perfectplay`, the source tree's `data/`, and an empty data
/// directory (`XDG_DATA_HOME`).
struct Scratch {
    dir: PathBuf,
    path: String,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = scratch_dir(name);
        let bin = dir.join("bin");
        let release = dir.join("target/release");
        for d in [&bin, &release, &dir.join("xdg")] {
            std::fs::create_dir_all(d).expect("scratch dirs");
        }
        let exe = Path::new(env!("CARGO_BIN_EXE_perfectplay"));
        for link in [
            bin.join("perfectplay"),
            bin.join("pp"),
            release.join("perfectplay"),
        ] {
            std::os::unix::fs::symlink(exe, link).expect("link the binary");
        }
        std::os::unix::fs::symlink(root().join("data"), dir.join("data")).expect("link data/");
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Scratch { dir, path }
    }

    /// `solve dobutsu --probe` without `--table` reads the default place: a stand-in solution
    /// of a reduced game goes there.
    fn stand_in_solution(&self) {
        use perfectplay::dobutsu::solve::{self, file};
        use perfectplay::retro::Silent;
        let path = self.dir.join("xdg/perfectplay/dobutsu.solution");
        if !path.exists() {
            let start = dobutsu::Position::from_fen("1l1/1c1/1C1/1L1[] w").expect("FEN");
            let (solution, figures) = solve::analyse(&start, &Silent);
            std::fs::create_dir_all(path.parent().expect("dir")).expect("xdg/perfectplay");
            file::save(&solution, &figures, &path).expect("save the stand-in solution");
        }
    }

    /// Runs `command` by `sh`, only parsing it when `parse_only`; its standard output, or what
    /// went wrong.
    fn run(&self, command: &str, parse_only: bool) -> Result<Vec<String>, String> {
        if command.contains("solve dobutsu") && command.contains("--probe") {
            self.stand_in_solution();
        }
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(command)
            .current_dir(&self.dir)
            .env("PATH", &self.path)
            .env("XDG_DATA_HOME", self.dir.join("xdg"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if parse_only {
            sh.env("PERFECTPLAY_PARSE_ONLY", "1");
        }
        let mut child = sh.spawn().map_err(|e| format!("sh: {e}"))?;
        // A guard against a command that never ends, not a speed test: the slowest command shown
        // (the whole Dobutsu solution, about a minute on two quiet cores) takes several minutes
        // on a loaded machine, where the tests run beside each other.
        let deadline = Instant::now() + Duration::from_secs(1200);
        loop {
            if child.try_wait().map_err(|e| e.to_string())?.is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err("still running after 1200 s".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!(
                "{}; stderr: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(stdout.lines().map(str::to_string).collect())
    }
}

#[test]
fn every_command_shown_runs() {
    let mut ran = 0;
    let mut parsed = 0;
    let mut failures = Vec::new();
    for doc in docs() {
        let (blocks, paragraphs) = split(&doc);
        let scratch = Scratch::new(&doc.name.replace(['/', '.'], "-"));
        for b in &blocks {
            let long = b.mark.as_deref() == Some("long");
            for shown in commands(b) {
                if synopsis(&shown.command) {
                    continue;
                }
                if long {
                    parsed += 1;
                } else {
                    ran += 1;
                }
                match scratch.run(&shown.command, long) {
                    Err(e) => failures.push(format!("{}: {}: {e}", shown.place, shown.command)),
                    Ok(got) => {
                        if let Some(output) = shown.output.filter(|o| !long && !o.is_empty()) {
                            if let Err(e) = reads_as(&output, &got) {
                                failures.push(format!("{}: {}: {e}", shown.place, shown.command));
                            }
                        }
                    }
                }
            }
        }
        for p in &paragraphs {
            for span in spans(&p.text) {
                let Some(command) = ours(&span) else { continue };
                if synopsis(&command) {
                    continue;
                }
                parsed += 1;
                if let Err(e) = scratch.run(&command, true) {
                    failures.push(format!("{}: {command}: {e}", p.place));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 8, "{ran} commands run");
    assert!(parsed >= 8, "{parsed} commands parsed");
}

/// The parse-only mode checks the command line: a bad one fails as it would when run.
#[test]
fn parse_only_refuses_a_bad_command_line() {
    let scratch = Scratch::new("parse-only");
    assert!(scratch.run("perfectplay perft --depth 3", true).is_ok());
    assert!(scratch.run("perfectplay perft --depht 3", true).is_err());
    assert!(scratch
        .run("perfectplay bench --option Hash=1", true)
        .is_err());
    // Nothing runs: no output, where perft would print its count.
    assert_eq!(scratch.run("perfectplay perft --depth 3", true), Ok(vec![]));
}

/// A game record shown after `<!-- example: record -->` replays: every move legal, the result
/// the one the rules give (`perfectplay match --replay`).
#[test]
fn every_game_record_shown_replays() {
    let mut records = 0;
    let mut failures = Vec::new();
    for doc in docs() {
        let (blocks, _) = split(&doc);
        let scratch = Scratch::new(&format!("records-{}", doc.name.replace(['/', '.'], "-")));
        for b in blocks
            .iter()
            .filter(|b| b.mark.as_deref() == Some("record"))
        {
            records += 1;
            let dobutsu = b.lines.iter().any(|l| l == "[Variant \"dobutsu\"]");
            let file = format!("record-{records}.{}", if dobutsu { "pgn" } else { "ogn" });
            std::fs::write(scratch.dir.join(&file), b.lines.join("\n") + "\n").expect("record");
            if let Err(e) = scratch.run(&format!("perfectplay match --replay {file}"), false) {
                failures.push(format!("{}: {e}", b.place));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(records >= 1, "no record marked");
}
