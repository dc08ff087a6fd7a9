//! `printplay check` for the rules prose: every placeholder resolves, the Markdown is safe, every
//! component says what it is for, every diagram has its words, every language of the game has
//! its prose, and the glossary's terms are the words the prose uses.

use std::collections::BTreeSet;

use super::placeholders::{HoleError, Resolver, Wording, fill};
use super::{Assets, Format, markdown};
use crate::diag::{Problem, SourceFile};
use crate::model::{Game, LangRules, Prose, RulesText};

/// Every problem with a game's rules prose; empty when the game has none or it is sound.
pub fn check(game: &Game) -> Vec<Problem> {
    let rules = &game.rules;
    if rules.texts.is_empty() && rules.meta_file.is_none() {
        // An original design may go without a rules reference; a game that cites a
        // rulebook needs its prose, or the build's rules stage would fail.
        return if game.is_original() {
            Vec::new()
        } else {
            missing_languages(game)
        };
    }
    let assets = match Assets::load_default() {
        Ok(a) => a,
        Err(p) => return vec![p],
    };
    let mut out = missing_languages(game);
    out.extend(markup_in_names(game));
    let values = match super::diagrams::values(game) {
        Ok(v) => v,
        Err(e) => {
            out.push(meta_problem(
                game,
                format!("a diagram cannot be computed: {e}"),
            ));
            return out;
        }
    };
    for (lang, lr) in &rules.texts {
        let Some(msgs) = assets.messages(lang) else {
            out.push(
                Problem::data(format!(
                    "there is no message file for `{lang}`: add templates/i18n/{lang}.toml"
                ))
                .in_file(&lr.file),
            );
            continue;
        };
        let resolver = Resolver {
            game,
            extra: &values,
        };
        let wording = Wording::new(msgs, Some(&lr.text.nouns));
        for prose in all_prose(&lr.text) {
            out.extend(prose_problems(lr, prose, &resolver, &wording));
        }
        out.extend(component_keys(game, lr));
        out.extend(diagram_texts(game, lr));
        out.extend(variant_values(lr));
        out.extend(super::provenance::problems(game, lang, lr));
        out.extend(symbol_groups(game, lr));
        out.extend(image_files(game, lr));
    }
    out.extend(glossary(game));
    out.extend(super::style::check(game, &assets));
    // One cause, one problem: a parameter several placeholders read is said once, at itself.
    let mut seen: Vec<(String, Option<String>)> = Vec::new();
    out.retain(|p| {
        let key = (p.message.clone(), p.location());
        let first = !seen.contains(&key);
        seen.push(key);
        first
    });
    out.extend(super::links::text_warnings(game));
    if !out.iter().any(|p| !p.is_warning()) {
        let rendered = trial_render(game, &assets);
        if rendered.is_empty() {
            out.extend(super::links::link_warnings(game, &assets));
        }
        out.extend(rendered);
    }
    out
}

/// Names and credits the reference shows are plain text: one that holds HTML markup
/// (`<script>`) is an error, placed where its text is in the data.
fn markup_in_names(game: &Game) -> Vec<Problem> {
    let info = &game.info;
    let c = &game.components;
    let in_game = |s: &'_ str| (&game.game_file, s.to_string());
    let mut texts = vec![in_game(&info.name), in_game(&info.designer)];
    texts.extend(info.publisher.as_deref().map(in_game));
    texts.extend(info.names.values().map(|n| in_game(n)));
    let in_components = |s: &'_ str| (&game.components_file, s.to_string());
    for d in &c.decks {
        texts.push(in_components(&d.name));
        texts.extend(d.names.values().map(|n| in_components(n)));
        for card in &d.cards {
            texts.push(in_components(&card.name));
            texts.extend(card.names.values().map(|n| in_components(n)));
        }
    }
    for p in &c.pieces {
        texts.push(in_components(&p.name));
        texts.extend(p.names.values().map(|n| in_components(n)));
    }
    for s in &c.symbols {
        texts.push(in_components(&s.name));
        texts.extend(s.names.values().map(|n| in_components(n)));
    }
    let mut out = Vec::new();
    for (file, text) in texts {
        let Some(at) = markup_at(&text) else {
            continue;
        };
        let tag: String = text[at..]
            .chars()
            .take_while(|c| *c != '>')
            .chain(['>'])
            .collect();
        let problem = Problem::data(format!(
            "`{text}` holds HTML markup ({tag}); names and credits are plain text"
        ));
        out.push(match file.text.find(text.as_str()) {
            Some(start) => problem.at(file, start..start + text.len(), "here"),
            None => problem.in_file(file),
        });
    }
    out
}

