//! Principal variation search with a transposition table, quiescence and iterative deepening.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{CycleRule, Game, Outcome, Player, Step};
use crate::search::bands::{MATE, MATE_BOUND, MAX_DISTANCE};
use crate::search::tt::{
    from_tt, to_tt, Bound, HashReport, TranspositionTable, DEFAULT_HASH_MB, NO_MOVE,
};
use crate::search::{
    Control, Iteration, Limits, Oracle, Root, Score, SearchConfig, SearchHandler, SearchResult,
    TimeBudget,
};

/// The deepest iteration the search attempts, in plies.
pub const MAX_DEPTH: u32 = 100;
const MAX_PLY: usize = MAX_DEPTH as usize + 2;
const INF: i32 = MATE + 1;
/// Nodes with less depth left than this neither probe nor fill the transposition table: they are
/// the most numerous, their subtrees are tiny, and a table access costs a cache miss.
const TT_MIN_DEPTH: i32 = 2;
/// Half-width of the aspiration window around the previous iteration's score.
const ASPIRATION: i32 = 100;
/// Whether leaves are extended by capture sequences ([`Searcher::quiesce`]).
const QUIESCENCE: bool = true;
/// Static evaluations are clamped inside this bound: weights at the ends of their range can give
/// values beyond `MATE` that would read as proven results (or below `-INF`, leaving no move).
const MAX_EVAL: i32 = MATE_BOUND - 1;
/// Late move reductions apply at this depth and more...
const LMR_MIN_DEPTH: i32 = 3;
/// ...to the moves after this many.
const LMR_FROM_MOVE: usize = 3;
/// How many of a node's children (the first in search order) have their table entry prefetched:
/// the later ones are seldom searched (cut-offs), and with a table far larger than the caches
/// (`Hash` 1024) prefetching every child's entry cost more memory traffic than it saved (bench at
/// Hash 1024: 0.87-0.92 of the nps at Hash 16 with every child, 0.93-0.95 with the first three).
const PREFETCH_CHILDREN: usize = 3;
/// How often (in nodes) the clock and the stop flag are read.
const POLL_INTERVAL: u64 = 1024;

/// How the search uses its transposition table: tests compare the three.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TtUse {
    /// Probe and store; a stored result of at least the depth needed answers.
    Normal,
    /// Only a result of exactly the depth needed answers: the search then returns the same value as
    /// plain minimax to that depth (barring cycles), which tests can check.
    #[cfg_attr(not(test), allow(dead_code))]
    ExactDepth,
    /// No table at all.
    #[cfg_attr(not(test), allow(dead_code))]
    Off,
}

/// A move of a node with the position it leads to, ready for ordering.
#[derive(Clone)]
struct Child<G: Game> {
    mv: G::Move,
    pos: G,
    /// [`Step::irreversible`]: restarts the cycle rule's count.
    irreversible: bool,
    /// [`Step::noisy`]: spared by late-move reductions.
    noisy: bool,
    /// Index in the legal move list (what the transposition table stores).
    index: u8,
    /// The position's [`Game::key`], or 0 when not computed yet.
    key: u64,
    /// The position's static evaluation (from its side to move).
    eval: i32,
}

impl<G: Game> Child<G> {
    /// The child `pos` reached by `mv` (legal move number `index`) with what the move did, its
    /// key (0 to make it later) and its static evaluation.
    #[inline(always)]
    fn new(mv: G::Move, pos: G, step: Step, index: usize, key: u64, weights: &G::Weights) -> Self {
        let eval = clamp_eval(pos.evaluate(weights));
        Child {
            mv,
            pos,
            irreversible: step.irreversible,
            noisy: step.noisy,
            index: index as u8,
            key,
            eval,
        }
    }

    /// The position's [`Game::key`]: the one kept when generating it, else computed now.
    #[inline]
    fn key(&self) -> u64 {
        if self.key != 0 {
            self.key
        } else {
            self.pos.key()
        }
    }
}

/// A root move and what the last iteration learned of it.
#[derive(Clone)]
struct RootMove<G: Game> {
    child: Child<G>,
    /// Index in the legal move list (house order): the tie-break identity of the move.
    index: usize,
    /// [`Step::reward`]: seeds captured, for the first iteration's order.
    hint: i32,
    score: i32,
    exact: bool,
    pv: Vec<G::Move>,
}

