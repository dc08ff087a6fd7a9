use std::collections::hash_map::Entry;
use std::collections::HashMap;

use fontdb::Database;
use krilla::color::rgb;
use krilla::geom::Point;
use krilla::num::NormalizedF32;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use skrifa::{FontRef, MetadataProvider};
use smallvec::SmallVec;
use usvg::tiny_skia_path::Transform;
use usvg::{FontOpticalSizing, FontVariation, PaintOrder};

use crate::util::{convert_fill, convert_stroke, UsvgTransformExt};
use crate::{path, ProcessContext};

/// Render a text into a surface.
pub(crate) fn render(
    text: &usvg::Text,
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) {
    for span in text.layouted() {
        if !span.visible {
            continue;
        }

        if let Some(overline) = &span.overline {
            path::render(overline, surface, process_context);
        }

        if let Some(underline) = &span.underline {
            path::render(underline, surface, process_context);
        }

        let glyphs = &span.positioned_glyphs;
        let mut next = 0;
        while next < glyphs.len() {
            // printplay: glyphs on one baseline in one font and solid paint are drawn as one
            // run (one transform, one paint, one text object), not one by one.
            if let Some(run) = find_run(span, glyphs, next, process_context) {
                let end = next + run.xs.len();
                render_run(span, &glyphs[next..end], run, surface, process_context);
                next = end;
                continue;
            }
            let glyph = &glyphs[next];
            next += 1;
            // Ignore glyph if font can't be fetched.
            let Some(font) = process_context.fonts.retrieve(span, glyph.font) else {
                continue;
            };

            let upem = font.units_per_em();

            // The text transform contains the scale transform `font_size / upem`, we need to invert that
            // so we only get the raw transform to account for the glyph position, and the font size
            // is being taken care of by krilla.
            let transform = glyph.transform().pre_concat(Transform::from_scale(
                upem / span.font_size.get(),
                upem / span.font_size.get(),
            ));

            let Some(inverted) = transform.invert() else {
                continue;
            };

            // We need to apply the inverse transform to fill/stroke because we don't
            // want the paint to be affected by the transform applied to the glyph. See docs
            // of `convert_paint`.
            let fill = span
                .fill
                .as_ref()
                .map(|f| convert_fill(f, surface.stream_builder(), process_context, inverted));

            let stroke = span
                .stroke
                .as_ref()
                .map(|s| convert_stroke(s, surface.stream_builder(), process_context, inverted));

            let draw_op = |s: &mut Surface,
                           fill: Option<Fill>,
                           stroke: Option<Stroke>,
                           font: Font,
                           embed_text: bool| {
                s.set_fill(fill);
                s.set_stroke(stroke);

                s.draw_glyphs(
                    Point::from_xy(0.0, 0.0),
                    &[KrillaGlyph::new(
                        GlyphId::new(glyph.id.0 as u32),
                        // Don't care about those, since we render only one glyph.
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        0..glyph.text.len(),
                        None,
                    )],
                    font,
                    &glyph.text,
                    span.font_size.get(),
                    !embed_text,
                );
            };

            surface.push_transform(&transform.to_krilla());

            if fill.is_none() && stroke.is_none() {
                // Emulate invisible glyph by drawing it with an opacity of zero.
                draw_op(
                    surface,
                    Some(Fill {
                        paint: rgb::Color::new(0, 0, 0).into(),
                        opacity: NormalizedF32::ZERO,
                        rule: Default::default(),
                    }),
                    None,
                    font,
                    process_context.svg_settings.embed_text,
                )
            } else if matches!(span.paint_order, PaintOrder::FillAndStroke)
                || fill.is_none()
                || stroke.is_none()
            {
                draw_op(
                    surface,
                    fill,
                    stroke,
                    font.clone(),
                    process_context.svg_settings.embed_text,
                );
            } else {
                // Paint order stroke and fill, and we have BOTH, a fill and
                // stroke.

                // We always draw the text outlined in this case, so that
                // text won't be embedded twice.
                draw_op(surface, None, stroke, font.clone(), false);

                draw_op(
                    surface,
                    fill,
                    None,
                    font.clone(),
                    process_context.svg_settings.embed_text,
                );
            }

            surface.pop();
        }

        if let Some(line_through) = &span.line_through {
            path::render(line_through, surface, process_context);
        }
    }
}

