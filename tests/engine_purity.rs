//! The engine, the grammar and the command line know no edition and no football rule:
//! every rule lives in `rulesets/`. This scans `engine/src`, `grammar/src`, `native/src`
//! and `cli/src` (`*.rs`, `*.pest`) and fails on an edition name inside a string literal,
//! or on a rule's name anywhere in the code: the football words of [`RULE_WORDS`], and
//! every name the built-in editions declare — their tables, figures and collection entries
//! (skills, weather, formations...), read from the rulesets themselves
//! ([`declared_names`]). Comment lines (starting with `//`, doc comments included) are
//! not scanned. The command line has five narrow allowances, each explained at
//! [`cli_allowance`].

use std::path::{Path, PathBuf};

/// Edition names, forbidden as words inside string literals.
const EDITIONS: &[&str] = &["original", "2015", "2024"];

/// Names of football rules, forbidden as words anywhere in the code.
const RULE_WORDS: &[&str] = &[
    "offside",
    "free kick",
    "free_kick",
    "penalty",
    "goal kick",
    "goal_kick",
    "control check",
    "control_check",
    "special event",
    "special_event",
    "corner kick",
];

/// Names an edition declares that are also ordinary words the code uses in another
/// sense: `passes` (a figure of the 2024 edition) is also a search's iterations
/// (`mcts:PASSES`) and an English verb in messages.
const ORDINARY_WORDS: &[&str] = &["passes"];

/// The names the built-in editions declare: their tables, their figures (breakdowns
/// included) and the entries of their collections (a skill, a weather, a formation), each
/// a rule of its edition that only `rulesets/` may name ([`ORDINARY_WORDS`] left out).
fn declared_names() -> Vec<String> {
    let mut names = Vec::new();
    for edition in EDITIONS {
        let rs = fuba_tests::edition(edition);
        names.extend(rs.tables.iter().map(|t| t.name.clone()));
        names.extend(rs.figures.iter().map(|f| f.name.clone()));
        names.extend(rs.breakdowns.iter().map(|b| b.name.clone()));
        for entries in rs.raw.entries.values() {
            names.extend(entries.keys().cloned());
        }
    }
    names.retain(|n| !ORDINARY_WORDS.contains(&n.as_str()));
    names.sort();
    names.dedup();
    names
}

/// Whether `word` occurs in `text` as a word: not inside a longer run of letters and
/// digits (`_` separates words, so `offside_areas` holds `offside`). Case-insensitive.
fn has_word(text: &str, word: &str) -> bool {
    let hay = text.to_lowercase();
    let word = word.to_lowercase();
    let bytes = hay.as_bytes();
    hay.match_indices(&word).any(|(i, w)| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + w.len()).copied();
        !before.is_some_and(|b| b.is_ascii_alphanumeric())
            && !after.is_some_and(|b| b.is_ascii_alphanumeric())
    })
}

/// One scanned line: its code (string literals included) and the text of the string
/// literals on it.
struct Line {
    number: usize,
    text: String,
    strings: String,
    /// The number of the file's `#[cfg(test)]` line (`usize::MAX` when there is none).
    tests_from: usize,
}

/// Splits a source file into lines, skipping comment lines, and collects the string
/// literals on each line (a literal spanning lines belongs to each line it covers).
fn scan(source: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut in_string = false;
    for (i, raw) in source.lines().enumerate() {
        if !in_string && raw.trim_start().starts_with("//") {
            continue;
        }
        let mut strings = String::new();
        let chars: Vec<char> = raw.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            if in_string {
                match c {
                    '\\' => {
                        if let Some(n) = chars.get(k + 1) {
                            strings.push(*n);
                        }
                        k += 1;
                    }
                    '"' => {
                        in_string = false;
                        strings.push(' ');
                    }
                    _ => strings.push(c),
                }
            } else if c == '"' {
                in_string = true;
            } else if c == '\'' {
                // A char literal ('"', '\'', '\\', 'x') is skipped; a lifetime is not a literal.
                if chars.get(k + 1) == Some(&'\\') {
                    if let Some(end) = chars[k + 2..].iter().position(|x| *x == '\'') {
                        k += end + 2;
                    }
                } else if chars.get(k + 2) == Some(&'\'') {
                    k += 2;
                }
            } else if c == '/' && chars.get(k + 1) == Some(&'/') {
                break;
            }
            k += 1;
        }
        out.push(Line {
            number: i + 1,
            text: raw.to_string(),
            strings,
            tests_from: usize::MAX,
        });
    }
    let tests_from = out
        .iter()
        .find(|l| l.text.trim() == "#[cfg(test)]")
        .map_or(usize::MAX, |l| l.number);
    for l in &mut out {
        l.tests_from = tests_from;
    }
    out
}

