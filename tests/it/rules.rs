//! Hand-worked positions for every rule of protocol.md ("Rules"; variant Abapa by default, Awari
//! where said), through the library alone.
//!
//! Houses are indexed A-F = 0-5 (South), a-f = 6-11 (North); diagrams are
//! `A-B-C-D-E-F-a-b-c-d-e-f-storeS-storeN-side`. Every expected value below is worked out by hand in
//! the comment next to it; each diagram's counts add up to 48.

use perfectplay::game::{CycleRule, Game, Outcome};
use perfectplay::oware::{
    parse_moves, Board, BoardError, EndReason, GameState, Move, NotationError, PlayError, RuleSet,
    Rules, Side,
};

fn board(diagram: &str) -> Board {
    diagram.parse().unwrap_or_else(|e| panic!("{diagram}: {e}"))
}

fn awari(diagram: &str) -> Board {
    board(diagram).with_variant(RuleSet::Awari)
}

fn mv(letter: char) -> Move {
    Move::from_letter(letter).unwrap_or_else(|| panic!("not a move letter: {letter}"))
}

/// The legal moves run together, e.g. `"BF"`.
fn legal(b: &Board) -> String {
    b.legal_move_list().iter().map(|m| m.letter()).collect()
}

/// Plays `letter` on `b` and returns the diagram after it and the seeds captured.
fn play(b: &Board, letter: char) -> (String, u8) {
    let m = mv(letter);
    assert!(
        b.is_legal(m),
        "{letter} is not legal in {b} (legal: {})",
        legal(b)
    );
    let (next, captured) = b.sow_and_capture(m);
    (next.to_string(), captured)
}

fn rules(variant: RuleSet, repetitions: u32, no_progress_limit: u32) -> Rules {
    Rules {
        variant,
        cycle: CycleRule {
            repetitions,
            no_progress_limit,
        },
    }
}

fn game(diagram: &str, rules: Rules) -> GameState {
    GameState::new(board(diagram), rules)
}

/// Plays `moves` (run together) in `g`, asserting each is accepted and that the game is not over
/// before the last one.
fn play_line(g: &mut GameState, moves: &str) {
    for (i, c) in moves.chars().enumerate() {
        assert!(
            !g.is_over(),
            "game over before move {i} ({c}) of {moves}: {:?}",
            g.end()
        );
        g.play(mv(c))
            .unwrap_or_else(|e| panic!("move {i} ({c}) of {moves}: {e}"));
    }
}

// ---------------------------------------------------------------------------------------------
// Sowing
// ---------------------------------------------------------------------------------------------

