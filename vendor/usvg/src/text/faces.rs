// printplay: not part of usvg as published (see PRINTPLAY.md at the crate's root).
//
// usvg as published parsed a glyph's font face (`ttf_parser::Face::parse`) up to four times
// for every new glyph of a document (is it a COLR glyph? an SVG glyph? a bitmap? its outline)
// and, when the text had variations (`font-stretch="condensed"` and `font-weight="bold"` are
// turned into `wdth`/`wght` variations, even for a face that has no axes), once for every glyph
// drawn, with no cache; and it made a shaping face (`rustybuzz::Face::from_slice`, which
// parses the face and builds its GSUB and GPOS lookups) for every text it shaped. Here a
// document reads each face once (`FaceInfo`: which of those tables it has, whether it has
// axes), makes each shaping face once (`ShapingFaces`), a text parses each of its faces at
// most once for outlines (`TextFaces`), and outlines are cached by face, glyph and the face's
// variation coordinates, the only state of a parsed face an outline depends on.

use std::collections::HashMap;
use std::sync::Arc;

use fontdb::{Database, ID};
use rustybuzz::ttf_parser;
use rustybuzz::ttf_parser::GlyphId;
use yoke::Yoke;

use crate::{Cache, FontOpticalSizing, FontVariation};

/// A font's bytes, shared with the font database where it holds them in memory.
type FontData = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// The bytes of face `id` of `db` and its index in them: shared where the database holds
/// them in memory, else read once (a face read from a file or mapped from one).
fn face_data(db: &Database, id: ID) -> Option<(FontData, u32)> {
    let (source, index) = db.face_source(id)?;
    let data: FontData = match source {
        fontdb::Source::Binary(data) => data,
        #[allow(unreachable_patterns)]
        _ => db.with_face_data(id, |data, _| Arc::new(data.to_vec()) as FontData)?,
    };
    Some((data, index))
}

/// What a document's text needs to know of one font face, read once per document.
#[derive(Clone)]
pub(crate) struct FaceInfo {
    data: FontData,
    index: u32,
    /// The face has a `COLR` table (with its `CPAL`): a glyph may be a colour glyph.
    pub(crate) has_colr: bool,
    /// The face has an `SVG ` table: a glyph may be an SVG document.
    pub(crate) has_svg: bool,
    /// The face has an `sbix`, `CBDT`, `EBDT` or Apple `bdat` table: a glyph may be a bitmap.
    pub(crate) has_raster: bool,
    /// The face has an `opsz` axis.
    pub(crate) has_opsz: bool,
    /// The face has axes (`fvar`): its outlines depend on variation coordinates.
    is_variable: bool,
}

impl FaceInfo {
    /// Reads the face `id` of `db`; `None` where the database has no such face or it does
    /// not parse (usvg as published then drew nothing of its glyphs either).
    pub(crate) fn read(db: &Database, id: ID) -> Option<FaceInfo> {
        let (data, index) = face_data(db, id)?;
        let face = ttf_parser::Face::parse((*data).as_ref(), index).ok()?;
        let tables = face.tables();
        let has_opsz = tables.fvar.map_or(false, |axes| {
            axes.axes
                .into_iter()
                .any(|axis| axis.tag == ttf_parser::Tag::from_bytes(b"opsz"))
        });
        Some(FaceInfo {
            has_colr: tables.colr.is_some(),
            has_svg: tables.svg.is_some(),
            has_raster: tables.sbix.is_some()
                || tables.bdat.is_some()
                || tables.ebdt.is_some()
                || tables.cbdt.is_some(),
            has_opsz,
            is_variable: face.is_variable(),
            data,
            index,
        })
    }
}

/// How a glyph's outline is taken from its face: at the face's default coordinates, or with
/// a span's variations (and its font size, for an automatic `opsz`).
pub(crate) enum Variations<'a> {
    Default,
    Set {
        variations: &'a [FontVariation],
        font_size: f32,
        font_optical_sizing: FontOpticalSizing,
    },
}

