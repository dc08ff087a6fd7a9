//! The texts of a `rules.<lang>.toml`, each under a key that names it in every language.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diag::{Problem, SourceFile};

/// One translatable text: its key, its value and where the value's literal is in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    /// `goal`, `components.pieces.elemental.purpose`, `variant.tie.title`, `question.2.answer`.
    pub key: String,
    pub value: String,
    /// The value's literal (quotes included) in the file.
    pub span: Range<usize>,
}

/// The fields of a `[[variant]]` that name the engine's values: the same in every language,
/// never translated.
const VARIANT_CODES: [&str; 3] = ["id", "default", "values"];

/// Every text of a rules prose file, in the order the file has them. An array of tables is
/// keyed by each table's `id` when it has one (`variant.tie.title`), else by its position
/// (`question.2.answer`).
pub fn texts(file: &SourceFile) -> Result<Vec<Text>, Vec<Problem>> {
    let root = DeTable::parse(&file.text).map_err(|e| {
        let p = Problem::data(format!("the file is not TOML: {}", e.message().trim()));
        vec![match e.span() {
            Some(s) => p.at(file, s, "here"),
            None => p.in_file(file),
        }]
    })?;
    let mut out = Vec::new();
    walk_table(root.get_ref(), "", &mut out);
    out.sort_by_key(|t| t.span.start);
    Ok(out)
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn walk_table(table: &DeTable<'_>, prefix: &str, out: &mut Vec<Text>) {
    for (k, v) in table.iter() {
        let key = k.get_ref().as_ref();
        let is_variant_field = prefix.starts_with("variant.") && !prefix[8..].contains('.');
        if is_variant_field && VARIANT_CODES.contains(&key) {
            continue;
        }
        walk_value(v, &join(prefix, key), out);
    }
}

fn walk_value(v: &Spanned<DeValue<'_>>, key: &str, out: &mut Vec<Text>) {
    match v.get_ref() {
        DeValue::String(s) => out.push(Text {
            key: key.to_string(),
            value: s.to_string(),
            span: v.span(),
        }),
        DeValue::Table(t) => walk_table(t, key, out),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let name = match item.get_ref() {
                    DeValue::Table(t) => t
                        .iter()
                        .find(|(k, _)| k.get_ref() == "id")
                        .and_then(|(_, id)| match id.get_ref() {
                            DeValue::String(s) => Some(s.to_string()),
                            _ => None,
                        })
                        .unwrap_or_else(|| i.to_string()),
                    _ => i.to_string(),
                };
                walk_value(item, &join(key, &name), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_has_a_key_and_its_literal() {
        let text = "goal = \"Win.\"\n[[variant]]\nid = \"tie\"\ntitle = \"Ties\"\ndefault = \"a\"\nvalues = [\"a\", \"b\"]\n[[question]]\nquestion = \"Q?\"\nanswer = \"\"\"\nA.\n\"\"\"\n[components.\"deck.x\"]\npurpose = 'P'\n";
        let file = SourceFile::new("rules.en.toml", text);
        let t = texts(&file).unwrap();
        let keys: Vec<&str> = t.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "goal",
                "variant.tie.title",
                "question.0.question",
                "question.0.answer",
                "components.deck.x.purpose"
            ]
        );
        for t in &t {
            let literal = &text[t.span.clone()];
            assert!(
                literal.starts_with(['"', '\'']) && literal.ends_with(['"', '\'']),
                "{literal}"
            );
        }
        assert_eq!(t[3].value, "A.\n");
    }
}
