//! What the build would make of a game's faces, checked before anything is written: every face
//! drawn as the build draws it (a template that does not exist, a template that fails, art,
//! faces and boards that do not read as SVG, decks that do not fit the build's sheets) and
//! decks whose backs a black-and-white print could not tell apart, and (warnings) cards whose
//! text comes closer to the cut than the game's safe zone.

use rayon::prelude::*;

use crate::diag::Problem;
use crate::model::Game;
use crate::render::faces::drawn::Kind;
use crate::render::faces::template::{self, Templates};
use crate::render::faces::{self, Faces};
use crate::render::formats::png;
use crate::render::sheets::layout::{DEFAULT_SAFE_ZONE, Rect, SAFE_ZONE_SLACK};
use crate::render::{BuildOptions, cache, sheets};

/// Draws every face as the build would, with the build's options, and does with them what
/// the build does: the problems that stop printing (a template that does not exist, at the
/// name; a template's own failure once, at the template; art the data names is reported by
/// the art checks, at the value that names it; a face or board that does not read as SVG;
/// a deck that cannot be laid out on the build's sheets) and, when every face could be
/// drawn, the faces, which carry every image placed (for the resolution warnings) and are
/// what a build prints.
pub fn face_report(game: &Game, options: &BuildOptions) -> (Vec<Problem>, Option<Faces>) {
    let templates = match Templates::load(game) {
        Ok(t) => t,
        Err(p) => return (vec![p], None),
    };
    // A name that is no template is said once, where the data gives it.
    let missing = super::missing_templates(game, &templates.names());
    if !missing.is_empty() {
        return (missing, None);
    }
    let (boards, drawn_boards) = super::boards(game, &templates);
    let cache = cache::Cache::open(options, game, &templates);
    match faces::draw_all_cached(game, &templates, options.bleed, cache) {
        Ok(f) => {
            f.trees.keep(options.keeps_reads());
            let mut problems = backs_alike_in_grey(game, &f);
            problems.extend(super::unreadable_faces(game, Some(&f), &drawn_boards));
            problems.extend(super::layouts(game, &f, options));
            problems.extend(boards);
            (problems, Some(f))
        }
        Err(errors) => {
            let named = super::art_paths(game);
            let mut problems: Vec<Problem> = boards;
            // The boards drawn are read as SVG though the decks' faces could not be drawn.
            problems.extend(super::unreadable_faces(game, None, &drawn_boards));
            let found = errors.into_iter().filter_map(|e| match (&e.cause, e.span) {
                (faces::Cause::Art(template), _) => {
                    // The art checks place art the data names; art a template names
                    // itself is reported once, at the template.
                    let art = e.message.find("image `").map_or("", |at| &e.message[at..]);
                    let src = art.split('`').nth(1).unwrap_or_default();
                    (!named.contains(src)).then(|| {
                        templates.problem(&template::TemplateError {
                            template: template.clone(),
                            message: format!("template `{template}`: {art}"),
                            cause: None,
                        })
                    })
                }
                (faces::Cause::Template(t), _) => {
                    let at_template = templates.problem(t);
                    // A parameter the template computes with that holds text: at the
                    // parameter, the line to change.
                    Some(
                        super::untyped_param_problem(game, &t.message, &at_template, None)
                            .unwrap_or(at_template),
                    )
                }
                (faces::Cause::Data, Some(span)) => {
                    let file = e.file.as_ref().unwrap_or(&game.components_file);
                    Some(data_problem(game, file, span, e.message))
                }
                (faces::Cause::Data, None) => {
                    Some(Problem::data(e.message).in_file(&game.components_file))
                }
            });
            for p in found {
                if !problems
                    .iter()
                    .any(|q| q.message == p.message && q.location() == p.location())
                {
                    problems.push(p);
                }
            }
            (problems, None)
        }
    }
}

/// A problem of the data a face was drawn from, at the card, deck or piece (`span` of
/// `file`); a text's unknown `[id]` or a style no font provides, at the `[id]`, `**` or `*`
/// written in that record when it is found there.
fn data_problem(
    game: &Game,
    file: &crate::diag::SourceFile,
    span: std::ops::Range<usize>,
    message: String,
) -> Problem {
    let icon = message
        .split_once(" shows `[")
        .and_then(|(_, rest)| rest.split_once("]`"))
        .map(|(name, _)| name.to_string());
    let needle = match &icon {
        Some(name) => Some(format!("[{name}]")),
        None => ["***", "**", "*"]
            .into_iter()
            .find(|m| message.contains(&format!("(`{m}...{m}`)")))
            .map(str::to_string),
    };
    let (span, label) = match needle
        .as_deref()
        .and_then(|n| crate::diag::place::in_record(file, &span, n))
    {
        Some(at) => (at, "written here"),
        None => (span, "here"),
    };
    let problem = Problem::data(message).at(file, span, label);
    match icon {
        Some(_) => problem.help(super::designer::unknown_icon_help(game)),
        None => problem,
    }
}

