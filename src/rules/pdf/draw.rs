//! The laid-out pages written as a PDF with krilla: text as shaped glyphs of the embedded
//! faces, diagrams as vectors (krilla-svg), running heads and page numbers as artifacts, the
//! structure tagged (headings, paragraphs, lists, tables, figures), an outline, and links.

use std::collections::BTreeMap;
use std::num::NonZeroU16;

use krilla::Document;
use krilla::action::{Action, LinkAction};
use krilla::annotation::{Annotation, LinkAnnotation, Target};
use krilla::color::rgb;
use krilla::destination::{Destination, XyzDestination};
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::metadata::Metadata;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::surface::Surface;
use krilla::tagging::{
    Artifact, ArtifactType, ContentTag, Identifier, ListNumbering, Node, SpanTag, TableHeaderScope,
    Tag, TagGroup, TagTree,
};
use krilla_svg::{SurfaceExt, SvgSettings};

use super::flow::Flow;
use super::layout::{Block, Geometry, Item, Page, Role, TagPath, Unit};
use super::text::{self, Fonts, Link, Style};

/// Where each laid-out page goes in the PDF: the PDF page it is on and its x offset (the
/// booklet has two pages a sheet side).
pub struct Sheets {
    /// Each PDF page: its size and the laid-out pages on it (`None`: a blank page) with
    /// their x offsets.
    pub sides: Vec<Side>,
}

/// A PDF page: its size (points) and the laid-out pages on it with their x offsets.
pub type Side = ((f32, f32), Vec<(Option<usize>, f32)>);

impl Sheets {
    /// One PDF page per laid-out page.
    pub fn single(pages: usize, geo: &Geometry) -> Sheets {
        Sheets {
            sides: (0..pages)
                .map(|p| ((geo.width, geo.height), vec![(Some(p), 0.0)]))
                .collect(),
        }
    }

    /// The PDF page and offset of a laid-out page.
    fn place(&self, page: usize) -> (usize, f32) {
        for (s, (_, on)) in self.sides.iter().enumerate() {
            if let Some((_, x)) = on.iter().find(|(p, _)| *p == Some(page)) {
                return (s, *x);
            }
        }
        (0, 0.0)
    }
}

/// What the PDF is: its title and language.
pub struct Meta<'a> {
    pub title: &'a str,
    pub lang: &'a str,
}

const LINK: (u8, u8, u8) = (0x1a, 0x4f, 0x8a);

