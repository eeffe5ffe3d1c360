//! The node search: fail-soft principal variation search with a transposition table, check
//! extensions, late move reductions, the game's pruning ([`crate::game::Pruning`]: reverse
//! futility and late move pruning) and a quiescence search of noisy moves (every move in check),
//! written on [`SearchThread`] as named steps (known scores, the oracle's bounds, the table's
//! cut-off, the move loop, the store).

use crate::game::{Game, Outcome};
use crate::search::bands::{
    clamp_eval, oracle_score, outcome_score, proven_score, within, INF, MATE_BOUND,
};
use crate::search::thread::{Child, Node, SearchThread, TtUse, MAX_PLY};
use crate::search::tt::{from_tt, to_tt, Bound, NO_MOVE};

/// Nodes with less depth left than this neither probe nor fill the transposition table: they are
/// the most numerous, their subtrees are tiny, and a table access costs a cache miss.
const TT_MIN_DEPTH: i32 = 2;
/// Whether leaves are extended by capture sequences ([`SearchThread::quiesce`]).
const QUIESCENCE: bool = true;
/// Late move reductions apply at this depth and more...
const LMR_MIN_DEPTH: i32 = 3;
/// ...to the moves after this many.
const LMR_FROM_MOVE: usize = 3;
/// Moves into check ([`Game::in_check`]) are searched a ply deeper at nodes up to this ply.
pub(crate) const CHECK_EXTENSION_PLIES: usize = 24;
/// How many of a node's children (the first in search order) have their table entry prefetched:
/// the later ones are seldom searched (cut-offs), and with a table far larger than the caches
/// prefetching every child's entry cost more memory traffic than it saved (docs/search.md has
/// the measurement).
const PREFETCH_CHILDREN: usize = 3;
/// Children are evaluated from what their parent's evaluation shares ([`Game::eval_parent`])
/// when there are at least this many.
const EVAL_PARENT_FROM: usize = 3;
/// Late move pruning ([`crate::game::Pruning::late_moves`]) applies with at most this many
/// plies left.
const LATE_MOVE_DEPTH: i32 = 3;

/// What the transposition table says of a node ([`SearchThread::probe_tt`]).
struct TtProbe {
    /// Whether the node probes and fills the table.
    used: bool,
    /// The stored move's index in the legal move list, or [`NO_MOVE`].
    mv: u8,
    /// The stored score, when it answers for the node (a cut-off).
    cut: Option<i32>,
}

