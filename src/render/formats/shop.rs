//! Print-shop files (`printplay build --shop`): what an on-demand card printer asks for.
//!
//! Under `<out>/<slug>/shop/`: per deck, `<deck>.pdf` with one card copy per page (the
//! page is the card plus its bleed, TrimBox exactly the card, BleedBox the whole page) and
//! `<deck>-back.pdf` with the back; `png/<deck>-<id>.png` and `png/<deck>-back.png`, each
//! design once with its bleed at the shop's resolution (pHYs set); and `manifest.csv`, which
//! says how many copies of each image to order and whether its text keeps the printer's
//! safe zone. A game printing its cards in several languages writes each language's decks
//! under `shop/<lang>/` (one manifest names them all). `--color cmyk` converts the PDFs (see [`crate::render::formats::cmyk`]); `--shop-preset`
//! sizes everything to one printer's template.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::render::faces::fonts::FontDb;
use crate::render::faces::{CardFace, DeckFaces, Faces};
use crate::render::formats::cmyk;
use crate::render::formats::pdf::{PageSpec, svg_page, write_pdf_keeping};
use crate::render::formats::png;
use crate::render::sheets::layout::{Rect, SAFE_ZONE_SLACK};
use crate::render::{GameBuild, cache};

/// Colour of the print-shop PDFs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Color {
    /// As drawn (sRGB), like every other output.
    Rgb,
    /// Converted to CMYK with the bundled profile, which the PDF names as its output intent.
    Cmyk,
}

/// Print-on-demand card printers whose image templates the shop files can follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    #[value(name = "thegamecrafter")]
    TheGameCrafter,
    #[value(name = "makeplayingcards")]
    MakePlayingCards,
    #[value(name = "drivethrucards")]
    DriveThruCards,
}

/// One printer's card image specification (sources in the README, *Print-shop files*).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PresetSpec {
    pub printer: &'static str,
    /// Bleed beyond the trim on every side, in millimetres.
    pub bleed_mm: f64,
    /// How far inside the trim text must stay, in millimetres.
    pub safe_mm: f64,
    /// Image resolution in pixels per inch.
    pub dpi: f64,
    /// The colour the printer wants its PDFs in.
    pub color: Color,
    /// The printing condition its CMYK PDFs are separated for.
    pub condition: cmyk::Condition,
}

/// A card a printer prints: its name, its trim in inches and its template image (trim
/// plus bleed) in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Template {
    pub card: &'static str,
    pub trim_in: (f64, f64),
    pub px: (u32, u32),
}

impl Template {
    pub fn trim_mm(&self) -> (f64, f64) {
        (self.trim_in.0 * INCH, self.trim_in.1 * INCH)
    }
}

const fn template(card: &'static str, trim_in: (f64, f64), px: (u32, u32)) -> Template {
    Template { card, trim_in, px }
}

/// Every printer's card templates, as the README's table gives them with their sources.
/// The Game Crafter publishes an image template per card; MakePlayingCards states its
/// poker card (822 x 1122 px, 36 px bleed a side) and DriveThruCards its 1/8 inch bleed,
/// from which their other cards follow at 300 dpi.
pub const TEMPLATES: [(Preset, [Template; 4]); 3] = [
    (
        Preset::TheGameCrafter,
        [
            template("poker", (2.5, 3.5), (825, 1125)),
            template("bridge", (2.25, 3.5), (750, 1125)),
            template("tarot", (2.75, 4.75), (900, 1500)),
            template("mini", (1.75, 2.5), (600, 825)),
        ],
    ),
    (
        Preset::MakePlayingCards,
        [
            template("poker", (2.5, 3.5), (822, 1122)),
            template("bridge", (2.25, 3.5), (747, 1122)),
            template("tarot", (2.75, 4.75), (897, 1497)),
            template("mini", (1.75, 2.5), (597, 822)),
        ],
    ),
    (
        Preset::DriveThruCards,
        [
            template("poker", (2.5, 3.5), (825, 1125)),
            template("bridge", (2.25, 3.5), (750, 1125)),
            template("tarot", (2.75, 4.75), (900, 1500)),
            template("mini", (1.75, 2.5), (600, 825)),
        ],
    ),
];

