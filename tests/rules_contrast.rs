//! Text in the rules diagrams reads in both colour schemes. axe cannot see text inside SVG, so
//! this test works it out from the drawing: for every `<text>` of every diagram of every shipped
//! game's rules page (the HTML page, where the SVGs are inline under the page's style sheet, and
//! the Markdown's separate `.svg` files under their own), it resolves the fill the text is drawn
//! in and the fill of what it is drawn on (the topmost shape under it, its halo if it has one,
//! or the page's paper) in the light and the dark screen scheme, and asks for WCAG's 4.5:1.
//! The key's swatches (symbols without text) need 3:1 against the paper (WCAG 1.4.11).
//!
//! The CSS is resolved the way a browser does for these pages: `:root` custom properties,
//! `var()` with fallbacks, `@media` for the scheme (print and width queries are not the screen
//! schemes' business: print is the light scheme, widths hold no colours), selectors of classes,
//! attributes, tags and descendants, by specificity and then source order, over the SVG's
//! presentation attributes, with `fill` and `stroke` inherited.

use std::collections::BTreeMap;
use std::path::Path;

use printplay::model::load_game;
use printplay::rules::{Assets, Format, render};
use usvg::roxmltree;

const SHIPPED: &[&str] = &[
    "capek-golems",
    "the-search",
    "aether",
    "imperial-settlers-aztecs",
];

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Scheme {
    Light,
    Dark,
}

// ---------------------------------------------------------------- colours

fn parse_colour(v: &str) -> Option<[f64; 3]> {
    let v = v.trim().to_ascii_lowercase();
    let hex = match v.as_str() {
        "white" => "ffffff".to_string(),
        "black" => "000000".to_string(),
        _ => {
            let h = v.strip_prefix('#')?;
            match h.len() {
                3 => h.chars().flat_map(|c| [c, c]).collect(),
                6 => h.to_string(),
                _ => return None,
            }
        }
    };
    let ch = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok().map(f64::from);
    Some([ch(0)?, ch(2)?, ch(4)?])
}

/// WCAG 2 relative luminance.
fn luminance(rgb: [f64; 3]) -> f64 {
    let lin = |c: f64| {
        let c = c / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2])
}

