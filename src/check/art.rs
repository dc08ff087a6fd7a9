//! Card art: every image the data names exists inside the game's folder and decodes, and
//! raster art is sharp enough at the size the templates place it.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::diag::{Problem, SourceFile};
use crate::model::{FieldType, Game};
use crate::render::faces::images::{self, MIN_DPI};
use crate::render::faces::template::Placement;
use crate::render::svg_clean;

/// One place in the data that names an image.
struct Reference<'a> {
    file: &'a SourceFile,
    span: Range<usize>,
    path: &'a str,
}

/// Every image the data names, in data order: `image` fields of cards, and the `image` of
/// pieces (and their backs' `image` and `back_art`) and boards.
fn references(game: &Game) -> Vec<Reference<'_>> {
    let mut out = Vec::new();
    for deck in &game.components.decks {
        let art_fields: Vec<&String> = deck
            .fields
            .iter()
            .filter(|(_, d)| d.kind == FieldType::Image)
            .map(|(n, _)| n)
            .collect();
        for card in &deck.cards {
            for value in art_fields.iter().filter_map(|f| card.fields.get(*f)) {
                if let Some(path) = value.get_ref().as_str() {
                    out.push(Reference {
                        file: game.card_file(card),
                        span: value.span(),
                        path,
                    });
                }
            }
        }
    }
    let c = &game.components;
    let own = c
        .pieces
        .iter()
        .flat_map(|p| {
            [
                p.image.as_ref(),
                p.back_art.as_ref(),
                p.back.as_ref().and_then(|b| b.image.as_ref()),
            ]
        })
        .flatten()
        .chain(c.boards.iter().filter_map(|b| b.image.as_ref()));
    for image in own {
        out.push(Reference {
            file: &game.components_file,
            span: image.span(),
            path: image.get_ref(),
        });
    }
    out
}

/// The paths of every image the data names.
pub fn art_paths(game: &Game) -> BTreeSet<String> {
    references(game)
        .into_iter()
        .map(|r| r.path.to_string())
        .collect()
}

/// An image that cannot be used is one problem, at the first value that names it.
pub fn check(game: &Game) -> Vec<Problem> {
    let mut by_path: BTreeMap<&str, Vec<Reference>> = BTreeMap::new();
    for r in references(game) {
        by_path.entry(r.path).or_default().push(r);
    }
    let mut out = Vec::new();
    for (path, refs) in by_path {
        let first = &refs[0];
        if let Err(e) = images::load(&game.dir, path) {
            let mut p = Problem::data(format!("image {e}")).at(
                first.file,
                first.span.clone(),
                "named here",
            );
            if refs.len() > 1 {
                p = p.help(format!(
                    "{} values name this file; this is the first",
                    refs.len()
                ));
            }
            out.push(p);
        }
    }
    out
}

/// Raster art that would print below [`MIN_DPI`] at its placed size (one warning per file,
/// at the first value that names it, with the lowest resolution it prints at), and every SVG
/// file of the game that holds what its published copies leave out ([`svg_warnings`]).
pub fn warnings(game: &Game, placed: &[Placement]) -> Vec<Problem> {
    let mut out = dpi_warnings(game, placed);
    out.extend(svg_warnings(game, placed));
    out
}

/// Every SVG file of the game's folder that leaves the program in some form (the art the data
/// and the templates place, the icons, the prose's images and the SVG files its links open,
/// the templates): each one that holds a script, an event attribute, embedded HTML or a
/// reference outside itself is one warning at the first of them, in the file, with the
/// others listed. Every SVG printplay publishes is written anew from its drawing alone
/// ([`crate::render::svg_clean`]), so none of it reaches a reader; the warning says what the
/// designer's file does that its copies will not.
pub fn svg_warnings(game: &Game, placed: &[Placement]) -> Vec<Problem> {
    let is_svg = |rel: &String| {
        std::path::Path::new(rel)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
    };
    let mut art: BTreeSet<String> = art_paths(game);
    art.extend(placed.iter().map(|p| p.src.clone()));
    art.extend(
        game.components
            .icons
            .iter()
            .map(|i| i.image.get_ref().clone()),
    );
    art.extend(crate::rules::published_files(game));
    let mut out: Vec<Problem> = art
        .iter()
        .filter(|rel| is_svg(rel))
        .filter_map(|rel| {
            let file = crate::model::read_source_in(&game.dir, rel).ok()?;
            let found = svg_clean::dropped(&file.text);
            left_out(&file, &found)
        })
        .collect();
    let mut templates: Vec<String> = std::fs::read_dir(game.dir.join("templates"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .map(|name| format!("templates/{name}"))
        .filter(is_svg)
        .collect();
    templates.sort();
    out.extend(templates.iter().filter_map(|rel| {
        let file = crate::model::read_source_in(&game.dir, rel).ok()?;
        let found = svg_clean::dropped_in_template(&file.text);
        left_out(&file, &found)
    }));
    out
}

/// The warning for one SVG file that holds what its published copies leave out: at the
/// first, the others by line and column.
fn left_out(file: &SourceFile, found: &[svg_clean::Found]) -> Option<Problem> {
    /// Places listed at most, the rest counted.
    const LISTED: usize = 12;
    let first = found.first()?;
    let mut places: Vec<String> = found
        .iter()
        .take(LISTED)
        .map(|f| {
            let (line, col) = file.line_col(f.at.start);
            format!("{line}:{col} {}", f.what.short())
        })
        .collect();
    if found.len() > LISTED {
        places.push(format!("and {} more", found.len() - LISTED));
    }
    Some(
        Problem::warning(format!(
            "every copy printplay publishes of this SVG (the rules reference's files, the \
             table's faces) leaves out {}",
            svg_clean::summary(found)
        ))
        .at(file, first.at.clone(), "left out")
        .help(format!(
            "a published SVG is its drawing alone: no script, event attribute, embedded HTML \
             or reference to another file or URL (an image inside the file as a data: URL \
             stays); at {}",
            places.join(", ")
        )),
    )
}

/// Raster art that would print below [`MIN_DPI`] at its placed size.
fn dpi_warnings(game: &Game, placed: &[Placement]) -> Vec<Problem> {
    let mut lowest: BTreeMap<&str, f64> = BTreeMap::new();
    for p in placed {
        if let Some(dpi) = p.dpi {
            let entry = lowest.entry(p.src.as_str()).or_insert(dpi);
            *entry = entry.min(dpi);
        }
    }
    let refs = references(game);
    lowest
        .into_iter()
        .filter(|(_, dpi)| *dpi < MIN_DPI)
        .map(|(src, dpi)| {
            let p = Problem::warning(format!(
                "image `{src}` prints at {dpi:.0} dpi where it is placed; it looks sharp from {MIN_DPI:.0} dpi"
            ))
            .help("use a larger image (more pixels) or place it smaller");
            match refs.iter().find(|r| r.path == src) {
                Some(r) => p.at(r.file, r.span.clone(), "named here"),
                None => p,
            }
        })
        .collect()
}
