//! Text that wraps and shrinks to fit its box, with symbols inline on the baseline.
//!
//! In text, `[id]` names a symbol of the game (an element, an inquiry colour, a coin); it is
//! drawn as that symbol's badge, sitting on the baseline like a capital letter.

use std::collections::BTreeMap;

use crate::model::Symbol;
use crate::render::fonts::{Face, Metrics};
use crate::render::marks;
use crate::render::xml_escape;

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
}

#[derive(Debug, Clone)]
enum Piece<'a> {
    Word(String),
    Icon(&'a Symbol),
    Break,
}

fn pieces<'a>(text: &str, symbols: &'a BTreeMap<String, Symbol>) -> Vec<Piece<'a>> {
    let mut out = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push(Piece::Break);
        }
        for word in line.split_whitespace() {
            split_icons(word, symbols, &mut out);
        }
    }
    out
}

/// Splits `a[fire]b` into a word, an icon and a word; unknown `[...]` stays text.
fn split_icons<'a>(word: &str, symbols: &'a BTreeMap<String, Symbol>, out: &mut Vec<Piece<'a>>) {
    let mut rest = word;
    let mut text = String::new();
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']').map(|c| open + c) else {
            break;
        };
        let id = &rest[open + 1..close];
        if let Some(sym) = symbols.get(id) {
            text.push_str(&rest[..open]);
            if !text.is_empty() {
                out.push(Piece::Word(std::mem::take(&mut text)));
            }
            out.push(Piece::Icon(sym));
        } else {
            text.push_str(&rest[..=close]);
        }
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    if !text.is_empty() {
        out.push(Piece::Word(text));
    }
}

/// A laid-out line: runs of (text or icon) with their widths, glued where the source had no
/// space; `forced` when a line break in the text started it.
struct Line<'a> {
    runs: Vec<(Piece<'a>, f64, bool)>,
    forced: bool,
}

impl Line<'_> {
    fn width(&self, space: f64) -> f64 {
        self.runs
            .iter()
            .enumerate()
            .map(|(i, (_, w, glued))| if i > 0 && !glued { w + space } else { *w })
            .sum()
    }
}

fn icon_width(size: f64, cap: f64) -> f64 {
    size * cap * 1.35
}

fn wrap<'a>(items: &[Piece<'a>], glue: &[bool], size: f64, b: &TextBox) -> Vec<Line<'a>> {
    let m = Metrics::of(b.face);
    let cap = m.cap_height();
    let space = m.width(" ", size);
    let mut lines = vec![Line {
        runs: Vec::new(),
        forced: false,
    }];
    for (item, &glued) in items.iter().zip(glue) {
        let w = match item {
            Piece::Word(t) => m.width(t, size),
            Piece::Icon(_) => icon_width(size, cap),
            Piece::Break => {
                lines.push(Line {
                    runs: Vec::new(),
                    forced: true,
                });
                continue;
            }
        };
        let line = lines.last_mut().expect("lines start non-empty");
        let extra = if line.runs.is_empty() || glued {
            w
        } else {
            w + space
        };
        if !line.runs.is_empty() && !glued && line.width(space) + extra > b.w {
            lines.push(Line {
                runs: vec![(item.clone(), w, false)],
                forced: false,
            });
        } else {
            line.runs.push((item.clone(), w, glued));
        }
    }
    avoid_widow(&mut lines, space, b.w);
    lines
}

/// A word left alone on the last line ("Val / Justinia", "double / A") takes the word
/// before it along when that still fits, so names and titles break between their parts.
fn avoid_widow(lines: &mut [Line], space: f64, width: f64) {
    let n = lines.len();
    if n < 2 || lines[n - 1].forced || lines[n - 1].runs.len() != 1 {
        return;
    }
    let prev = &lines[n - 2].runs;
    // Only a word that stands apart (not glued to an icon) and leaves a word behind moves.
    if prev.len() < 2 || prev.last().is_some_and(|r| r.2) {
        return;
    }
    let (piece, w, _) = prev.last().cloned().expect("two runs");
    if lines[n - 1].width(space) + space + w > width + 1e-9 {
        return;
    }
    lines[n - 2].runs.pop();
    lines[n - 1].runs.insert(0, (piece, w, false));
}

