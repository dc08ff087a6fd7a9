//! Markdown from the data: escaping values for it, linting it, and rendering it to HTML with
//! pulldown-cmark. Raw HTML in the data is never passed through: it is shown as text. Links go
//! only to `http`, `https`, relative and `#` targets, images only to files beside the reference;
//! `check` reports anything else, and the renderers drop it all the same (safe by construction).

use pulldown_cmark::{CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd};

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

/// Turns a multi-line Markdown text into one table cell. The cell is written anew from the
/// text's events, not by joining its lines: a code block's text, raw HTML and any `<` or `[`
/// the text shows become escaped words, so that nothing inert in the text turns live on one
/// line (an indented `<script>`, a `<a` and an `href=...>` from two paragraphs). Emphasis,
/// code spans and safe links and images keep their markup; unsafe ones keep only their text.
pub fn as_cell(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    // For each open link or image: whether it was dropped (its text stays, its markup goes).
    let mut open: Vec<Option<String>> = Vec::new();
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => out.push_str(&escape(&t)),
            Event::Code(t) => out.push_str(&code_span(&t)),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::Start(Tag::Emphasis) | Event::End(TagEnd::Emphasis) => out.push('*'),
            Event::Start(Tag::Strong) | Event::End(TagEnd::Strong) => out.push_str("**"),
            Event::Start(Tag::Strikethrough) | Event::End(TagEnd::Strikethrough) => {
                out.push_str("~~")
            }
            Event::Start(Tag::Link {
                dest_url, title, ..
            }) => {
                let keep = unsafe_link(&dest_url).is_none();
                if keep {
                    out.push('[');
                }
                open.push(keep.then(|| destination(&dest_url, &title)));
            }
            Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                let keep = unsafe_image(&dest_url).is_none();
                if keep {
                    out.push_str("![");
                }
                open.push(keep.then(|| destination(&dest_url, &title)));
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if let Some(Some(dest)) = open.pop() {
                    out.push_str("](");
                    out.push_str(&dest);
                    out.push(')');
                }
            }
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::CodeBlock
                | TagEnd::BlockQuote(_)
                | TagEnd::TableCell,
            ) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A code span holding `text` as it is: fenced with more backticks than any run inside it.
