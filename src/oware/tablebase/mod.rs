//! Oware endgame tablebases by retrograde analysis: for every position with at most `N` seeds on
//! the board, the margin the side to move can still secure from those seeds with perfect play
//! (its final seeds minus the opponent's, counting only the seeds on the board: the stores are
//! ignored, so one table serves every score), from `-n` to `n` for `n` seeds.
//!
//! Rooms: [`index`] ranks all the boards of `n` seeds, [`reachable`] those that can follow a move
//! (a layer: the positions the build solves; the others are answered from their moves), `build`
//! solves a layer from the layers below it, [`distance`] gives its distances to the end, [`split`]
//! spreads a layer's build over several ranks (MPI processes), [`file`](mod@file) writes and maps
//! one file per layer, [`estimate`] says what a build takes (positions, memory, disk, time),
//! [`auto`] builds the layers the engine finds in its data directory;
//! [`Tablebase`] answers probes. The build reports through a [`Progress`]; nothing here prints.
//!
//! What a value promises (see docs/tablebases.md): under [`RuleSet::Awari`] a [`Value`] is exact
//! (a game that never ends splits the seeds left evenly). Under [`RuleSet::Abapa`] a game ended by
//! the cycle rule gives each player their own row, so a value can depend on where the game's
//! history cuts a cycle: a [`Value`] is then a pair of sound bounds, `low` (the mover secures at
//! least this: it forces an exit worth it with no repetition on the way, or keeps the game among
//! positions where a cut gives it that much until such a forcing line starts) and `high` (the
//! opponent holds the mover to at most this, likewise); where they meet, the value is exact
//! whatever the history. Both assume that the cycle rule's ply limit without capture is not
//! reached on a forcing line, and that no position of the game before (since the last capture)
//! comes back on one.

pub mod auto;
mod build;
mod checkpoint;
pub mod distance;
pub mod estimate;
pub mod file;
pub mod index;
mod job;
mod moves;
pub mod oracle;
mod owner;
mod passes;
pub mod reachable;
pub mod split;
mod state;
mod unsow;
mod words;

use std::collections::HashMap;
use std::fmt;

use crate::oware::{Board, Move, RuleSet};
use crate::retro::{Progress, Storage};
pub use checkpoint::{Checkpoint, NoCheckpoint, Pass};
use index::MAX_SEEDS;
use moves::LayerRef;
use reachable::reachable_len;
use state::NO_DISTANCE;

/// What the table knows of a position: the margin (the mover's final seeds minus the
/// opponent's, from the seeds on the board) lies in `low..=high`; exact when they are equal
/// (always under `awari`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// The least margin the mover can force, with no repetition on the way.
    pub low: i8,
    /// The most the mover can get when the opponent plays well.
    pub high: i8,
}

impl Value {
    /// The exact value, when the bounds meet.
    pub fn exact(self) -> Option<i8> {
        (self.low == self.high).then_some(self.low)
    }

    /// The value of a move that captures `captured` seeds into a position of value `child` (for
    /// its mover, the opponent).
    pub fn after_move(captured: u8, child: Value) -> Value {
        Value {
            low: captured as i8 - child.high,
            high: captured as i8 - child.low,
        }
    }
}

impl fmt::Display for Value {
    /// `exact 3`, or `bounds -2..4` (the mover forces at least -2 and gets at most 4).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.exact() {
            Some(v) => write!(f, "exact {v}"),
            None => write!(f, "bounds {}..{}", self.low, self.high),
        }
    }
}

/// What the build of one layer found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerReport {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions in the layer that can follow a move, [`reachable_len`]`(seeds)`.
    pub positions: u64,
    /// Positions whose value is only bounded (0 under `awari`).
    pub bounded: u64,
}

/// One layer: the values of the positions with `seeds` seeds, by rank: the lower bounds, then
/// (`abapa`) the upper bounds, then the distances ([`Tablebase::distance`]), as two or three
/// sections.
struct Layer {
    storage: Storage,
    bounded: u64,
    /// The positions `storage` holds: the whole layer ([`split::Part::WHOLE`]), or in a split
    /// build this rank's share of the layer just built, until [`file::save_share`] maps the
    /// layer's file in its place.
    part: split::Part,
}

impl Layer {
    /// A layer held whole.
    fn whole(storage: Storage, bounded: u64) -> Layer {
        Layer {
            storage,
            bounded,
            part: split::Part::WHOLE,
        }
    }

    /// Whether the layer is held whole, not as a rank's share.
    fn is_whole(&self) -> bool {
        self.part == split::Part::WHOLE
    }

