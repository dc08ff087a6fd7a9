//! A [`GameDiff`] as a changelog for testers: plain text (the terminal), Markdown or HTML.
//! Every value from the data is escaped for the format (nothing in it turns into markup, a
//! link or a script), and the same diff is always the same bytes.

use crate::diff::{DesignDiff, GameDiff, Status, short};
use crate::rules::document::html_escape;
use crate::rules::markdown::escape as md;

/// The formats `printplay diff --format` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Md,
    Html,
}

/// The diff in `format`.
pub fn render(diff: &GameDiff, format: Format) -> String {
    match format {
        Format::Text => text(diff),
        Format::Md => markdown(diff),
        Format::Html => html(diff),
    }
}

/// "changes since REF (commit 1234abcd5678)".
fn since(diff: &GameDiff) -> String {
    match &diff.commit {
        Some(c) => format!("changes since {} (commit {})", diff.since, short(c)),
        None => format!("changes since {}", diff.since),
    }
}

/// "2 changed, 1 added, 0 removed; reprint 3 card designs (6 cards)".
fn summary(diff: &GameDiff) -> String {
    if diff.designs.is_empty() {
        return "no design changed".to_string();
    }
    let reprint = diff.reprint();
    let cards: u32 = reprint.iter().map(|(_, n)| n).sum();
    format!(
        "{} changed, {} added, {} removed; reprint {} card design{} ({} card{})",
        diff.count(Status::Changed),
        diff.count(Status::Added),
        diff.count(Status::Removed),
        reprint.len(),
        if reprint.len() == 1 { "" } else { "s" },
        cards,
        if cards == 1 { "" } else { "s" },
    )
}

/// What to do with a design's printed copies: "reprint 2", "print 2 more", "take out 2".
pub fn action(d: &DesignDiff) -> String {
    let copies = |n: u32| format!("{n} cop{}", if n == 1 { "y" } else { "ies" });
    let n = d.copies_to_print();
    match d.status {
        Status::Removed => format!("take out {}", copies(d.was_count)),
        Status::Added => format!("print {}", copies(n)),
        Status::Changed if d.front || d.back => format!("reprint {}", copies(n)),
        Status::Changed if n > 0 => format!("print {} more", copies(n)),
        Status::Changed if d.count < d.was_count => {
            format!("take out {}", copies(d.was_count - d.count))
        }
        Status::Changed => "nothing to print".to_string(),
    }
}

/// The designs grouped by deck (pieces last), in the diff's order.
fn groups(diff: &GameDiff) -> Vec<(&str, &str, Vec<&DesignDiff>)> {
    let mut out: Vec<(&str, &str, Vec<&DesignDiff>)> = Vec::new();
    for d in &diff.designs {
        match out.iter_mut().find(|g| g.0 == d.group) {
            Some(g) => g.2.push(d),
            None => out.push((&d.group, &d.group_name, vec![d])),
        }
    }
    out
}

/// One change on a line: "text: "old" -> "new"", or its name alone.
fn change_line(what: &str, was: Option<&str>, now: Option<&str>, arrow: &str) -> String {
    match (was, now) {
        (Some(a), Some(b)) => format!("{what}: {a} {arrow} {b}"),
        _ => what.to_string(),
    }
}

/// Plain text, for the terminal.
pub fn text(diff: &GameDiff) -> String {
    let mut out = format!("{} ({}): {}\n", diff.name, diff.slug, since(diff));
    out.push_str(&summary(diff));
    out.push('\n');
    for (id, name, designs) in groups(diff) {
        out.push_str(&format!("\n{name} ({id})\n"));
        for d in designs {
            out.push_str(&format!(
                "  {} {} {} “{}”: {}\n",
                d.status.word(),
                d.kind,
                d.id,
                d.name,
                action(d)
            ));
            for c in &d.changes {
                out.push_str(&format!(
                    "    {}\n",
                    change_line(&c.what, c.was.as_deref(), c.now.as_deref(), "->")
                ));
            }
        }
    }
    out
}

/// Markdown, for a changelog: a heading, a summary and a list per deck.
pub fn markdown(diff: &GameDiff) -> String {
    let mut out = format!("# {}: {}\n\n", md(&diff.name), md(&since(diff)));
    out.push_str(&md(&summary(diff)));
    out.push_str(".\n");
    for (id, name, designs) in groups(diff) {
        out.push_str(&format!("\n## {} ({})\n\n", md(name), md(id)));
        for d in designs {
            out.push_str(&format!(
                "- **{}** {} {} “{}”: {}\n",
                d.status.word(),
                d.kind,
                md(&d.id),
                md(&d.name),
                md(&action(d))
            ));
            for c in &d.changes {
                let esc = |v: &Option<String>| v.as_deref().map(md);
                out.push_str(&format!(
                    "  - {}\n",
                    change_line(
                        &md(&c.what),
                        esc(&c.was).as_deref(),
                        esc(&c.now).as_deref(),
                        "→"
                    )
                ));
            }
        }
    }
    out
}

/// A page of HTML: no script, nothing loaded, every value escaped.
pub fn html(diff: &GameDiff) -> String {
    let title = format!("{}: {}", diff.name, since(diff));
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<style>body{{font-family:sans-serif;max-width:50em;margin:2em auto;padding:0 1em}}\
         .added{{color:#1b5e20}}.removed{{color:#b71c1c}}.changed{{color:#0d47a1}}\
         del{{background:#fde0e0}}ins{{background:#e0f5e0;text-decoration:none}}</style>\n\
         </head>\n<body>\n<h1>{t}</h1>\n<p>{s}.</p>\n",
        t = html_escape(&title),
        s = html_escape(&summary(diff))
    );
    for (id, name, designs) in groups(diff) {
        out.push_str(&format!(
            "<h2>{} ({})</h2>\n<ul>\n",
            html_escape(name),
            html_escape(id)
        ));
        for d in designs {
            out.push_str(&format!(
                "<li><strong class=\"{w}\">{w}</strong> {k} <code>{id}</code> “{n}”: {a}",
                w = d.status.word(),
                k = d.kind,
                id = html_escape(&d.id),
                n = html_escape(&d.name),
                a = html_escape(&action(d))
            ));
            if !d.changes.is_empty() {
                out.push_str("\n<ul>\n");
                for c in &d.changes {
                    let line = match (&c.was, &c.now) {
                        (Some(a), Some(b)) => format!(
                            "{}: <del>{}</del> → <ins>{}</ins>",
                            html_escape(&c.what),
                            html_escape(a),
                            html_escape(b)
                        ),
                        _ => html_escape(&c.what),
                    };
                    out.push_str(&format!("<li>{line}</li>\n"));
                }
                out.push_str("</ul>\n");
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}
