//! Dobutsu Shogi through the protocol, end to end on the built binary: the variant switch, a Try
//! and drop positions, a Lion capture searched like a mate, and bad input refused with one error
//! line each.

use crate::common::{transcript, Engine};

fn bestmove(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .map(|rest| rest.split(' ').next().unwrap_or(""))
        .expect("a bestmove line")
}

fn last_score(lines: &[String]) -> String {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == "score").expect("a score");
    format!("{} {}", words[at + 1], words[at + 2])
}

#[test]
fn uci_lists_dobutsu_and_its_options() {
    let out = transcript("setoption name UCI_Variant value dobutsu\nuci\n");
    assert!(out.contains(
        &"option name UCI_Variant type combo default dobutsu var abapa var awari var dobutsu"
            .to_string()
    ));
    assert!(out.contains(&"option name Repetitions type spin default 3 min 2 max 1000".to_string()));
    assert!(
        !out.iter()
            .any(|l| l.contains("NoCaptureLimit") || l.contains("WeightSeeds")),
        "Oware's options are not Dobutsu's: {out:?}"
    );
}

#[test]
fn start_position_legal_moves_and_a_move() {
    let out = transcript(
        "setoption name Variant value dobutsu\nlegal\nposition startpos moves b2b3\nlegal\n",
    );
    // The Elephant on a1 is blocked by its own Chick on b2.
    assert_eq!(out[0], "legal b1a2 b1c2 c1c2 b2b3");
    // After the Chick takes the Chick, Gote's Lion, Giraffe and Elephant can take it back.
    assert_eq!(out[1], "legal b4a3 b4b3 b4c3 a4a3 c4b3");
}

#[test]
fn a_try_that_wins_is_found_and_the_capturable_one_avoided() {
    // The giraffe on c4 reaches b4 but not a4: a3a4 wins by a Try; a3b4 loses the Lion.
    let out = transcript(
        "setoption name Variant value dobutsu\nposition fen 2g/L2/2l/3[-] w 0 1\ngo depth 6\n",
    );
    // Gote cannot answer the Try: the game is over at the start of its turn, one ply on.
    assert_eq!(bestmove(&out), "a3a4", "{out:?}");
    assert_eq!(last_score(&out), "mate 1", "{out:?}");
    let out = transcript(
        "setoption name Variant value dobutsu\nposition fen 2g/L2/2l/3[-] w 0 1 moves a3b4\nlegal\ngo depth 4\n",
    );
    assert!(out[0].contains("c4b4"), "{out:?}");
    // Two moves end the game at once: the Giraffe takes the Lion, or Gote's Lion makes a Try on
    // c1 that Sente (whose Lion on b4 stands attacked) cannot answer.
    assert!(
        ["c4b4", "c2c1"].contains(&bestmove(&out)),
        "a move that wins at once: {out:?}"
    );
    assert_eq!(last_score(&out), "mate 1", "{out:?}");
}

#[test]
fn drops_on_the_last_rank_and_a_second_chick_on_a_file_are_legal() {
    let out = transcript(
        "setoption name Variant value dobutsu\nposition fen l2/3/1C1/2L[C] w 0 1\nlegal\n\
         position fen l2/3/1C1/2L[C] w 0 1 moves C@b3\nd\ngo nodes 5000\n",
    );
    let legal: Vec<&str> = out[0].split(' ').skip(1).collect();
    for drop in ["C@b3", "C@b4", "C@c4"] {
        assert!(legal.contains(&drop), "{drop} missing from {legal:?}");
    }
    assert!(out.iter().any(|l| l == "side to move Gote"), "{out:?}");
    let best = bestmove(&out);
    assert_ne!(best, "0000", "Gote searches normally: {out:?}");
    let mut engine = Engine::start();
    engine.send("setoption name Variant value dobutsu");
    engine.send("position fen l2/3/1C1/2L[C] w 0 1 moves C@b3");
    engine.send("legal");
    let legal = engine.sync();
    assert!(
        legal[0].split(' ').any(|m| m == best),
        "{best} in {legal:?}"
    );
    engine.finish();
}

#[test]
fn bad_dobutsu_input_gets_one_error_and_no_position() {
    let cases = [
        ("position fen gle/1c1/1C1/EL[-] w 0 1", "rank 1"),
        ("position startpos moves b2b4", "b2b4"),
        ("position startpos moves b2b3 b4b3 b3b4", "b3b4"),
        ("position fen gle/1c1/1C1/ELG[-] x 0 1", "side to move"),
    ];
    for (bad, needle) in cases {
        let out = transcript(&format!(
            "setoption name Variant value dobutsu\n{bad}\ngo depth 2\n"
        ));
        assert!(
            out[0].starts_with("info string error: ") && out[0].contains(needle),
            "'{bad}': {out:?}"
        );
        assert!(
            out[1].starts_with("info string error: no valid position"),
            "{out:?}"
        );
        assert_eq!(out[2], "bestmove 0000");
        assert_eq!(out.len(), 3, "{out:?}");
    }
}

#[test]
fn switching_back_to_oware_gives_its_start_position() {
    let out = transcript(
        "setoption name Variant value dobutsu\nposition startpos moves b2b3\n\
         setoption name Variant value abapa\nlegal\n",
    );
    assert_eq!(out, ["legal A B C D E F"]);
}