/// How much two backs of one card size must differ in greyscale (mean luminance, or the
/// mean difference pixel by pixel, 0 to 1) to be told apart when printed in black and white.
pub const GREY_APART: f64 = 0.1;

/// Luminance (0 to 1) of every pixel of a face at 1 px/mm.
fn greyscale(svg: &str, size: (f64, f64), faces: &Faces) -> Result<Vec<f64>, String> {
    let doc = sheets::single_face(svg, size);
    let pixmap = png::rasterise(&doc, size, 1.0, &faces.fonts, Some(&faces.trees))?;
    Ok(pixmap
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            let (r, g, b) = (
                f64::from(c.red()),
                f64::from(c.green()),
                f64::from(c.blue()),
            );
            (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0
        })
        .collect())
}

/// Printed decks of one card size whose backs differ in the data (template, title or
/// colour) but look the same in greyscale: shuffled together by mistake, they could not be
/// sorted again from a black-and-white print. Decks the data gives the very same back
/// share it on purpose and are not compared. A card with a back of its own is compared
/// with its back, against the other decks' backs.
pub fn backs_alike_in_grey(game: &Game, faces: &Faces) -> Vec<Problem> {
    /// One distinct back of a deck: the deck's, or a card's own.
    struct Seen<'a> {
        deck: &'a faces::DeckFaces,
        /// What the data says it is: template, title, colour (and a card's own values).
        key: String,
        svg: &'a str,
        /// The card whose own back it is.
        card: Option<&'a crate::model::Card>,
    }
    let mut seen: Vec<Seen> = Vec::new();
    for d in &faces.decks {
        let Some(deck) = game.deck(&d.id) else {
            continue;
        };
        let b = &deck.back;
        seen.push(Seen {
            deck: d,
            key: format!("{}\u{1}{}\u{1}{}", b.template, b.title, b.colour),
            svg: &d.back,
            card: None,
        });
        for c in &d.cards {
            let (Some(own), Some(card)) =
                (&c.back, deck.cards.iter().find(|x| x.id.get_ref() == &c.id))
            else {
                continue;
            };
            let spec = card.back.as_ref().map(|s| s.get_ref());
            let key = format!(
                "{}\u{1}{}\u{1}{}\u{1}{:?}",
                own.template,
                spec.and_then(|s| s.title.as_ref()).unwrap_or(&b.title),
                spec.and_then(|s| s.colour.as_ref()).unwrap_or(&b.colour),
                spec.map(|s| &s.fields)
            );
            if !seen.iter().any(|s| s.deck.id == d.id && s.key == key) {
                seen.push(Seen {
                    deck: d,
                    key,
                    svg: &own.svg,
                    card: Some(card),
                });
            }
        }
    }
    let greys: Vec<Option<Vec<f64>>> = seen
        .par_iter()
        .map(|s| greyscale(s.svg, s.deck.size, faces).ok())
        .collect();
    let mut out = Vec::new();
    for (i, (a, ga)) in seen.iter().zip(&greys).enumerate() {
        for (b, gb) in seen[i + 1..].iter().zip(&greys[i + 1..]) {
            let (Some(ga), Some(gb)) = (ga, gb) else {
                continue;
            };
            if a.deck.id == b.deck.id
                || a.deck.size != b.deck.size
                || ga.len() != gb.len()
                || ga.is_empty()
                || a.key == b.key
            {
                continue;
            }
            let n = ga.len() as f64;
            let mean = |g: &[f64]| g.iter().sum::<f64>() / n;
            let by_mean = (mean(ga) - mean(gb)).abs();
            let by_pixel = ga.iter().zip(gb).map(|(x, y)| (x - y).abs()).sum::<f64>() / n;
            if by_mean.max(by_pixel) < GREY_APART {
                let whose = |s: &Seen| match s.card {
                    Some(c) => format!("card `{}` of deck `{}`", c.id.get_ref(), s.deck.id),
                    None => format!("deck `{}`", s.deck.id),
                };
                let what = if a.card.is_none() && b.card.is_none() {
                    format!("the backs of decks `{}` and `{}`", a.deck.id, b.deck.id)
                } else {
                    format!("the backs of {} and {}", whose(a), whose(b))
                };
                let message = format!(
                    "{what} look alike in greyscale (they differ by {by_mean:.2} \
                     in mean luminance and {by_pixel:.2} pixel by pixel, less than {GREY_APART}): give one \
                     a lighter or darker back colour or another pattern"
                );
                out.push(match (b.card, game.deck(&b.deck.id)) {
                    (Some(card), _) => match &card.back {
                        Some(spec) => super::at_card(game, card, spec.span(), message),
                        None => Problem::data(message).in_file(game.card_file(card)),
                    },
                    (None, Some(deck)) => super::in_components(game, deck.id.span(), message),
                    (None, None) => Problem::data(message).in_file(&game.components_file),
                });
            }
        }
    }
    out
}

/// How far inside the trim a card's text must stay: the game's `safe_zone_mm`, else
/// [`DEFAULT_SAFE_ZONE`].
pub fn safe_zone(game: &Game) -> f64 {
    game.info.safe_zone_mm.unwrap_or(DEFAULT_SAFE_ZONE)
}

