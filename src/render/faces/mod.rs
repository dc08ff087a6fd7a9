//! Every card face and piece of a game drawn once from its template, before any sheet is
//! laid out: this is also the pre-check that finds missing templates and text that overflows.
//!
//! This folder holds what drawing one face takes: its template ([`template`], with
//! [`subscript`] and the [`functions`] it may call), text fitting ([`text`], [`fonts`]), art
//! ([`images`]) and symbol marks ([`marks`]).

// The group: drawing one face (card, back, piece) from its template, in millimetres.
pub mod bleed;
pub mod budget;
pub mod drawn;
mod failure;
pub mod fonts;
pub mod functions;
mod growth;
pub mod guides;
pub mod images;
pub mod languages;
pub mod marks;
pub mod markup;
pub mod subscript;
pub mod template;
pub mod text;
pub mod vision;

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::diag::SourceFile;
use crate::model::{Game, HexOrientation, Piece, Shape};
use crate::render::cache::{self, Cache};
use crate::render::faces::fonts::FontDb;
use crate::render::faces::template::{
    CardWords, Placement, Rendered, TemplateError, Templates, back_context, box_context,
    card_context, own_back_context, piece_back_context, piece_context,
};

/// One card design, drawn with its bleed; `svg` is a fragment in trim millimetres.
#[derive(Debug, Clone)]
pub struct CardFace {
    pub id: String,
    pub name: String,
    pub text: Option<String>,
    pub count: u32,
    /// The template that drew its front: its own, the one its deck's `template_by` picks,
    /// or its deck's.
    pub template: String,
    pub svg: String,
    /// The card's own back, when it has one (else the deck's back is printed behind it).
    pub back: Option<OwnBack>,
}

/// A card's own back, drawn with the card's context.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnBack {
    pub template: String,
    pub svg: String,
}

impl CardFace {
    /// What is printed behind this card: its own back, else `deck_back`.
    pub fn back_or<'a>(&'a self, deck_back: &'a str) -> &'a str {
        self.back.as_ref().map_or(deck_back, |b| b.svg.as_str())
    }
}

impl DeckFaces {
    /// Whether some card's back is not the deck's.
    pub fn backs_differ(&self) -> bool {
        self.cards
            .iter()
            .any(|c| c.back.as_ref().is_some_and(|b| b.svg != self.back))
    }
}

/// A deck's fronts and its back.
#[derive(Debug, Clone)]
pub struct DeckFaces {
    pub id: String,
    pub name: String,
    pub size: (f64, f64),
    pub cards: Vec<CardFace>,
    pub back: String,
    /// The back's template: decks with the same size and back template may share sheets.
    pub back_template: String,
    /// The language its words are in, when the game prints its cards in several and draws
    /// this deck once per language; `None` for a game printing its cards in one language and
    /// for a `multilingual` deck (one drawing for every language).
    pub lang: Option<String>,
    /// The deck's tuck box ([`crate::render::sheets::tuck_box`]).
    pub tuck_box: Option<BoxFace>,
}

/// A deck's tuck box: its net and the faces its template drew over the whole net, with bleed.
#[derive(Debug, Clone)]
pub struct BoxFace {
    pub template: String,
    pub net: crate::render::sheets::tuck_box::Net,
    pub svg: String,
}

/// A printable piece: its drawing, box and cut outline (path data in the box's coordinates).
#[derive(Debug, Clone)]
pub struct PieceFace {
    pub id: String,
    pub name: String,
    pub kind: String,
    pub count: u32,
    pub size: (f64, f64),
    pub outline: String,
    pub svg: String,
    /// The outline grown by [`PIECE_BLEED`]: the art reaches this far.
    pub bleed_outline: String,
    /// Copies can be laid like a honeycomb (circles, and hexes with a point up): each row
    /// shifted by half a step and tucked into the one above.
    pub nests: bool,
    /// The template that drew its front: `piece-<kind>` when the game has one, else `piece`.
    pub template: String,
    /// The other side of a two-sided piece, in the same box (drawn as seen when the piece is
    /// turned over).
    pub back: Option<String>,
    /// The template that drew its back; `None` for a back of art (`back_art`) or no back.
    pub back_template: Option<String>,
}

