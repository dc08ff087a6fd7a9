//! `printplay check`: proves a game's data obeys the generic rules of the model, the
//! invariants the data declares, and the rules its game module knows.

mod art;
mod bounds;
mod designer;
mod engine;
mod faces;
mod glyphs;
mod invariants;
mod languages;
mod layouts;
mod outputs;
mod references;
mod values;
mod vision;

use crate::diag::Problem;
pub use crate::diag::place::{at_card, in_components, in_game_file, rule_problem};
use crate::games;
use crate::model::Game;

pub use art::art_paths;
pub use engine::problem as engine_problem;
pub use faces::{GREY_APART, backs_alike_in_grey, face_report, safe_zone, safe_zone_warnings};
pub use invariants::evaluate as evaluate_invariants;
pub use layouts::layouts;
pub use outputs::{
    boards, missing_templates, print_settings, svg_error, unreadable_faces, untyped_param_problem,
};
pub use vision::{APART_OTHER_MARK, APART_SAME_MARK, TEXT_CONTRAST};

/// A printed deck's drawn faces with the deck of the data they were drawn from, and each
/// drawn card with its card of the data; `None` for a deck the data does not hold.
pub fn drawn_deck<'a>(
    game: &'a Game,
    drawn: &'a crate::render::faces::DeckFaces,
) -> Option<(
    &'a crate::model::Deck,
    Vec<(&'a crate::render::faces::CardFace, &'a crate::model::Card)>,
)> {
    let deck = game.deck(&drawn.id)?;
    let cards = drawn
        .cards
        .iter()
        .filter_map(|c| {
            let card = deck.cards.iter().find(|x| x.id.get_ref() == &c.id)?;
            Some((c, card))
        })
        .collect();
    Some((deck, cards))
}

/// What `check` found in one game: the problems that stop a build, and warnings.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub problems: Vec<Problem>,
    /// Things that print but print badly (art below 200 dpi, text closer to the cut than the
    /// safe zone); they do not stop a build.
    pub warnings: Vec<Problem>,
}

/// Every problem with one game, generic checks first; empty when the game is sound.
pub fn check_game(game: &Game) -> Vec<Problem> {
    check_game_report(game).problems
}

/// Every problem and warning of one game, as a build with the default options would find
/// them.
pub fn check_game_report(game: &Game) -> Report {
    check_and_draw(game, &crate::render::BuildOptions::default()).0
}

/// Every problem and warning of one game, drawing its faces with the build's `options` to
/// prove they print (and doing with them what the build does); the faces come back when
/// every one could be drawn, so that a build prints the very faces its check drew instead
/// of drawing them again. What the build would refuse, this refuses first, at the line of
/// the data to change.
pub fn check_and_draw(
    game: &Game,
    options: &crate::render::BuildOptions,
) -> (Report, Option<crate::render::faces::Faces>) {
    // The faces (every template a deck names exists and renders, every card's text fits
    // its box) are drawn beside the data checks, which do not need them.
    let (mut problems, (face_problems, faces, contrast)) = rayon::join(
        || {
            let mut problems = Vec::new();
            problems.extend(references::check(game));
            problems.extend(values::check(game));
            problems.extend(designer::param_types(game));
            problems.extend(designer::provenance(game));
            problems.extend(designer::icons(game));
            problems.extend(art::check(game));
            problems.extend(invariants::evaluate(game));
            problems.extend(crate::rules::check(game));
            problems.extend(crate::rules::pdf::check(game));
            problems.extend(crate::translate::check(game));
            problems
        },
        || {
            // Every face's type is sized by the print settings: when they are out of range,
            // they are the one cause to report, not each text box they make overflow.
            // So are sizes past their bounds, which must not be drawn at all.
            let mut settings = bounds::check(game);
            settings.extend(outputs::print_settings(game));
            if !settings.is_empty() {
                return (settings, None, Vec::new());
            }
            let (problems, faces) = faces::face_report(game, options);
            // The contrast check reads each face's text and notes its distance to the trim,
            // which the safe-zone check then takes without reading the face again; it runs
            // here, beside the data checks.
            let contrast = faces
                .as_ref()
                .map(|f| vision::text_contrast_warnings(game, f))
                .unwrap_or_default();
            (problems, faces, contrast)
        },
    );
    // A card text's unknown `[id]` is said once, where the data writes it, though the
    // data checks and the face that shows it both find it.
    let unknown = |p: &Problem| {
        p.message
            .find(" shows `[")
            .map(|at| (p.message[at..].to_string(), p.location()))
    };
    let said: Vec<_> = problems.iter().filter_map(unknown).collect();
    // A word a template takes from `[print_labels]` that a language lacks is said at that
    // language's rules file; the template's failure to find it is the same cause (both say
    // so by their typed cause, [`crate::diag::Cause`]).
    let causes_said: Vec<_> = problems.iter().filter_map(|p| p.cause.clone()).collect();
    problems.extend(face_problems.into_iter().filter(|p| {
        unknown(p).is_none_or(|u| !said.contains(&u))
            && p.cause.as_ref().is_none_or(|c| !causes_said.contains(c))
    }));
    let typed = designer::params_well_typed(game);
    if let Some(module) = game.info.engine.as_deref().and_then(games::module)
        && typed
    {
        problems.extend(module.check(game));
    }
    // The engine reads the whole model: it is loaded, and sets up a game for every seat
    // count, once the model is sound (a broken model is said where it is broken); a warning
    // does not make it unsound.
    if problems.iter().all(Problem::is_warning) {
        problems.extend(engine::check(game));
        problems.extend(crate::engine::free::check(game));
    }
    let placed = faces.as_ref().map_or(&[][..], |f| &f.placed[..]);
    let mut warnings = art::warnings(game, placed);
    warnings.extend(glyphs::warnings(game));
    warnings.extend(languages::warnings(game));
    warnings.extend(vision::symbol_warnings(game));
    // A warning never stops a build, whichever check found it.
    let (found_warnings, problems): (Vec<_>, Vec<_>) =
        problems.into_iter().partition(Problem::is_warning);
    warnings.extend(found_warnings);
    if let Some(f) = &faces {
        warnings.extend(faces::safe_zone_warnings(game, f));
    }
    warnings.extend(contrast);
    let report = Report { warnings, problems };
    (report, faces)
}
