//! What a publisher relies on that the Markdown itself does not refuse: every `#` link of the
//! prose leads to an anchor of its page, every relative link to a file the build publishes
//! beside it, every code fence is closed, and no reference-style link is silently dropped
//! because its definition stands in another field. Each is a warning at the prose's key.

use std::collections::{BTreeMap, BTreeSet};

use pulldown_cmark::Parser;

use super::validate::{all_prose, place};
use super::{Assets, Format, markdown};
use crate::diag::Problem;
use crate::model::{Game, LangRules, Prose};

/// The first part of a relative path the build writes beside the reference: its stages'
/// outputs (`cards.pdf`, `board.fi.pdf`, `png/…`, `tts/…`, `shop/…`) and the simulator's
/// charts (`sim/…`).
const BUILD_OUTPUTS: [&str; 7] = ["cards", "tokens", "board", "png", "tts", "shop", "sim"];

/// Warnings about unclosed fences and cross-field references (no rendering needed).
pub fn text_warnings(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    for lr in game.rules.texts.values() {
        let prose = all_prose(&lr.text);
        let mut defined: BTreeMap<String, &Prose> = BTreeMap::new();
        for p in &prose {
            let parser = Parser::new_ext(p.get_ref(), markdown::options());
            for (label, _) in parser.reference_definitions().iter() {
                defined.entry(label.to_lowercase()).or_insert(p);
            }
        }
        for p in &prose {
            out.extend(unclosed_fence(lr, p));
            out.extend(dropped_references(lr, p, &defined));
        }
    }
    out
}

/// Warnings about `#` and relative links, against the rendered pages of each language.
pub fn link_warnings(game: &Game, assets: &Assets) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut written: BTreeSet<String> = BTreeSet::new();
    let mut ids: BTreeMap<(String, bool), BTreeSet<String>> = BTreeMap::new();
    for lang in game.rules.texts.keys() {
        for format in [Format::Html, Format::Md] {
            let Ok(files) = super::render(game, lang, format, assets) else {
                return out;
            };
            for f in files {
                if format == Format::Html && f.name.ends_with(".html") {
                    let quick = f.name.starts_with("quick.");
                    ids.entry((lang.clone(), quick))
                        .or_default()
                        .extend(html_ids(&f.text));
                }
                written.insert(f.name);
            }
        }
    }
    for (lang, lr) in &game.rules.texts {
        for p in all_prose(&lr.text) {
            let quick = std::ptr::eq(p, &lr.text.quick);
            let page_ids = ids.get(&(lang.clone(), quick));
            for (target, range) in markdown::links(p.get_ref()) {
                if let Some(anchor) = target.strip_prefix('#') {
                    let Some(page_ids) = page_ids else { continue };
                    if !page_ids.contains(anchor) {
                        out.push(
                            Problem::warning(format!(
                                "the link `{target}` leads to no anchor of its page"
                            ))
                            .at(&lr.file, place(&lr.file, p, range), "this link")
                            .rule("a link leads somewhere")
                            .help(nearest(anchor, page_ids)),
                        );
                    }
                    continue;
                }
                if markdown::unsafe_link(&target).is_some() || target.contains("://") {
                    continue;
                }
                let path = target.split(['#', '?']).next().unwrap_or("");
                if path.is_empty() {
                    continue;
                }
                let first = path.split(['/', '.']).next().unwrap_or("");
                let published = written.contains(path) || BUILD_OUTPUTS.contains(&first);
                if !published {
                    out.push(
                        Problem::warning(format!(
                            "the relative link `{target}` leads to no file the reference or the \
                             build writes beside it"
                        ))
                        .at(&lr.file, place(&lr.file, p, range), "this link")
                        .rule("a link leads somewhere")
                        .help(
                            "link a page of the reference (rules.<lang>.html), a file the build \
                             writes (cards.pdf, board.pdf…), or an https:// address",
                        ),
                    );
                }
            }
        }
    }
    out
}

/// The `id`s of an HTML page.
fn html_ids(html: &str) -> BTreeSet<String> {
    html.match_indices(" id=\"")
        .filter_map(|(i, m)| {
            let rest = &html[i + m.len()..];
            rest.find('"').map(|end| rest[..end].to_string())
        })
        .collect()
}

/// A hint naming the anchor nearest the one written, when one is close.
fn nearest(anchor: &str, ids: &BTreeSet<String>) -> String {
    let close = ids
        .iter()
        .filter(|id| !id.is_empty())
        .find(|id| id.starts_with(anchor) || anchor.starts_with(id.as_str()));
    match close {
        Some(id) => format!("did you mean `#{id}`?"),
        None => "a section's anchor is its heading in lower case, words joined by `-`".into(),
    }
}

