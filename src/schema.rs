//! JSON Schemas (draft 2020-12) of the data files, one per kind of file, for editors that
//! complete and validate TOML (taplo / Even Better TOML) and for outside validators such as
//! check-jsonschema. Each is a self-contained root document: its `$ref`s point into its own
//! `$defs`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::diag::Problem;
use crate::model::{ComponentsFile, GameFile, RulesMeta, RulesText};

/// The kinds of data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FileKind {
    /// `game.toml`.
    Game,
    /// `components.toml`.
    Components,
    /// `rules.<lang>.toml`.
    Rules,
    /// `rules.toml`.
    RulesMeta,
    /// One row of a spreadsheet deck (its header's columns), as documentation.
    Sheet,
}

impl FileKind {
    pub const ALL: [FileKind; 5] = [
        FileKind::Game,
        FileKind::Components,
        FileKind::Rules,
        FileKind::RulesMeta,
        FileKind::Sheet,
    ];

    /// The schema's file name: `game.schema.json`...
    pub fn file_name(self) -> &'static str {
        match self {
            FileKind::Game => "game.schema.json",
            FileKind::Components => "components.schema.json",
            FileKind::Rules => "rules-text.schema.json",
            FileKind::RulesMeta => "rules.schema.json",
            FileKind::Sheet => "sheet-row.schema.json",
        }
    }
}

/// The schema of one kind of file, as pretty JSON.
pub fn json_schema(kind: FileKind) -> String {
    let mut schema = match kind {
        FileKind::Game => serde_json::to_value(schemars::schema_for!(GameFile)),
        FileKind::Components => serde_json::to_value(schemars::schema_for!(ComponentsFile)),
        FileKind::Rules => serde_json::to_value(schemars::schema_for!(RulesText)),
        FileKind::RulesMeta => serde_json::to_value(schemars::schema_for!(RulesMeta)),
        FileKind::Sheet => Ok(sheet_row()),
    }
    .unwrap_or(Value::Null);
    if let Value::Object(map) = &mut schema {
        map.insert(
            "$id".into(),
            json!(format!(
                "https://printplay.invalid/schema/{}",
                kind.file_name()
            )),
        );
    }
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}

/// A spreadsheet row: the recognised columns; every other column is one of the deck's
/// declared fields (its cell is read as the field's type).
fn sheet_row() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A row of a spreadsheet deck (`[[deck]] cards = \"cards.csv\"`)",
        "description": "The header row names the columns. Columns other than these are the deck's declared fields; an empty cell leaves the field out; list items (ints, symbols) are separated by `;`, and `[]` is an empty list.",
        "type": "object",
        "properties": {
            "id": { "type": "string", "pattern": "^[a-z0-9-]+$", "description": "The card's id, unique in the game." },
            "name": { "type": "string", "minLength": 1, "description": "The card's name, as printed." },
            "count": { "type": "string", "pattern": "^[0-9]{0,3}$", "description": "Copies of the card (default 1)." },
            "text": { "type": "string", "description": "Card text: `**bold**` and `*italic*` runs, `[id]` draws a symbol or one of the game's icons, `\\*` prints an asterisk." },
            "template": { "type": "string", "description": "The card's own front template (a file of templates/ without `.svg`), over the deck's." },
            "back": { "type": "string", "description": "The card's own back template, over the deck's back; it sees the card as its front does." }
        },
        "patternProperties": {
            "^name\\.[a-z-]+$": { "type": "string", "description": "The name in a language." },
            "^text\\.[a-z-]+$": { "type": "string", "description": "The text in a language, written as `text` is." },
            "^source\\..+$": { "type": "string", "pattern": "^(printed|inferred|reconstructed|original):", "description": "The card's own source of its name, count, text or a field: `kind: reason`." }
        },
        "additionalProperties": { "type": "string" },
        "required": ["id", "name"]
    })
}

/// Writes every schema into `dir`; returns the paths written.
pub fn write_all(dir: &Path) -> Result<Vec<PathBuf>, Problem> {
    FileKind::ALL
        .iter()
        .map(|kind| {
            let path = dir.join(kind.file_name());
            crate::output::write_atomic(&path, json_schema(*kind).as_bytes())
                .map_err(|e| Problem::io(&path, e))?;
            Ok(path)
        })
        .collect()
}
