//! Translations that know when they are stale.
//!
//! Every string of a `rules.<lang>.toml` is a *text* with a key (`goal`,
//! `components.pieces.elemental.purpose`, `variant.tie.title`, `question.2.answer`). When a
//! translator finishes a text, `printplay translate mark GAME LANG` records in
//! `translated.<lang>.toml` which source-language text (by a digest, and the text itself) each
//! translation was made from. `check` then warns at the translated key when its source has
//! changed since, `translate status` counts missing, stale and done texts per language, and
//! `translate export`/`import` move the texts through a PO file for gettext tools.

mod keys;
mod marks;
pub mod po;
mod transfer;

use std::collections::BTreeMap;
use std::ops::Range;

pub use keys::{Text, texts};
pub use marks::{Mark, Marks, digest, marks_file};
pub use transfer::{Imported, export, fit, import, status_text, toml_string};

use crate::diag::{Problem, SourceFile};
use crate::model::{Game, rules_text_file};

/// Where a translated text stands against its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    /// The source has the key; the translation does not.
    Missing,
    /// Translated, but never marked: nobody recorded which source text it was made from.
    Unmarked,
    /// The source has changed since the translation was marked.
    Stale,
    /// Translated from the current source.
    Done,
}

impl State {
    pub fn word(self) -> &'static str {
        match self {
            State::Missing => "missing",
            State::Unmarked => "unmarked",
            State::Stale => "stale",
            State::Done => "done",
        }
    }
}

/// One key of a translation, its source text and its state.
#[derive(Debug, Clone)]
pub struct KeyState {
    pub key: String,
    pub state: State,
    /// The source language's text.
    pub source: Text,
    /// The translation, when there is one.
    pub translated: Option<Text>,
    /// The source text the translation was marked as made from, when recorded.
    pub marked: Option<Mark>,
}

/// A language's translation against its source, key by key, in the source's order.
#[derive(Debug, Clone)]
pub struct Coverage {
    pub lang: String,
    pub source_lang: String,
    pub keys: Vec<KeyState>,
    /// The marks file, when the language has one.
    pub marks_file: Option<SourceFile>,
    /// The marks as read (empty when there is no marks file).
    pub marks: Marks,
}

impl Coverage {
    pub fn count(&self, state: State) -> usize {
        self.keys.iter().filter(|k| k.state == state).count()
    }

    /// The keys in one state.
    pub fn keys_in(&self, state: State) -> impl Iterator<Item = &str> {
        self.keys
            .iter()
            .filter(move |k| k.state == state)
            .map(|k| k.key.as_str())
    }

    /// The state of one key (`None` when the source has no such key).
    pub fn state_of(&self, key: &str) -> Option<State> {
        self.keys.iter().find(|k| k.key == key).map(|k| k.state)
    }
}

/// The source language of a game's translations: English when the game has English prose,
/// else the first language of `game.toml` that has prose.
pub fn source_language(game: &Game) -> Option<String> {
    if game.rules.texts.contains_key("en") {
        return Some("en".to_string());
    }
    game.info
        .languages
        .iter()
        .find(|l| game.rules.texts.contains_key(*l))
        .cloned()
        .or_else(|| game.rules.texts.keys().next().cloned())
}

/// The languages a game is translated into: every language with prose but the source.
pub fn target_languages(game: &Game) -> Vec<String> {
    let source = source_language(game);
    game.rules
        .texts
        .keys()
        .filter(|l| Some(*l) != source.as_ref())
        .cloned()
        .collect()
}

/// The coverage of one language against its source (the marks file's `source`, or
/// [`source_language`]). Problems reading the prose or the marks file are returned.
pub fn coverage(game: &Game, lang: &str) -> Result<Coverage, Vec<Problem>> {
    let Some(target) = game.rules.texts.get(lang) else {
        return Err(vec![Problem::data(format!(
            "{} has no {}: the languages with prose are {}",
            game.slug,
            rules_text_file(lang),
            game.rules
                .texts
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ))]);
    };
    let (marks_file, marks) = match marks::load(game, lang) {
        Ok(Some((f, m))) => (Some(f), m),
        Ok(None) => (None, Marks::default()),
        Err(p) => return Err(vec![p]),
    };
    let source_lang = match &marks.source {
        Some(s) => s.clone(),
        None => source_language(game).unwrap_or_default(),
    };
    if source_lang == lang {
        return Err(vec![
            Problem::data(format!(
                "`{lang}` is the source language of {}; it is not a translation",
                game.slug
            ))
            .help("name a language the game is translated into"),
        ]);
    }
    let Some(source) = game.rules.texts.get(&source_lang) else {
        let p = Problem::data(format!(
            "the source language `{source_lang}` has no {}",
            rules_text_file(&source_lang)
        ));
        return Err(vec![match &marks_file {
            Some(f) => p.in_file(f),
            None => p,
        }]);
    };
    let source_texts = texts(&source.file)?;
    let translated: BTreeMap<String, Text> = texts(&target.file)?
        .into_iter()
        .map(|t| (t.key.clone(), t))
        .collect();
    let keys = source_texts
        .into_iter()
        .map(|s| {
            let translated = translated.get(&s.key).cloned();
            let marked = marks.from.get(&s.key).cloned();
            let state = match (&translated, &marked) {
                (None, _) => State::Missing,
                (Some(_), None) => State::Unmarked,
                (Some(_), Some(m)) if m.digest == digest(&s.value) => State::Done,
                (Some(_), Some(_)) => State::Stale,
            };
            KeyState {
                key: s.key.clone(),
                state,
                source: s,
                translated,
                marked,
            }
        })
        .collect();
    Ok(Coverage {
        lang: lang.to_string(),
        source_lang,
        keys,
        marks_file,
        marks,
    })
}