const INCH: f64 = 25.4;

impl Preset {
    pub fn spec(self) -> PresetSpec {
        match self {
            // 1/8 inch bleed (37.5 px at 300 dpi) and a safe zone 1/8 inch inside the cut.
            Preset::TheGameCrafter => PresetSpec {
                printer: "The Game Crafter",
                bleed_mm: INCH / 8.0,
                safe_mm: INCH / 8.0,
                dpi: 300.0,
                color: Color::Rgb,
                condition: cmyk::Condition::Fogra39,
            },
            // 36 px bleed a side at 300 dpi, safe zone 36 px inside the cut.
            Preset::MakePlayingCards => PresetSpec {
                printer: "MakePlayingCards",
                bleed_mm: 36.0 / 300.0 * INCH,
                safe_mm: 36.0 / 300.0 * INCH,
                dpi: 300.0,
                color: Color::Rgb,
                condition: cmyk::Condition::Fogra39,
            },
            // 1/8 inch bleed and safe zone, 300 dpi, CMYK for SWOP.
            Preset::DriveThruCards => PresetSpec {
                printer: "DriveThruCards",
                bleed_mm: INCH / 8.0,
                safe_mm: INCH / 8.0,
                dpi: 300.0,
                color: Color::Cmyk,
                condition: cmyk::Condition::Swop,
            },
        }
    }

    /// The printer's card templates.
    pub fn templates(self) -> &'static [Template; 4] {
        &TEMPLATES
            .iter()
            .find(|(p, _)| *p == self)
            .expect("every preset has its templates")
            .1
    }

    /// The printer's card a card of `size` mm is printed as: the one within
    /// [`FIT_TOLERANCE`] of it on both sides, the nearest when several are.
    pub fn template_for(self, size: (f64, f64)) -> Option<&'static Template> {
        self.templates()
            .iter()
            .map(|t| {
                let (w, h) = t.trim_mm();
                (t, (size.0 - w).abs().max((size.1 - h).abs()))
            })
            .filter(|(_, off)| *off <= FIT_TOLERANCE)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(t, _)| t)
    }
}

/// What `--shop` was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ShopOptions {
    /// `None`: the preset's colour, else RGB.
    pub color: Option<Color>,
    pub preset: Option<Preset>,
}

impl ShopOptions {
    pub fn color(&self) -> Color {
        self.color
            .or(self.preset.map(|p| p.spec().color))
            .unwrap_or(Color::Rgb)
    }

    /// The printing condition CMYK PDFs are made for: the preset's, else FOGRA39.
    pub fn condition(&self) -> cmyk::Condition {
        self.preset
            .map_or(cmyk::Condition::Fogra39, |p| p.spec().condition)
    }

    /// `shop/notes.txt`: what the files were made for and, for a printer, what of its
    /// specification they meet and what not.
    pub fn notes(&self, decks: &[(&str, ShopCard)]) -> String {
        let mut out = String::new();
        let printer = self
            .preset
            .map_or("no printer (--shop-preset not given)", |p| p.spec().printer);
        out.push_str(&format!("Print-shop files for {printer}.\n\n"));
        for (deck, card) in decks {
            let (w, h) = png::pixels(card.page(), card.px_per_mm);
            out.push_str(&format!(
                "{deck}: trim {:.2} x {:.2} mm{}, bleed {:.2} mm, {w} x {h} px at {:.0} dpi; {}\n",
                card.trim.0,
                card.trim.1,
                if card.fitted {
                    " (the printer's card)"
                } else {
                    ""
                },
                card.bleed,
                card.px_per_mm * INCH,
                match card.safe {
                    Some(s) => format!("text checked against a {s:.2} mm safe zone (manifest.csv)"),
                    None => "no safe zone checked".to_string(),
                }
            ));
        }
        let condition = self.condition();
        out.push_str(&match self.color() {
            Color::Rgb => "\nPDFs in sRGB, as drawn.\n".to_string(),
            Color::Cmyk => format!(
                "\nPDFs in CMYK for {}, at most {} % total ink, named as their output \
                 intent; 100 % black text overprints.\n",
                condition.description(),
                condition.ink_limit()
            ),
        });
        if self.preset == Some(Preset::DriveThruCards) {
            out.push_str(
                "DriveThruCards asks for PDF/X-1a:2003: these PDFs are not PDF/X-1a (they keep \
                 the card art's transparency, which PDF/X-1a forbids; see the README, \
                 Print-shop files); the PNGs (sRGB) can be uploaded instead.\n",
            );
        }
        out
    }
}

