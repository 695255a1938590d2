//! The ruleset file as written: TOML read with serde, before anything is resolved.
//! Every key is described in `docs/ruleset-format.md`.

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

/// A whole ruleset file.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawRuleset {
    /// Name, title, source, and the edition it extends.
    #[serde(default)]
    pub meta: RawMeta,
    /// The board.
    #[serde(default)]
    pub board: RawBoard,
    /// Named constants usable in code.
    #[serde(default)]
    pub constants: IndexMap<String, Spanned<toml::Value>>,
    /// Match options: constants a player may set for a match (`--option NAME=VALUE`).
    #[serde(default)]
    pub options: IndexMap<String, RawOption>,
    /// State variables: `match`, `team` and `turn` scopes.
    #[serde(default)]
    pub state: RawState,
    /// The match structure.
    #[serde(default, rename = "match")]
    pub match_: RawMatch,
    /// Procedures.
    #[serde(default)]
    pub procedures: IndexMap<String, RawProcedure>,
    /// Dice tables.
    #[serde(default)]
    pub tables: IndexMap<String, RawTable>,
    /// Hook points.
    #[serde(default)]
    pub hooks: IndexMap<String, RawHook>,
    /// Rules attached to hooks.
    #[serde(default)]
    pub triggers: IndexMap<String, RawTrigger>,
    /// Narration templates by event kind.
    #[serde(default)]
    pub narration: IndexMap<String, Spanned<String>>,
    /// Match figures: a figure name and the event kinds it counts, or the event kind it
    /// breaks down by a field's value.
    #[serde(default)]
    pub figures: IndexMap<String, Spanned<RawFigure>>,
    /// What the scenario runner does with the rules (`docs/scenarios.md`).
    #[serde(default)]
    pub scenario: RawScenarioRules,
    /// Declared collections: typed records a rule iterates over and looks up
    /// (`[collections.NAME]`, docs/ruleset-format.md).
    #[serde(default)]
    pub collections: IndexMap<String, RawCollection>,
    /// The entries of each collection, by collection then entry name
    /// (`[entries.COLLECTION."Entry name"]`): field values, and an optional trigger.
    #[serde(default)]
    pub entries: IndexMap<String, IndexMap<String, Spanned<RawEntry>>>,
    /// What a layer removes from the ruleset it extends: `"procedures.NAME"`,
    /// `"tables.NAME"`, `"tables.NAME.rows.KEY"`, `"triggers.NAME"`, `"hooks.NAME"`,
    /// `"constants.NAME"`, `"narration.KIND"`, `"figures.NAME"`.
    #[serde(default)]
    pub remove: Vec<Spanned<String>>,
}

/// Just the `[meta] extends` of a file, read before the layers are laid out.
#[derive(Debug, Deserialize, Default)]
pub struct RawHead {
    /// `[meta]`, other keys ignored.
    #[serde(default)]
    pub meta: RawHeadMeta,
}

/// `[meta] extends` and `include`.
#[derive(Debug, Deserialize, Default)]
pub struct RawHeadMeta {
    /// Edition name or path.
    #[serde(default)]
    pub extends: Option<Spanned<String>>,
    /// Files whose entries are part of this one.
    #[serde(default)]
    pub include: Vec<Spanned<String>>,
}

/// `[meta]`.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawMeta {
    /// Short name (`original`).
    #[serde(default)]
    pub name: String,
    /// Human title.
    #[serde(default)]
    pub title: String,
    /// The rulebook it encodes.
    #[serde(default)]
    pub source: String,
    /// Edition name or path of the ruleset this one builds on.
    #[serde(default)]
    pub extends: Option<Spanned<String>>,
    /// Paths (relative to this file) of files holding more of this ruleset's entries
    /// (skills, weather, events kept apart); this file's own entries win over theirs,
    /// and a later file's over an earlier one's.
    #[serde(default)]
    pub include: Vec<Spanned<String>>,
}

/// `[board]`.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    /// Row of the halfway line.
    #[serde(default)]
    pub halfway: i32,
    /// Areas by name.
    #[serde(default)]
    pub areas: IndexMap<String, Spanned<RawArea>>,
    /// Links: `["A", "B", "straight" | "sideways" | "diagonal"]`.
    #[serde(default)]
    pub links: Vec<Spanned<Vec<String>>>,
    /// Named area sets per side.
    #[serde(default)]
    pub marks: IndexMap<String, Spanned<RawMark>>,
    /// Named per-area numbers, as seen by the team attacking north.
    #[serde(default)]
    pub numbers: IndexMap<String, IndexMap<String, i64>>,
}

