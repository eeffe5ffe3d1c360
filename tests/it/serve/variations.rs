//! Records with variations over HTTP: an import answers the main line and the side lines,
//! nested, each replayed by the rules from the position before the move it replaces; a side
//! line with a move the rules refuse is refused, named, and nothing is imported.

use serde_json::{json, Value};

use crate::common::web::WebServer;

/// A hand-typed Dobutsu study: a comment, a NAG and a mark on moves, a side line of the first
/// move with a side line of its own, a side line of the second player's first move.
const STUDY: &str = "[Variant \"dobutsu\"]\n\n1. b2b3! {takes the chick} (1. c1c2 $2 b3b2\n\
                     (1... a4a3 {the giraffe} 2. b1a2) 2. a1b2) 1... b4b3 (1... a4a3) 2. c1c2 *\n";

fn import(server: &WebServer, variant: &str, text: &str) -> (u16, Value) {
    server.post(&format!("api/import?variant={variant}"), text)
}

#[test]
fn an_import_answers_the_side_lines_nested_at_the_move_they_replace() {
    let server = WebServer::start(&[]);
    let (status, reply) = import(&server, "dobutsu", STUDY);
    assert_eq!(status, 200, "{reply}");
    let record = &reply["records"][0];
    assert_eq!(record["moves"], json!(["b2b3", "b4b3", "c1c2"]));
    assert_eq!(
        record["variations"],
        json!([
            {"at": 0, "moves": ["c1c2", "b3b2", "a1b2"], "variations": [
                {"at": 1, "moves": ["a4a3", "b1a2"], "variations": []}
            ]},
            {"at": 1, "moves": ["a4a3"], "variations": []}
        ])
    );
    // Oware's OGN: a side line of North's first move, and one of South's second whose
    // moves run together.
    let (status, reply) = import(
        &server,
        "abapa",
        "[Variant \"Oware Abapa\"]\n\n1. F f (1... a 2. A) 2. B (2. CbD) e *\n",
    );
    assert_eq!(status, 200, "{reply}");
    let record = &reply["records"][0];
    assert_eq!(record["moves"], json!(["F", "f", "B", "e"]));
    assert_eq!(
        record["variations"],
        json!([
            {"at": 1, "moves": ["a", "A"], "variations": []},
            {"at": 2, "moves": ["C", "b", "D"], "variations": []}
        ])
    );
    // A record without side lines answers none.
    let (status, reply) = import(&server, "abapa", "1. F f *\n");
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["records"][0]["variations"], json!([]));
}

#[test]
fn a_side_line_the_rules_refuse_is_named_and_nothing_is_imported() {
    let server = WebServer::start(&[]);
    // Gote's giraffe cannot reach a2 from a4; the move is the fourth ply of the game, in the
    // side line nested in the side line of the first move.
    let refused = STUDY.replace("2. b1a2", "2. b1a2 a4a2");
    let (status, reply) = import(&server, "dobutsu", &refused);
    assert_eq!(status, 400, "{reply}");
    let error = reply["error"].as_str().unwrap();
    assert!(
        error.starts_with(
            "variations: move 4 (a4a2) in the side line replacing move 2 (b3b2) refused: "
        ),
        "{error}"
    );
    assert!(reply.get("records").is_none(), "{reply}");
    // A word that is no move of the game.
    let (status, reply) = import(&server, "abapa", "1. F f (1... g) *\n");
    assert_eq!(status, 400, "{reply}");
    assert_eq!(
        reply["error"],
        "record: line 1: 'g' is not a move number, a move (A-F, a-f, with +N captures) or a result"
    );
    // Parentheses that do not close, or close nothing.
    for (text, error) in [
        (
            "1. b2b3 (1. c1c2\n(1... a4a3)\n2. a1b2 *\n",
            "record: line 1: unclosed variation",
        ),
        (
            "1. b2b3 b4b3) *\n",
            "record: line 1: ')' closes no variation",
        ),
    ] {
        let (status, reply) = import(&server, "dobutsu", text);
        assert_eq!(status, 400, "{reply}");
        assert_eq!(reply["error"], error);
    }
}