/// A deck's card as the shop gets it: the face drawn at `scale` into a trim of `trim` mm with
/// `bleed` mm all round, rendered at `px` pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShopCard {
    pub trim: (f64, f64),
    pub bleed: f64,
    pub scale: f64,
    pub px_per_mm: f64,
    /// Text must stay this far inside the trim (mm), when the printer says.
    pub safe: Option<f64>,
    /// Whether the card was fitted to the printer's own card size.
    pub fitted: bool,
}

/// How close (mm, on each side) a deck's size must be to a printer's card to be fitted to
/// it: a 56 x 87 mm bridge card is 1.9 mm shorter than the printers' 2.25 x 3.5 inch one.
pub const FIT_TOLERANCE: f64 = 2.0;

impl ShopCard {
    /// The shop geometry of a card of `size` mm: the build's bleed at 300 dpi, or the
    /// preset's. A card within [`FIT_TOLERANCE`] of one of the printer's cards is scaled to
    /// cover it exactly (up to 2 % for a 56 x 87 mm bridge card; the excess falls into the
    /// bleed) and rendered at the printer's template size.
    pub fn new(size: (f64, f64), bleed: f64, preset: Option<Preset>) -> ShopCard {
        let Some(preset) = preset else {
            return ShopCard {
                trim: size,
                bleed,
                scale: 1.0,
                px_per_mm: png::PX_PER_MM_300DPI,
                safe: None,
                fitted: false,
            };
        };
        let spec = preset.spec();
        let fitted = preset.template_for(size);
        let trim = fitted.map_or(size, Template::trim_mm);
        ShopCard {
            trim,
            bleed: spec.bleed_mm,
            scale: if fitted.is_some() {
                (trim.0 / size.0).max(trim.1 / size.1)
            } else {
                1.0
            },
            px_per_mm: spec.dpi / INCH,
            safe: Some(spec.safe_mm),
            fitted: fitted.is_some(),
        }
    }

    /// The page (or image) in millimetres: the trim plus bleed on every side.
    pub fn page(&self) -> (f64, f64) {
        (
            self.trim.0 + 2.0 * self.bleed,
            self.trim.1 + 2.0 * self.bleed,
        )
    }

    pub fn trim_box(&self) -> Rect {
        Rect {
            x: self.bleed,
            y: self.bleed,
            w: self.trim.0,
            h: self.trim.1,
        }
    }

    /// The bleed a face must be drawn with so its art covers the whole page after scaling.
    pub fn face_bleed(&self, size: (f64, f64)) -> f64 {
        let overhang_x = (self.trim.0 - size.0 * self.scale) / 2.0;
        let overhang_y = (self.trim.1 - size.1 * self.scale) / 2.0;
        (self.bleed + overhang_x.max(overhang_y).max(0.0)) / self.scale
    }

    /// A face (a fragment in its own trim millimetres) as a complete page document.
    pub fn document(&self, face: &str, size: (f64, f64)) -> String {
        svg_page(self.page(), &self.placed(face, size))
    }

