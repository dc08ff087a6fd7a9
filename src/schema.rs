//! JSON Schema of the data files, for editors that complete and validate TOML.

use crate::model::{ComponentsFile, GameFile};

/// One schema document with a definition for each data file.
pub fn json_schema() -> String {
    let doc = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "printplay game data",
        "description": "Each game folder holds game.toml (GameFile) and components.toml (ComponentsFile).",
        "$defs": {
            "game.toml": schemars::schema_for!(GameFile),
            "components.toml": schemars::schema_for!(ComponentsFile),
        }
    });
    serde_json::to_string_pretty(&doc).expect("a schema is always serialisable")
}
