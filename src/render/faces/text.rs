//! Text that wraps and shrinks to fit its box, with inline markup (see [`crate::render::faces::markup`]):
//! `**bold**` and `*italic*` runs set in the faces of those styles, and icons drawn on the
//! baseline.
//!
//! A character the face of its text has no glyph for is set in the face the game's fonts
//! offer for it, of the same weight and slant where one has it, and measured with that
//! face's advance; a line with one is placed run by run, so that the rest of it stays in its
//! own face (usvg would set a whole element in the fallback face).
//!
//! In text, `[id]` names a symbol of the game (an element, an inquiry colour, a coin), drawn
//! as that symbol's badge sitting on the baseline like a capital letter, or one of the game's
//! own `[[icon]]` images, drawn at the same height (vector when it is an SVG).
//!
//! Lines are broken where they read best, not only where the first line fills: among the
//! breaks that need the fewest lines, the one whose lines are most even (centred and
//! right-aligned text: all its lines; left-aligned: all but the last), avoiding a short word
//! alone on a line ("The / Search: Police"), a line ending in a one-character word
//! ("a", "·") and a single word alone on the last line.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use crate::model::Symbol;
use crate::render::faces::fonts::{self, Face, GameFaces, Metrics};
use crate::render::faces::images::{self, Art};
use crate::render::faces::marks;
use crate::render::faces::markup::{self, Frag, Item, Style};
use crate::render::xml_escape;

/// The faces of the four styles text of a box may use (`None` where no font has the
/// style), and the faces that draw a character the face of its style lacks.
#[derive(Debug, Clone)]
pub struct Styles {
    styles: [Option<Face>; 4],
    /// Every face the game may use, its own first: a character is set in the one
    /// [`fonts::fallback_among`] chooses when the face of its text has no glyph for it.
    fallback: Arc<[Face]>,
}

impl Styles {
    /// The styles of text set in `base`, from the faces a game may use.
    pub fn of(faces: &GameFaces, base: Face) -> Styles {
        let mut styles = [None; 4];
        for (i, slot) in styles.iter_mut().enumerate() {
            *slot = faces.styled(base, style_at(i));
        }
        Styles {
            styles,
            fallback: faces.all().into(),
        }
    }

    /// The styles of text set in `base` with the bundled faces only.
    pub fn bundled(base: Face) -> Styles {
        Styles::of(&GameFaces::bundled(), base)
    }

    fn get(&self, s: Style) -> Option<Face> {
        self.styles[usize::from(s.bold) * 2 + usize::from(s.italic)]
    }

    /// `text` set in `face` cut where the face changes: a character `face` has no glyph
    /// for goes in the fallback face of its weight and slant (in `face`, as a box, when
    /// no face has it); a character no face needs a glyph for (a joiner, a variation
    /// selector) stays with the one before it, so a sequence is set in one face.
    fn runs(&self, text: &str, face: Face) -> Vec<(String, Face)> {
        let metrics = Metrics::of(face);
        let mut out: Vec<(String, Face)> = Vec::new();
        let mut last: Option<(char, Face)> = None;
        for c in text.chars() {
            let f = if fonts::draws_nothing(c) {
                out.last().map_or(face, |r| r.1)
            } else if metrics.has_char(c) {
                face
            } else {
                match last {
                    Some((prev, f)) if prev == c => f,
                    _ => fonts::fallback_among(self.fallback.iter().copied(), face, c)
                        .unwrap_or(face),
                }
            };
            last = Some((c, f));
            match out.last_mut() {
                Some((run, rf)) if *rf == f => run.push(c),
                _ => out.push((c.to_string(), f)),
            }
        }
        out
    }
}

fn style_at(i: usize) -> Style {
    Style {
        bold: i & 2 != 0,
        italic: i & 1 != 0,
    }
}

/// One of the game's own icons, ready to place.
#[derive(Debug, Clone)]
pub struct OwnIcon {
    pub art: Arc<Art>,
    /// Width over height.
    pub aspect: f64,
}

/// What `[id]` may draw: the game's symbols and its own icons.
#[derive(Debug, Clone, Copy)]
pub struct Inline<'a> {
    pub symbols: &'a BTreeMap<String, Symbol>,
    pub icons: &'a BTreeMap<String, OwnIcon>,
}

impl<'a> Inline<'a> {
    fn glyph(&self, id: &str) -> Option<Glyph<'a>> {
        self.symbols
            .get(id)
            .map(Glyph::Symbol)
            .or_else(|| self.icons.get(id).map(Glyph::Own))
    }

    fn has(&self, id: &str) -> bool {
        self.symbols.contains_key(id) || self.icons.contains_key(id)
    }
}