    /// A face (a fragment in its own trim millimetres) placed on its page: SVG content in
    /// page millimetres.
    fn placed(&self, face: &str, size: (f64, f64)) -> String {
        let dx = self.bleed + (self.trim.0 - size.0 * self.scale) / 2.0;
        let dy = self.bleed + (self.trim.1 - size.1 * self.scale) / 2.0;
        format!(
            r#"<g transform="translate({dx:.4} {dy:.4}) scale({:.6})">{face}</g>"#,
            self.scale
        )
    }

    fn page_spec(&self, face: &str, size: (f64, f64)) -> PageSpec {
        let (w, h) = self.page();
        PageSpec {
            trim: Some(self.trim_box()),
            bleed: Some(Rect::of_size((w, h))),
            ..PageSpec::new((w, h), self.placed(face, size))
        }
    }
}

/// The build stage writing `shop/`; nothing unless `--shop` was given.
pub fn stage(b: &GameBuild) -> Result<Vec<PathBuf>, String> {
    let Some(shop) = b.options.shop else {
        return Ok(Vec::new());
    };
    let decks: Vec<&DeckFaces> = b
        .faces
        .decks
        .iter()
        .filter(|d| !d.cards.is_empty())
        .collect();
    let two_sided = b.faces.pieces.iter().any(|p| p.back.is_some());
    if decks.is_empty() && !two_sided {
        return Ok(Vec::new());
    }
    let redrawn = redraw_if_needed(b, &decks, shop.preset)?;
    let faces = redrawn.as_ref().unwrap_or(&b.faces);
    let mut files = Vec::new();
    let mut manifest = Manifest::new();
    let mut cards = Vec::new();
    // A game printing its cards in several languages orders each language's decks from
    // `shop/<lang>/`; a multilingual deck, the same in all of them, once from `shop/`.
    let sets = faces.card_sets(b.game);
    let mut shared = std::collections::BTreeSet::new();
    for set in &sets {
        for deck in set.decks.iter().filter(|d| !d.cards.is_empty()) {
            let prefix = match &deck.lang {
                Some(l) => format!("{l}/"),
                None if shared.insert(deck.id.clone()) => String::new(),
                None => continue,
            };
            let card = ShopCard::new(deck.size, b.options.bleed, shop.preset);
            files.extend(deck_pdfs(b, deck, &card, &shop, &prefix)?);
            files.extend(deck_pngs(b, deck, &card, &mut manifest, &prefix)?);
            if !cards.iter().any(|(id, _)| *id == deck.id) {
                cards.push((deck.id.clone(), card));
            }
        }
    }
    let cards: Vec<(&str, ShopCard)> = cards.iter().map(|(id, c)| (id.as_str(), *c)).collect();
    files.extend(piece_pdfs(b, &shop, &mut manifest)?);
    files.push(b.write("shop/manifest.csv", manifest.text.as_bytes())?);
    files.push(b.write("shop/notes.txt", shop.notes(&cards).as_bytes())?);
    Ok(files)
}

/// Faces drawn again with more bleed when the shop's bleed (or fitting) needs more art
/// around the trim than the build drew; `None` when the build's faces do.
fn redraw_if_needed(
    b: &GameBuild,
    decks: &[&DeckFaces],
    preset: Option<Preset>,
) -> Result<Option<Faces>, String> {
    let needed = decks
        .iter()
        .map(|d| ShopCard::new(d.size, b.options.bleed, preset).face_bleed(d.size))
        .fold(0.0, f64::max);
    if needed <= b.options.bleed + 1e-9 {
        return Ok(None);
    }
    let mut options = b.options.clone();
    // A little more than needed, so rounding to pixels never shows the edge of the art.
    options.bleed = needed + 0.25;
    crate::render::draw_faces(b.game, &options).map(Some)
}

/// Every copy of every card of a deck, in deck order.
fn copies(deck: &DeckFaces) -> impl Iterator<Item = &CardFace> {
    deck.cards
        .iter()
        .flat_map(|c| std::iter::repeat_n(c, c.count as usize))
}

