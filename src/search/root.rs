//! The root of a search: iterative deepening over the root moves (the aspiration window,
//! principal variation search among them, MultiPV lines, the clock's soft limit, the weaker
//! moves of low levels), and the root's answer from an oracle without search.

use std::time::Instant;

use crate::game::{Game, Player};
use crate::search::bands::{oracle_score, proven_score, to_score, within, INF, MATE, MATE_BOUND};
use crate::search::thread::{Child, Node, SearchThread, MAX_DEPTH, ORACLE_LIMIT_MARGIN};
use crate::search::{
    Iteration, Level, Limits, Oracle, Root, Score, SearchConfig, SearchHandler, SearchResult,
    TimeBudget,
};

/// Half-width of the aspiration window around the previous iteration's score.
const ASPIRATION: i32 = 100;

/// A root move and what the last iteration learned of it.
#[derive(Clone)]
struct RootMove<G: Game> {
    child: Child<G>,
    /// Index in the legal move list (house order): the tie-break identity of the move.
    index: usize,
    /// [`crate::game::Step::reward`]: seeds captured, for the first iteration's order.
    hint: i32,
    score: i32,
    exact: bool,
    pv: Vec<G::Move>,
}

/// What [`SearchThread::prepare`] decides of a search before it starts.
struct Plan {
    /// The deepest iteration to search.
    max_depth: u32,
    /// The side to move's time under a game clock (`None` without one, or under `go infinite`).
    clock: Option<TimeBudget>,
    /// When the search started.
    started: Instant,
    /// The strength level (depth and node caps, weaker moves at levels 1-2).
    level: Level,
    /// [`SearchConfig::seed`]: the source of the tie-breaks and the level's choices.
    seed: u64,
}

/// How much the best move has been changing between iterations, and the previous iteration's
/// best move and score: under a clock, the soft limit grows with both.
struct Stability<M> {
    instability: f64,
    previous: Option<(M, i32)>,
}

impl<M: Copy + PartialEq> Stability<M> {
    /// Takes in an iteration's best move and score; returns the instability so far and the drop
    /// of the score since the previous iteration (0 for the first).
    fn update(&mut self, best_move: M, score: i32) -> (f64, i32) {
        let mut score_drop = 0;
        if let Some((last_move, last_score)) = self.previous {
            self.instability /= 2.0;
            if last_move != best_move {
                self.instability += 1.0;
            }
            score_drop = last_score.saturating_sub(score);
        }
        self.previous = Some((best_move, score));
        (self.instability, score_drop)
    }
}

/// What an iteration over the root moves found ([`SearchThread::root_iteration`]).
struct Iterated {
    /// The index in the root moves of the best move.
    best: usize,
    /// Whether every root move was searched; if not, `best` beat the first move's score at
    /// this depth before the search was cut short.
    complete: bool,
}

/// How [`SearchThread::search_root_move`] opens the window of a root move.
#[derive(Clone, Copy)]
enum RootWindow {
    /// The first move, around the previous iteration's score (aspiration), opened on the side
    /// the score falls out of.
    Aspiration(i32),
    /// The full window.
    Full,
    /// A null window just below this score (the best so far, or the last line's), opened above
    /// it if the move reaches it.
    Below(i32),
}

impl<'a, G: Game> SearchThread<'a, G> {
    /// This thread's iterative deepening ([`crate::search::Searcher::search`] once the table's
    /// generation is set): a forced move at once, the oracle's answer if it has one, else
    /// iterations of growing depth.
    pub(crate) fn iterate(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        config: &SearchConfig<G::Weights>,
        handler: &mut dyn SearchHandler<G::Move>,
    ) -> SearchResult<G::Move> {
        let plan = self.prepare(root, limits, config);
        let mut root_moves = self.root_moves(&root.position);
        let restricted = !root.searchmoves.is_empty();
        if restricted {
            root_moves.retain(|rm| root.searchmoves.contains(&rm.child.mv));
        }
        // A forced move is played at once; a single move of `searchmoves` is searched, for its
        // score.
        if root_moves.is_empty() || (root_moves.len() == 1 && !restricted) {
            let best_move = root_moves.first().map(|rm| rm.child.mv);
            return SearchResult {
                best_move,
                score: Score::Cp(0),
                depth: 0,
                nodes: 0,
                pv: best_move.into_iter().collect(),
            };
        }
        let salt = mix(config.seed, u64::from(root.game_ply));
        if let Some(lines) = self.root_lines_from_oracle(&root.position, &root_moves, salt) {
            return self.report_oracle_lines(&lines, &plan, handler);
        }
        self.deepen(root, &mut root_moves, &plan, handler)
    }