#[test]
fn start_position_and_its_diagram() {
    let b = Board::start(RuleSet::Abapa);
    assert_eq!(b.to_string(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    assert_eq!(b.side_to_move(), Side::South);
    assert_eq!(legal(&b), "ABCDEF");
    assert_eq!(b.outcome(), None);
}

#[test]
fn sowing_goes_up_the_ring_one_seed_per_house() {
    let b = Board::start(RuleSet::Abapa);
    // South A (4 seeds) -> B, C, D, E: all in its own row.
    assert_eq!(
        play(&b, 'A'),
        ("0-5-5-5-5-4-4-4-4-4-4-4-0-0-N".to_string(), 0)
    );
    // South F (4 seeds) -> a, b, c, d: into North's row, making 5s, so no capture.
    let (after_f, captured) = play(&b, 'F');
    assert_eq!(
        (after_f.as_str(), captured),
        ("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N", 0)
    );
    // North f (4 seeds) wraps round the ring from f (index 11) to A, B, C, D.
    let after_f = board(&after_f);
    assert_eq!(legal(&after_f), "abcdef");
    assert_eq!(
        play(&after_f, 'f'),
        ("5-5-5-5-4-0-5-5-5-5-4-0-0-0-S".to_string(), 0)
    );
    // North c (5 seeds) -> d, e, f, A, B.
    assert_eq!(
        play(&after_f, 'c'),
        ("5-5-4-4-4-0-5-5-0-6-5-5-0-0-S".to_string(), 0)
    );
}

#[test]
fn eleven_seeds_reach_the_house_before_the_origin_without_lapping() {
    // South C = 11: D E F a b c d e f A B each +1; C stays empty, last seed in B (own row).
    // South 1+0+11+0+2+0 = 14, North 0+3+1+0+2+1 = 7, stores 13+14: 14+7+27 = 48.
    let b = board("1-0-11-0-2-0-0-3-1-0-2-1-13-14-S");
    // after: A2 B1 C0 D1 E3 F1 | a1 b4 c2 d1 e3 f2, no capture (last seed in B, South's own).
    assert_eq!(
        play(&b, 'C'),
        ("2-1-0-1-3-1-1-4-2-1-3-2-13-14-N".to_string(), 0)
    );
}

#[test]
fn twelve_seeds_lap_the_board_and_skip_the_origin() {
    // South C = 12. 1+0+12+0+2+0 = 15, 0+3+1+0+2+1 = 7, stores 13+13: 15+7+26 = 48.
    let b = board("1-0-12-0-2-0-0-3-1-0-2-1-13-13-S");
    // Seeds 1-11 go to D E F a b c d e f A B; the 12th skips C and lands in D again.
    // A 1+1=2, B 0+1=1, C 0, D 0+2=2, E 2+1=3, F 0+1=1 | a 1, b 4, c 2, d 1, e 3, f 2.
    // The last seed is in D (South's own row): no capture, even though North now has 2s and 3s.
    assert_eq!(
        play(&b, 'C'),
        ("2-1-0-2-3-1-1-4-2-1-3-2-13-13-N".to_string(), 0)
    );
}

#[test]
fn fifteen_seeds_lap_then_capture_from_the_last_house_back() {
    // South F = 15. South 0+1+0+0+2+15 = 18, North 3+0+1+0+2+1 = 7, stores 11+12: 18+7+23 = 48.
    let b = board("0-1-0-0-2-15-3-0-1-0-2-1-11-12-S");
    // Seeds 1-11: a b c d e f A B C D E; F is skipped; seeds 12-15: a b c d. So a-d get +2, e f and
    // A-E get +1: A1 B2 C1 D1 E3 F0 | a5 b2 c3 d2 e3 f2; the last seed is in d.
    // Capture walks back from d: d2, c3, b2 taken (7 seeds), stops at a (5). e3 and f2 lie beyond
    // the last house and stay.
    assert_eq!(
        play(&b, 'F'),
        ("1-2-1-1-3-0-5-0-0-0-3-2-18-12-N".to_string(), 7)
    );
}

#[test]
fn twenty_two_seeds_make_two_full_laps_and_end_before_the_origin() {
    // North a = 22. South 0+1+2+0+1+0 = 4, North 22+0+1+0+0+0 = 23, stores 10+11: 4+23+21 = 48.
    let b = board("0-1-2-0-1-0-22-0-1-0-0-0-10-11-N");
    // Two laps of the 11 other houses: every house but a gets +2; the 22nd seed is the 11th of the
    // second lap, in the house before a, which is F.
    // A2 B3 C4 D2 E3 F2 | a0 b2 c3 d2 e2 f2. Capture from F back: F2, E3, D2 (7 seeds), stops at
    // C (4); A2 and B3 stay because the chain broke at C.
    assert_eq!(
        play(&b, 'a'),
        ("2-3-4-0-0-0-0-2-3-2-2-2-10-18-S".to_string(), 7)
    );
}

#[test]
fn twenty_three_seeds_end_one_past_the_origin() {
    // South A = 23. 23 + North 1+1+1+1+1+1 = 29, stores 9+10: 29+19 = 48.
    let b = board("23-0-0-0-0-0-1-1-1-1-1-1-9-10-S");
    // Two laps (22 seeds): every house but A +2; the 23rd seed goes to B.
    // A0 B3 C2 D2 E2 F2 | a3 b3 c3 d3 e3 f3: last seed in B (own), no capture.
    assert_eq!(
        play(&b, 'A'),
        ("0-3-2-2-2-2-3-3-3-3-3-3-9-10-N".to_string(), 0)
    );
}

// ---------------------------------------------------------------------------------------------
// Capture
// ---------------------------------------------------------------------------------------------

#[test]
fn capture_chain_walks_back_to_the_row_start() {
    // South 3+0+0+0+0+4 = 7, North 1+1+2+1+5+0 = 10, stores 10+21: 7+10+31 = 48.
    let b = board("3-0-0-0-0-4-1-1-2-1-5-0-10-21-S");
    // F (4) -> a2 b2 c3 d2, last in d. Back: d2 c3 b2 a2 = 9 seeds, then the row ends at a.
    // North keeps e5, so it is not a grand slam.
    assert_eq!(
        play(&b, 'F'),
        ("3-0-0-0-0-0-0-0-0-0-5-0-19-21-N".to_string(), 9)
    );
}

#[test]
fn capture_chain_stops_at_a_house_not_holding_two_or_three() {
    // South 2+0+0+0+0+5 = 7, North 1+4+1+2+1+3 = 12, stores 15+14: 7+12+29 = 48.
    let b = board("2-0-0-0-0-5-1-4-1-2-1-3-15-14-S");
    // F (5) -> a2 b5 c2 d3 e2, last in e. Back: e2 d3 c2 (7 seeds), stop at b5; a2 is not taken.
    assert_eq!(
        play(&b, 'F'),
        ("2-0-0-0-0-0-2-5-0-0-0-3-22-14-N".to_string(), 7)
    );
}

#[test]
fn south_capture_chain_stops_at_the_row_boundary() {
    // South 0+0+0+0+3+1 = 4, North 2+1+4+0+0+0 = 7, stores 18+19: 4+7+37 = 48.
    let b = board("0-0-0-0-3-1-2-1-4-0-0-0-18-19-S");
    // E (3) -> F2 a3 b2, last in b. Back: b2 a3 (5 seeds); a is North's first house, so the walk
    // stops there and F (South's own, now 2) is not taken. c4 stays: not a grand slam.
    assert_eq!(
        play(&b, 'E'),
        ("0-0-0-0-0-2-0-0-4-0-0-0-23-19-N".to_string(), 5)
    );
}

#[test]
fn north_capture_chain_stops_at_the_row_boundary() {
    // South 1+2+0+0+0+5 = 8, North 0+0+0+0+3+1 = 4, stores 18+18: 8+4+36 = 48.
    let b = board("1-2-0-0-0-5-0-0-0-0-3-1-18-18-N");
    // e (3) -> f2 A2 B3, last in B. Back: B3 A2 (5 seeds), stop at the row start A; f (North's
    // own, now 2) stays. F5 stays: not a grand slam.
    assert_eq!(
        play(&b, 'e'),
        ("0-0-0-0-0-5-0-0-0-0-0-2-18-23-S".to_string(), 5)
    );
}

#[test]
fn no_capture_unless_the_last_house_is_the_opponents_and_makes_two_or_three() {
    // South 3+1+0+0+0+4 = 8, North 1+1+2+3+2+0 = 9, stores 15+16: 8+9+31 = 48.
    let b = board("3-1-0-0-0-4-1-1-2-3-2-0-15-16-S");
    // F (4) -> a2 b2 c3 d4: the last house d holds 4, so nothing is taken, although a-c hold 2-3.
    assert_eq!(
        play(&b, 'F'),
        ("3-1-0-0-0-0-2-2-3-4-2-0-15-16-N".to_string(), 0)
    );
    // A (3) -> B2 C1 D1: the last seed is in South's own row: no capture (B2 is South's).
    assert_eq!(
        play(&b, 'A'),
        ("0-2-1-1-0-4-1-1-2-3-2-0-15-16-N".to_string(), 0)
    );
}

// ---------------------------------------------------------------------------------------------
// Grand slam
// ---------------------------------------------------------------------------------------------

/// South F (2) -> a2 b3 would take b3 a2, all of North's row.
/// South 4+0+0+0+0+2 = 6, North 1+2 = 3, stores 20+19: 6+3+39 = 48.
const GRAND_SLAM: &str = "4-0-0-0-0-2-1-2-0-0-0-0-20-19-S";

#[test]
fn abapa_grand_slam_is_legal_and_captures_nothing() {
    let b = board(GRAND_SLAM);
    assert_eq!(legal(&b), "AF");
    assert_eq!(
        play(&b, 'F'),
        ("4-0-0-0-0-0-2-3-0-0-0-0-20-19-N".to_string(), 0)
    );
    // Through the game state too: accepted, nothing captured, the game goes on.
    let mut g = GameState::new(b, Rules::default());
    g.play(mv('F')).unwrap();
    assert_eq!(g.board().to_string(), "4-0-0-0-0-0-2-3-0-0-0-0-20-19-N");
    assert!(!g.is_over());
}

#[test]
fn awari_grand_slam_is_illegal_when_another_move_exists() {
    let b = awari(GRAND_SLAM);
    // F would leave North without seeds; A (B C D E, no capture) does not, so only A is legal.
    assert_eq!(legal(&b), "A");
    let mut g = GameState::new(board(GRAND_SLAM), rules(RuleSet::Awari, 3, 500));
    assert!(matches!(g.play(mv('F')), Err(PlayError::Illegal { .. })));
    assert_eq!(g.ply(), 0, "a refused move changes nothing");
    g.play(mv('A')).unwrap();
    assert_eq!(g.board().to_string(), "0-1-1-1-1-2-1-2-0-0-0-0-20-19-N");
}

/// South 2 (E) + 1 (F) = 3, North a1, stores 22+22: 3+1+44 = 48. E (F2 a2) and F (a2) both end in a,
/// making it 2, and take it: North's whole row, so every move starves North.
const ALL_MOVES_STARVE: &str = "0-0-0-0-2-1-1-0-0-0-0-0-22-22-S";

#[test]
fn awari_grand_slam_when_every_move_starves_is_played_and_the_mover_takes_the_rest() {
    let b = awari(ALL_MOVES_STARVE);
    assert_eq!(legal(&b), "EF");
    // E: F2 a2, take a2 -> South 24; North has no seed, South keeps F2.
    assert_eq!(
        play(&b, 'E'),
        ("0-0-0-0-0-2-0-0-0-0-0-0-24-22-N".to_string(), 2)
    );
    let mut g = GameState::new(board(ALL_MOVES_STARVE), rules(RuleSet::Awari, 3, 500));
    g.play(mv('E')).unwrap();
    let end = g.end().expect("North cannot move: the game is over");
    // The mover (South) takes the 2 seeds left: 24 + 2 = 26 against 22.
    assert_eq!(end.oware_reason(), EndReason::NoMoves);
    assert_eq!(end.stores(), [26, 22]);
    assert_eq!(end.winner, Some(Side::South));
    assert_eq!(end.result_string(), "1-0");
    // F instead: a2 taken -> South 24, E2 left for South: 26-22 again.
    let mut g = GameState::new(board(ALL_MOVES_STARVE), rules(RuleSet::Awari, 3, 500));
    g.play(mv('F')).unwrap();
    assert_eq!(g.board().to_string(), "0-0-0-0-2-0-0-0-0-0-0-0-24-22-N");
    assert_eq!(g.end().map(|e| e.stores()), Some([26, 22]));
}

#[test]
fn abapa_same_position_grand_slams_capture_nothing_and_play_goes_on() {
    let b = board(ALL_MOVES_STARVE);
    assert_eq!(legal(&b), "EF");
    // E: F2 a2; taking a2 would empty North's row, so nothing is taken.
    assert_eq!(
        play(&b, 'E'),
        ("0-0-0-0-0-2-2-0-0-0-0-0-22-22-N".to_string(), 0)
    );
    let mut g = GameState::new(b, Rules::default());
    g.play(mv('E')).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.legal_moves(), vec![mv('a')]);
}

#[test]
fn awari_capture_to_24_24_is_a_draw() {
    // South F1, North a1, stores 22+24: 1+1+46 = 48. Awari: F is South's only move, starves
    // North and takes a2: 24-24 with no seed left, a draw.
    let diagram = "0-0-0-0-0-1-1-0-0-0-0-0-22-24-S";
    let mut g = GameState::new(board(diagram), rules(RuleSet::Awari, 3, 500));
    g.play(mv('F')).unwrap();
    let end = g.end().expect("24-24 ends the game");
    assert_eq!(end.oware_reason(), EndReason::EvenSplit);
    assert_eq!(
        (end.stores(), end.winner, end.result_string()),
        ([24, 24], None, "1/2-1/2")
    );
    // Abapa: the same move is a grand slam and takes nothing. Then North (a2, which reaches only
    // b and c) cannot feed South's empty row: the game ends and North takes its 2 seeds: 22-26.
    let mut g = GameState::new(board(diagram), Rules::default());
    g.play(mv('F')).unwrap();
    assert_eq!(g.board().to_string(), "0-0-0-0-0-0-2-0-0-0-0-0-22-24-N");
    let end = g.end().expect("North cannot feed");
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoMoves, [22, 26], Some(Side::North))
    );
}