/// `shop/<deck>.pdf` (one page per copy) and `shop/<deck>-back.pdf` (under `shop/<lang>/`
/// for a deck drawn once per language: `prefix` is `<lang>/`).
fn deck_pdfs(
    b: &GameBuild,
    deck: &DeckFaces,
    card: &ShopCard,
    shop: &ShopOptions,
    prefix: &str,
) -> Result<Vec<PathBuf>, String> {
    let fronts: Vec<PageSpec> = copies(deck)
        .map(|c| card.page_spec(&c.svg, deck.size))
        .collect();
    // One back for the deck, or (cards with backs of their own) one per copy, in order.
    let back: Vec<PageSpec> = if deck.backs_differ() {
        copies(deck)
            .map(|c| card.page_spec(c.back_or(&deck.back), deck.size))
            .collect()
    } else {
        vec![card.page_spec(&deck.back, deck.size)]
    };
    let title = |what: &str| format!("{}: {} ({what})", b.game.info.name, deck.name);
    // What each page of the fronts and of the backs shows, for an error about its art.
    let ids: Vec<&str> = copies(deck).map(|c| c.id.as_str()).collect();
    let front = |page: usize| {
        let id = ids.get(page.wrapping_sub(1)).copied().unwrap_or("?");
        format!("card `{id}` of deck `{}`", deck.id)
    };
    let backs_differ = deck.backs_differ();
    let back_of = |page: usize| match backs_differ {
        true => format!("the back of {}", front(page)),
        false => format!("the back of deck `{}`", deck.id),
    };
    let page_names: [&dyn Fn(usize) -> String; 2] = [&front, &back_of];
    [
        (
            format!("shop/{prefix}{}.pdf", deck.id),
            title("fronts"),
            fronts,
        ),
        (
            format!("shop/{prefix}{}-back.pdf", deck.id),
            title("back"),
            back,
        ),
    ]
    .into_iter()
    .zip(page_names)
    .map(|((name, title, pages), page_name)| {
        let rgb = write_pdf_keeping(
            &title,
            &pages,
            &b.faces.fonts,
            b.options.kept_pages.as_deref(),
        )?;
        let bytes = match shop.color() {
            Color::Rgb => rgb,
            Color::Cmyk => cmyk::convert_pdf_naming(&rgb, shop.condition(), page_name)
                .map_err(|e| format!("{name}: {e}"))?,
        };
        b.write(&name, &bytes)
    })
    .collect()
}

/// `shop/pieces/<id>.pdf` for each two-sided piece: its front page and its back page, each
/// the piece's box with its bleed (TrimBox the box), the art clipped to the bleed outline.
fn piece_pdfs(
    b: &GameBuild,
    shop: &ShopOptions,
    manifest: &mut Manifest,
) -> Result<Vec<PathBuf>, String> {
    let bleed = crate::render::faces::PIECE_BLEED;
    b.faces
        .pieces
        .iter()
        .filter_map(|p| p.back.as_ref().map(|back| (p, back)))
        .map(|(p, back)| {
            let card = ShopCard::new(p.size, bleed, None);
            let clipped = |svg: &str| {
                format!(
                    r#"<clipPath id="piece"><path d="{}"/></clipPath><g clip-path="url(#piece)">{svg}</g>"#,
                    p.bleed_outline
                )
            };
            let pages = vec![
                card.page_spec(&clipped(&p.svg), p.size),
                card.page_spec(&clipped(back), p.size),
            ];
            let name = format!("shop/pieces/{}.pdf", p.id);
            let title = format!("{}: {} (front and back)", b.game.info.name, p.name);
            let rgb = write_pdf_keeping(&title, &pages, &b.faces.fonts, b.options.kept_pages.as_deref())?;
            let bytes = match shop.color() {
                Color::Rgb => rgb,
                Color::Cmyk => {
                    let side = |page: usize| match page {
                        1 => format!("the front of piece `{}`", p.id),
                        _ => format!("the back of piece `{}`", p.id),
                    };
                    cmyk::convert_pdf_naming(&rgb, shop.condition(), &side)
                        .map_err(|e| format!("{name}: {e}"))?
                }
            };
            manifest.line(&[
                &format!("pieces/{}.pdf", p.id),
                "pieces",
                &p.id,
                &p.name,
                &p.count.to_string(),
                "-",
                "-",
                "-",
            ]);
            b.write(&name, &bytes)
        })
        .collect()
}

