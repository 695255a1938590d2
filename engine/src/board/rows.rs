//! The rows a board's areas and halfway line may take.

use super::{BoardError, BoardSpec};

/// The largest row number, either way from 0, that an area's rows or the halfway line may
/// take: far more than any board needs, and small enough that sums of rows never overflow.
pub const MAX_ROW: i32 = 10_000;

/// Checks the halfway row and every area's rows: each within [`MAX_ROW`] either way, and
/// an area's from low to high.
pub(super) fn check(spec: &BoardSpec) -> Result<(), BoardError> {
    let in_range = |row: i32| (-MAX_ROW..=MAX_ROW).contains(&row);
    let err = |key: String, message: String| Err(BoardError { key, message });
    if !in_range(spec.halfway) {
        let found = spec.halfway;
        let message = format!("the halfway row is -{MAX_ROW} to {MAX_ROW}, found {found}");
        return err("board.halfway".into(), message);
    }
    for (name, from, to, ..) in &spec.areas {
        let key = format!("board.areas.{name}.rows");
        if !in_range(*from) || !in_range(*to) {
            return err(
                key,
                format!("rows are -{MAX_ROW} to {MAX_ROW}, found {from}..{to}"),
            );
        }
        if from >= to {
            return err(
                key,
                format!("rows must go from low to high, found {from}..{to}"),
            );
        }
    }
    Ok(())
}