/// Everything of a game that gets printed, drawn once.
#[derive(Debug, Clone)]
pub struct Faces {
    /// The printed decks, in the game's first language (and the `multilingual` ones).
    pub decks: Vec<DeckFaces>,
    /// The decks drawn once per language, in each other language the game prints its cards
    /// in ([`languages::card_languages`]); empty for a game printed in one language.
    pub translations: Vec<languages::LangDecks>,
    pub pieces: Vec<PieceFace>,
    /// Every image placed on a face, with its print resolution.
    pub placed: Vec<Placement>,
    /// The fonts the faces are drawn with: the bundled ones and the game's own.
    pub fonts: FontDb,
    /// The build cache the faces were drawn through, which the stages rasterise through.
    pub cache: Option<Arc<Cache>>,
    /// The faces' documents as read by the check and the stages, each read once.
    pub trees: Arc<crate::render::trees::Trees>,
}

/// What made a face fail.
#[derive(Debug, Clone)]
pub enum Cause {
    /// The card's or piece's data (text that overflows).
    Data,
    /// Art cannot be used (missing, outside the folder, undecodable); `check` reports art
    /// the data names at the value that names it, and art a template names at the template.
    Art(String),
    /// The template failed whatever it drew; reported once, at the template.
    Template(TemplateError),
}

/// Why a face could not be drawn, placed at the card, deck or piece (in `components.toml`,
/// or in `file` for a card of a spreadsheet).
#[derive(Debug, Clone)]
pub struct FaceError {
    pub file: Option<SourceFile>,
    pub span: Option<Range<usize>>,
    pub message: String,
    pub cause: Cause,
}

fn err(span: Range<usize>, message: String) -> FaceError {
    FaceError {
        file: None,
        span: Some(span),
        message,
        cause: Cause::Data,
    }
}

/// Collects a game's face errors: a template's own failure once, however many faces use it.
#[derive(Default)]
struct Errors {
    list: Vec<FaceError>,
}

impl Errors {
    fn push(&mut self, e: FaceError) {
        self.list.push(e);
    }

    /// Files the outcome of rendering one face: its data problems at `span` of `file`.
    fn rendered(
        &mut self,
        file: Option<&SourceFile>,
        span: Range<usize>,
        what: &str,
        result: Result<Rendered, TemplateError>,
        placed: &mut Vec<Placement>,
    ) -> Option<String> {
        let at = |message: String, cause: Cause| FaceError {
            file: file.cloned(),
            span: Some(span.clone()),
            message: format!("{what}: {message}"),
            cause,
        };
        match result {
            Ok(r) => {
                for o in r.overflows {
                    self.push(at(o, Cause::Data));
                }
                for a in r.art_errors {
                    self.push(at(a, Cause::Art(r.template.clone())));
                }
                placed.extend(r.placed);
                Some(r.svg)
            }
            Err(e) => {
                let seen = self.list.iter().any(|x| {
                    matches!(&x.cause, Cause::Template(t) if t.template == e.template && t.message == e.message)
                });
                if !seen {
                    self.push(FaceError {
                        file: None,
                        span: None,
                        message: e.message.clone(),
                        cause: Cause::Template(e),
                    });
                }
                None
            }
        }
    }
}

/// Draws every face; the errors name the card or piece and what is wrong with it.
pub fn draw_all(game: &Game, templates: &Templates, bleed: f64) -> Result<Faces, Vec<FaceError>> {
    draw_all_cached(game, templates, bleed, None)
}