/// Which pieces follow the previous one without a space (`word[icon]`).
fn glue_flags(text: &str, symbols: &BTreeMap<String, Symbol>) -> Vec<bool> {
    let mut flags = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            flags.push(false);
        }
        for word in line.split_whitespace() {
            let mut parts = Vec::new();
            split_icons(word, symbols, &mut parts);
            for j in 0..parts.len() {
                flags.push(j > 0);
            }
        }
    }
    flags
}

fn fits(lines: &[Line], size: f64, b: &TextBox) -> bool {
    let m = Metrics::of(b.face);
    let space = m.width(" ", size);
    let height = lines.len() as f64 * size * b.leading;
    height <= b.h + 1e-9 && lines.iter().all(|l| l.width(space) <= b.w + 1e-9)
}

/// Sets `text` in the box: the largest size from `size` down to `min` (in steps of 2 %)
/// at which it fits; at `min` it is set anyway and `fits` is false.
pub fn fit(text: &str, b: &TextBox, symbols: &BTreeMap<String, Symbol>) -> Fitted {
    // A line break at the end (a list built line by line) adds no empty line.
    let text = text.trim_end();
    let items = pieces(text, symbols);
    let glue = glue_flags(text, symbols);
    let mut size = b.size;
    loop {
        let lines = wrap(&items, &glue, size, b);
        let ok = fits(&lines, size, b);
        if ok || size <= b.min {
            return Fitted {
                svg: draw(&lines, size, b),
                fits: ok,
                size,
            };
        }
        size = (size * 0.98).max(b.min);
    }
}

fn draw(lines: &[Line], size: f64, b: &TextBox) -> String {
    let m = Metrics::of(b.face);
    let cap = m.cap_height();
    let space = m.width(" ", size);
    let block = lines.len() as f64 * size * b.leading;
    // Centre the block vertically in its box; the first baseline sits one cap height down.
    let top = b.y + ((b.h - block) / 2.0).max(0.0);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let baseline = top + i as f64 * size * b.leading + (size * b.leading + size * cap) / 2.0;
        let width = line.width(space);
        let mut x = match b.align.as_str() {
            "middle" => b.x + (b.w - width) / 2.0,
            "end" => b.x + b.w - width,
            _ => b.x,
        };
        if line.runs.iter().all(|r| matches!(r.0, Piece::Word(_))) {
            // Plain text: one element anchored where the box says, so kerning cannot shift it.
            let words: Vec<&str> = line
                .runs
                .iter()
                .filter_map(|r| match &r.0 {
                    Piece::Word(t) => Some(t.as_str()),
                    _ => None,
                })
                .collect();
            let (ax, anchor) = match b.align.as_str() {
                "middle" => (b.x + b.w / 2.0, "middle"),
                "end" => (b.x + b.w, "end"),
                _ => (b.x, "start"),
            };
            out.push_str(&text_run(&words.join(" "), ax, baseline, size, anchor, b));
            continue;
        }
        // Consecutive words go into one text element (so the PDF's text reads as written);
        // an icon ends the run and is drawn in the gap measured for it.
        let mut run = String::new();
        let mut run_x = x;
        for (j, (piece, w, glued)) in line.runs.iter().enumerate() {
            let gap = if j > 0 && !glued { space } else { 0.0 };
            match piece {
                Piece::Word(t) => {
                    if run.is_empty() {
                        run_x = x + gap;
                    } else if gap > 0.0 {
                        run.push(' ');
                    }
                    run.push_str(t);
                }
                // The badge's bottom sits on the baseline, its height that of a capital.
                Piece::Icon(sym) => {
                    out.push_str(&text_run(&run, run_x, baseline, size, "start", b));
                    run.clear();
                    let r = w / 2.0 * 0.95;
                    let left = x + gap;
                    out.push_str(&marks::badge(sym, left + w / 2.0, baseline - r, r));
                }
                Piece::Break => {}
            }
            x += gap + w;
        }
        out.push_str(&text_run(&run, run_x, baseline, size, "start", b));
    }
    out
}

