//! The backward pass: win, loss or draw with the distance to the end for every undecided
//! reachable position, by successor counters and a walk over predecessors (unmoves).
//!
//! Distances count plies to the end of the game under Tanaka's rules: a position decided by a
//! Lion capture is a win in 1 (the capture), one decided by a Try or by having no move a loss in
//! 0. An undecided position is a win in `d + 1` if a move leads to a loss in `d` (the smallest
//! such `d`), and a loss in `d + 1` if every move leads to a win, `d` the largest; wins have odd
//! distances and losses even ones. The rest are draws.
//!
//! 1. An initial pass looks at each position's moves: a move into a decided loss makes it a win
//!    in 1; the moves into decided wins are dropped; the others are counted (a position with none
//!    left is a loss in 2).
//! 2. Then level by level, `d` = 1, 2, ...: for each position resolved at distance `d`, every
//!    predecessor still open becomes a win in `d + 1` if `d` is even; if `d` is odd its counter
//!    of open moves falls by one, and at zero it is a loss in `d + 1`. The positions of a level
//!    are found by sweeping the value array; both cores take chunks of it, with atomic updates.
//!
//! Predecessors of a position `C` (Sente to move) are found by turning the board (so that Sente
//! has just moved) and taking back Sente's move in every way: a piece steps back (a Hen on the
//! last rank may have been a Chick), leaving its square empty or putting back a captured piece
//! from Sente's hand, or a dropped piece returns to the hand. Mirror images are merged, so a
//! class is walked from `C` and from its mirror image, and only predecessors that are the
//! representatives of their class are counted: that way each move of a representative into the
//! class is counted exactly once, as in the counter.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{Decoder, Index, Placement};
use super::rank::Rank;
use crate::dobutsu::Position;
use crate::game::Outcome;
use crate::retro::{prefetch, Phase, Progress};

/// Words of the bitset per unit of parallel work.
const CHUNK_WORDS: usize = 64;

/// The deepest distance a byte holds (0 means a draw).
pub const MAX_DISTANCE: u8 = 254;

/// `SOURCES[kind code][square]`: the squares a Sente piece of that kind reaches `square` from.
const SOURCES: [[u16; 12]; 6] = {
    let mut t = [[0u16; 12]; 6];
    let mut k = 1;
    while k < 6 {
        let mut to = 0;
        while to < 12 {
            let (file, rank) = ((to % 3) as i8, (to / 3) as i8);
            // The rules' steps, walked backwards: the squares a step of this kind comes from.
            let dirs = crate::dobutsu::position::steps(k as u8);
            let mut d = 0;
            while d < dirs.len() {
                let (f, r) = (file - dirs[d].0, rank - dirs[d].1);
                if f >= 0 && f < 3 && r >= 0 && r < 4 {
                    t[k][to] |= 1 << (r * 3 + f);
                }
                d += 1;
            }
            to += 1;
        }
        k += 1;
    }
    t
};

/// The board turned by 180 degrees with colours and hands swapped.
fn turned(p: &Placement) -> Placement {
    let mut board = [0u8; 12];
    for (s, &c) in p.board.iter().enumerate() {
        board[11 - s] = if c == 0 { 0 } else { c ^ 8 };
    }
    Placement {
        board,
        hands: [p.hands[1], p.hands[0]],
        lions: [11 - p.lions[1], 11 - p.lions[0]],
    }
}

/// Calls `f` with every position (Sente to move) from which a Sente move leads to `r`, a
/// position in which Sente has just moved (Gote to move), each (position, move) once.
fn for_each_predecessor(r: &Placement, mut f: impl FnMut(&Placement)) {
    for (t, &code) in r.board.iter().enumerate() {
        if code == 0 || code & 8 != 0 {
            continue;
        }
        let kind = code as usize;
        if (2..=4).contains(&kind) {
            let mut p = *r;
            p.board[t] = 0;
            p.hands[0][kind - 2] += 1;
            f(&p);
        }
        // (kind before the move, sources)
        let mut options = [(0u8, 0u16); 2];
        let n = match kind {
            4 if t >= 9 => 0,
            5 if t >= 9 => {
                options[1] = (4, SOURCES[4][t]);
                options[0] = (5, SOURCES[5][t]);
                2
            }
            k => {
                options[0] = (k as u8, SOURCES[k][t]);
                1
            }
        };
        for &(before, sources) in &options[..n] {
            let mut bits = sources;
            while bits != 0 {
                let from = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if r.board[from] != 0 {
                    continue;
                }
                let mut p = *r;
                p.board[from] = before;
                p.board[t] = 0;
                if before == 1 {
                    p.lions[0] = from as u8;
                }
                f(&p);
                for hk in 0..3 {
                    if r.hands[0][hk] == 0 {
                        continue;
                    }
                    let mut q = p;
                    q.hands[0][hk] -= 1;
                    q.board[t] = (hk as u8 + 2) | 8;
                    f(&q);
                    if hk == 2 {
                        q.board[t] = 5 | 8;
                        f(&q);
                    }
                }
            }
        }
    }
}