    fn view(&self) -> LayerRef<'_> {
        let last = self.storage.sections() - 1;
        LayerRef {
            low: self.storage.section(0),
            // The upper bounds are a section of their own only where values can be bounded.
            high: self.storage.section(if last == 2 { 1 } else { 0 }),
            dist: self.storage.section(last),
        }
    }
}

/// The values of every position with up to [`Tablebase::seeds`] seeds on the board, for one
/// variant: built ([`Tablebase::build`], [`Tablebase::extend`]) or loaded ([`file::load`]).
pub struct Tablebase {
    variant: RuleSet,
    layers: Vec<Layer>,
}

impl Tablebase {
    /// A table with no layer yet.
    pub fn empty(variant: RuleSet) -> Tablebase {
        Tablebase {
            variant,
            layers: Vec::new(),
        }
    }

    /// Builds the layers of 0 to `seeds` seeds (at most [`MAX_SEEDS`]).
    pub fn build(variant: RuleSet, seeds: u32, progress: &dyn Progress) -> Tablebase {
        let mut tb = Tablebase::empty(variant);
        tb.extend(seeds, progress);
        tb
    }

    /// Builds the next layer (one seed more than the table holds) and reports on it.
    ///
    /// # Panics
    /// If the table already holds [`MAX_SEEDS`] seeds.
    pub fn build_next(&mut self, progress: &dyn Progress) -> LayerReport {
        self.build_next_within(None, progress)
    }

    /// Gives back the memory of the pages of the layers mapped from files
    /// ([`crate::retro::Storage::release`]; loading them read every page to verify it): a build
    /// reads them again only in the moves passes that need them. The engine keeps them, so that
    /// its probes do not wait for page faults. Nothing for layers built in memory.
    pub fn release(&self) {
        for layer in &self.layers {
            layer.storage.release();
        }
    }

    /// Builds the next layer as [`Tablebase::build_next`] does, its moves pass reading the
    /// layers below in [`estimate::sweeps`] of at most `memory` bytes (`None`: one sweep), and
    /// giving back the memory of each sweep's layers after it where they are mapped from files
    /// ([`Tablebase::release`], [`file::save_and_map_layer`]): then the build holds about
    /// [`estimate::LayerEstimate::peak_memory`]. The values are the same whatever the sweeps.
    ///
    /// # Panics
    /// If the table already holds [`MAX_SEEDS`] seeds.
    pub fn build_next_within(
        &mut self,
        memory: Option<u64>,
        progress: &dyn Progress,
    ) -> LayerReport {
        self.build_next_on(memory, progress, None, &NoCheckpoint)
    }

    /// Builds the next layer as [`Tablebase::build_next_within`] does, keeping what it holds
    /// after its moves pass and after its values in `checkpoint` ([`Pass`]), and going on from
    /// the last pass kept there for this layer, if any, instead of from the layer's start: the
    /// same layer either way. [`file::PassFiles`] keeps them in files.
    ///
    /// # Panics
    /// If the table already holds [`MAX_SEEDS`] seeds.
    pub fn build_next_resumable(
        &mut self,
        memory: Option<u64>,
        progress: &dyn Progress,
        checkpoint: &dyn Checkpoint,
    ) -> LayerReport {
        self.build_next_on(memory, progress, None, checkpoint)
    }

    /// Builds the next layer as [`Tablebase::build_next_within`] does, as one rank of a build
    /// split over `split`'s ranks ([`split`]): every rank calls it for the same layer, each with
    /// the layers below mapped from their files ([`file::load_share`]), and each ends with its
    /// share of the layer, the same bytes as [`Tablebase::build_next_within`]'s at those
    /// positions; [`file::save_share`] writes the layer's file from the shares and maps it in
    /// their place. Each rank reads only the pages of its share of the layers below (it answers
    /// the other ranks' lookups into them) and gives them back after the moves pass. Until the
    /// file is written the table answers no probe of the layer. The moves pass runs in one
    /// sweep, whatever `memory`. The rank parks its share's best exits in `park`
    /// ([`Checkpoint::park`], [`file::PassFiles::of_rank`]; nothing else of it is used: a split
    /// build keeps no checkpoint). The report counts the whole layer. What it exchanged:
    /// [`split::Split::take_exchanged`].
    ///
    /// # Panics
    /// If the table already holds [`MAX_SEEDS`] seeds, or a layer not held whole (a share whose
    /// file [`file::save_share`] has not written).
    pub fn build_next_split(
        &mut self,
        memory: Option<u64>,
        progress: &dyn Progress,
        split: &split::Split,
        park: &dyn Checkpoint,
    ) -> LayerReport {
        assert!(
            self.layers.iter().all(Layer::is_whole),
            "the layers below are mapped from their files (file::save_share)"
        );
        let mut report = self.build_next_on(memory, progress, Some(split), park);
        report.bounded = split.all_gather_u64(report.bounded).iter().sum();
        if let Some(layer) = self.layers.last_mut() {
            layer.bounded = report.bounded;
            layer.part = split.part();
        }
        report
    }