/// [`draw_all`] through a build cache: a face whose inputs did not change is not drawn again.
pub fn draw_all_cached(
    game: &Game,
    templates: &Templates,
    bleed: f64,
    cache: Option<Arc<Cache>>,
) -> Result<Faces, Vec<FaceError>> {
    let mut errors = Errors::default();
    let mut placed = Vec::new();
    let langs = languages::card_languages(game);
    let first = languages::first_language(game);
    // The first language's cards, with every deck drawn once for all languages; then each
    // other language's, of the decks drawn once per language.
    let decks = draw_decks(
        game,
        templates,
        bleed,
        cache.as_deref(),
        DeckLang {
            lang: first,
            several: !langs.is_empty(),
            shared: true,
        },
        &mut errors,
        &mut placed,
    );
    let translations: Vec<languages::LangDecks> = langs
        .iter()
        .filter(|l| **l != first)
        .map(|lang| languages::LangDecks {
            lang: lang.to_string(),
            decks: draw_decks(
                game,
                templates,
                bleed,
                cache.as_deref(),
                DeckLang {
                    lang,
                    several: true,
                    shared: false,
                },
                &mut errors,
                &mut placed,
            ),
        })
        .collect();
    for board in &game.components.boards {
        placed.extend(crate::render::sheets::boards::non_hex::placements(
            game, board,
        ));
        let name = board.template.as_deref().unwrap_or("board");
        if matches!(board.kind, crate::model::BoardKind::Image { .. }) && board.template.is_none() {
            continue;
        }
        if !templates.has(name) {
            errors.push(err(
                board.id.span(),
                format!(
                    "board `{}` names template `{name}`, which does not exist",
                    board.id.get_ref()
                ),
            ));
        }
    }
    let orientation = game
        .components
        .boards
        .iter()
        .find_map(|b| b.hex())
        .map(|h| h.orientation)
        .unwrap_or(HexOrientation::Flat);
    let mut pieces = Vec::new();
    for piece in game.components.pieces.iter().filter(|p| p.print) {
        if let Some(p) = draw_piece(
            game,
            templates,
            piece,
            orientation,
            &mut errors,
            &mut placed,
            cache.as_deref(),
        ) {
            pieces.push(p);
        }
    }
    if errors.list.is_empty() {
        Ok(Faces {
            decks,
            translations,
            pieces,
            placed,
            fonts: templates.faces.database.clone(),
            cache,
            trees: Default::default(),
        })
    } else {
        Err(errors.list)
    }
}

/// Which decks [`draw_decks`] draws, and in which language.
#[derive(Debug, Clone, Copy)]
struct DeckLang<'a> {
    /// The language the cards' words are in.
    lang: &'a str,
    /// The game prints its cards in several languages: a face's name says which.
    several: bool,
    /// Draws the decks drawn once for every language (`multilingual`, and the decks not
    /// printed) too; only the first language does.
    shared: bool,
}

/// The printed decks' faces in one language (and for the first, the multilingual decks,
/// and the templates of decks not printed checked).
fn draw_decks(
    game: &Game,
    templates: &Templates,
    bleed: f64,
    cache: Option<&Cache>,
    pick: DeckLang,
    errors: &mut Errors,
    placed: &mut Vec<Placement>,
) -> Vec<DeckFaces> {
    let mut decks = Vec::new();
    for deck in &game.components.decks {
        let deck_id = deck.id.get_ref();
        if !deck.print {
            if !pick.shared {
                continue;
            }
            // Not printed (cards the players own), but its templates must still exist.
            let named = [&deck.template, &deck.back.template]
                .into_iter()
                .chain(deck.templates.values().map(|t| t.get_ref()));
            for name in named {
                if !templates.has(name) {
                    errors.push(err(
                        deck.id.span(),
                        format!("deck `{deck_id}` names template `{name}`, which does not exist"),
                    ));
                }
            }
            continue;
        }
        if deck.multilingual && !pick.shared {
            continue;
        }
        // A multilingual deck's cards keep the data's own words; the others' are in `lang`.
        let words = (!deck.multilingual).then_some(pick.lang);
        let face_lang = (pick.several && !deck.multilingual).then(|| pick.lang.to_string());
        let in_lang = face_lang
            .as_deref()
            .map_or(String::new(), |l| format!(" in `{l}`"));
        let uid_of = |id: &str| match &face_lang {
            Some(l) => uid(&format!("{id}-{l}")),
            None => uid(id),
        };
        let language = CardWords {
            lang: pick.lang,
            words,
        };
        // Faces are drawn on every core; their problems are filed in the cards' order.
        let rendered: Vec<_> = deck
            .cards
            .par_iter()
            .map(|card| {
                let ctx = card_context(
                    game,
                    deck,
                    card,
                    bleed,
                    &uid_of(card.id.get_ref()),
                    language,
                );
                let front = cache::render_face(cache, templates, deck.template_for(card), &ctx);
                let back = card.back.as_ref().map(|b| {
                    let own = b.get_ref();
                    let ctx = own_back_context(
                        game,
                        deck,
                        card,
                        own,
                        bleed,
                        &uid_of(&format!("{}-back", card.id.get_ref())),
                        language,
                    );
                    cache::render_face(cache, templates, &own.template, &ctx)
                });
                (front, back)
            })
            .collect();
        let mut cards = Vec::new();
        for (card, (face, back)) in deck.cards.iter().zip(rendered) {
            let id = card.id.get_ref();
            let drawn = errors.rendered(
                card.file.as_ref(),
                card.id.span(),
                &format!("card `{id}` of deck `{deck_id}`{in_lang}"),
                face,
                placed,
            );
            let own_back = match (back, &card.back) {
                (Some(r), Some(spec)) => errors
                    .rendered(
                        card.file.as_ref(),
                        spec.span(),
                        &format!("the back of card `{id}` of deck `{deck_id}`{in_lang}"),
                        r,
                        placed,
                    )
                    .map(|svg| {
                        Some(OwnBack {
                            template: spec.get_ref().template.clone(),
                            svg,
                        })
                    }),
                _ => Some(None),
            };
            if let (Some(svg), Some(back)) = (drawn, own_back) {
                cards.push(CardFace {
                    id: id.clone(),
                    name: words
                        .map_or(card.name.as_str(), |l| languages::card_name(card, l))
                        .to_string(),
                    text: match words {
                        Some(l) => languages::card_text(card, l).map(str::to_string),
                        None => card.text.clone(),
                    },
                    count: card.count.0,
                    template: deck.template_for(card).to_string(),
                    svg,
                    back,
                });
            }
        }
        let ctx = back_context(
            game,
            deck,
            bleed,
            &uid_of(&format!("{deck_id}-back")),
            language,
        );
        let back = errors
            .rendered(
                None,
                deck.id.span(),
                &format!("back of deck `{deck_id}`{in_lang}"),
                cache::render_face(cache, templates, &deck.back.template, &ctx),
                placed,
            )
            .unwrap_or_default();
        // The deck's tuck box, drawn once (with the first language's words).
        let tuck_box = if pick.shared {
            let count: u32 = deck.cards.iter().map(|c| c.count.0).sum();
            let net = crate::render::sheets::tuck_box::Net::new(
                deck.size.mm(),
                count,
                deck.tuck_box.card_thickness_mm,
            );
            let ctx = box_context(
                game,
                deck,
                net.size(),
                &net.json(count, deck.tuck_box.card_thickness_mm),
                bleed,
                &uid(&format!("{deck_id}-box")),
            );
            errors
                .rendered(
                    None,
                    deck.id.span(),
                    &format!("tuck box of deck `{deck_id}`"),
                    cache::render_face(cache, templates, &deck.tuck_box.template, &ctx),
                    placed,
                )
                .map(|svg| BoxFace {
                    template: deck.tuck_box.template.clone(),
                    net,
                    svg,
                })
        } else {
            None
        };
        decks.push(DeckFaces {
            id: deck_id.clone(),
            name: words
                .map_or(deck.name.as_str(), |l| languages::deck_name(deck, l))
                .to_string(),
            size: deck.size.mm(),
            cards,
            back,
            back_template: deck.back.template.clone(),
            lang: face_lang,
            tuck_box,
        });
    }
    decks
}