/// Where a text holds something a browser would read as a tag (`<script`, `</b`, `<!--`).
fn markup_at(text: &str) -> Option<usize> {
    text.match_indices('<').map(|(i, _)| i).find(|&i| {
        text[i + 1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!' || c == '?')
    })
}

/// A problem in `rules.toml` (or the game file when there is none).
fn meta_problem(game: &Game, message: String) -> Problem {
    let p = Problem::data(message);
    match &game.rules.meta_file {
        Some(f) => p.in_file(f),
        None => p.in_file(&game.game_file),
    }
}

fn missing_languages(game: &Game) -> Vec<Problem> {
    game.info
        .languages
        .iter()
        .enumerate()
        .filter(|(_, l)| !game.rules.texts.contains_key(*l))
        .map(|(i, l)| {
            use crate::diag::spans::{Key, at_value};
            let problem = Problem::data(format!(
                "the game is published in `{l}` but has no {}",
                crate::model::rules_text_file(l)
            ))
            .rule("every language in [game] languages has its rules prose");
            // At the language in `languages` (a game that cites a rulebook has `en` by
            // default, written nowhere: then the file).
            let path = [Key::Name("game"), Key::Name("languages"), Key::At(i)];
            at_value(problem, &game.game_file, &path, "here")
        })
        .collect()
}

/// Every Markdown text of a language file.
pub fn all_prose(t: &RulesText) -> Vec<&Prose> {
    let mut out = vec![&t.overview, &t.goal, &t.setup, &t.turn, &t.end, &t.quick];
    out.extend(t.variants_intro.iter());
    out.extend(t.components.values().map(|c| &c.purpose));
    for v in &t.variants {
        out.push(&v.ambiguity);
        out.push(&v.reading);
    }
    out.extend(t.questions.iter().map(|q| &q.answer));
    out.extend(t.diagram.values().map(|d| &d.caption));
    out
}

/// Where a part of a prose string sits in its file: the part's text is looked up inside the
/// string's span (escapes in TOML strings move offsets, the text itself does not change).
pub(super) fn place(
    file: &SourceFile,
    prose: &Prose,
    range: std::ops::Range<usize>,
) -> std::ops::Range<usize> {
    let span = prose.span();
    let text = prose.get_ref();
    let needle = text.get(range.clone()).unwrap_or_default();
    // The same text may stand earlier in the prose: take its occurrence in the file that
    // comes as many times in. A line break in it is CRLF in a file saved so (TOML reads both
    // as LF).
    let earlier = text
        .get(..range.start)
        .map_or(0, |before| before.matches(needle).count());
    let found = file
        .text
        .get(span.clone())
        .filter(|_| !needle.is_empty())
        .and_then(|hay| {
            let crlf = needle.replace('\n', "\r\n");
            [needle, crlf.as_str()].into_iter().find_map(|n| {
                hay.match_indices(n)
                    .nth(earlier)
                    .map(|(at, m)| at..at + m.len())
            })
        });
    match found {
        Some(at) => span.start + at.start..span.start + at.end,
        None => span,
    }
}

/// A placeholder problem placed in its rules file.
pub fn hole_problem(file: &SourceFile, prose: &Prose, e: &HoleError) -> Problem {
    Problem::data(e.message.clone()).at(file, place(file, prose, e.range.clone()), "here")
}

fn prose_problems(
    lr: &LangRules,
    prose: &Prose,
    resolver: &Resolver,
    wording: &Wording,
) -> Vec<Problem> {
    let mut out: Vec<Problem> = markdown::lint(prose.get_ref())
        .into_iter()
        .map(|(range, message)| {
            Problem::data(message).at(&lr.file, place(&lr.file, prose, range), "here")
        })
        .collect();
    if let Err(errors) = fill(prose.get_ref(), resolver, wording) {
        out.extend(errors.iter().map(|e| {
            param_problem(lr, prose, resolver, wording, e)
                .unwrap_or_else(|| hole_problem(&lr.file, prose, e))
        }));
    }
    out
}

/// A placeholder that fails only because the parameter it reads holds the wrong kind of
/// value (`value = "three"` where the prose counts with it): a problem at the parameter in
/// `game.toml`, the line to change, with the prose that uses it as help. `None` when the
/// placeholder would fail whatever the value (its noun or path is wrong), or the parameter
/// declares a `type` (its check reports a wrong value there already).
fn param_problem(
    lr: &LangRules,
    prose: &Prose,
    resolver: &Resolver,
    wording: &Wording,
    e: &HoleError,
) -> Option<Problem> {
    let hole = prose.get_ref().get(e.range.clone())?;
    let name = hole
        .strip_prefix("{params.")?
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .next()?;
    let game = resolver.game;
    let param = game.param(name).filter(|p| p.kind.is_none())?;
    if param.value.get_ref().is_integer() {
        return None;
    }
    // The same placeholder with a number in the parameter: if it fills, the value is to blame.
    let mut numbered = game.clone();
    let span = param.value.span();
    numbered.params.get_mut(name)?.value = toml::Spanned::new(span, toml::Value::Integer(1));
    let trial = Resolver {
        game: &numbered,
        extra: resolver.extra,
    };
    fill(hole, &trial, wording).ok()?;
    let used = hole_problem(&lr.file, prose, e);
    Some(
        Problem::data(format!(
            "parameter `{name}` holds {}, but the rules prose counts with it",
            crate::diag::place::describe_value(param.value.get_ref())
        ))
        .at(&game.game_file, param.value.span(), "here")
        .help(format!(
            "{} uses it as a number ({}): give it a number, and `type = \"int\"` so that \
             check says so here",
            used.location().unwrap_or_default(),
            hole
        )),
    )
}

/// Component keys: each names a component of the data, and each component has one.
fn component_keys(game: &Game, lr: &LangRules) -> Vec<Problem> {
    let c = &game.components;
    let kinds: BTreeSet<String> = c
        .pieces
        .iter()
        .map(|p| format!("pieces.{}", p.kind))
        .collect();
    let mut needed: Vec<String> = Vec::new();
    needed.extend(c.decks.iter().map(|d| format!("deck.{}", d.id.get_ref())));
    for p in &c.pieces {
        let kind = format!("pieces.{}", p.kind);
        if !lr.text.components.contains_key(&kind) {
            needed.push(format!("piece.{}", p.id.get_ref()));
        }
    }
    needed.extend(c.boards.iter().map(|b| format!("board.{}", b.id.get_ref())));
    needed.extend(c.tracks.iter().map(|t| format!("track.{}", t.id.get_ref())));
    let mut out = Vec::new();
    for key in &needed {
        if !lr.text.components.contains_key(key) {
            out.push(
                Problem::data(format!(
                    "[components.\"{key}\"] is missing: say what this component is for"
                ))
                .in_file(&lr.file)
                .help("add `[components.\"KEY\"] purpose = \"...\"` (or `pieces.KIND` for a whole kind)"),
            );
        }
    }
    for (key, text) in &lr.text.components {
        let known = needed.contains(key)
            || kinds.contains(key)
            || c.pieces
                .iter()
                .any(|p| format!("piece.{}", p.id.get_ref()) == *key);
        if !known {
            out.push(
                Problem::data(format!("[components.\"{key}\"] names no deck, piece, piece kind, board or track of the data"))
                    .at(&lr.file, text.purpose.span(), "this text belongs to nothing"),
            );
        }
    }
    out
}

fn diagram_texts(game: &Game, lr: &LangRules) -> Vec<Problem> {
    let ids: BTreeSet<&str> = game
        .rules
        .meta
        .diagrams
        .iter()
        .map(|d| d.id.get_ref().as_str())
        .collect();
    let mut out = Vec::new();
    for id in &ids {
        if !lr.text.diagram.contains_key(*id) {
            out.push(
                Problem::data(format!(
                    "[diagram.{id}] is missing: give the diagram its title, alt text and caption"
                ))
                .in_file(&lr.file),
            );
        }
    }
    for (id, d) in &lr.text.diagram {
        if !ids.contains(id.as_str()) {
            out.push(
                Problem::data(format!("[diagram.{id}] names no diagram of rules.toml")).at(
                    &lr.file,
                    d.caption.span(),
                    "this caption belongs to nothing",
                ),
            );
        }
    }
    out
}

/// Every symbol group of the data has its name in the language (the key's headings), and every
/// name belongs to a group.
fn symbol_groups(game: &Game, lr: &LangRules) -> Vec<Problem> {
    let groups: BTreeSet<&str> = game
        .components
        .symbols
        .iter()
        .map(|s| s.group.as_str())
        .collect();
    let mut out = Vec::new();
    for g in &groups {
        if !lr.text.symbol_groups.contains_key(*g) {
            out.push(
                Problem::data(format!(
                    "[symbol_groups] has no name for the symbol group `{g}` (the heading of its colours in the key)"
                ))
                .in_file(&lr.file),
            );
        }
    }
    for g in lr.text.symbol_groups.keys() {
        if !groups.contains(g.as_str()) {
            out.push(
                Problem::data(format!(
                    "[symbol_groups] names `{g}`, which is no symbol group of the data"
                ))
                .in_file(&lr.file),
            );
        }
    }
    out
}

/// The files of the game's folder the reference publishes beside itself, by their paths in
/// the folder (the same paths beside the reference): the images the prose of every language
/// shows, and the SVG files its links open. Each is written as [`published_copy`] makes it.
pub fn published_files(game: &Game) -> Vec<String> {
    let mut out = BTreeSet::new();
    for lr in game.rules.texts.values() {
        for prose in all_prose(&lr.text) {
            for (target, _) in markdown::images(prose.get_ref()) {
                if markdown::unsafe_image(&target).is_none() && !is_diagram_file(game, &target) {
                    out.insert(target);
                }
            }
            for (target, _) in markdown::links(prose.get_ref()) {
                if let Some(file) = linked_svg(game, &target) {
                    out.insert(file);
                }
            }
        }
    }
    out.into_iter().collect()
}

/// The SVG file of the game's folder a prose link opens (`art/map.svg#north`), if it opens
/// one: the reference publishes its clean copy under the same path, which the link then
/// opens. `None` for a link to anything else (a page, a chart the simulator writes beside
/// the reference).
fn linked_svg(game: &Game, target: &str) -> Option<String> {
    if markdown::unsafe_link(target).is_some() || markdown::unsafe_image(target).is_some() {
        return None;
    }
    let file = target.split(['#', '?']).next().unwrap_or_default();
    let is_svg = std::path::Path::new(file)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    (is_svg
        && !is_diagram_file(game, file)
        && crate::model::paths::resolve_in(&game.dir, file).is_ok())
    .then(|| file.to_string())
}

/// The bytes the reference publishes for `rel`, a file of the game's folder its prose shows
/// or links: an SVG written anew from its drawing (no script, event attribute or reference
/// outside it survives: [`crate::render::svg_clean`]), a PNG, JPEG or WebP image as it is.
/// The message says why it cannot be published: it is missing, outside the folder, does not
/// decode, or its name says another kind of file than it holds (a browser reads a published
/// file by its name).
pub fn published_copy(game: &Game, rel: &str) -> Result<Vec<u8>, String> {
    use crate::render::faces::images::{self, Format};
    // Read as the check read it: a file inside the game's folder, never through a link out
    // of it.
    let art = images::load(&game.dir, rel)?;
    let ext = std::path::Path::new(rel)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let (kind, names): (&str, &[&str]) = match art.format {
        Format::Png => ("PNG", &["png"]),
        Format::Jpeg => ("JPEG", &["jpg", "jpeg"]),
        Format::Webp => ("WebP", &["webp"]),
        Format::Svg => ("SVG", &["svg"]),
    };
    if !names.contains(&ext.as_str()) {
        return Err(format!(
            "`{rel}` is a {kind} image, but its name does not end in .{}: the reference \
             publishes it under its own name, and a browser opens a file as what its name says",
            names[0]
        ));
    }
    match art.format {
        Format::Svg => {
            crate::render::svg_clean::clean(art.bytes(), &crate::render::faces::fonts::builtin())
                .map(String::into_bytes)
                .map_err(|e| format!("`{rel}` does not decode: {e}"))
        }
        _ => Ok(art.bytes().to_vec()),
    }
}

/// True for the file name of a diagram the Markdown reference writes (`rules.en.map.svg`).
fn is_diagram_file(game: &Game, target: &str) -> bool {
    game.rules.meta.diagrams.iter().any(|d| {
        game.rules
            .texts
            .keys()
            .any(|l| target == format!("rules.{l}.{}.svg", d.id.get_ref()))
    })
}

/// Each image the prose shows is an image file inside the game's folder (not a link out of
/// it), and each SVG file of the folder a link opens is one that reads: the build publishes
/// them beside the reference.
fn image_files(game: &Game, lr: &LangRules) -> Vec<Problem> {
    let mut out = Vec::new();
    let help = format!(
        "images the prose shows are PNG, JPEG, WebP or SVG files inside {}",
        game.dir.display()
    );
    for prose in all_prose(&lr.text) {
        for (target, range) in markdown::images(prose.get_ref()) {
            if markdown::unsafe_image(&target).is_some() || is_diagram_file(game, &target) {
                continue;
            }
            if let Err(e) = published_copy(game, &target) {
                out.push(
                    Problem::data(format!("the image {e}"))
                        .at(&lr.file, place(&lr.file, prose, range), "here")
                        .help(help.clone()),
                );
            }
        }
        for (target, range) in markdown::links(prose.get_ref()) {
            let Some(file) = linked_svg(game, &target) else {
                continue;
            };
            if let Err(e) = published_copy(game, &file) {
                out.push(
                    Problem::data(format!("the linked SVG {e}"))
                        .at(&lr.file, place(&lr.file, prose, range), "here")
                        .help("the reference publishes the SVG files its links open"),
                );
            }
        }
    }
    out
}

fn variant_values(lr: &LangRules) -> Vec<Problem> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for v in &lr.text.variants {
        if !seen.insert(v.id.get_ref().clone()) {
            out.push(
                Problem::data(format!("variant `{}` is described twice", v.id.get_ref())).at(
                    &lr.file,
                    v.id.span(),
                    "again here",
                ),
            );
        }
        if !v.values.is_empty() && !v.values.contains(&v.default) {
            out.push(
                Problem::data(format!(
                    "variant `{}`: its default `{}` is not one of its values",
                    v.id.get_ref(),
                    v.default
                ))
                .at(&lr.file, v.id.span(), "this variant"),
            );
        }
    }
    out
}