/// Writes the pages. Same pages, same bytes (no dates in the metadata).
pub fn write(
    fonts: &mut Fonts,
    flow: &Flow,
    units: &[Unit],
    pages: &[Page],
    geo: &Geometry,
    sheets: &Sheets,
    meta: &Meta,
) -> Result<Vec<u8>, String> {
    // Where every anchor is: page and y (points from the page's top).
    let mut anchors: BTreeMap<&str, (usize, f32)> = BTreeMap::new();
    for (p, page) in pages.iter().enumerate() {
        for placed in page.placed.iter().filter(|x| !x.repeat) {
            for a in &units[placed.unit].anchors {
                anchors.entry(a.as_str()).or_insert((p, geo.top + placed.y));
            }
        }
    }
    let mut doc = Document::new();
    doc.set_metadata(
        Metadata::new()
            .title(meta.title.to_string())
            .language(meta.lang.to_string())
            .creator("printplay".to_string()),
    );
    let mut leaves: BTreeMap<TagPath, Vec<Identifier>> = BTreeMap::new();
    // The link annotations of each block.
    let mut annotations: BTreeMap<usize, Vec<Identifier>> = BTreeMap::new();
    for (size, on) in &sheets.sides {
        let settings = PageSettings::from_wh(size.0, size.1).ok_or("a page has no size")?;
        let mut page = doc.start_page_with(settings);
        let mut links: Vec<(Rect, Link, TagPath)> = Vec::new();
        {
            let mut surface = page.surface();
            for (p, dx) in on {
                let Some(p) = *p else { continue };
                surface.push_transform(&Transform::from_translate(*dx, 0.0));
                let x0 = if p.is_multiple_of(2) {
                    geo.inner
                } else {
                    geo.outer
                };
                furniture(&mut surface, fonts, flow, units, pages, p, geo, x0);
                for placed in &pages[p].placed {
                    let top = geo.top + placed.y;
                    for item in &units[placed.unit].items {
                        draw_item(
                            &mut surface,
                            fonts,
                            item,
                            (x0, top),
                            placed.repeat,
                            &mut leaves,
                            &mut links,
                            &anchors,
                            sheets,
                            *dx,
                        );
                    }
                }
                surface.pop();
            }
            surface.finish();
        }
        for (rect, link, tag) in links {
            let target = match link {
                Link::External(uri) => Target::Action(Action::Link(LinkAction::new(uri))),
                Link::Internal(a) => {
                    let Some(&(p, y)) = anchors.get(a.as_str()) else {
                        continue;
                    };
                    let (side, dx) = sheets.place(p);
                    Target::Destination(Destination::Xyz(XyzDestination::new(
                        side,
                        Point::from_xy(dx, (y - 6.0).max(0.0)),
                    )))
                }
            };
            // Each link is tagged, as a Link element of the block it is in.
            let id = page.add_tagged_annotation(Annotation::new_link(
                LinkAnnotation::new(rect, target),
                None,
            ));
            annotations.entry(tag.block).or_default().push(id);
        }
        page.finish();
    }
    doc.set_outline(outline(units, pages, geo, sheets));
    doc.set_tag_tree(tag_tree(flow, leaves, annotations, meta.lang));
    doc.finish()
        .map_err(|e| format!("the PDF could not be written: {e:?}"))
}

/// The running head (the game, the section) and the page number, as artifacts; none on
/// the first page.
#[allow(clippy::too_many_arguments)]
fn furniture(
    surface: &mut Surface,
    fonts: &mut Fonts,
    flow: &Flow,
    units: &[Unit],
    pages: &[Page],
    p: usize,
    geo: &Geometry,
    x0: f32,
) {
    let size = geo.body * 0.8;
    let width = geo.measure();
    let number = format!("{}", p + 1);
    let foot = geo.height - geo.bottom * 0.5;
    surface.start_tagged(ContentTag::Artifact(Artifact::new(
        ArtifactType::PageNumber,
        None,
    )));
    let w = fonts.width(&number, fonts.face(Style::default(), false), size);
    // The number at the outer edge of the page.
    let x = if p.is_multiple_of(2) {
        x0 + width - w
    } else {
        x0
    };
    set_text(
        surface,
        fonts,
        &number,
        Style::default(),
        (x, foot),
        size,
        (0x44, 0x44, 0x44),
    );
    surface.end_tagged();
    if p == 0 {
        return;
    }
    let section = pages[p]
        .placed
        .iter()
        .find(|pl| !pl.repeat)
        .map_or(0, |pl| units[pl.unit].section);
    let head_y = geo.top * 0.55;
    surface.start_tagged(ContentTag::Artifact(Artifact::new(
        ArtifactType::Header,
        None,
    )));
    let grey = (0x55, 0x55, 0x55);
    let italic = Style {
        italic: true,
        ..Style::default()
    };
    set_text(
        surface,
        fonts,
        &flow.title,
        italic,
        (x0, head_y),
        size,
        grey,
    );
    if let Some(title) = flow.sections.get(section).filter(|t| !t.is_empty()) {
        let w = fonts.width(title, fonts.face(Style::default(), false), size);
        set_text(
            surface,
            fonts,
            title,
            Style::default(),
            (x0 + width - w, head_y),
            size,
            grey,
        );
    }
    rule(surface, x0, head_y + size * 0.5, width, 0.4, 0.6);
    surface.end_tagged();
}

