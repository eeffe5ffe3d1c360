//! The engine's replies as types: what the session writes ([`std::fmt::Display`]) and what the
//! match runner reads of an engine ([`std::str::FromStr`], tolerant of what other engines add:
//! unknown words are skipped, an unknown line is [`Reply::Other`]).

use std::fmt;
use std::str::FromStr;

use crate::search::Score;

/// One line an engine writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name NAME` or `id author AUTHOR`.
    Id {
        /// `name` or `author`.
        field: String,
        /// The rest of the line.
        value: String,
    },
    /// `option name NAME type KIND ...`.
    Option(OptionLine),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...` with a search's figures.
    Info(Info),
    /// `info string TEXT`.
    InfoString(String),
    /// `bestmove MOVE [ponder MOVE]`.
    BestMove {
        /// The move (`0000` when there is none).
        best: String,
        /// The move the engine expects in reply.
        ponder: Option<String>,
    },
    /// Any other line, kept as it came.
    Other(String),
}

/// An `option` line: the option's name, type and range.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionLine {
    /// The name (may hold blanks).
    pub name: String,
    /// `check`, `spin`, `combo`, `string` or `button`.
    pub kind: String,
    /// The default value as written (`<empty>` for an empty text).
    pub default: Option<String>,
    /// A spin's least value.
    pub min: Option<String>,
    /// A spin's greatest value.
    pub max: Option<String>,
    /// A combo's choices, in order.
    pub vars: Vec<String>,
}

/// The figures of an `info` line, each where the line gives it. `time` is in milliseconds,
/// `nps` in nodes per second, `wdl` per mille, `hashfull` per mille.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`, in plies.
    pub depth: Option<u32>,
    /// `seldepth`, in plies.
    pub seldepth: Option<u32>,
    /// `multipv`: the line's rank, 1 for the best.
    pub multipv: Option<u32>,
    /// `nodes` searched.
    pub nodes: Option<u64>,
    /// `score cp N` or `score mate N`, from the side to move.
    pub score: Option<Score>,
    /// `wdl W D L`.
    pub wdl: Option<[u32; 3]>,
    /// `time`, in ms.
    pub time: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull`.
    pub hashfull: Option<u32>,
    /// `tbhits`.
    pub tbhits: Option<u64>,
    /// `pv`: the rest of the line, as the game writes move lists (Oware runs them together).
    pub pv: Option<String>,
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { field, value } => write!(f, "id {field} {value}"),
            Reply::Option(option) => option.fmt(f),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(info) => info.fmt(f),
            Reply::InfoString(text) => write!(f, "info string {text}"),
            Reply::BestMove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                match ponder {
                    Some(p) => write!(f, " ponder {p}"),
                    None => Ok(()),
                }
            }
            Reply::Other(line) => f.write_str(line),
        }
    }
}

impl fmt::Display for OptionLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type {}", self.name, self.kind)?;
        for (key, value) in [
            ("default", &self.default),
            ("min", &self.min),
            ("max", &self.max),
        ] {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        for var in &self.vars {
            write!(f, " var {var}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Info {
    /// In the order the engine writes them: `info depth D seldepth S [multipv K] nodes N score
    /// X [wdl W D L] time T nps R [hashfull H] [tbhits B] [pv ...]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
            ("nodes", self.nodes),
        ];
        for (key, value) in numbers {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        if let Some([w, d, l]) = self.wdl {
            write!(f, " wdl {w} {d} {l}")?;
        }
        let numbers = [
            ("time", self.time),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
        ];
        for (key, value) in numbers {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        if let Some(pv) = &self.pv {
            write!(f, " pv {pv}")?;
        }
        Ok(())
    }
}

impl FromStr for Reply {
    type Err = std::convert::Infallible;

    /// Reads one line; never fails: a line it does not know is [`Reply::Other`], and the
    /// words of a known line it does not know are skipped.
    fn from_str(line: &str) -> Result<Reply, Self::Err> {
        let trimmed = line.trim();
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        Ok(match words.as_slice() {
            ["uciok"] => Reply::UciOk,
            ["readyok"] => Reply::ReadyOk,
            ["id", field, rest @ ..] => Reply::Id {
                field: field.to_string(),
                value: rest.join(" "),
            },
            // A `bestmove` without a move: the reader sees an empty move, which no game reads.
            ["bestmove"] => Reply::BestMove {
                best: String::new(),
                ponder: None,
            },
            ["bestmove", best] => Reply::BestMove {
                best: best.to_string(),
                ponder: None,
            },
            ["bestmove", best, "ponder", ponder, ..] => Reply::BestMove {
                best: best.to_string(),
                ponder: Some(ponder.to_string()),
            },
            ["bestmove", best, ..] => Reply::BestMove {
                best: best.to_string(),
                ponder: None,
            },
            ["info", "string", ..] => Reply::InfoString(rest_after(trimmed, 2)),
            ["info", rest @ ..] => Reply::Info(read_info(rest)),
            ["option", "name", rest @ ..] => Reply::Option(read_option(rest)),
            _ => Reply::Other(line.trim_end_matches(['\r', '\n']).to_string()),
        })
    }
}