/// The keys of a language whose translation is stale (the rules page marks them).
pub fn stale_keys(game: &Game, lang: &str) -> Vec<String> {
    match coverage(game, lang) {
        Ok(c) if c.marks_file.is_some() => c.keys_in(State::Stale).map(String::from).collect(),
        _ => Vec::new(),
    }
}

/// `check`'s warnings: for each translated language that keeps marks, a warning at each
/// translated key whose source has changed since it was marked, and at each translated key
/// never marked. A game whose translations keep no marks gets none.
pub fn check(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    for lang in target_languages(game) {
        let has_marks = matches!(marks::load(game, &lang), Ok(Some(_)));
        if !has_marks {
            continue;
        }
        let coverage = match coverage(game, &lang) {
            Ok(c) => c,
            Err(ps) => {
                out.extend(ps);
                continue;
            }
        };
        let Some(target) = game.rules.texts.get(&lang) else {
            continue;
        };
        let source_file = &game.rules.texts[&coverage.source_lang].file;
        let mark = format!("printplay translate mark {} {lang}", game.slug);
        for k in &coverage.keys {
            let Some(t) = &k.translated else { continue };
            match k.state {
                State::Stale => out.push(
                    Problem::warning(format!(
                        "`{}` was translated from an older version of its `{}` text ({})",
                        k.key,
                        coverage.source_lang,
                        source_file.place(k.source.span.start)
                    ))
                    .at(
                        &target.file,
                        t.span.clone(),
                        "translated from an older text",
                    )
                    .rule("a translation follows its source")
                    .help(format!(
                        "translate it again from the {} text, then run `{mark} {}`",
                        coverage.source_lang, k.key
                    )),
                ),
                State::Unmarked => out.push(
                    Problem::warning(format!(
                        "`{}` is not marked: nothing records which {} text it was translated from",
                        k.key, coverage.source_lang
                    ))
                    .at(&target.file, t.span.clone(), "never marked")
                    .rule("a translation follows its source")
                    .help(format!(
                        "when the translation is done, run `{mark} {}`",
                        k.key
                    )),
                ),
                State::Missing | State::Done => {}
            }
        }
        // A mark for a key the source no longer has is left over from an older text.
        if let Some(file) = &coverage.marks_file {
            for (key, m) in &coverage.marks.from {
                if coverage.state_of(key).is_none() {
                    out.push(
                        Problem::warning(format!(
                            "the mark of `{key}` names a text the {} prose no longer has",
                            coverage.source_lang
                        ))
                        .at(file, m.span.clone(), "this mark")
                        .help(format!("`{mark}` drops it")),
                    );
                }
            }
        }
    }
    out
}

/// Marks translated texts of `lang` as made from the current source: every translated key, or
/// only `only` when it names keys. Writes `translated.<lang>.toml` (atomically) and returns
/// its path and how many keys were marked now.
pub fn mark(
    game: &Game,
    lang: &str,
    only: &[String],
) -> Result<(std::path::PathBuf, usize), Vec<Problem>> {
    let coverage = coverage(game, lang)?;
    let mut problems = Vec::new();
    for key in only {
        match coverage.state_of(key) {
            None => problems.push(Problem::data(format!(
                "`{key}` is not a key of {}",
                rules_text_file(&coverage.source_lang)
            ))),
            Some(State::Missing) => problems.push(Problem::data(format!(
                "`{key}` has no translation in {}: translate it before marking it",
                rules_text_file(lang)
            ))),
            Some(_) => {}
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut marks = coverage.marks.clone();
    marks.source = Some(coverage.source_lang.clone());
    // Marks of keys the source no longer has are dropped.
    marks
        .from
        .retain(|k, _| coverage.state_of(k).is_some_and(|s| s != State::Missing));
    let mut count = 0;
    for k in &coverage.keys {
        if k.translated.is_none() || !(only.is_empty() || only.contains(&k.key)) {
            continue;
        }
        marks.from.insert(k.key.clone(), Mark::of(&k.source.value));
        count += 1;
    }
    let path = marks::save(game, lang, &marks)?;
    Ok((path, count))
}

/// Where in a file a key's text sits (a value's span), for placing problems.
pub fn span_of(texts: &[Text], key: &str) -> Option<Range<usize>> {
    texts.iter().find(|t| t.key == key).map(|t| t.span.clone())
}