/// Where and how a block of text is set.
#[derive(Debug, Clone)]
pub struct TextBox {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// Largest font size (mm); the text shrinks from here.
    pub size: f64,
    /// Smallest font size (mm); text that does not fit at this size overflows.
    pub min: f64,
    pub face: Face,
    /// The faces of bold and italic runs.
    pub styles: Styles,
    /// `start`, `middle` or `end`.
    pub align: String,
    pub fill: String,
    /// Line height as a multiple of the font size.
    pub leading: f64,
}

/// The SVG of a text box and whether the text fits.
pub struct Fitted {
    pub svg: String,
    pub fits: bool,
    pub size: f64,
    /// Styles the text asks for that no font provides (set in the box's face instead).
    pub missing: Vec<Style>,
}

#[derive(Debug, Clone, Copy)]
enum Glyph<'a> {
    Symbol(&'a Symbol),
    Own(&'a OwnIcon),
}

#[derive(Debug, Clone)]
enum Part<'a> {
    Text(String, Face),
    Icon(Glyph<'a>),
}

/// A word measured at size 1: its parts with their widths.
#[derive(Debug, Clone)]
struct Word<'a> {
    parts: Vec<(Part<'a>, f64)>,
    width: f64,
    /// The space before it, and the face it is set in.
    gap: f64,
    gap_face: Face,
    /// A word of four characters or fewer, which should not stand alone on a line.
    short: bool,
    /// A word of one character ("a", "·", "&"), which should not end a line.
    binding: bool,
}

/// Icons are as wide as a badge a capital's height across, with a little air.
fn icon_width(cap: f64) -> f64 {
    cap * 1.35
}

/// The words of each paragraph (a line break in the text starts one), measured at size 1.
fn measure<'a>(
    items: &[Item],
    b: &TextBox,
    inline: &Inline<'a>,
    missing: &mut Vec<Style>,
) -> Vec<Vec<Word<'a>>> {
    let cap = Metrics::of(b.face).cap_height();
    let mut face_of = |s: Style| {
        b.styles.get(s).unwrap_or_else(|| {
            if !missing.contains(&s) {
                missing.push(s);
            }
            b.face
        })
    };
    let mut paras = vec![Vec::new()];
    for item in items {
        let (frags, gap) = match item {
            Item::Break => {
                paras.push(Vec::new());
                continue;
            }
            Item::Word { frags, gap } => (frags, *gap),
        };
        let mut parts = Vec::new();
        let mut chars = 0;
        let mut icons = 0;
        for f in frags {
            match f {
                Frag::Text(t, s) => {
                    let face = face_of(*s);
                    chars += t.chars().count();
                    for (run, face) in b.styles.runs(t, face) {
                        let w = Metrics::of(face).width(&run, 1.0);
                        parts.push((Part::Text(run, face), w));
                    }
                }
                Frag::Icon(id) => {
                    let Some(glyph) = inline.glyph(id) else {
                        continue;
                    };
                    icons += 1;
                    let w = match glyph {
                        Glyph::Symbol(_) => icon_width(cap),
                        Glyph::Own(icon) => own_height(cap) * icon.aspect + icon_width(cap) * 0.05,
                    };
                    parts.push((Part::Icon(glyph), w));
                }
            }
        }
        let gap_face = face_of(gap);
        paras
            .last_mut()
            .expect("paragraphs start non-empty")
            .push(Word {
                width: parts.iter().map(|p| p.1).sum(),
                parts,
                gap: Metrics::of(gap_face).width(" ", 1.0),
                gap_face,
                short: icons == 0 && chars <= 4,
                binding: icons == 0 && chars == 1,
            });
    }
    paras
}

/// The height of an own icon at size 1: that of a symbol's badge.
fn own_height(cap: f64) -> f64 {
    icon_width(cap) * 0.95
}

/// A laid-out line: a range of one paragraph's words.
struct Line {
    para: usize,
    words: Range<usize>,
}

fn line_width(words: &[Word], size: f64) -> f64 {
    words
        .iter()
        .enumerate()
        .map(|(i, w)| if i > 0 { w.width + w.gap } else { w.width })
        .sum::<f64>()
        * size
}

/// Breaks every paragraph into the fewest lines that fit, then the most even ones.
fn wrap(paras: &[Vec<Word>], size: f64, b: &TextBox) -> Vec<Line> {
    let balanced = b.align != "start";
    let mut lines = Vec::new();
    for (p, words) in paras.iter().enumerate() {
        for words in breaks(words, size, b.w, balanced) {
            lines.push(Line { para: p, words });
        }
    }
    lines
}

