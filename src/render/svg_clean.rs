//! Every SVG that leaves the program is written anew from usvg's tree of it: the rules
//! reference's copies of the prose's images and the game's icons, and the table's faces. The
//! tree holds only what draws (paths, fills, gradients, clips, masks, filters, and images as
//! `data:` URLs), so nothing of the file that could act when a browser opens it as a document
//! survives: no `<script>`, no event attribute (`onload=`), no `<foreignObject>`, no style
//! sheet, no link, and no reference to anything outside the file. Text is set as outlines in
//! the bundled fonts. Reading it reads no file and no URL: an `<image>` shows only when its
//! picture is inside the file (`data:`), as it does on the printed page.
//!
//! [`dropped`] says what a file holds that its published copy leaves out, with where, for
//! `check` to warn about.

use std::ops::Range;

use crate::render::faces::fonts::FontDb;

/// The writer of every published SVG: the tree as text, the same bytes for the same tree,
/// sized by a view box as well as its width and height, so that a page can show it at any
/// size.
pub fn write(tree: &usvg::Tree) -> String {
    let (w, h) = (tree.size().width(), tree.size().height());
    tree.to_string(&usvg::WriteOptions::default()).replacen(
        "<svg ",
        &format!(r#"<svg viewBox="0 0 {w} {h}" "#),
        1,
    )
}

/// How a published SVG is read: no file and no URL is ever read for it; an `<image>` shows
/// when its picture is a `data:` URL (an SVG one read the same way).
pub fn options(fonts: &FontDb) -> usvg::Options<'static> {
    usvg::Options {
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..crate::render::formats::pdf::usvg_options(fonts)
    }
}

/// An SVG file's bytes (SVG or gzipped SVGZ) as the copy to publish: its drawing written
/// anew. The message says why it does not read.
pub fn clean(bytes: &[u8], fonts: &FontDb) -> Result<String, String> {
    let tree = usvg::Tree::from_data(bytes, &options(fonts)).map_err(|e| e.to_string())?;
    Ok(write(&tree))
}

/// Something an SVG file holds that its published copy leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dropped {
    /// A `<script>` element.
    Script,
    /// A `<foreignObject>`: HTML inside the drawing.
    ForeignObject,
    /// An event attribute (`onload`, `onclick`), by name.
    Event(String),
    /// A reference to something outside the file: a link, an image or a style sheet that is
    /// another file or a URL.
    External(String),
}

impl Dropped {
    /// What it is, in words.
    pub fn describe(&self) -> String {
        match self {
            Dropped::Script => "a script (`<script>`)".to_string(),
            Dropped::ForeignObject => "embedded HTML (`<foreignObject>`)".to_string(),
            Dropped::Event(name) => format!("the event attribute `{name}`"),
            Dropped::External(to) => format!("the reference to `{to}` outside the file"),
        }
    }

    /// What it is, as the file writes it.
    pub fn short(&self) -> String {
        match self {
            Dropped::Script => "`<script>`".to_string(),
            Dropped::ForeignObject => "`<foreignObject>`".to_string(),
            Dropped::Event(name) => format!("`{name}`"),
            Dropped::External(to) => format!("`{to}`"),
        }
    }
}

/// What a file holds that its copies leave out, in one line: `a script, the event attributes
/// `onload` and `onclick`, references outside the file (`https://...`)`.
pub fn summary(found: &[Found]) -> String {
    fn listed(items: &[String]) -> String {
        const SHOWN: usize = 3;
        let mut shown: Vec<String> = items.iter().take(SHOWN).map(|i| format!("`{i}`")).collect();
        if items.len() > SHOWN {
            shown.push(format!("{} more", items.len() - SHOWN));
        }
        match shown.len() {
            0 | 1 => shown.concat(),
            n => format!("{} and {}", shown[..n - 1].join(", "), shown[n - 1]),
        }
    }
    let count = |what: &Dropped| found.iter().filter(|f| f.what == *what).count();
    let distinct = |pick: fn(&Dropped) -> Option<&String>| {
        let mut out: Vec<String> = Vec::new();
        for f in found {
            if let Some(v) = pick(&f.what)
                && !out.contains(v)
            {
                out.push(v.clone());
            }
        }
        out
    };
    let mut parts = Vec::new();
    match count(&Dropped::Script) {
        0 => {}
        1 => parts.push("a script".to_string()),
        n => parts.push(format!("{n} scripts")),
    }
    let events = distinct(|d| match d {
        Dropped::Event(n) => Some(n),
        _ => None,
    });
    match events.len() {
        0 => {}
        1 => parts.push(format!("the event attribute {}", listed(&events))),
        _ => parts.push(format!("the event attributes {}", listed(&events))),
    }
    if count(&Dropped::ForeignObject) > 0 {
        parts.push("embedded HTML (`<foreignObject>`)".to_string());
    }
    let outside = distinct(|d| match d {
        Dropped::External(v) => Some(v),
        _ => None,
    });
    if !outside.is_empty() {
        parts.push(format!(
            "references outside the file ({})",
            listed(&outside)
        ));
    }
    parts.join(", ")
}

