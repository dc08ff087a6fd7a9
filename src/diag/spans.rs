//! Where a value stands in a TOML file, for values the model keeps without a span (a deck's
//! `template`, `min_text_pt`): the file is read again with spans, and the value found by its
//! path of keys and array indexes.

use std::ops::Range;

use toml::de::{DeTable, DeValue};

use crate::diag::{Problem, SourceFile};

/// One step of a path into a TOML document.
#[derive(Debug, Clone, Copy)]
pub enum Key<'a> {
    /// A key of a table.
    Name(&'a str),
    /// An item of an array (or of an array of tables, `[[deck]]`).
    At(usize),
}

/// The span of the value at `path` in a TOML text; `None` when the text does not parse or
/// holds no such value.
pub fn value_span(text: &str, path: &[Key]) -> Option<Range<usize>> {
    let root = DeTable::parse(text).ok()?;
    let mut span = root.span();
    let mut table = Some(root.get_ref());
    let mut value: Option<&DeValue> = None;
    for key in path {
        let next = match (key, table, value) {
            (Key::Name(name), Some(t), _) => t
                .iter()
                .find(|(k, _)| k.get_ref().as_ref() == *name)
                .map(|(_, v)| v),
            (Key::At(i), None, Some(DeValue::Array(items))) => items.get(*i),
            _ => None,
        }?;
        span = next.span();
        value = Some(next.get_ref());
        table = match next.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        };
    }
    Some(span)
}

/// A problem at the value `path` of `file` when it can be found, else in the file.
pub fn at_value(
    problem: Problem,
    file: &SourceFile,
    path: &[Key],
    label: impl Into<String>,
) -> Problem {
    match value_span(&file.text, path) {
        Some(span) => problem.at(file, span, label),
        None => problem.in_file(file),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_values_in_tables_arrays_of_tables_and_inline_tables() {
        let text = "[game]\nname = \"x\"\nmin_text_pt = 100\n\n[[deck]]\nid = \"a\"\n\
                    template = \"card\"\n\n[[deck]]\nid = \"b\"\ntemplate = \"../../etc/passwd\"\n\
                    back = { template = \"back\", title = \"t\" }\n";
        let at = |path: &[Key]| value_span(text, path).map(|s| &text[s]);
        assert_eq!(
            at(&[Key::Name("game"), Key::Name("min_text_pt")]),
            Some("100")
        );
        assert_eq!(
            at(&[Key::Name("deck"), Key::At(1), Key::Name("template")]),
            Some("\"../../etc/passwd\"")
        );
        assert_eq!(
            at(&[
                Key::Name("deck"),
                Key::At(1),
                Key::Name("back"),
                Key::Name("template")
            ]),
            Some("\"back\"")
        );
        assert_eq!(at(&[Key::Name("deck"), Key::At(2)]), None);
        assert_eq!(at(&[Key::Name("nothing")]), None);
        assert_eq!(value_span("not = = toml", &[Key::Name("not")]), None);
    }
}