/// The lines of one paragraph: among the breaks that need the fewest lines, the one of
/// least cost (uneven lines, and the penalties of the module's documentation).
fn breaks(words: &[Word], size: f64, width: f64, balanced: bool) -> Vec<Range<usize>> {
    let n = words.len();
    if n == 0 {
        // An empty paragraph (two line breaks in a row) is one empty line.
        return std::iter::once(0..0).collect();
    }
    // best[j]: the fewest lines holding the first j words, the least cost, where its last
    // line starts.
    let mut best: Vec<Option<(usize, f64, usize)>> = vec![None; n + 1];
    best[0] = Some((0, 0.0, 0));
    for j in 1..=n {
        let mut w = 0.0;
        for i in (0..j).rev() {
            w += words[i].width * size;
            if i + 1 < j {
                w += words[i + 1].gap * size;
                if w > width + 1e-9 {
                    break;
                }
            }
            let Some((lines, cost, _)) = best[i] else {
                continue;
            };
            let last = j == n;
            let slack = ((width - w) / width.max(1e-9)).max(0.0);
            let mut c = if balanced || !last {
                slack * slack
            } else {
                0.0
            };
            if !last && j - i == 1 && words[i].short {
                c += 4.0;
            }
            if !last && words[j - 1].binding {
                c += 4.0;
            }
            if last && j - i == 1 && i > 0 {
                c += 2.0;
            }
            let candidate = (lines + 1, cost + c, i);
            let better = match best[j] {
                None => true,
                Some((l, k, _)) => candidate.0 < l || (candidate.0 == l && candidate.1 < k - 1e-12),
            };
            if better {
                best[j] = Some(candidate);
            }
        }
    }
    let mut out = Vec::new();
    let mut j = n;
    while j > 0 {
        let (_, _, i) = best[j].expect("every word ends some line");
        out.push(i..j);
        j = i;
    }
    out.reverse();
    out
}

fn fits(paras: &[Vec<Word>], lines: &[Line], size: f64, b: &TextBox) -> bool {
    let height = lines.len() as f64 * size * b.leading;
    height <= b.h + 1e-9
        && lines
            .iter()
            .all(|l| line_width(&paras[l.para][l.words.clone()], size) <= b.w + 1e-9)
}

/// Sets `text` in the box: the largest size from `size` down to `min` (in steps of 2 %)
/// at which it fits; at `min` it is set anyway and `fits` is false.
pub fn fit(text: &str, b: &TextBox, inline: &Inline) -> Fitted {
    // A line break at the end (a list built line by line) adds no empty line.
    let text = text.trim_end();
    let items = markup::parse(text, &|id| inline.has(id));
    let mut missing = Vec::new();
    let paras = measure(&items, b, inline, &mut missing);
    let mut size = b.size;
    loop {
        let lines = wrap(&paras, size, b);
        let ok = fits(&paras, &lines, size, b);
        if ok || size <= b.min {
            return Fitted {
                svg: draw(&paras, &lines, size, b),
                fits: ok,
                size,
                missing,
            };
        }
        size = (size * 0.98).max(b.min);
    }
}