// ---------------------------------------------------------------------------------------------
// Feeding and the failed-feed ending
// ---------------------------------------------------------------------------------------------

#[test]
fn only_feeding_moves_are_legal_when_the_opponents_row_is_empty() {
    // South 5+5+1+0+1+1 = 13, North empty, stores 17+18: 13+35 = 48.
    // A5 reaches F (needs 6 for a), B5 reaches a, C1 -> D, E1 -> F, F1 -> a: B and F feed.
    let b = board("5-5-1-0-1-1-0-0-0-0-0-0-17-18-S");
    assert_eq!(legal(&b), "BF");
    assert_eq!(legal(&b.with_variant(RuleSet::Awari)), "BF");
    let mut g = GameState::new(b, Rules::default());
    for refused in ['A', 'C', 'E', 'D', 'a'] {
        assert!(
            matches!(g.play(mv(refused)), Err(PlayError::Illegal { .. })),
            "{refused}"
        );
    }
    g.play(mv('B')).unwrap();
    assert_eq!(g.board().to_string(), "5-0-2-1-2-2-1-0-0-0-0-0-17-18-N");

    // North the same way: a6 reaches A, b4 only f, e2 reaches A. 6+4+2 = 12, stores 18+18.
    let b = board("0-0-0-0-0-0-6-4-0-0-2-0-18-18-N");
    assert_eq!(legal(&b), "ae");
}

