//! Markdown from the data: escaping values for it, linting it, and rendering it to HTML with
//! pulldown-cmark. Raw HTML in the data is never passed through: it is shown as text. Links go
//! only to `http`, `https`, relative and `#` targets, images only to files beside the reference;
//! `check` reports anything else, and the renderers drop it all the same (safe by construction).

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The Markdown dialect of the prose and of the Markdown output: CommonMark with GitHub tables.
pub fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// Escapes a value from the data so that Markdown shows it as it is.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~' | '&' | '!'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Escapes a value for one cell of a GitHub table: Markdown escaping, and no line breaks.
pub fn escape_cell(text: &str) -> String {
    escape(&text.replace(['\n', '\r'], " "))
}

/// Turns a multi-line Markdown text into one table cell: paragraphs joined, pipes escaped.
pub fn as_cell(markdown: &str) -> String {
    markdown
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// Why a link target may not be used, or `None` when it is safe: `http`, `https`, a relative
/// path or a `#` fragment.
pub fn unsafe_link(target: &str) -> Option<String> {
    match scheme(target) {
        None => None,
        Some(s) if s == "http" || s == "https" => None,
        Some(s) => Some(format!(
            "the link target `{target}` uses `{s}:`; links may go only to http, https, relative and # targets"
        )),
    }
}

/// Why an image may not be shown, or `None` when it is a relative file inside the game's
/// folder (or a generated diagram beside the reference).
pub fn unsafe_image(target: &str) -> Option<String> {
    let outside = target.starts_with('/')
        || target.starts_with('\\')
        || target.split(['/', '\\']).any(|part| part == "..");
    if scheme(target).is_some() || target.starts_with("//") {
        Some(format!(
            "the image `{target}` is not a file of the game's folder; remote and inline images are not allowed"
        ))
    } else if outside || target.is_empty() || target.starts_with('#') {
        Some(format!(
            "the image `{target}` is outside the game's folder; images must be files inside it"
        ))
    } else {
        None
    }
}

/// The URL scheme of a link target, lower-cased (`javascript`), if it has one. Control
/// characters and spaces that browsers skip are ignored, as browsers do.
fn scheme(target: &str) -> Option<String> {
    let cleaned: String = target
        .chars()
        .filter(|c| !c.is_control() && !c.is_whitespace())
        .collect();
    let colon = cleaned.find(':')?;
    let head = &cleaned[..colon];
    let is_scheme = head.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    // A `:` after a `/`, `?` or `#` belongs to a relative path, not a scheme.
    is_scheme.then(|| head.to_ascii_lowercase())
}

/// The events of a Markdown text made safe: raw HTML becomes text, a link to an unsafe target
/// keeps only its text, and a disallowed image only its alt text.
fn safe_events(markdown: &str) -> Vec<Event<'_>> {
    let mut out = Vec::new();
    let mut dropped: Vec<bool> = Vec::new();
    for e in Parser::new_ext(markdown, options()) {
        match e {
            Event::Html(s) | Event::InlineHtml(s) => out.push(Event::Text(s)),
            Event::Start(Tag::Link { ref dest_url, .. }) => {
                let bad = unsafe_link(dest_url).is_some();
                dropped.push(bad);
                if !bad {
                    out.push(e);
                }
            }
            Event::Start(Tag::Image { ref dest_url, .. }) => {
                let bad = unsafe_image(dest_url).is_some();
                dropped.push(bad);
                if !bad {
                    out.push(e);
                }
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if !dropped.pop().unwrap_or(false) {
                    out.push(e);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Renders Markdown to HTML. Raw HTML in the source becomes escaped text; unsafe links and
/// images are dropped. Headings get ids (their GitHub-style anchors, made unique with
/// `-1`, `-2`... as GitHub does) and a permalink.
pub fn to_html(markdown: &str) -> String {
    let mut ids = std::collections::BTreeMap::new();
    to_html_with_ids(markdown, &mut ids, "")
}

/// [`to_html`] sharing the heading ids already used on the page; `permalink_label` is the
/// accessible name of the heading's permalink (none when empty).
pub fn to_html_with_ids(
    markdown: &str,
    used: &mut std::collections::BTreeMap<String, usize>,
    permalink_label: &str,
) -> String {
    let mut events = safe_events(markdown);
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading { id: None, .. }) = &events[i] {
            let end = (i..events.len())
                .find(|&j| matches!(events[j], Event::End(TagEnd::Heading(_))))
                .unwrap_or(events.len());
            let text: String = events[i..end]
                .iter()
                .filter_map(|e| match e {
                    Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                    _ => None,
                })
                .collect();
            let id = unique_anchor(&text, used);
            if let Event::Start(Tag::Heading { id: slot, .. }) = &mut events[i] {
                *slot = Some(CowStr::from(id.clone()));
            }
            if !permalink_label.is_empty() && end < events.len() {
                // Our own markup, not the data's: the id is letters, digits and dashes.
                events.insert(
                    end,
                    Event::InlineHtml(CowStr::from(permalink(&id, permalink_label))),
                );
            }
        }
        i += 1;
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

/// A heading's permalink: `#` after its text, named for screen readers.
pub fn permalink(id: &str, label: &str) -> String {
    format!(
        " <a class=\"permalink\" href=\"#{id}\" aria-label=\"{}\">#</a>",
        crate::rules::document::html_escape(label)
    )
}

/// A heading's GitHub-style anchor, unique on the page (`turn`, `turn-1`, ...).
pub fn unique_anchor(text: &str, used: &mut std::collections::BTreeMap<String, usize>) -> String {
    let base = crate::rules::document::heading_anchor(text);
    let n = used.entry(base.clone()).or_insert(0);
    let id = if *n == 0 {
        base.clone()
    } else {
        format!("{base}-{n}")
    };
    *n += 1;
    id
}

/// Prose made safe for the Markdown output: raw HTML is escaped so that renderers show it as
/// text, and unsafe links and images keep only their text. Everything else is the author's
/// Markdown as written.
pub fn to_safe_markdown(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut last = 0;
    for (event, range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        let replacement = match &event {
            Event::Html(_) | Event::InlineHtml(_) => Some(
                markdown[range.clone()]
                    .replace('<', "&lt;")
                    .replace('>', "&gt;"),
            ),
            Event::Start(Tag::Link { dest_url, .. }) if unsafe_link(dest_url).is_some() => {
                Some(escape(&plain_text(&markdown[range.clone()])))
            }
            Event::Start(Tag::Image { dest_url, .. }) if unsafe_image(dest_url).is_some() => {
                Some(escape(&plain_text(&markdown[range.clone()])))
            }
            _ => None,
        };
        if let Some(text) = replacement
            && range.start >= last
        {
            out.push_str(&markdown[last..range.start]);
            out.push_str(&text);
            last = range.end;
        }
    }
    out.push_str(&markdown[last..]);
    out
}

/// The images of a Markdown text: their targets and byte ranges.
pub fn images(markdown: &str) -> Vec<(String, std::ops::Range<usize>)> {
    Parser::new_ext(markdown, options())
        .into_offset_iter()
        .filter_map(|(e, range)| match e {
            Event::Start(Tag::Image { dest_url, .. }) => Some((dest_url.into_string(), range)),
            _ => None,
        })
        .collect()
}

/// The text of a Markdown fragment, without its markup.
fn plain_text(markdown: &str) -> String {
    Parser::new_ext(markdown, options())
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.into_string()),
            _ => None,
        })
        .collect()
}

/// The words of a Markdown text for a terminal: markup dropped, line breaks and paragraph
/// ends as spaces, runs of white space as one space.
pub fn to_plain_line(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for e in Parser::new_ext(markdown, options()) {
        match e {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak
            | Event::HardBreak
            | Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::Heading(_)) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Renders one short Markdown text without its paragraph wrapper (for table cells, captions).
pub fn to_inline_html(markdown: &str) -> String {
    let html = to_html(markdown);
    let trimmed = html.trim();
    match trimmed
        .strip_prefix("<p>")
        .and_then(|s| s.strip_suffix("</p>"))
    {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => trimmed.to_string(),
    }
}

/// What prose may not contain: raw HTML (the output must escape everything from the data) and
/// headings above level 3 (the page's own headings are levels 1 and 2). Byte ranges in `markdown`.
pub fn lint(markdown: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        match event {
            Event::Html(_) | Event::InlineHtml(_) => out.push((
                range,
                "raw HTML is not allowed in rules prose; it would be shown as text".to_string(),
            )),
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1 | HeadingLevel::H2,
                ..
            }) => out.push((
                range,
                "prose headings start at ### (levels 1 and 2 are the page's own)".to_string(),
            )),
            Event::Start(Tag::Link { dest_url, .. }) => {
                out.extend(unsafe_link(&dest_url).map(|m| (range, m)));
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                out.extend(unsafe_image(&dest_url).map(|m| (range, m)));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_text_renders_verbatim() {
        let nasty = "<script>alert(1)</script> *bold* [x](y) a|b & c_d";
        let html = to_html(&escape(nasty));
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;"));
        assert!(!html.contains("<em>") && !html.contains("<strong>") && !html.contains("<a "));
        assert!(html.contains("a|b &amp; c_d"));
    }

    #[test]
    fn raw_html_is_shown_as_text_and_linted() {
        let md = "Hello <b onclick=\"x\">there</b>\n\n<div>block</div>\n";
        let html = to_html(md);
        assert!(!html.contains("<b ") && !html.contains("<div>"));
        assert_eq!(lint(md).len(), 3);
    }

    #[test]
    fn high_headings_are_linted() {
        assert_eq!(lint("# Big\n\n### fine\n").len(), 1);
        assert!(lint("### fine\n\ntext").is_empty());
    }

    #[test]
    fn unsafe_links_and_images_are_linted_and_dropped() {
        let md = "[a](javascript:alert(1)) [c](data:text/html,x) \
                  [ok](https://example.org) [rel](#turn) [file](sim/x.svg) ![r](https://e.org/x.png) \
                  ![up](../secret.png) ![fine](rules.en.map.svg)";
        let found: Vec<String> = lint(md).into_iter().map(|(_, m)| m).collect();
        assert_eq!(found.len(), 4, "{found:#?}");
        let html = to_html(md);
        assert!(!html.to_lowercase().contains("javascript"), "{html}");
        assert!(
            !html.contains("data:") && !html.contains("e.org/x.png"),
            "{html}"
        );
        assert!(!html.contains("../secret"), "{html}");
        assert!(html.contains("href=\"https://example.org\"") && html.contains("href=\"#turn\""));
        assert!(html.contains("src=\"rules.en.map.svg\""));
        let md_out = to_safe_markdown(md);
        assert!(
            !md_out.contains("](javascript") && !md_out.contains("](data:"),
            "{md_out}"
        );
        assert!(md_out.contains("[ok](https://example.org)"));
    }

    #[test]
    fn raw_html_never_reaches_the_markdown_output() {
        let out = to_safe_markdown("Hi <script>alert(1)</script>\n\n<img src=x onerror=y>\n");
        assert!(!out.contains('<'), "{out}");
    }

    #[test]
    fn headings_get_unique_ids_and_permalinks() {
        let mut used = std::collections::BTreeMap::new();
        let html = to_html_with_ids("### Police cards\n\n### Police cards\n", &mut used, "Link");
        assert!(html.contains("<h3 id=\"police-cards\">"), "{html}");
        assert!(html.contains("<h3 id=\"police-cards-1\">"), "{html}");
        assert!(html.contains("href=\"#police-cards-1\""), "{html}");
    }

    #[test]
    fn inline_html_drops_the_paragraph() {
        assert_eq!(to_inline_html("a *b*"), "a <em>b</em>");
    }
}