/// The text of `line` after its first `n` words, its blanks kept.
fn rest_after(line: &str, n: usize) -> String {
    let mut rest = line;
    for _ in 0..n {
        rest = rest.trim_start();
        rest = &rest[rest.find(char::is_whitespace).unwrap_or(rest.len())..];
    }
    rest.trim().to_string()
}

fn read_info(words: &[&str]) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    let number = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    while i < words.len() {
        let mut step = 2;
        match words[i] {
            "depth" => info.depth = number(i).and_then(|n| u32::try_from(n).ok()),
            "seldepth" => info.seldepth = number(i).and_then(|n| u32::try_from(n).ok()),
            "multipv" => info.multipv = number(i).and_then(|n| u32::try_from(n).ok()),
            "nodes" => info.nodes = number(i),
            "time" => info.time = number(i),
            "nps" => info.nps = number(i),
            "hashfull" => info.hashfull = number(i).and_then(|n| u32::try_from(n).ok()),
            "tbhits" => info.tbhits = number(i),
            "score" => {
                let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                info.score = match (words.get(i + 1).copied(), value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                step = 3;
            }
            "wdl" => {
                let chances: Vec<u32> = words
                    .iter()
                    .skip(i + 1)
                    .take(3)
                    .map_while(|w| w.parse().ok())
                    .collect();
                info.wdl = <[u32; 3]>::try_from(chances).ok();
                step = 4;
            }
            "pv" => {
                info.pv = Some(words[i + 1..].join(" "));
                break;
            }
            // Unknown words (`currmove`, `lowerbound`, another engine's own) are skipped.
            _ => step = 1,
        }
        i += step;
    }
    info
}

/// The keywords of an `option` line after its name.
const OPTION_KEYWORDS: [&str; 5] = ["type", "default", "min", "max", "var"];