fn uid(id: &str) -> String {
    let clean: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("u_{clean}_")
}

/// Bleed around every token and tile, in millimetres: half the gap between them on a sheet,
/// so each carries its own art beyond its cut outline.
pub const PIECE_BLEED: f64 = 1.5;

/// The box of a piece and its outline: hexes are `size_mm` flat to flat in the board's
/// orientation; pawns and cubes become round chits.
pub fn piece_geometry(piece: &Piece, orientation: HexOrientation) -> ((f64, f64), String) {
    let s = piece.size_mm;
    let size = match piece.shape {
        Shape::Hex => {
            let long = s * 2.0 / 3f64.sqrt();
            match orientation {
                HexOrientation::Flat => (long, s),
                HexOrientation::Pointy => (s, long),
            }
        }
        _ => (s, s),
    };
    (size, outline_path(piece.shape, size, orientation, 0.0))
}

/// The outline of a piece of `shape` in its box of `size`, grown outwards by `grow` mm all
/// round (0 for the cut outline, [`PIECE_BLEED`] for the edge of its art).
pub fn outline_path(
    shape: Shape,
    size: (f64, f64),
    orientation: HexOrientation,
    grow: f64,
) -> String {
    let (w, h) = size;
    match shape {
        Shape::Hex => {
            let corner = w.max(h) / 2.0 + grow * 2.0 / 3f64.sqrt();
            hex_path(w / 2.0, h / 2.0, corner, orientation)
        }
        Shape::Square | Shape::Other => format!(
            "M{0:.3},{0:.3} H{1:.3} V{2:.3} H{0:.3} Z",
            -grow,
            w + grow,
            h + grow
        ),
        Shape::Circle | Shape::Pawn | Shape::Cube => {
            let (c, r) = (w / 2.0, w / 2.0 + grow);
            format!(
                "M{c:.3},{t:.3} A{r:.3},{r:.3} 0 1 1 {c:.3},{b:.3} A{r:.3},{r:.3} 0 1 1 {c:.3},{t:.3} Z",
                t = c - r,
                b = c + r
            )
        }
    }
}