#[test]
fn a_player_who_cannot_feed_ends_the_game_and_takes_every_seed() {
    // South A1 B2 C1 = 4 (none reaches a), North empty, stores 22+22: 4+44 = 48.
    let b = board("1-2-1-0-0-0-0-0-0-0-0-0-22-22-S");
    assert_eq!(legal(&b), "");
    assert_eq!(b.final_stores(), Some([26, 22]));
    assert_eq!(
        b.outcome(),
        Some(Outcome::Win),
        "South, to move, takes 4: 26-22"
    );
    let g = GameState::new(b, Rules::default());
    let end = g
        .end()
        .expect("a diagram whose mover cannot feed is a finished game");
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoMoves, [26, 22], Some(Side::South))
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn failed_feed_reached_in_play() {
    // South B2 C1, North f1, stores 22+22: 3+1+44 = 48. North f -> A1, emptying its own row; South
    // (A1 B2 C1) cannot reach a: the game ends at once and South takes its 4 seeds: 26-22.
    let mut g = game("0-2-1-0-0-0-0-0-0-0-0-1-22-22-N", Rules::default());
    g.play(mv('f')).unwrap();
    assert_eq!(g.board().to_string(), "1-2-1-0-0-0-0-0-0-0-0-0-22-22-S");
    let end = g.end().expect("South cannot feed");
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoMoves, [26, 22], Some(Side::South))
    );
    let refused = g.play(mv('A')).unwrap_err();
    assert!(matches!(
        refused,
        PlayError::GameOver { ref reason, result: "1-0", .. }
            if reason.contains(&EndReason::NoMoves.to_string())
    ));
    assert_eq!(g.ply(), 1);

    // Awari instead: South's moves all starve North, so they are all legal; after A (B3) North
    // has no seed and South takes the 4 left: 26-22.
    let mut g = game(
        "0-2-1-0-0-0-0-0-0-0-0-1-22-22-N",
        rules(RuleSet::Awari, 3, 500),
    );
    g.play(mv('f')).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.legal_moves(), vec![mv('A'), mv('B'), mv('C')]);
    g.play(mv('A')).unwrap();
    let end = g.end().expect("North has no seed");
    assert_eq!(
        (end.oware_reason(), end.stores()),
        (EndReason::NoMoves, [26, 22])
    );
}