/// The negamax searcher. Keeps its buffers between searches; create one per game or engine.
pub struct Searcher<G: Game> {
    keys: Vec<u64>,
    nodes: u64,
    budget: u64,
    seldepth: u32,
    aborted: bool,
    can_abort: bool,
    /// When the search stops inside an iteration: `movetime`, or the clock's hard limit.
    hard_limit: Option<Duration>,
    pv: Vec<Vec<G::Move>>,
    prev_pv: Vec<G::Move>,
    /// The children of the nodes on the current path, as a stack: a node pushes its children
    /// above its ancestors' and removes them when it returns.
    children: Vec<Child<G>>,
    /// The legal moves of the nodes on the current path (and the root's), stacked the same way.
    moves: Vec<G::Move>,
    cycle: CycleRule,
    weights: G::Weights,
    /// Shared with the helper threads of a search ([`Searcher::set_threads`]).
    tt: Arc<TranspositionTable>,
    /// Set when a value met since it was last cleared came from the cycle rule (see
    /// [`Searcher::negamax`]): such values depend on the path and are not stored.
    path_dependent: bool,
    /// How the table is used (always [`TtUse::Normal`] outside tests).
    pub(crate) tt_use: TtUse,
    /// Whether late moves are reduced (always outside tests, which compare with plain minimax).
    pub(crate) reductions: bool,
    /// Exact values of the positions a table holds ([`Searcher::set_oracle`]).
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// Positions the oracle valued in this search.
    tbhits: u64,
    /// `Threads`: how many threads search (1: this one alone).
    threads: usize,
    /// The searchers of the helper threads (lazy SMP), kept between searches for their buffers.
    helpers: Vec<Searcher<G>>,
    /// The node count of all threads of a search with helpers; `None` when searching alone.
    shared: Option<Arc<AtomicU64>>,
    /// This thread's nodes already added to `shared`.
    flushed: u64,
    /// The node count at which the clock, the stop flag and the shared count are next read.
    next_poll: u64,
    /// The node count at which the search stops inside an iteration: the budget when searching
    /// alone; with helpers, the shared count is checked against `budget` at each poll instead.
    node_limit: u64,
    /// A helper thread's number (1, 2, ...): it searches only some depths ([`skips_depth`]);
    /// `None` for the main thread.
    helper: Option<usize>,
    /// `MultiPV`: how many lines (distinct first moves) each iteration scores exactly and reports.
    lines: usize,
}

impl<G: Game> Default for Searcher<G> {
    fn default() -> Self {
        Searcher::new()
    }
}

impl<G: Game> Searcher<G> {
    /// A searcher with empty buffers and a transposition table of [`DEFAULT_HASH_MB`] MB.
    pub fn new() -> Searcher<G> {
        Searcher::with_hash_mb(DEFAULT_HASH_MB)
    }

    /// A searcher whose transposition table takes at most `megabytes` MB (the `Hash` option; at
    /// least 1, at most [`crate::search::MAX_HASH_MB`]; smaller if that much memory cannot be
    /// had, see [`Searcher::hash_report`]). The table is made resident and zeroed here, by as
    /// many threads as the machine runs at once, not at each search.
    pub fn with_hash_mb(megabytes: usize) -> Searcher<G> {
        Searcher::with_table(Arc::new(TranspositionTable::new(
            megabytes,
            clear_threads(),
        )))
    }

    /// A searcher on the table `tt` (a helper's: its main thread's).
    fn with_table(tt: Arc<TranspositionTable>) -> Searcher<G> {
        Searcher {
            keys: Vec::with_capacity(1024),
            nodes: 0,
            budget: u64::MAX,
            seldepth: 0,
            aborted: false,
            can_abort: false,
            hard_limit: None,
            pv: (0..MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            prev_pv: Vec::new(),
            children: Vec::with_capacity(8 * (MAX_PLY + 1)),
            moves: Vec::with_capacity(8 * (MAX_PLY + 1)),
            cycle: CycleRule::default(),
            weights: G::Weights::default(),
            tt,
            path_dependent: false,
            tt_use: TtUse::Normal,
            reductions: true,
            oracle: None,
            tbhits: 0,
            threads: 1,
            helpers: Vec::new(),
            shared: None,
            flushed: 0,
            next_poll: POLL_INTERVAL,
            node_limit: u64::MAX,
            helper: None,
            lines: 1,
        }
    }

    /// A helper thread's searcher sharing `main`'s table and oracle.
    fn helper_of(main: &Searcher<G>, number: usize) -> Searcher<G> {
        let mut helper = Searcher::with_table(Arc::clone(&main.tt));
        helper.helper = Some(number);
        helper
    }

    /// Sets how many threads search (`Threads`; at least 1): with more than one, each search
    /// runs helper threads alongside this one (lazy SMP): they search the same root at varied
    /// depths and share the transposition table, so that this thread finds more of its tree
    /// there; only this thread reports and chooses the move, and a node budget counts the nodes
    /// of all threads. With one, every search is as reproducible as [`Searcher::search`] says.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.helpers.truncate(self.threads - 1);
    }

    /// Replaces the transposition table by an empty one of at most `megabytes` MB (the `Hash`
    /// option), made as [`Searcher::with_hash_mb`] makes it, and returns how it was made.
    pub fn set_hash(&mut self, megabytes: usize) -> &HashReport {
        // Free the old table before taking the new one's memory (the helpers hold it too).
        self.helpers.clear();
        self.tt = Arc::new(TranspositionTable::new(1, 1));
        self.tt = Arc::new(TranspositionTable::new(megabytes, clear_threads()));
        self.tt.report()
    }

    /// How the transposition table was made: its size, whether it had to be shrunk for lack of
    /// memory, and the time clearing it took.
    pub fn hash_report(&self) -> &HashReport {
        self.tt.report()
    }