/// A hexagon around (cx, cy) with corner radius `r`.
pub fn hex_path(cx: f64, cy: f64, r: f64, orientation: HexOrientation) -> String {
    let start = match orientation {
        HexOrientation::Flat => 0.0,
        HexOrientation::Pointy => 30.0,
    };
    let mut d = String::new();
    for i in 0..6 {
        let a = (start + 60.0 * f64::from(i)).to_radians();
        let (x, y) = (cx + r * a.cos(), cy + r * a.sin());
        d.push_str(&format!("{}{x:.3},{y:.3} ", if i == 0 { "M" } else { "L" }));
    }
    d.push('Z');
    d
}

fn draw_piece(
    game: &Game,
    templates: &Templates,
    piece: &Piece,
    orientation: HexOrientation,
    errors: &mut Errors,
    placed: &mut Vec<Placement>,
    cache: Option<&Cache>,
) -> Option<PieceFace> {
    let id = piece.id.get_ref();
    let ((w, h), outline) = piece_geometry(piece, orientation);
    let bleed_outline = outline_path(piece.shape, (w, h), orientation, PIECE_BLEED);
    let mut ctx = piece_context(game, piece, w, h, &uid(id));
    ctx.insert("outline", &outline);
    ctx.insert("bleed_outline", &bleed_outline);
    let own = format!("piece-{}", piece.kind);
    let name = if templates.has(&own) {
        own.as_str()
    } else {
        "piece"
    };
    let svg = errors.rendered(
        None,
        piece.id.span(),
        &format!("piece `{id}`"),
        cache::render_face(cache, templates, name, &ctx),
        placed,
    )?;
    let back = match (&piece.back, &piece.back_art) {
        (Some(_), Some(art)) => {
            errors.push(err(
                art.span(),
                format!("piece `{id}` gives both `back` and `back_art`: keep one of them"),
            ));
            return None;
        }
        (Some(b), None) => {
            let mut ctx = piece_back_context(game, piece, b, w, h, &uid(&format!("{id}-back")));
            ctx.insert("outline", &outline);
            ctx.insert("bleed_outline", &bleed_outline);
            Some(errors.rendered(
                None,
                b.template.span(),
                &format!("the back of piece `{id}`"),
                cache::render_face(cache, templates, b.template.get_ref(), &ctx),
                placed,
            )?)
        }
        (None, Some(art)) => Some(back_art(game, art, (w, h), errors, placed)?),
        (None, None) => None,
    };
    Some(PieceFace {
        id: id.clone(),
        name: piece.name.clone(),
        kind: piece.kind.clone(),
        count: piece.count.0,
        size: (w, h),
        outline,
        bleed_outline,
        svg,
        nests: match piece.shape {
            Shape::Circle | Shape::Pawn | Shape::Cube => true,
            Shape::Hex => orientation == HexOrientation::Pointy,
            Shape::Square | Shape::Other => false,
        },
        template: name.to_string(),
        back,
        back_template: piece.back.as_ref().map(|b| b.template.get_ref().clone()),
    })
}

/// A piece's `back_art`: the image filling the piece's box and its bleed, cropped to fit.
fn back_art(
    game: &Game,
    art: &toml::Spanned<String>,
    size: (f64, f64),
    errors: &mut Errors,
    placed: &mut Vec<Placement>,
) -> Option<String> {
    use crate::render::faces::images;
    let src = art.get_ref();
    let (w, h) = (size.0 + 2.0 * PIECE_BLEED, size.1 + 2.0 * PIECE_BLEED);
    match images::load(&game.dir, src) {
        Ok(image) => {
            placed.push(Placement {
                src: src.clone(),
                dpi: images::print_dpi(&image, images::Fit::Cover, w, h),
            });
            let aspect = images::aspect(images::Fit::Cover, "center").unwrap_or_default();
            Some(images::element(
                &image,
                -PIECE_BLEED,
                -PIECE_BLEED,
                w,
                h,
                &aspect,
            ))
        }
        Err(e) => {
            errors.push(FaceError {
                file: None,
                span: Some(art.span()),
                message: format!("image {e}"),
                cause: Cause::Art("piece".to_string()),
            });
            None
        }
    }
}
