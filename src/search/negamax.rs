//! Negamax with alpha-beta pruning and iterative deepening.

use std::time::{Duration, Instant};

use crate::game::{CycleRule, Game, Outcome};
use crate::search::{
    Control, Iteration, Limits, Root, Score, SearchConfig, SearchHandler, SearchResult,
};

/// The deepest iteration the search attempts, in plies.
pub const MAX_DEPTH: u32 = 100;
const MAX_PLY: usize = MAX_DEPTH as usize + 2;
/// Score of a win at the root; a win in `p` plies scores `MATE - p`.
const MATE: i32 = 1_000_000;
const INF: i32 = MATE + 1;
/// Scores at least this far from zero are proven results.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// How often (in nodes) the clock and the stop flag are read.
const POLL_INTERVAL: u64 = 1024;

/// A move of a node with the position it leads to, ready for ordering.
#[derive(Clone)]
struct Child<G: Game> {
    mv: G::Move,
    pos: G,
    irreversible: bool,
    hint: i32,
}

/// A root move and what the last iteration learned of it.
#[derive(Clone)]
struct RootMove<G: Game> {
    child: Child<G>,
    /// Index in the legal move list (house order): the tie-break identity of the move.
    index: usize,
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
    movetime: Option<Duration>,
    pv: Vec<Vec<G::Move>>,
    prev_pv: Vec<G::Move>,
    children: Vec<Vec<Child<G>>>,
    moves: Vec<G::Move>,
    cycle: CycleRule,
    weights: G::Weights,
}

impl<G: Game> Default for Searcher<G> {
    fn default() -> Self {
        Searcher::new()
    }
}

impl<G: Game> Searcher<G> {
    /// A searcher with empty buffers.
    pub fn new() -> Searcher<G> {
        Searcher {
            keys: Vec::with_capacity(1024),
            nodes: 0,
            budget: u64::MAX,
            seldepth: 0,
            aborted: false,
            can_abort: false,
            movetime: None,
            pv: (0..MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            prev_pv: Vec::new(),
            children: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(8)).collect(),
            moves: Vec::with_capacity(16),
            cycle: CycleRule::default(),
            weights: G::Weights::default(),
        }
    }

    /// Forgets everything learned from earlier searches (`ucinewgame`).
    pub fn clear(&mut self) {
        self.prev_pv.clear();
    }