/// The solved values: one byte per undecided reachable position, in index order of the bitset
/// (0 a draw, else the distance; odd a win, even a loss for the side to move).
pub struct Values {
    /// Per rank in the bitset.
    pub values: Vec<u8>,
    /// How many levels the walk took (the longest distance).
    pub max_distance: u8,
}

/// Runs the backward pass over the undecided positions `bits` (from
/// [`super::enumerate::enumerate`]).
///
/// # Panics
/// If a distance exceeds [`MAX_DISTANCE`] (none does in Dobutsu Shogi).
pub fn solve(index: &Index, bits: &[u64], rank: &Rank, progress: &dyn Progress) -> Values {
    let n = rank.count() as usize;
    let values: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
    let open: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
    progress.start(None, Phase::Moves, Some(n as u64));
    bits.par_chunks(CHUNK_WORDS)
        .enumerate()
        .for_each(|(chunk, words)| {
            let mut moves = Vec::with_capacity(80);
            let mut decoder = Decoder::new(index);
            let mut r = rank.before_word(chunk * CHUNK_WORDS) as usize;
            for (j, &word) in words.iter().enumerate() {
                let mut w = word;
                while w != 0 {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    let i = (chunk * CHUNK_WORDS + j) as u64 * 64 + b as u64;
                    let pos = decoder.placement(i).position();
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    let mut count = 0u32;
                    let mut wins = false;
                    for &mv in &moves {
                        match pos.play(mv).0.outcome() {
                            Some(Outcome::Loss) => wins = true,
                            Some(_) => {}
                            None => count += 1,
                        }
                    }
                    if wins {
                        values[r].store(1, Relaxed);
                    } else if count == 0 {
                        values[r].store(2, Relaxed);
                    } else {
                        open[r].store(count as u8, Relaxed);
                    }
                    r += 1;
                }
            }
            progress.advance(r as u64 - rank.before_word(chunk * CHUNK_WORDS));
        });
    progress.finish();
    progress.start(None, Phase::Values, Some(n as u64));
    // `pending[d % 2][chunk]`: the chunk holds a position resolved at distance `d`, the level
    // being walked or the next (each level only makes the next).
    let chunks = bits.len().div_ceil(CHUNK_WORDS);
    let pending: [Vec<AtomicBool>; 2] =
        std::array::from_fn(|_| (0..chunks).map(|_| AtomicBool::new(false)).collect());
    (0..chunks).into_par_iter().for_each(|chunk| {
        let r0 = rank.before_word(chunk * CHUNK_WORDS) as usize;
        let r1 = rank.before_word(((chunk + 1) * CHUNK_WORDS).min(bits.len())) as usize;
        for v in &values[r0..r1] {
            match v.load(Relaxed) {
                1 => pending[1][chunk].store(true, Relaxed),
                2 => pending[0][chunk].store(true, Relaxed),
                _ => {}
            }
        }
    });
    let mut d = 1u8;
    let mut deepest = 0u8;
    loop {
        let (now, next) = (&pending[d as usize % 2], &pending[1 - d as usize % 2]);
        let found: u64 = (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                if !now[chunk].swap(false, Relaxed) {
                    return 0;
                }
                let mut walker = Walker {
                    index,
                    bits,
                    rank,
                    values: &values,
                    open: &open,
                    next,
                    d,
                    preds: Vec::with_capacity(256),
                    decoder: Decoder::new(index),
                };
                let w0 = chunk * CHUNK_WORDS;
                let mut r = rank.before_word(w0) as usize;
                let mut found = 0;
                for (j, &word) in bits[w0..(w0 + CHUNK_WORDS).min(bits.len())]
                    .iter()
                    .enumerate()
                {
                    let mut w = word;
                    while w != 0 {
                        let b = w.trailing_zeros();
                        w &= w - 1;
                        if values[r].load(Relaxed) == d {
                            walker.walk((w0 + j) as u64 * 64 + b as u64);
                            found += 1;
                        }
                        r += 1;
                    }
                }
                found
            })
            .sum();
        progress.advance(found);
        if found == 0 && d > 2 {
            break;
        }
        if found > 0 {
            deepest = d;
        }
        assert!(d < MAX_DISTANCE, "distance beyond a byte");
        d += 1;
    }
    progress.finish();
    Values {
        values: values.into_iter().map(AtomicU8::into_inner).collect(),
        max_distance: deepest,
    }
}