    /// Sets the thread up for a search of `root` under `limits` and `config` (the budget, the
    /// time limits, the counters, the keys of the game's history) and says how deep and how
    /// long it may search.
    fn prepare(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        config: &SearchConfig<G::Weights>,
    ) -> Plan {
        let started = Instant::now();
        let level = config.level;
        let use_level = !limits.infinite && (limits.is_empty() || level.number() < Level::FULL);
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut budget = limits.nodes.unwrap_or(u64::MAX);
        if use_level {
            max_depth = max_depth.min(level.max_depth().unwrap_or(MAX_DEPTH));
            budget = budget.min(level.max_nodes());
        }
        self.budget = budget;
        // Searching alone, the budget is checked at every node (a reproducible count); with
        // helpers, all threads' count at each poll.
        self.node_limit = if self.all_nodes.is_some() {
            u64::MAX
        } else {
            budget
        };
        self.lines = config.lines.max(1);
        // `go infinite` searches until `stop`, whatever the clock says.
        let clock = limits
            .clock
            .filter(|_| !limits.infinite)
            .and_then(|c| c.budget_for(root.position.to_move().index()));
        self.hard_limit = match (limits.movetime, clock) {
            (Some(mt), Some(c)) => Some(mt.min(c.hard)),
            (mt, c) => mt.or(c.map(|c| c.hard)),
        };
        self.cycle = config.cycle;
        self.weights = config.weights.clone();
        self.reset_counters();
        self.keys.clear();
        self.keys.extend_from_slice(&root.history);
        if self.keys.last() != Some(&root.position.key()) {
            self.keys.push(root.position.key());
        }
        Plan {
            max_depth,
            clock,
            started,
            level,
            seed: config.seed,
        }
    }

    /// Reports the lines an oracle gave at the root (as one iteration of depth 1) and returns
    /// the first as the result.
    fn report_oracle_lines(
        &self,
        lines: &[OracleLine<G::Move>],
        plan: &Plan,
        handler: &mut dyn SearchHandler<G::Move>,
    ) -> SearchResult<G::Move> {
        for (rank, line) in lines.iter().take(self.lines).enumerate() {
            handler.iteration(&Iteration {
                depth: 1,
                seldepth: line.pv.len() as u32,
                nodes: self.nodes,
                score: line.score,
                elapsed: plan.started.elapsed(),
                pv: line.pv.clone(),
                hashfull: None,
                tbhits: self.tbhits,
                multipv: rank as u32 + 1,
                exact: true,
            });
        }
        let best = &lines[0];
        SearchResult {
            best_move: best.pv.first().copied(),
            score: best.score,
            depth: 1,
            nodes: self.nodes,
            pv: best.pv.clone(),
        }
    }

