//! Markdown from the data: escaping values for it, linting it, and rendering it to HTML with
//! pulldown-cmark. Raw HTML in the data is never passed through: it is shown as text.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag};

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

/// Renders Markdown to HTML. Raw HTML in the source becomes escaped text.
pub fn to_html(markdown: &str) -> String {
    let events = Parser::new_ext(markdown, options()).map(|e| match e {
        Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
        other => other,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    html
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
    fn inline_html_drops_the_paragraph() {
        assert_eq!(to_inline_html("a *b*"), "a <em>b</em>");
    }
}
