//! Every example of the language reference parses: the ```fuba blocks as procedure bodies,
//! and, in the ```toml blocks, every `do = '''...'''` body, every `when = '...'` condition
//! and every `params = "..."` list.

use fuba_grammar::{ParseError, parse_body, parse_expression, parse_params};

const DOC: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../docs/effect-language.md"
));

/// The fenced blocks tagged `tag`, with the line number of their first line.
fn blocks(tag: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in DOC.lines().enumerate() {
        match &mut current {
            None if line.trim_start() == format!("```{tag}") => {
                current = Some((i + 2, String::new()));
            }
            Some((_, text)) if line.trim_start() == "```" => {
                let text = std::mem::take(text);
                let (start, _) = current.take().expect("inside a block");
                out.push((start, text));
            }
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    assert!(current.is_none(), "unterminated ```{tag} block");
    out
}

/// The values of `key = <open>...<close>` in `toml`, with the byte offset of each value.
fn values<'a>(toml: &'a str, key: &str, open: &str, close: &str) -> Vec<(usize, &'a str)> {
    let needle = format!("{key} = {open}");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = toml[from..].find(&needle) {
        let start = from + i + needle.len();
        let len = toml[start..]
            .find(close)
            .unwrap_or_else(|| panic!("unterminated {key} value at byte {start}"));
        out.push((start, &toml[start..start + len]));
        from = start + len + close.len();
    }
    out
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count()
}

fn report(what: &str, line: usize, code: &str, e: &ParseError) -> String {
    format!(
        "{what} at docs/effect-language.md line {line} does not parse: {e} (bytes {:?})\n{code}",
        e.span()
    )
}

#[test]
fn fuba_blocks_parse() {
    let blocks = blocks("fuba");
    assert!(
        blocks.len() >= 9,
        "expected the reference and edition examples"
    );
    for (line, code) in blocks {
        if let Err(e) = parse_body(&code) {
            panic!("{}", report("```fuba block", line, &code, &e));
        }
    }
}

#[test]
fn toml_blocks_code_parses() {
    let blocks = blocks("toml");
    let (mut bodies, mut conditions, mut params) = (0, 0, 0);
    for (line, toml) in &blocks {
        for (at, code) in values(toml, "do", "'''", "'''") {
            let line = line + line_of(toml, at);
            if let Err(e) = parse_body(code) {
                panic!("{}", report("do = '''...'''", line, code, &e));
            }
            bodies += 1;
        }
        for (at, code) in values(toml, "when", "'", "'") {
            let line = line + line_of(toml, at);
            if let Err(e) = parse_expression(code) {
                panic!("{}", report("when = '...'", line, code, &e));
            }
            conditions += 1;
        }
        for (at, code) in values(toml, "params", "\"", "\"") {
            let line = line + line_of(toml, at);
            if let Err(e) = parse_params(code) {
                panic!("{}", report("params = \"...\"", line, code, &e));
            }
            params += 1;
        }
    }
    assert!(bodies >= 20, "only {bodies} do bodies found");
    assert!(conditions >= 5, "only {conditions} when conditions found");
    assert!(params >= 5, "only {params} params found");
}

/// The blocks of the reference that show the language but are not complete code (the
/// statement summary with its `...`) are untagged; the extraction must not miss tagged
/// ones because of indentation or a trailing space.
#[test]
fn every_tagged_block_is_seen() {
    let tagged = DOC
        .lines()
        .filter(|l| matches!(l.trim(), "```fuba" | "```toml"))
        .count();
    assert_eq!(tagged, blocks("fuba").len() + blocks("toml").len());
}