/// `shop/png/<deck>-<id>.png` per design and `<deck>-back.png` (under `shop/<lang>/` for a
/// deck drawn once per language: `prefix` is `<lang>/`), with their manifest lines.
fn deck_pngs(
    b: &GameBuild,
    deck: &DeckFaces,
    card: &ShopCard,
    manifest: &mut Manifest,
    prefix: &str,
) -> Result<Vec<PathBuf>, String> {
    let total: u32 = deck.cards.iter().map(|c| c.count).sum();
    let mut jobs: Vec<(String, &str, &str, u32, &str)> = deck
        .cards
        .iter()
        .map(|c| {
            let file = format!("{prefix}png/{}-{}.png", deck.id, c.id);
            (
                file,
                c.id.as_str(),
                c.name.as_str(),
                c.count,
                c.svg.as_str(),
            )
        })
        .collect();
    // Cards with a back of their own order it with their count; the deck's back covers the
    // rest.
    let own: Vec<&CardFace> = deck
        .cards
        .iter()
        .filter(|c| c.back.as_ref().is_some_and(|b| b.svg != deck.back))
        .collect();
    let own_copies: u32 = own.iter().map(|c| c.count).sum();
    for c in &own {
        jobs.push((
            format!("{prefix}png/{}-{}-back.png", deck.id, c.id),
            c.id.as_str(),
            "back",
            c.count,
            c.back_or(&deck.back),
        ));
    }
    let back_file = format!("{prefix}png/{}-back.png", deck.id);
    jobs.push((
        back_file,
        "back",
        "back",
        total - own_copies,
        deck.back.as_str(),
    ));
    let rendered: Vec<(PathBuf, String)> = jobs
        .par_iter()
        .map(|(file, _, _, _, svg)| {
            let doc = card.document(svg, deck.size);
            let bytes = b.png_alone(&doc, card.page(), card.px_per_mm)?;
            let note = safe_zone_note(&doc, card, &b.faces.fonts, b.faces.cache.as_deref())?;
            Ok((b.write(&format!("shop/{file}"), &bytes)?, note))
        })
        .collect::<Result<_, String>>()?;
    let px = png::pixels(card.page(), card.px_per_mm);
    for ((file, id, name, count, _), (_, note)) in jobs.iter().zip(&rendered) {
        manifest.line(&[
            file,
            &deck.id,
            id,
            name,
            &count.to_string(),
            &px.0.to_string(),
            &px.1.to_string(),
            note,
        ]);
    }
    Ok(rendered.into_iter().map(|(p, _)| p).collect())
}

/// "ok" when every text of a face lies inside the printer's safe zone, else how far inside
/// the trim the closest text comes; "-" when the printer names no safe zone. Measured
/// through the build cache when there is one, as the check's safe-zone warning is.
fn safe_zone_note(
    doc: &str,
    card: &ShopCard,
    fonts: &FontDb,
    cache: Option<&cache::Cache>,
) -> Result<String, String> {
    let Some(safe) = card.safe else {
        return Ok("-".to_string());
    };
    Ok(
        match cache::text_inset(cache, doc, card.page(), card.trim_box(), fonts, None)? {
            Some(closest) if closest < safe - SAFE_ZONE_SLACK => {
                format!("text {closest:.1} mm inside the cut, safe zone {safe:.1} mm")
            }
            _ => "ok".to_string(),
        },
    )
}

