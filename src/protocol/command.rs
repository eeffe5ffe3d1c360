//! Protocol input lines as typed [`Command`]s: read by the session ([`FromStr`]), written by the
//! match runner to the engines it drives ([`fmt::Display`]).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::search::{Clock, Limits, MAX_DEPTH};

/// One line of input from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answered with `readyok` at once.
    IsReady,
    /// `ucinewgame`: forget what earlier searches learned.
    NewGame,
    /// `setoption name N [value V]`.
    SetOption {
        /// The option's name as given.
        name: String,
        /// The value, empty when none was given.
        value: String,
    },
    /// `position startpos|fen POSITION [moves M...]`; `start` is `None` for `startpos`. The
    /// position and the moves are read by the selected game ([`crate::game::Notation`]).
    Position {
        /// The position's words joined by single spaces (a Dobutsu FEN has several), or `None`
        /// for the start position.
        start: Option<String>,
        /// The words after `moves`.
        moves: Vec<String>,
    },
    /// `go [nodes N] [depth D] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
    /// [movestogo N] [infinite] [ponder] [searchmoves M...]`.
    Go {
        /// The explicit limits (empty for plain `go`: the level decides).
        limits: Limits,
        /// Whether this is `go ponder`.
        ponder: bool,
        /// The words after `searchmoves` up to the next keyword: the root moves to search, read
        /// by the selected game (empty: all).
        searchmoves: Vec<String>,
    },
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `legal`: print the legal moves.
    Legal,
    /// `d`: print the board.
    Display,
    /// `debug on|off`: accepted, no effect.
    Debug,
    /// `quit`.
    Quit,
}

/// Why an input line is not a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is not a command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A keyword needs a value that is missing.
    #[error("'{0}' needs a value")]
    MissingValue(String),
    /// A value is not a valid number.
    #[error("'{value}' is not a valid value for '{key}' (expected {expected})")]
    BadNumber {
        /// The keyword.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// An unknown word inside a command.
    #[error("unexpected '{word}' in '{command}'")]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        word: String,
    },
    /// A keyword given twice in one command (`go depth 3 depth 10`): which one was meant?
    #[error("'{word}' given twice in '{command}'")]
    Repeated {
        /// The command.
        command: &'static str,
        /// The keyword.
        word: String,
    },
    /// `position` without `startpos` or `fen`.
    #[error("position needs 'startpos' or 'fen POSITION'")]
    PositionKind,
    /// `setoption` without `name`.
    #[error("setoption needs 'name NAME [value VALUE]'")]
    SetOptionSyntax,
}

impl FromStr for Command {
    type Err = CommandError;

    /// Parses one line. Leading and trailing spaces are ignored; words are separated by any
    /// whitespace. An empty line is [`CommandError::Unknown`] with an empty name.
    fn from_str(line: &str) -> Result<Command, CommandError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = words.split_first() else {
            return Err(CommandError::Unknown(String::new()));
        };
        let no_args = |cmd: &'static str, c: Command| match rest.first() {
            None => Ok(c),
            Some(w) => Err(CommandError::Unexpected {
                command: cmd,
                word: w.to_string(),
            }),
        };
        match head {
            "uci" => no_args("uci", Command::Uci),
            "isready" => no_args("isready", Command::IsReady),
            "ucinewgame" => no_args("ucinewgame", Command::NewGame),
            "stop" => no_args("stop", Command::Stop),
            "ponderhit" => no_args("ponderhit", Command::PonderHit),
            "legal" => no_args("legal", Command::Legal),
            "d" => no_args("d", Command::Display),
            "quit" => no_args("quit", Command::Quit),
            "debug" => match rest {
                [] | ["on"] | ["off"] => Ok(Command::Debug),
                [w, ..] => Err(CommandError::Unexpected {
                    command: "debug",
                    word: w.to_string(),
                }),
            },
            "setoption" => parse_setoption(rest),
            "position" => parse_position(rest),
            "go" => parse_go(rest),
            other => Err(CommandError::Unknown(other.to_string())),
        }
    }
}