fn contrast(a: &str, b: &str) -> f64 {
    let (Some(x), Some(y)) = (parse_colour(a), parse_colour(b)) else {
        panic!("not a colour: `{a}` or `{b}`");
    };
    let (x, y) = (luminance(x), luminance(y));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn the_contrast_formula_matches_wcag() {
    assert!((contrast("#ffffff", "#000000") - 21.0).abs() < 1e-9);
    assert!((contrast("#777777", "#ffffff") - 4.48).abs() < 0.01);
    assert!((contrast("#d9482b", "#ffffff") - 4.28).abs() < 0.01);
}

// ---------------------------------------------------------------- CSS

#[derive(Debug, Clone)]
struct Compound {
    tag: Option<String>,
    classes: Vec<String>,
    attrs: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
struct Rule {
    /// Compounds, outermost first; the last one matches the element itself.
    selector: Vec<Compound>,
    specificity: (usize, usize),
    order: usize,
    decls: Vec<(String, String)>,
}

/// The rules of a style sheet that apply on screen in a scheme.
fn css_rules(css: &str, scheme: Scheme, first_order: usize) -> Vec<Rule> {
    let mut text = css.to_string();
    while let Some(i) = text.find("/*") {
        let j = text[i..].find("*/").map_or(text.len(), |j| i + j + 2);
        text.replace_range(i..j, " ");
    }
    let mut out = Vec::new();
    block(&text, scheme, &mut out, first_order);
    out
}

fn media_applies(query: &str, scheme: Scheme) -> bool {
    let q = query.replace(' ', "").to_ascii_lowercase();
    if q.contains("print") && !q.contains("screen") {
        return false;
    }
    if q.contains("prefers-color-scheme:dark") {
        return scheme == Scheme::Dark;
    }
    if q.contains("prefers-color-scheme:light") {
        return scheme == Scheme::Light;
    }
    true
}

/// Index of the `}` closing the `{` at `open`.
fn closing(text: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces in CSS");
}

fn block(text: &str, scheme: Scheme, out: &mut Vec<Rule>, first_order: usize) {
    let mut rest = 0;
    while let Some(open) = text[rest..].find('{').map(|i| rest + i) {
        let prelude = text[rest..open].trim();
        let close = closing(text, open);
        let body = &text[open + 1..close];
        if let Some(query) = prelude.strip_prefix("@media") {
            if media_applies(query, scheme) {
                block(body, scheme, out, first_order);
            }
        } else if !prelude.starts_with('@') {
            let decls: Vec<(String, String)> = body
                .split(';')
                .filter_map(|d| {
                    let (k, v) = d.split_once(':')?;
                    Some((k.trim().to_string(), v.trim().to_string()))
                })
                .collect();
            for sel in prelude.split(',') {
                let selector: Vec<Compound> = sel.split_whitespace().map(compound).collect();
                let specificity = selector.iter().fold((0, 0), |(a, b), c| {
                    (
                        a + c.classes.len() + c.attrs.len(),
                        b + usize::from(c.tag.is_some()),
                    )
                });
                out.push(Rule {
                    selector,
                    specificity,
                    order: first_order + out.len(),
                    decls: decls.clone(),
                });
            }
        }
        rest = close + 1;
    }
}

fn compound(s: &str) -> Compound {
    let mut c = Compound {
        tag: None,
        classes: Vec::new(),
        attrs: Vec::new(),
    };
    let mut rest = s;
    let tag_end = rest.find(['.', '[']).unwrap_or(rest.len());
    if tag_end > 0 && &rest[..tag_end] != "*" {
        c.tag = Some(rest[..tag_end].to_string());
    }
    rest = &rest[tag_end..];
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            c.classes.push(r[..end].to_string());
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').expect("a closed attribute selector");
            let (k, v) = r[..end].split_once('=').unwrap_or((&r[..end], ""));
            c.attrs
                .push((k.to_string(), v.trim_matches(['"', '\'']).to_string()));
            rest = &r[end + 1..];
        } else {
            // Pseudo-classes and the like: this selector matches nothing we resolve.
            c.tag = Some("\u{0}".into());
            break;
        }
    }
    c
}

/// A node of the drawing as the selectors see it, with the ancestors outside the SVG (a
/// `figure` on the HTML page).
fn matches(
    c: &Compound,
    tag: &str,
    classes: &[&str],
    attr: &dyn Fn(&str) -> Option<String>,
) -> bool {
    c.tag.as_deref().is_none_or(|t| t == tag)
        && c.classes.iter().all(|k| classes.contains(&k.as_str()))
        && c.attrs
            .iter()
            .all(|(k, v)| attr(k).is_some_and(|a| v.is_empty() || a.eq_ignore_ascii_case(v)))
}

fn node_matches(c: &Compound, n: roxmltree::Node) -> bool {
    let classes: Vec<&str> = n
        .attribute("class")
        .unwrap_or("")
        .split_whitespace()
        .collect();
    matches(c, n.tag_name().name(), &classes, &|k| {
        n.attribute(k).map(str::to_string)
    })
}

fn rule_matches(rule: &Rule, n: roxmltree::Node, outer: &[&str]) -> bool {
    let Some((last, up)) = rule.selector.split_last() else {
        return false;
    };
    if !node_matches(last, n) {
        return false;
    }
    // Each earlier compound matches some ancestor further out than the previous one.
    let mut ancestors = n.ancestors().skip(1).filter(|a| a.is_element());
    let mut outer_left = outer.iter().rev();
    'compounds: for c in up.iter().rev() {
        for a in ancestors.by_ref() {
            if node_matches(c, a) {
                continue 'compounds;
            }
        }
        for t in outer_left.by_ref() {
            if matches(c, t, &[], &|_| None) {
                continue 'compounds;
            }
        }
        return false;
    }
    true
}

