//! A figure that goals are a conversion of (`[figures] NAME = { events = [...],
//! conversion = "goals per shot" }`): each edition declares it on its `shots` figure, a
//! house layer that redeclares the figure without it has no conversion, `fuba compare`
//! adopts it with the figure, and a bad declaration is an error at its place in the file.

use std::path::Path;

use fuba_engine::load::load_str;
use fuba_engine::ruleset::Ruleset;
use fuba_tests::{edition, original_text, root};

/// The figures of `rs` that declare a conversion, with its label.
fn conversions(rs: &Ruleset) -> Vec<(&str, &str)> {
    rs.figures
        .iter()
        .filter_map(|f| Some((f.name.as_str(), f.conversion.as_deref()?)))
        .collect()
}

/// The original edition with its `shots` declaration replaced by `shots`, and `more`
/// figures added.
fn original_with(shots: &str, more: &str) -> String {
    let declared =
        "shots = { events = [\"shot\", \"penalty\"], conversion = \"goals per shot\" }\n";
    let text = original_text();
    assert!(
        text.contains(declared),
        "the original edition declares its conversion"
    );
    text.replace(declared, &format!("{shots}\n{more}\n"))
}

/// The messages of a ruleset that must not load.
fn errors(text: &str) -> String {
    match load_str(Path::new("figures.toml"), text) {
        Ok(_) => panic!("the ruleset loaded, but is meant to fail"),
        Err(e) => e.to_string(),
    }
}

/// A house layer over the original edition, as a file next to it.
fn layer(text: &str) -> Ruleset {
    let path = root().join("rulesets/house.toml");
    let text =
        format!("{text}\n[meta]\nextends = \"original\"\nname = \"house\"\ntitle = \"House\"\n");
    load_str(&path, &text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn each_edition_declares_goals_a_conversion_of_its_shots() {
    for e in ["original", "2015", "2024"] {
        let rs = edition(e);
        assert_eq!(conversions(&rs), [("shots", "goals per shot")], "{e}");
    }
}

#[test]
fn a_house_layer_may_redeclare_the_figure_without_a_conversion() {
    let plain = layer("[figures]\nshots = [\"shot\", \"penalty\"]\n");
    assert_eq!(conversions(&plain), []);
    let kinds: Vec<&str> = plain.figures[0]
        .kinds
        .iter()
        .map(|k| plain.symbol(*k))
        .collect();
    assert_eq!(
        (plain.figures[0].name.as_str(), kinds),
        ("shots", vec!["shot", "penalty"])
    );
    // A layer that leaves the figure alone keeps the edition's declaration; one may move it.
    let kept = layer("[figures]\nfouls = [\"yellow card\", \"red card\"]\n");
    assert_eq!(conversions(&kept), [("shots", "goals per shot")]);
    let moved = layer(
        "[figures]\nshots = [\"shot\"]\n\
         on_target = { event = \"shot\", conversion = \"goals per attempt on target\" }\n",
    );
    assert_eq!(
        conversions(&moved),
        [("on_target", "goals per attempt on target")]
    );
}

#[test]
fn compare_adopts_the_conversion_with_its_figure_unless_one_converts_already() {
    let mut plain = layer("[figures]\nshots = [\"shot\", \"penalty\"]\n");
    let original = edition("original");
    // The figure is there already: nothing adopted, no conversion.
    plain.adopt_figures(&original).expect("adopts");
    assert_eq!(conversions(&plain), []);
    let mut without = layer("remove = [\"figures.shots\"]\n");
    assert_eq!(conversions(&without), []);
    without.adopt_figures(&original).expect("adopts");
    assert_eq!(conversions(&without), [("shots", "goals per shot")]);
    let mut own = layer(
        "[figures]\nshots = [\"shot\"]\nattempts = { events = [\"shot\"], conversion = \"goals per attempt\" }\n",
    );
    own.adopt_figures(&layer("remove = [\"figures.shots\"]\n[figures]\nshots_again = { events = [\"shot\"], conversion = \"goals per shot\" }\n"))
        .expect("adopts");
    assert_eq!(conversions(&own), [("attempts", "goals per attempt")]);
}

#[test]
fn a_conversion_that_is_not_a_label_is_an_error_at_its_value() {
    let text = original_with(
        "shots = { events = [\"shot\", \"penalty\"], conversion = 3 }",
        "",
    );
    let line = 1 + text[..text.find("conversion = 3").unwrap()]
        .matches('\n')
        .count();
    let message = errors(&text);
    assert!(
        message.contains("figure `shots`: `conversion` is an integer, not a string; it is the label of goals per event of the figure"),
        "{message}"
    );
    assert!(
        message.contains(&format!("figures.toml:{line}:")),
        "{message}"
    );
    assert!(
        message.contains("conversion = \"goals per shot\""),
        "{message}"
    );
    let empty = errors(&original_with(
        "shots = { events = [\"shot\", \"penalty\"], conversion = \" \" }",
        "",
    ));
    assert!(empty.contains("`conversion` is empty"), "{empty}");
}

#[test]
fn goals_are_a_conversion_of_one_figure_at_most() {
    let message = errors(&original_with(
        "shots = { events = [\"shot\", \"penalty\"], conversion = \"goals per shot\" }",
        "attempts = { event = \"shot\", conversion = \"goals per attempt\" }",
    ));
    assert!(
        message.contains("figures `shots` and `attempts` both declare `conversion`"),
        "{message}"
    );
    let by = errors(&original_with(
        "shots = [\"shot\", \"penalty\"]",
        "shots_by_area = { event = \"shot\", by = \"area\", conversion = \"goals per shot\" }",
    ));
    assert!(
        by.contains("figure `shots_by_area` counts events by a field (`by`)"),
        "{by}"
    );
}
