//! `fuba view`: the page of a recorded match for every edition and a house rule, and the
//! page rendered by a real browser (headless Chromium): the board is drawn, and stepping
//! through the match changes it.
//!
//! The browser test needs Chromium. It looks for `FUBA_CHROMIUM`, then `chromium`,
//! `chromium-browser` and `google-chrome` on the PATH; `.ci/run` installs Debian's
//! `chromium` package. Without one it fails and says how to get it (or set
//! `FUBA_SKIP_BROWSER=1` to leave it out on a machine that cannot have one).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fuba, ok, scratch, stderr};

/// A file in this test run's scratch folder.
fn file(name: &str) -> PathBuf {
    scratch("files").join(name)
}

/// Records match `seed` under `rules` and writes its page; gives the page's path and text.
fn page(rules: &str, seed: &str) -> (PathBuf, String) {
    let stem = format!("view-{}-{seed}", rules.replace(['/', '.'], "_"));
    let log = file(&format!("{stem}.jsonl"));
    let html = file(&format!("{stem}.html"));
    let log_s = log.display().to_string();
    let html_s = html.display().to_string();
    ok(&fuba(&[
        "play", "--rules", rules, "--seed", seed, "--log", &log_s,
    ]));
    let o = fuba(&["view", &log_s, "--rules", rules, "-o", &html_s]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&html).expect("the page was written");
    (html, text)
}