fn code_span(text: &str) -> String {
    // In a table cell a pipe ends the cell even inside a code span unless escaped (GFM).
    let text = text.replace(['\n', '\r'], " ").replace('|', "\\|");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A link's destination and title as inline Markdown writes them: `<dest> "title"`.
fn destination(dest: &str, title: &str) -> String {
    let mut out = String::from("<");
    for c in dest.chars().filter(|c| !c.is_control()) {
        if matches!(c, '<' | '>' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('>');
    if !title.is_empty() {
        out.push_str(" \"");
        for c in title.chars().filter(|c| !c.is_control()) {
            if matches!(c, '"' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
    }
    out
}

/// Why a link target may not be used, or `None` when it is safe: `http`, `https`, a relative
/// path or a `#` fragment. A target that starts with two slashes (`//host/...`, or a
/// backslash a browser reads as one) names another site without its scheme and is refused:
/// a remote link says `https://`.
pub fn unsafe_link(target: &str) -> Option<String> {
    if scheme_relative(target) {
        return Some(format!(
            "the link target `{target}` names another site without a scheme (it starts with \
             `//`); links may go only to http, https, relative and # targets: write https://"
        ));
    }
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

/// Whether a target starts with two slashes once what browsers skip is skipped (control
/// characters and spaces) and a backslash read as the slash browsers read it as.
fn scheme_relative(target: &str) -> bool {
    let mut head = target
        .chars()
        .filter(|c| !c.is_control() && !c.is_whitespace())
        .take(2);
    head.next().is_some_and(|c| c == '/' || c == '\\')
        && head.next().is_some_and(|c| c == '/' || c == '\\')
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
/// text, and unsafe links and images keep only their text. Reference-style links and images
/// are written inline and every link reference definition is removed: the Markdown output
/// joins many prose fields into one document, where a definition in one field would serve a
/// reference in another (`[x]: javascript:...` in the goal, `[x]` in the end) that the
/// check, reading each field alone, never saw as a link. Everything else is the author's
/// Markdown as written.
pub fn to_safe_markdown(markdown: &str) -> String {
    let mut out = safe_pass(markdown);
    // Removing a definition can make a later one of the same label the first: repeat until
    // none is left (each round removes at least one).
    loop {
        let parser = Parser::new_ext(&out, options());
        let mut spans: Vec<std::ops::Range<usize>> = parser
            .reference_definitions()
            .iter()
            .map(|(_, def)| def.span.clone())
            .collect();
        if spans.is_empty() {
            return out;
        }
        spans.sort_by_key(|r| std::cmp::Reverse(r.start));
        for span in spans {
            out.replace_range(span, "");
        }
    }
}

/// One pass of [`to_safe_markdown`]: raw HTML escaped, unsafe links and images to their text,
/// safe reference-style ones written inline.
fn safe_pass(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut last = 0;
    for (event, mut range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        // A collapsed reference's range leaves out its `[]`; the rewrite replaces it too.
        if let Event::Start(Tag::Link { link_type, .. } | Tag::Image { link_type, .. }) = &event
            && matches!(link_type, LinkType::Collapsed | LinkType::CollapsedUnknown)
            && markdown[range.end..].starts_with("[]")
        {
            range.end += 2;
        }
        let source = &markdown[range.clone()];
        let replacement = match &event {
            Event::Html(_) | Event::InlineHtml(_) => {
                Some(source.replace('<', "&lt;").replace('>', "&gt;"))
            }
            Event::Start(Tag::Link { dest_url, .. }) if unsafe_link(dest_url).is_some() => {
                Some(escape(&plain_text(source)))
            }
            Event::Start(Tag::Image { dest_url, .. }) if unsafe_image(dest_url).is_some() => {
                Some(escape(&plain_text(source)))
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            })
            | Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                ..
            }) if is_reference(*link_type) => {
                let image = matches!(event, Event::Start(Tag::Image { .. }));
                let body = if image { &source[1..] } else { source };
                reference_text(body, *link_type).map(|inner| {
                    format!(
                        "{}[{}]({})",
                        if image { "!" } else { "" },
                        safe_pass(inner),
                        destination(dest_url, title)
                    )
                })
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

fn is_reference(link_type: LinkType) -> bool {
    matches!(
        link_type,
        LinkType::Reference
            | LinkType::ReferenceUnknown
            | LinkType::Collapsed
            | LinkType::CollapsedUnknown
            | LinkType::Shortcut
            | LinkType::ShortcutUnknown
    )
}

/// The link text of a reference-style link's source: `[text][label]`, `[text][]`, `[text]`.
fn reference_text(source: &str, link_type: LinkType) -> Option<&str> {
    let inner = source.strip_prefix('[')?;
    match link_type {
        LinkType::Collapsed | LinkType::CollapsedUnknown => inner.strip_suffix("][]"),
        LinkType::Shortcut | LinkType::ShortcutUnknown => inner.strip_suffix(']'),
        _ => inner.rfind("][").map(|end| &inner[..end]),
    }
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

/// The links of a Markdown text (inline, reference-style and definitions' targets alike):
/// their targets and byte ranges.
pub fn links(markdown: &str) -> Vec<(String, std::ops::Range<usize>)> {
    Parser::new_ext(markdown, options())
        .into_offset_iter()
        .filter_map(|(e, range)| match e {
            Event::Start(Tag::Link { dest_url, .. }) => Some((dest_url.into_string(), range)),
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
    let parser = Parser::new_ext(markdown, options());
    // A definition is checked whether or not this field uses it: the reader of the data
    // sees it as a link target all the same (the Markdown output drops every definition).
    for (_, def) in parser.reference_definitions().iter() {
        out.extend(unsafe_link(&def.dest).map(|m| (def.span.clone(), m)));
    }
    for (event, range) in parser.into_offset_iter() {
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
    fn scheme_relative_links_are_linted_and_dropped() {
        // Four backslashes in the Markdown are the two a browser reads as `//`.
        for target in [
            "//evil.example/x",
            "\\\\\\\\evil.example/x",
            "/\\evil.example",
            " //evil.example",
        ] {
            let md = format!("See [there](<{target}>) and [ok](rules.en.html).");
            let found = lint(&md);
            assert_eq!(found.len(), 1, "{target}: {found:?}");
            assert!(found[0].1.contains("without a scheme"), "{found:?}");
            assert_eq!(&md[found[0].0.clone()], format!("[there](<{target}>)"));
            let html = to_html(&md);
            assert!(!html.contains("evil"), "{html}");
            assert!(html.contains("href=\"rules.en.html\""), "{html}");
            let out = to_safe_markdown(&md);
            assert!(!out.contains("evil"), "{out}");
            let cell = as_cell(&md);
            assert!(!cell.contains("evil"), "{cell}");
        }
        let def = "[x]\n\n[x]: //evil.example/y\n";
        assert!(!lint(def).is_empty());
        assert!(!to_html(def).contains("evil"));
        assert!(!to_safe_markdown(def).contains("evil"));
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

    /// What pulldown-cmark makes of a whole Markdown document, lower-cased.
    fn rendered(md: &str) -> String {
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, Parser::new_ext(md, options()));
        html.to_lowercase()
    }

    #[test]
    fn a_definition_in_one_field_serves_no_reference_in_another() {
        let goal = "Win.\n\n[x]: javascript:alert(1)\n[y]: https://evil.example/p.png\n";
        let end = "Click [x] or see ![y]";
        assert_eq!(
            lint(goal).len(),
            1,
            "the javascript: definition is a problem"
        );
        let page = format!("{}\n\n{}\n", to_safe_markdown(goal), to_safe_markdown(end));
        let html = rendered(&page);
        assert!(
            !html.contains("javascript") && !html.contains("<img"),
            "{html}"
        );
        // A duplicate definition is removed too (it would become the first once the first went).
        let twice = "[x]: https://ok.example\n[x]: javascript:alert(1)\n\nfine";
        let html = rendered(&format!("{}\n\n[x]", to_safe_markdown(twice)));
        assert!(!html.contains("href"), "{html}");
    }

    #[test]
    fn reference_links_are_written_inline() {
        let md = "See [the turn][t], [Turn][] and [turn].\n\n[t]: #turn \"The turn\"\n[turn]: https://ok.example/a_b\n";
        let out = to_safe_markdown(md);
        assert!(!out.contains("]:"), "no definition left: {out}");
        let html = rendered(&out);
        assert!(
            html.contains("<a href=\"#turn\" title=\"the turn\">the turn</a>"),
            "{html}"
        );
        assert_eq!(
            html.matches("href=\"https://ok.example/a_b\"").count(),
            2,
            "{html}"
        );
        // A remote image inside a reference link's text is dropped like any other.
        let nested = "[![i](https://evil.example/x.png)][t]\n\n[t]: #turn\n";
        let html = rendered(&to_safe_markdown(nested));
        assert!(
            !html.contains("evil") && html.contains("href=\"#turn\""),
            "{html}"
        );
    }

    #[test]
    fn a_table_cell_turns_nothing_live() {
        let purpose = "Counts turns.\n\n    <script>alert(1)</script>\n    <img src=https://evil.example/x.png>\n\n```\n[a](javascript:x)\n```\n";
        let cell = as_cell(&to_safe_markdown(purpose));
        assert!(!cell.contains('\n'), "{cell}");
        let html = rendered(&format!("| a |\n| --- |\n| {cell} |\n"));
        assert!(
            !html.contains("<script") && !html.contains("<img"),
            "{html}"
        );
        assert!(!html.contains("href"), "{html}");
        assert!(
            html.contains("&lt;script&gt;"),
            "the code stays as words: {html}"
        );
        // Two inert halves do not become a tag on one line.
        let split = "<a\n\nhref=x onmouseover=alert(1)>";
        let html = rendered(&format!(
            "| a |\n| --- |\n| {} |\n",
            as_cell(&to_safe_markdown(split))
        ));
        assert!(!html.contains("<a "), "{html}");
        // What is safe keeps its markup.
        let fine = as_cell("**Worth** *double*, `a|b`, [rules](#turn) ![m](map.svg)");
        let html = rendered(&format!("| a |\n| --- |\n| {fine} |\n"));
        assert!(
            html.contains("<strong>worth</strong> <em>double</em>"),
            "{html}"
        );
        assert!(html.contains("<code>a|b</code>"), "{html}");
        assert!(
            html.contains("href=\"#turn\"") && html.contains("src=\"map.svg\""),
            "{html}"
        );
    }

    #[test]
    fn inline_html_drops_the_paragraph() {
        assert_eq!(to_inline_html("a *b*"), "a <em>b</em>");
    }
}