/// One thing left out, and the bytes of the text that hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub what: Dropped,
    pub at: Range<usize>,
}

/// What an SVG document's text holds that [`clean`] leaves out, in the order of the text;
/// empty when it holds nothing of the kind or is not XML (then it does not read at all, and
/// its reader says so).
pub fn dropped(text: &str) -> Vec<Found> {
    let options = usvg::roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let Ok(doc) = usvg::roxmltree::Document::parse_with_options(text, options) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for node in doc.descendants() {
        if node.is_pi() {
            if let Some(pi) = node.pi()
                && pi.target.eq_ignore_ascii_case("xml-stylesheet")
            {
                // `href="..."` among the instruction's pseudo-attributes.
                let value = pi.value.unwrap_or_default();
                let href = value
                    .split_once("href=")
                    .map(|(_, rest)| {
                        let quote = rest.chars().next().unwrap_or('"');
                        let rest = rest.trim_start_matches(quote);
                        rest.split(quote).next().unwrap_or(rest)
                    })
                    .unwrap_or(value)
                    .trim()
                    .to_string();
                out.push(Found {
                    what: Dropped::External(href),
                    at: node.range(),
                });
            }
            continue;
        }
        if !node.is_element() {
            continue;
        }
        let name = node.tag_name().name();
        let start = node.range().start;
        let tag = start..start + 1 + name.len();
        if name.eq_ignore_ascii_case("script") {
            out.push(Found {
                what: Dropped::Script,
                at: tag.clone(),
            });
        } else if name.eq_ignore_ascii_case("foreignObject") {
            out.push(Found {
                what: Dropped::ForeignObject,
                at: tag.clone(),
            });
        } else if name.eq_ignore_ascii_case("style") {
            let css: String = node
                .children()
                .filter_map(|c| c.text())
                .collect::<Vec<_>>()
                .concat();
            for to in css_references(&css) {
                out.push(Found {
                    what: Dropped::External(to),
                    at: tag.clone(),
                });
            }
        }
        // An animation that sets a link's target is a link too.
        let sets_link = matches!(name, "set" | "animate")
            && node
                .attribute("attributeName")
                .is_some_and(|a| a.ends_with("href"));
        for attr in node.attributes() {
            let key = attr.name();
            let value = attr.value();
            let at = attr.range();
            if key.len() > 2 && key[..2].eq_ignore_ascii_case("on") {
                out.push(Found {
                    what: Dropped::Event(key.to_string()),
                    at,
                });
            } else if key == "href"
                || key == "src"
                || (sets_link && matches!(key, "to" | "from" | "by" | "values"))
            {
                if is_outside(value) {
                    out.push(Found {
                        what: Dropped::External(value.trim().to_string()),
                        at,
                    });
                }
            } else {
                for to in css_references(value) {
                    out.push(Found {
                        what: Dropped::External(to),
                        at: at.clone(),
                    });
                }
            }
        }
    }
    out.sort_by_key(|f| f.at.start);
    out
}

/// [`dropped`] for a template of the game's faces: an SVG fragment with tera's tags in it.
/// The tags are read as blanks (what they write is the data's, not the file's) and the
/// fragment as the inside of an `<svg>`; places are in the template's own text.
pub fn dropped_in_template(text: &str) -> Vec<Found> {
    let blank = blank_tags(text);
    let head = blank.trim_start();
    if head.starts_with("<?xml") || head.starts_with("<!DOCTYPE") {
        return dropped(&blank);
    }
    const OPEN: &str =
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">"#;
    let wrapped = format!("{OPEN}{blank}</svg>");
    dropped(&wrapped)
        .into_iter()
        .map(|f| Found {
            at: f.at.start.saturating_sub(OPEN.len()).min(text.len())
                ..f.at.end.saturating_sub(OPEN.len()).min(text.len()),
            what: f.what,
        })
        .collect()
}

/// A template's text with each of tera's tags (`{{ }}`, `{% %}`, `{# #}`) made spaces, byte
/// for byte (line breaks kept), so that places in it are places in the template.
fn blank_tags(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i + 1 < bytes.len() {
        let close = match (bytes[i], bytes[i + 1]) {
            (b'{', b'{') => b"}}",
            (b'{', b'%') => b"%}",
            (b'{', b'#') => b"#}",
            _ => {
                i += 1;
                continue;
            }
        };
        let end = text[i + 2..]
            .find(std::str::from_utf8(close).unwrap_or("}}"))
            .map_or(bytes.len(), |at| i + 2 + at + 2);
        for b in &mut out[i..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        i = end;
    }
    // Only whole characters were blanked: every byte of a tag became ASCII.
    String::from_utf8(out).unwrap_or_default()
}

/// Whether a link or image reference leaves the file: anything but a fragment of the file
/// itself (`#id`) or data inside it (`data:`).
fn is_outside(value: &str) -> bool {
    let v = value.trim();
    !(v.is_empty()
        || v.starts_with('#')
        || v.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("data:")))
}

