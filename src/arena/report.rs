//! What the match runner reports: the start of a match ([`MatchStart`]), its events, the summary
//! at its end ([`MatchSummary`]), and the summary of a replayed record file ([`ReplaySummary`]);
//! all as typed values with a `Display`, printed by the front end.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use crate::arena::client::{Engine, EngineSpec};
use crate::arena::record_files::RecordsWritten;
use crate::arena::runner::{Fault, FinishedGame, SearchLimit, StopReason, Tally};
use crate::arena::stats::{self, los, Sprt};
use crate::records::RuleSettings;
use crate::records::{Checked, PlayersEndKind};
use crate::search::Level;

/// What [`run_match`](super::run_match) did.
#[derive(Clone, Debug)]
pub enum MatchReport {
    /// A match was played.
    Played(Box<MatchSummary>),
    /// A record file was replayed (`--replay`), and every game in it replayed correctly.
    Replayed(Box<ReplaySummary>),
}

/// The result of a match, as printed at its end.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Display names, the first engine's first.
    pub names: [String; 2],
    /// Games planned.
    pub planned: usize,
    /// The search limit of each engine, the first engine's first.
    pub limits: [SearchLimit; 2],
    /// The rules, in words
    /// ([`Recorded::describe_rules`](crate::records::Recorded::describe_rules): `abapa,
    /// repetitions 3, no-capture limit 500`).
    pub rules: String,
    /// The players' names, the first player's first (`South`, `North`; `Sente`, `Gote`).
    pub sides: [&'static str; 2],
    /// The score and fault counts, from the first engine's point of view.
    pub tally: Tally,
    /// Why the match ended.
    pub stop: StopReason,
    /// The SPRT and its final log-likelihood ratio, if one was run.
    pub sprt: Option<(Sprt, f64)>,
    /// Wall time.
    pub elapsed: Duration,
    /// The game records written (`--ogn`, `--ogn-dir`) and those that failed.
    pub records: RecordsWritten,
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchReport::Played(s) => s.fmt(f),
            MatchReport::Replayed(r) => r.fmt(f),
        }
    }
}

/// The Elo estimate of a tally and the model it comes from: pentanomial once a pair is complete
/// (`pentanomial, 3 pairs`, noting games in no pair: `; 1 unpaired game left out`), else trinomial.
fn estimate(t: &Tally) -> (Option<stats::EloEstimate>, String) {
    estimate_of(&t.games, &t.pairs)
}

/// [`estimate`] of games and the pairs among them: the match's and the replay's.
fn estimate_of(
    games: &stats::Trinomial,
    pairs: &stats::Pentanomial,
) -> (Option<stats::EloEstimate>, String) {
    if pairs.pairs() == 0 {
        return (games.elo(), format!("trinomial, {} games", games.games()));
    }
    let mut model = format!("pentanomial, {} pairs", pairs.pairs());
    match games.games() - 2 * pairs.pairs() {
        0 => {}
        1 => model.push_str("; 1 unpaired game left out"),
        n => model.push_str(&format!("; {n} unpaired games left out")),
    }
    (pairs.elo(), model)
}