/// Why a line offends: the edition names in its strings and the rule names in its code.
fn reasons(line: &Line) -> Vec<String> {
    reasons_with(line, &[])
}

/// [`reasons`], with the names the editions declare ([`declared_names`]) forbidden in the
/// code as well.
fn reasons_with(line: &Line, declared: &[String]) -> Vec<String> {
    let code = match line.text.find("//") {
        // A trailing comment is not code; `//` inside a string literal is kept.
        Some(i) if !line.text[..i].contains('"') => &line.text[..i],
        _ => line.text.as_str(),
    };
    let mut why: Vec<String> = EDITIONS
        .iter()
        .filter(|e| has_word(&line.strings, e))
        .map(|e| format!("edition name `{e}` in a string"))
        .collect();
    why.extend(
        RULE_WORDS
            .iter()
            .filter(|w| has_word(code, w))
            .map(|w| format!("rule name `{w}`")),
    );
    why.extend(
        declared
            .iter()
            .filter(|w| has_word(code, w))
            .map(|w| format!("name `{w}` declared by an edition")),
    );
    why
}

/// The offending lines of one file's text, as `path:line: text (reason)`.
fn offences(path: &str, source: &str) -> Vec<String> {
    offences_but(path, source, &[], &|_: &str, _: &Line| false)
}

/// [`offences`], with the names the editions declare forbidden too, leaving out the lines
/// `allowed` says may name what they name.
fn offences_but(
    path: &str,
    source: &str,
    declared: &[String],
    allowed: &dyn Fn(&str, &Line) -> bool,
) -> Vec<String> {
    let mut found = Vec::new();
    for line in scan(source) {
        let why = reasons_with(&line, declared);
        if !why.is_empty() && !allowed(path, &line) {
            found.push(format!(
                "{path}:{}: {} ({})",
                line.number,
                line.text.trim(),
                why.join(", ")
            ));
        }
    }
    found
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs" || x == "pest") {
            out.push(path);
        }
    }
}

#[test]
fn engine_and_grammar_name_no_edition_and_no_rule() {
    let root = fuba_tests::root();
    let mut files = Vec::new();
    for dir in ["engine/src", "grammar/src", "native/src"] {
        sources(&root.join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() >= 10, "too few sources found: {files:?}");
    let declared = declared_names();
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        found.extend(offences_but(
            &rel,
            &text,
            &declared,
            &|_: &str, _: &Line| false,
        ));
    }
    for line in &found {
        println!("{line}");
    }
    assert!(
        found.is_empty(),
        "the engine and the grammar must not know editions or football rules:\n{}",
        found.join("\n")
    );
}

/// The lines of `cli/src` that may name an edition or a table, and why; `None` for any
/// other line, which is held to the engine's standard.
///
/// 1. `cli/src/editions.rs` is the registry of the built-in editions: it names each
///    edition and embeds its file and the fragment files it includes (a fragment's file
///    name may be a rule's, `offside_risk.toml`). It is the one place that maps a name a
///    user types to a ruleset.
/// 2. A line of help text that is a shell command example — its text starts with `fuba `
///    or `cp ` — gives an edition, a table or a scenario file as an argument, exactly as a
///    user would type it; the command does not act on the name.
/// 3. `default_value = "EDITION"` on a clap argument names the edition a command uses when
///    none is given (a lookup through the registry, like any other name typed).
/// 4. Unit tests, after a file's `#[cfg(test)]` (by convention the test module closes the
///    file), load an edition by name to have rules to test the command's code with.
/// 5. `#[serde(rename = "...")]` keeps a key of a published JSON output (`shots_per_match`,
///    the tallies' `goals_x_shots`) while the field it names is general: the key is the
///    output format, which stays byte-identical.
///
/// Nothing else in `cli/src` may name an edition, a table entry or a rule: the odds, the
/// figures and the narration all come from the ruleset, and so does which figure converts
/// into goals (`conversion` on a `[figures]` entry).
fn cli_allowance(path: &str, line: &Line) -> Option<&'static str> {
    if path.ends_with("cli/src/editions.rs") {
        return Some("the registry of built-in editions");
    }
    let attr = line.text.trim();
    if attr.starts_with("#[serde(rename = \"") && attr.ends_with("\")]") {
        return Some("a key of a published JSON output");
    }
    if line.number > line.tests_from {
        return Some("a unit test");
    }
    let example = line.strings.trim_start();
    if example.starts_with("fuba ") || example.starts_with("cp ") {
        return Some("a command example in help text");
    }
    let defaults_only = EDITIONS.iter().any(|e| {
        let attr = format!("default_value = \"{e}\"");
        line.text.contains(&attr) && {
            let rest = Line {
                text: line.text.replace(&attr, ""),
                strings: line.strings.replacen(e, "", 1),
                ..*line
            };
            reasons(&rest).is_empty()
        }
    });
    defaults_only.then_some("the default edition of an argument")
}