    /// Searches `root` by iterative deepening until a limit is reached, reporting each completed
    /// iteration to `handler`, and returns the move to play.
    ///
    /// The effective limits are `limits` combined with the level's caps (at levels 1-5, or when
    /// `limits` is empty); `go infinite` ignores the level. A root with a single legal move is
    /// answered at once without search (depth 0). An iteration cut short by the node budget,
    /// `movetime` or `control.stop()` is discarded, except that the first iteration always
    /// completes so there is always a move.
    pub fn search(
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
        self.movetime = limits.movetime;
        self.cycle = config.cycle;
        self.weights = config.weights.clone();
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.keys.clear();
        self.keys.extend_from_slice(&root.history);
        if self.keys.last() != Some(&root.position.key()) {
            self.keys.push(root.position.key());
        }

        let mut root_moves = self.root_moves(&root.position);
        let mut result = SearchResult {
            best_move: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root_moves.len() <= 1 {
            result.best_move = root_moves.first().map(|rm| rm.child.mv);
            result.pv = result.best_move.into_iter().collect();
            return result;
        }

        let (second, third) = level.weaker_move_chances();
        let exact_all = second + third > 0;
        let tie_salt = mix(
            config.seed ^ (root.position.side() as u64) << 56,
            root.game_ply as u64,
        );
        self.prev_pv.clear();
        for depth in 1..=max_depth {
            self.can_abort = depth > 1;
            let Some(best) =
                self.root_iteration(&mut root_moves, depth, exact_all, tie_salt, control)
            else {
                break;
            };
            let rm = &root_moves[best];
            result.best_move = Some(rm.child.mv);
            result.score = to_score(rm.score);
            result.depth = depth;
            result.pv = rm.pv.clone();
            result.nodes = self.nodes;
            handler.iteration(&Iteration {
                depth,
                seldepth: self.seldepth,
                nodes: self.nodes,
                score: result.score,
                elapsed: started.elapsed(),
                pv: rm.pv.clone(),
                hashfull: None,
            });
            self.prev_pv = rm.pv.clone();
            // Search the best move first next time; the rest keep their order.
            let chosen = root_moves.remove(best);
            root_moves.insert(0, chosen);
            let proven = rm_score_is_proven(root_moves[0].score, depth);
            if proven || self.nodes >= self.budget || self.out_of_time(control) {
                break;
            }
        }
        result.nodes = self.nodes;
        if exact_all && result.depth > 0 {
            self.pick_weaker(&mut result, &root_moves, second, third, tie_salt);
        }
        result
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
                let (child, irreversible) = pos.play(mv);
                let hint = pos.order_hint(&child);
                RootMove {
                    child: Child {
                        mv,
                        pos: child,
                        irreversible,
                        hint,
                    },
                    index,
                    score: -INF,
                    exact: false,
                    pv: Vec::new(),
                }
            })
            .collect();
        list.sort_by_key(|rm| -rm.child.hint);
        list
    }

    /// One iteration over the root moves. Returns the index of the best move, or `None` when the
    /// iteration was cut short. Equal best scores are resolved by a seeded hash, never by order.
    fn root_iteration(
        &mut self,
        root_moves: &mut [RootMove<G>],
        depth: u32,
        exact_all: bool,
        tie_salt: u64,
        control: &Control,
    ) -> Option<usize> {
        let mut best = -INF;
        let root_len = self.keys.len();
        // `keys` starts with the position after the last irreversible move.
        let root_irrev = 0;
        #[allow(clippy::needless_range_loop)]
        for i in 0..root_moves.len() {
            // Moves after the first are searched with a window one below the best, so a move that
            // ties is still scored exactly and the tie can be broken fairly.
            let alpha = if exact_all || best == -INF {
                -INF
            } else {
                best - 1
            };
            let child = root_moves[i].child.clone();
            self.keys.truncate(root_len);
            self.keys.push(child.pos.key());
            let irrev = if child.irreversible {
                self.keys.len() - 1
            } else {
                root_irrev
            };
            let on_pv = self.prev_pv.first() == Some(&child.mv);
            let score = -self.negamax(
                &child.pos,
                depth as i32 - 1,
                -INF,
                -alpha,
                1,
                irrev,
                on_pv,
                control,
            );
            self.keys.truncate(root_len);
            if self.aborted {
                return None;
            }
            let rm = &mut root_moves[i];
            rm.score = score;
            rm.exact = score > alpha;
            if rm.exact {
                rm.pv.clear();
                rm.pv.push(child.mv);
                rm.pv.extend_from_slice(&self.pv[1]);
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

    fn out_of_time(&self, control: &Control) -> bool {
        control.is_stopped()
            || (!control.is_pondering() && self.movetime.is_some_and(|mt| control.elapsed() >= mt))
    }

    /// Fail-soft negamax. `irrev` is the index in `keys` of the position after the last
    /// irreversible move: repetitions are only looked for after it.
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
        if let Some(outcome) = pos.outcome() {
            return outcome_score(outcome, ply);
        }
        if self.cycle_ends_game(irrev) {
            return outcome_score(pos.cycle_outcome(), ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return pos.evaluate(&self.weights);
        }
        if self.can_abort {
            if self.nodes >= self.budget {
                self.aborted = true;
                return 0;
            }
            if self.nodes.is_multiple_of(POLL_INTERVAL) && self.out_of_time(control) {
                self.aborted = true;
                return 0;
            }
        }

        let mut children = std::mem::take(&mut self.children[ply]);
        self.generate_children(
            pos,
            &mut children,
            if on_pv {
                self.prev_pv.get(ply).copied()
            } else {
                None
            },
        );
        let mut best = -INF;
        let base = self.keys.len();
        for (i, child) in children.iter().enumerate() {
            self.keys.push(child.pos.key());
            let child_irrev = if child.irreversible { base } else { irrev };
            let child_on_pv = on_pv && i == 0 && self.prev_pv.get(ply) == Some(&child.mv);
            let score = -self.negamax(
                &child.pos,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                child_irrev,
                child_on_pv,
                control,
            );
            self.keys.truncate(base);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(child.mv);
                    line.extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.children[ply] = children;
        best
    }

    /// Whether the position last pushed on `keys` ends the game by the cycle rule.
    fn cycle_ends_game(&self, irrev: usize) -> bool {
        let len = self.keys.len();
        let since = len - 1 - irrev.min(len - 1);
        if self.cycle.no_progress_limit > 0 && since as u32 >= self.cycle.no_progress_limit {
            return true;
        }
        if since < 2 {
            return false;
        }
        let key = self.keys[len - 1];
        let mut count = 1;
        let mut i = len - 1;
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

    /// Fills `out` with the moves of `pos` and their positions: `first` (the previous
    /// iteration's move here) first, then captures by seeds taken, then house order.
    fn generate_children(&mut self, pos: &G, out: &mut Vec<Child<G>>, first: Option<G::Move>) {
        out.clear();
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        for &mv in &self.moves {
            let (child, irreversible) = pos.play(mv);
            let hint = if Some(mv) == first {
                i32::MAX
            } else {
                pos.order_hint(&child)
            };
            out.push(Child {
                mv,
                pos: child,
                irreversible,
                hint,
            });
        }
        // Insertion sort: stable (keeps house order among equals) and fast for six moves.
        for i in 1..out.len() {
            let mut j = i;
            while j > 0 && out[j - 1].hint < out[j].hint {
                out.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

fn rm_score_is_proven(score: i32, depth: u32) -> bool {
    score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth
}

fn outcome_score(outcome: Outcome, ply: usize) -> i32 {
    match outcome {
        Outcome::Win => MATE - ply as i32,
        Outcome::Loss => -(MATE - ply as i32),
        Outcome::Draw => 0,
    }
}

/// Converts an internal score to the reported one.
fn to_score(s: i32) -> Score {
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
