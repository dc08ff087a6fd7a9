//! A visible note on a section whose translation may be out of date: a text of it was marked
//! as translated from a source text that has changed since (see [`crate::translate`]).

use super::{Block, Format, Writer, html_escape, markdown};
use crate::model::SectionId;

impl Writer<'_> {
    /// The note for section `id`, when one of its texts is stale in this language.
    pub(super) fn stale_note(&mut self, id: SectionId) -> Option<Block> {
        let stale = crate::translate::stale_keys(self.game, self.lang);
        if !stale.iter().any(|k| self.section_of(k) == Some(id)) {
            return None;
        }
        let note = self.msg("translation_stale");
        let body = match self.format {
            Format::Html => format!(
                "<p class=\"stale-note\" role=\"note\"><strong>{}</strong></p>",
                html_escape(&note)
            ),
            Format::Md => format!("**{}**", markdown::escape(&note)),
        };
        Some(Block::Prose { body })
    }

    /// The section of the page that shows a text of the rules file.
    fn section_of(&self, key: &str) -> Option<SectionId> {
        let (head, rest) = key.split_once('.').unwrap_or((key, ""));
        Some(match head {
            "overview" => SectionId::Overview,
            "goal" => SectionId::Goal,
            "setup" => SectionId::Setup,
            "turn" => SectionId::Turn,
            "end" => SectionId::End,
            "components" | "symbol_groups" => SectionId::Components,
            "variant" | "question" | "variants_intro" => SectionId::Variants,
            "provenance" => SectionId::Unprinted,
            "diagram" => {
                let id = rest.split('.').next()?;
                self.game
                    .rules
                    .meta
                    .diagrams
                    .iter()
                    .find(|d| d.id.get_ref() == id)?
                    .section
            }
            _ => return None,
        })
    }
}