    /// Iterative deepening: iterations of depth 1, 2, ... until a limit, a proven result or the
    /// clock's soft limit; each completed one is reported to `handler` and orders the root moves
    /// for the next. At levels 1-2 the move may then be a weaker one.
    fn deepen(
        &mut self,
        root: &Root<G>,
        root_moves: &mut Vec<RootMove<G>>,
        plan: &Plan,
        handler: &mut dyn SearchHandler<G::Move>,
    ) -> SearchResult<G::Move> {
        // The score reported stays inside the oracle's bounds of the root (the moves are still
        // told apart by their own scores).
        let root_bounds = self.oracle_bounds(&root.position, 0);
        let (second, third) = plan.level.weaker_move_chances();
        let exact_all = second + third > 0;
        let tie_salt = mix(
            plan.seed ^ (root.position.to_move().index() as u64) << 56,
            root.game_ply as u64,
        );
        self.prev_pv.clear();
        let mut stability = Stability {
            instability: 0.0,
            previous: None,
        };
        let mut result = SearchResult {
            best_move: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        for depth in 1..=plan.max_depth {
            if self
                .helper
                .is_some_and(|h| depth < plan.max_depth && skips_depth(h, depth, root.game_ply))
            {
                continue;
            }
            self.can_abort = depth > 1;
            let last = root_moves[0].score;
            let aspiration = (depth >= 4 && last.abs() < MATE_BOUND).then_some(last);
            let Some(Iterated { best, complete }) =
                self.root_iteration(root_moves, depth, exact_all, tie_salt, aspiration)
            else {
                break;
            };
            // With helpers, the budget is checked at polls only: an iteration that ended past it
            // is dropped, as one cut short by it is when searching alone (but for a better move
            // it found, which a cut iteration gives as incomplete). The report gives the nodes
            // counted here (the helpers go on adding theirs).
            let nodes = self.flush_nodes();
            if complete && depth > 1 && self.all_nodes.is_some() && nodes >= self.budget {
                break;
            }
            self.put_best_first(root_moves, best, tie_salt);
            let rm = &root_moves[0];
            result = SearchResult {
                best_move: Some(rm.child.mv),
                score: to_score(within(root_bounds, rm.score)),
                depth,
                nodes: self.nodes,
                pv: rm.pv.clone(),
            };
            self.prev_pv = rm.pv.clone();
            self.report_iteration(root_moves, depth, result.score, nodes, plan, handler);
            // A cut iteration's better move is played, and reported at its depth.
            if !complete || self.iteration_ends_search(&root_moves[0], depth, &mut stability, plan)
            {
                break;
            }
        }
        result.nodes = self.nodes;
        if exact_all && result.depth > 0 {
            self.pick_weaker(&mut result, root_moves, second, third, tie_salt);
        }
        result
    }

    /// After an iteration: the best move (at `best`) goes first, to be searched first next
    /// time; the rest keep their order, but for the other lines of a MultiPV search, which go
    /// next, best first.
    fn put_best_first(&self, root_moves: &mut Vec<RootMove<G>>, best: usize, tie_salt: u64) {
        let chosen = root_moves.remove(best);
        root_moves.insert(0, chosen);
        if self.lines > 1 {
            rank_lines(&mut root_moves[1..], tie_salt);
        }
    }

    /// Reports the lines of the iteration of `depth` (the exactly scored ones, best first, as
    /// many as `MultiPV` asks), the first with `best_score`, after `nodes` nodes.
    fn report_iteration(
        &self,
        root_moves: &[RootMove<G>],
        depth: u32,
        best_score: Score,
        nodes: u64,
        plan: &Plan,
        handler: &mut dyn SearchHandler<G::Move>,
    ) {
        let hashfull = Some(self.tt.hashfull());
        let shown = root_moves.iter().take(self.lines).take_while(|rm| rm.exact);
        for (rank, rm) in shown.enumerate() {
            let score = if rank == 0 {
                best_score
            } else {
                to_score(rm.score)
            };
            handler.iteration(&Iteration {
                depth,
                seldepth: self.seldepth,
                nodes,
                score,
                elapsed: plan.started.elapsed(),
                pv: rm.pv.clone(),
                hashfull,
                tbhits: self.tbhits,
                multipv: rank as u32 + 1,
                exact: false,
            });
        }
    }

    /// Whether no iteration follows the one of `depth`, whose best move is `best`: its score
    /// is proven within the depth, the budget is spent, time is up, or the clock's soft limit
    /// has passed (given the `stability` of the best move, which this updates).
    fn iteration_ends_search(
        &self,
        best: &RootMove<G>,
        depth: u32,
        stability: &mut Stability<G::Move>,
        plan: &Plan,
    ) -> bool {
        let proven = rm_score_is_proven(best.score, depth);
        if proven || self.total_nodes() >= self.budget || self.out_of_time() {
            return true;
        }
        let (instability, score_drop) = stability.update(best.child.mv, best.score);
        plan.clock
            .is_some_and(|budget| self.past_soft_limit(&budget, instability, score_drop))
    }

    /// The lines the oracle gives at the root, best first, when it answers there (the
    /// [`SearchThread::lines`] first ones with their principal variations): from
    /// [`SearchThread::root_move_from_oracle`] (a table that knows scores), else
    /// [`SearchThread::root_from_oracle`] (one that knows results and distances). `None`: search.
    fn root_lines_from_oracle(
        &mut self,
        root: &G,
        root_moves: &[RootMove<G>],
        salt: u64,
    ) -> Option<Vec<OracleLine<G::Move>>> {
        if let Some(line) = self.root_move_from_oracle(root, root_moves) {
            if self.lines == 1 {
                return Some(vec![line]);
            }
            return self.root_scores_from_oracle(root_moves, line, salt);
        }
        self.root_from_oracle(root_moves, salt)
    }

    /// With several lines, the exact score of every root move from a table that knows scores
    /// (the root's own move from [`Oracle::root_move`], `best`, first among the best): `None`
    /// (search) when the table does not value every move exactly.
    fn root_scores_from_oracle(
        &mut self,
        root_moves: &[RootMove<G>],
        best: OracleLine<G::Move>,
        salt: u64,
    ) -> Option<Vec<OracleLine<G::Move>>> {
        let oracle = self.oracle?;
        let best_move = best.pv.first().copied();
        let mut lines = vec![best];
        for rm in root_moves
            .iter()
            .filter(|rm| Some(rm.child.mv) != best_move)
        {
            let score = match rm.child.pos.proven() {
                // The child's proven value is its mover's: the opponent's.
                Some(proven) => to_score(-proven_score(proven, 1)),
                None => {
                    let (low, high) = oracle.bounds(&rm.child.pos)?;
                    if low != high {
                        return None;
                    }
                    self.tbhits += 1;
                    // The child's result and distance are its mover's: the opponent's.
                    match oracle.distance(&rm.child.pos) {
                        Some(known) => to_score(-oracle_score(known, 1)),
                        None => Score::Cp(-low),
                    }
                }
            };
            lines.push(OracleLine {
                score,
                pv: vec![rm.child.mv],
                index: rm.index,
            });
        }
        lines[1..].sort_by_key(|l| {
            (
                std::cmp::Reverse(score_order(l.score)),
                mix(salt, l.index as u64),
            )
        });
        Some(lines)
    }

    /// The lines from an oracle that holds every child of the root, best first: the best value
    /// for the mover (the fastest win, a draw, the slowest loss), equal ones ordered by the
    /// seeded hash as in the search, each with a principal variation that follows the table's
    /// best moves (for the [`SearchThread::lines`] first). A child that the cycle rule ends (a
    /// repetition of the game's history) gets the rule's value instead.
    fn root_from_oracle(
        &mut self,
        root_moves: &[RootMove<G>],
        salt: u64,
    ) -> Option<Vec<OracleLine<G::Move>>> {
        let oracle = self.oracle?;
        let mut scored = Vec::with_capacity(root_moves.len());
        let mut probed = 0;
        // `keys` ends with the root's key; a child goes after it.
        let at = self.keys.len();
        for rm in root_moves {
            // The table knows nothing of the game's history: a move into a position that ends the
            // game by the cycle rule is worth what the rule gives.
            let value =
                if !rm.child.irreversible && self.cycle_ends_game_at(at, 0, || rm.child.key()) {
                    (rm.child.pos.cycle_outcome(), 0)
                } else {
                    let value = oracle.probe(&rm.child.pos)?;
                    self.tbhits += 1;
                    probed += 1;
                    value
                };
            scored.push((-oracle_score(value, 1), rm));
        }
        // Every move ending the game by the cycle rule is no reason to skip the search.
        if probed == 0 {
            return None;
        }
        scored.sort_by_key(|(s, rm)| (std::cmp::Reverse(*s), mix(salt, rm.index as u64)));
        let lines = scored
            .iter()
            .take(self.lines)
            .map(|(score, rm)| OracleLine {
                score: to_score(*score),
                pv: table_line(oracle, rm),
                index: rm.index,
            })
            .collect();
        Some(lines)
    }

    /// The root's move from the oracle ([`Oracle::root_move`]), when it gives one that does not
    /// end the game by the cycle rule, with the root's exact score, or its result and distance
    /// where the oracle knows it ([`Oracle::distance`]).
    fn root_move_from_oracle(
        &mut self,
        root: &G,
        root_moves: &[RootMove<G>],
    ) -> Option<OracleLine<G::Move>> {
        let oracle = self.oracle?;
        let at = self.keys.len();
        if self.cycle.no_progress_limit > 0
            && (at as u32) + ORACLE_LIMIT_MARGIN >= self.cycle.no_progress_limit
        {
            return None;
        }
        let score = oracle.score(root)?;
        let mv = oracle.root_move(root)?;
        let rm = root_moves.iter().find(|rm| rm.child.mv == mv)?;
        if !rm.child.irreversible && self.cycle_ends_game_at(at, 0, || rm.child.key()) {
            return None;
        }
        // The root is the one position visited.
        self.nodes += 1;
        self.tbhits += 1;
        let score = match oracle.distance(root) {
            Some(known) => to_score(oracle_score(known, 0)),
            None => Score::Cp(score),
        };
        Some(OracleLine {
            score,
            pv: vec![mv],
            index: rm.index,
        })
    }

    /// The root's legal moves as root moves, ordered captures first (most seeds), then by house.
    fn root_moves(&mut self, pos: &G) -> Vec<RootMove<G>> {
        if pos.outcome().is_some() {
            return Vec::new();
        }
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        let mut list: Vec<RootMove<G>> = self
            .moves
            .iter()
            .enumerate()
            .map(|(index, &mv)| {
                let (child, step) = pos.play(mv);
                RootMove {
                    hint: i32::from(step.reward),
                    child: {
                        let key = child.key();
                        Child::new(mv, child, step, index, key, &self.weights, None)
                    },
                    index,
                    score: -INF,
                    exact: false,
                    pv: Vec::new(),
                }
            })
            .collect();
        list.sort_by_key(|rm| -rm.hint);
        list
    }

    /// One iteration over the root moves. Returns the best move, or `None` when the iteration
    /// was cut short, unless (with one line, and not at levels 1-2) a move searched before the
    /// cut beat the first move's score at this depth: that move, as incomplete. Equal best
    /// scores are resolved by a seeded hash, never by order.
    ///
    /// The first move gets the full window; the others a null window just below the best score so
    /// far (principal variation search), and a move that reaches the best score is searched again
    /// with the window open above, so a move that ties is scored exactly and the tie can be broken
    /// fairly. At levels 1-2 (`exact_all`) every move gets the full window: the weaker choices
    /// need the exact scores of the best three.
    fn root_iteration(
        &mut self,
        root_moves: &mut [RootMove<G>],
        depth: u32,
        exact_all: bool,
        tie_salt: u64,
        aspiration: Option<i32>,
    ) -> Option<Iterated> {
        let mut best = -INF;
        // The move that beat the first one's score in this iteration, scored exactly.
        let mut better: Option<usize> = None;
        // The best exact scores so far, best first: as many as there are lines (MultiPV).
        let mut top: Vec<i32> = Vec::with_capacity(self.lines + 1);
        for (i, rm) in root_moves.iter_mut().enumerate() {
            // A move must reach this to be scored exactly: the best score so far, or with
            // several lines the last line's.
            let threshold = if self.lines > 1 {
                top.get(self.lines - 1).copied().unwrap_or(-INF)
            } else {
                best
            };
            let window = match aspiration {
                Some(center) if i == 0 && !exact_all => RootWindow::Aspiration(center),
                _ if exact_all || threshold == -INF => RootWindow::Full,
                _ => RootWindow::Below(threshold),
            };
            let alpha = match window {
                RootWindow::Below(threshold) => threshold - 1,
                _ => -INF,
            };
            let child = rm.child.clone();
            let score = self.search_root_move(&child, depth, window);
            if self.aborted {
                // With one line and every move ranked alike, a move that beat the first one
                // says more than the last whole iteration.
                let single = self.lines == 1 && !exact_all;
                return better.filter(|_| single).map(|best| Iterated {
                    best,
                    complete: false,
                });
            }
            rm.score = score;
            rm.exact = score > alpha;
            if rm.exact {
                rm.pv.clear();
                rm.pv.push(child.mv);
                rm.pv.extend_from_slice(&self.pv[1]);
                if self.lines > 1 {
                    let at = top.partition_point(|&t| t >= score);
                    top.insert(at, score);
                    top.truncate(self.lines);
                }
            }
            if i > 0 && rm.exact && score > best {
                better = Some(i);
            }
            best = best.max(score);
        }
        root_moves
            .iter()
            .enumerate()
            .filter(|(_, rm)| rm.exact && rm.score == best)
            .min_by_key(|(_, rm)| mix(tie_salt, rm.index as u64))
            .map(|(best, _)| Iterated {
                best,
                complete: true,
            })
    }

    /// The score of the root move to `child`, searched `depth` plies deep in `window`.
    fn search_root_move(&mut self, child: &Child<G>, depth: u32, window: RootWindow) -> i32 {
        let root_len = self.keys.len();
        self.keys.push(child.key);
        // `keys` starts with the position after the last irreversible move.
        let irrev = if child.irreversible { root_len } else { 0 };
        let on_pv = self.prev_pv.first() == Some(&child.mv);
        let in_check = child.pos.in_check();
        let node = |alpha: i32, beta: i32| Node {
            depth: depth as i32 - 1,
            alpha,
            beta,
            ply: 1,
            irrev,
            on_pv,
            eval: child.eval,
            in_check,
        };
        let mut score;
        match window {
            RootWindow::Aspiration(center) => {
                let (mut lo, mut hi) = (center - ASPIRATION, center + ASPIRATION);
                loop {
                    score = -self.negamax(&child.pos, node(-hi, -lo));
                    if self.aborted {
                        break;
                    }
                    if score <= lo {
                        lo = -INF;
                    } else if score >= hi {
                        hi = INF;
                    } else {
                        break;
                    }
                }
            }
            RootWindow::Full => score = -self.negamax(&child.pos, node(-INF, INF)),
            RootWindow::Below(threshold) => {
                let alpha = threshold - 1;
                score = -self.negamax(&child.pos, node(-threshold, -alpha));
                if score > alpha && !self.aborted {
                    score = -self.negamax(&child.pos, node(-INF, -alpha));
                }
            }
        }
        self.keys.truncate(root_len);
        score
    }

    /// At levels 1-2: sometimes replaces the best move by the second- or third-best.
    fn pick_weaker(
        &self,
        result: &mut SearchResult<G::Move>,
        root_moves: &[RootMove<G>],
        second: u32,
        third: u32,
        salt: u64,
    ) {
        let mut ranked: Vec<&RootMove<G>> = root_moves.iter().filter(|rm| rm.exact).collect();
        ranked.sort_by_key(|rm| (-rm.score, mix(salt, rm.index as u64)));
        let roll = (mix(salt, 0xC0FF_EE00) % 100) as u32;
        let rank = if roll < third {
            2
        } else if roll < third + second {
            1
        } else {
            0
        };
        if let Some(rm) = ranked.get(rank.min(ranked.len().saturating_sub(1))) {
            result.best_move = Some(rm.child.mv);
            result.score = to_score(rm.score);
            result.pv = rm.pv.clone();
        }
    }
}

/// A line an oracle gives at the root ([`SearchThread::root_lines_from_oracle`]).
struct OracleLine<M> {
    /// The table's exact score of the line's first move.
    score: Score,
    /// The line, from the root.
    pv: Vec<M>,
    /// The first move's index in the legal move list (its tie-break identity).
    index: usize,
}

/// The line the oracle plays after the root move `rm`: its best move in each position, as far as
/// it holds every child (and for at most 40 plies).
fn table_line<G: Game>(oracle: &dyn Oracle<G>, rm: &RootMove<G>) -> Vec<G::Move> {
    let mut pv = vec![rm.child.mv];
    let mut pos = rm.child.pos.clone();
    let mut moves = Vec::new();
    while pv.len() < 40 && pos.outcome().is_none() {
        moves.clear();
        pos.legal_moves(&mut moves);
        let next = moves
            .iter()
            .map(|&mv| {
                let child = pos.play(mv).0;
                oracle
                    .probe(&child)
                    .map(|v| (-oracle_score(v, 1), mv, child))
            })
            .collect::<Option<Vec<_>>>()
            .and_then(|children| children.into_iter().max_by_key(|c| c.0));
        let Some((_, mv, child)) = next else { break };
        pv.push(mv);
        pos = child;
    }
    pv
}

/// A reported score as a number that orders them as the mover prefers: wins (the fastest
/// first), then heuristic scores, then losses (the slowest first).
fn score_order(score: Score) -> i64 {
    match score {
        Score::Mate(n) if n > 0 => i64::from(MATE) - i64::from(n),
        Score::Mate(n) => -i64::from(MATE) - i64::from(n),
        Score::Cp(cp) => i64::from(cp),
    }
}

/// Orders root moves for the lines of a MultiPV search: the exactly scored ones first, best
/// first (equal ones by the seeded hash of their index), then the others in their order.
fn rank_lines<G: Game>(root_moves: &mut [RootMove<G>], salt: u64) {
    root_moves.sort_by_key(|rm| {
        if rm.exact {
            (0, -i64::from(rm.score), mix(salt, rm.index as u64))
        } else {
            (1, 0, 0)
        }
    });
}

/// Whether helper thread `helper` (1, 2, ...) skips the iteration of `depth` at a root
/// `game_ply` plies into the game: helpers search different depths from the main thread and from
/// each other (after the skip pattern Stockfish's lazy SMP used: blocks of depths of a size and
/// phase per helper), so that their table entries run ahead of it.
fn skips_depth(helper: usize, depth: u32, game_ply: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = (helper - 1) % SIZE.len();
    ((depth + game_ply + PHASE[i]) / SIZE[i]) % 2 == 1
}

fn rm_score_is_proven(score: i32, depth: u32) -> bool {
    score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth
}

/// Mixes two words into a well-spread hash (splitmix64's finalizer).
pub(crate) fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_add(b.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
