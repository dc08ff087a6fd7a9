//! Text for the printed rulebook: the faces it is set in (the bundled DejaVu Sans Condensed,
//! a character they lack drawn in the game's own font that has it), shaping with rustybuzz,
//! Markdown inline content as styled fragments, and breaking fragments into lines.

use std::collections::HashMap;
use std::sync::Arc;

use krilla::text::{Font, GlyphId, KrillaGlyph};
use pulldown_cmark::{Event, Tag, TagEnd};

use crate::render::faces::fonts::{Face, GameFaces};

/// The style of a fragment of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Style {
    pub bold: bool,
    pub italic: bool,
    pub code: bool,
}

/// Where a fragment links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// A place in the rulebook: a heading's anchor or id.
    Internal(String),
    /// A web address or a file beside the rulebook.
    External(String),
}

/// A piece of text in one style, with whether space comes before it (a line may break
/// there) or a line break (`text` empty).
#[derive(Debug, Clone, PartialEq)]
pub struct Frag {
    pub text: String,
    pub style: Style,
    pub link: Option<Link>,
    pub space_before: bool,
    pub hard_break: bool,
}

/// One stretch of glyphs in one face.
#[derive(Debug, Clone)]
pub struct Shaped {
    pub face: Face,
    pub text: String,
    pub glyphs: Vec<KrillaGlyph>,
    /// Advance in ems.
    pub width: f32,
}

/// The faces of one game's rulebook and what has been shaped with them.
pub struct Fonts {
    game: GameFaces,
    faces: HashMap<Face, Arc<Loaded>>,
    /// Words already shaped: a rulebook sets the same words again and again, on three papers.
    shaped: HashMap<(Face, String), Vec<Shaped>>,
}

/// At most this many distinct words are kept shaped; past it, words are shaped anew.
const SHAPED_KEPT: usize = 50_000;

struct Loaded {
    font: Font,
    rb: rustybuzz::Face<'static>,
    upem: f32,
}

impl Fonts {
    pub fn new(game: GameFaces) -> Fonts {
        Fonts {
            game,
            faces: HashMap::new(),
            shaped: HashMap::new(),
        }
    }

    /// The face a style is set in.
    pub fn face(&self, style: Style, heading: bool) -> Face {
        match (style.bold || heading, style.italic) {
            (false, false) => Face::Sans,
            (true, false) => Face::Bold,
            (false, true) => Face::Italic,
            (true, true) => Face::BoldItalic,
        }
    }

    fn loaded(&mut self, face: Face) -> Option<Arc<Loaded>> {
        if let Some(l) = self.faces.get(&face) {
            return Some(l.clone());
        }
        let (data, index) = face.data();
        let font = Font::new(data.into(), index)?;
        let rb = rustybuzz::Face::from_slice(data, index)?;
        let upem = f32::from(rb.units_per_em() as u16).max(1.0);
        let l = Arc::new(Loaded { font, rb, upem });
        self.faces.insert(face, l.clone());
        Some(l)
    }

    /// The krilla font of a face.
    pub fn font(&mut self, face: Face) -> Option<Font> {
        self.loaded(face).map(|l| l.font.clone())
    }

    /// `text` set in `base`, a character `base` lacks in the game's face that has it.
    pub fn shape(&mut self, text: &str, base: Face) -> Vec<Shaped> {
        let key = (base, text.to_string());
        if let Some(s) = self.shaped.get(&key) {
            return s.clone();
        }
        let out = self.shape_new(text, base);
        if self.shaped.len() < SHAPED_KEPT {
            self.shaped.insert(key, out.clone());
        }
        out
    }

    fn shape_new(&mut self, text: &str, base: Face) -> Vec<Shaped> {
        let mut out = Vec::new();
        let mut run = String::new();
        let mut run_face = base;
        for c in text.chars() {
            let face = self.game.fallback(base, c).unwrap_or(base);
            if face != run_face && !run.is_empty() {
                out.extend(self.shape_one(&run, run_face));
                run.clear();
            }
            run_face = face;
            run.push(c);
        }
        if !run.is_empty() {
            out.extend(self.shape_one(&run, run_face));
        }
        out
    }