impl fmt::Display for Command {
    /// The command as a GUI sends it: what [`Command::from_str`] reads back into the same
    /// command (the words of a position, a move or an option's name and value as given; `debug`
    /// without its `on` or `off`, which the engine ignores).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("ucinewgame"),
            Command::SetOption { name, value } if value.is_empty() => {
                write!(f, "setoption name {name}")
            }
            Command::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
            Command::Position { start, moves } => {
                match start {
                    None => f.write_str("position startpos")?,
                    Some(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go {
                limits,
                ponder,
                searchmoves,
            } => {
                f.write_str("go")?;
                if let Some(depth) = limits.depth {
                    write!(f, " depth {depth}")?;
                }
                if let Some(nodes) = limits.nodes {
                    write!(f, " nodes {nodes}")?;
                }
                if let Some(movetime) = limits.movetime {
                    write!(f, " movetime {}", movetime.as_millis())?;
                }
                if let Some(clock) = &limits.clock {
                    for (key, time) in ["wtime", "btime"].into_iter().zip(clock.time_ms) {
                        if let Some(ms) = time {
                            write!(f, " {key} {ms}")?;
                        }
                    }
                    for (key, ms) in ["winc", "binc"].into_iter().zip(clock.increment_ms) {
                        if ms > 0 {
                            write!(f, " {key} {ms}")?;
                        }
                    }
                    if let Some(moves) = clock.moves_to_go {
                        write!(f, " movestogo {moves}")?;
                    }
                }
                if limits.infinite {
                    f.write_str(" infinite")?;
                }
                if *ponder {
                    f.write_str(" ponder")?;
                }
                if !searchmoves.is_empty() {
                    write!(f, " searchmoves {}", searchmoves.join(" "))?;
                }
                Ok(())
            }
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Legal => f.write_str("legal"),
            Command::Display => f.write_str("d"),
            Command::Debug => f.write_str("debug"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(CommandError::SetOptionSyntax);
    }
    let rest = &rest[1..];
    let value_at = rest.iter().position(|&w| w == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    if name.is_empty() {
        return Err(CommandError::SetOptionSyntax);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.join(" "),
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let (start, after) = match rest {
        ["startpos", after @ ..] => (None, after),
        ["fen", after @ ..] => {
            let end = after
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(after.len());
            if end == 0 {
                return Err(CommandError::MissingValue("fen".into()));
            }
            (Some(after[..end].join(" ")), &after[end..])
        }
        _ => return Err(CommandError::PositionKind),
    };
    let moves = match after {
        [] => Vec::new(),
        ["moves", list @ ..] if list.contains(&"moves") => {
            return Err(CommandError::Repeated {
                command: "position",
                word: "moves".to_string(),
            })
        }
        ["moves", list @ ..] => list.iter().map(|w| w.to_string()).collect(),
        [w, ..] => {
            return Err(CommandError::Unexpected {
                command: "position",
                word: w.to_string(),
            })
        }
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<Command, CommandError> {
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut searchmoves = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let mut words = rest.iter().peekable();
    while let Some(&word) = words.next() {
        if seen.contains(&word) {
            return Err(CommandError::Repeated {
                command: "go",
                word: word.to_string(),
            });
        }
        seen.push(word);
        let mut number = |min: i64, max: i64| -> Result<i64, CommandError> {
            let value = words
                .next()
                .ok_or_else(|| CommandError::MissingValue(word.to_string()))?;
            match value.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(v),
                _ => Err(CommandError::BadNumber {
                    key: word.to_string(),
                    value: value.to_string(),
                    expected: format!("a whole number from {min} to {max}"),
                }),
            }
        };
        match word {
            "nodes" => limits.nodes = Some(number(1, i64::MAX)? as u64),
            "depth" => limits.depth = Some(number(1, MAX_DEPTH as i64)? as u32),
            "movetime" => {
                limits.movetime = Some(Duration::from_millis(number(0, u32::MAX as i64)? as u64))
            }
            "infinite" => limits.infinite = true,
            "ponder" => ponder = true,
            // As in UCI, the moves run to the next keyword.
            "searchmoves" => {
                while let Some(&&mv) = words.peek() {
                    if GO_KEYWORDS.contains(&mv) {
                        break;
                    }
                    searchmoves.push(mv.to_string());
                    words.next();
                }
                if searchmoves.is_empty() {
                    return Err(CommandError::MissingValue(word.to_string()));
                }
            }
            // GUIs send negative times when a clock has run out (the search then does its first
            // iteration only), and some a negative increment when there is none.
            "wtime" | "btime" => {
                let ms = number(i64::MIN, i64::MAX)?;
                let clock = limits.clock.get_or_insert_with(Clock::default);
                clock.time_ms[usize::from(word == "btime")] = Some(ms);
            }
            "winc" | "binc" => {
                let ms = number(i64::MIN, i64::MAX)?.max(0) as u64;
                let clock = limits.clock.get_or_insert_with(Clock::default);
                clock.increment_ms[usize::from(word == "binc")] = ms;
            }
            "movestogo" => {
                let moves = number(i64::MIN, i64::MAX)?.clamp(1, i64::from(u32::MAX)) as u32;
                limits.clock.get_or_insert_with(Clock::default).moves_to_go = Some(moves);
            }
            other => {
                return Err(CommandError::Unexpected {
                    command: "go",
                    word: other.to_string(),
                })
            }
        }
    }
    Ok(Command::Go {
        limits,
        ponder,
        searchmoves,
    })
}

/// The keywords of `go`: a `searchmoves` list ends at the first of them.
const GO_KEYWORDS: [&str; 11] = [
    "nodes",
    "depth",
    "movetime",
    "infinite",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "searchmoves",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_keeps_the_words_for_the_game_to_read() {
        let c: Command = "position startpos moves F f B e".parse().unwrap();
        assert_eq!(
            c,
            Command::Position {
                start: None,
                moves: vec!["F".into(), "f".into(), "B".into(), "e".into()]
            }
        );
        let c: Command = "position fen 6-1-7-6-5-1-6-5-5-5-0-1-0-0-S moves A"
            .parse()
            .unwrap();
        assert_eq!(
            c,
            Command::Position {
                start: Some("6-1-7-6-5-1-6-5-5-5-0-1-0-0-S".into()),
                moves: vec!["A".into()]
            }
        );
        // A FEN of several words (Dobutsu Shogi's) is kept whole, blanks made single.
        let c: Command = "position fen gle/1c1/1C1/ELG[-]   w 0 1".parse().unwrap();
        assert_eq!(
            c,
            Command::Position {
                start: Some("gle/1c1/1C1/ELG[-] w 0 1".into()),
                moves: vec![]
            }
        );
        assert!(matches!(
            "position fen".parse::<Command>(),
            Err(CommandError::MissingValue(_))
        ));
        assert!(matches!(
            "position fen moves A".parse::<Command>(),
            Err(CommandError::MissingValue(_))
        ));
        assert!(matches!(
            "position startpos A".parse::<Command>(),
            Err(CommandError::Unexpected { .. })
        ));
        assert_eq!(
            "position startpos moves F f moves B".parse::<Command>(),
            Err(CommandError::Repeated {
                command: "position",
                word: "moves".into()
            })
        );
        assert!(matches!(
            "position".parse::<Command>(),
            Err(CommandError::PositionKind)
        ));
    }

    #[test]
    fn parses_combined_go_limits() {
        let c: Command = "go depth 16 movetime 2400".parse().unwrap();
        let Command::Go {
            limits,
            ponder: false,
            ..
        } = c
        else {
            panic!("not go")
        };
        assert_eq!(limits.depth, Some(16));
        assert_eq!(limits.movetime, Some(Duration::from_millis(2400)));
        assert_eq!(limits.nodes, None);
        let c: Command = "go ponder".parse().unwrap();
        assert!(matches!(c, Command::Go { ponder: true, .. }));
        assert!("go infinite".parse::<Command>().is_ok_and(|c| matches!(
            c,
            Command::Go {
                limits: Limits { infinite: true, .. },
                ..
            }
        )));
        assert!(matches!(
            "go nodes".parse::<Command>(),
            Err(CommandError::MissingValue(_))
        ));
        assert!(matches!(
            "go nodes -5".parse::<Command>(),
            Err(CommandError::BadNumber { .. })
        ));
        assert!(matches!(
            "go sideways".parse::<Command>(),
            Err(CommandError::Unexpected { .. })
        ));
    }

    #[test]
    fn go_refuses_empty_budgets_and_accepts_negative_clocks() {
        assert!(matches!(
            "go nodes 0".parse::<Command>(),
            Err(CommandError::BadNumber { .. })
        ));
        assert!(matches!(
            "go depth 0".parse::<Command>(),
            Err(CommandError::BadNumber { .. })
        ));
        assert!(matches!(
            "go depth 101".parse::<Command>(),
            Err(CommandError::BadNumber { .. })
        ));
        let c: Command = "go wtime -100 btime 5 winc 0 depth 2".parse().unwrap();
        assert!(matches!(
            c,
            Command::Go {
                limits: Limits { depth: Some(2), .. },
                ..
            }
        ));
        let Command::Go { limits, .. } = c else {
            panic!("not go")
        };
        let clock = limits.clock.expect("a clock");
        assert_eq!(clock.time_ms, [Some(-100), Some(5)]);
        assert_eq!((clock.increment_ms, clock.moves_to_go), ([0, 0], None));
        let c: Command = "go btime 900 binc 30 winc -5 movestogo 0".parse().unwrap();
        let Command::Go { limits, .. } = c else {
            panic!("not go")
        };
        assert_eq!(
            limits.clock,
            Some(Clock {
                time_ms: [None, Some(900)],
                increment_ms: [0, 30],
                moves_to_go: Some(1),
                overhead_ms: 0,
            })
        );
        assert!(!limits.is_empty() && limits.depends_on_time());
        let Ok(Command::Go { limits, .. }) = "go depth 5 nodes 9".parse::<Command>() else {
            panic!("not go")
        };
        assert!(!limits.depends_on_time());
        for repeated in [
            "go depth 3 depth 10",
            "go nodes 5 depth 2 nodes 5",
            "go infinite infinite",
            "go ponder movetime 5 ponder",
            "go wtime 5 wtime 6",
        ] {
            assert!(
                matches!(
                    repeated.parse::<Command>(),
                    Err(CommandError::Repeated { command: "go", .. })
                ),
                "{repeated}"
            );
        }
        assert!(matches!(
            "go mate 3".parse::<Command>(),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(matches!(
            "go searchmoves".parse::<Command>(),
            Err(CommandError::MissingValue(_))
        ));
        assert!(matches!(
            "go searchmoves depth 3".parse::<Command>(),
            Err(CommandError::MissingValue(_))
        ));
        let Ok(Command::Go {
            limits,
            searchmoves,
            ..
        }) = "go searchmoves b2b3 C@a3 depth 7".parse::<Command>()
        else {
            panic!("go searchmoves not read");
        };
        assert_eq!(searchmoves, ["b2b3", "C@a3"]);
        assert_eq!(limits.depth, Some(7));
    }

    #[test]
    fn parses_setoption_names_and_values_with_spaces() {
        let c: Command = "setoption name Seed value two words".parse().unwrap();
        assert_eq!(
            c,
            Command::SetOption {
                name: "Seed".into(),
                value: "two words".into()
            }
        );
        assert!(matches!(
            "setoption Level 3".parse::<Command>(),
            Err(CommandError::SetOptionSyntax)
        ));
        assert!(matches!(
            "uci now".parse::<Command>(),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(matches!(
            "".parse::<Command>(),
            Err(CommandError::Unknown(_))
        ));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A word of a name, a value, a position or a move: never a keyword of the commands.
    fn word() -> impl Strategy<Value = String> {
        "[A-Za-z0-9@+/_.\\[\\]-]{1,8}".prop_filter("not a keyword", |w| {
            !GO_KEYWORDS.contains(&w.as_str())
                && !["value", "name", "moves", "fen", "startpos"].contains(&w.as_str())
        })
    }

    fn words(max: usize) -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec(word(), 1..max)
    }

    fn limits() -> impl Strategy<Value = Limits> {
        let clock = (
            any::<i64>(),
            prop::option::of(any::<i64>()),
            0..=i64::MAX as u64,
            0..=i64::MAX as u64,
            prop::option::of(1..=u32::MAX),
        )
            .prop_map(|(white, black, winc, binc, moves_to_go)| Clock {
                time_ms: [Some(white), black],
                increment_ms: [winc, binc],
                moves_to_go,
                ..Clock::default()
            });
        (
            prop::option::of(1..=MAX_DEPTH),
            prop::option::of(1..=i64::MAX as u64),
            prop::option::of(0..=u64::from(u32::MAX)),
            prop::option::of(clock),
            any::<bool>(),
        )
            .prop_map(|(depth, nodes, movetime, clock, infinite)| Limits {
                depth,
                nodes,
                movetime: movetime.map(Duration::from_millis),
                clock,
                infinite,
            })
    }

    fn command() -> impl Strategy<Value = Command> {
        prop_oneof![
            Just(Command::Uci),
            Just(Command::IsReady),
            Just(Command::NewGame),
            Just(Command::Stop),
            Just(Command::PonderHit),
            Just(Command::Legal),
            Just(Command::Display),
            Just(Command::Debug),
            Just(Command::Quit),
            (words(4), prop::collection::vec(word(), 0..4)).prop_map(|(name, value)| {
                Command::SetOption {
                    name: name.join(" "),
                    value: value.join(" "),
                }
            }),
            (
                prop::option::of(words(4)),
                prop::collection::vec(word(), 0..6)
            )
                .prop_map(|(start, moves)| Command::Position {
                    start: start.map(|w| w.join(" ")),
                    moves,
                }),
            (limits(), any::<bool>(), prop::collection::vec(word(), 0..4)).prop_map(
                |(limits, ponder, searchmoves)| Command::Go {
                    limits,
                    ponder,
                    searchmoves,
                }
            ),
        ]
    }

    proptest! {
        /// Every command written reads back as itself.
        #[test]
        fn commands_round_trip(command in command()) {
            let line = command.to_string();
            prop_assert_eq!(line.parse::<Command>(), Ok(command), "{}", line);
        }
    }
}
