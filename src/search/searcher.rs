//! The searcher a game or an engine keeps: its transposition table, its oracle, its threads and
//! their buffers between searches. Each search runs on [`SearchThread`]s built from it.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use crate::game::Game;
use crate::search::thread::{SearchThread, Shared, Stacks, TtUse};
use crate::search::tt::{HashReport, TranspositionTable, DEFAULT_HASH_MB};
use crate::search::{Control, Level, Limits, Oracle, Root, SearchConfig, SearchHandler};
use crate::search::{SearchResult, Silent};

/// The negamax searcher. Keeps its buffers between searches; create one per game or engine.
pub struct Searcher<G: Game> {
    /// Shared with the helper threads of a search ([`Searcher::set_threads`]).
    tt: Arc<TranspositionTable>,
    /// Exact values of the positions a table holds ([`Searcher::set_oracle`]).
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// How the table is used (always [`TtUse::Normal`] outside tests).
    pub(crate) tt_use: TtUse,
    /// Whether late moves are reduced and the game's pruning applies (always outside tests,
    /// which compare with plain minimax).
    pub(crate) reductions: bool,
    /// `Threads`: how many threads search (1: this one alone).
    threads: usize,
    /// This thread's buffers; taken by a search while it runs.
    main: Option<Stacks<G>>,
    /// The buffers of the helper threads (lazy SMP), kept between searches.
    helpers: Vec<Stacks<G>>,
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
        Searcher {
            tt: Arc::new(TranspositionTable::new(megabytes, clear_threads())),
            oracle: None,
            tt_use: TtUse::Normal,
            reductions: true,
            threads: 1,
            main: Some(Stacks::new()),
            helpers: Vec::new(),
        }
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
        // Free the old table before taking the new one's memory.
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
        self.tt.clear();
    }

    /// Searches `root` by iterative deepening until a limit is reached, reporting each completed
    /// iteration to `handler`, and returns the move to play.
    ///
    /// The effective limits are `limits` combined with the level's caps (at levels 1-5, or when
    /// `limits` is empty); `go infinite` ignores the level. A root with a single legal move is
    /// answered at once without search (depth 0). An iteration cut short by the node budget,
    /// `movetime`, the clock's hard limit or `control.stop()` is discarded, except that the first
    /// iteration always completes so there is always a move, and that with one line (and not at
    /// levels 1-2) a move the cut iteration had already found better than the previous best, at
    /// its depth, is played and reported at that depth. Under a game clock no iteration
    /// starts after the soft limit ([`crate::search::TimeBudget::soft_limit`]).
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
        let stacks = self.main.take().unwrap_or_else(Stacks::new);
        let (result, stacks) = if self.threads <= 1 {
            let mut thread = SearchThread::new(self.shared(), stacks, control, None, None);
            let result = thread.iterate(root, limits, config, handler);
            (result, thread.into_stacks())
        } else {
            self.search_with_helpers(stacks, root, limits, config, control, handler)
        };
        self.main = Some(stacks);
        result
    }

    /// What every thread of a search reads of this searcher.
    fn shared(&self) -> Shared<'_, G> {
        Shared {
            tt: &self.tt,
            oracle: self.oracle.as_deref(),
            tt_use: self.tt_use,
            reductions: self.reductions,
        }
    }

    /// [`Searcher::search`] with helper threads: this thread (on `stacks`, which it returns)
    /// searches as it would alone, and the helpers alongside it until it is done.
    fn search_with_helpers(
        &mut self,
        stacks: Stacks<G>,
        root: &Root<G>,
        limits: &Limits,
        config: &SearchConfig<G::Weights>,
        control: &Control,
        handler: &mut dyn SearchHandler<G::Move>,
    ) -> (SearchResult<G::Move>, Stacks<G>) {
        let mut helpers = std::mem::take(&mut self.helpers);
        helpers.resize_with(self.threads - 1, Stacks::new);
        let counter = AtomicU64::new(0);
        // Helpers search until this thread is done, at full strength, with no depth limit of
        // their own: one that stopped at this thread's depth would sit idle while this thread
        // finishes it.
        let helper_limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let helper_config = SearchConfig {
            level: Level::new(Level::FULL),
            lines: 1,
            ..config.clone()
        };
        let helper_control = Control::new(false);
        let shared = self.shared();
        let (result, stacks, helpers) = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .into_iter()
                .enumerate()
                .map(|(i, stacks)| {
                    let (counter, limits, config, control) =
                        (&counter, &helper_limits, &helper_config, &helper_control);
                    scope.spawn(move || {
                        let mut thread =
                            SearchThread::new(shared, stacks, control, Some(counter), Some(i + 1));
                        let result = thread.iterate(root, limits, config, &mut Silent);
                        (result.nodes, thread.into_stacks())
                    })
                })
                .collect();
            let mut thread = SearchThread::new(shared, stacks, control, Some(&counter), None);
            let mut result = thread.iterate(root, limits, config, handler);
            helper_control.stop();
            let mut helpers = Vec::with_capacity(running.len());
            for handle in running {
                let (nodes, stacks) = handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                result.nodes += nodes;
                helpers.push(stacks);
            }
            (result, thread.into_stacks(), helpers)
        });
        self.helpers = helpers;
        (result, stacks)
    }
}

/// Threads that clear a new table: as many as the machine runs at once.
fn clear_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