#[test]
fn failed_feed_ending_can_be_a_draw() {
    // South A1 B1, North empty, stores 22+24: 2+46 = 48. South cannot feed and takes 2: 24-24.
    let g = game("1-1-0-0-0-0-0-0-0-0-0-0-22-24-S", Rules::default());
    let end = g.end().unwrap();
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoMoves, [24, 24], None)
    );
}

// ---------------------------------------------------------------------------------------------
// Winning and drawing by the stores
// ---------------------------------------------------------------------------------------------

#[test]
fn capturing_a_25th_seed_wins() {
    // As in the row-boundary test, with South's store at 20: E takes b2 a3 -> 25.
    // 4+7+20+17 = 48.
    let mut g = game("0-0-0-0-3-1-2-1-4-0-0-0-20-17-S", Rules::default());
    g.play(mv('E')).unwrap();
    assert_eq!(g.board().to_string(), "0-0-0-0-0-2-0-0-4-0-0-0-25-17-N");
    let end = g.end().expect("25 seeds win");
    // The stores stand as they are (the 6 seeds on the board go to no one).
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::Majority, [25, 17], Some(Side::South))
    );
    assert_eq!(
        g.board().outcome(),
        Some(Outcome::Loss),
        "seen from North, to move"
    );
    assert!(matches!(
        g.play(mv('c')),
        Err(PlayError::GameOver { reason, .. }) if reason.contains(&EndReason::Majority.to_string())
    ));
}

#[test]
fn twenty_four_each_is_a_draw() {
    let g = game("0-0-0-0-0-0-0-0-0-0-0-0-24-24-S", Rules::default());
    let end = g.end().unwrap();
    assert_eq!(
        (
            end.oware_reason(),
            end.stores(),
            end.winner,
            end.result_string()
        ),
        (EndReason::EvenSplit, [24, 24], None, "1/2-1/2")
    );
    assert_eq!(
        board("0-0-0-0-0-0-0-0-0-0-0-0-24-24-N").outcome(),
        Some(Outcome::Draw)
    );
}

#[test]
fn twenty_four_alone_does_not_end_the_game() {
    // South 24, North 20, 4 seeds on the board (A1 a3): 24+20+4 = 48.
    let g = game("1-0-0-0-0-0-3-0-0-0-0-0-24-20-S", Rules::default());
    assert!(!g.is_over());
    assert_eq!(g.legal_moves(), vec![mv('A')]);
}

// ---------------------------------------------------------------------------------------------
// The cycle rule
// ---------------------------------------------------------------------------------------------

/// Two seeds chase each other round the ring: F1 and f1, stores 23+23 (2+46 = 48), South to move.
/// F -> a; North must feed: f -> A; then A a B b C c D d E e bring the seeds back to F and f.
/// Every move is the only legal one and none captures (each seed lands in an empty house), so the
/// position repeats every 12 plies.
const CHASE: &str = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S";
const CHASE_LOOP: &str = "FfAaBbCcDdEe";

#[test]
fn chase_loop_is_forced_and_returns_to_its_start() {
    let mut g = game(CHASE, rules(RuleSet::Abapa, 100, 0));
    for c in CHASE_LOOP.chars() {
        assert_eq!(g.legal_moves(), vec![mv(c)], "in {}", g.board());
        g.play(mv(c)).unwrap();
    }
    assert_eq!(g.board().to_string(), CHASE);
    assert!(!g.is_over());
}

#[test]
fn third_occurrence_since_the_last_capture_ends_the_game() {
    let mut g = game(CHASE, Rules::default());
    // The start is the 1st occurrence, ply 12 the 2nd, ply 24 the 3rd.
    play_line(&mut g, &CHASE_LOOP.repeat(2));
    assert_eq!(g.ply(), 24);
    let end = g.end().expect("third occurrence");
    // Abapa: each takes their own row: F1 -> South 24, f1 -> North 24.
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::Repetition, [24, 24], None)
    );
    assert!(matches!(
        g.play(mv('F')),
        Err(PlayError::GameOver { reason, .. })
            if reason.contains(&EndReason::Repetition.to_string())
    ));
    // Played on past the cycle rule's end (as the protocol does for GUIs that count repetitions
    // their own way), the first end stays the game's result.
    g.play_past_cycle_end(mv('F')).unwrap();
    assert_eq!(g.ply(), 25);
    assert_eq!(g.end(), Some(end));
}