    /// [`Tablebase::build_next_within`], split when `split` is given, with `checkpoint`.
    fn build_next_on(
        &mut self,
        memory: Option<u64>,
        progress: &dyn Progress,
        split: Option<&split::Split>,
        checkpoint: &dyn Checkpoint,
    ) -> LayerReport {
        let n = self.layers.len() as u32;
        assert!(n <= MAX_SEEDS, "the table is complete");
        let sweeps = estimate::sweeps(self.variant, n, memory);
        let built = {
            let lower: Vec<LayerRef<'_>> = self.layers.iter().map(Layer::view).collect();
            let layers = &self.layers;
            let done_with = |seeds: std::ops::Range<u32>| {
                for layer in &layers[seeds.start as usize..seeds.end as usize] {
                    layer.storage.release();
                }
            };
            let job = job::Job {
                variant: self.variant,
                n,
                progress,
                split,
            };
            build::build_layer(job, &lower, &sweeps, &done_with, checkpoint)
        };
        // Under abapa a section of upper bounds, even when a rank's share is empty.
        let sections = if self.variant == RuleSet::Awari {
            vec![built.low, built.dist]
        } else {
            vec![built.low, built.high, built.dist]
        };
        self.layers
            .push(Layer::whole(Storage::owned(sections), built.bounded));
        LayerReport {
            seeds: n,
            positions: reachable_len(n),
            bounded: built.bounded,
        }
    }

    /// Builds layers until the table holds `seeds` seeds; the reports of the layers built.
    pub fn extend(&mut self, seeds: u32, progress: &dyn Progress) -> Vec<LayerReport> {
        let seeds = seeds.min(MAX_SEEDS);
        let mut reports = Vec::new();
        while self.layers.len() as u32 <= seeds {
            reports.push(self.build_next(progress));
        }
        reports
    }

    /// The variant the values are for.
    pub fn variant(&self) -> RuleSet {
        self.variant
    }

    /// The most seeds on the board the table covers; `None` when it has no layer.
    pub fn seeds(&self) -> Option<u32> {
        (self.layers.len() as u32).checked_sub(1)
    }

    /// Positions whose value is only bounded in the layer of `seeds` seeds (`None` beyond the
    /// table).
    pub fn bounded(&self, seeds: u32) -> Option<u64> {
        self.layers.get(seeds as usize).map(|l| l.bounded)
    }

    /// Whether the files of the layers loaded from files still have the length they were
    /// mapped with ([`crate::retro::file::TableFile::check_length`]).
    ///
    /// # Errors
    /// The first layer file found shrunk (or whose length cannot be read).
    pub fn check_files(&self) -> Result<(), crate::retro::file::TableError> {
        self.layers
            .iter()
            .try_for_each(|layer| layer.storage.check_length())
    }

