//! A visible note wherever a page shows a text whose translation may be out of date: a text
//! marked as translated from a source text that has changed since (see [`crate::translate`]).
//! The full page notes each section that shows one, the quick reference its one page. A text
//! shows where its key is printed, and a noun also wherever a placeholder of another text
//! takes it (`{params.hand_size element-tile}`).

use super::{Block, Format, Writer, html_escape, markdown};
use crate::model::SectionId;
use crate::rules::placeholders::{Chunk, parse};

/// Where a page shows a text of the rules file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// A section of the full reference.
    Section(SectionId),
    /// The one-page quick reference.
    Quick,
}

impl Writer<'_> {
    /// The note for section `id`, when a text it shows is stale in this language.
    pub(super) fn stale_note(&mut self, id: SectionId) -> Option<Block> {
        self.shows_stale(Place::Section(id)).then(|| Block::Prose {
            body: self.stale_body(),
        })
    }

    /// The note the quick reference opens with, when a text it shows is stale; empty if none.
    pub(super) fn quick_stale_note(&mut self) -> String {
        if self.shows_stale(Place::Quick) {
            self.stale_body()
        } else {
            String::new()
        }
    }

    fn stale_body(&mut self) -> String {
        let note = self.msg("translation_stale");
        match self.format {
            Format::Html => format!(
                "<p class=\"stale-note\" role=\"note\"><strong>{}</strong></p>",
                html_escape(&note)
            ),
            Format::Md => format!("**{}**", markdown::escape(&note)),
        }
    }

    fn shows_stale(&self, place: Place) -> bool {
        crate::translate::stale_keys(self.game, self.lang)
            .iter()
            .any(|k| self.places_of(k).contains(&place))
    }

    /// Where the pages show a text of the rules file; a noun shows wherever a text that takes
    /// it does.
    fn places_of(&self, key: &str) -> Vec<Place> {
        let Some(noun) = key
            .strip_prefix("nouns.")
            .and_then(|rest| rest.rsplit_once('.'))
            .map(|(name, _form)| name)
        else {
            return self.places_of_text(key);
        };
        let mut out = Vec::new();
        for t in crate::translate::texts(&self.rules.file)
            .into_iter()
            .flatten()
        {
            let takes = parse(&t.value).is_ok_and(|chunks| {
                chunks
                    .iter()
                    .any(|c| matches!(c, Chunk::Hole(h) if h.noun.as_deref() == Some(noun)))
            });
            if takes {
                for p in self.places_of_text(&t.key) {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        out
    }

    /// Where the pages show a text that is not a noun.
    fn places_of_text(&self, key: &str) -> Vec<Place> {
        let (head, rest) = key.split_once('.').unwrap_or((key, ""));
        let section = |id| vec![Place::Section(id)];
        match head {
            "overview" => section(SectionId::Overview),
            "goal" => section(SectionId::Goal),
            "setup" => section(SectionId::Setup),
            "turn" => section(SectionId::Turn),
            "end" => section(SectionId::End),
            "quick" => vec![Place::Section(SectionId::Quick), Place::Quick],
            "components" => section(SectionId::Components),
            // The key of colours and symbols: in the components section and the quick page.
            "symbol_groups" => vec![Place::Section(SectionId::Components), Place::Quick],
            // A variant's title also names its row in the table of engine options.
            "variant" if rest.ends_with(".title") => vec![
                Place::Section(SectionId::Variants),
                Place::Section(SectionId::Options),
            ],
            "variant" | "question" | "variants_intro" => section(SectionId::Variants),
            "provenance" => section(SectionId::Unprinted),
            "diagram" => {
                let id = rest.split('.').next().unwrap_or("");
                self.game
                    .rules
                    .meta
                    .diagrams
                    .iter()
                    .find(|d| d.id.get_ref() == id)
                    .map(|d| section(d.section))
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }
}