    fn shape_one(&mut self, text: &str, face: Face) -> Option<Shaped> {
        let l = self.loaded(face)?;
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        let output = rustybuzz::shape(&l.rb, &[], buffer);
        let infos = output.glyph_infos();
        let positions = output.glyph_positions();
        let mut glyphs = Vec::with_capacity(infos.len());
        let mut width = 0.0;
        for (i, (info, pos)) in infos.iter().zip(positions).enumerate() {
            let start = info.cluster as usize;
            let end = infos[i..]
                .iter()
                .find(|x| x.cluster != info.cluster)
                .map_or(text.len(), |x| x.cluster as usize)
                .max(start);
            let advance = pos.x_advance as f32 / l.upem;
            width += advance;
            glyphs.push(KrillaGlyph::new(
                GlyphId::new(info.glyph_id),
                advance,
                pos.x_offset as f32 / l.upem,
                pos.y_offset as f32 / l.upem,
                pos.y_advance as f32 / l.upem,
                start..end,
                None,
            ));
        }
        Some(Shaped {
            face,
            text: text.to_string(),
            glyphs,
            width,
        })
    }

    /// The width of `text` in `base` at `size`.
    pub fn width(&mut self, text: &str, base: Face, size: f32) -> f32 {
        self.shape(text, base).iter().map(|s| s.width).sum::<f32>() * size
    }
}

/// Inline Markdown (one block's events) as fragments. `anchors` turns `#anchor` links into
/// internal ones; other safe targets stay external. Images show their alt text.
pub fn frags_of<'a>(events: impl IntoIterator<Item = Event<'a>>) -> Vec<Frag> {
    let mut out = Vec::new();
    let mut style = Style::default();
    let mut links: Vec<Option<Link>> = Vec::new();
    let mut space = false;
    let push_text =
        |out: &mut Vec<Frag>, text: &str, style: Style, link: &Option<Link>, space: &mut bool| {
            // Words are split at spaces: each word is a fragment, space before it or not.
            let mut first = true;
            for (i, part) in text.split(char::is_whitespace).enumerate() {
                if i > 0 {
                    *space = true;
                }
                if part.is_empty() {
                    continue;
                }
                out.push(Frag {
                    text: part.to_string(),
                    style,
                    link: link.clone(),
                    space_before: *space && !(first && out.is_empty()),
                    hard_break: false,
                });
                *space = false;
                first = false;
            }
        };
    for e in events {
        let link = links.last().cloned().flatten();
        match e {
            Event::Text(t) => push_text(&mut out, &t, style, &link, &mut space),
            Event::Code(t) => push_text(
                &mut out,
                &t,
                Style {
                    code: true,
                    ..style
                },
                &link,
                &mut space,
            ),
            Event::Html(t) | Event::InlineHtml(t) => {
                push_text(&mut out, &t, style, &link, &mut space)
            }
            Event::SoftBreak => space = true,
            Event::HardBreak => out.push(Frag {
                text: String::new(),
                style,
                link: None,
                space_before: false,
                hard_break: true,
            }),
            Event::Start(Tag::Strong) => style.bold = true,
            Event::End(TagEnd::Strong) => style.bold = false,
            Event::Start(Tag::Emphasis) => style.italic = true,
            Event::End(TagEnd::Emphasis) => style.italic = false,
            Event::Start(Tag::Link { dest_url, .. }) => {
                let d = dest_url.to_string();
                links.push(Some(match d.strip_prefix('#') {
                    Some(anchor) => Link::Internal(anchor.to_string()),
                    None => Link::External(d),
                }));
            }
            Event::Start(Tag::Image { .. }) => links.push(link),
            Event::End(TagEnd::Link | TagEnd::Image) => {
                links.pop();
            }
            _ => {}
        }
    }
    out
}

/// Plain text as fragments in one style.
pub fn plain(text: &str, style: Style) -> Vec<Frag> {
    frags_of([Event::Text(text.to_string().into())])
        .into_iter()
        .map(|f| Frag { style, ..f })
        .collect()
}

/// A fragment shaped: its pieces and its width in points at its size.
#[derive(Debug, Clone)]
pub struct Word {
    pub frag: usize,
    pub shaped: Vec<Shaped>,
    pub width: f32,
    /// The width of the space before it (0 when none).
    pub space: f32,
}

/// One line: words placed at their x offsets (points from the line's start).
#[derive(Debug, Clone, Default)]
pub struct Line {
    pub words: Vec<(f32, Word)>,
    pub width: f32,
}