#[test]
fn every_edition_and_a_house_rule_get_a_self_contained_page() {
    for rules in [
        "original",
        "2015",
        "2024",
        "rulesets/examples/wing-goals-count-two.toml",
    ] {
        let (_, html) = page(rules, "5");
        assert!(html.starts_with("<!doctype html>"), "{rules}");
        // Nothing is fetched from elsewhere.
        for outside in ["src=", "href=", "@import", "url("] {
            assert!(
                !html.contains(outside),
                "{rules}: the page refers to `{outside}`"
            );
        }
        assert!(html.contains(r#"<svg xmlns="http://www.w3.org/2000/svg" id="pitch""#));
        let areas = html.matches(r#"class="area""#).count();
        assert!(areas >= 13, "{rules}: {areas} areas drawn");
        assert!(html.contains(r#"id="ball""#) && html.contains(r#"id="keeper0""#));
    }
}

#[test]
fn a_log_the_rules_do_not_replay_is_refused_with_the_way_to_find_out() {
    let (_, _) = page("original", "6");
    let log = file("view-original-6.jsonl");
    let o = fuba(&[
        "view",
        &log.display().to_string(),
        "--rules",
        "rulesets/examples/gentle-long-pass.toml",
        "-o",
        &file("view-wrong.html").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("fuba replay"), "{}", stderr(&o));
}

/// The Chromium to use, or why there is none.
fn chromium() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("FUBA_CHROMIUM") {
        return Ok(PathBuf::from(p));
    }
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(o) = Command::new(name).arg("--version").output() {
            if o.status.success() {
                return Ok(PathBuf::from(name));
            }
        }
    }
    Err(
        "the viewer's browser test needs Chromium: install Debian's package \
         (`apt-get install chromium`), or point FUBA_CHROMIUM at a Chrome or Chromium \
         binary; FUBA_SKIP_BROWSER=1 leaves the test out"
            .into(),
    )
}

/// Runs headless Chromium on `url` with `args`, in a fresh profile.
fn headless(browser: &Path, args: &[&str], url: &str) -> std::process::Output {
    let profile = file("chromium-profile");
    let _ = std::fs::remove_dir_all(&profile);
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("run chromium");
    let _ = std::fs::remove_dir_all(&profile);
    o
}

/// The text of element `id` in a dumped DOM.
fn text_of(dom: &str, id: &str) -> String {
    let at = dom
        .find(&format!(r#"id="{id}""#))
        .unwrap_or_else(|| panic!("no element {id}"));
    let start = at + dom[at..].find('>').expect("a tag") + 1;
    let end = start + dom[start..].find('<').expect("an end");
    dom[start..end].to_string()
}

/// Each team's chips as the DOM shows them: `area: count` for the visible ones.
fn chips(dom: &str, areas: usize) -> Vec<String> {
    let mut out = Vec::new();
    for t in 0..2 {
        for a in 0..areas {
            let id = format!(r#"id="t{t}-{a}""#);
            let at = dom.find(&id).unwrap_or_else(|| panic!("no chip {t}-{a}"));
            let tag = &dom[at..at + dom[at..].find('>').expect("a tag")];
            if !tag.contains("hidden") {
                let rest = &dom[at..];
                let open = rest.find("<text").expect("the chip's number");
                let start = open + rest[open..].find('>').expect("a tag") + 1;
                let end = start + rest[start..].find('<').expect("an end");
                out.push(format!("{t}-{a}: {}", &rest[start..end]));
            }
        }
    }
    out
}

#[test]
fn the_page_draws_the_board_in_a_browser_and_stepping_changes_it() {
    if std::env::var_os("FUBA_SKIP_BROWSER").is_some() {
        eprintln!("FUBA_SKIP_BROWSER is set: the browser test is left out");
        return;
    }
    let browser = chromium().unwrap_or_else(|why| panic!("{why}"));
    let (html, text) = page("original", "7");
    let url = |step: usize| format!("file://{}#step={step}", html.display());
    let steps: usize = text
        .split(r#"max=""#)
        .nth(1)
        .and_then(|s| s.split('"').next())
        .and_then(|s| s.parse::<usize>().ok())
        .expect("the slider's max")
        + 1;
    assert!(steps > 500, "a whole match has {steps} events");

    // The DOM after the script ran, at the first event and at one mid-match.
    let dump = |step| {
        let o = headless(&browser, &["--dump-dom"], &url(step));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let (first, middle) = (dump(1), dump(steps / 2));
    assert_eq!(text_of(&first, "where"), format!("event 1 of {steps}"));
    assert_eq!(
        text_of(&middle, "where"),
        format!("event {} of {steps}", steps / 2)
    );
    assert_ne!(text_of(&first, "text"), text_of(&middle, "text"));
    assert_ne!(
        chips(&first, 13),
        chips(&middle, 13),
        "the pieces are drawn where they stand: mid-match is not the start"
    );
    assert!(
        !chips(&middle, 13).is_empty(),
        "pieces on the board mid-match"
    );

    // A screenshot: the pitch, and both teams' pieces, are drawn.
    let png = file("viewer.png");
    let _ = std::fs::remove_file(&png);
    let o = headless(
        &browser,
        &[
            "--window-size=1200,720",
            &format!("--screenshot={}", png.display()),
        ],
        &url(steps / 2),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (grass, home, away) = colours(&png);
    assert!(grass > 100_000, "{grass} pixels of grass");
    assert!(
        home > 300 && away > 300,
        "pieces: {home} home, {away} away pixels"
    );
    if std::env::var_os("FUBA_UPDATE_SCREENSHOT").is_some() {
        let docs = common::workspace().join("docs/viewer.png");
        std::fs::copy(&png, &docs).expect("copy the screenshot to docs/");
    }
}

/// Pixels of the area green, the home blue and the away red in a PNG.
fn colours(path: &Path) -> (usize, usize, usize) {
    let file = std::fs::File::open(path).expect("the screenshot");
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let step = info.color_type.samples();
    let near = |p: &[u8], c: [u8; 3]| (0..3).all(|i| p[i].abs_diff(c[i]) < 12);
    let (mut g, mut h, mut a) = (0, 0, 0);
    for p in buf[..info.buffer_size()].chunks(step) {
        g += usize::from(near(p, [0x43, 0xa0, 0x47]));
        h += usize::from(near(p, [0x15, 0x65, 0xc0]));
        a += usize::from(near(p, [0xc6, 0x28, 0x28]));
    }
    (g, h, a)
}

/// A scenario's page: its position first, its run, and each expectation marked.
#[test]
fn a_scenario_page_marks_each_expectation_held_or_failed() {
    let good = "tests/scenarios/original/easy_situation.toml";
    let html = file("scenario.html");
    let o = fuba(&["view", good, "-o", &html.display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&html).expect("the page");
    assert!(
        text.contains("The scenario&#39;s position, before the run")
            || text.contains("The scenario's position, before the run")
    );
    assert!(text.contains(r#"<li class="held"><span class="mark">✓</span> <code>controlling = &quot;home&quot;</code>"#), "{text}");
    assert!(!text.contains(r#"class="failed""#));
    // The same scenario with a wrong expectation, beside the original (its rules path
    // is the edition's name, so it may lie anywhere).
    let scenario = std::fs::read_to_string(common::workspace().join(good)).expect("read");
    let at = scenario.find("[expect]").expect("an [expect] table");
    let (position, expect) = scenario.split_at(at);
    let wrong = format!(
        "{position}{}",
        expect.replace(r#"controlling = "home""#, r#"controlling = "away""#)
    );
    assert_ne!(wrong, scenario, "the expectation was found");
    let path = file("wrong.toml");
    std::fs::write(&path, wrong).expect("write");
    let o = fuba(&[
        "view",
        &path.display().to_string(),
        "-o",
        &html.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&html).expect("the page");
    assert!(text.contains(r#"<li class="failed"><span class="mark">✗</span> <code>controlling = &quot;away&quot;</code>"#), "{text}");
    assert!(
        text.contains(r#"<li class="held"><span class="mark">✓</span> <code>ball = "#),
        "{text}"
    );
    assert!(text.contains("FAILED"));
}

#[test]
fn a_scenario_of_every_edition_gets_its_page() {
    for dir in ["original", "2015", "2024", "2024-advanced"] {
        let folder = common::workspace().join("tests/scenarios").join(dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .expect("the scenario folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        let scenario = files.first().expect("a scenario");
        let html = file(&format!("scenario-{dir}.html"));
        let o = fuba(&[
            "view",
            &scenario.display().to_string(),
            "-o",
            &html.display().to_string(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}: {}",
            scenario.display(),
            stderr(&o)
        );
        let text = std::fs::read_to_string(&html).expect("the page");
        assert!(
            text.contains("<h2>Expectations</h2>"),
            "{}",
            scenario.display()
        );
        assert!(text.contains(r#"id="pitch""#), "{}", scenario.display());
    }
}

/// A match played with 2024's advanced rules is shown with them: the log's header records
/// the options set (in whatever order they were given), `fuba view` and `fuba replay` set
/// them again, and the page shows condition points and each skill by its name.
#[test]
fn a_match_with_options_is_viewed_and_replayed_with_them() {
    let log = file("view-2024-options.jsonl");
    let html = file("view-2024-options.html");
    let (log_s, html_s) = (log.display().to_string(), html.display().to_string());
    ok(&fuba(&[
        "play",
        "--rules",
        "2024",
        "--seed",
        "3",
        "--option",
        "skills=6",
        "--option",
        "condition=on",
        "--log",
        &log_s,
    ]));
    let text = std::fs::read_to_string(&log).expect("the log");
    let header: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("a header")).expect("JSON");
    assert_eq!(
        header["options"],
        serde_json::json!(["condition=on", "skills=6"]),
        "{header}"
    );
    let o = fuba(&["view", &log_s, "-o", &html_s]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = std::fs::read_to_string(&html).expect("the page");
    assert!(
        page.contains("2024 (condition=on, skills=6) · seed 3"),
        "the header line"
    );
    let data = page
        .split(r#"<script type="application/json" id="data">"#)
        .nth(1)
        .and_then(|s| s.split("</script>").next())
        .expect("the page's data");
    let data: serde_json::Value = serde_json::from_str(data).expect("JSON");
    let team_vars: Vec<String> = data["teamVars"]
        .as_array()
        .expect("teamVars")
        .iter()
        .map(|v| v[1].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        team_vars.iter().any(|v| v.starts_with("cp_")),
        "condition points: {team_vars:?}"
    );
    // Each skill in play is named beside its variable (`skill_N (NAME)`, from the
    // collection's entries).
    let skills: Vec<&String> = team_vars
        .iter()
        .filter(|v| v.starts_with("skill_"))
        .collect();
    assert!(
        !skills.is_empty() && skills.iter().all(|v| v.ends_with(')') && v.contains(" (")),
        "{team_vars:?}"
    );
    // The same rules, so the fingerprint matches: no "rules changed" note.
    let o = fuba(&["replay", &log_s]);
    let out = ok(&o);
    assert!(out.contains("identical"), "{out}");
    assert!(!out.contains("rules changed"), "{out}");
    // Rules without those options say so.
    let o = fuba(&["view", &log_s, "--rules", "original", "-o", &html_s]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the log was played with the match options condition=on, skills=6"),
        "{}",
        stderr(&o)
    );
}
