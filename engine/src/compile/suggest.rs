//! "Did you mean" hints: the known name closest to a misspelt one, by edit distance.

/// The name among `names` closest to `want`, if one is close enough to be a likely
/// misspelling: at most 2 edits or a third of `want`'s length, whichever is more, and
/// fewer edits than the candidate has letters.
pub(crate) fn closest_name<'a>(
    want: &str,
    names: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    names
        .map(|n| (edit_distance(want, n), n))
        .filter(|(d, n)| *d <= 2.max(want.len() / 3) && *d < n.len())
        .min()
        .map(|(_, n)| n)
}

/// Levenshtein distance, for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