impl Variations<'_> {
    /// Sets the coordinates of `font` as usvg as published did before taking an outline.
    pub(crate) fn apply(&self, font: &mut ttf_parser::Face) {
        match *self {
            Variations::Default => {
                // For variable fonts, we need to set default variation values to get proper outlines
                if font.is_variable() {
                    for axis in font.variation_axes() {
                        font.set_variation(axis.tag, axis.def_value);
                    }
                }
            }
            Variations::Set {
                variations,
                font_size,
                font_optical_sizing,
            } => {
                for v in variations {
                    font.set_variation(ttf_parser::Tag::from_bytes(&v.tag), v.value);
                }

                // Auto-set opsz if font-optical-sizing is auto and not explicitly set
                if font_optical_sizing == FontOpticalSizing::Auto {
                    let has_explicit_opsz = variations.iter().any(|v| v.tag == *b"opsz");
                    if !has_explicit_opsz {
                        // Check if font has opsz axis
                        if let Some(axes) = font.tables().fvar {
                            let has_opsz_axis = axes
                                .axes
                                .into_iter()
                                .any(|axis| axis.tag == ttf_parser::Tag::from_bytes(b"opsz"));
                            if has_opsz_axis {
                                font.set_variation(ttf_parser::Tag::from_bytes(b"opsz"), font_size);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The outline of `glyph_id` in `font` at its current coordinates, as a path.
pub(crate) fn outline(font: &ttf_parser::Face, glyph_id: GlyphId) -> Option<tiny_skia_path::Path> {
    let mut builder = super::flatten::PathBuilder {
        builder: tiny_skia_path::PathBuilder::new(),
    };

    font.outline_glyph(glyph_id, &mut builder)?;
    builder.builder.finish()
}

/// The faces of one text's glyphs: their bytes, and each face parsed once, when an outline
/// not yet cached is first asked of it.
pub(crate) struct TextFaces {
    infos: Vec<(ID, Option<FaceInfo>)>,
}

impl TextFaces {
    /// The faces of `fonts` (in any order, repeated or not), read through `cache`.
    pub(crate) fn new(fonts: impl Iterator<Item = ID>, cache: &mut Cache) -> TextFaces {
        let mut infos: Vec<(ID, Option<FaceInfo>)> = Vec::new();
        for id in fonts {
            if !infos.iter().any(|(seen, _)| *seen == id) {
                infos.push((id, cache.face_info(id).cloned()));
            }
        }
        TextFaces { infos }
    }

    /// A parser of these faces' glyph outlines.
    pub(crate) fn outlines(&self) -> Outlines<'_> {
        Outlines {
            faces: self
                .infos
                .iter()
                .map(|(id, info)| (*id, info, None))
                .collect(),
        }
    }
}

/// The faces of a text, each parsed on first use.
pub(crate) struct Outlines<'a> {
    #[allow(clippy::type_complexity)]
    faces: Vec<(
        ID,
        &'a Option<FaceInfo>,
        Option<Option<ttf_parser::Face<'a>>>,
    )>,
}

impl<'a> Outlines<'a> {
    /// The outline of glyph `glyph_id` of face `id` with `variations`, from `cache` or
    /// else from the face (parsed once for this text), then cached: the same path usvg as
    /// published took from a face parsed afresh for the glyph.
    pub(crate) fn outline(
        &mut self,
        cache: &mut Cache,
        id: ID,
        glyph_id: GlyphId,
        variations: Variations,
    ) -> Option<tiny_skia_path::Path> {
        let entry = self.faces.iter_mut().find(|(seen, _, _)| *seen == id)?;
        let info = entry.1.as_ref()?;
        // A face without axes ignores variations: every span shares its outlines.
        let mut varied = None;
        let coordinates: Box<[i16]> = if info.is_variable {
            let mut font = parsed(info, &mut entry.2)?.clone();
            variations.apply(&mut font);
            let coordinates = font
                .variation_coordinates()
                .iter()
                .map(|c| c.get())
                .collect();
            varied = Some(font);
            coordinates
        } else {
            Box::default()
        };
        let key = (id, glyph_id, coordinates);
        if let Some(path) = cache.cache_outline.get(&key) {
            return path.clone();
        }
        let path = match &varied {
            Some(font) => outline(font, glyph_id),
            None => parsed(info, &mut entry.2).and_then(|font| outline(font, glyph_id)),
        };
        cache.cache_outline.insert(key, path.clone());
        path
    }
}

/// The face of `info`, parsed into `slot` the first time.
fn parsed<'a, 'b>(
    info: &'a FaceInfo,
    slot: &'b mut Option<Option<ttf_parser::Face<'a>>>,
) -> Option<&'b ttf_parser::Face<'a>> {
    slot.get_or_insert_with(|| ttf_parser::Face::parse((*info.data).as_ref(), info.index).ok())
        .as_ref()
}

/// A shaping face, with the font bytes it borrows.
#[derive(yoke::Yokeable, Clone)]
struct ShapingFace<'a>(rustybuzz::Face<'a>);

/// The shaping faces of a document, each made once (`None` where the face does not parse).
#[derive(Clone, Default)]
pub(crate) struct ShapingFaces(HashMap<ID, Option<Yoke<ShapingFace<'static>, FontData>>>);

impl ShapingFaces {
    /// The shaping face of face `id` of `db`, at its default coordinates: made the first time,
    /// as usvg as published made it for every text.
    pub(crate) fn face(&mut self, db: &Database, id: ID) -> Option<&rustybuzz::Face<'_>> {
        self.0
            .entry(id)
            .or_insert_with(|| {
                let (data, index) = face_data(db, id)?;
                Yoke::try_attach_to_cart(data, |bytes| {
                    rustybuzz::Face::from_slice(AsRef::<[u8]>::as_ref(bytes), index)
                        .map(ShapingFace)
                        .ok_or(())
                })
                .ok()
            })
            .as_ref()
            .map(|face| &face.get().0)
    }
}