    /// The layer of `seeds` seeds, unless the table holds only a rank's share of it (or none).
    fn whole_layer(&self, seeds: u32) -> Option<LayerRef<'_>> {
        self.layers
            .get(seeds as usize)
            .filter(|l| l.is_whole())
            .map(Layer::view)
    }

    /// The value of the houses `houses` (a word of twelve bytes, the mover's row first).
    fn value_of(&self, houses: u128) -> Option<Value> {
        let n = index::seeds(houses);
        let layer = self.whole_layer(n)?;
        let Some(i) = reachable::rank(houses) else {
            return self.value_by_moves(houses, n);
        };
        let i = i as usize;
        Some(Value {
            low: layer.low[i] as i8,
            high: layer.high[i] as i8,
        })
    }

    /// The value of a position the table does not hold, whose opponent's houses all hold seeds
    /// (no move leads to it, as to the start position), from its moves: the best of their
    /// values (every move leads into the table), or the end of the game when it has none.
    fn value_by_moves(&self, houses: u128, n: u32) -> Option<Value> {
        let board = Board::from_relative_houses(houses, self.variant);
        let moves = board.legal_move_list();
        if moves.is_empty() {
            // Each player takes the seeds of their own row.
            let mine: i32 = houses.to_le_bytes()[..6].iter().map(|&s| s as i32).sum();
            let v = (2 * mine - n as i32) as i8;
            return Some(Value { low: v, high: v });
        }
        let mut best: Option<Value> = None;
        for &mv in moves.iter() {
            let (child, captured) = board.sow_and_capture(mv);
            let v = Value::after_move(captured, self.value_of(child.relative_houses())?);
            best = Some(best.map_or(v, |b| Value {
                low: b.low.max(v.low),
                high: b.high.max(v.high),
            }));
        }
        best
    }

    /// The value of `board` for the side to move (its stores ignored); `None` when the board
    /// has more seeds than the table or is played under another variant.
    pub fn probe(&self, board: &Board) -> Option<Value> {
        if board.variant() != self.variant {
            return None;
        }
        self.value_of(board.relative_houses())
    }

    /// Every legal move of `board` with its value for the mover (the seeds it captures plus
    /// what it then secures); `None` when the table does not hold the board. Empty when the
    /// mover has no legal move.
    pub fn move_values(&self, board: &Board) -> Option<Vec<(Move, Value)>> {
        self.probe(board)?;
        board
            .legal_move_list()
            .iter()
            .map(|&mv| {
                let (child, captured) = board.sow_and_capture(mv);
                Some((mv, Value::after_move(captured, self.probe(&child)?)))
            })
            .collect()
    }

    /// The plies to the end of the game from `board` (the side to move has no legal move and
    /// the seeds left go to their rows; 0 when it is over) when both sides keep its exact value,
    /// the side ahead on the board (a positive value) ending the game as soon as it can and the
    /// other lasting as long as it can. The stores are not counted: where a store above 24
    /// ends the game first, it ends within this many plies.
    ///
    /// `None` when the table does not hold the board or the distance is not defined: a value
    /// only bounded, a value of 0 before the end (neither side is bound to end the game), a side
    /// ahead whose every move that keeps the value leads to such a position, a side behind with
    /// one such move, or more than 254 plies.
    pub fn distance(&self, board: &Board) -> Option<u32> {
        if board.variant() != self.variant {
            return None;
        }
        self.distance_of(board.relative_houses())
    }

    /// [`Tablebase::distance`] of the houses `houses` (the mover's row first).
    fn distance_of(&self, houses: u128) -> Option<u32> {
        let n = index::seeds(houses);
        let layer = self.whole_layer(n)?;
        let Some(i) = reachable::rank(houses) else {
            return self.distance_by_moves(houses);
        };
        let d = layer.dist[i as usize];
        (d != NO_DISTANCE).then_some(d as u32)
    }

    /// The distance of a position the table does not hold (see [`Tablebase::value_by_moves`]),
    /// from those of its moves that keep its value.
    fn distance_by_moves(&self, houses: u128) -> Option<u32> {
        let v = self.value_of(houses)?.exact()?;
        let board = Board::from_relative_houses(houses, self.variant);
        let moves = board.legal_move_list();
        if moves.is_empty() {
            return Some(0);
        }
        if v == 0 {
            return None;
        }
        let mut best: Option<u32> = None;
        for &mv in moves.iter() {
            let (child, captured) = board.sow_and_capture(mv);
            let child = child.relative_houses();
            if Value::after_move(captured, self.value_of(child)?).low != v {
                continue;
            }
            let d = self.distance_of(child).map(|d| d + 1);
            best = match (d, best) {
                (None, _) if v > 0 => best,
                (None, _) => return None,
                (Some(d), None) => Some(d),
                (Some(d), Some(b)) => Some(if v > 0 { b.min(d) } else { b.max(d) }),
            };
        }
        best.filter(|&d| d < NO_DISTANCE as u32)
    }

    /// The first move in house order that keeps the board's exact value `value` and leads to a
    /// position `distance - 1` plies from the end ([`Tablebase::distance`]).
    fn move_by_distance(&self, board: &Board, value: i8, distance: u32) -> Option<(Move, Value)> {
        board.legal_move_list().iter().find_map(|&mv| {
            let (child, captured) = board.sow_and_capture(mv);
            let v = Value::after_move(captured, self.probe(&child)?);
            (v.low == value && self.distance(&child)? + 1 == distance).then_some((mv, v))
        })
    }

    /// A move that secures the board's value and makes progress towards it: where the table knows
    /// the board's distance to the end ([`Tablebase::distance`]), the first move in house order
    /// that keeps the value and the distance (one ply less after it). Elsewhere, where the mover's
    /// value rests on forcing a result (a lower bound above `-n`; under `awari` a positive value),
    /// the first move of the shortest forcing line the table's values prove (found by a search of
    /// at most `node_budget` positions), so that playing such moves ends the game with the value;
    /// elsewhere (or when no line is found within the budget) a move with the best lower bound,
    /// then the best upper bound. `None` when the table does not hold the board or there is no
    /// legal move.
    pub fn best_move(&self, board: &Board, node_budget: u64) -> Option<(Move, Value)> {
        let moves = self.move_values(board)?;
        let value = self.probe(board)?;
        if let (Some(v), Some(d)) = (value.exact(), self.distance(board)) {
            if let Some(found) = self.move_by_distance(board, v, d) {
                return Some(found);
            }
        }
        let n = board.seeds_on_board() as i8;
        let forcing = match self.variant {
            RuleSet::Awari => value.low > 0,
            RuleSet::Abapa => value.low > -n,
        };
        if forcing {
            let mut proof = Proof {
                tb: self,
                nodes: 0,
                budget: node_budget,
                failed: HashMap::new(),
                proven: HashMap::new(),
            };
            let root = board.relative_houses();
            let mut depth = 1;
            while proof.nodes < proof.budget && depth <= 255 {
                if let Some(k) = proof.first_move(root, value.low, depth) {
                    let mv = board
                        .legal_move_list()
                        .iter()
                        .copied()
                        .find(|m| m.house() % 6 == k)?;
                    let v = moves.iter().find(|(m, _)| *m == mv)?.1;
                    return Some((mv, v));
                }
                depth += 2;
            }
        }
        moves.into_iter().max_by_key(|&(mv, v)| {
            (
                v.low,
                v.high,
                std::cmp::Reverse(mv.house()), // the first in house order among equals
            )
        })
    }
}