/// Warnings for the printed cards (fronts, a card's own back, a deck's back) whose text
/// comes closer to the trim than the game's [`safe_zone`], as the home sheets print them:
/// each names the card (its file and row) and how far inside the cut its text comes. The
/// print-shop manifest measures the same way, against the printer's safe zone.
/// More faces of one deck than this coming too close are one warning on the deck.
const SAFE_ZONE_PER_CARD: usize = 3;

pub fn safe_zone_warnings(game: &Game, faces: &Faces) -> Vec<Problem> {
    /// One face to measure, and where its warning goes.
    struct Face<'a> {
        svg: &'a str,
        size: (f64, f64),
        what: String,
        card: Option<&'a crate::model::Card>,
        deck: &'a crate::model::Deck,
    }
    // The cards' faces of the one list of faces: fronts, a card's own back, deck backs.
    let mut list: Vec<Face> = Vec::new();
    let every = crate::render::faces::drawn::every_face(game, Some(faces), &[]);
    for f in &every {
        let Some(deck) = f.deck.and_then(|d| game.deck(d)) else {
            continue;
        };
        let card = || deck.cards.iter().find(|c| c.id.get_ref() == f.id);
        let (card, what) = match f.kind {
            Kind::CardFront => (card(), f.what.clone()),
            Kind::CardBack => (card(), f.what.clone()),
            Kind::DeckBack => (None, f.what.clone()),
            Kind::Thumbnail
            | Kind::PieceFront
            | Kind::PieceBack
            | Kind::Board
            | Kind::Icon
            | Kind::TuckBox => {
                continue;
            }
        };
        if f.kind != Kind::DeckBack && card.is_none() {
            continue;
        }
        list.push(Face {
            svg: &f.svg,
            size: f.size,
            what,
            card,
            deck,
        });
    }
    let safe = safe_zone(game);
    let insets: Vec<Option<f64>> = list
        .par_iter()
        .map(|f| {
            let trim = Rect::of_size(f.size);
            let page = sheets::single_face(f.svg, f.size);
            // A face that does not read is reported by the face checks.
            cache::text_inset(
                faces.cache.as_deref(),
                &page,
                f.size,
                trim,
                &faces.fonts,
                Some(&faces.trees),
            )
            .ok()
            .flatten()
        })
        .collect();
    let help = "move the text inward (its template's box, or shorter text), or set the game's \
                own `safe_zone_mm` in game.toml's [game] if its cards accept less";
    let close: Vec<(&Face, f64)> = list
        .iter()
        .zip(insets)
        .filter_map(|(f, inset)| Some((f, inset.filter(|i| *i < safe - SAFE_ZONE_SLACK)?)))
        .collect();
    // One cause, one warning: when many cards of a deck come too close, their template's
    // layout does it, and the deck gets one warning instead of one per card.
    let mut per_deck: Vec<(&str, Vec<(&Face, f64)>)> = Vec::new();
    for &(f, inset) in close.iter().filter(|(f, _)| f.card.is_some()) {
        let deck = f.deck.id.get_ref().as_str();
        match per_deck.iter_mut().find(|(d, _)| *d == deck) {
            Some((_, faces)) => faces.push((f, inset)),
            None => per_deck.push((deck, vec![(f, inset)])),
        }
    }
    let mut out = Vec::new();
    for &(f, inset) in &close {
        let grouped = f.card.is_some()
            && per_deck.iter().any(|(d, faces)| {
                *d == f.deck.id.get_ref().as_str() && faces.len() > SAFE_ZONE_PER_CARD
            });
        if grouped {
            continue;
        }
        let message = format!(
            "{}: text comes {inset:.1} mm from the cut, closer than the game's {safe:.1} mm \
             safe zone: a cut that lands inside the trim may clip it",
            f.what
        );
        let problem = Problem::warning(message).help(help);
        out.push(match f.card {
            Some(card) => problem.at(game.card_file(card), card.id.span(), "this card"),
            None => problem.at(&game.components_file, f.deck.id.span(), "this deck"),
        });
    }
    for (deck, faces) in per_deck
        .iter()
        .filter(|(_, faces)| faces.len() > SAFE_ZONE_PER_CARD)
    {
        let closest = faces.iter().map(|(_, i)| *i).fold(f64::INFINITY, f64::min);
        let named: Vec<&str> = faces
            .iter()
            .take(SAFE_ZONE_PER_CARD)
            .filter_map(|(f, _)| f.card.map(|c| c.id.get_ref().as_str()))
            .collect();
        let message = format!(
            "{} faces of deck `{deck}` (`{}`, ...): text comes as close as {closest:.1} mm to the \
             cut, closer than the game's {safe:.1} mm safe zone: a cut that lands inside the \
             trim may clip it",
            faces.len(),
            named.join("`, `")
        );
        out.push(Problem::warning(message).help(help).at(
            &game.components_file,
            faces[0].0.deck.id.span(),
            "this deck's cards",
        ));
    }
    out
}