impl fmt::Display for MatchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = &self.names;
        let t = &self.tally;
        writeln!(
            f,
            "Match {a} vs {b}: {} of {} games, {} ({}), {:.1} s",
            t.games.games(),
            self.planned,
            describe_limits(&self.names, &self.limits, None),
            self.rules,
            self.elapsed.as_secs_f64()
        )?;
        let stop = match self.stop {
            StopReason::Completed => "all games played".to_string(),
            StopReason::Interrupted => "interrupted; unfinished games dropped".to_string(),
            StopReason::Sprt(d) => format!("SPRT decided: {d}"),
        };
        writeln!(f, "Stopped: {stop}")?;
        let g = &t.games;
        if g.games() == 0 {
            // A score of 0.0/0 would read as 50%: say there is none.
            writeln!(f, "No game finished: no score, no Elo estimate")?;
            if !self.records.targets.is_empty() {
                writeln!(f, "{}", self.records)?;
            }
            return Ok(());
        }
        writeln!(
            f,
            "Score of {a}: {} wins, {} draws, {} losses, {:.1}/{} = {:.1}%  ({} won {}, drawn {}, {} won {})",
            g.wins,
            g.draws,
            g.losses,
            g.points(),
            g.games(),
            100.0 * g.score(),
            self.sides[0],
            t.by_side[0],
            t.by_side[1],
            self.sides[1],
            t.by_side[2]
        )?;
        let (estimate, model) = estimate(t);
        match estimate {
            Some(e) => writeln!(f, "Elo difference ({a} - {b}): {e} (95% interval, {model})")?,
            None => writeln!(f, "Elo difference: no games")?,
        }
        writeln!(
            f,
            "LOS: {:.1}%  Draw ratio: {:.1}%",
            100.0 * los(g.wins, g.losses),
            draw_ratio(g)
        )?;
        let p = t.pairs.counts;
        writeln!(
            f,
            "Pairs by points of {a} (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
            p[0], p[1], p[2], p[3], p[4]
        )?;
        if let Some((sprt, llr)) = &self.sprt {
            let (lo, hi) = sprt.bounds();
            writeln!(
                f,
                "SPRT {sprt}: LLR {llr:.2} [{lo:.2}, {hi:.2}], {}",
                sprt.decide(*llr)
            )?;
        }
        write!(f, "Faults:")?;
        for (name, faults) in self.names.iter().zip(&t.faults) {
            let total: u64 = faults.values().sum();
            let kinds: Vec<String> = faults.iter().map(|(k, n)| format!("{n} {k}")).collect();
            if total == 0 {
                write!(f, " {name} none;")?;
            } else {
                write!(f, " {name} {total} ({});", kinds.join(", "))?;
            }
        }
        writeln!(f)?;
        if t.time.iter().any(|u| u.moves > 0) {
            write!(f, "Time:")?;
            for (name, time) in self.names.iter().zip(&t.time) {
                match time.mean_ms() {
                    Some(ms) => {
                        let moves = if time.moves == 1 { "move" } else { "moves" };
                        write!(f, " {name} {ms:.0} ms a move ({} {moves})", time.moves)?
                    }
                    None => write!(f, " {name} no move")?,
                }
                if let Some(ms) = time.median_end_clock_ms() {
                    write!(f, ", {:.2} s left at the end (median)", ms / 1000.0)?;
                }
                write!(f, ";")?;
            }
            writeln!(f)?;
        }
        for (i, name) in self.names.iter().enumerate() {
            let n = t.fault_count(i, Fault::NoMove);
            if n > 0 {
                let games = if n == 1 { "game" } else { "games" };
                writeln!(
                    f,
                    "Warning: {name} answered bestmove 0000 where the rules allow a move, in {n} \
                     {games}; an engine that ends a game at the first repetition (Aalina) needs \
                     --repetitions 2"
                )?;
            }
        }
        if !self.records.targets.is_empty() {
            writeln!(f, "{}", self.records)?;
        }
        Ok(())
    }
}

fn draw_ratio(g: &stats::Trinomial) -> f64 {
    if g.games() == 0 {
        0.0
    } else {
        100.0 * g.draws as f64 / g.games() as f64
    }
}