/// One thread's state for walking the predecessors of the positions of one level.
struct Walker<'a> {
    index: &'a Index,
    bits: &'a [u64],
    rank: &'a Rank,
    values: &'a [AtomicU8],
    open: &'a [AtomicU8],
    next: &'a [AtomicBool],
    d: u8,
    /// (index, rank, of a predecessor; how many moves it stands for).
    preds: Vec<(u64, u64, u8)>,
    decoder: Decoder<'a>,
}

impl Walker<'_> {
    /// Updates the predecessors of index `i`, resolved at distance `d`. The lookups go in
    /// three rounds (indices, then ranks, then values), each prefetching what the next needs, so
    /// that the cache misses of one position's predecessors overlap.
    fn walk(&mut self, i: u64) {
        let c = self.decoder.placement(i);
        let symmetric = c.mirrored() == c;
        self.preds.clear();
        let (index, bits, rank) = (self.index, self.bits, self.rank);
        let preds = &mut self.preds;
        for_each_predecessor(&turned(&c), |p| {
            let (j, times) = index.predecessor(p, symmetric);
            let w = (j / 64) as usize;
            if times > 0 && w < bits.len() {
                prefetch(&bits[w]);
                rank.prefetch(w);
                preds.push((j, 0, times));
            }
        });
        let mut kept = 0;
        for k in 0..self.preds.len() {
            let (j, _, times) = self.preds[k];
            let word = bits[(j / 64) as usize];
            if word >> (j % 64) & 1 != 0 {
                let r = rank.rank(word, j);
                prefetch(&self.values[r as usize]);
                prefetch(&self.open[r as usize]);
                self.preds[kept] = (j, r, times);
                kept += 1;
            }
        }
        let d = self.d;
        for &(j, r, times) in &self.preds[..kept] {
            let r = r as usize;
            let value = &self.values[r];
            if value.load(Relaxed) != 0 {
                continue;
            }
            // After a loss every predecessor wins; after a win it loses once no move is left.
            let resolved = d.is_multiple_of(2) || self.open[r].fetch_sub(times, Relaxed) == times;
            if resolved && value.compare_exchange(0, d + 1, Relaxed, Relaxed).is_ok() {
                self.next[(j / 64) as usize / CHUNK_WORDS].store(true, Relaxed);
            }
        }
    }
}

/// The value of a position that [`Position::outcome`] decides: a Lion capture is a win in 1, a
/// Try that survived a win in 0, the rest losses in 0.
pub fn decided_distance(pos: &Position) -> Option<(Outcome, u8)> {
    let outcome = pos.outcome()?;
    let me = pos.side_to_move();
    let distance = match (outcome, pos.lion(me.opponent())) {
        (Outcome::Win, Some(lion)) if pos.is_attacked(lion, me) => 1,
        _ => 0,
    };
    Some((outcome, distance))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every predecessor found by the unmoves has exactly one move to the position (when it has
    /// moves at all), and none is listed twice. That no predecessor is missed is checked by the
    /// solver tests against a brute-force solver.
    #[test]
    fn unmoves_invert_moves() {
        let index = Index::full();
        let step = index.len() / 3001;
        let mut moves = Vec::new();
        let mut checked = 0;
        for i in (0..index.len()).step_by(step as usize) {
            let r = turned(&index.placement(i));
            let target = Position::from_key(r.key() | 1 << 62).unwrap();
            let mut preds = Vec::new();
            for_each_predecessor(&r, |p| preds.push(p.key()));
            for &p in &preds {
                let pos = Position::from_key(p).unwrap();
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    continue;
                }
                let n = moves.iter().filter(|&&m| pos.play(m).0 == target).count();
                assert_eq!(n, 1, "{pos:?} -> {target:?}");
                checked += 1;
            }
            let listed = preds.len();
            preds.sort_unstable();
            preds.dedup();
            assert_eq!(preds.len(), listed, "an unmove listed twice");
        }
        assert!(checked > 10_000, "{checked}");
    }
}