/// A GUI may play on past the cycle rule's end: the moves are accepted, the end stays reported,
/// and the plain `play` (the referee's) still refuses them.
#[test]
fn play_past_a_cycle_rule_end_keeps_the_end() {
    let mut g = game(CHASE, rules(RuleSet::Abapa, 2, 500));
    play_line(&mut g, CHASE_LOOP);
    let end = g.end().expect("first repeat");
    assert_eq!(end.oware_reason(), EndReason::Repetition);
    assert!(end.reason.is_cycle_rule());
    assert_eq!(g.legal_moves(), []);
    assert_eq!(g.moves_past_cycle_end(), [mv('F')]);
    assert!(matches!(g.play(mv('F')), Err(PlayError::GameOver { .. })));
    assert!(matches!(
        g.play_past_cycle_end(mv('A')),
        Err(PlayError::Illegal { .. })
    ));
    g.play_all_past_cycle_end(&[mv('F'), mv('f'), mv('A')])
        .expect("moves past the end");
    assert_eq!(g.ply(), 15);
    assert_eq!(g.end(), Some(end), "the first end stands");
    assert_eq!(g.moves_past_cycle_end(), [mv('a')]);
    // An end by the position itself is final: nothing is played past it.
    let mut won = game("0-0-0-0-0-1-1-1-0-0-0-0-23-22-S", Rules::default());
    won.play_past_cycle_end(mv('F')).expect("the winning move");
    assert_eq!(
        won.end().map(|e| e.oware_reason()),
        Some(EndReason::Majority)
    );
    assert_eq!(won.moves_past_cycle_end(), []);
    assert!(matches!(
        won.play_past_cycle_end(mv('b')),
        Err(PlayError::GameOver { reason, .. })
            if reason.contains(&EndReason::Majority.to_string())
    ));
}

#[test]
fn repetitions_two_ends_at_the_first_repeat() {
    let mut g = game(CHASE, rules(RuleSet::Abapa, 2, 500));
    play_line(&mut g, CHASE_LOOP);
    assert_eq!(g.ply(), 12);
    assert_eq!(
        g.end().map(|e| e.oware_reason()),
        Some(EndReason::Repetition)
    );
}

#[test]
fn same_houses_with_the_other_side_to_move_is_another_position() {
    let s = board("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    let n = board("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N");
    assert_ne!(s.key(), n.key());
    assert_ne!(Game::key(&s), Game::key(&n));
}

#[test]
fn no_capture_limit_ends_the_game_at_exactly_that_ply() {
    // Limit 5: plies 1-4 leave it going; the 5th capture-free ply (F f A a B) ends it.
    let mut g = game(CHASE, rules(RuleSet::Abapa, 3, 5));
    play_line(&mut g, "FfAaB");
    assert_eq!(g.ply(), 5);
    // After F f A a B: seeds on C and b, stores 23-23, North to move; each takes their own row.
    assert_eq!(g.board().to_string(), "0-0-1-0-0-0-0-1-0-0-0-0-23-23-N");
    let end = g.end().expect("5 plies without capture");
    assert_eq!(
        (end.oware_reason(), end.stores()),
        (EndReason::NoCaptureLimit, [24, 24])
    );
    assert!(matches!(
        g.play(mv('b')),
        Err(PlayError::GameOver { reason, .. })
            if reason.contains(&EndReason::NoCaptureLimit.to_string())
    ));
    g.play_past_cycle_end(mv('b')).unwrap();
    assert_eq!(g.end(), Some(end), "played on, the first end stays");
}

#[test]
fn no_capture_limit_counts_from_the_last_capture() {
    // South F1, North a1 c1 f1, stores 22+22: 4+44 = 48.
    // Ply 1: F -> a2, captured (North keeps c1 f1, so no grand slam): count restarts.
    // Ply 2: South is empty, North must feed: f -> A. Then A->B, c->d, B->C, d->e: plies 3-6.
    // With a limit of 5 the game ends after ply 6, the 5th ply after the capture.
    let mut g = game(
        "0-0-0-0-0-1-1-0-1-0-0-1-22-22-S",
        rules(RuleSet::Abapa, 3, 5),
    );
    g.play(mv('F')).unwrap();
    assert_eq!(g.board().to_string(), "0-0-0-0-0-0-0-0-1-0-0-1-24-22-N");
    play_line(&mut g, "fAcBd");
    assert_eq!(g.ply(), 6);
    assert_eq!(g.board().to_string(), "0-0-1-0-0-0-0-0-0-0-1-0-24-22-S");
    let end = g.end().expect("5 plies since the capture");
    // Each takes their own row: South 24+1, North 22+1.
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoCaptureLimit, [25, 23], Some(Side::South))
    );
}

#[test]
fn no_capture_limit_zero_is_disabled() {
    let mut g = game(CHASE, rules(RuleSet::Abapa, 100, 0));
    play_line(&mut g, &CHASE_LOOP.repeat(50));
    assert!(!g.is_over());
}

