//! The `[match]` settings of two rulesets compared: its numbers, its procedures, the
//! turn's stages and what the rules need of the numbers (`[match.needs.KEY]`).

use fuba_engine::ruleset::raw::RawMatch;

use super::Diff;

/// Adds the differences of `[match]` between `ma` and `mb`.
pub(super) fn match_settings(d: &mut Diff, ma: &RawMatch, mb: &RawMatch) {
    macro_rules! setting {
        ($f:ident, $show:expr) => {
            d.value(
                "match",
                stringify!($f),
                ma.$f.as_ref().map(|x| $show(x.get_ref())),
                mb.$f.as_ref().map(|x| $show(x.get_ref())),
            );
        };
    }
    setting!(halves, |x: &i64| x.to_string());
    setting!(max_turns_per_half, |x: &i64| x.to_string());
    setting!(start, |x: &String| x.clone());
    setting!(half_start, |x: &String| x.clone());
    setting!(turn_end, |x: &String| x.clone());
    setting!(ball_values, |x: &[i64; 2]| format!("{} to {}", x[0], x[1]));
    setting!(pieces, |x: &i64| x.to_string());
    setting!(count_cap, |x: &i64| x.to_string());
    let turn = |m: &fuba_engine::ruleset::raw::RawMatch| {
        (!m.turn.is_empty()).then(|| {
            m.turn
                .iter()
                .map(|s| s.get_ref().as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
    };
    let turn_a = turn(ma).map(|x| format!("[{x}]"));
    let turn_b = turn(mb).map(|x| format!("[{x}]"));
    d.value("match", "turn", turn_a, turn_b);
    d.map("match", "needs.", &ma.needs, &mb.needs, |n| {
        let num = |x: &Option<toml::Spanned<i64>>| x.as_ref().map(|v| v.get_ref().to_string());
        [
            ("at_least", num(&n.at_least)),
            ("at_most", num(&n.at_most)),
            (
                "covers",
                n.covers
                    .as_ref()
                    .map(|c| format!("{} to {}", c.get_ref()[0], c.get_ref()[1])),
            ),
            ("why", Some(n.why.get_ref().clone())),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
    });
}
