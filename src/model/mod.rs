//! The canonical model: every game's TOML data, loaded once and handed to every later stage.

mod bounded;
mod components;
mod fields;
mod game;
mod load;
pub mod paths;
mod rules;
pub mod sheet;
mod source;
mod table;

use std::collections::BTreeMap;
use std::path::PathBuf;

pub use components::*;
pub use fields::DeclaredFields;
pub use game::*;
pub use load::{
    COMPONENTS_FILE, GAME_FILE, RULES_FILE, game_slugs, load_game, parse, read_source,
    read_source_in, rules_text_file,
};
pub use rules::*;
pub use source::Source;
pub use table::*;

use crate::diag::SourceFile;

/// One game, as its data folder describes it.
#[derive(Debug, Clone)]
pub struct Game {
    /// The folder name, which names the game on the command line.
    pub slug: String,
    pub dir: PathBuf,
    pub info: GameInfo,
    pub params: BTreeMap<String, Param>,
    pub invariants: Vec<Invariant>,
    pub components: ComponentsFile,
    /// `game.toml`, for pointing problems at it.
    pub game_file: SourceFile,
    /// `components.toml`, for pointing problems at it.
    pub components_file: SourceFile,
    /// The rules reference's data (`rules.toml`, `rules.<lang>.toml`); empty when absent.
    pub rules: RulesData,
}

/// A game's rules-reference files, as loaded.
#[derive(Debug, Clone, Default)]
pub struct RulesData {
    /// `rules.toml`, when present.
    pub meta_file: Option<SourceFile>,
    pub meta: RulesMeta,
    /// `rules.<lang>.toml` by language code.
    pub texts: BTreeMap<String, LangRules>,
}

/// One language's prose and the file it came from.
#[derive(Debug, Clone)]
pub struct LangRules {
    pub file: SourceFile,
    pub text: RulesText,
}

/// A value's provenance, with where it sits in the data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// Where in the data: `params.hand_size`, `deck.game.fields.gold`...
    pub path: String,
    pub source: Source,
}

impl Game {
    /// The game's name in a language, falling back to its main name.
    pub fn name_in(&self, lang: &str) -> &str {
        self.info.names.get(lang).unwrap_or(&self.info.name)
    }

    /// An original design: `game.toml` names no source rulebook, so no value needs provenance
    /// and the rules reference is optional.
    pub fn is_original(&self) -> bool {
        self.info.rulebook.is_none()
    }