fn read_option(words: &[&str]) -> OptionLine {
    let name_end = words
        .iter()
        .position(|&w| w == "type")
        .unwrap_or(words.len());
    let mut option = OptionLine {
        name: words[..name_end].join(" "),
        ..OptionLine::default()
    };
    let mut i = name_end;
    while i < words.len() {
        let key = words[i];
        let end = words[i + 1..]
            .iter()
            .position(|w| OPTION_KEYWORDS.contains(w))
            .map_or(words.len(), |p| i + 1 + p);
        let value = words[i + 1..end].join(" ");
        match key {
            "type" => option.kind = value,
            "default" => option.default = Some(value),
            "min" => option.min = Some(value),
            "max" => option.max = Some(value),
            "var" => option.vars.push(value),
            _ => {}
        }
        i = end;
    }
    option
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's own lines read back into their parts.
    #[test]
    fn lines_are_read_into_their_parts() {
        let line = "info depth 10 seldepth 19 nodes 13092 score cp -3 wdl 120 700 180 time 4 \
                    nps 3185679 hashfull 1 pv DbEcDfBbFb";
        let Ok(Reply::Info(info)) = line.parse() else {
            panic!("{line}")
        };
        assert_eq!(info.depth, Some(10));
        assert_eq!(info.seldepth, Some(19));
        assert_eq!(info.score, Some(Score::Cp(-3)));
        assert_eq!(info.wdl, Some([120, 700, 180]));
        assert_eq!(info.pv.as_deref(), Some("DbEcDfBbFb"));
        assert_eq!(Reply::Info(info).to_string(), line);
        let line =
            "option name UCI_Variant type combo default abapa var abapa var awari var dobutsu";
        let Ok(Reply::Option(option)) = line.parse() else {
            panic!("{line}")
        };
        assert_eq!(option.name, "UCI_Variant");
        assert_eq!(option.vars, ["abapa", "awari", "dobutsu"]);
        assert_eq!(Reply::Option(option).to_string(), line);
        assert_eq!(
            "bestmove b2b3 ponder b4b3".parse::<Reply>().unwrap(),
            Reply::BestMove {
                best: "b2b3".into(),
                ponder: Some("b4b3".into())
            }
        );
        assert_eq!(
            "info string  loaded  a table".parse::<Reply>().unwrap(),
            Reply::InfoString("loaded  a table".into())
        );
    }

    /// Every option the engine declares (its own and each game's) reads as an option line that
    /// writes back the same.
    #[test]
    fn the_engines_option_lines_round_trip() {
        use crate::game::{Game, Settings};
        fn game_lines<G: Game>() -> Vec<String> {
            G::options()
                .iter()
                .map(|d| d.declaration(&Settings::<G>::default()))
                .collect()
        }
        let mut lines: Vec<String> = crate::protocol::engine_options()
            .iter()
            .map(|d| d.declaration(&Default::default()))
            .collect();
        lines.extend(game_lines::<crate::oware::Board>());
        lines.extend(game_lines::<crate::dobutsu::Position>());
        assert!(lines.len() > 20, "{lines:?}");
        for line in lines {
            let Ok(Reply::Option(option)) = line.parse::<Reply>() else {
                panic!("{line}")
            };
            assert!(!option.name.is_empty() && !option.kind.is_empty(), "{line}");
            assert_eq!(Reply::Option(option).to_string(), line);
        }
    }

    /// Another engine's extras are skipped: `currmove`, bounds, a `multipv` before `depth`.
    #[test]
    fn other_engines_words_are_skipped() {
        let line = "info multipv 2 depth 7 currmove e2e4 currmovenumber 3 score mate -4 \
                   lowerbound nodes 900 pv e2e4 e7e5";
        let Ok(Reply::Info(info)) = line.parse() else {
            panic!("{line}")
        };
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.score, Some(Score::Mate(-4)));
        assert_eq!(info.nodes, Some(900));
        assert_eq!(info.pv.as_deref(), Some("e2e4 e7e5"));
        assert_eq!(
            "Stockfish 17 by the Stockfish developers"
                .parse::<Reply>()
                .unwrap(),
            Reply::Other("Stockfish 17 by the Stockfish developers".into())
        );
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A word of a name, a value or a move: never one of the line's keywords.
    fn word() -> impl Strategy<Value = String> {
        "[A-Za-z0-9@+/_.-]{1,8}".prop_filter("not a keyword", |w| {
            ![
                "type", "default", "min", "max", "var", "pv", "string", "ponder",
            ]
            .contains(&w.as_str())
        })
    }

    fn words() -> impl Strategy<Value = String> {
        prop::collection::vec(word(), 1..5).prop_map(|w| w.join(" "))
    }

    fn score() -> impl Strategy<Value = Score> {
        prop_oneof![
            any::<i32>().prop_map(Score::Cp),
            any::<i32>().prop_map(Score::Mate)
        ]
    }

    fn info() -> impl Strategy<Value = Info> {
        (
            (
                prop::option::of(any::<u32>()),
                prop::option::of(any::<u32>()),
                prop::option::of(any::<u32>()),
                prop::option::of(any::<u64>()),
                prop::option::of(score()),
                prop::option::of(any::<[u32; 3]>()),
            ),
            (
                prop::option::of(any::<u64>()),
                prop::option::of(any::<u64>()),
                prop::option::of(any::<u32>()),
                prop::option::of(any::<u64>()),
                prop::option::of(words()),
            ),
        )
            .prop_map(
                |(
                    (depth, seldepth, multipv, nodes, score, wdl),
                    (time, nps, hashfull, tbhits, pv),
                )| {
                    Info {
                        depth,
                        seldepth,
                        multipv,
                        nodes,
                        score,
                        wdl,
                        time,
                        nps,
                        hashfull,
                        tbhits,
                        pv,
                    }
                },
            )
    }

    fn option_line() -> impl Strategy<Value = OptionLine> {
        (
            words(),
            word(),
            prop::option::of(words()),
            prop::option::of(word()),
            prop::option::of(word()),
            prop::collection::vec(words(), 0..4),
        )
            .prop_map(|(name, kind, default, min, max, vars)| OptionLine {
                name,
                kind,
                default,
                min,
                max,
                vars,
            })
    }

    fn reply() -> impl Strategy<Value = Reply> {
        prop_oneof![
            (prop_oneof![Just("name"), Just("author")], words()).prop_map(|(field, value)| {
                Reply::Id {
                    field: field.into(),
                    value,
                }
            }),
            option_line().prop_map(Reply::Option),
            Just(Reply::UciOk),
            Just(Reply::ReadyOk),
            info().prop_map(Reply::Info),
            words().prop_map(Reply::InfoString),
            (word(), prop::option::of(word()))
                .prop_map(|(best, ponder)| Reply::BestMove { best, ponder }),
        ]
    }

    proptest! {
        /// Every reply written reads back as itself.
        #[test]
        fn replies_round_trip(reply in reply()) {
            let line = reply.to_string();
            prop_assert_eq!(line.parse::<Reply>().unwrap(), reply, "{}", line);
        }

        /// Any text reads as some reply, without a panic.
        #[test]
        fn any_line_reads(line in any::<String>()) {
            let _ = line.parse::<Reply>();
        }
    }
}