struct Styles {
    rules: Vec<Rule>,
    vars: BTreeMap<String, String>,
}

impl Styles {
    fn new(sheets: &[&str], scheme: Scheme) -> Styles {
        let mut rules = Vec::new();
        for s in sheets {
            let more = css_rules(s, scheme, rules.len());
            rules.extend(more);
        }
        let mut vars = BTreeMap::new();
        for r in &rules {
            if r.selector.len() == 1 && r.selector[0].tag.as_deref() == Some(":root") {
                for (k, v) in &r.decls {
                    if k.starts_with("--") {
                        vars.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        rules.sort_by_key(|r| (r.specificity, r.order));
        Styles { rules, vars }
    }

    fn resolve(&self, v: &str) -> String {
        let v = v.trim();
        if let Some(inner) = v.strip_prefix("var(").and_then(|s| s.strip_suffix(')')) {
            let (name, fallback) = match inner.split_once(',') {
                Some((n, f)) => (n.trim(), Some(f.trim())),
                None => (inner.trim(), None),
            };
            return match (self.vars.get(name), fallback) {
                (Some(x), _) => self.resolve(x),
                (None, Some(f)) => self.resolve(f),
                (None, None) => panic!("`{name}` is not defined"),
            };
        }
        v.to_string()
    }

    /// The `fill` or `stroke` a node is painted with, inherited as SVG does.
    fn paint(&self, n: roxmltree::Node, property: &str, outer: &[&str]) -> Option<String> {
        let mut node = Some(n);
        while let Some(e) = node.filter(|e| e.is_element()) {
            let css = self
                .rules
                .iter()
                .rev()
                .filter(|r| rule_matches(r, e, outer))
                .find_map(|r| r.decls.iter().rev().find(|(k, _)| k == property));
            if let Some((_, v)) = css {
                return Some(self.resolve(v));
            }
            if let Some(v) = e.attribute(property) {
                return Some(self.resolve(v));
            }
            node = e.parent();
        }
        (property == "fill").then(|| "#000000".to_string())
    }
}

// ---------------------------------------------------------------- geometry

fn num(n: roxmltree::Node, a: &str) -> f64 {
    n.attribute(a)
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0)
}

/// A filled shape that text may sit on.
enum Shape {
    Rect(f64, f64, f64, f64),
    Circle(f64, f64, f64),
    Polygon(Vec<(f64, f64)>),
}

impl Shape {
    fn contains(&self, x: f64, y: f64) -> bool {
        match self {
            Shape::Rect(x0, y0, w, h) => x >= *x0 && x <= x0 + w && y >= *y0 && y <= y0 + h,
            Shape::Circle(cx, cy, r) => (x - cx).powi(2) + (y - cy).powi(2) <= r * r,
            Shape::Polygon(p) => {
                let mut inside = false;
                let mut j = p.len() - 1;
                for i in 0..p.len() {
                    let ((xi, yi), (xj, yj)) = (p[i], p[j]);
                    if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
                        inside = !inside;
                    }
                    j = i;
                }
                inside
            }
        }
    }
}

/// The shape a node draws, in the SVG's user units (`vw` x `vh` for percentages). A mark
/// (`path`) lies in the unit box its `translate(x y) scale(s)` places.
fn shape(n: roxmltree::Node, vw: f64, vh: f64) -> Option<Shape> {
    let len = |a: &str, full: f64| {
        let v = n.attribute(a).unwrap_or("0").trim();
        match v.strip_suffix('%') {
            Some(p) => p.parse::<f64>().unwrap_or(0.0) / 100.0 * full,
            None => v.parse().unwrap_or(0.0),
        }
    };
    match n.tag_name().name() {
        "rect" => Some(Shape::Rect(
            len("x", vw),
            len("y", vh),
            len("width", vw),
            len("height", vh),
        )),
        "circle" => Some(Shape::Circle(num(n, "cx"), num(n, "cy"), num(n, "r"))),
        "polygon" => {
            let v: Vec<f64> = n
                .attribute("points")?
                .split([' ', ','])
                .filter_map(|s| s.parse().ok())
                .collect();
            Some(Shape::Polygon(v.chunks(2).map(|p| (p[0], p[1])).collect()))
        }
        "path" => {
            let t = n.attribute("transform")?;
            let nums: Vec<f64> = t
                .split(['(', ')', ' ', ','])
                .filter_map(|s| s.parse().ok())
                .collect();
            let [x, y, s] = nums[..] else { return None };
            Some(Shape::Rect(x - s, y - s, 2.0 * s, 2.0 * s))
        }
        _ => None,
    }
}

/// One line of text: its characters and the box they fill (x0, y0, x1, y1), generously
/// estimated (0.62 em per character), so that a label close to a shape's edge counts as on
/// both sides.
fn text_lines(t: roxmltree::Node) -> Vec<(String, [f64; 4])> {
    let size = t
        .attribute("font-size")
        .and_then(|v| v.parse().ok())
        .unwrap_or(16.0);
    let anchor = t.attribute("text-anchor").unwrap_or("start");
    let middle = t.attribute("dominant-baseline") == Some("middle");
    let bbox = |s: &str, x: f64, y: f64| {
        let w = s.chars().count() as f64 * size * 0.62;
        let x0 = match anchor {
            "middle" => x - w / 2.0,
            "end" => x - w,
            _ => x,
        };
        let (y0, y1) = if middle {
            (y - 0.36 * size, y + 0.36 * size)
        } else {
            (y - 0.72 * size, y)
        };
        [x0, y0, x0 + w, y1]
    };
    let (x, mut y) = (num(t, "x"), num(t, "y"));
    let spans: Vec<_> = t.children().filter(|c| c.has_tag_name("tspan")).collect();
    if spans.is_empty() {
        let s: String = t
            .descendants()
            .filter(|d| d.is_text())
            .filter_map(|d| d.text())
            .collect();
        return vec![(s.clone(), bbox(s.trim(), x, y))];
    }
    spans
        .iter()
        .map(|sp| {
            y += num(*sp, "dy");
            let s = sp.text().unwrap_or("").trim().to_string();
            let sx = sp.attribute("x").and_then(|v| v.parse().ok()).unwrap_or(x);
            (s.clone(), bbox(&s, sx, y))
        })
        .collect()
}

// ---------------------------------------------------------------- the check

/// The worst contrast found: ratio, where, text, ink, background.
#[derive(Debug, Clone)]
struct Pair {
    ratio: f64,
    place: String,
    text: String,
    ink: String,
    ground: String,
}

/// Every text of one SVG in one scheme; `paper` is what lies behind the drawing (the page's
/// paper), or `None` for a file of its own, which must paint its own background.
fn svg_pairs(
    svg: &str,
    place: &str,
    styles: &Styles,
    outer: &[&str],
    paper: Option<&str>,
) -> Vec<Pair> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{place}: {e}"));
    let root = doc.root_element();
    let vb: Vec<f64> = root
        .attribute("viewBox")
        .unwrap_or("0 0 0 0")
        .split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect();
    let (vw, vh) = (vb[2], vb[3]);
    let mut painted: Vec<(Shape, String)> = Vec::new();
    let mut out = Vec::new();
    for n in root.descendants().filter(|n| n.is_element()) {
        if n.ancestors().any(|a| {
            matches!(
                a.tag_name().name(),
                "defs" | "marker" | "title" | "desc" | "style"
            )
        }) {
            continue;
        }
        if n.has_tag_name("text") {
            let ink = styles.paint(n, "fill", outer).unwrap();
            let halo = styles
                .paint(n, "stroke", outer)
                .filter(|s| s != "none")
                .filter(|_| {
                    n.attribute("paint-order")
                        .is_some_and(|p| p.starts_with("stroke"))
                        && num(n, "stroke-width") >= 2.0
                });
            for (s, [x0, y0, x1, y1]) in text_lines(n) {
                if s.is_empty() {
                    continue;
                }
                let mut grounds = Vec::new();
                if let Some(h) = &halo {
                    grounds.push(h.clone());
                } else {
                    for fx in [0.03, 0.5, 0.97] {
                        for fy in [0.2, 0.5, 0.85] {
                            // What runs past the drawing's edge is not drawn.
                            let (x, y) = (
                                (x0 + fx * (x1 - x0)).clamp(0.0, vw),
                                (y0 + fy * (y1 - y0)).clamp(0.0, vh),
                            );
                            let under = painted
                                .iter()
                                .rev()
                                .find(|(sh, _)| sh.contains(x, y))
                                .map(|(_, f)| f.clone())
                                .or_else(|| paper.map(str::to_string))
                                .unwrap_or_else(|| {
                                    panic!(
                                        "{place}: `{s}` at ({x:.0}, {y:.0}) lies on no background \
                                         of the file's own (a Markdown viewer's page could be any \
                                         colour); {} shapes",
                                        painted.len()
                                    )
                                });
                            grounds.push(under);
                        }
                    }
                }
                for g in grounds {
                    out.push(Pair {
                        ratio: contrast(&ink, &g),
                        place: place.to_string(),
                        text: s.clone(),
                        ink: ink.clone(),
                        ground: g,
                    });
                }
            }
        } else if let Some(sh) = shape(n, vw, vh) {
            let fill = styles.paint(n, "fill", outer).unwrap();
            let opacity = n.attribute("fill-opacity").or(n.attribute("opacity"));
            if fill != "none" && fill != "transparent" && opacity.is_none_or(|o| o == "1") {
                painted.push((sh, fill));
            }
        }
    }
    out
}

/// The page's own style sheet (the first `<style>` of its head).
fn page_css(html: &str) -> &str {
    let i = html.find("<style>").expect("a <style>") + "<style>".len();
    &html[i..i + html[i..].find("</style>").unwrap()]
}

/// The SVG's own style sheet, if any.
fn svg_css(svg: &str) -> &str {
    match svg.find("<style>") {
        Some(i) => {
            let i = i + "<style>".len();
            &svg[i..i + svg[i..].find("</style>").unwrap()]
        }
        None => "",
    }
}

fn svgs(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(i) = html[rest..].find("<svg").map(|i| rest + i) {
        let j = i + html[i..].find("</svg>").unwrap() + "</svg>".len();
        out.push(&html[i..j]);
        rest = j;
    }
    out
}

#[test]
fn every_diagram_text_reads_in_light_and_dark() {
    let assets = Assets::load_default().expect("templates load");
    let mut failures = Vec::new();
    let mut worst: BTreeMap<(String, Scheme), Pair> = BTreeMap::new();
    let mut texts = 0;
    for slug in SHIPPED {
        let game = load_game(Path::new("data"), slug).unwrap();
        for lang in printplay::rules::languages(&game) {
            let html = render(&game, &lang, Format::Html, &assets).unwrap();
            let md = render(&game, &lang, Format::Md, &assets).unwrap();
            for scheme in [Scheme::Light, Scheme::Dark] {
                let mut pairs = Vec::new();
                // The HTML pages: inline diagrams under the page's style sheet.
                for page in html.iter().filter(|f| f.name.ends_with(".html")) {
                    let css = page_css(&page.text);
                    let base = Styles::new(&[css], scheme);
                    let paper = base.resolve("var(--paper)");
                    for (k, svg) in svgs(&page.text).into_iter().enumerate() {
                        if svg.starts_with("<svg class=\"swatch\"") {
                            // A symbol of the key: its disc or its outline stands out.
                            let doc = roxmltree::Document::parse(svg).unwrap();
                            let styles = Styles::new(&[css], scheme);
                            for c in doc.descendants().filter(|n| n.has_tag_name("circle")) {
                                let fill = styles.paint(c, "fill", &[]).unwrap();
                                let line = styles.paint(c, "stroke", &[]).unwrap();
                                let r = contrast(&fill, &paper).max(contrast(&line, &paper));
                                if r < 3.0 {
                                    failures.push(format!(
                                        "{slug} {lang} {scheme:?}: a key swatch {fill} outlined \
                                         {line} on paper {paper}: {r:.2}:1"
                                    ));
                                }
                            }
                            continue;
                        }
                        let styles = Styles::new(&[css, svg_css(svg)], scheme);
                        let place = format!("{slug}/{} svg #{k}", page.name);
                        pairs.extend(svg_pairs(svg, &place, &styles, &["figure"], Some(&paper)));
                    }
                }
                // The Markdown's diagrams: files of their own, under their own style only.
                let files: Vec<_> = md.iter().filter(|f| f.name.ends_with(".svg")).collect();
                for f in &files {
                    let styles = Styles::new(&[svg_css(&f.text)], scheme);
                    let place = format!("{slug}/{}", f.name);
                    pairs.extend(svg_pairs(&f.text, &place, &styles, &[], None));
                }
                texts += pairs.len();
                for p in pairs {
                    if p.ratio < 4.5 {
                        failures.push(format!(
                            "{} ({scheme:?}): `{}` in {} on {}: {:.2}:1",
                            p.place, p.text, p.ink, p.ground, p.ratio
                        ));
                    }
                    let key = (slug.to_string(), scheme);
                    if worst.get(&key).is_none_or(|w| p.ratio < w.ratio) {
                        worst.insert(key, p);
                    }
                }
            }
        }
    }
    for ((slug, scheme), p) in &worst {
        eprintln!(
            "worst {slug} {scheme:?}: {:.2}:1 `{}` {} on {} ({})",
            p.ratio, p.text, p.ink, p.ground, p.place
        );
    }
    assert!(
        texts > 100,
        "only {texts} text samples: the diagrams were not found"
    );
    // Capek, The Search and Aether draw diagrams; the Aztecs' odds are a table.
    for slug in ["capek-golems", "the-search", "aether"] {
        for scheme in [Scheme::Light, Scheme::Dark] {
            assert!(
                worst.contains_key(&(slug.to_string(), scheme)),
                "{slug} {scheme:?}: no diagram text checked"
            );
        }
    }
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} texts below their contrast:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The check itself catches what the issue found: white text on a coloured shape that a dark
/// style turns into paper, and a black label on dark paper.
#[test]
fn the_check_catches_text_that_a_dark_style_hides() {
    let css = ":root{--paper:#fff;--ink:#111}\
               @media (prefers-color-scheme: dark){:root{--paper:#16181c;--ink:#eee}\
               figure svg [fill=\"#ffffff\"]{fill:var(--paper)}}";
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><rect x="0" y="0" width="100" height="30" fill="#2b3a42"/><text x="50" y="20" font-size="12" text-anchor="middle" fill="#ffffff">Torso Motor</text><text x="5" y="45" font-size="12" fill="#1b1b1b">label</text></svg>"##;
    let light = Styles::new(&[css], Scheme::Light);
    let pairs = svg_pairs(svg, "t", &light, &["figure"], Some("#fff"));
    assert!(pairs.iter().all(|p| p.ratio >= 4.5), "{pairs:?}");
    let dark = Styles::new(&[css], Scheme::Dark);
    let pairs = svg_pairs(svg, "t", &dark, &["figure"], Some("#16181c"));
    let torso = pairs.iter().filter(|p| p.text == "Torso Motor");
    assert!(torso.clone().all(|p| p.ratio < 1.6), "{pairs:?}");
    let label = pairs.iter().filter(|p| p.text == "label");
    assert!(label.clone().all(|p| p.ratio < 1.1), "{pairs:?}");
}