impl<G: Game> SearchThread<'_, G> {
    /// Fail-soft principal variation search with a transposition table: the value of `pos` for
    /// the side to move, searched as `node` asks ([`Node`]: depth, window, place on the path).
    ///
    /// In order: a score known without search (by the rules, the cycle rule or the oracle), the
    /// oracle's bounds, a leaf's quiescence, the node budget and the clock, the table's
    /// cut-off, the move loop ([`SearchThread::search_moves`]), and the store.
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
    pub(crate) fn negamax(&mut self, pos: &G, node: Node) -> i32 {
        self.enter(node.ply);
        if let Some(score) = self.known_score(pos, &node) {
            return score;
        }
        // The oracle's bounds, as a table entry's: an exact score or one outside the window
        // answers; otherwise the node's result is kept inside them.
        let bounds = self.oracle_bounds(pos, node.irrev);
        if let Some(score) = self.bounds_answer(bounds, &node) {
            return score;
        }
        if node.ply >= MAX_PLY {
            return within(bounds, clamp_eval(pos.evaluate(&self.weights)));
        }
        if node.depth <= 0 {
            let stand = clamp_eval(pos.evaluate(&self.weights));
            return within(
                bounds,
                self.quiesce(pos, stand, node.alpha, node.beta, node.ply, node.in_check),
            );
        }
        if self.must_abort() {
            return 0;
        }
        let key = *self.keys.last().unwrap_or(&0);
        let probe = self.probe_tt(key, &node);
        if let Some(score) = probe.cut {
            return score;
        }
        if let Some(score) = self.futile(&node) {
            return within(bounds, score);
        }
        let outer_dependent = std::mem::replace(&mut self.path_dependent, false);
        let (mut best, best_index) = self.search_moves(pos, &node, bounds, probe.mv);
        if !self.aborted {
            best = within(bounds, best);
        }
        let dependent = self.path_dependent;
        self.path_dependent = outer_dependent || dependent;
        if probe.used && !self.aborted {
            self.store_tt(key, &node, best, best_index, dependent);
        }
        best
    }

    /// Reverse futility pruning ([`crate::game::Pruning::futility_margin`]): the score of
    /// `node` if it is taken to fail high without search (its evaluation); never near proven
    /// scores, nor without reductions (the tests that compare with plain minimax).
    #[inline]
    fn futile(&self, node: &Node) -> Option<i32> {
        let margin = G::PRUNING.futility_margin;
        (self.reductions
            && margin > 0
            && !node.is_pv()
            && !node.in_check
            && node.depth <= G::PRUNING.futility_depth
            && node.beta.abs() < MATE_BOUND
            && node.eval - margin * node.depth >= node.beta)
            .then_some(node.eval)
    }

    /// Late move pruning ([`crate::game::Pruning::late_moves`]): whether `child`, the `i`-th
    /// in search order (from 1) at `node`, is left unsearched (asked only once a move searched
    /// has a score better than a proven loss).
    #[inline]
    fn late_move_pruned(&self, child: &Child<G>, i: usize, node: &Node) -> bool {
        let late = G::PRUNING.late_moves;
        self.reductions
            && late > 0
            && !node.is_pv()
            && !node.in_check
            && !child.noisy
            && node.depth <= LATE_MOVE_DEPTH
            && i as i32 > late + node.depth * node.depth
            && !child.pos.in_check()
    }

    /// Counts a node at `ply` and starts its (empty) principal variation.
    #[inline]
    fn enter(&mut self, ply: usize) {
        self.nodes += 1;
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
    }

    /// The score of a node known without searching it: a result the rules prove
    /// ([`Game::proven`]), the end of the game by the cycle rule (a value that depends on the
    /// path, see [`SearchThread::negamax`]), or the oracle's value.
    #[inline]
    fn known_score(&mut self, pos: &G, node: &Node) -> Option<i32> {
        if let Some(proven) = pos.proven() {
            return Some(proven_score(proven, node.ply));
        }
        if self.cycle_ends_game(node.irrev) {
            self.path_dependent = true;
            return Some(outcome_score(pos.cycle_outcome(), node.ply));
        }
        let value = self.probe_oracle(pos)?;
        Some(oracle_score(value, node.ply))
    }

    /// The score the oracle's `bounds` of a node give without search (counted in `tbhits`):
    /// the exact one, or a bound outside the window.
    #[inline]
    fn bounds_answer(&mut self, bounds: Option<(i32, i32)>, node: &Node) -> Option<i32> {
        let (low, high) = bounds?;
        if low == high || high <= node.alpha || low >= node.beta {
            self.tbhits += 1;
            return Some(if high <= node.alpha { high } else { low });
        }
        None
    }

    /// The table's entry for the node of `key`: its move, for ordering, and its score when it
    /// is deep enough and its bound answers for the window. A principal variation node never
    /// cuts off (its line is reported), nor a node from which the no-capture ply limit is
    /// within reach (see [`SearchThread::negamax`]).
    #[inline]
    fn probe_tt(&self, key: u64, node: &Node) -> TtProbe {
        let since = (self.keys.len() - 1 - node.irrev) as u32;
        let limit = self.cycle.no_progress_limit;
        let near_limit = limit > 0 && since + node.depth as u32 >= limit;
        let used = node.depth >= TT_MIN_DEPTH && self.tt_use != TtUse::Off;
        let mut probe = TtProbe {
            used,
            mv: NO_MOVE,
            cut: None,
        };
        let Some(hit) = (if used { self.tt.probe(key) } else { None }) else {
            return probe;
        };
        probe.mv = hit.mv;
        let deep_enough = match self.tt_use {
            TtUse::ExactDepth => hit.depth as i32 == node.depth,
            _ => hit.depth as i32 >= node.depth,
        };
        if !node.is_pv() && !near_limit && deep_enough {
            let s = from_tt(hit.score, node.ply);
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => s >= node.beta,
                Bound::Upper => s <= node.alpha,
                Bound::None => false,
            };
            probe.cut = cut.then_some(s);
        }
        probe
    }

    /// Stores the node's result `best` (with its move `best_index`) as the bound it is for the
    /// node's window; a path-dependent value (`dependent`) only as a move.
    #[inline]
    fn store_tt(&self, key: u64, node: &Node, best: i32, best_index: u8, dependent: bool) {
        let bound = if dependent {
            Bound::None
        } else if best >= node.beta {
            Bound::Lower
        } else if best > node.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            node.depth as u32,
            to_tt(best, node.ply),
            bound,
            best_index,
        );
    }

    /// The move loop of a node: its children in search order ([`SearchThread::push_first_child`],
    /// then [`SearchThread::generate_children`] for the rest, only if the first does not cut
    /// off), each searched by [`SearchThread::search_child`], until one reaches beta. Returns
    /// the best score (fail-soft) and its move's index in the legal move list. The moves and
    /// children go on top of the stacks, and are removed on return.
    fn search_moves(
        &mut self,
        pos: &G,
        node: &Node,
        bounds: Option<(i32, i32)>,
        tt_move: u8,
    ) -> (i32, u8) {
        let prefetch = node.depth > TT_MIN_DEPTH;
        let moves_base = self.moves.len();
        let children_base = self.children.len();
        pos.legal_moves(&mut self.moves);
        let pv_move = if node.on_pv {
            self.prev_pv.get(node.ply).copied()
        } else {
            None
        };
        let first = self.push_first_child(pos, moves_base, pv_move, tt_move, prefetch);
        let mut complete = first.is_none();
        if complete {
            self.generate_children(pos, moves_base, None, tt_move, prefetch);
        }
        let mut alpha = node.alpha;
        if let Some((low, _)) = bounds {
            // The mover secures at least `low` (below beta): no move need beat less.
            alpha = alpha.max(low);
        }
        let mut best = -INF;
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
            i += 1;
            if best > -MATE_BOUND && self.late_move_pruned(&child, i, node) {
                continue;
            }
            let score = self.search_child(&child, i, node, alpha, base);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_index = child.index;
                if score > alpha {
                    alpha = score;
                    // Null-window nodes have no principal variation to report.
                    if node.is_pv() {
                        self.extend_pv(node.ply, child.mv);
                    }
                    if alpha >= node.beta {
                        break;
                    }
                }
            }
        }
        self.children.truncate(children_base);
        self.moves.truncate(moves_base);
        (best, best_index)
    }

    /// Pushes the child searched before the other moves are even generated: the previous
    /// iteration's move (`pv_move`), else the table's (`tt_move`, an index in the legal move
    /// list); when it cuts off, playing and evaluating the others would be wasted. Returns its
    /// index in the legal move list (`moves` from `moves_base` on), or `None` without one.
    #[inline]
    fn push_first_child(
        &mut self,
        pos: &G,
        moves_base: usize,
        pv_move: Option<G::Move>,
        tt_move: u8,
        prefetch: bool,
    ) -> Option<usize> {
        let moves = &self.moves[moves_base..];
        let index = pv_move
            .and_then(|m| moves.iter().position(|&x| x == m))
            .or_else(|| (usize::from(tt_move) < moves.len()).then_some(usize::from(tt_move)))?;
        let mv = moves[index];
        let (child, step) = pos.play(mv);
        let key = child.key();
        if prefetch {
            self.tt.prefetch(key);
        }
        self.children
            .push(Child::new(mv, child, step, index, key, &self.weights, None));
        Some(index)
    }

    /// The score of `child`, the `i`-th in search order (from 1), from the side of the node
    /// (`node`, whose window is now (`alpha`, beta); `base` is the length of `keys` at it):
    /// at the last ply a leaf, the first child with the full window, the others by
    /// [`SearchThread::search_later_child`].
    #[inline]
    fn search_child(
        &mut self,
        child: &Child<G>,
        i: usize,
        node: &Node,
        alpha: i32,
        base: usize,
    ) -> i32 {
        let irrev = if child.irreversible { base } else { node.irrev };
        // A check extension, below a ply bound so that a chase cannot deepen without end.
        let check = child.pos.in_check();
        let extend = node.ply < CHECK_EXTENSION_PLIES && check;
        let (depth, beta) = (node.depth - 1 + i32::from(extend), node.beta);
        let next = node.child(depth, -beta, -alpha, irrev).of(child, check);
        if depth <= 0 {
            return -self.leaf(child, base, Node { depth: 0, ..next });
        }
        self.keys.push(child.key());
        let score = if i == 1 {
            let on_pv = node.on_pv && self.prev_pv.get(node.ply) == Some(&child.mv);
            -self.negamax(&child.pos, Node { on_pv, ..next })
        } else {
            self.search_later_child(child, i, node, alpha, next)
        };
        self.keys.truncate(base);
        score
    }

    /// A child after the first (see [`SearchThread::search_child`]), to be searched as `later`
    /// asks (its depth, the node's window seen from the child, its evaluation and check):
    /// with a null window at alpha (principal variation search), first a ply shallower if it is
    /// a late quiet move that does not check (late move reduction), again at full depth only if
    /// it beats alpha there, and with the full window only if it falls inside it.
    fn search_later_child(
        &mut self,
        child: &Child<G>,
        i: usize,
        node: &Node,
        alpha: i32,
        later: Node,
    ) -> i32 {
        let (beta, depth) = (node.beta, later.depth);
        let null_window = |depth| Node {
            depth,
            alpha: -alpha - 1,
            beta: -alpha,
            ..later
        };
        // Not a checking move (extended: `depth` is the node's).
        let reduce = self.reductions
            && node.depth >= LMR_MIN_DEPTH
            && i > LMR_FROM_MOVE
            && !child.noisy
            && depth < node.depth;
        let mut s = alpha + 1;
        if reduce {
            s = -self.negamax(&child.pos, null_window(depth - 1));
        }
        if s > alpha && !self.aborted {
            s = -self.negamax(&child.pos, null_window(depth));
        }
        if s > alpha && s < beta && !self.aborted {
            -self.negamax(&child.pos, later)
        } else {
            s
        }
    }

    /// The principal variation at `ply` becomes `mv` followed by the one found below it.
    #[inline]
    fn extend_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// [`SearchThread::negamax`] at depth 0 (`node`), for a child whose evaluation is already
    /// known: the same checks and node count, without a second evaluation. The child's key is
    /// not pushed on `keys` (nothing below reads it): `at` is the place it would have, and the
    /// key is made only if the cycle rule needs it.
    #[inline]
    fn leaf(&mut self, child: &Child<G>, at: usize, node: Node) -> i32 {
        self.enter(node.ply);
        if let Some(proven) = child.pos.proven() {
            return proven_score(proven, node.ply);
        }
        if self.cycle_ends_game_at(at, node.irrev, || child.key()) {
            self.path_dependent = true;
            return outcome_score(child.pos.cycle_outcome(), node.ply);
        }
        let (alpha, beta, ply) = (node.alpha, node.beta, node.ply);
        self.quiesce(&child.pos, child.eval, alpha, beta, ply, node.in_check)
    }

    /// The value of a leaf (`ply` below the root, static evaluation `stand`, the side to move
    /// in check or not): the evaluation, or better for the side to move if a noisy move (a
    /// capture) gains, followed to the end of the capture sequence (each capture is a node).
    /// In check the evaluation is no option (the royal piece would be lost): every move is
    /// tried, and those that leave a result known without search ([`Game::proven`]: the royal
    /// piece still attacked) are scored so, unevaluated. Fail-soft.
    ///
    /// Inlined: most leaves stand pat at once, and [`SearchThread::quiesce_moves`] is called
    /// only for the others.
    #[inline]
    fn quiesce(
        &mut self,
        pos: &G,
        stand: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        if !QUIESCENCE || ply >= MAX_PLY || (stand >= beta && !in_check) {
            return stand;
        }
        self.quiesce_moves(pos, stand, alpha, beta, ply, in_check)
    }

    /// [`SearchThread::quiesce`] when the evaluation does not stand pat: the captures are
    /// tried, or every move in check.
    fn quiesce_moves(
        &mut self,
        pos: &G,
        stand: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        let mut best = if in_check { -INF } else { stand };
        // The moves and captures go on top of the stacks, as in `negamax`.
        let moves_base = self.moves.len();
        let captures_base = self.children.len();
        pos.legal_moves(&mut self.moves);
        let SearchThread {
            moves,
            children,
            weights,
            ..
        } = self;
        for (index, &mv) in moves[moves_base..].iter().enumerate() {
            if !in_check && !pos.may_be_noisy(mv) {
                continue;
            }
            let (child, step) = pos.play(mv);
            if in_check {
                if let Some(proven) = child.proven() {
                    best = best.max(-proven_score(proven, ply + 1));
                    continue;
                }
            } else if !step.noisy {
                continue;
            }
            children.push(Child::new(mv, child, step, index, 0, weights, None));
        }
        alpha = alpha.max(best);
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
                Some(proven) => -proven_score(proven, ply + 1),
                None => {
                    let check = child.pos.in_check();
                    -self.quiesce(&child.pos, child.eval, -beta, -alpha, ply + 1, check)
                }
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
        let value = self.oracle?.probe(pos)?;
        self.tbhits += 1;
        Some(value)
    }

    /// Pushes on the `children` stack the legal moves of `pos` (`moves` from `moves_base` on) but
    /// `skip` (an index in the legal move list, already searched) with their positions, in search
    /// order: the transposition table's move (`tt_move`, an index in the legal move list), then
    /// the others by the static evaluation of the position they lead to, best for the mover first
    /// (captures come first this way, the biggest first), house order among equals.
    ///
    /// This order was measured against others on the bench (docs/search.md): killer moves and
    /// a history table on top of it only added nodes.
    fn generate_children(
        &mut self,
        pos: &G,
        moves_base: usize,
        skip: Option<usize>,
        tt_move: u8,
        prefetch: bool,
    ) {
        let SearchThread {
            moves,
            children,
            weights,
            tt,
            ..
        } = self;
        let start = children.len();
        let count = moves.len() - moves_base;
        let parent = if count >= EVAL_PARENT_FROM {
            pos.eval_parent(weights)
        } else {
            None
        };
        // Every move's child, made in one `extend` (a single capacity check, as the length is
        // known), then the skipped one removed, which keeps the order: playing that move again
        // costs less than a test and a capacity check for every child.
        children.extend(moves[moves_base..].iter().enumerate().map(|(index, &mv)| {
            let (child, step) = pos.play(mv);
            // The key is needed only if the child is searched; most are not (cut-offs), so it
            // is made below only for the children whose table entry is prefetched, and
            // otherwise when searched.
            Child::new(mv, child, step, index, 0, weights, parent.as_ref())
        }));
        if let Some(skip) = skip {
            children.remove(start + skip);
        }
        // By evaluation, lowest for the child first: stable (keeps house order among equals).
        let new = &mut children[start..];
        new.sort_by_key(|c| c.eval);
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

/// Moves the child of the table's move to the front of `children`, the others keeping their order
/// (rare: only when the previous iteration's move was searched first and differs from the
/// table's).
#[cold]
fn tt_move_first<G: Game>(children: &mut [Child<G>], tt_move: u8) {
    if let Some(t) = children.iter().position(|c| c.index == tt_move) {
        children[..=t].rotate_right(1);
    }
}