/// `shop/manifest.csv`: one line per image with the copies to order.
struct Manifest {
    text: String,
}

impl Manifest {
    fn new() -> Manifest {
        Manifest {
            text: "file,deck,card,name,copies,width_px,height_px,safe_zone\n".to_string(),
        }
    }

    fn line(&mut self, fields: &[&str]) {
        let cells: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        self.text.push_str(&cells.join(","));
        self.text.push('\n');
    }
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_give_the_printers_pixel_sizes_for_a_poker_card() {
        for (preset, px) in [
            (Preset::TheGameCrafter, (825, 1125)),
            (Preset::MakePlayingCards, (822, 1122)),
            (Preset::DriveThruCards, (825, 1125)),
        ] {
            let card = ShopCard::new((63.0, 88.0), 3.0, Some(preset));
            assert!(card.fitted);
            assert_eq!(png::pixels(card.page(), card.px_per_mm), px, "{preset:?}");
            assert_eq!(preset.template_for((63.0, 88.0)).unwrap().px, px);
            // The scaled face covers the printer's trim; its bleed covers the page.
            assert!(63.0 * card.scale >= card.trim.0 - 1e-9);
            assert!(88.0 * card.scale >= card.trim.1 - 1e-9);
            assert!(card.face_bleed((63.0, 88.0)) * card.scale >= card.bleed);
        }
    }

    #[test]
    fn without_a_preset_the_card_keeps_its_size_and_the_build_bleed() {
        let card = ShopCard::new((70.0, 120.0), 3.0, None);
        assert_eq!(card.page(), (76.0, 126.0));
        assert_eq!(card.scale, 1.0);
        assert_eq!(png::pixels(card.page(), card.px_per_mm), (898, 1488));
        // A card no printer prints keeps its size, with the printer's bleed.
        let odd = ShopCard::new((80.0, 80.0), 3.0, Some(Preset::TheGameCrafter));
        assert!(!odd.fitted);
        assert_eq!(odd.trim, (80.0, 80.0));
        assert_eq!(odd.bleed, INCH / 8.0);
    }

    #[test]
    fn text_outside_the_safe_zone_is_reported() {
        let card = ShopCard::new((63.0, 88.0), 3.0, Some(Preset::TheGameCrafter));
        let text = |x: f64| {
            format!(r#"<text x="{x}" y="40" font-size="4" font-family="DejaVu Sans">Hi</text>"#)
        };
        let inside = card.document(&text(20.0), (63.0, 88.0));
        assert_eq!(
            safe_zone_note(
                &inside,
                &card,
                &crate::render::faces::fonts::builtin(),
                None
            )
            .unwrap(),
            "ok"
        );
        let near_edge = card.document(&text(1.0), (63.0, 88.0));
        let note = safe_zone_note(
            &near_edge,
            &card,
            &crate::render::faces::fonts::builtin(),
            None,
        )
        .unwrap();
        let mm: f64 = note
            .strip_prefix("text ")
            .and_then(|n| n.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{note}"));
        assert!((0.5..1.5).contains(&mm), "{note}");
    }

    #[test]
    fn every_template_is_its_trim_plus_the_printers_bleed_at_its_resolution() {
        for (preset, templates) in TEMPLATES {
            let spec = preset.spec();
            for t in templates {
                let (w, h) = t.trim_mm();
                let page = (w + 2.0 * spec.bleed_mm, h + 2.0 * spec.bleed_mm);
                assert_eq!(
                    png::pixels(page, spec.dpi / INCH),
                    t.px,
                    "{preset:?} {}",
                    t.card
                );
            }
        }
        // The Game Crafter's tarot template, which Aether's player aid follows.
        let aid = ShopCard::new((70.0, 120.0), 3.0, Some(Preset::TheGameCrafter));
        assert!(aid.fitted);
        assert_eq!(png::pixels(aid.page(), aid.px_per_mm), (900, 1500));
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