/// The whole prose of a language, lower-cased, for finding glossary terms.
pub fn prose_text(t: &RulesText) -> String {
    let mut s = String::new();
    for p in all_prose(t) {
        s.push_str(&p.get_ref().to_lowercase());
        s.push('\n');
    }
    for c in t.components.values() {
        if let Some(n) = &c.name {
            s.push_str(&n.to_lowercase());
            s.push('\n');
        }
    }
    s
}

/// Glossary consistency: each term's word in each language of the game, its stem found in that
/// language's prose, and none of the words to avoid.
fn glossary(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(file) = &game.rules.meta_file else {
        return out;
    };
    for term in &game.rules.meta.terms {
        let span = term.words.values().next().map(|w| w.span()).unwrap_or(0..0);
        for lang in &game.info.languages {
            let Some(word) = term.words.get(lang) else {
                out.push(
                    Problem::data(format!("a glossary term has no `{lang}` word")).at(
                        file,
                        span.clone(),
                        "this term",
                    ),
                );
                continue;
            };
            let Some(lr) = game.rules.texts.get(lang) else {
                continue;
            };
            let text = prose_text(&lr.text);
            let stem = term
                .stems
                .get(lang)
                .cloned()
                .unwrap_or_else(|| word.get_ref().clone())
                .to_lowercase();
            if !text.contains(&stem) {
                out.push(
                    Problem::data(format!(
                        "the glossary term `{}` (stem `{stem}`) is not used in {}",
                        word.get_ref(),
                        crate::model::rules_text_file(lang)
                    ))
                    .at(file, word.span(), "this term")
                    .rule("the prose uses the glossary's terms"),
                );
            }
            for avoid in term.avoid.get(lang).into_iter().flatten() {
                if contains_word(&text, &avoid.to_lowercase()) {
                    let problem = Problem::data(format!(
                        "{} says `{avoid}` where the glossary's term is `{}`",
                        crate::model::rules_text_file(lang),
                        word.get_ref()
                    ))
                    .rule("the prose uses the glossary's terms");
                    // At the key whose text says it first.
                    out.push(match super::style::first_use(lr, avoid) {
                        Some((key, at)) => problem.at(&lr.file, at, format!("`{key}`")),
                        None => problem.in_file(&lr.file),
                    });
                }
            }
        }
    }
    out
}