/// The targets of CSS `url(...)` and `@import` in a style text that leave the file.
fn css_references(css: &str) -> Vec<String> {
    let lower = css.to_ascii_lowercase();
    let mut out = Vec::new();
    for (at, _) in lower.match_indices("url(") {
        let rest = &css[at + 4..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].trim().trim_matches(['"', '\'']).trim();
        if is_outside(target) {
            out.push(target.to_string());
        }
    }
    for (at, _) in lower.match_indices("@import") {
        let rest = css[at + 7..].trim_start();
        if rest.to_ascii_lowercase().starts_with("url(") {
            continue; // said above
        }
        let target: String = rest
            .trim_start_matches(['"', '\''])
            .chars()
            .take_while(|c| !matches!(c, '"' | '\'' | ';'))
            .collect();
        out.push(target.trim().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = r##"<?xml-stylesheet href="https://evil.example/s.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" onload="alert(1)">
  <script>alert(document.domain)</script>
  <style>@import "https://evil.example/a.css"; rect { fill: url(https://evil.example/p.svg#g) }</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
  <rect width="40" height="40" fill="url(#g)" onclick="alert(2)"/>
  <image href="https://evil.example/pixel.png" width="10" height="10"/>
  <image xlink:href="../secret.png" width="10" height="10"/>
  <a href="javascript:alert(3)"><circle r="5" cx="20" cy="20"/></a>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"/></div></foreignObject>
  <text x="2" y="30" font-size="8">Hi</text>
</svg>"##;

    fn inert(svg: &str) {
        let lower = svg.to_ascii_lowercase();
        assert!(!lower.contains("<script"), "{svg}");
        assert!(!lower.contains("foreignobject"), "{svg}");
        assert!(!lower.contains("<style"), "{svg}");
        assert!(!lower.contains("<a "), "{svg}");
        let doc = usvg::roxmltree::Document::parse(svg).unwrap();
        for node in doc.descendants().filter(|n| n.is_element()) {
            for a in node.attributes() {
                assert!(!a.name().to_ascii_lowercase().starts_with("on"), "{svg}");
                if a.name() == "href" {
                    assert!(!is_outside(a.value()), "{svg}");
                }
            }
        }
    }

    #[test]
    fn the_clean_copy_keeps_the_drawing_and_nothing_that_acts() {
        let fonts = crate::render::faces::fonts::builtin();
        let svg = clean(HOSTILE.as_bytes(), &fonts).unwrap();
        inert(&svg);
        assert!(svg.contains("<path"), "the drawing stays: {svg}");
        assert!(
            svg.starts_with("<svg viewBox=\"0 0 40 40\" width=\"40\""),
            "{svg}"
        );
        assert!(!svg.contains("evil") && !svg.contains("secret"), "{svg}");
        assert_eq!(
            svg,
            clean(HOSTILE.as_bytes(), &fonts).unwrap(),
            "same bytes"
        );
    }

    #[test]
    fn what_is_dropped_is_said_at_its_place() {
        let found = dropped(HOSTILE);
        let said: Vec<String> = found.iter().map(|f| f.what.describe()).collect();
        for want in [
            "a script",
            "`onload`",
            "`onclick`",
            "`https://evil.example/s.css`",
            "`https://evil.example/a.css`",
            "`https://evil.example/p.svg#g`",
            "`https://evil.example/pixel.png`",
            "`../secret.png`",
            "`javascript:alert(3)`",
            "embedded HTML",
        ] {
            assert!(said.iter().any(|s| s.contains(want)), "{want}: {said:#?}");
        }
        assert!(!said.iter().any(|s| s.contains("`#g`")), "{said:#?}");
        let summary = summary(&found);
        assert!(
            summary.starts_with("a script, the event attributes `onload` and `onclick`, embedded HTML (`<foreignObject>`), references outside the file (`https://evil.example/s.css`, "),
            "{summary}"
        );
        assert!(summary.ends_with(" more)"), "{summary}");
        let script = found.iter().find(|f| f.what == Dropped::Script).unwrap();
        assert_eq!(&HOSTILE[script.at.clone()], "<script");
        let onclick = found
            .iter()
            .find(|f| f.what == Dropped::Event("onclick".into()))
            .unwrap();
        assert_eq!(&HOSTILE[onclick.at.clone()], "onclick=\"alert(2)\"");
        assert!(dropped("<svg xmlns='http://www.w3.org/2000/svg'><rect/></svg>").is_empty());
    }

    #[test]
    fn a_template_is_read_with_its_tags_as_blanks() {
        let template = "{#- a card -#}\n<rect {% if x %}fill=\"red\"{% endif %} width=\"{{ w }}\"/>\n<script>{{ card.name }}</script>\n{{ image(src=card.fields.art, x=1, y=1, w=2, h=2) }}\n<image href=\"{{ card.fields.art }}\"/>";
        let found = dropped_in_template(template);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].what, Dropped::Script);
        assert_eq!(&template[found[0].at.clone()], "<script");
    }
}
