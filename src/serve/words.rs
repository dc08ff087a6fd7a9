//! How the table's page shows a name under a face, where a caption is a card's width: a long
//! word (Finnish compounds: "Pelaajan muistilappu") would overflow it or, allowed to break
//! anywhere, break mid-syllable ("muistilapp / u"). The server marks each long word's
//! hyphenation points with soft hyphens (U+00AD, hypher's Knuth-Liang patterns for the
//! name's language), where the page's browser may have no hyphenation dictionary of its own;
//! the page takes those points only for a word it measures wider than its caption (a word
//! that fits is better whole), and says in which language each caption is. The names
//! themselves (what the engines, the moves and the log say) are never changed.

use std::collections::BTreeMap;

/// Words of at least this many letters get their hyphenation points: a caption under a
/// phone's card holds about ten letters of the page's type a line.
pub const LONG_WORD: usize = 10;

/// The soft hyphen: a place a word may break, shown as a hyphen only where it does.
const SOFT_HYPHEN: char = '\u{ad}';

/// hypher's language for a language code (`fi`, `en-GB`: its primary subtag), if it has
/// patterns for it.
fn language(code: &str) -> Option<hypher::Lang> {
    let primary = code.split(['-', '_']).next()?.to_ascii_lowercase();
    let bytes: [u8; 2] = primary.as_bytes().try_into().ok()?;
    hypher::Lang::from_iso(bytes)
}

/// `name` with a soft hyphen at each hyphenation point of its words of [`LONG_WORD`] letters
/// or more, in language `lang`; `None` when that marks nothing (no long word, or a language
/// hypher has no patterns for).
pub fn hyphenated(name: &str, lang: &str) -> Option<String> {
    let lang = language(lang)?;
    let mut out = String::with_capacity(name.len() + 8);
    let mut marked = false;
    // Runs of letters (a word) and of anything else, in turn.
    let mut rest = name;
    while let Some(first) = rest.chars().next() {
        let letters = first.is_alphabetic();
        let end = rest
            .char_indices()
            .find(|(_, c)| c.is_alphabetic() != letters)
            .map_or(rest.len(), |(i, _)| i);
        let (run, after) = rest.split_at(end);
        if letters && run.chars().count() >= LONG_WORD {
            let syllables: Vec<&str> = hypher::hyphenate(run, lang).collect();
            marked |= syllables.len() > 1;
            for (i, s) in syllables.iter().enumerate() {
                if i > 0 {
                    out.push(SOFT_HYPHEN);
                }
                out.push_str(s);
            }
        } else {
            out.push_str(run);
        }
        rest = after;
    }
    marked.then_some(out)
}

/// Each of `names` (with the language it is in) that [`hyphenated`] marks, with its marked
/// form: what a view gives the page to show under its faces.
pub fn shown<'a>(names: impl IntoIterator<Item = (&'a str, &'a str)>) -> BTreeMap<String, String> {
    names
        .into_iter()
        .filter_map(|(name, lang)| Some((name.to_string(), hyphenated(name, lang)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_long_finnish_word_breaks_between_its_syllables() {
        let shown = |name: &str| hyphenated(name, "fi").unwrap().replace(SOFT_HYPHEN, "-");
        // "Pelaajan" is short enough for a line of its own.
        assert_eq!(shown("Pelaajan muistilappu"), "Pelaajan muis-ti-lap-pu");
        assert_eq!(shown("Elementtipussi"), "Ele-ment-ti-pus-si");
    }

    #[test]
    fn short_words_unknown_languages_and_other_runs_are_left_as_they_are() {
        assert_eq!(hyphenated("Air tile", "en"), None, "no long word");
        assert_eq!(hyphenated("muistilappu", "xx"), None, "no patterns");
        assert_eq!(hyphenated("muistilappu", ""), None);
        // Digits, spaces and punctuation around a long word stay where they were.
        let s = hyphenated("Aether tile 12 (extraordinary!)", "en-GB").unwrap();
        assert!(s.starts_with("Aether tile 12 ("), "{s}");
        assert!(s.ends_with("!)"), "{s}");
        assert_eq!(s.replace('\u{ad}', ""), "Aether tile 12 (extraordinary!)");
        assert!(s.contains('\u{ad}'), "{s}");
    }

    proptest! {
        /// Any name, in any language code: no panic, and the marks are all that is added.
        #[test]
        fn marking_adds_soft_hyphens_only(name in "\\PC{0,60}", lang in "(fi|en|de|sv|\\PC{0,4})") {
            if let Some(s) = hyphenated(&name, &lang) {
                let marks = |t: &str| t.chars().filter(|c| *c == SOFT_HYPHEN).count();
                let unmarked = |t: &str| t.replace(SOFT_HYPHEN, "");
                prop_assert_eq!(unmarked(&s), unmarked(&name));
                prop_assert!(marks(&s) > marks(&name));
            }
        }
    }
}