/// The transform that places `glyph` at its origin with the font size left to krilla (the
/// glyph's own transform without the `font_size / upem` scale).
fn origin_transform(
    span: &usvg::layout::Span,
    glyph: &usvg::layout::PositionedGlyph,
    upem: f32,
) -> Transform {
    glyph.transform().pre_concat(Transform::from_scale(
        upem / span.font_size.get(),
        upem / span.font_size.get(),
    ))
}

/// Whether a paint is drawn the same whatever transform it is given (a solid colour).
fn solid(paint: &usvg::Paint) -> bool {
    matches!(paint, usvg::Paint::Color(_))
}

/// A run of glyphs that can be drawn as one (see [`find_run`]).
struct Run {
    font: Font,
    /// Where the first glyph's origin lies ([`origin_transform`]), and its inverse.
    base: Transform,
    inverse: Transform,
    /// Each glyph's origin along the baseline, from the first's.
    xs: SmallVec<[f32; 32]>,
}

/// The run of at least two glyphs that starts at `start` and can be drawn as one: the same
/// font, the same linear transform, origins on one baseline, solid paints drawn in one
/// operation. `None` when no such run starts there.
fn find_run(
    span: &usvg::layout::Span,
    glyphs: &[usvg::layout::PositionedGlyph],
    start: usize,
    process_context: &mut ProcessContext,
) -> Option<Run> {
    if glyphs.len() < start + 2 {
        return None;
    }
    let fill_ok = span.fill.as_ref().is_none_or(|f| solid(f.paint()));
    let stroke_ok = span.stroke.as_ref().is_none_or(|s| solid(s.paint()));
    let one_op = span.fill.is_none()
        || span.stroke.is_none()
        || matches!(span.paint_order, PaintOrder::FillAndStroke);
    if !fill_ok || !stroke_ok || !one_op || (span.fill.is_none() && span.stroke.is_none()) {
        return None;
    }
    let first = &glyphs[start];
    let font = process_context.fonts.retrieve(span, first.font)?;
    let upem = font.units_per_em();
    let base = origin_transform(span, first, upem);
    let inverse = base.invert()?;
    let mut xs: SmallVec<[f32; 32]> = SmallVec::new();
    xs.push(0.0);
    for glyph in &glyphs[start + 1..] {
        if glyph.font != first.font {
            break;
        }
        let t = origin_transform(span, glyph, upem);
        let same_linear = t.sx == base.sx && t.kx == base.kx && t.ky == base.ky && t.sy == base.sy;
        let mut origin = usvg::tiny_skia_path::Point::from_xy(t.tx, t.ty);
        inverse.map_points(std::slice::from_mut(&mut origin));
        if !same_linear || origin.y.abs() > 1e-4 || !origin.x.is_finite() {
            break;
        }
        xs.push(origin.x);
    }
    (xs.len() >= 2).then_some(Run {
        font,
        base,
        inverse,
        xs,
    })
}

/// Draws `glyphs`, the glyphs of `run`, as one glyph run at the first glyph's origin.
fn render_run(
    span: &usvg::layout::Span,
    glyphs: &[usvg::layout::PositionedGlyph],
    run: Run,
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) {
    let Run {
        font,
        base,
        inverse,
        xs,
    } = run;
    let size = span.font_size.get();
    let last_advance = process_context
        .fonts
        .advance(glyphs[glyphs.len() - 1].font, glyphs[glyphs.len() - 1].id.0)
        .unwrap_or(0.0);
    let mut text = String::new();
    let positioned: Vec<KrillaGlyph> = glyphs
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let from = text.len();
            text.push_str(&g.text);
            let x_advance = match xs.get(k + 1) {
                Some(x) => (x - xs[k]) / size,
                None => last_advance,
            };
            KrillaGlyph::new(
                GlyphId::new(g.id.0 as u32),
                x_advance,
                0.0,
                0.0,
                0.0,
                from..text.len(),
                None,
            )
        })
        .collect();
    let fill = span
        .fill
        .as_ref()
        .map(|f| convert_fill(f, surface.stream_builder(), process_context, inverse));
    let stroke = span
        .stroke
        .as_ref()
        .map(|s| convert_stroke(s, surface.stream_builder(), process_context, inverse));
    surface.push_transform(&base.to_krilla());
    surface.set_fill(fill);
    surface.set_stroke(stroke);
    surface.draw_glyphs(
        Point::from_xy(0.0, 0.0),
        &positioned,
        font,
        &text,
        size,
        !process_context.svg_settings.embed_text,
    );
    surface.pop();
}