#[test]
fn awari_cycle_splits_the_seeds_left_evenly() {
    // After F the two seeds are a1 and f1, both in North's row; limit 1 ends the game there.
    // Abapa: each takes their own row -> South 23, North 25: North wins.
    let mut g = game(CHASE, rules(RuleSet::Abapa, 3, 1));
    g.play(mv('F')).unwrap();
    let end = g.end().unwrap();
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoCaptureLimit, [23, 25], Some(Side::North))
    );
    assert_eq!(
        Game::cycle_outcome(&g.board()),
        Outcome::Win,
        "North, to move, wins"
    );
    // Awari: the 2 seeds left are split, one each -> 24-24, a draw.
    let mut g = game(CHASE, rules(RuleSet::Awari, 3, 1));
    g.play(mv('F')).unwrap();
    let end = g.end().unwrap();
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoCaptureLimit, [24, 24], None)
    );
    assert_eq!(Game::cycle_outcome(&g.board()), Outcome::Draw);
}

#[test]
fn awari_repetition_splits_too() {
    // Repetitions 2: the first repeat of the chase, F1 f1 on the board -> one each: 24-24.
    let mut g = game(CHASE, rules(RuleSet::Awari, 2, 500));
    play_line(&mut g, CHASE_LOOP);
    let end = g.end().unwrap();
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::Repetition, [24, 24], None)
    );
}

// ---------------------------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------------------------

#[test]
fn diagrams_round_trip() {
    for d in [
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N",
        "0-1-2-0-1-0-22-0-1-0-0-0-10-11-N",
        "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
        "48-0-0-0-0-0-0-0-0-0-0-0-0-0-N",
        "0-0-0-0-0-0-0-0-0-0-0-0-30-18-S",
    ] {
        let b = board(d);
        assert_eq!(b.to_string(), d);
        assert_eq!(board(&b.to_string()), b);
        assert_eq!(b.variant(), RuleSet::Abapa, "diagrams parse as Abapa");
    }
    // Each field is read in order: A..F, a..f, South's store, North's store, side.
    let b = board("1-2-3-4-5-6-7-8-0-0-0-0-10-2-N");
    assert_eq!(b.houses(), [1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0]);
    assert_eq!(
        (b.store(Side::South), b.store(Side::North), b.side_to_move()),
        (10, 2, Side::North)
    );
}

/// Diagrams are read as strictly as they are printed: the side upper case, counts in plain digits.
#[test]
fn lax_diagrams_are_refused() {
    let err = |d: &str| d.parse::<Board>().unwrap_err();
    for side in ["s", "n", "South", "Nord"] {
        assert_eq!(
            err(&format!("4-4-4-4-4-4-4-4-4-4-4-4-0-0-{side}")),
            NotationError::DiagramSide(side.into()),
            "side '{side}'"
        );
    }
    for count in ["+4", "04", "00", "4 ", "4.0", "٤"] {
        assert_eq!(
            err(&format!("{count}-4-4-4-4-4-4-4-4-4-4-4-0-0-S")),
            NotationError::DiagramCount(count.into()),
            "count '{count}'"
        );
    }
    // A whole diagram with blanks around it is still read (the protocol splits on them anyway).
    assert!(" 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S ".parse::<Board>().is_ok());
}

#[test]
fn every_diagram_error_is_named() {
    let err = |d: &str| d.parse::<Board>().unwrap_err();
    assert_eq!(err(""), NotationError::DiagramFields(1));
    assert_eq!(err("4-4-4"), NotationError::DiagramFields(3));
    assert_eq!(
        err("4-4-4-4-4-4-4-4-4-4-4-4-0-0"),
        NotationError::DiagramFields(14)
    );
    assert_eq!(
        err("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-S"),
        NotationError::DiagramFields(16)
    );
    // A negative count splits into an extra field.
    assert_eq!(
        err("4-4-4-4-4-4-4-4-4-4-4--4-0-8-S"),
        NotationError::DiagramFields(16)
    );
    assert_eq!(
        err("4-4-4-4-4-x-4-4-4-4-4-4-0-0-S"),
        NotationError::DiagramCount("x".into())
    );
    assert_eq!(
        err("49-0-0-0-0-0-0-0-0-0-0-0-0-0-S"),
        NotationError::DiagramCount("49".into())
    );
    assert_eq!(
        err("4-4-4-4-4-4-4-4-4-4-4-4-0-999-S"),
        NotationError::DiagramCount("999".into())
    );
    assert_eq!(
        err("4-4-4-4-4-4-4-4-4-4-4-4-0-0-X"),
        NotationError::DiagramSide("X".into())
    );
    assert_eq!(
        err("4-4-4-4-4-4-4-4-4-4-4-4-0-0-"),
        NotationError::DiagramSide("".into())
    );
    assert_eq!(
        err("4-4-4-4-4-4-4-4-4-4-4-5-0-0-S"),
        NotationError::Board(BoardError::WrongTotal(49))
    );
    assert_eq!(
        err("0-0-0-0-0-0-0-0-0-0-0-0-0-0-N"),
        NotationError::Board(BoardError::WrongTotal(0))
    );
    assert_eq!(
        err("4-4-4-4-4-4-4-4-4-4-4-4-1-0-S"),
        NotationError::Board(BoardError::WrongTotal(49))
    );
    // The messages name the problem.
    assert!(err("4-4-4").to_string().contains("found 3"));
    assert!(err("4-4-4-4-4-x-4-4-4-4-4-4-0-0-S")
        .to_string()
        .contains("'x'"));
    assert!(err("4-4-4-4-4-4-4-4-4-4-4-4-0-0-X")
        .to_string()
        .contains("'X'"));
    assert!(err("4-4-4-4-4-4-4-4-4-4-4-5-0-0-S")
        .to_string()
        .contains("49"));
}