fn text_run(run: &str, x: f64, baseline: f64, size: f64, anchor: &str, b: &TextBox) -> String {
    if run.is_empty() {
        return String::new();
    }
    format!(
        r#"<text x="{x:.3}" y="{baseline:.3}" font-size="{size:.3}" text-anchor="{anchor}" {attrs} fill="{fill}" xml:space="preserve">{t}</text>"#,
        attrs = b.face.svg_attrs(),
        fill = b.fill,
        t = xml_escape(run)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(w: f64, h: f64) -> TextBox {
        TextBox {
            x: 0.0,
            y: 0.0,
            w,
            h,
            size: 4.0,
            min: 2.0,
            face: Face::Sans,
            align: "start".into(),
            fill: "#000".into(),
            leading: 1.2,
        }
    }

    #[test]
    fn short_text_keeps_its_size() {
        let f = fit("Hello", &boxed(50.0, 10.0), &BTreeMap::new());
        assert!(f.fits);
        assert_eq!(f.size, 4.0);
    }

    #[test]
    fn long_text_wraps_and_shrinks() {
        let text = "word ".repeat(40);
        let f = fit(&text, &boxed(40.0, 20.0), &BTreeMap::new());
        assert!(f.fits);
        assert!(f.size < 4.0 && f.size >= 2.0);
        assert!(f.svg.matches("<text").count() > 3);
    }

    #[test]
    fn text_too_long_for_its_box_is_reported() {
        let text = "overflowing ".repeat(200);
        let f = fit(&text, &boxed(30.0, 10.0), &BTreeMap::new());
        assert!(!f.fits);
        assert_eq!(f.size, 2.0);
    }

    #[test]
    fn icons_sit_on_the_baseline() {
        let sym: Symbol = toml::from_str(
            "id = \"fire\"\ngroup = \"element\"\nname = \"Fire\"\ncolour = \"#d03020\"\nmark = \"flame\"",
        )
        .unwrap();
        let symbols = BTreeMap::from([("fire".to_string(), sym)]);
        let f = fit("Play [fire] now", &boxed(80.0, 10.0), &symbols);
        assert!(f.fits);
        assert!(f.svg.contains("#d03020"));
        // One line: the badge's circle bottom (cy + r) equals the text baseline.
        let baseline: f64 = attr(&f.svg, "<text", "y");
        let cy: f64 = attr(&f.svg, "<circle", "cy");
        let r: f64 = attr(&f.svg, "<circle", "r");
        assert!((cy + r - baseline).abs() < 0.01, "{cy} + {r} vs {baseline}");
    }

    /// The lines of a fitted box, as text.
    fn lines_of(f: &Fitted) -> Vec<String> {
        f.svg
            .split("xml:space=\"preserve\">")
            .skip(1)
            .map(|rest| rest[..rest.find("</text>").unwrap()].to_string())
            .collect()
    }

    #[test]
    fn a_short_last_word_takes_the_one_before_it_along() {
        // Boxes just wide enough for all but the last word on the first line.
        let boxed_for = |first: &str| {
            let mut b = boxed(Metrics::of(Face::Bold).width(first, 4.4) + 0.5, 12.0);
            (b.size, b.min, b.face) = (4.4, 4.4, Face::Bold);
            b
        };
        let b = boxed_for("Aztec Atlanteans double");
        let f = fit("Aztec Atlanteans double A", &b, &BTreeMap::new());
        assert_eq!(lines_of(&f), ["Aztec Atlanteans", "double A"]);
        let b = boxed_for("The Search: Val");
        let f = fit("The Search: Val Justinia", &b, &BTreeMap::new());
        assert_eq!(lines_of(&f), ["The Search:", "Val Justinia"]);
        // A line break the text asks for is kept as it is.
        let f = fit("One two\nthree", &boxed(80.0, 12.0), &BTreeMap::new());
        assert_eq!(lines_of(&f), ["One two", "three"]);
    }

    fn attr(svg: &str, tag: &str, name: &str) -> f64 {
        let at = svg.find(tag).unwrap();
        let key = format!(" {name}=\"");
        let start = svg[at..].find(&key).unwrap() + at + key.len();
        let end = svg[start..].find('"').unwrap() + start;
        svg[start..end].parse().unwrap()
    }
}