fn draw(paras: &[Vec<Word>], lines: &[Line], size: f64, b: &TextBox) -> String {
    let cap = Metrics::of(b.face).cap_height();
    let block = lines.len() as f64 * size * b.leading;
    // Centre the block vertically in its box; the first baseline sits one cap height down.
    let top = b.y + ((b.h - block) / 2.0).max(0.0);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let words = &paras[line.para][line.words.clone()];
        let baseline = top + i as f64 * size * b.leading + (size * b.leading + size * cap) / 2.0;
        let width = line_width(words, size);
        let has_icon = words
            .iter()
            .any(|w| w.parts.iter().any(|p| matches!(p.0, Part::Icon(_))));
        // usvg shapes a whole text element in each face of it, and sets the element wholly
        // in another face when one of them lacks a character of it (usvg 0.47,
        // `text::layout::shape_text`): a line whose faces do not all have all its characters
        // (one set in a fallback face) is placed face by face, each run as measured.
        let apart = !one_element(words);
        if !has_icon && !apart {
            // Text only: one element anchored where the box says, so kerning cannot shift it.
            let mut run = Vec::new();
            for (k, w) in words.iter().enumerate() {
                if k > 0 {
                    run.push((" ".to_string(), w.gap_face));
                }
                for (part, _) in &w.parts {
                    if let Part::Text(t, face) = part {
                        run.push((t.clone(), *face));
                    }
                }
            }
            let (ax, anchor) = match b.align.as_str() {
                "middle" => (b.x + b.w / 2.0, "middle"),
                "end" => (b.x + b.w, "end"),
                _ => (b.x, "start"),
            };
            out.push_str(&text_run(&run, ax, baseline, size, anchor, b));
            continue;
        }
        let mut x = match b.align.as_str() {
            "middle" => b.x + (b.w - width) / 2.0,
            "end" => b.x + b.w - width,
            _ => b.x,
        };
        // Consecutive words go into one text element (so the PDF's text reads as written);
        // an icon ends the run and is drawn in the gap measured for it.
        let mut run: Vec<(String, Face)> = Vec::new();
        let mut run_x = x;
        for (k, word) in words.iter().enumerate() {
            if k > 0 {
                // Placed face by face, a run is in one face, its spaces too (where the next
                // word starts is measured, not left to the space).
                if let Some(&(_, last)) = run.last() {
                    run.push((" ".to_string(), if apart { last } else { word.gap_face }));
                }
                x += word.gap * size;
            }
            for (part, w) in &word.parts {
                let w = w * size;
                match part {
                    Part::Text(t, face) => {
                        if apart && run.last().is_some_and(|(_, f)| f != face) {
                            out.push_str(&text_run(&run, run_x, baseline, size, "start", b));
                            run.clear();
                        }
                        if run.is_empty() {
                            run_x = x;
                        }
                        run.push((t.clone(), *face));
                    }
                    Part::Icon(glyph) => {
                        out.push_str(&text_run(&run, run_x, baseline, size, "start", b));
                        run.clear();
                        out.push_str(&icon(glyph, x, w, baseline, size * cap));
                    }
                }
                x += w;
            }
        }
        out.push_str(&text_run(&run, run_x, baseline, size, "start", b));
    }
    out
}

/// Whether every face of a line's text has a glyph for every character of it (those no
/// face needs one for aside), so that it can be one text element.
fn one_element(words: &[Word]) -> bool {
    let mut faces = Vec::new();
    for (k, w) in words.iter().enumerate() {
        if k > 0 && !faces.contains(&w.gap_face) {
            faces.push(w.gap_face);
        }
        for (part, _) in &w.parts {
            if let Part::Text(_, face) = part
                && !faces.contains(face)
            {
                faces.push(*face);
            }
        }
    }
    let faces: Vec<&Metrics> = faces.into_iter().map(Metrics::of).collect();
    words
        .iter()
        .flat_map(|w| &w.parts)
        .filter_map(|(p, _)| match p {
            Part::Text(t, _) => Some(t),
            Part::Icon(_) => None,
        })
        .flat_map(|t| t.chars())
        .filter(|c| !fonts::draws_nothing(*c))
        .all(|c| faces.iter().all(|f| f.has_char(c)))
}

/// An icon in a gap `w` wide from `left`, its bottom on the baseline.
fn icon(glyph: &Glyph, left: f64, w: f64, baseline: f64, cap: f64) -> String {
    match glyph {
        // The badge's bottom sits on the baseline, its height about that of a capital.
        Glyph::Symbol(sym) => {
            let r = w / 2.0 * 0.95;
            marks::badge(sym, left + w / 2.0, baseline - r, r)
        }
        Glyph::Own(own) => {
            let h = own_height(cap);
            let iw = h * own.aspect;
            images::element(
                &own.art,
                left + (w - iw) / 2.0,
                baseline - h,
                iw,
                h,
                "xMidYMid meet",
            )
        }
    }
}

/// One text element: the box's face, and a `<tspan>` for each run in another.
fn text_run(
    run: &[(String, Face)],
    x: f64,
    baseline: f64,
    size: f64,
    anchor: &str,
    b: &TextBox,
) -> String {
    if run.iter().all(|(t, _)| t.is_empty()) {
        return String::new();
    }
    let mut merged: Vec<(String, Face)> = Vec::new();
    for (t, face) in run {
        match merged.last_mut() {
            Some((prev, f)) if f == face => prev.push_str(t),
            _ => merged.push((t.clone(), *face)),
        }
    }
    let face = b.face;
    let mut body = String::new();
    for (t, f) in &merged {
        if *f == face {
            body.push_str(&xml_escape(t));
        } else {
            body.push_str(&format!(
                "<tspan {}>{}</tspan>",
                f.span_attrs(),
                xml_escape(t)
            ));
        }
    }
    format!(
        r#"<text x="{x:.3}" y="{baseline:.3}" font-size="{size:.3}" text-anchor="{anchor}" {attrs} fill="{fill}" xml:space="preserve">{body}</text>"#,
        attrs = face.svg_attrs(),
        fill = b.fill,
    )
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