/// The search behind [`Tablebase::best_move`]: can the mover force, within `depth` plies, a
/// capture or an end of the game that keeps at least `target`, against every reply, where a
/// reply that gives the mover more than `target` counts as won (the mover's value rose)?
struct Proof<'a> {
    tb: &'a Tablebase,
    nodes: u64,
    budget: u64,
    /// The most plies within which a position (houses) was shown not to force the target.
    failed: HashMap<u128, u32>,
    /// The fewest plies within which a position was shown to force the target, and the move.
    proven: HashMap<u128, (u32, usize)>,
}

impl Proof<'_> {
    /// The house (0-5, relative to the mover) of a move that forces `target` from `houses` with
    /// the mover to move, within `depth` plies.
    fn first_move(&mut self, houses: u128, target: i8, depth: u32) -> Option<usize> {
        if let Some(&(d, k)) = self.proven.get(&houses) {
            if d <= depth {
                return Some(k);
            }
        }
        if depth == 0
            || self.nodes >= self.budget
            || self.failed.get(&houses).is_some_and(|&d| d >= depth)
        {
            return None;
        }
        self.nodes += 1;
        let board = Board::from_relative_houses(houses, self.tb.variant);
        let mask = board.legal_mask();
        for k in 0..6 {
            if mask & (1 << k) == 0 {
                continue;
            }
            let (child, captured) = board.sow_and_capture(Move::from_house(k));
            let Some(cv) = self.tb.value_of(child.relative_houses()) else {
                continue;
            };
            if Value::after_move(captured, cv).low < target {
                continue;
            }
            if captured > 0 || self.replies_hold(child.relative_houses(), target, depth - 1) {
                self.proven.insert(houses, (depth, k));
                return Some(k);
            }
        }
        if self.nodes < self.budget {
            let d = self.failed.entry(houses).or_default();
            *d = (*d).max(depth);
        }
        None
    }

    /// Whether every reply from `houses` (the opponent to move) leaves the first mover at least
    /// `target` and, where it stays in the layer at exactly `target`, a forcing move again.
    fn replies_hold(&mut self, houses: u128, target: i8, depth: u32) -> bool {
        let board = Board::from_relative_houses(houses, self.tb.variant);
        let mask = board.legal_mask();
        if mask == 0 {
            return true;
        }
        if depth == 0 {
            return false;
        }
        for k in 0..6 {
            if mask & (1 << k) == 0 {
                continue;
            }
            let (after, captured) = board.sow_and_capture(Move::from_house(k));
            if captured > 0 {
                continue;
            }
            let Some(v) = self.tb.value_of(after.relative_houses()) else {
                return false;
            };
            if v.low > target {
                continue;
            }
            if v.low < target
                || self
                    .first_move(after.relative_houses(), target, depth - 1)
                    .is_none()
            {
                return false;
            }
        }
        true
    }
}
