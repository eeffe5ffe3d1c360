//! One thread of a search and its state: what it shares with the other threads, its limits and
//! counters, the stacks of the current path, a node's place on it ([`Node`]), and the checks
//! both the root ([`super::root`]) and the node search ([`super::negamax`]) make: the clock and
//! the stop flag, the cycle rule, the oracle's bounds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::game::{CycleRule, Game, Step};
use crate::search::bands::clamp_eval;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Oracle, TimeBudget};

/// The deepest iteration the search attempts, in plies.
pub const MAX_DEPTH: u32 = 100;
/// The deepest ply a node can be at (quiescence goes beyond the iteration's depth).
pub(crate) const MAX_PLY: usize = MAX_DEPTH as usize + 2;
/// How often (in nodes) the clock and the stop flag are read.
const POLL_INTERVAL: u64 = 1024;
/// How near the no-capture ply limit (in plies) the search stops using the oracle: the table's
/// values assume the game is not cut on the way.
pub(crate) const ORACLE_LIMIT_MARGIN: u32 = 100;

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

/// What every thread of a search reads of its [`crate::search::Searcher`].
pub(crate) struct Shared<'a, G: Game> {
    /// The transposition table, shared by all threads.
    pub(crate) tt: &'a TranspositionTable,
    /// The table of exact values, if any.
    pub(crate) oracle: Option<&'a dyn Oracle<G>>,
    /// How the table is used.
    pub(crate) tt_use: TtUse,
    /// Whether late moves are reduced and the game's pruning applies.
    pub(crate) reductions: bool,
}

impl<G: Game> Clone for Shared<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Shared<'_, G> {}

/// One thread's buffers, kept between searches so that a search allocates nothing: the stacks
/// of the current path ([`SearchThread`] owns them while it searches).
pub(crate) struct Stacks<G: Game> {
    keys: Vec<u64>,
    pv: Vec<Vec<G::Move>>,
    children: Vec<Child<G>>,
    moves: Vec<G::Move>,
}

impl<G: Game> Stacks<G> {
    /// Buffers with room for the deepest path.
    pub(crate) fn new() -> Stacks<G> {
        Stacks {
            keys: Vec::with_capacity(1024),
            pv: (0..MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            children: Vec::with_capacity(8 * (MAX_PLY + 1)),
            moves: Vec::with_capacity(8 * (MAX_PLY + 1)),
        }
    }
}

/// A move of a node with the position it leads to, ready for ordering.
#[derive(Clone)]
pub(crate) struct Child<G: Game> {
    pub(crate) mv: G::Move,
    pub(crate) pos: G,
    /// [`Step::irreversible`]: restarts the cycle rule's count.
    pub(crate) irreversible: bool,
    /// [`Step::noisy`]: spared by late-move reductions.
    pub(crate) noisy: bool,
    /// Index in the legal move list (what the transposition table stores).
    pub(crate) index: u8,
    /// The position's [`Game::key`], or 0 when not computed yet.
    pub(crate) key: u64,
    /// The position's static evaluation (from its side to move).
    pub(crate) eval: i32,
}

impl<G: Game> Child<G> {
    /// The child `pos` reached by `mv` (legal move number `index`) with what the move did, its
    /// key (0 to make it later) and its static evaluation (made with its parent's share,
    /// [`Game::eval_parent`], when there is one).
    #[inline(always)]
    pub(crate) fn new(
        mv: G::Move,
        pos: G,
        step: Step,
        index: usize,
        key: u64,
        weights: &G::Weights,
        parent: Option<&G::EvalParent>,
    ) -> Self {
        let eval = clamp_eval(match parent {
            Some(parent) => pos.evaluate_child(parent, weights),
            None => pos.evaluate(weights),
        });
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
    pub(crate) fn key(&self) -> u64 {
        if self.key != 0 {
            self.key
        } else {
            self.pos.key()
        }
    }
}

/// What a node is asked, and where it sits on the current path (the per-ply state of the
/// search, passed down the tree).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Plies left to search (0 or less: a leaf).
    pub(crate) depth: i32,
    /// The window: the score the mover already has elsewhere...
    pub(crate) alpha: i32,
    /// ...and the one the opponent already has (fail-soft: the result may fall outside).
    pub(crate) beta: i32,
    /// Plies from the root.
    pub(crate) ply: usize,
    /// The index in the `keys` stack of the position after the last irreversible move:
    /// repetitions are only looked for after it.
    pub(crate) irrev: usize,
    /// Whether the node lies on the previous iteration's principal variation, whose move is
    /// searched first.
    pub(crate) on_pv: bool,
    /// The static evaluation of the node's position, from its side to move (its parent computed
    /// it to order the moves).
    pub(crate) eval: i32,
    /// Whether the side to move is in check ([`Game::in_check`]).
    pub(crate) in_check: bool,
}

impl Node {
    /// Whether the window is open (a principal variation node) rather than null.
    #[inline]
    pub(crate) fn is_pv(&self) -> bool {
        self.beta - self.alpha > 1
    }