/// True when `word` starts a word of `text` (so inflected forms count, compounds do not).
pub fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric() && c != '-')
    })
}

/// Renders every language in both formats and reports what fails.
fn trial_render(game: &Game, assets: &Assets) -> Vec<Problem> {
    let mut out = Vec::new();
    for lang in game.rules.texts.keys() {
        for format in [Format::Html, Format::Md] {
            if let Err(ps) = super::render(game, lang, format, assets) {
                out.extend(ps);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem in prose is placed at its own occurrence of the text, in a file saved with LF
    /// or CRLF: TOML reads a multi-line string's CRLF as LF, so offsets differ.
    #[test]
    fn prose_problems_are_placed_at_their_own_occurrence() {
        for ends in ["\n", "\r\n"] {
            let text =
                format!("turn = \"\"\"{ends}Take {{x}}.{ends}Then {{x}} again.{ends}\"\"\"{ends}");
            let file = SourceFile::new("rules.en.toml", text.as_str());
            let start = text.find("\"\"\"").unwrap();
            let end = text.rfind("\"\"\"").unwrap() + 3;
            let value = "Take {x}.\nThen {x} again.\n".to_string();
            let prose = Prose::new(start..end, value.clone());
            let second = value.rfind("{x}").unwrap();
            let at = place(&file, &prose, second..second + 3);
            assert_eq!(&text[at.clone()], "{x}");
            assert_eq!(file.line_col(at.start), (3, 6), "{ends:?}");
            let across = value.find(".\nThen").unwrap();
            let at = place(&file, &prose, across..across + 6);
            assert_eq!(file.line_col(at.start), (2, 9), "{ends:?}");
        }
    }
}