/// One area.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawArea {
    /// `[from, to]` rows.
    pub rows: [i32; 2],
    /// `"south"` or `"north"` if the area touches that goal line.
    #[serde(default)]
    pub goal_line: Option<String>,
    /// The mirror image of the area.
    pub mirror: String,
    /// Zone for the team defending south, and north.
    pub zone: [String; 2],
}

/// A named set of areas for each side.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawMark {
    /// Areas for the team defending the south goal line.
    pub south: Vec<String>,
    /// Areas for the team defending the north goal line.
    pub north: Vec<String>,
}

/// `[options.NAME]`.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawOption {
    /// The value when the player sets nothing: an integer, a boolean or a string.
    pub default: Spanned<toml::Value>,
    /// What the option does.
    #[serde(default)]
    pub doc: String,
    /// The lowest value of an integer option.
    #[serde(default)]
    pub min: Option<Spanned<i64>>,
    /// The highest value of an integer option.
    #[serde(default)]
    pub max: Option<Spanned<i64>>,
}

/// `[state]`.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawState {
    /// Variables of the whole match.
    #[serde(default, rename = "match")]
    pub match_: IndexMap<String, Spanned<toml::Value>>,
    /// Variables held once per team.
    #[serde(default)]
    pub team: IndexMap<String, Spanned<toml::Value>>,
    /// Variables reset at the start of every turn.
    #[serde(default)]
    pub turn: IndexMap<String, Spanned<toml::Value>>,
    /// Per-team variables reset at the start of every turn.
    #[serde(default)]
    pub team_turn: IndexMap<String, Spanned<toml::Value>>,
}

/// `[match]`.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawMatch {
    /// Number of halves.
    #[serde(default)]
    pub halves: Option<Spanned<i64>>,
    /// A hard cap on turns per half; a runaway half ends with a recorded reason.
    #[serde(default)]
    pub max_turns_per_half: Option<Spanned<i64>>,
    /// Procedure run once before the first half.
    #[serde(default)]
    pub start: Option<Spanned<String>>,
    /// Procedure run at the start of every half.
    #[serde(default)]
    pub half_start: Option<Spanned<String>>,
    /// The stages of a turn, in order: procedure names.
    #[serde(default)]
    pub turn: Vec<Spanned<String>>,
    /// Procedure run at the end of every turn, also after `end_turn()`.
    #[serde(default)]
    pub turn_end: Option<Spanned<String>>,
    /// Lowest and highest ball value.
    #[serde(default)]
    pub ball_values: Option<Spanned<[i64; 2]>>,
    /// Pieces per team, goalkeeper included.
    #[serde(default)]
    pub pieces: Option<Spanned<i64>>,
    /// Largest number of pieces of one team counted in an area (0: no cap).
    #[serde(default)]
    pub count_cap: Option<Spanned<i64>>,
    /// What the rules need of the numbers above (`[match.needs.KEY]`), by key.
    #[serde(default)]
    pub needs: IndexMap<String, RawNeed>,
}

/// `[scenario]`: what a scenario's runner does with the rules.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawScenarioRules {
    /// Procedure (no parameters) run after a scenario's position is placed, before its
    /// run: it derives what follows from the position. Never run in a match.
    #[serde(default)]
    pub derive: Option<Spanned<String>>,
    /// The decision that places one piece in an area during a setup (`"setup"`): a
    /// scenario's `run.placements` answers it from the placement it gives.
    #[serde(default)]
    pub placement: Option<Spanned<String>>,
}

/// `[procedures.NAME]`.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawProcedure {
    /// Rulebook section.
    #[serde(default)]
    pub section: String,
    /// Parameters: `name: type, ...`.
    #[serde(default)]
    pub params: Option<Spanned<String>>,
    /// The body.
    #[serde(rename = "do")]
    pub body: Spanned<String>,
    /// A reading of the rulebook this procedure makes (also in docs/interpretations.md).
    #[serde(default)]
    pub interpretation: Option<String>,
}

/// `[tables.NAME]`.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    /// Rulebook section.
    #[serde(default)]
    pub section: String,
    /// Key domain: `d6`, `2d6`, `d66` (a pair of dice) or `labels` (may be left out
    /// when a layer only changes rows of a table it extends).
    #[serde(default)]
    pub dice: Option<Spanned<String>>,
    /// Rows by key.
    #[serde(default)]
    pub rows: IndexMap<String, Spanned<RawRow>>,
}

/// One row of a table.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    /// What the row says, in the rulebook's words.
    #[serde(default)]
    pub label: String,
    /// What it does; its value is the row's value.
    #[serde(rename = "do")]
    pub body: Spanned<String>,
}

/// `[hooks.NAME]`.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawHook {
    /// Parameters passed by the procedures that reach the hook.
    #[serde(default)]
    pub params: Option<Spanned<String>>,
    /// What the hook point is for.
    #[serde(default)]
    pub doc: String,
}

