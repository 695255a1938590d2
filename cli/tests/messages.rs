//! Messages that say what went wrong (issue 15, item 7): which nesting limit a long sum or
//! `else if` chain hit and what counts against it, where a binary file given as a ruleset
//! goes wrong, and that `--games 0` plays no match.

mod common;

use common::{fuba, ok, scratch, stderr, stdout};

/// `rules check` of a house rule of the original edition whose one procedure is `body`;
/// what it printed on stderr (it must fail).
fn check_body(name: &str, params: &str, body: &str) -> String {
    let path = scratch(name).join(format!("{name}.toml"));
    let text = format!(
        "[meta]\nextends = \"original\"\nname = \"{name}\"\n\n[procedures.big]\n{params}do = '''\n{body}\n'''\n"
    );
    std::fs::write(&path, text).expect("write");
    let o = fuba(&["rules", "check", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    stderr(&o)
}

const TREE: &str = "code nests deeper than 128 levels of the syntax tree (each operator of a chain \
                    such as `a + b + c`, each `else if`, each `not` and each block or bracket \
                    counts one)";

#[test]
fn a_flat_sum_names_the_tree_depth_limit() {
    let body = vec!["1"; 500].join(" + ");
    let err = check_body("long-sum", "", &body);
    assert!(err.contains(TREE), "{err}");
    assert!(!err.contains("deeper than 32"), "{err}");
    assert!(err.contains("long-sum.toml:7:1"), "{err}");
}

#[test]
fn an_else_if_chain_names_the_tree_depth_limit() {
    let chain: String = (1..=200)
        .map(|i| format!(" else if x == {i} {{ {i} }}"))
        .collect();
    let body = format!("if x == 0 {{ 0 }}{chain} else {{ 0 }}");
    let err = check_body("long-else-if", "params = \"x: int\"\n", &body);
    assert!(err.contains(TREE), "{err}");
}

#[test]
fn deep_brackets_name_the_bracket_limit() {
    let body = format!("let x = {}1{}", "(".repeat(40), ")".repeat(40));
    let err = check_body("deep-brackets", "", &body);
    assert!(
        err.contains(
            "brackets nest deeper than 32 levels (each `(`, `[` or `{` not yet closed counts one)"
        ),
        "{err}"
    );
}

#[test]
fn a_binary_ruleset_names_the_first_bad_byte() {
    let path = scratch("binary").join("binary.toml");
    let mut bytes = b"[meta]\nname = \"x\"\n".to_vec();
    let at = bytes.len();
    bytes.extend([0xff, 0xfe, 0x00, 0x01]);
    std::fs::write(&path, bytes).expect("write");
    let o = fuba(&["rules", "check", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("it is not UTF-8 text (byte {at} is not)")),
        "{err}"
    );
}

#[test]
fn no_games_is_said_not_tabulated() {
    for args in [
        &["simulate", "--games", "0", "--seed", "1"][..],
        &["compare", "original", "2015", "--games", "0", "--seed", "1"][..],
    ] {
        let o = fuba(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        assert!(
            stderr(&o).contains("--games 0: no match would be played, so there are no figures"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // A shard that holds none of the batch's matches says so.
    let out = ok(&fuba(&[
        "simulate", "--games", "2", "--shard", "3/4", "--seed", "1",
    ]));
    assert!(
        out.contains("no match was played (this shard holds none of the batch's matches)"),
        "{out}"
    );
    assert!(!out.contains("goals per match"), "{out}");
}