    /// A child of this node, off the principal variation, searched `depth` plies deep in the
    /// window (`alpha`, `beta`) from the child's side; `irrev` as in [`Node::irrev`]. Its
    /// evaluation (0) and check (none) are placeholders until [`Node::of`] gives the child's.
    #[inline]
    pub(crate) fn child(&self, depth: i32, alpha: i32, beta: i32, irrev: usize) -> Node {
        Node {
            depth,
            alpha,
            beta,
            ply: self.ply + 1,
            irrev,
            on_pv: false,
            eval: 0,
            in_check: false,
        }
    }

    /// This node, of the position of `child` (its evaluation) with the side to move in check or
    /// not (`in_check`).
    #[inline]
    pub(crate) fn of<G: Game>(self, child: &Child<G>, in_check: bool) -> Node {
        Node {
            eval: child.eval,
            in_check,
            ..self
        }
    }
}

/// One thread of a search (the main thread, or a helper of lazy SMP) with its state: what it
/// shares with the other threads, its limits, its counters and the stacks of the current path.
/// The root's iterative deepening ([`SearchThread::iterate`]) and the node search
/// ([`SearchThread::negamax`]) are written on it, so that what every node needs is here rather
/// than in its parameters.
pub(crate) struct SearchThread<'a, G: Game> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) oracle: Option<&'a dyn Oracle<G>>,
    pub(crate) tt_use: TtUse,
    pub(crate) reductions: bool,
    /// The stop flag, pondering and the clock's start of this thread's search.
    control: &'a Control,
    /// The node count of all threads of a search with helpers; `None` when searching alone.
    pub(crate) all_nodes: Option<&'a AtomicU64>,
    /// A helper thread's number (1, 2, ...): it searches only some depths; `None` for the main
    /// thread.
    pub(crate) helper: Option<usize>,
    pub(crate) cycle: CycleRule,
    pub(crate) weights: G::Weights,
    /// `MultiPV`: how many lines (distinct first moves) each iteration scores exactly and reports.
    pub(crate) lines: usize,
    /// The node budget of the search (all threads').
    pub(crate) budget: u64,
    /// The node count at which the search stops inside an iteration: the budget when searching
    /// alone; with helpers, the shared count is checked against `budget` at each poll instead.
    pub(crate) node_limit: u64,
    /// When the search stops inside an iteration: `movetime`, or the clock's hard limit.
    pub(crate) hard_limit: Option<Duration>,
    pub(crate) nodes: u64,
    pub(crate) seldepth: u32,
    /// Positions the oracle valued in this search.
    pub(crate) tbhits: u64,
    /// This thread's nodes already added to `all_nodes`.
    flushed: u64,
    /// The node count at which the clock, the stop flag and the shared count are next read.
    next_poll: u64,
    /// Whether the current iteration may be cut short (not the first: there is always a move).
    pub(crate) can_abort: bool,
    /// Set when the current iteration was cut short: every score since is meaningless.
    pub(crate) aborted: bool,
    /// Set when a value met since it was last cleared came from the cycle rule (see
    /// [`SearchThread::negamax`]): such values depend on the path and are not stored.
    pub(crate) path_dependent: bool,
    /// The previous iteration's principal variation, searched first.
    pub(crate) prev_pv: Vec<G::Move>,
    /// The keys of the positions since the last irreversible move of the game, then of the
    /// path (a leaf's is not pushed).
    pub(crate) keys: Vec<u64>,
    /// The principal variation found below each ply.
    pub(crate) pv: Vec<Vec<G::Move>>,
    /// The children of the nodes on the current path, as a stack: a node pushes its children
    /// above its ancestors' and removes them when it returns.
    pub(crate) children: Vec<Child<G>>,
    /// The legal moves of the nodes on the current path (and the root's), stacked the same way.
    pub(crate) moves: Vec<G::Move>,
}

