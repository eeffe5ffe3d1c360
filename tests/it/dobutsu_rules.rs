//! Dobutsu Shogi rules: data-driven perft (`tests/data/dobutsu.perft`) checked against an
//! independent slow move generator written here (module [`reference`]: a plain 4x3 array of
//! pieces, moves as strings, attacks by scanning the board), lockstep comparison of the two
//! generators, the example positions of the rules, notation, and property tests of the invariants.
//!
//! To add a perft position, write its `id`/`fen` and run
//! `cargo test --test dobutsu_rules -- --ignored --nocapture` to print the reference counts.

use crate::common::perft_file::{self, Record};
use perfectplay::dobutsu::{FenError, Kind, Move, MoveError, Player, Position, Square};
use perfectplay::game::{perft, Outcome};
use perfectplay::variant::Variant;
use proptest::prelude::*;
use std::collections::HashMap;

/// A slow, obviously correct second implementation, written from the rules text (protocol.md) and
/// Fairy-Stockfish's convention for finished games.
mod reference {
    /// Piece letters as in a FEN, uppercase: `L G E C H`.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Piece {
        pub owner: usize,
        pub letter: char,
    }

    /// `board[rank][file]`, rank 0 = rank 1; hands as piece letters; the captured Lion's owner.
    #[derive(Clone, PartialEq, Eq, Debug)]
    pub struct Pos {
        pub board: [[Option<Piece>; 3]; 4],
        pub hands: [Vec<char>; 2],
        pub side: usize,
    }

    /// Reads `board[hand] w|b ...` (no error handling: test data).
    pub fn parse(fen: &str) -> Pos {
        let mut fields = fen.split_whitespace();
        let first = fields.next().unwrap();
        let side = match fields.next().unwrap() {
            "w" => 0,
            "b" => 1,
            s => panic!("side {s}"),
        };
        let (board_text, hand_text) = first.split_once('[').unwrap();
        let mut board = [[None; 3]; 4];
        for (i, rank_text) in board_text.split('/').enumerate() {
            let rank = 3 - i;
            let mut file = 0;
            let mut promoted = false;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else if c == '+' {
                    promoted = true;
                } else {
                    let owner = if c.is_uppercase() { 0 } else { 1 };
                    let mut letter = c.to_ascii_uppercase();
                    if promoted {
                        assert_eq!(letter, 'C');
                        letter = 'H';
                        promoted = false;
                    }
                    board[rank][file] = Some(Piece { owner, letter });
                    file += 1;
                }
            }
            assert_eq!(file, 3, "{fen}");
        }
        let mut hands = [Vec::new(), Vec::new()];
        for c in hand_text.trim_end_matches(']').chars() {
            if c != '-' {
                let owner = if c.is_uppercase() { 0 } else { 1 };
                hands[owner].push(c.to_ascii_uppercase());
            }
        }
        Pos { board, hands, side }
    }

    /// Writes the FEN the way Fairy-Stockfish does (hands in the order L G C E, Sente first).
    pub fn fen(p: &Pos) -> String {
        let mut s = String::new();
        for rank in (0..4).rev() {
            let mut empty = 0;
            for file in 0..3 {
                match p.board[rank][file] {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        let text = if piece.letter == 'H' {
                            "+C".to_string()
                        } else {
                            piece.letter.to_string()
                        };
                        s += &if piece.owner == 0 {
                            text
                        } else {
                            text.to_lowercase()
                        };
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push('[');
        for owner in 0..2 {
            for letter in ['L', 'G', 'C', 'E'] {
                for &c in &p.hands[owner] {
                    if c == letter {
                        s.push(if owner == 0 {
                            c
                        } else {
                            c.to_ascii_lowercase()
                        });
                    }
                }
            }
        }
        s.push(']');
        s += if p.side == 0 { " w" } else { " b" };
        s += " - - 0 1";
        s
    }

    /// The (file, rank) steps of a piece, "forward" being +1 rank for Sente, -1 for Gote.
    fn steps(piece: Piece) -> Vec<(i32, i32)> {
        let fwd = if piece.owner == 0 { 1 } else { -1 };
        let orth = vec![(0, 1), (0, -1), (1, 0), (-1, 0)];
        let diag = vec![(1, 1), (1, -1), (-1, 1), (-1, -1)];
        match piece.letter {
            'L' => orth.into_iter().chain(diag).collect(),
            'G' => orth,
            'E' => diag,
            'C' => vec![(0, fwd)],
            'H' => orth.into_iter().chain([(1, fwd), (-1, fwd)]).collect(),
            c => panic!("piece {c}"),
        }
    }

    fn square_name(file: usize, rank: usize) -> String {
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    }

    /// Squares a piece standing on (file, rank) can step to, ignoring what stands there.
    fn targets(piece: Piece, file: usize, rank: usize) -> Vec<(usize, usize)> {
        steps(piece)
            .into_iter()
            .map(|(df, dr)| (file as i32 + df, rank as i32 + dr))
            .filter(|&(f, r)| (0..3).contains(&f) && (0..4).contains(&r))
            .map(|(f, r)| (f as usize, r as usize))
            .collect()
    }

    /// Whether some piece of `by` could step onto (file, rank).
    pub fn attacked(p: &Pos, file: usize, rank: usize, by: usize) -> bool {
        for r in 0..4 {
            for f in 0..3 {
                if let Some(piece) = p.board[r][f] {
                    if piece.owner == by && targets(piece, f, r).contains(&(file, rank)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    pub fn lion(p: &Pos, owner: usize) -> Option<(usize, usize)> {
        for r in 0..4 {
            for f in 0..3 {
                if p.board[r][f] == Some(Piece { owner, letter: 'L' }) {
                    return Some((f, r));
                }
            }
        }
        None
    }

    /// Fairy-Stockfish's game end: a Lion captured; the enemy Lion on the mover's home rank and
    /// not attacked by the mover; the mover's Lion on the far rank and not attacked.
    pub fn finished(p: &Pos) -> bool {
        let me = p.side;
        let them = 1 - me;
        let (Some(mine), Some(theirs)) = (lion(p, me), lion(p, them)) else {
            return true;
        };
        let my_home = if me == 0 { 0 } else { 3 };
        let my_far = 3 - my_home;
        if theirs.1 == my_home && !attacked(p, theirs.0, theirs.1, me) {
            return true;
        }
        mine.1 == my_far && !attacked(p, mine.0, mine.1, them)
    }

    /// Tanaka's result from the side to move's view: 1 win, -1 loss, 0 not over.
    pub fn outcome(p: &Pos) -> i32 {
        let me = p.side;
        let them = 1 - me;
        let (Some(mine), Some(theirs)) = (lion(p, me), lion(p, them)) else {
            return if lion(p, me).is_some() { 1 } else { -1 };
        };
        let my_home = if me == 0 { 0 } else { 3 };
        if attacked(p, theirs.0, theirs.1, me) {
            1
        } else if theirs.1 == my_home {
            -1
        } else if mine.1 == 3 - my_home && !attacked(p, mine.0, mine.1, them) {
            1
        } else if children(p).is_empty() {
            -1
        } else {
            0
        }
    }

    /// Every legal move with the position it leads to.
    pub fn children(p: &Pos) -> Vec<(String, Pos)> {
        let mut out = Vec::new();
        if finished(p) {
            return out;
        }
        let me = p.side;
        let far = if me == 0 { 3 } else { 0 };
        for r in 0..4 {
            for f in 0..3 {
                let Some(piece) = p.board[r][f] else { continue };
                if piece.owner != me {
                    continue;
                }
                for (tf, tr) in targets(piece, f, r) {
                    let target = p.board[tr][tf];
                    if matches!(target, Some(t) if t.owner == me) {
                        continue;
                    }
                    let mut q = p.clone();
                    q.board[r][f] = None;
                    let promotes = piece.letter == 'C' && tr == far;
                    let mut moved = piece;
                    if promotes {
                        moved.letter = 'H';
                    }
                    q.board[tr][tf] = Some(moved);
                    if let Some(t) = target {
                        q.hands[me].push(if t.letter == 'H' { 'C' } else { t.letter });
                    }
                    q.side = 1 - me;
                    let name = format!(
                        "{}{}{}",
                        square_name(f, r),
                        square_name(tf, tr),
                        if promotes { "+" } else { "" }
                    );
                    out.push((name, q));
                }
            }
        }
        let mut kinds = p.hands[me].clone();
        kinds.sort();
        kinds.dedup();
        for letter in kinds {
            for r in 0..4 {
                for f in 0..3 {
                    if p.board[r][f].is_some() {
                        continue;
                    }
                    let mut q = p.clone();
                    let i = q.hands[me].iter().position(|&c| c == letter).unwrap();
                    q.hands[me].remove(i);
                    q.board[r][f] = Some(Piece { owner: me, letter });
                    q.side = 1 - me;
                    out.push((format!("{letter}@{}", square_name(f, r)), q));
                }
            }
        }
        out
    }

    pub fn perft(p: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        children(p).iter().map(|(_, q)| perft(q, depth - 1)).sum()
    }
}

fn cases() -> Vec<Record> {
    let cases = perft_file::records(perft_file::DOBUTSU, Variant::Dobutsu);
    assert!(cases.len() >= 8, "too few perft cases");
    cases
}

/// Perft of every count up to 300 000 leaves, with the reference generator.
#[test]
fn perft_file_reference() {
    let mut checked = 0;
    for case in cases() {
        let pos = reference::parse(&case.fen);
        for &(depth, count) in &case.counts {
            if count <= 300_000 {
                assert_eq!(
                    reference::perft(&pos, depth),
                    count,
                    "{} depth {depth}",
                    case.id
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} counts checked");
}

/// The start position's counts are the published ones.
#[test]
fn perft_start_matches_the_published_counts() {
    let start = Position::start();
    assert_eq!(
        [1, 2, 3].map(|d| perft(&start, d)),
        [4, 17, 123],
        "perft 1-3 from the start"
    );
}

/// Compares the two generators node by node: the move lists, every child position, and the
/// outcome, to `depth` plies.
fn lockstep(pos: Position, reference: &reference::Pos, depth: u32) {
    assert_eq!(pos.to_fen(), reference::fen(reference));
    let expected = match reference::outcome(reference) {
        1 => Some(Outcome::Win),
        -1 => Some(Outcome::Loss),
        _ => None,
    };
    assert_eq!(pos.outcome(), expected, "{pos}");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut ours: Vec<(String, Position)> = moves
        .iter()
        .map(|&mv| (mv.to_string(), pos.play(mv).0))
        .collect();
    ours.sort_by(|a, b| a.0.cmp(&b.0));
    let mut theirs = reference::children(reference);
    theirs.sort_by(|a, b| a.0.cmp(&b.0));
    let our_names: Vec<&String> = ours.iter().map(|x| &x.0).collect();
    let their_names: Vec<&String> = theirs.iter().map(|x| &x.0).collect();
    assert_eq!(our_names, their_names, "moves of {pos}");
    if moves.is_empty() {
        assert!(pos.outcome().is_some(), "no moves but not over: {pos}");
    }
    for ((name, child), (_, ref_child)) in ours.iter().zip(&theirs) {
        assert_eq!(
            pos.parse_move(name).map(|m| m.to_string()),
            Ok(name.clone())
        );
        if depth > 1 {
            lockstep(*child, ref_child, depth - 1);
        } else {
            assert_eq!(child.to_fen(), reference::fen(ref_child), "{pos} {name}");
        }
    }
}

#[test]
fn lockstep_with_reference() {
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap();
        lockstep(pos, &reference::parse(&case.fen), 3);
    }
}

/// Prints the reference counts of every position of the file (for adding positions).
#[test]
#[ignore]
fn print_reference_counts() {
    for case in cases() {
        let pos = reference::parse(&case.fen);
        println!("id {}\nfen {}", case.id, case.fen);
        for depth in 1..=6 {
            println!("depth {depth} {}", reference::perft(&pos, depth));
        }
        println!();
    }
}

fn legal_strings(pos: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().map(|m| m.to_string()).collect()
}

fn play(pos: &Position, text: &str) -> Position {
    pos.play(pos.parse_move(text).unwrap()).0
}

/// `2g/L2/2l/3[-] w 0 1`: `a3a4` is a Try that wins (the Giraffe on c4 does not reach a4).
#[test]
fn try_that_wins() {
    let pos = Position::from_fen("2g/L2/2l/3[-] w 0 1").unwrap();
    assert_eq!(pos.outcome(), None);
    let after = play(&pos, "a3a4");
    assert_eq!(after.side_to_move(), Player::Gote);
    assert_eq!(
        after.outcome(),
        Some(Outcome::Loss),
        "Gote cannot answer the Try"
    );
    assert!(legal_strings(&after).is_empty(), "the game is over");
}

/// `2g/L2/2l/3[-] w 0 1`: `a3b4` is legal, but the Giraffe captures the Lion on b4.
#[test]
fn try_that_loses() {
    let pos = Position::from_fen("2g/L2/2l/3[-] w 0 1").unwrap();
    assert!(legal_strings(&pos).contains(&"a3b4".to_string()));
    let after = play(&pos, "a3b4");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win),
        "Gote can capture the Lion"
    );
    let moves = legal_strings(&after);
    assert!(moves.contains(&"c4b4".to_string()), "{moves:?}");
    assert!(
        moves.len() > 1,
        "all moves are listed, not only the capture"
    );
    let (captured, step) = after.play(after.parse_move("c4b4").unwrap());
    assert_eq!(step.capture, Some(Kind::Lion));
    assert_eq!(captured.outcome(), Some(Outcome::Loss));
    assert!(legal_strings(&captured).is_empty());
    assert_eq!(captured.to_fen(), "1g1/3/2l/3[l] w - - 0 1");
}

/// `l2/3/1C1/2L[C] w 0 1`: drops on b3, b4 and c4 are legal (two Chicks on a file, a Chick on the
/// last rank); the Chick dropped on b4 cannot move and never promotes.
#[test]
fn chick_drops() {
    let pos = Position::from_fen("l2/3/1C1/2L[C] w 0 1").unwrap();
    let moves = legal_strings(&pos);
    for drop in ["C@b3", "C@b4", "C@c4"] {
        assert!(moves.contains(&drop.to_string()), "{drop} in {moves:?}");
    }
    let dropped = play(&pos, "C@b4");
    let gote_reply = play(&dropped, "a4a3");
    let moves = legal_strings(&gote_reply);
    assert!(
        !moves.iter().any(|m| m.starts_with("b4")),
        "the Chick on b4 has no move: {moves:?}"
    );
    let after = play(&pos, "C@b3");
    assert_eq!(after.side_to_move(), Player::Gote);
    assert_eq!(after.outcome(), None);
    assert!(!legal_strings(&after).is_empty());
}

/// A mover without a legal move loses (Fairy-Stockfish: `score mate 0`); the mirror image and the
/// same position turned round agree.
#[test]
fn no_move_loses() {
    let pos = Position::from_fen("GE1/LGE/CCl/3[] w - - 0 1").unwrap();
    for p in [pos, pos.mirrored(), pos.flipped()] {
        assert!(legal_strings(&p).is_empty(), "{p}");
        assert_eq!(p.outcome(), Some(Outcome::Loss), "{p}");
    }
    // With the Elephant of c3 in the hand, the game goes on.
    let with_drop = Position::from_fen("GE1/LG1/CCl/3[E] w - - 0 1").unwrap();
    assert_eq!(with_drop.outcome(), None);
    assert!(!legal_strings(&with_drop).is_empty());
}

#[test]
fn promotion_and_capture_steps() {
    let pos = Position::from_fen("1l1/2C/3/1L1[] w - - 0 1").unwrap();
    let mv = pos.parse_move("c3c4+").unwrap();
    assert!(mv.promotes());
    let (after, step) = pos.play(mv);
    assert!(step.promotion && step.capture.is_none() && step.is_noisy());
    assert!(!step.is_irreversible());
    assert_eq!(after.to_fen(), "1l+C/3/3/1L1[] b - - 0 1");
    assert_eq!(
        pos.parse_move("c3c4"),
        Err(MoveError::PromotionMissing("c3c4".into()))
    );
    // The Hen goes back to the hand as a Chick.
    let (taken, step) = after.play(after.parse_move("b4c4").unwrap());
    assert_eq!(step.capture, Some(Kind::Hen));
    assert_eq!(taken.in_hand(Player::Gote, Kind::Chick), 1);
    assert_eq!(taken.to_fen(), "2l/3/3/1L1[c] w - - 0 1");
    let quiet = Position::start().play(Move::step(
        Square::new(2, 0).unwrap(),
        Square::new(2, 1).unwrap(),
        false,
    ));
    assert!(!quiet.1.is_noisy());
}

#[test]
fn fen_forms_and_round_trip() {
    let start = Position::start();
    assert_eq!(start.to_fen(), "gle/1c1/1C1/ELG[] w - - 0 1");
    for fen in [
        "gle/1c1/1C1/ELG[-] w 0 1",
        "gle/1c1/1C1/ELG[] w - - 0 1",
        "gle/1c1/1C1/ELG[] w",
    ] {
        assert_eq!(Position::from_fen(fen), Ok(start), "{fen}");
    }
    // H and +C are the same Hen; Fairy-Stockfish's writes +C. Hands: L G C E, Sente first.
    let a = Position::from_fen("1l1/1H1/3/1L1[ECGge] b - - 3 7").unwrap();
    let b = Position::from_fen("1l1/1+C1/3/1L1[GCEge] b").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_fen(), "1l1/1+C1/3/1L1[GCEge] b - - 0 1");
    let (_, counters) = Position::from_fen_with_counters("1l1/1H1/3/1L1[ECGge] b - - 3 7").unwrap();
    assert_eq!((counters.halfmove, counters.fullmove), (3, 7));
    assert_eq!(
        a.to_fen_with_counters(counters),
        "1l1/1+C1/3/1L1[GCEge] b - - 3 7"
    );
}

#[test]
fn fen_errors() {
    let cases: &[(&str, FenError)] = &[
        ("gle/1c1/1C1/ELG[-]", FenError::FieldCount(1)),
        // One number is the move number (cutechess writes `w - 1`), from 1.
        ("gle/1c1/1C1/ELG[-] w 0", FenError::BadCounter("0".into())),
        ("gle/1c1/1C1/ELG[-] w - - 0 1 2", FenError::FieldCount(7)),
        (
            "gle/1c1/1C1/ELG[-] w 1 2 3",
            FenError::BadPlaceholder("1".into()),
        ),
        ("gle/1c1/1C1/ELG w 0 1", FenError::MissingHand),
        ("gle/1c1/1C1/ELG[- w 0 1", FenError::MissingHand),
        ("gle/1c1/1C1[-] w 0 1", FenError::RankCount(3)),
        (
            "gle/1c1/1C/ELG[-] w 0 1",
            FenError::RankWidth { rank: 2, width: 2 },
        ),
        (
            "gle/1c2/1C1/ELG[-] w 0 1",
            FenError::RankWidth { rank: 3, width: 4 },
        ),
        ("gle/1k1/1C1/ELG[-] w 0 1", FenError::BadBoardChar('k')),
        ("gle/1c1/1C0/ELG[-] w 0 1", FenError::BadBoardChar('0')),
        ("gle/1+g1/1C1/ELG[-] w 0 1", FenError::BadPromoted),
        ("gle/3/1C1/ELG[h] w 0 1", FenError::BadHandChar('h')),
        ("gle/1c1/1C1/ELG[-] x 0 1", FenError::BadSide("x".into())),
        (
            "gle/1c1/1C1/ELG[-] w K - 0 1",
            FenError::BadPlaceholder("K".into()),
        ),
        ("gle/1c1/1C1/ELG[-] w 0 0", FenError::BadCounter("0".into())),
        ("gle/1c1/1C1/ELG[-] w a 1", FenError::BadCounter("a".into())),
        ("gle/1c1/1C1/ELG[C] w 0 1", FenError::TooMany(Kind::Chick)),
        ("gle/1c1/1H1/ELG[c] w 0 1", FenError::TooMany(Kind::Chick)),
        ("gge/1c1/1C1/ELG[-] w 0 1", FenError::TooMany(Kind::Giraffe)),
        (
            "g1e/1c1/1C1/ELG[-] w 0 1",
            FenError::LionCount(Player::Gote),
        ),
        (
            "gle/1c1/1C1/EL1[L] w 0 1",
            FenError::LionCount(Player::Gote),
        ),
        (
            "gll/1c1/1C1/EG1[-] w 0 1",
            FenError::LionCount(Player::Gote),
        ),
        ("3/3/3/3[Ll] w 0 1", FenError::BothLionsCaptured),
    ];
    for (fen, error) in cases {
        assert_eq!(Position::from_fen(fen).as_ref(), Err(error), "{fen}");
    }
}

#[test]
fn move_errors() {
    let start = Position::start();
    let cases: &[(&str, MoveError)] = &[
        ("b2", MoveError::Syntax("b2".into())),
        ("b2b3b4", MoveError::Syntax("b2b3b4".into())),
        ("b2b3=", MoveError::Syntax("b2b3=".into())),
        ("c@b3", MoveError::Syntax("c@b3".into())),
        ("CC@b3", MoveError::Syntax("CC@b3".into())),
        ("d2b3", MoveError::BadSquare("d2".into())),
        ("b2b5", MoveError::BadSquare("b5".into())),
        ("L@b3", MoveError::NotDroppable(Kind::Lion)),
        ("H@b3", MoveError::NotDroppable(Kind::Hen)),
        ("b2b3+", MoveError::NotAPromotion("b2b3+".into())),
        ("b2c3", MoveError::Illegal("b2c3".into())),
        ("C@a2", MoveError::Illegal("C@a2".into())),
        ("b3b2", MoveError::Illegal("b3b2".into())),
    ];
    for (text, error) in cases {
        assert_eq!(start.parse_move(text).as_ref(), Err(error), "{text}");
    }
    let over = Position::from_fen("1g1/3/2l/3[l] w - - 0 1").unwrap();
    assert_eq!(over.parse_move("c2c3"), Err(MoveError::GameOver));
}

#[test]
fn diagram_of_start() {
    let expected = concat!(
        "  +---+---+---+\n",
        "4 | g | l | e |   hand: -\n",
        "  +---+---+---+\n",
        "3 |   | c |   |\n",
        "  +---+---+---+\n",
        "2 |   | C |   |\n",
        "  +---+---+---+\n",
        "1 | E | L | G | * hand: -\n",
        "  +---+---+---+\n",
        "    a   b   c\n",
        "fen: gle/1c1/1C1/ELG[] w - - 0 1\n",
    );
    assert_eq!(Position::start().diagram(), expected);
}

#[test]
fn from_key_rejects_non_keys() {
    let start = Position::start().key();
    assert_eq!(Position::from_key(start), Some(Position::start()));
    let sq = |i: u32| 1u64 << i;
    let rejected = [
        ("bit 63", start | sq(63)),
        ("colour on an empty square", start | sq(36 + 3)),
        ("kind code 7 on a1", start | sq(24)),
        ("a third Chick in hand", start + sq(52) * 3),
        ("a third Giraffe (on a2)", start | sq(12 + 3)),
        ("no Gote Lion", start & !(sq(10) | sq(46))),
        ("both Lions captured", start | sq(60) | sq(61)),
    ];
    // The same edits that keep a position valid are accepted.
    assert_eq!(
        Position::from_key(start & !sq(11) & !sq(23) & !sq(47)).map(|p| p.to_fen()),
        Some("gl1/1c1/1C1/ELG[] w - - 0 1".to_string())
    );
    for (what, key) in rejected {
        assert_eq!(Position::from_key(key), None, "{what}");
    }
}

#[test]
fn mirror_and_flip_of_start() {
    let start = Position::start();
    assert_eq!(start.mirrored().to_fen(), "elg/1c1/1C1/GLE[] w - - 0 1");
    // Turned round, the start position is itself with Gote to move.
    assert_eq!(start.flipped().to_fen(), "gle/1c1/1C1/ELG[] b - - 0 1");
    let after = play(&start, "b2b3");
    assert_eq!(after.to_fen(), "gle/1C1/3/ELG[C] b - - 0 1");
    assert_eq!(after.normalized().to_fen(), "gle/3/1c1/ELG[c] w - - 0 1");
}

// --- property tests -------------------------------------------------------------------------

/// Plays the `choices`-th legal moves (modulo the move count) from the start until the game ends.
fn random_game(choices: &[u16]) -> Vec<Position> {
    let mut line = vec![Position::start()];
    let mut moves = Vec::new();
    for &c in choices {
        let pos = *line.last().unwrap();
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        line.push(pos.play(moves[c as usize % moves.len()]).0);
    }
    line
}

fn total_pieces(pos: &Position) -> u32 {
    let on_board = Square::all().filter(|&s| pos.piece_at(s).is_some()).count() as u32;
    let in_hands: u32 = Player::BOTH
        .iter()
        .flat_map(|&p| Kind::ALL.map(|k| pos.in_hand(p, k) as u32))
        .sum();
    on_board + in_hands
}

fn sorted_moves(pos: &Position, map: impl Fn(Move) -> Move) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.into_iter().map(|m| map(m).to_string()).collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Along random games: FEN round trip; 8 pieces (board and hands); mirror and flip are
    /// involutions, commute with play and keep the outcome; the reference agrees on moves.
    #[test]
    fn invariants_along_random_games(choices in proptest::collection::vec(any::<u16>(), 0..80)) {
        let line = random_game(&choices);
        for pos in &line {
            prop_assert_eq!(Position::from_fen(&pos.to_fen()), Ok(*pos));
            prop_assert_eq!(total_pieces(pos), 8);
            prop_assert_eq!(pos.mirrored().mirrored(), *pos);
            prop_assert_eq!(pos.flipped().flipped(), *pos);
            prop_assert_eq!(pos.normalized().side_to_move(), Player::Sente);
            prop_assert_eq!(pos.canonical(), pos.mirrored().canonical());
            prop_assert_eq!(pos.mirrored().outcome(), pos.outcome());
            prop_assert_eq!(pos.flipped().outcome(), pos.outcome());
            prop_assert_eq!(pos.key() >> 63, 0);
            prop_assert_eq!(Position::from_key(pos.key()), Some(*pos));
            prop_assert_eq!(
                sorted_moves(&pos.mirrored(), |m| m),
                sorted_moves(pos, Move::mirrored)
            );
            prop_assert_eq!(
                sorted_moves(&pos.flipped(), |m| m),
                sorted_moves(pos, Move::flipped)
            );
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            prop_assert!(!moves.is_empty() || pos.outcome().is_some());
            for &mv in &moves {
                let (child, step) = pos.play(mv);
                prop_assert_eq!(child.side_to_move(), pos.side_to_move().opponent());
                prop_assert_eq!(pos.mirrored().play(mv.mirrored()).0, child.mirrored());
                prop_assert_eq!(pos.flipped().play(mv.flipped()).0, child.flipped());
                prop_assert_eq!(step.capture.is_some(), pos.piece_at(mv.to()).is_some());
                prop_assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv));
            }
            let reference = reference::parse(&pos.to_fen());
            let mut ref_moves: Vec<String> =
                reference::children(&reference).into_iter().map(|c| c.0).collect();
            ref_moves.sort();
            prop_assert_eq!(sorted_moves(pos, |m| m), ref_moves);
        }
    }

    /// Keys are equal exactly when positions (by their FEN) are equal, over random games.
    #[test]
    fn key_is_injective(choices in proptest::collection::vec(any::<u16>(), 0..200)) {
        let mut seen: HashMap<u64, String> = HashMap::new();
        for seed in 0..4u16 {
            let shifted: Vec<u16> = choices.iter().map(|c| c.wrapping_mul(seed + 1)).collect();
            for pos in random_game(&shifted) {
                for p in [pos, pos.mirrored(), pos.flipped()] {
                    let fen = p.to_fen();
                    let old = seen.entry(p.key()).or_insert_with(|| fen.clone());
                    prop_assert_eq!(&*old, &fen);
                }
            }
        }
        let distinct_fens: std::collections::HashSet<&String> = seen.values().collect();
        prop_assert_eq!(distinct_fens.len(), seen.len());
    }

    /// Any string either fails to parse as a FEN or round-trips (never a panic).
    #[test]
    fn fen_parser_is_total(s in "[lgechLGECH123+/\\[\\]\\- wb0-9]{0,40}") {
        if let Ok(pos) = Position::from_fen(&s) {
            prop_assert_eq!(Position::from_fen(&pos.to_fen()), Ok(pos));
        }
    }

    /// Any 64-bit value either is not a key or is the key of a position that writes a FEN that
    /// reads back as the same position.
    #[test]
    fn from_key_is_total(key in any::<u64>(), mask in any::<u64>()) {
        // Sparse values are keys more often than uniform ones.
        for k in [key, key & mask, key & mask & 0x3FFF_FFFF_FFFF_FFFF] {
            if let Some(pos) = Position::from_key(k) {
                prop_assert_eq!(pos.key(), k);
                prop_assert_eq!(Position::from_fen(&pos.to_fen()), Ok(pos));
            }
        }
    }

    /// Any string either fails to parse as a move or writes back the same.
    #[test]
    fn move_parser_is_total(s in "[a-dA-Z1-5@+]{0,6}") {
        if let Ok(mv) = s.parse::<Move>() {
            prop_assert_eq!(mv.to_string(), s);
        }
    }
}