/// Breaks fragments into lines at most `width` points wide, set at `size` points; `heading`
/// sets every fragment bold. A word wider than a line is cut between characters. Bounded:
/// every fragment is shaped once (a cut word once per piece).
pub fn break_lines(
    fonts: &mut Fonts,
    frags: &[Frag],
    size: f32,
    width: f32,
    heading: bool,
) -> Vec<Line> {
    let mut words: Vec<(Word, bool, bool)> = Vec::new();
    for (i, f) in frags.iter().enumerate() {
        if f.hard_break {
            words.push((
                Word {
                    frag: i,
                    shaped: Vec::new(),
                    width: 0.0,
                    space: 0.0,
                },
                true,
                true,
            ));
            continue;
        }
        let face = fonts.face(f.style, heading);
        let space = if f.space_before {
            fonts.width(" ", face, size)
        } else {
            0.0
        };
        let shaped = fonts.shape(&f.text, face);
        let w = shaped.iter().map(|s| s.width).sum::<f32>() * size;
        if w <= width {
            words.push((
                Word {
                    frag: i,
                    shaped,
                    width: w,
                    space,
                },
                false,
                f.space_before,
            ));
            continue;
        }
        // Too wide for any line: cut it into pieces that fit.
        let mut piece = String::new();
        let mut first = true;
        for c in f.text.chars() {
            let mut next = piece.clone();
            next.push(c);
            if !piece.is_empty() && fonts.width(&next, face, size) > width {
                let shaped = fonts.shape(&piece, face);
                let w = shaped.iter().map(|s| s.width).sum::<f32>() * size;
                words.push((
                    Word {
                        frag: i,
                        shaped,
                        width: w,
                        space: if first { space } else { 0.0 },
                    },
                    false,
                    !first || f.space_before,
                ));
                first = false;
                next = c.to_string();
            }
            piece = next;
        }
        if !piece.is_empty() {
            let shaped = fonts.shape(&piece, face);
            let w = shaped.iter().map(|s| s.width).sum::<f32>() * size;
            words.push((
                Word {
                    frag: i,
                    shaped,
                    width: w,
                    space: if first { space } else { 0.0 },
                },
                false,
                !first || f.space_before,
            ));
        }
    }
    // Words glued to the one before (no space: "**x**," in two styles) break as one.
    let mut clusters: Vec<(Vec<Word>, bool)> = Vec::new();
    for (word, hard, breakable) in words {
        match clusters.last_mut() {
            Some((c, false)) if !hard && !breakable => c.push(word),
            _ => clusters.push((vec![word], hard)),
        }
    }
    let mut lines = vec![Line::default()];
    for (cluster, hard) in clusters {
        if hard {
            lines.push(Line::default());
            continue;
        }
        let line = lines.last_mut().expect("one line at least");
        let gap = if line.words.is_empty() {
            0.0
        } else {
            cluster[0].space
        };
        let w: f32 = cluster.iter().map(|w| w.width).sum::<f32>()
            + cluster.iter().skip(1).map(|w| w.space).sum::<f32>();
        let line = if !line.words.is_empty() && line.width + gap + w > width {
            lines.push(Line::default());
            lines.last_mut().expect("just pushed")
        } else {
            line
        };
        for word in cluster {
            let gap = if line.words.is_empty() {
                0.0
            } else {
                word.space
            };
            let x = line.width + gap;
            line.width = x + word.width;
            line.words.push((x, word));
        }
    }
    if lines.len() > 1 && lines.last().is_some_and(|l| l.words.is_empty()) {
        lines.pop();
    }
    lines
}

/// The natural widths of fragments in points: the widest word and the whole on one line.
pub fn natural_widths(fonts: &mut Fonts, frags: &[Frag], size: f32, heading: bool) -> (f32, f32) {
    let mut widest: f32 = 0.0;
    let mut total: f32 = 0.0;
    let mut word: f32 = 0.0;
    for f in frags {
        if f.hard_break {
            widest = widest.max(word);
            word = 0.0;
            continue;
        }
        let face = fonts.face(f.style, heading);
        let w = fonts.width(&f.text, face, size);
        if f.space_before {
            widest = widest.max(word);
            word = 0.0;
            total += fonts.width(" ", face, size);
        }
        word += w;
        total += w;
    }
    (widest.max(word), total)
}