/// One line of plain text at a baseline.
fn set_text(
    surface: &mut Surface,
    fonts: &mut Fonts,
    t: &str,
    style: Style,
    at: (f32, f32),
    size: f32,
    colour: (u8, u8, u8),
) {
    let frags = text::plain(t, style);
    for line in text::break_lines(fonts, &frags, size, f32::MAX / 4.0, false)
        .iter()
        .take(1)
    {
        for (x, word) in &line.words {
            glyphs(surface, fonts, &word.shaped, (at.0 + x, at.1), size, colour);
        }
    }
}

fn glyphs(
    surface: &mut Surface,
    fonts: &mut Fonts,
    shaped: &[text::Shaped],
    at: (f32, f32),
    size: f32,
    colour: (u8, u8, u8),
) {
    surface.set_fill(Some(Fill {
        paint: rgb::Color::new(colour.0, colour.1, colour.2).into(),
        ..Fill::default()
    }));
    let mut x = at.0;
    for piece in shaped {
        if let Some(font) = fonts.font(piece.face) {
            surface.draw_glyphs(
                Point::from_xy(x, at.1),
                &piece.glyphs,
                font,
                &piece.text,
                size,
                false,
            );
        }
        x += piece.width * size;
    }
}

fn rule(surface: &mut Surface, x: f32, y: f32, w: f32, h: f32, shade: f32) {
    let Some(rect) = Rect::from_xywh(x, y, w.max(0.01), h.max(0.01)) else {
        return;
    };
    let mut pb = PathBuilder::new();
    pb.push_rect(rect);
    if let Some(path) = pb.finish() {
        let g = (shade.clamp(0.0, 1.0) * 255.0) as u8;
        surface.set_fill(Some(Fill {
            paint: rgb::Color::new(g, g, g).into(),
            ..Fill::default()
        }));
        surface.draw_path(&path);
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_item(
    surface: &mut Surface,
    fonts: &mut Fonts,
    item: &Item,
    (x0, top): (f32, f32),
    repeat: bool,
    leaves: &mut BTreeMap<TagPath, Vec<Identifier>>,
    links: &mut Vec<(Rect, Link, TagPath)>,
    anchors: &BTreeMap<&str, (usize, f32)>,
    sheets: &Sheets,
    dx: f32,
) {
    let open = |surface: &mut Surface| {
        if repeat {
            surface.start_tagged(ContentTag::Artifact(Artifact::new(
                ArtifactType::PaginationOther,
                None,
            )));
            None
        } else {
            Some(surface.start_tagged(ContentTag::Span(SpanTag::empty())))
        }
    };
    match item {
        Item::Text {
            x,
            baseline,
            size,
            line,
            frags,
            tag,
            ..
        } => {
            let id = open(surface);
            for (wx, word) in &line.words {
                let frag = &frags[word.frag];
                let at = (x0 + x + wx, top + baseline);
                let colour = match (&frag.link, frag.style.code) {
                    (Some(_), _) => LINK,
                    (None, true) => (0x5a, 0x1e, 0x1e),
                    (None, false) => (0x11, 0x11, 0x11),
                };
                glyphs(surface, fonts, &word.shaped, at, *size, colour);
                if let Some(link) = &frag.link
                    && let Some(rect) = Rect::from_xywh(
                        at.0 + dx - word.space,
                        at.1 - size * 0.85,
                        word.width + word.space,
                        size * 1.15,
                    )
                {
                    links.push((rect, link.clone(), *tag));
                }
            }
            surface.end_tagged();
            if let Some(id) = id {
                leaves.entry(*tag).or_default().push(id);
            }
        }
        Item::Rule { x, y, w, h, shade } => {
            surface.start_tagged(ContentTag::Artifact(Artifact::new(
                ArtifactType::Layout,
                None,
            )));
            rule(surface, x0 + x, top + y, *w, *h, *shade);
            surface.end_tagged();
        }
        Item::Svg {
            x,
            y,
            w,
            h,
            tree,
            tag,
        } => {
            // A cell's swatch is decoration beside its name; a figure is content.
            let decoration = tag.cell.is_some();
            let id = if decoration || repeat {
                surface.start_tagged(ContentTag::Artifact(Artifact::new(
                    ArtifactType::Layout,
                    None,
                )));
                None
            } else {
                Some(surface.start_tagged(ContentTag::Other))
            };
            surface.push_transform(&Transform::from_translate(x0 + x, top + y));
            if let Some(size) = Size::from_wh(*w, *h) {
                surface.draw_svg(tree, size, SvgSettings::default());
            }
            surface.pop();
            surface.end_tagged();
            if let Some(id) = id {
                leaves.entry(*tag).or_default().push(id);
            }
        }
        Item::PageRef {
            x,
            baseline,
            size,
            target,
            tag,
        } => {
            let Some(&(p, _)) = anchors.get(target.as_str()) else {
                return;
            };
            let _ = sheets;
            let number = format!("{}", p + 1);
            let w = fonts.width(&number, fonts.face(Style::default(), false), *size);
            surface.start_tagged(ContentTag::Artifact(Artifact::new(
                ArtifactType::Layout,
                None,
            )));
            set_text(
                surface,
                fonts,
                &number,
                Style::default(),
                (x0 + x - w, top + baseline),
                *size,
                (0x11, 0x11, 0x11),
            );
            surface.end_tagged();
            if let Some(rect) = Rect::from_xywh(x0 + dx, top, *x, size * 1.3) {
                links.push((rect, Link::Internal(target.clone()), *tag));
            }
        }
    }
}

/// The outline: sections, the appendix's sections under it, and headings inside them.
fn outline(units: &[Unit], pages: &[Page], geo: &Geometry, sheets: &Sheets) -> Outline {
    // Each entry: level, title, destination; nested by level.
    let mut entries: Vec<(usize, String, XyzDestination)> = Vec::new();
    for (p, page) in pages.iter().enumerate() {
        for placed in page.placed.iter().filter(|x| !x.repeat) {
            if let Some((level, title)) = &units[placed.unit].outline {
                let (side, dx) = sheets.place(p);
                let y = (geo.top + placed.y - 6.0).max(0.0);
                entries.push((
                    *level,
                    title.clone(),
                    XyzDestination::new(side, Point::from_xy(dx, y)),
                ));
            }
        }
    }
    fn nest(
        entries: &[(usize, String, XyzDestination)],
        at: &mut usize,
        level: usize,
    ) -> Vec<OutlineNode> {
        let mut out: Vec<OutlineNode> = Vec::new();
        while *at < entries.len() {
            let (l, title, dest) = &entries[*at];
            if *l < level {
                break;
            }
            if *l > level {
                // Deeper: children of the last node at this level (or of none).
                let children = nest(entries, at, level + 1);
                match out.last_mut() {
                    Some(node) => children.into_iter().for_each(|c| node.push_child(c)),
                    None => out.extend(children),
                }
                continue;
            }
            out.push(OutlineNode::new(title.clone(), dest.clone()));
            *at += 1;
        }
        out
    }
    let mut o = Outline::new();
    let mut at = 0;
    for node in nest(&entries, &mut at, 0) {
        o.push_child(node);
    }
    o
}

/// The structure: each block a heading, paragraph, caption, list item, table or figure, in
/// reading order, holding the content drawn for it.
fn tag_tree(
    flow: &Flow,
    mut leaves: BTreeMap<TagPath, Vec<Identifier>>,
    mut annotations: BTreeMap<usize, Vec<Identifier>>,
    lang: &str,
) -> TagTree {
    let mut tree = TagTree::new().with_lang(Some(lang.to_string()));
    let mut take = |path: TagPath| -> Vec<Node> {
        let mut nodes: Vec<Node> = leaves
            .remove(&path)
            .unwrap_or_default()
            .into_iter()
            .map(Node::from)
            .collect();
        // A block's links go with its text (a cell's, with its table's first cell taken).
        if !path.label
            && let Some(ids) = annotations.remove(&path.block)
        {
            nodes.extend(
                ids.into_iter()
                    .map(|id| TagGroup::with_children(Tag::Link, vec![Node::from(id)]).into()),
            );
        }
        nodes
    };
    let mut open_list: Option<(usize, TagGroup)> = None;
    let mut toc: Option<TagGroup> = None;
    for (b, block) in flow.blocks.iter().enumerate() {
        let path = |cell, label| TagPath {
            block: b,
            cell,
            label,
        };
        let list_id = match block {
            Block::Text {
                list: Some((id, _)),
                ..
            } => Some(*id),
            _ => None,
        };
        if open_list.as_ref().map(|(id, _)| Some(*id)) != Some(list_id)
            && let Some((_, group)) = open_list.take()
        {
            tree.push(group);
        }
        if !matches!(
            block,
            Block::Text {
                role: Role::Toc(_),
                ..
            }
        ) && let Some(group) = toc.take()
        {
            tree.push(group);
        }
        match block {
            Block::Text {
                role,
                list: Some((id, ordered)),
                ..
            } => {
                let _ = role;
                let (_, group) = open_list.get_or_insert_with(|| {
                    let numbering = if *ordered {
                        ListNumbering::Decimal
                    } else {
                        ListNumbering::Disc
                    };
                    (*id, TagGroup::new(Tag::L(numbering)))
                });
                let mut li = TagGroup::new(Tag::LI);
                li.push(TagGroup::with_children(Tag::Lbl, take(path(None, true))));
                li.push(TagGroup::with_children(Tag::LBody, take(path(None, false))));
                group.push(li);
            }
            Block::Text { role, .. } => {
                let kids = take(path(None, false));
                let group = match role {
                    Role::Title => TagGroup::with_children(Tag::Hn(level(1), None), kids),
                    Role::Section => TagGroup::with_children(Tag::Hn(level(2), None), kids),
                    Role::Sub | Role::Question => {
                        TagGroup::with_children(Tag::Hn(level(3), None), kids)
                    }
                    Role::Body => TagGroup::with_children(Tag::P, kids),
                    Role::Caption => TagGroup::with_children(Tag::Caption, kids),
                    Role::Toc(_) => {
                        toc.get_or_insert_with(|| TagGroup::new(Tag::TOC))
                            .push(TagGroup::with_children(Tag::TOCI, kids));
                        continue;
                    }
                };
                tree.push(group);
            }
            Block::Table { header, rows, .. } => {
                let mut table = TagGroup::new(Tag::Table);
                for r in 0..=rows.len() {
                    let mut tr = TagGroup::new(Tag::TR);
                    for c in 0..header.len() {
                        let kids = take(path(Some((r, c)), false));
                        tr.push(if r == 0 {
                            TagGroup::with_children(Tag::TH(TableHeaderScope::Column), kids)
                        } else {
                            TagGroup::with_children(Tag::TD, kids)
                        });
                    }
                    table.push(tr);
                }
                tree.push(table);
            }
            Block::Figure { alt, .. } => {
                tree.push(TagGroup::with_children(
                    Tag::Figure(Some(alt.clone())),
                    take(path(None, false)),
                ));
            }
        }
    }
    if let Some((_, group)) = open_list {
        tree.push(group);
    }
    if let Some(group) = toc {
        tree.push(group);
    }
    // Links of a block that took no content (none in practice): still in the structure.
    let annotations = std::mem::take(&mut annotations);
    for id in annotations.into_values().flatten() {
        tree.push(TagGroup::with_children(Tag::Link, vec![Node::from(id)]));
    }
    tree
}

fn level(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap_or(NonZeroU16::MIN)
}