#[test]
fn the_command_line_names_no_edition_and_no_rule() {
    let root = fuba_tests::root();
    let mut files = Vec::new();
    sources(&root.join("cli/src"), &mut files);
    files.sort();
    assert!(files.len() >= 10, "too few sources found: {files:?}");
    let declared = declared_names();
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        found.extend(offences_but(&rel, &text, &declared, &|p, l| {
            cli_allowance(p, l).is_some()
        }));
    }
    for line in &found {
        println!("{line}");
    }
    assert!(
        found.is_empty(),
        "the command line must not know editions or football rules (see cli_allowance):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_command_line_s_allowances_are_narrow() {
    let allowed = |path: &str, src: &str| -> Vec<bool> {
        scan(src)
            .iter()
            .map(|l| cli_allowance(path, l).is_some())
            .collect()
    };
    let src = r#"const EXAMPLES: &str = "
  fuba rules show original --table special_event
  cp rulesets/original.toml copy.toml
  the original edition's grid
";
#[arg(long, default_value = "original")]
let grid = "control check";
#[arg(default_value = "original", help = "the 2015 rules")]
#[cfg(test)]
mod tests { fn rules() { load("2024") } }
"#;
    assert_eq!(
        allowed("cli/src/main.rs", src),
        [
            false, true, true, false, false, true, false, false, false, true
        ]
    );
    assert!(allowed("cli/src/editions.rs", "let x = \"2024\";")[0]);
    // The figure that converts into goals is the ruleset's to declare: no file may name it.
    assert!(!allowed("cli/src/stats/conversion.rs", "const C: &str = \"shots\";")[0]);
    assert_eq!(
        allowed(
            "cli/src/render/json.rs",
            "    #[serde(rename = \"shots_per_match\")]\n    #[serde(rename = \"a\")] shots: u8,\n"
        ),
        [true, false]
    );
    // Only the lines the allowances cover are left out.
    let found = offences_but("cli/src/odds.rs", src, &[], &|p, l| {
        cli_allowance(p, l).is_some()
    });
    let lines: Vec<&str> = found
        .iter()
        .map(|l| l.split(':').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(lines, ["4", "7", "8"], "{found:#?}");
}

#[test]
fn the_scanner_finds_what_it_should() {
    let src = r#"//! A doc comment about the original edition and offside.
/// Also the free kick here.
fn f<'a>(x: &'a str) -> char {
    let q = '"';
    let name = "Original";
    let year = "rules of 2015";
    let fine = "originally 20150";
    let free_kick = 1; // penalty in a trailing comment
    let s = "multi
line 2024 string";
    offside_areas(x);
    '\''
}
"#;
    let found = offences("sample.rs", src);
    let lines: Vec<&str> = found
        .iter()
        .map(|l| l.split(':').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(lines, ["5", "6", "8", "10", "11"], "{found:#?}");
    assert!(has_word("free_kick(t)", "free_kick"));
    assert!(has_word("offside_areas", "offside"));
    assert!(!has_word("originality", "original"));
    assert!(has_word("The Penalty", "penalty"));
}

#[test]
fn the_editions_declared_names_are_read_from_the_rulesets() {
    let names = declared_names();
    for name in ["special_event", "shots", "Regista", "skillset"] {
        let found = names.iter().any(|n| n == name);
        // `skillset` is a collection, not an entry: collections are the ruleset format's
        // words for kinds of records, and are not names of rules.
        assert_eq!(found, name != "skillset", "{name}: {names:?}");
    }
    let line = &scan("let n = t.figures.get(\"shots\");\n")[0];
    assert_eq!(
        reasons_with(line, &names),
        ["name `shots` declared by an edition"]
    );
}