#[test]
fn move_letters_and_lists() {
    for (house, letter) in "ABCDEFabcdef".chars().enumerate() {
        let m = mv(letter);
        assert_eq!(
            (m.house(), m.letter(), m.to_string()),
            (house, letter, letter.to_string())
        );
        assert_eq!(letter.to_string().parse::<Move>(), Ok(m));
        assert_eq!(Move::from_house(house), m);
    }
    for bad in ["G", "g", "0", "", "AB", " "] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?}");
    }
    let expected = vec![mv('F'), mv('f'), mv('B'), mv('e')];
    assert_eq!(
        expected.iter().map(|m| m.house()).collect::<Vec<_>>(),
        vec![5, 11, 1, 10]
    );
    assert_eq!(
        parse_moves("F f B e".split_whitespace()),
        Ok(expected.clone())
    );
    assert_eq!(parse_moves(["FfBe"]), Ok(expected.clone()));
    assert_eq!(parse_moves("Ff Be".split_whitespace()), Ok(expected));
    assert_eq!(parse_moves(std::iter::empty()), Ok(vec![]));
    assert_eq!(parse_moves(["FfGe"]), Err(NotationError::Move("G".into())));
    assert_eq!(
        parse_moves("F f x".split_whitespace()),
        Err(NotationError::Move("x".into()))
    );
}

#[test]
fn finished_game_diagrams_are_accepted_as_over() {
    // (diagram, reason, final stores): a store above 24; 24-24; a mover who cannot feed; a mover
    // with no seeds at all (each takes their own row: North takes its 6).
    for (d, reason, stores) in [
        (
            "1-0-0-0-0-0-0-0-0-0-0-0-25-22-N",
            EndReason::Majority,
            [25, 22],
        ),
        (
            "0-0-0-0-0-0-0-0-0-0-0-0-20-28-S",
            EndReason::Majority,
            [20, 28],
        ),
        (
            "0-0-0-0-0-0-0-0-0-0-0-0-24-24-N",
            EndReason::EvenSplit,
            [24, 24],
        ),
        (
            "0-0-0-0-0-0-1-1-1-1-1-1-20-22-S",
            EndReason::NoMoves,
            [20, 28],
        ),
    ] {
        let b = board(d);
        assert!(b.outcome().is_some(), "{d}");
        for variant in [RuleSet::Abapa, RuleSet::Awari] {
            let mut g = GameState::new(b, rules(variant, 3, 500));
            let end = g.end().unwrap_or_else(|| panic!("{d} ({variant}) is over"));
            assert_eq!(
                (end.oware_reason(), end.stores()),
                (reason, stores),
                "{d} ({variant})"
            );
            assert!(g.legal_moves().is_empty());
            let any = Move::from_house(b.side_to_move().first_house());
            assert!(
                matches!(g.play(any), Err(PlayError::GameOver { .. })),
                "{d}"
            );
            assert_eq!(g.ply(), 0);
        }
    }
}

#[test]
fn a_diagram_whose_mover_cannot_feed_is_over_in_abapa_only() {
    // North e1 -> f only; South is empty. Abapa: North cannot feed, the game is over and North
    // takes its seed: 23-25. Awari: every move starves South, so e is played; then South has no
    // seed and North (the mover) takes the seed left: 23-25 again.
    let d = "0-0-0-0-0-0-0-0-0-0-1-0-23-24-N";
    let g = game(d, Rules::default());
    let end = g.end().expect("Abapa: North cannot feed");
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoMoves, [23, 25], Some(Side::North))
    );
    let mut g = game(d, rules(RuleSet::Awari, 3, 500));
    assert!(!g.is_over());
    assert_eq!(g.legal_moves(), vec![mv('e')]);
    g.play(mv('e')).unwrap();
    let end = g.end().expect("Awari: South has no seed");
    assert_eq!(
        (end.oware_reason(), end.stores(), end.winner),
        (EndReason::NoMoves, [23, 25], Some(Side::North))
    );
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut g = GameState::new(Board::start(RuleSet::Abapa), Rules::default());
    // A North house while South is to move.
    let e = g.play(mv('a')).unwrap_err();
    assert!(matches!(e, PlayError::Illegal { .. }));
    assert!(e.to_string().contains("legal: ABCDEF"), "{e}");
    g.play(mv('A')).unwrap();
    // South's A is now empty and it is North's turn anyway; a North house that is empty too.
    assert!(matches!(g.play(mv('A')), Err(PlayError::Illegal { .. })));
    g.play(mv('a')).unwrap();
    assert!(
        matches!(g.play(mv('A')), Err(PlayError::Illegal { .. })),
        "A is empty"
    );
    assert_eq!(g.ply(), 2);
    assert_eq!(g.moves(), &[mv('A'), mv('a')]);
    assert_eq!(g.board().to_string(), "0-5-5-5-5-4-0-5-5-5-5-4-0-0-S");
}