/// Manages the krilla fonts used by an SVG.
pub(crate) struct Fonts<'a> {
    db: &'a mut Database,
    fonts: HashMap<FontInstance, Option<Font>>,
    supported_axes: HashMap<fontdb::ID, SmallVec<[[u8; 4]; 2]>>,
}

/// Identifies a font at specific variation coordinates.
type FontInstance = (fontdb::ID, FontVariations);
type FontVariations = SmallVec<[FontVariation; 2]>;

impl<'a> Fonts<'a> {
    pub(crate) fn new(db: &'a mut Database) -> Self {
        Self {
            db,
            fonts: HashMap::new(),
            supported_axes: HashMap::new(),
        }
    }

    /// Retrieves the font identified by `id` from the cache or loads it.
    fn retrieve(&mut self, span: &usvg::layout::Span, id: fontdb::ID) -> Option<Font> {
        let variations = self.resolve_variations(span, id);
        match self.fonts.entry((id, variations)) {
            Entry::Occupied(entry) => entry.get().clone(),
            Entry::Vacant(entry) => {
                let font = if let Some((font_data, index)) =
                    unsafe { self.db.make_shared_face_data(id) }
                {
                    let variations = &entry.key().1;
                    let coords: SmallVec<[_; 2]> = variations
                        .iter()
                        .map(|var| (krilla::text::Tag::new(&var.tag), var.value))
                        .collect();
                    Font::new_variable(font_data.into(), index, &coords)
                } else {
                    None
                };

                entry.insert(font.clone());
                font
            }
        }
    }

    /// The advance of glyph `glyph` of font `id`, divided by the units per em.
    fn advance(&mut self, id: fontdb::ID, glyph: u16) -> Option<f32> {
        self.db
            .with_face_data(id, |data, index| {
                let font = FontRef::from_index(data, index).ok()?;
                let upem = font
                    .metrics(
                        skrifa::instance::Size::unscaled(),
                        skrifa::instance::LocationRef::default(),
                    )
                    .units_per_em as f32;
                let metrics = font.glyph_metrics(
                    skrifa::instance::Size::unscaled(),
                    skrifa::instance::LocationRef::default(),
                );
                Some(metrics.advance_width(skrifa::GlyphId::new(glyph as u32))? / upem)
            })
            .flatten()
    }

    /// Resolves which variations are applicable for the given font (filtering out undefined axis
    /// values and taking into account optical sizing).
    fn resolve_variations(&mut self, span: &usvg::layout::Span, id: fontdb::ID) -> FontVariations {
        let supported_axes = self.supported_axes.entry(id).or_insert_with(|| {
            self.db
                .with_face_data(id, |data, index| {
                    FontRef::from_index(data, index)
                        .into_iter()
                        .flat_map(|font| font.axes().iter())
                        .map(|axis| axis.tag().to_be_bytes())
                        .collect()
                })
                .unwrap_or_default()
        });
        let is_supported = |tag| supported_axes.contains(tag);

        let mut variations: FontVariations = span
            .variations
            .iter()
            .filter(|var| is_supported(&var.tag))
            .copied()
            .collect();

        // Set the font size for optical sizing if desired, supported, and not manually set.
        const OPSZ: &[u8; 4] = b"opsz";
        if span.font_optical_sizing == FontOpticalSizing::Auto
            && is_supported(OPSZ)
            && !variations.iter().any(|v| v.tag == *OPSZ)
        {
            variations.push(FontVariation {
                tag: *OPSZ,
                value: span.font_size.get(),
            });
        }

        variations
    }
}
