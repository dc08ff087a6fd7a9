//! `translate export` and `translate import`: a language's texts to and from a PO file.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::PathBuf;

use super::po::{Catalog, Entry, PoError};
use super::{Coverage, Mark, State, coverage, digest, marks, texts};
use crate::diag::{Problem, SourceFile};
use crate::model::{Game, RulesText, rules_text_file};

/// A translation as gettext tools want it beside its source: when the source begins or ends
/// with a newline, so does the translation, and when it does not, neither does the
/// translation (`msgfmt --check` requires it; Markdown reads both alike).
pub fn fit(msgid: &str, msgstr: &str) -> String {
    if msgstr.is_empty() {
        return String::new();
    }
    let mut s = msgstr.trim_matches('\n').to_string();
    if msgid.starts_with('\n') {
        s.insert(0, '\n');
    }
    if msgid.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The PO file of a language's texts: one entry per key of the source, `msgctxt` the key,
/// `msgid` the source text, `msgstr` the translation (empty when missing). A stale text is
/// `#, fuzzy` with the source text it was made from as `#| msgid`; an unmarked one is fuzzy
/// too, since nothing says what it was made from.
pub fn export(game: &Game, lang: &str) -> Result<String, Vec<Problem>> {
    let c = coverage(game, lang)?;
    let source_file = &game.rules.texts[&c.source_lang].file;
    let source_name = rules_text_file(&c.source_lang);
    let catalog = Catalog {
        title: vec![
            format!(
                "{}: the `{lang}` texts of {}, translated from {source_name}.",
                game.info.name,
                rules_text_file(lang)
            ),
            format!(
                "Written by `printplay translate export {} {lang}`; read back with \
                 `printplay translate import {} {lang} FILE`.",
                game.slug, game.slug
            ),
            "msgctxt is the text's key; a fuzzy text's source has changed since it was \
             translated."
                .to_string(),
        ],
        header: vec![
            ("Project-Id-Version".into(), game.slug.clone()),
            // Filled in by the translator's tool; left empty so the same data exports the
            // same bytes.
            ("PO-Revision-Date".into(), String::new()),
            ("Last-Translator".into(), String::new()),
            ("Language-Team".into(), String::new()),
            ("Language".into(), lang.to_string()),
            ("MIME-Version".into(), "1.0".into()),
            ("Content-Type".into(), "text/plain; charset=UTF-8".into()),
            ("Content-Transfer-Encoding".into(), "8bit".into()),
            ("X-Source-Language".into(), c.source_lang.clone()),
        ],
        entries: c
            .keys
            .iter()
            .map(|k| {
                let fuzzy = matches!(k.state, State::Stale | State::Unmarked);
                let previous = match (k.state, &k.marked) {
                    (State::Stale, Some(m)) => m.text.clone(),
                    _ => None,
                };
                Entry {
                    comments: Vec::new(),
                    references: vec![format!(
                        "{source_name}:{}",
                        source_file.line_col(k.source.span.start).0
                    )],
                    fuzzy,
                    previous,
                    msgctxt: Some(k.key.clone()),
                    msgid: k.source.value.clone(),
                    msgstr: k
                        .translated
                        .as_ref()
                        .map(|t| fit(&k.source.value, &t.value))
                        .unwrap_or_default(),
                    line: 0,
                }
            })
            .collect(),
    };
    Ok(catalog.write())
}

/// What an import changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// Texts whose translation changed.
    pub changed: Vec<String>,
    /// Texts newly marked as translated from their entry's `msgid`.
    pub marked: Vec<String>,
    /// The files written.
    pub written: Vec<PathBuf>,
}

/// The place of a line of a PO file, for a problem.
fn at_line(po: &SourceFile, line: usize, problem: Problem, label: &str) -> Problem {
    let start: usize = po
        .text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let end = po.text[start.min(po.text.len())..]
        .find('\n')
        .map_or(po.text.len(), |e| start + e);
    problem.at(po, start.min(end)..end, label)
}

