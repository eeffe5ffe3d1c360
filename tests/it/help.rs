//! `perfectplay --help` and the subcommands' help: lines wrapped to at most 100 columns (help is
//! read on narrow terminals and in pipes), and pointers to the documents that say more.

use crate::common::help;

#[test]
fn help_lines_are_wrapped_to_100_columns() {
    for args in [
        &[][..],
        &["uci"],
        &["perft"],
        &["bench"],
        &["match"],
        &["serve"],
        &["tablebase", "build"],
    ] {
        let text = help(args);
        assert!(text.lines().count() > 5, "{args:?}: {text}");
        for line in text.lines() {
            assert!(
                line.chars().count() <= 100,
                "{args:?} --help: {} columns: {line}",
                line.chars().count()
            );
        }
    }
}

#[test]
fn help_points_to_the_documents() {
    let top = help(&[]);
    assert!(top.contains("protocol.md"), "{top}");
    assert!(top.contains("docs/match.md"), "{top}");
    assert!(help(&["uci"]).contains("protocol.md"));
    assert!(help(&["match"]).contains("docs/match.md"));
    assert!(help(&["serve"]).contains("docs/web.md"));
}