impl<'a, G: Game> SearchThread<'a, G> {
    /// A thread on `shared`'s tables and `stacks`' buffers, stopped by `control`; `all_nodes`
    /// counts the nodes of all threads when there are helpers; `helper` is a helper's number.
    pub(crate) fn new(
        shared: Shared<'a, G>,
        stacks: Stacks<G>,
        control: &'a Control,
        all_nodes: Option<&'a AtomicU64>,
        helper: Option<usize>,
    ) -> SearchThread<'a, G> {
        SearchThread {
            tt: shared.tt,
            oracle: shared.oracle,
            tt_use: shared.tt_use,
            reductions: shared.reductions,
            control,
            all_nodes,
            helper,
            cycle: CycleRule::default(),
            weights: G::Weights::default(),
            lines: 1,
            budget: u64::MAX,
            node_limit: u64::MAX,
            hard_limit: None,
            nodes: 0,
            seldepth: 0,
            tbhits: 0,
            flushed: 0,
            next_poll: POLL_INTERVAL,
            can_abort: false,
            aborted: false,
            path_dependent: false,
            prev_pv: Vec::new(),
            keys: stacks.keys,
            pv: stacks.pv,
            children: stacks.children,
            moves: stacks.moves,
        }
    }

    /// The buffers back, for the next search.
    pub(crate) fn into_stacks(self) -> Stacks<G> {
        Stacks {
            keys: self.keys,
            pv: self.pv,
            children: self.children,
            moves: self.moves,
        }
    }

    /// Starts the node counters and polls of a search.
    pub(crate) fn reset_counters(&mut self) {
        self.nodes = 0;
        self.seldepth = 0;
        self.tbhits = 0;
        self.flushed = 0;
        self.next_poll = POLL_INTERVAL;
        self.aborted = false;
        self.path_dependent = false;
    }

    /// Whether the search must stop inside the current iteration (never the first): the node
    /// budget is spent, or, every [`POLL_INTERVAL`] nodes, the poll says so. Sets `aborted`.
    #[inline]
    pub(crate) fn must_abort(&mut self) -> bool {
        let abort = self.can_abort
            && (self.nodes >= self.node_limit || (self.nodes >= self.next_poll && self.poll()));
        if abort {
            self.aborted = true;
        }
        abort
    }

    /// Between [`POLL_INTERVAL`] nodes: adds this thread's nodes to the shared count (with
    /// helpers), and says whether the search must stop: time is up, a stop was asked for, or all
    /// threads together have spent the budget.
    fn poll(&mut self) -> bool {
        self.next_poll = self.nodes + POLL_INTERVAL;
        if self.all_nodes.is_some() && self.flush_nodes() >= self.budget {
            return true;
        }
        self.control.report_nodes(self.total_nodes());
        self.out_of_time()
    }

    /// Adds this thread's nodes since the last call to the shared count (with helpers) and
    /// returns the count of all threads.
    pub(crate) fn flush_nodes(&mut self) -> u64 {
        let Some(all_nodes) = self.all_nodes else {
            return self.nodes;
        };
        let new = self.nodes - self.flushed;
        self.flushed = self.nodes;
        all_nodes.fetch_add(new, Ordering::Relaxed) + new
    }

    /// The nodes of this search: this thread's alone, or, with helpers, those all threads have
    /// added to the shared count and this thread's since it last added.
    pub(crate) fn total_nodes(&self) -> u64 {
        match self.all_nodes {
            Some(all_nodes) => all_nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed),
            None => self.nodes,
        }
    }

    /// Whether a stop was asked for, or (unless pondering) the hard time limit has passed.
    pub(crate) fn out_of_time(&self) -> bool {
        let control = self.control;
        control.is_stopped()
            || (!control.is_pondering()
                && self
                    .hard_limit
                    .is_some_and(|hard| control.elapsed() >= hard))
    }

    /// Whether, between iterations, the clock's soft limit has passed (never while pondering:
    /// the clock starts at `ponderhit`).
    pub(crate) fn past_soft_limit(
        &self,
        budget: &TimeBudget,
        instability: f64,
        score_drop: i32,
    ) -> bool {
        !self.control.is_pondering()
            && self.control.elapsed() >= budget.soft_limit(instability, score_drop)
    }

    /// The oracle's bounds of the score of `pos` ([`Oracle::bounds`]: equal when exact); `None`
    /// without one, and where the no-capture ply limit is within [`ORACLE_LIMIT_MARGIN`] plies
    /// (the table's lines assume it is not reached on the way).
    pub(crate) fn oracle_bounds(&mut self, pos: &G, irrev: usize) -> Option<(i32, i32)> {
        let oracle = self.oracle?;
        let since = (self.keys.len() - 1 - irrev.min(self.keys.len() - 1)) as u32;
        let limit = self.cycle.no_progress_limit;
        if limit > 0 && since + ORACLE_LIMIT_MARGIN >= limit {
            return None;
        }
        oracle.bounds(pos)
    }

    /// Whether the position last pushed on `keys` ends the game by the cycle rule.
    pub(crate) fn cycle_ends_game(&self, irrev: usize) -> bool {
        let at = self.keys.len() - 1;
        self.cycle_ends_game_at(at, irrev, || self.keys[at])
    }

    /// Whether a position ends the game by the cycle rule, given its place `at` in `keys` (the
    /// positions before it are `keys[..at]`; its own key need not have been pushed) and its
    /// `key`, asked for only when a repetition is possible.
    #[inline]
    pub(crate) fn cycle_ends_game_at(
        &self,
        at: usize,
        irrev: usize,
        key: impl FnOnce() -> u64,
    ) -> bool {
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
}