    /// The file a card was read from: its spreadsheet, or `components.toml`.
    pub fn card_file<'a>(&'a self, card: &'a Card) -> &'a SourceFile {
        card.file.as_ref().unwrap_or(&self.components_file)
    }

    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.get(name)
    }

    /// An integer parameter, or a message saying what is missing.
    pub fn param_int(&self, name: &str) -> Result<i64, String> {
        let p = self.param(name).ok_or_else(|| self.missing_param(name))?;
        p.value
            .get_ref()
            .as_integer()
            .ok_or_else(|| format!("parameter `{name}` of {} must be an integer", self.slug))
    }

    /// A list-of-integers parameter.
    pub fn param_ints(&self, name: &str) -> Result<Vec<i64>, String> {
        let p = self.param(name).ok_or_else(|| self.missing_param(name))?;
        let wrong = || {
            format!(
                "parameter `{name}` of {} must be a list of integers",
                self.slug
            )
        };
        let list = p.value.get_ref().as_array().ok_or_else(wrong)?;
        list.iter()
            .map(|v| v.as_integer().ok_or_else(wrong))
            .collect()
    }

    /// A string parameter.
    pub fn param_str(&self, name: &str) -> Result<&str, String> {
        let p = self.param(name).ok_or_else(|| self.missing_param(name))?;
        p.value
            .get_ref()
            .as_str()
            .ok_or_else(|| format!("parameter `{name}` of {} must be a string", self.slug))
    }

    fn missing_param(&self, name: &str) -> String {
        format!("{} has no parameter `{name}` in game.toml", self.slug)
    }

    pub fn deck(&self, id: &str) -> Option<&Deck> {
        self.components.decks.iter().find(|d| d.id.get_ref() == id)
    }

    pub fn piece(&self, id: &str) -> Option<&Piece> {
        self.components.pieces.iter().find(|p| p.id.get_ref() == id)
    }

    /// Pieces of one kind.
    pub fn pieces_of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Piece> + 'a {
        self.components
            .pieces
            .iter()
            .filter(move |p| p.kind == kind)
    }

    pub fn symbol(&self, id: &str) -> Option<&Symbol> {
        self.components
            .symbols
            .iter()
            .find(|s| s.id.get_ref() == id)
    }

    /// Symbols of one group, in data order.
    pub fn symbols_in<'a>(&'a self, group: &'a str) -> impl Iterator<Item = &'a Symbol> + 'a {
        self.components
            .symbols
            .iter()
            .filter(move |s| s.group == group)
    }

    pub fn board(&self, id: &str) -> Option<&Board> {
        self.components.boards.iter().find(|b| b.id.get_ref() == id)
    }

    pub fn track(&self, id: &str) -> Option<&Track> {
        self.components.tracks.iter().find(|t| t.id.get_ref() == id)
    }

    /// Every value whose provenance is stated, in data order.
    pub fn provenance(&self) -> Vec<Provenance> {
        let mut out = Vec::new();
        let mut add = |path: String, source: &Source| {
            out.push(Provenance {
                path,
                source: source.clone(),
            })
        };
        for (name, p) in &self.params {
            add(format!("params.{name}"), &p.source);
        }
        let c = &self.components;
        for s in &c.symbols {
            if let Some(src) = &s.source {
                add(format!("symbol.{}", s.id.get_ref()), src);
            }
        }
        for d in &c.decks {
            let deck = d.id.get_ref();
            add(format!("deck.{deck}.counts"), &d.counts);
            for (f, decl) in &d.fields {
                add(format!("deck.{deck}.fields.{f}"), &decl.source);
            }
            for card in &d.cards {
                for (f, src) in &card.sources {
                    add(format!("deck.{deck}.card.{}.{f}", card.id.get_ref()), src);
                }
            }
        }
        for p in &c.pieces {
            add(format!("piece.{}", p.id.get_ref()), &p.source);
        }
        for b in &c.boards {
            add(format!("board.{}", b.id.get_ref()), &b.source);
        }
        for t in &c.tracks {
            add(format!("track.{}", t.id.get_ref()), &t.source);
        }
        out
    }

    /// Only the values that are not printed in the rulebook.
    pub fn unprinted(&self) -> Vec<Provenance> {
        let mut all = self.provenance();
        all.retain(|p| p.source.is_unprinted());
        all
    }
}

impl Card {
    /// An integer field, if present.
    pub fn int(&self, field: &str) -> Option<i64> {
        self.fields
            .get(field)
            .and_then(|v| v.get_ref().as_integer())
    }

    /// A text or symbol field, if present.
    pub fn str(&self, field: &str) -> Option<&str> {
        self.fields.get(field).and_then(|v| v.get_ref().as_str())
    }

    /// A boolean field; absent means false.
    pub fn flag(&self, field: &str) -> bool {
        self.fields
            .get(field)
            .and_then(|v| v.get_ref().as_bool())
            .unwrap_or(false)
    }

    /// A list-of-symbols field as strings; absent means empty.
    pub fn strs(&self, field: &str) -> Vec<&str> {
        list(self.fields.get(field))
            .filter_map(|v| v.as_str())
            .collect()
    }

    /// A list-of-integers field; absent means empty.
    pub fn ints(&self, field: &str) -> Vec<i64> {
        list(self.fields.get(field))
            .filter_map(|v| v.as_integer())
            .collect()
    }

    /// The card's text in a language, falling back to the main text.
    pub fn text_in(&self, lang: &str) -> Option<&str> {
        self.texts
            .get(lang)
            .or(self.text.as_ref())
            .map(String::as_str)
    }
}

impl Piece {
    pub fn int(&self, field: &str) -> Option<i64> {
        self.fields
            .get(field)
            .and_then(|v| v.get_ref().as_integer())
    }

    pub fn str(&self, field: &str) -> Option<&str> {
        self.fields.get(field).and_then(|v| v.get_ref().as_str())
    }
}

fn list(v: Option<&toml::Spanned<toml::Value>>) -> impl Iterator<Item = &toml::Value> {
    v.and_then(|v| v.get_ref().as_array())
        .map(|a| a.iter())
        .into_iter()
        .flatten()
}
