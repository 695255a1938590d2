//! `fuba rules new --extends EDITION`: a commented starter file for a house rule, with
//! examples taken from the edition it extends.

use std::io::{self, BufWriter, Write};

use fuba_engine::log::value_json;
use fuba_engine::ruleset::Ruleset;

use crate::CliResult;

/// `text` as a TOML string: one line in single quotes, else a multi-line literal.
fn code(text: &str) -> String {
    let t = text.trim();
    if !t.contains('\n') && !t.contains('\'') {
        format!("'{t}'")
    } else {
        format!("'''\n{t}\n'''")
    }
}

/// Every line commented out.
fn commented(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "#".to_string()
            } else {
                format!("# {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn starter(rs: &Ruleset, extends: &str) -> String {
    let raw = &rs.raw;
    let base = if rs.name.is_empty() {
        "house"
    } else {
        &rs.name
    };
    let example = rs
        .triggers
        .first()
        .map(|x| format!("triggers.{}", x.name))
        .or_else(|| {
            rs.tables
                .iter()
                .find(|x| x.domain.name() == "labels")
                .and_then(|x| {
                    x.rows
                        .first()
                        .map(|r| format!("tables.{}.rows.{}", x.name, r.key))
                })
        })
        .or_else(|| {
            raw.narration
                .keys()
                .next()
                .map(|k| format!("narration.{k}"))
        })
        .unwrap_or_else(|| "procedures.NAME".to_string());
    let remove = format!(
        "# Taking something out: remove an entry of the ruleset below (a trigger, a procedure,\n\
         # a table or one of its rows, a hook, a constant, a narration template, a figure).\n\
         # Removing something still used elsewhere is an error that names both places.\n\
         # (`remove` stays here, above [meta]: TOML keys before the first [section].)\n\
         # remove = [{example:?}]\n\n"
    );
    let mut t = format!(
        "# A house rule on `{extends}` ({title}).\n\
         #\n\
         # What it changes: ...\n\
         # Why try it: ...\n\
         #\n\
         # This file is a layer: it names what it builds on, and every entry it writes replaces\n\
         # (or adds to) the one of the same name below it. Uncomment an example, edit it, then:\n\
         #   fuba rules check THIS.toml\n\
         #   fuba rules diff {extends} THIS.toml\n\
         #   fuba simulate --rules THIS.toml --games 2000 --seed 1\n\
         # Every key is described in docs/ruleset-format.md; the language of `do` and `when` in\n\
         # docs/effect-language.md.\n\n\
         {remove}\
         [meta]\n\
         extends = {extends:?}\n\
         name = \"{base}-house-rule\"\n\
         title = \"{title} with a house rule\"\n",
        title = rs.title,
    );

    if let Some((name, v, _)) = rs.constants.first() {
        let value = value_json(rs, v);
        t.push_str(&format!(
            "\n# A constant: give it a new value.\n{}\n",
            commented(&format!("[constants]\n{name} = {value}"))
        ));
    }

    if let Some(table) = rs
        .tables
        .iter()
        .find(|x| x.rows.len() > 1)
        .or(rs.tables.first())
    {
        if let Some(row) = table.rows.first() {
            let body = raw
                .tables
                .get(&table.name)
                .and_then(|r| r.rows.get(&row.key))
                .map_or_else(|| "0".to_string(), |r| r.get_ref().body.get_ref().clone());
            t.push_str(&format!(
                "\n# A table row: the rows of a table are replaced one by one, by key; the other\n# rows stay as they are (`fuba rules show {extends} --table {}` lists them).\n{}\n",
                table.name,
                commented(&format!(
                    "[tables.{}.rows]\n{:?} = {{ label = {:?}, do = {} }}",
                    table.name,
                    row.key,
                    row.label,
                    code(&body)
                ))
            ));
        }
    }

    // The procedure with the shortest body makes the shortest example.
    if let Some((name, p)) = raw
        .procedures
        .iter()
        .filter(|(_, p)| p.body.get_ref().trim().lines().count() >= 2)
        .min_by_key(|(_, p)| p.body.get_ref().len())
        .or_else(|| raw.procedures.iter().next())
    {
        let mut s = format!("[procedures.{name}]\n");
        if !p.section.is_empty() {
            s.push_str(&format!("section = {:?}\n", p.section));
        }
        if let Some(params) = &p.params {
            s.push_str(&format!("params = {:?}\n", params.get_ref()));
        }
        s.push_str(&format!("do = {}", code(p.body.get_ref())));
        t.push_str(&format!(
            "\n# A procedure: the whole procedure is replaced (same name, same parameters).\n{}\n",
            commented(&s)
        ));
    }

    let hook = rs.hooks.first();
    let trigger = match hook {
        Some(h) => {
            let first = h.params.first().map_or_else(String::new, |(n, ty)| {
                format!("\n# `{n}` ({ty}) is one of the hook's parameters.")
            });
            format!(
                "\n# A trigger: a rule attached to a hook; an integer it gives adds to the hook's value.{first}\n{}\n",
                commented(&format!(
                    "[triggers.my_rule]\nhook = {:?}\nsection = \"house rule\"\nwhen = '{}'\ndo = '1'",
                    h.name,
                    h.params
                        .first()
                        .map_or_else(|| "true".to_string(), |(n, ty)| {
                            if ty.to_string() == "team" {
                                format!("{n} == home")
                            } else {
                                "true".to_string()
                            }
                        })
                ))
            )
        }
        None => "\n# A trigger attaches to a hook ([hooks.NAME], reached by `hook NAME(...)`); this\n# edition declares none.\n".to_string(),
    };
    t.push_str(&trigger);

    t
}

/// Runs `fuba rules new`.
pub fn run(extends: &str) -> CliResult {
    let rs = crate::load_rules(extends)?;
    let mut out = BufWriter::new(io::stdout().lock());
    out.write_all(starter(&rs, extends).as_bytes())?;
    out.flush()?;
    Ok(())
}