/// Reads a PO file of `lang` into the game's `rules.<lang>.toml` and marks: a text whose
/// `msgstr` differs from the file's is written into the file in place, and a text that is not
/// fuzzy is marked as translated from its `msgid`. A key the source lacks, a key twice, a
/// malformed file or one of another language is refused at its line, and nothing is written.
pub fn import(game: &Game, lang: &str, po: &SourceFile) -> Result<Imported, Vec<Problem>> {
    let c = coverage(game, lang)?;
    let catalog = Catalog::read(&po.text).map_err(|PoError { line, message }| {
        vec![at_line(po, line, Problem::data(message), "here")]
    })?;
    let mut problems = Vec::new();
    if let Some(l) = catalog.field("Language")
        && !l.is_empty()
        && l != lang
    {
        problems.push(at_line(
            po,
            1,
            Problem::data(format!(
                "the file's header says `Language: {l}`; it is not a `{lang}` translation"
            )),
            "the header",
        ));
    }
    let target = &game.rules.texts[lang];
    let mut seen = BTreeSet::new();
    let mut edits: Vec<(Range<usize>, String, String)> = Vec::new();
    let mut marks = c.marks.clone();
    let mut imported = Imported::default();
    for e in &catalog.entries {
        let Some(key) = &e.msgctxt else {
            problems.push(at_line(
                po,
                e.line,
                Problem::data("an entry without `msgctxt`: every text is named by its key"),
                "this entry",
            ));
            continue;
        };
        let Some(k) = c.keys.iter().find(|k| &k.key == key) else {
            problems.push(at_line(
                po,
                e.line,
                Problem::data(format!(
                    "`{key}` is not a key of {}",
                    rules_text_file(&c.source_lang)
                ))
                .help(format!(
                    "export the file again (`printplay translate export {} {lang}`)",
                    game.slug
                )),
                "this entry",
            ));
            continue;
        };
        if !seen.insert(key.clone()) {
            problems.push(at_line(
                po,
                e.line,
                Problem::data(format!("`{key}` a second time")),
                "this entry",
            ));
            continue;
        }
        if e.msgstr.is_empty() {
            continue;
        }
        match &k.translated {
            Some(t) if fit(&e.msgid, &t.value) == e.msgstr || t.value == e.msgstr => {}
            Some(t) => edits.push((t.span.clone(), key.clone(), e.msgstr.clone())),
            None => {
                problems.push(at_line(
                    po,
                    e.line,
                    Problem::data(format!(
                        "`{key}` is not in {} yet: add the key there (any text), then import",
                        rules_text_file(lang)
                    )),
                    "this entry",
                ));
                continue;
            }
        }
        if !e.fuzzy {
            let new = Mark {
                digest: digest(&e.msgid),
                text: Some(e.msgid.clone()),
                span: 0..0,
            };
            let same = marks
                .from
                .get(key)
                .is_some_and(|m| m.digest == new.digest && m.text == new.text);
            if !same {
                marks.from.insert(key.clone(), new);
                imported.marked.push(key.clone());
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let new_text = apply(&target.file, &edits)?;
    if !edits.is_empty() {
        let path = game.dir.join(rules_text_file(lang));
        crate::output::write_atomic(&path, new_text.as_bytes())
            .map_err(|e| vec![Problem::io_write(&path, e)])?;
        imported.written.push(path);
        imported.changed = edits.iter().map(|(_, k, _)| k.clone()).collect();
    }
    if !imported.marked.is_empty() {
        marks.source = Some(c.source_lang.clone());
        imported.written.push(marks::save(game, lang, &marks)?);
    }
    Ok(imported)
}

/// The file's text with each edit's value literal replaced, checked by reading it back: the
/// file still parses as prose and each edited key holds exactly its new text.
fn apply(
    file: &SourceFile,
    edits: &[(Range<usize>, String, String)],
) -> Result<String, Vec<Problem>> {
    let mut sorted: Vec<&(Range<usize>, String, String)> = edits.iter().collect();
    sorted.sort_by_key(|(span, _, _)| std::cmp::Reverse(span.start));
    let mut text = file.text.to_string();
    for (span, _, value) in &sorted {
        let multi = text[span.clone()].starts_with("\"\"\"")
            || text[span.clone()].starts_with("'''")
            || value.contains('\n');
        text.replace_range(span.clone(), &toml_string(value, multi));
    }
    let check = SourceFile::new(file.path.clone(), text.as_str());
    crate::model::parse::<RulesText>(&check).map_err(|p| vec![p])?;
    let back: BTreeMap<String, String> = texts(&check)?
        .into_iter()
        .map(|t| (t.key, t.value))
        .collect();
    for (_, key, value) in edits {
        if back.get(key) != Some(value) {
            return Err(vec![Problem::build(format!(
                "`{key}` does not read back as imported; nothing was written"
            ))]);
        }
    }
    Ok(text)
}

/// A TOML basic string holding `s`: multi-line (`"""`, the text on the lines after it) or on
/// one line, every backslash, quote and control character escaped.
pub fn toml_string(s: &str, multi: bool) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str(if multi { "\"\"\"\n" } else { "\"" });
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' if multi => out.push('\n'),
            '\n' => out.push_str("\\n"),
            '\t' => out.push('\t'),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push_str(if multi { "\"\"\"" } else { "\"" });
    out
}

/// `translate status`: per language, the counts and the keys that are not done.
pub fn status_text(game: &Game) -> Result<String, Vec<Problem>> {
    let mut out = String::new();
    let langs = super::target_languages(game);
    let source = super::source_language(game).unwrap_or_default();
    if langs.is_empty() {
        out.push_str(&format!(
            "{}: no translations (its prose is in `{source}` only)\n",
            game.slug
        ));
        return Ok(out);
    }
    for lang in langs {
        let c: Coverage = coverage(game, &lang)?;
        out.push_str(&format!(
            "{} {lang} (from {}): {} texts: {} done, {} stale, {} unmarked, {} missing{}\n",
            game.slug,
            c.source_lang,
            c.keys.len(),
            c.count(State::Done),
            c.count(State::Stale),
            c.count(State::Unmarked),
            c.count(State::Missing),
            if c.marks_file.is_none() {
                format!(" (no {} yet)", super::marks_file(&lang))
            } else {
                String::new()
            }
        ));
        for state in [State::Stale, State::Unmarked, State::Missing] {
            for key in c.keys_in(state) {
                out.push_str(&format!("  {:<9}{key}\n", state.word()));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toml_string_reads_back_as_itself() {
        for s in [
            "plain",
            "two\nlines\n",
            "quote \"\"\" and \\ back",
            "\u{1}\t\r",
            "\nlead",
        ] {
            for multi in [false, true] {
                let doc = format!("k = {}\n", toml_string(s, multi));
                let v: toml::Table = toml::from_str(&doc).unwrap();
                assert_eq!(v["k"].as_str(), Some(s), "{doc}");
            }
        }
    }

    #[test]
    fn fit_matches_the_source_newlines() {
        assert_eq!(fit("a\n", "b"), "b\n");
        assert_eq!(fit("a", "b\n"), "b");
        assert_eq!(fit("\na", "b"), "\nb");
        assert_eq!(fit("a\n", ""), "");
    }
}