/// `[triggers.NAME]`.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawTrigger {
    /// The hook it attaches to.
    pub hook: Spanned<String>,
    /// Rulebook section.
    #[serde(default)]
    pub section: String,
    /// When it fires (always, if absent).
    #[serde(default)]
    pub when: Option<Spanned<String>>,
    /// What it does; an integer result adds to the hook's value.
    #[serde(rename = "do")]
    pub body: Spanned<String>,
}

/// A `[figures]` entry.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum RawFigure {
    /// `name = ["kind", ...]`: events of these kinds per match.
    Kinds(Vec<String>),
    /// `name = { events = ["kind", ...], conversion = "goals per shot" }`: events of these
    /// kinds per match, with the figure's other properties.
    Listed(RawListedFigure),
    /// `name = { event = "kind", by = "field", where = "test" }`.
    Event(RawEventFigure),
}

/// `name = { events = ["kind", ...], conversion = "goals per shot" }`: the list form of a
/// figure, written as a table to declare its properties.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawListedFigure {
    /// The event kinds counted.
    pub events: Vec<String>,
    /// Goals are a conversion of this figure's events: the label of goals per event.
    /// Checked by the loader (a non-empty string), hence any value here.
    #[serde(default)]
    pub conversion: Option<toml::Value>,
}

/// `name = { event = "kind", by = "field", where = "test" }`: events of one kind, counted
/// per match, or by the value of one of their fields over the batch (`by`); only those
/// passing a test on their fields (`where`).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawEventFigure {
    /// The event kind.
    pub event: String,
    /// The field whose values are counted.
    #[serde(default)]
    pub by: Option<String>,
    /// A condition in the effect language over the event's fields: only the events for
    /// which it holds are counted.
    #[serde(default, rename = "where")]
    pub test: Option<String>,
    /// Goals are a conversion of this figure's events: the label of goals per event
    /// (not of a breakdown). Checked by the loader (a non-empty string), hence any value.
    #[serde(default)]
    pub conversion: Option<toml::Value>,
}

impl RawFigure {
    /// The entry as written, for diffs and listings.
    pub fn describe(&self) -> String {
        match self {
            RawFigure::Kinds(kinds) => format!("{kinds:?}"),
            RawFigure::Listed(RawListedFigure { events, conversion }) => {
                format!("{events:?}{}", describe_conversion(conversion))
            }
            RawFigure::Event(RawEventFigure {
                event,
                by,
                test,
                conversion,
            }) => {
                let mut s = format!("{event:?}");
                if let Some(by) = by {
                    s.push_str(&format!(" by {by:?}"));
                }
                if let Some(t) = test {
                    s.push_str(&format!(" where {t:?}"));
                }
                s.push_str(&describe_conversion(conversion));
                s
            }
        }
    }
}

/// A figure's `conversion` as written, after its events (empty when it has none).
fn describe_conversion(conversion: &Option<toml::Value>) -> String {
    conversion
        .as_ref()
        .map_or(String::new(), |c| format!(" conversion {c}"))
}

/// `[collections.NAME]`: a collection's declaration.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawCollection {
    /// Rulebook section.
    #[serde(default)]
    pub section: String,
    /// What the collection holds.
    #[serde(default)]
    pub doc: String,
    /// The fields of every entry: `name = "int"` (`"str"`, `"bool"`), or
    /// `name = { type = "int", default = 1 }` for a field an entry may leave out.
    #[serde(default)]
    pub fields: IndexMap<String, Spanned<toml::Value>>,
    /// Per-team state of every entry: `key = initial value`; entry `i` (1-based, in
    /// declaration order) holds it in the team state variable `key_i`, read and set as
    /// `e.key[team]`.
    #[serde(default)]
    pub team_state: IndexMap<String, Spanned<toml::Value>>,
}

/// One entry of a collection: its field values, and `hook`, `when`, `do`, `section` when
/// the entry carries its own trigger.
pub type RawEntry = IndexMap<String, Spanned<toml::Value>>;

/// `[match.needs.KEY]`: bounds on a number of `[match]` and why the rules need them.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawNeed {
    /// The number may not be lower (`halves`, `max_turns_per_half`, `pieces`,
    /// `count_cap`).
    #[serde(default)]
    pub at_least: Option<Spanned<i64>>,
    /// The number may not be higher.
    #[serde(default)]
    pub at_most: Option<Spanned<i64>>,
    /// `ball_values` must include this range.
    #[serde(default)]
    pub covers: Option<Spanned<[i64; 2]>>,
    /// Why the rules need it: the rule and what it does with the number.
    pub why: Spanned<String>,
}