/// What `--replay` found in a record file.
#[derive(Clone, Debug, Default)]
pub struct ReplaySummary {
    /// Records in the file.
    pub games: usize,
    /// Records whose moves the rules end.
    pub ended_by_rules: usize,
    /// Records decided by a recorded fault of an engine.
    pub forfeits: usize,
    /// Records the players ended before the rules did, by kind, in the order of
    /// [`PlayersEndKind::ALL`] (resigned, lost on time, agreed drawn).
    pub by_players: [usize; 3],
    /// Records without a result.
    pub unfinished: usize,
    /// Games won by the first player, drawn, won by the second.
    pub by_side: [u64; 3],
    /// The players' names, the first player's first (`South`, `North`; `Sente`, `Gote`).
    pub sides: [&'static str; 2],
    /// When the file holds the games of two players: their names and the first one's results.
    pub players: Option<([String; 2], stats::Trinomial)>,
    /// The pairs among those games, as the match plays them: rounds `2k+1` and `2k+2` with the
    /// players' places swapped, by the first player's points.
    pub pairs: stats::Pentanomial,
}

impl fmt::Display for ReplaySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Games the players ended come only from the web board's records: said only when
        // there are some.
        let total: usize = self.by_players.iter().sum();
        let players = if total == 0 {
            String::new()
        } else {
            let kinds: Vec<String> = PlayersEndKind::ALL
                .iter()
                .zip(self.by_players)
                .filter(|(_, n)| *n > 0)
                .map(|(kind, n)| format!("{n} {kind}"))
                .collect();
            format!(", {total} ended by the players ({})", kinds.join(", "))
        };
        writeln!(
            f,
            "Replayed {} games: {} ended by the rules, {} by a fault{players}, {} unfinished; all moves legal, all results match",
            self.games, self.ended_by_rules, self.forfeits, self.unfinished
        )?;
        writeln!(
            f,
            "{} won {}, drawn {}, {} won {}",
            self.sides[0], self.by_side[0], self.by_side[1], self.sides[1], self.by_side[2]
        )?;
        if let Some(([a, b], t)) = &self.players {
            write!(
                f,
                "Score of {a} vs {b}: {} wins, {} draws, {} losses",
                t.wins, t.draws, t.losses
            )?;
            if let (Some(e), model) = estimate_of(t, &self.pairs) {
                write!(f, ", Elo {e} (95% interval, {model})")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// What [`run_match`](super::run_match) tells its front end while a match runs.
#[derive(Clone, Copy, Debug)]
pub enum MatchEvent<'a> {
    /// Both engines answered the handshake; the games begin.
    Started(&'a MatchStart),
    /// A game finished (in the order games finish), with the tally after it.
    Game {
        /// The game.
        record: &'a FinishedGame,
        /// The score so far.
        tally: &'a Tally,
    },
}

/// What a match is about to play, as the front end announces it.
#[derive(Clone, Debug)]
pub struct MatchStart {
    /// Display names, the first engine's first.
    pub names: [String; 2],
    /// Games planned.
    pub games: usize,
    /// The search limit of each engine, the first engine's first.
    pub limits: [SearchLimit; 2],
    /// For a plain `go`, what it means for each engine: `Level N, at most M nodes a move` for our
    /// engine (read from its `Level` option), `None` for an engine whose default is unknown.
    pub default_search: [Option<String>; 2],
    /// The rules, in words ([`Recorded::describe_rules`](crate::records::Recorded::describe_rules)).
    pub rules: String,
    /// Notes on the rules, each a line for the front end to show after the start line: an
    /// engine that cannot be told part of the referee's cycle rule (its own may differ).
    pub notes: Vec<String>,
    /// The SPRT, if one runs.
    pub sprt: Option<Sprt>,
}

impl fmt::Display for MatchStart {
    /// One line: `Match a vs b: 100 games, 20000 nodes per move (abapa, repetitions 3,
    /// no-capture limit 500)`; for a plain `go`, what each engine makes of it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = &self.names;
        write!(f, "Match {a} vs {b}: {} games, ", self.games)?;
        let limits = describe_limits(&self.names, &self.limits, Some(&self.default_search));
        write!(f, "{limits} ({})", self.rules)?;
        if let Some(s) = &self.sprt {
            write!(f, ", SPRT {s}")?;
        }
        Ok(())
    }
}

/// The engines' limits in words: one limit when they share it (`20000 nodes per move`), else each
/// engine's (`a: clock 10+0.1; b: 20000 nodes per move`). A plain `go` is `plain go (a: ...; b:
/// ...)` with what it means for each engine when `default_search` says (the start line), else
/// `the engines' default search`.
pub(crate) fn describe_limits(
    names: &[String; 2],
    limits: &[SearchLimit; 2],
    default_search: Option<&[Option<String>; 2]>,
) -> String {
    let own = |i: usize| {
        default_search
            .and_then(|d| d[i].clone())
            .unwrap_or_else(|| "its own default".to_string())
    };
    let [a, b] = names;
    match limits {
        [SearchLimit::EngineDefault, SearchLimit::EngineDefault] if default_search.is_some() => {
            format!("plain go ({a}: {}; {b}: {})", own(0), own(1))
        }
        [x, y] if x == y => x.to_string(),
        _ => {
            let each = |i: usize| match limits[i] {
                SearchLimit::EngineDefault if default_search.is_some() => {
                    format!("plain go ({})", own(i))
                }
                SearchLimit::EngineDefault => "plain go".to_string(),
                limit => limit.to_string(),
            };
            format!("{a}: {}; {b}: {}", each(0), each(1))
        }
    }
}

/// What a plain `go` means for a started engine: for our engine, the caps of the `Level` it was
/// given (the last `--option Level=N` for it, else full strength); `None` for other engines.
pub(super) fn default_search(engine: &Engine, spec: &EngineSpec) -> Option<String> {
    let ours = engine
        .id_name()
        .is_some_and(|n| n.starts_with("perfectplay"))
        && engine.has_option("Level");
    if !ours {
        return None;
    }
    let level = spec
        .options
        .iter()
        .rev()
        .find(|(name, _)| name.eq_ignore_ascii_case("Level"))
        .and_then(|(_, value)| value.parse::<u8>().ok())
        .map_or_else(Level::default, Level::new);
    let depth = level
        .max_depth()
        .map_or_else(String::new, |d| format!(", depth {d}"));
    Some(format!(
        "Level {}, at most {} nodes{depth} a move",
        level.number(),
        level.max_nodes()
    ))
}

/// The start's notes on the rules: for each engine that lists no option for some of the
/// referee's cycle rule (Fairy-Stockfish has no `Repetitions`, and draws Dobutsu at the fourth
/// occurrence), that the referee's rule decides the games whatever the engine's own.
pub(super) fn rule_notes(
    names: &[String; 2],
    engines: &[Engine; 2],
    rules: &RuleSettings,
    described: &str,
) -> Vec<String> {
    let mut notes = Vec::new();
    for (name, engine) in names.iter().zip(engines) {
        let untold = rules.untold(|option| engine.has_option(option));
        if !untold.is_empty() {
            notes.push(format!(
                "{name} lists no {} option: the referee applies its rules ({described}) whatever \
                 {name}'s own",
                untold.join(" or ")
            ));
        }
    }
    notes
}

/// A progress bar's message: the first engine's running score, Elo, and the LLR (before the
/// first game only the empty score: `a +0 =0 -0`).
pub fn progress_message(names: &[String; 2], tally: &Tally, sprt: Option<&Sprt>) -> String {
    let g = &tally.games;
    if g.games() == 0 {
        return format!("{} +0 =0 -0", names[0]);
    }
    let mut msg = format!(
        "{} +{} ={} -{} ({:.1}%)",
        names[0],
        g.wins,
        g.draws,
        g.losses,
        100.0 * g.score()
    );
    if let Some(e) = estimate(tally).0.filter(|e| e.half_width().is_finite()) {
        msg.push_str(&format!("  Elo {:+.0} ± {:.0}", e.elo, e.half_width()));
    }
    if let Some(s) = sprt {
        msg.push_str(&format!("  LLR {:.2}", tally.llr(s)));
    }
    msg
}

/// The `--replay` summary of checked records; an error listing those that do not replay.
pub(super) fn summarize_replays(
    checked: Vec<Checked>,
    players: [&'static str; 2],
) -> Result<ReplaySummary, crate::arena::MatchError> {
    let mut summary = ReplaySummary {
        games: checked.len(),
        sides: players,
        ..ReplaySummary::default()
    };
    let mut errors = Vec::new();
    let mut head_to_head = checked
        .first()
        .map(|g| g.names.clone())
        .filter(|[a, b]| a != b)
        .map(|names| (names, stats::Trinomial::default()));
    // The first player's points and place (0 or 1) by round, for the pairs.
    let mut by_round = BTreeMap::new();
    for (i, game) in checked.iter().enumerate() {
        let r = match &game.outcome {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!("game {} (Round {}): {e}", i + 1, game.round));
                continue;
            }
        };
        if r.ended_by_rules {
            summary.ended_by_rules += 1;
        } else if r.forfeit {
            summary.forfeits += 1;
        } else if let Some(kind) = r.players {
            summary.by_players[kind as usize] += 1;
        }
        let Some(winner) = r.winner else {
            summary.unfinished += 1;
            continue;
        };
        summary.by_side[match winner {
            Some(0) => 0,
            None => 1,
            Some(_) => 2,
        }] += 1;
        let [first, second] = [game.names[0].as_str(), game.names[1].as_str()];
        if let Some(([a, b], t)) = head_to_head.as_mut() {
            let a_plays = if (first, second) == (a.as_str(), b.as_str()) {
                0
            } else if (second, first) == (a.as_str(), b.as_str()) {
                1
            } else {
                head_to_head = None; // more than two players: no head-to-head score
                continue;
            };
            let points = match winner {
                None => {
                    t.draws += 1;
                    1
                }
                Some(w) if w == a_plays => {
                    t.wins += 1;
                    2
                }
                Some(_) => {
                    t.losses += 1;
                    0
                }
            };
            if let Ok(round) = game.round.trim().parse::<usize>() {
                by_round.insert(round, (points, a_plays));
            }
        }
    }
    if head_to_head.is_some() {
        summary.pairs = pairs_of(&by_round);
    }
    summary.players = head_to_head;
    if !errors.is_empty() {
        return Err(crate::arena::MatchError::Replays {
            count: errors.len(),
            total: checked.len(),
            lines: errors,
        });
    }
    Ok(summary)
}

/// The pairs of a replay: rounds `2k+1` and `2k+2` (1-based, as the match numbers them) where
/// the first player's place is swapped, counted by its half points (0 to 4); `by_round` holds
/// its half points and place by round.
fn pairs_of(by_round: &BTreeMap<usize, (usize, usize)>) -> stats::Pentanomial {
    let mut pairs = stats::Pentanomial::default();
    for (&round, &(first, place)) in by_round.iter().filter(|(&r, _)| r % 2 == 1) {
        if let Some(&(second, other_place)) = by_round.get(&(round + 1)) {
            if place != other_place {
                pairs.record(first + second);
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oware::{Rules, Side};
    use crate::records::{GameRecord, Opening, Recorded, Termination};
    use std::path::PathBuf;

    /// A game won by `winner`, the first engine South when `first_player_engine` is 0.
    fn game(
        number: usize,
        first_player_engine: usize,
        winner: Option<Side>,
        fault: Option<Fault>,
    ) -> GameRecord<crate::oware::Board> {
        use crate::oware::{Board, GameState};
        let termination = match (fault, winner) {
            (Some(fault), Some(w)) => Termination::Forfeit {
                side: w.opponent(),
                fault,
                detail: "bestmove 0000".into(),
            },
            _ => {
                let diagram = match winner {
                    Some(Side::South) => "0-0-0-0-0-0-0-0-0-0-0-0-25-23-N",
                    Some(Side::North) => "0-0-0-0-0-0-0-0-0-0-0-0-23-25-S",
                    None => "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
                };
                let end = GameState::new(diagram.parse().unwrap(), Rules::default())
                    .end()
                    .unwrap();
                Termination::Rules(end)
            }
        };
        GameRecord {
            number,
            pair: (number - 1) / 2,
            first_player_engine,
            names: ["a".into(), "b".into()],
            opening: Opening {
                start: Board::start(crate::oware::RuleSet::Abapa),
                moves: vec![],
            },
            moves: vec![],
            notes: vec![],
            termination,
        }
    }

    fn summary(games: &[GameRecord<crate::oware::Board>], records: RecordsWritten) -> String {
        let mut tally = Tally::default();
        for g in games {
            tally.record(g);
        }
        MatchSummary {
            names: ["a".into(), "b".into()],
            planned: games.len(),
            limits: [SearchLimit::Nodes(100); 2],
            rules: crate::oware::Board::describe_rules(&Rules::default()),
            sides: crate::oware::Board::PLAYER_NAMES,
            tally,
            stop: StopReason::Completed,
            sprt: None,
            elapsed: Duration::from_millis(1500),
            records,
        }
        .to_string()
    }

    #[test]
    fn summary_says_the_time_each_engine_took() {
        use crate::records::MoveNote;
        let note = |time_ms, clock_ms| MoveNote {
            time_ms,
            clock_ms,
            ..MoveNote::default()
        };
        // Game 1: a is South and moves first: a 100, b 200, a 50, b 10 ms.
        let mut g1 = game(1, 0, None, None);
        g1.notes = vec![
            note(100, Some(9_900)),
            note(200, Some(3_000)),
            note(50, Some(9_950)),
            note(10, Some(4_000)),
        ];
        // Game 2: b is South, but one opening move was played, so a (North) moves first.
        let mut g2 = game(2, 1, None, None);
        g2.opening.moves = crate::oware::parse_moves(["F"]).unwrap();
        g2.notes = vec![note(10, Some(7_050)), note(30, Some(5_000))];
        let text = summary(&[g1, g2], RecordsWritten::default());
        assert!(
            text.ends_with(
                "Faults: a none; b none;\n\
                 Time: a 53 ms a move (3 moves), 8.50 s left at the end (median); b 80 ms a move \
                 (3 moves), 4.50 s left at the end (median);\n"
            ),
            "{text}"
        );
        // Without a clock, the time a move only; no line before any move.
        let mut g3 = game(1, 0, None, None);
        g3.notes = vec![note(7, None)];
        let text = summary(&[g3], RecordsWritten::default());
        assert!(
            text.ends_with("Time: a 7 ms a move (1 move); b no move;\n"),
            "{text}"
        );
        let text = summary(&[game(1, 0, None, None)], RecordsWritten::default());
        assert!(!text.contains("Time:"), "{text}");
    }

    #[test]
    fn summary_says_what_is_left_out_and_what_failed() {
        // Engine a wins the first pair twice, then wins game 3, whose partner is not played.
        let games = [
            game(1, 0, Some(Side::South), None),
            game(2, 1, Some(Side::North), None),
            game(3, 0, Some(Side::South), None),
        ];
        let text = summary(&games, RecordsWritten::default());
        assert_eq!(
            text,
            "Match a vs b: 3 of 3 games, 100 nodes per move (abapa, repetitions 3, no-capture limit 500), 1.5 s\n\
             Stopped: all games played\n\
             Score of a: 3 wins, 0 draws, 0 losses, 3.0/3 = 100.0%  (South won 2, drawn 0, North won 1)\n\
             Elo difference (a - b): too few games for an estimate [-354.2, +inf] (95% interval, pentanomial, 1 pairs; 1 unpaired game left out)\n\
             LOS: 95.8%  Draw ratio: 0.0%\n\
             Pairs by points of a (0, 1/2, 1, 3/2, 2): 0 0 0 0 1\n\
             Faults: a none; b none;\n"
        );
        // b answers bestmove 0000 with legal moves in game 1; no record reaches the file.
        let games = [
            game(1, 0, Some(Side::South), Some(Fault::NoMove)),
            game(2, 1, None, None),
        ];
        let records = RecordsWritten {
            targets: vec![PathBuf::from("/dev/full")],
            written: 0,
            failed: 2,
            first_error: Some("No space left on device (os error 28)".into()),
        };
        let text = summary(&games, records);
        assert!(
            text.ends_with(
                "Faults: a none; b 1 (1 no move);\n\
                 Warning: b answered bestmove 0000 where the rules allow a move, in 1 game; an engine \
                 that ends a game at the first repetition (Aalina) needs --repetitions 2\n\
                 Records: FAILED: 2 of 2 games not written to /dev/full (No space left on device (os error 28))\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn summary_of_a_match_without_a_finished_game() {
        let records = RecordsWritten {
            targets: vec![PathBuf::from("games.ogn")],
            ..RecordsWritten::default()
        };
        let text = MatchSummary {
            names: ["a".into(), "b".into()],
            planned: 40,
            limits: [SearchLimit::Nodes(100); 2],
            rules: crate::oware::Board::describe_rules(&Rules::default()),
            sides: crate::oware::Board::PLAYER_NAMES,
            tally: Tally::default(),
            stop: StopReason::Interrupted,
            sprt: None,
            elapsed: Duration::from_millis(300),
            records,
        }
        .to_string();
        assert_eq!(
            text,
            "Match a vs b: 0 of 40 games, 100 nodes per move (abapa, repetitions 3, no-capture limit 500), 0.3 s\n\
             Stopped: interrupted; unfinished games dropped\n\
             No game finished: no score, no Elo estimate\n\
             Records: 0 games written to games.ogn\n"
        );
        let names = ["a".to_string(), "b".to_string()];
        assert_eq!(
            progress_message(&names, &Tally::default(), None),
            "a +0 =0 -0"
        );
    }
}