/// A fenced code block opened and never closed turns the rest of the text into code.
fn unclosed_fence(lr: &LangRules, p: &Prose) -> Option<Problem> {
    let text = p.get_ref();
    let mut open: Option<(char, usize, std::ops::Range<usize>)> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_start();
        let fence_char = body.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(c) = fence_char {
            let n = body.chars().take_while(|x| *x == c).count();
            if n >= 3 {
                match &open {
                    None => {
                        let start = offset + (line.len() - body.len());
                        open = Some((c, n, start..start + n));
                    }
                    Some((oc, on, _)) if *oc == c && n >= *on && body[n..].trim().is_empty() => {
                        open = None;
                    }
                    _ => {}
                }
            }
        }
        offset += line.len();
    }
    let (c, n, range) = open?;
    let fence: String = std::iter::repeat_n(c, n).collect();
    Some(
        Problem::warning(format!(
            "the code fence {fence} opened here is never closed: the rest of the text shows as one \
             code block"
        ))
        .at(&lr.file, place(&lr.file, p, range), "opened here")
        .rule("a code fence is closed")
        .help(format!("close it with a line of {fence}")),
    )
}

/// A reference-style link whose definition is in another field is shown as plain text.
fn dropped_references(
    lr: &LangRules,
    p: &Prose,
    defined: &BTreeMap<String, &Prose>,
) -> Vec<Problem> {
    let text = p.get_ref();
    let mut broken: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    let mut callback = |link: pulldown_cmark::BrokenLink<'_>| {
        broken.push((link.reference.to_string(), link.span.clone()));
        None
    };
    let parser =
        Parser::new_with_broken_link_callback(text, markdown::options(), Some(&mut callback));
    // The definitions of this field are its own; run the parser to its end.
    let own: BTreeSet<String> = parser
        .reference_definitions()
        .iter()
        .map(|(l, _)| l.to_lowercase())
        .collect();
    // The callback hears of each unresolved reference while the text is parsed.
    parser.for_each(drop);
    broken
        .into_iter()
        .filter(|(label, _)| !own.contains(&label.to_lowercase()))
        .filter_map(|(label, range)| {
            let other = defined.get(&label.to_lowercase())?;
            if std::ptr::eq(*other, p) {
                return None;
            }
            Some(
                Problem::warning(format!(
                    "the link `[{label}]` has no definition in its own text (one stands in another \
                     text, at {}), so the page shows it as plain text",
                    lr.file.place(other.span().start)
                ))
                .at(&lr.file, place(&lr.file, p, range), "this link")
                .rule("a link leads somewhere")
                .help(format!(
                    "repeat the definition `[{label}]: …` in this text, or write the link inline"
                )),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;

    fn lr(text: &str) -> (LangRules, Prose) {
        let file = SourceFile::new("rules.en.toml", format!("x = '''{text}'''"));
        let prose = Prose::new(3..file.text.len(), text.to_string());
        let rules: crate::model::RulesText = toml::from_str(
            "overview = ''\ngoal = ''\nsetup = ''\nturn = ''\nend = ''\nquick = ''\n",
        )
        .unwrap();
        (LangRules { file, text: rules }, prose)
    }

    #[test]
    fn an_unclosed_fence_is_found_and_a_closed_one_is_not() {
        let (l, p) = lr("Text\n\n```\ncode\n");
        let w = unclosed_fence(&l, &p).expect("unclosed");
        assert!(w.message.contains("never closed"), "{}", w.message);
        for closed in [
            "a\n```\nb\n```\n",
            "~~~~\n```\n~~~~\n",
            "no fence ``` inline\n",
        ] {
            let (l, p) = lr(closed);
            assert!(unclosed_fence(&l, &p).is_none(), "{closed:?}");
        }
    }

    #[test]
    fn a_reference_defined_in_another_field_is_found() {
        let (l, p) = lr("See [the rules][r].\n");
        let (_, other) = lr("Elsewhere.\n\n[r]: https://example.org\n");
        let defined: BTreeMap<String, &Prose> = [("r".to_string(), &other)].into();
        let w = dropped_references(&l, &p, &defined);
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("`[r]`"), "{}", w[0].message);
        let (l, p) = lr("See [the rules][r].\n\n[r]: https://example.org\n");
        assert!(dropped_references(&l, &p, &defined).is_empty());
    }
}