/// `tree` in the query encoded for a URL: blanks as `+`, parentheses kept.
fn encoded(tree: &str) -> String {
    tree.replace(' ', "+")
}

/// A tree longer than a request's head may be (12,000 side lines, 84 KB; the head stops at 64
/// KiB, tests/it/serve/hostile.rs) is written when posted as a form-encoded body, as the page
/// exports it; a body that is not a form of the parameters gets 400.
#[test]
fn a_tree_too_long_for_an_address_is_exported_when_posted() {
    let server = WebServer::start(&[]);
    let tree = format!("b2b3 {}b4b3", "(c1c2) ".repeat(12_000));
    assert!(tree.len() > 64 << 10);
    let query = format!("variant=dobutsu&moves=b2b3+b4b3&tree={}", encoded(&tree));
    let (status, _, pgn) = server.request("POST", "api/record", query.as_bytes());
    assert_eq!(status, 200, "{}", &pgn[..pgn.len().min(300)]);
    assert_eq!(pgn.matches("(1. c1c2)").count(), 12_000);
    assert!(pgn.contains("1. b2b3 (1. c1c2)"), "{}", &pgn[..300]);
    let (status, _, reply) =
        server.request("POST", "api/record", b"variant=dobutsu&moves=b2b3&moves=x");
    assert_eq!(status, 400, "{reply}");
    assert!(reply.contains("the body: "), "{reply}");
}

#[test]
fn an_export_writes_the_tree_and_its_import_gives_the_same_tree() {
    let server = WebServer::start(&[]);
    let (_, first) = import(&server, "dobutsu", STUDY);
    let tree = "b2b3 (c1c2 b3b2 (a4a3 b1a2) a1b2) b4b3 (a4a3) c1c2";
    let (status, pgn) = server.get(&format!(
        "api/record?variant=dobutsu&moves=b2b3+b4b3+c1c2&tree={}",
        encoded(tree)
    ));
    assert_eq!(status, 200, "{pgn}");
    assert!(
        pgn.contains(
            "\n\n1. b2b3 (1. c1c2 b3b2 (1... a4a3 2. b1a2) 2. a1b2) 1... b4b3 (1... a4a3)\n\
             2. c1c2 *\n"
        ),
        "{pgn}"
    );
    let (status, again) = import(&server, "dobutsu", &pgn);
    assert_eq!(status, 200, "{again}");
    for field in ["moves", "variations"] {
        assert_eq!(again["records"][0][field], first["records"][0][field]);
    }
    // Oware: side lines of both sides' first moves, nested.
    let (status, ogn) = server.get("api/record?variant=abapa&moves=F+f&tree=F+(E+(D)+a)+f+(b)");
    assert_eq!(status, 200, "{ogn}");
    assert!(
        ogn.contains("\n\n1. F (1. E (1. D) 1... a) 1... f (1... b) *\n"),
        "{ogn}"
    );
    // A tree that is not the game's, or with a move the rules refuse, or that does not read.
    for (tree, error) in [
        (
            "b2b3 (c1c2) c1c2",
            "tree: its main line is not the game's moves",
        ),
        (
            "b2b3 (c1c2 b3b3) b4b3",
            "tree: move 2 (b3b3) in the side line replacing move 1 (b2b3) refused: ",
        ),
        ("b2b3 (c1c2 b4b3", "tree: line 1: unclosed variation"),
        ("[Event \"x\"] b2b3 b4b3", "tree: move text only"),
    ] {
        let (status, reply) = server.json(&format!(
            "api/record?variant=dobutsu&moves=b2b3+b4b3&tree={}",
            encoded(tree).replace('"', "%22")
        ));
        assert_eq!(status, 400, "{tree}: {reply}");
        let text = reply["error"].as_str().unwrap();
        assert!(text.starts_with(error), "{tree}: {text}");
    }
}