    /// Gives the search a table of exact values (or takes it away with `None`): every position
    /// it holds, but the root, is scored by its value at once (`tbhits` counts them), one it
    /// only bounds ([`Oracle::bounds`]) answers at once when the window lies outside the bounds
    /// (counted too) and is otherwise searched with its result kept inside them, and when it
    /// holds every child of the root the move is chosen from it without search (the fastest win,
    /// the slowest loss, a draw kept).
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        self.oracle = oracle;
    }

    /// The transposition table's size as asked for, in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.megabytes()
    }

    /// The memory the transposition table takes, in bytes (at most [`Searcher::hash_mb`] MB).
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forgets everything learned from earlier searches (`ucinewgame`): empties the transposition
    /// table. (Each reproducible search already ignores what earlier searches stored, so that its
    /// result depends only on its own root, limits, options and the table's size; searches that
    /// depend on time use it, see [`Searcher::search`].)
    pub fn clear(&mut self) {
        self.prev_pv.clear();
        self.tt.clear();
    }

    /// Searches `root` by iterative deepening until a limit is reached, reporting each completed
    /// iteration to `handler`, and returns the move to play.
    ///
    /// The effective limits are `limits` combined with the level's caps (at levels 1-5, or when
    /// `limits` is empty); `go infinite` ignores the level. A root with a single legal move is
    /// answered at once without search (depth 0). An iteration cut short by the node budget,
    /// `movetime`, the clock's hard limit or `control.stop()` is discarded, except that the first
    /// iteration always completes so there is always a move. Under a game clock no iteration
    /// starts after the soft limit ([`TimeBudget::soft_limit`]).
    ///
    /// A search that depends on time ([`Limits::depends_on_time`], or pondering) uses the
    /// transposition table's entries of the searches before it back to the last reproducible one;
    /// a reproducible search (nodes, depth, the level) starts from a logically empty table.
    ///
    /// With `MultiPV` ([`SearchConfig::lines`]) above 1, each iteration scores that many root
    /// moves exactly (or all there are) and reports each as a line, best first; `root`'s
    /// `searchmoves` restricts the moves searched. With [`Searcher::set_threads`] above 1,
    /// helper threads search alongside (lazy SMP) until this one is done; the search is then
    /// not reproducible, and the nodes reported and budgeted are those of all threads.
    pub fn search(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        config: &SearchConfig<G::Weights>,
        control: &Control,
        handler: &mut dyn SearchHandler<G::Move>,
    ) -> SearchResult<G::Move> {
        self.tt
            .new_search(limits.depends_on_time() || control.is_pondering());
        if self.threads <= 1 {
            self.shared = None;
            return self.iterate(root, limits, config, control, handler);
        }
        let shared = Arc::new(AtomicU64::new(0));
        self.shared = Some(Arc::clone(&shared));
        while self.helpers.len() + 1 < self.threads {
            let number = self.helpers.len() + 1;
            self.helpers.push(Searcher::helper_of(self, number));
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        // Helpers search until this thread is done, at full strength, with no depth limit of
        // their own: one that stopped at this thread's depth would sit idle while this thread
        // finishes it.
        let helper_limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let helper_config = SearchConfig {
            level: super::Level::new(super::Level::FULL),
            lines: 1,
            ..config.clone()
        };
        let helper_control = Control::new(false);
        let mut result = std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                helper.tt = Arc::clone(&self.tt);
                helper.oracle = self.oracle.clone();
                helper.shared = Some(Arc::clone(&shared));
                helper.tt_use = self.tt_use;
                helper.reductions = self.reductions;
                let (helper_limits, helper_config, helper_control) =
                    (&helper_limits, &helper_config, &helper_control);
                scope.spawn(move || {
                    helper.iterate(
                        root,
                        helper_limits,
                        helper_config,
                        helper_control,
                        &mut super::Silent,
                    )
                });
            }
            let result = self.iterate(root, limits, config, control, handler);
            helper_control.stop();
            result
        });
        result.nodes += helpers.iter().map(|h| h.nodes).sum::<u64>();
        // Between searches only this thread holds the tables (set_oracle lets go of them).
        for helper in &mut helpers {
            helper.shared = None;
            helper.oracle = None;
        }
        self.helpers = helpers;
        self.shared = None;
        result
    }

    /// One thread's iterative deepening ([`Searcher::search`] once the table's generation is
    /// set): the main thread's, or a helper's.
    fn iterate(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        config: &SearchConfig<G::Weights>,
        control: &Control,
        handler: &mut dyn SearchHandler<G::Move>,
    ) -> SearchResult<G::Move> {
        let started = Instant::now();
        let level = config.level;
        let use_level =
            !limits.infinite && (limits.is_empty() || level.number() < super::Level::FULL);
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut budget = limits.nodes.unwrap_or(u64::MAX);
        if use_level {
            max_depth = max_depth.min(level.max_depth().unwrap_or(MAX_DEPTH));
            budget = budget.min(level.max_nodes());
        }
        self.budget = budget;
        // Searching alone, the budget is checked at every node (a reproducible count); with
        // helpers, all threads' count at each poll.
        self.node_limit = if self.shared.is_some() {
            u64::MAX
        } else {
            budget
        };
        self.flushed = 0;
        self.next_poll = POLL_INTERVAL;
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
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.path_dependent = false;
        self.tbhits = 0;
        self.keys.clear();
        self.keys.extend_from_slice(&root.history);
        if self.keys.last() != Some(&root.position.key()) {
            self.keys.push(root.position.key());
        }

        let mut root_moves = self.root_moves(&root.position);
        let restricted = !root.searchmoves.is_empty();
        if restricted {
            root_moves.retain(|rm| root.searchmoves.contains(&rm.child.mv));
        }
        let mut result = SearchResult {
            best_move: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        // A forced move is played at once; a single move of `searchmoves` is searched, for its
        // score.
        if root_moves.is_empty() || (root_moves.len() == 1 && !restricted) {
            result.best_move = root_moves.first().map(|rm| rm.child.mv);
            result.pv = result.best_move.into_iter().collect();
            return result;
        }
        let salt = mix(config.seed, u64::from(root.game_ply));
        if let Some(lines) = self.root_lines_from_oracle(&root.position, &root_moves, salt) {
            for (rank, line) in lines.iter().take(self.lines).enumerate() {
                handler.iteration(&Iteration {
                    depth: 1,
                    seldepth: line.pv.len() as u32,
                    nodes: self.nodes,
                    score: line.score,
                    elapsed: started.elapsed(),
                    pv: line.pv.clone(),
                    hashfull: None,
                    tbhits: self.tbhits,
                    multipv: rank as u32 + 1,
                    exact: true,
                });
            }
            let best = &lines[0];
            return SearchResult {
                best_move: best.pv.first().copied(),
                score: best.score,
                depth: 1,
                nodes: self.nodes,
                pv: best.pv.clone(),
            };
        }

        // The score reported stays inside the oracle's bounds of the root (the moves are still
        // told apart by their own scores).
        let root_bounds = self.oracle_bounds(&root.position, 0);
        let (second, third) = level.weaker_move_chances();
        let exact_all = second + third > 0;
        let tie_salt = mix(
            config.seed ^ (root.position.to_move().index() as u64) << 56,
            root.game_ply as u64,
        );
        self.prev_pv.clear();
        // How much the best move has been changing, and the previous iteration's score (for the
        // soft limit under a clock).
        let mut instability = 0.0;
        let mut previous: Option<(G::Move, i32)> = None;
        for depth in 1..=max_depth {
            if self
                .helper
                .is_some_and(|h| depth < max_depth && skips_depth(h, depth, root.game_ply))
            {
                continue;
            }
            self.can_abort = depth > 1;
            let last = root_moves[0].score;
            let aspiration = (depth >= 4 && last.abs() < MATE_BOUND).then_some(last);
            let Some(best) = self.root_iteration(
                &mut root_moves,
                depth,
                exact_all,
                tie_salt,
                aspiration,
                control,
            ) else {
                break;
            };
            // With helpers, the budget is checked at polls only: an iteration that ended past it
            // is dropped, as one cut short by it is when searching alone.
            if depth > 1 && self.shared.is_some() && self.flush_nodes() >= self.budget {
                break;
            }
            // Search the best move first next time; the rest keep their order, but for the other
            // lines of a MultiPV search, which go next, best first.
            let chosen = root_moves.remove(best);
            root_moves.insert(0, chosen);
            if self.lines > 1 {
                rank_lines(&mut root_moves[1..], tie_salt);
            }
            let rm = &root_moves[0];
            result.best_move = Some(rm.child.mv);
            result.score = to_score(within(root_bounds, rm.score));
            result.depth = depth;
            result.pv = rm.pv.clone();
            result.nodes = self.nodes;
            self.prev_pv = rm.pv.clone();
            let hashfull = Some(self.tt.hashfull());
            let shown = root_moves.iter().take(self.lines).take_while(|rm| rm.exact);
            for (rank, rm) in shown.enumerate() {
                let score = if rank == 0 {
                    result.score
                } else {
                    to_score(rm.score)
                };
                handler.iteration(&Iteration {
                    depth,
                    seldepth: self.seldepth,
                    nodes: self.total_nodes(),
                    score,
                    elapsed: started.elapsed(),
                    pv: rm.pv.clone(),
                    hashfull,
                    tbhits: self.tbhits,
                    multipv: rank as u32 + 1,
                    exact: false,
                });
            }
            let proven = rm_score_is_proven(root_moves[0].score, depth);
            if proven || self.total_nodes() >= self.budget || self.out_of_time(control) {
                break;
            }
            let (best_move, score) = (root_moves[0].child.mv, root_moves[0].score);
            let mut score_drop = 0;
            if let Some((last_move, last_score)) = previous {
                instability /= 2.0;
                if last_move != best_move {
                    instability += 1.0;
                }
                score_drop = last_score.saturating_sub(score);
            }
            previous = Some((best_move, score));
            if let Some(budget) = clock {
                if self.past_soft_limit(&budget, instability, score_drop, control) {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        if exact_all && result.depth > 0 {
            self.pick_weaker(&mut result, &root_moves, second, third, tie_salt);
        }
        result
    }

    /// The lines the oracle gives at the root, best first, when it answers there (the
    /// [`Searcher::lines`] first ones with their principal variations): from
    /// [`Searcher::root_move_from_oracle`] (a table that knows scores), else
    /// [`Searcher::root_from_oracle`] (one that knows results and distances). `None`: search.
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
        let oracle = self.oracle.clone()?;
        let best_move = best.pv.first().copied();
        let mut lines = vec![best];
        for rm in root_moves
            .iter()
            .filter(|rm| Some(rm.child.mv) != best_move)
        {
            let score = match rm.child.pos.proven() {
                Some(proven) => to_score(proven_score(proven, 1)),
                None => {
                    let (low, high) = oracle.bounds(&rm.child.pos)?;
                    if low != high {
                        return None;
                    }
                    self.tbhits += 1;
                    Score::Cp(-low)
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
    /// best moves (for the [`Searcher::lines`] first). A child that the cycle rule ends (a
    /// repetition of the game's history) gets the rule's value instead.
    fn root_from_oracle(
        &mut self,
        root_moves: &[RootMove<G>],
        salt: u64,
    ) -> Option<Vec<OracleLine<G::Move>>> {
        let oracle = self.oracle.clone()?;
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
                pv: table_line(oracle.as_ref(), rm),
                index: rm.index,
            })
            .collect();
        Some(lines)
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
                        Child::new(mv, child, step, index, key, &self.weights)
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

    /// One iteration over the root moves. Returns the index of the best move, or `None` when the
    /// iteration was cut short. Equal best scores are resolved by a seeded hash, never by order.
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
        control: &Control,
    ) -> Option<usize> {
        let mut best = -INF;
        // The best exact scores so far, best first: as many as there are lines (MultiPV).
        let mut top: Vec<i32> = Vec::with_capacity(self.lines + 1);
        let root_len = self.keys.len();
        // `keys` starts with the position after the last irreversible move.
        let root_irrev = 0;
        for (i, rm) in root_moves.iter_mut().enumerate() {
            // A move must reach this to be scored exactly: the best score so far, or with
            // several lines the last line's.
            let threshold = if self.lines > 1 {
                top.get(self.lines - 1).copied().unwrap_or(-INF)
            } else {
                best
            };
            let alpha = if exact_all || threshold == -INF {
                -INF
            } else {
                threshold - 1
            };
            let child = rm.child.clone();
            self.keys.truncate(root_len);
            self.keys.push(child.key);
            let irrev = if child.irreversible {
                self.keys.len() - 1
            } else {
                root_irrev
            };
            let on_pv = self.prev_pv.first() == Some(&child.mv);
            let d = depth as i32 - 1;
            let mut score;
            if i == 0 && !exact_all && aspiration.is_some() {
                // Aspiration: a window around the previous iteration's score, opened on the side
                // the score falls out of.
                let center = aspiration.unwrap_or(0);
                let (mut lo, mut hi) = (center - ASPIRATION, center + ASPIRATION);
                loop {
                    score = -self.negamax(&child.pos, d, -hi, -lo, 1, irrev, on_pv, control);
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
            } else if alpha == -INF {
                score = -self.negamax(&child.pos, d, -INF, INF, 1, irrev, on_pv, control);
            } else {
                score = -self.negamax(&child.pos, d, -threshold, -alpha, 1, irrev, on_pv, control);
                if score > alpha && !self.aborted {
                    score = -self.negamax(&child.pos, d, -INF, -alpha, 1, irrev, on_pv, control);
                }
            }
            self.keys.truncate(root_len);
            if self.aborted {
                return None;
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
            best = best.max(score);
        }
        root_moves
            .iter()
            .enumerate()
            .filter(|(_, rm)| rm.exact && rm.score == best)
            .min_by_key(|(_, rm)| mix(tie_salt, rm.index as u64))
            .map(|(i, _)| i)
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

    /// Between [`POLL_INTERVAL`] nodes: adds this thread's nodes to the shared count (with
    /// helpers), and says whether the search must stop: time is up, a stop was asked for, or all
    /// threads together have spent the budget.
    fn poll(&mut self, control: &Control) -> bool {
        self.next_poll = self.nodes + POLL_INTERVAL;
        if self.shared.is_some() && self.flush_nodes() >= self.budget {
            return true;
        }
        self.out_of_time(control)
    }

    /// Adds this thread's nodes since the last call to the shared count (with helpers) and
    /// returns the count of all threads.
    fn flush_nodes(&mut self) -> u64 {
        let Some(shared) = &self.shared else {
            return self.nodes;
        };
        let new = self.nodes - self.flushed;
        self.flushed = self.nodes;
        shared.fetch_add(new, Ordering::Relaxed) + new
    }

    /// The nodes of this search: this thread's alone, or, with helpers, those all threads have
    /// added to the shared count and this thread's since it last added.
    fn total_nodes(&self) -> u64 {
        match &self.shared {
            Some(shared) => shared.load(Ordering::Relaxed) + (self.nodes - self.flushed),
            None => self.nodes,
        }
    }

    fn out_of_time(&self, control: &Control) -> bool {
        control.is_stopped()
            || (!control.is_pondering()
                && self
                    .hard_limit
                    .is_some_and(|hard| control.elapsed() >= hard))
    }

    /// Whether, between iterations, the clock's soft limit has passed (never while pondering:
    /// the clock starts at `ponderhit`).
    fn past_soft_limit(
        &self,
        budget: &TimeBudget,
        instability: f64,
        score_drop: i32,
        control: &Control,
    ) -> bool {
        !control.is_pondering() && control.elapsed() >= budget.soft_limit(instability, score_drop)
    }

    /// Fail-soft principal variation search with a transposition table. `irrev` is the index in
    /// `keys` of the position after the last irreversible move: repetitions are only looked for
    /// after it. `on_pv` is set along the previous iteration's principal variation, whose moves
    /// are searched first.
    ///
    /// # The cycle rule and the transposition table
    /// A value reached through the cycle rule depends on the path (the positions since the last
    /// capture), not on the position alone, so storing it would poison other paths to the same
    /// position (the graph-history-interaction problem). Two guards:
    /// - Repetitions: a node ended by the cycle rule sets `path_dependent`, and the flag is
    ///   propagated to every ancestor whose search saw it. The value of such a node is not stored
    ///   (only its best move is kept, for ordering), so stored values never come from a
    ///   repetition.
    /// - The no-capture ply limit: at a node from which the limit can be reached within the
    ///   remaining depth, stored values are not used (a value searched on a path with more plies
    ///   left before the limit would be wrong here), and if the limit is hit the node is path
    ///   dependent as above.
    ///
    /// What stays approximate, as in every engine with a table: a stored value was searched
    /// without a repetition inside its subtree, and another path to that position might have met
    /// one there (a position of the subtree equal to one of the other path's ancestors). In Oware
    /// such a cycle needs the same houses and stores again with no capture in between, so this is
    /// rare; the node budget, not correctness of the rules, is what it can affect.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        irrev: usize,
        on_pv: bool,
        control: &Control,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(proven) = pos.proven() {
            return proven_score(proven, ply);
        }
        if self.cycle_ends_game(irrev) {
            self.path_dependent = true;
            return outcome_score(pos.cycle_outcome(), ply);
        }
        if let Some(value) = self.probe_oracle(pos) {
            return oracle_score(value, ply);
        }
        // The oracle's bounds, as a table entry's: an exact score or one outside the window
        // answers; otherwise the node's result is kept inside them.
        let bounds = self.oracle_bounds(pos, irrev);
        if let Some((low, high)) = bounds {
            if low == high || high <= alpha || low >= beta {
                self.tbhits += 1;
                return if high <= alpha { high } else { low };
            }
        }
        if ply >= MAX_PLY {
            return within(bounds, clamp_eval(pos.evaluate(&self.weights)));
        }
        if depth <= 0 {
            let stand = clamp_eval(pos.evaluate(&self.weights));
            return within(bounds, self.quiesce(pos, stand, alpha, beta, ply));
        }
        if self.can_abort {
            if self.nodes >= self.node_limit {
                self.aborted = true;
                return 0;
            }
            if self.nodes >= self.next_poll && self.poll(control) {
                self.aborted = true;
                return 0;
            }
        }

        let pv_node = beta - alpha > 1;
        let key = *self.keys.last().unwrap_or(&0);
        let since = (self.keys.len() - 1 - irrev) as u32;
        let limit = self.cycle.no_progress_limit;
        let near_limit = limit > 0 && since + depth as u32 >= limit;
        let mut tt_move = NO_MOVE;
        let use_tt = depth >= TT_MIN_DEPTH && self.tt_use != TtUse::Off;
        if let Some(hit) = if use_tt { self.tt.probe(key) } else { None } {
            tt_move = hit.mv;
            let deep_enough = match self.tt_use {
                TtUse::ExactDepth => hit.depth as i32 == depth,
                _ => hit.depth as i32 >= depth,
            };
            if !pv_node && !near_limit && deep_enough {
                let s = from_tt(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return s;
                }
            }
        }

        let pv_move = if on_pv {
            self.prev_pv.get(ply).copied()
        } else {
            None
        };
        // The previous iteration's move, else the table's, is searched before the other moves are
        // even generated: when it cuts off, playing and evaluating them would be wasted.
        let prefetch = depth > TT_MIN_DEPTH;
        // This node's moves and children go on top of the stacks, and are removed on return.
        let moves_base = self.moves.len();
        pos.legal_moves(&mut self.moves);
        let moves = &self.moves[moves_base..];
        let first = pv_move
            .and_then(|m| moves.iter().position(|&x| x == m))
            .or_else(|| (usize::from(tt_move) < moves.len()).then_some(usize::from(tt_move)));
        let children_base = self.children.len();
        let mut complete = match first {
            Some(index) => {
                let mv = moves[index];
                let (child, step) = pos.play(mv);
                let key = child.key();
                if prefetch {
                    self.tt.prefetch(key);
                }
                self.children
                    .push(Child::new(mv, child, step, index, key, &self.weights));
                false
            }
            None => {
                self.generate_children(pos, moves_base, None, tt_move, prefetch);
                true
            }
        };
        let outer_dependent = std::mem::replace(&mut self.path_dependent, false);
        let alpha0 = alpha;
        let mut best = -INF;
        if let Some((low, _)) = bounds {
            // The mover secures at least `low` (below beta): no move need beat less.
            alpha = alpha.max(low);
        }
        let mut best_index = NO_MOVE;
        let base = self.keys.len();
        let mut i = 0;
        loop {
            if children_base + i == self.children.len() {
                if complete {
                    break;
                }
                complete = true;
                self.generate_children(pos, moves_base, first, tt_move, prefetch);
                if children_base + i == self.children.len() {
                    break;
                }
            }
            // A copy: the searches below push their own children above this one.
            let child = self.children[children_base + i].clone();
            let child = &child;
            i += 1;
            let child_irrev = if child.irreversible { base } else { irrev };
            let child_on_pv = on_pv && i == 1 && pv_move == Some(child.mv);
            let d = depth - 1;
            if d > 0 {
                self.keys.push(child.key());
            }
            let score = if d <= 0 {
                -self.leaf(child, ply + 1, base, child_irrev, -beta, -alpha)
            } else if i == 1 {
                -self.negamax(
                    &child.pos,
                    d,
                    -beta,
                    -alpha,
                    ply + 1,
                    child_irrev,
                    child_on_pv,
                    control,
                )
            } else {
                // Late move reduction: a late quiet move is first searched a ply shallower, and
                // again at full depth only if it beats alpha there.
                let reduce =
                    self.reductions && depth >= LMR_MIN_DEPTH && i > LMR_FROM_MOVE && !child.noisy;
                let mut s = alpha + 1;
                if reduce {
                    s = -self.negamax(
                        &child.pos,
                        d - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        child_irrev,
                        false,
                        control,
                    );
                }
                if s > alpha && !self.aborted {
                    s = -self.negamax(
                        &child.pos,
                        d,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        child_irrev,
                        false,
                        control,
                    );
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(
                        &child.pos,
                        d,
                        -beta,
                        -alpha,
                        ply + 1,
                        child_irrev,
                        false,
                        control,
                    )
                } else {
                    s
                }
            };
            self.keys.truncate(base);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_index = child.index;
                if score > alpha {
                    alpha = score;
                    // Null-window nodes have no principal variation to report.
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(child.mv);
                        line.extend_from_slice(&tail[0]);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.children.truncate(children_base);
        self.moves.truncate(moves_base);
        if !self.aborted {
            best = within(bounds, best);
        }
        let dependent = self.path_dependent;
        self.path_dependent = outer_dependent || dependent;
        if use_tt && !self.aborted {
            let bound = if dependent {
                Bound::None
            } else if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(key, depth as u32, to_tt(best, ply), bound, best_index);
        }
        best
    }

    /// [`Searcher::negamax`] at depth 0, for a child whose evaluation is already known: the same
    /// checks and node count, without a second evaluation. The child's key is not pushed on
    /// `keys` (nothing below reads it): `at` is the place it would have, and the key is made only
    /// if the cycle rule needs it.
    #[inline]
    fn leaf(
        &mut self,
        child: &Child<G>,
        ply: usize,
        at: usize,
        irrev: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(proven) = child.pos.proven() {
            return proven_score(proven, ply);
        }
        if self.cycle_ends_game_at(at, irrev, || child.key()) {
            self.path_dependent = true;
            return outcome_score(child.pos.cycle_outcome(), ply);
        }
        self.quiesce(&child.pos, child.eval, alpha, beta, ply)
    }

    /// The value of a leaf (`ply` below the root, static evaluation `stand`): the evaluation, or
    /// better for the side to move if a noisy move (a capture) gains, followed
    /// to the end of the capture sequence (each capture is a node). Fail-soft.
    ///
    /// Inlined: most leaves stand pat at once, and [`Searcher::quiesce_moves`] is called only
    /// for the others.
    #[inline]
    fn quiesce(&mut self, pos: &G, stand: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !QUIESCENCE || stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        self.quiesce_moves(pos, stand, alpha, beta, ply)
    }

    /// [`Searcher::quiesce`] when the evaluation does not stand pat: the captures are tried.
    fn quiesce_moves(&mut self, pos: &G, stand: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        alpha = alpha.max(stand);
        let mut best = stand;
        // The moves and captures go on top of the stacks, as in `negamax`.
        let moves_base = self.moves.len();
        let captures_base = self.children.len();
        pos.legal_moves(&mut self.moves);
        let Searcher {
            moves,
            children,
            weights,
            ..
        } = self;
        for (index, &mv) in moves[moves_base..].iter().enumerate() {
            if !pos.may_be_noisy(mv) {
                continue;
            }
            let (child, step) = pos.play(mv);
            if step.noisy {
                children.push(Child::new(mv, child, step, index, 0, weights));
            }
        }
        // Most promising first (insertion sort by the child's evaluation, lowest for it first).
        let captures = &mut children[captures_base..];
        for i in 1..captures.len() {
            let mut j = i;
            while j > 0 && captures[j - 1].eval > captures[j].eval {
                captures.swap(j - 1, j);
                j -= 1;
            }
        }
        for i in captures_base..self.children.len() {
            // A copy: the searches below push their own captures above this one.
            let child = self.children[i].clone();
            self.nodes += 1;
            self.seldepth = self.seldepth.max(ply as u32 + 1);
            let score = match child.pos.proven() {
                Some(proven) => proven_score(proven, ply + 1),
                None => -self.quiesce(&child.pos, child.eval, -beta, -alpha, ply + 1),
            };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.children.truncate(captures_base);
        self.moves.truncate(moves_base);
        best
    }

    /// The oracle's value of `pos`, counted in `tbhits`; `None` without an oracle (one
    /// predictable branch) or outside its table.
    #[inline]
    fn probe_oracle(&mut self, pos: &G) -> Option<(Outcome, u32)> {
        let value = self.oracle.as_ref()?.probe(pos)?;
        self.tbhits += 1;
        Some(value)
    }

    /// The oracle's bounds of the score of `pos` ([`Oracle::bounds`]: equal when exact); `None`
    /// without one, and where the no-capture ply limit is within [`ORACLE_LIMIT_MARGIN`] plies
    /// (the table's lines assume it is not reached on the way).
    fn oracle_bounds(&mut self, pos: &G, irrev: usize) -> Option<(i32, i32)> {
        let oracle = self.oracle.as_ref()?;
        let since = (self.keys.len() - 1 - irrev.min(self.keys.len() - 1)) as u32;
        let limit = self.cycle.no_progress_limit;
        if limit > 0 && since + ORACLE_LIMIT_MARGIN >= limit {
            return None;
        }
        oracle.bounds(pos)
    }

    /// The root's move from the oracle ([`Oracle::root_move`]), when it gives one that does not
    /// end the game by the cycle rule, with the root's exact score.
    fn root_move_from_oracle(
        &mut self,
        root: &G,
        root_moves: &[RootMove<G>],
    ) -> Option<OracleLine<G::Move>> {
        let oracle = self.oracle.clone()?;
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
        Some(OracleLine {
            score: Score::Cp(score),
            pv: vec![mv],
            index: rm.index,
        })
    }

    /// Whether the position last pushed on `keys` ends the game by the cycle rule.
    fn cycle_ends_game(&self, irrev: usize) -> bool {
        let at = self.keys.len() - 1;
        self.cycle_ends_game_at(at, irrev, || self.keys[at])
    }

    /// Whether a position ends the game by the cycle rule, given its place `at` in `keys` (the
    /// positions before it are `keys[..at]`; its own key need not have been pushed) and its
    /// `key`, asked for only when a repetition is possible.
    #[inline]
    fn cycle_ends_game_at(&self, at: usize, irrev: usize, key: impl FnOnce() -> u64) -> bool {
        let since = at - irrev.min(at);
        if self.cycle.no_progress_limit > 0 && since as u32 >= self.cycle.no_progress_limit {
            return true;
        }
        if since < 2 {
            return false;
        }
        let key = key();
        let mut count = 1;
        let mut i = at;
        // The key includes the side to move, so only every other position can match.
        while i >= irrev + 2 {
            i -= 2;
            if self.keys[i] == key {
                count += 1;
                if count >= self.cycle.repetitions {
                    return true;
                }
            }
        }
        false
    }

    /// Pushes on the `children` stack the legal moves of `pos` (`moves` from `moves_base` on) but
    /// `skip` (an index in the legal move list, already searched) with their positions, in search
    /// order: the transposition table's move (`tt_move`, an index in the legal move list), then
    /// the others by the static evaluation of the position they lead to, best for the mover first
    /// (captures come first this way, the biggest first), house order among equals.
    ///
    /// Measured on the bench (nodes to depth 14): this order needs 15% fewer nodes than captures
    /// first then house order; killer moves and a history table on top of it only added nodes.
    fn generate_children(
        &mut self,
        pos: &G,
        moves_base: usize,
        skip: Option<usize>,
        tt_move: u8,
        prefetch: bool,
    ) {
        let Searcher {
            moves,
            children,
            weights,
            tt,
            ..
        } = self;
        let start = children.len();
        // Every move's child, made in one `extend` (a single capacity check, as the length is
        // known), then the skipped one removed, which keeps the order: playing that move again
        // costs less than a test and a capacity check for every child.
        children.extend(moves[moves_base..].iter().enumerate().map(|(index, &mv)| {
            let (child, step) = pos.play(mv);
            // The key is needed only if the child is searched; most are not (cut-offs), so it
            // is made below only for the children whose table entry is prefetched, and
            // otherwise when searched.
            Child::new(mv, child, step, index, 0, weights)
        }));
        if let Some(skip) = skip {
            children.remove(start + skip);
        }
        // Insertion sort by evaluation, lowest for the child first: stable (keeps house order
        // among equals) and fast for six moves.
        let new = &mut children[start..];
        for i in 1..new.len() {
            let mut j = i;
            while j > 0 && new[j - 1].eval > new[j].eval {
                new.swap(j - 1, j);
                j -= 1;
            }
        }
        if usize::from(tt_move) < moves.len() - moves_base && skip != Some(usize::from(tt_move)) {
            tt_move_first(new, tt_move);
        }
        if prefetch {
            for c in new.iter_mut().take(PREFETCH_CHILDREN) {
                c.key = c.pos.key();
                tt.prefetch(c.key);
            }
        }
    }
}

/// A line an oracle gives at the root ([`Searcher::root_lines_from_oracle`]).
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

/// Moves the child of the table's move to the front of `children`, the others keeping their order
/// (rare: only when the previous iteration's move was searched first and differs from the
/// table's).
#[cold]
fn tt_move_first<G: Game>(children: &mut [Child<G>], tt_move: u8) {
    if let Some(t) = children.iter().position(|c| c.index == tt_move) {
        children[..=t].rotate_right(1);
    }
}

/// Threads that clear a new table: as many as the machine runs at once.
fn clear_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn rm_score_is_proven(score: i32, depth: u32) -> bool {
    score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth
}

/// `score` kept inside the oracle's `bounds` of the position, unless it is a proven result (the
/// search's own proof of a result by the rules stands).
fn within(bounds: Option<(i32, i32)>, score: i32) -> i32 {
    match bounds {
        Some((low, high)) if score.abs() < MATE_BOUND => score.clamp(low, high),
        _ => score,
    }
}

/// An evaluation kept inside [`MAX_EVAL`].
fn clamp_eval(eval: i32) -> i32 {
    eval.clamp(-MAX_EVAL, MAX_EVAL)
}

/// The score of a position known without search ([`Game::proven`]) at `ply`: its outcome,
/// `plies` later.
#[inline]
fn proven_score((outcome, plies): (Outcome, u8), ply: usize) -> i32 {
    outcome_score(outcome, ply + plies as usize)
}

pub(crate) fn outcome_score(outcome: Outcome, ply: usize) -> i32 {
    match outcome {
        Outcome::Win => MATE - ply as i32,
        Outcome::Loss => -(MATE - ply as i32),
        Outcome::Draw => 0,
    }
}

/// How near the no-capture ply limit (in plies) the search stops using [`Oracle::score`]: the
/// table's values assume the game is not cut on the way.
const ORACLE_LIMIT_MARGIN: u32 = 100;

/// The score at `ply` of a position the oracle values `(outcome, plies to the end)`.
fn oracle_score((outcome, plies): (Outcome, u32), ply: usize) -> i32 {
    outcome_score(outcome, (ply + plies as usize).min(MAX_DISTANCE - 1))
}

/// Converts an internal score to the reported one.
pub(crate) fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-((MATE + s + 1) / 2))
    } else {
        Score::Cp(s)
    }
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
