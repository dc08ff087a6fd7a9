//! `translated.<lang>.toml`: which source text each translated text was made from.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::{Problem, SourceFile};
use crate::model::{Game, read_source_in};

/// The file name of a language's marks: `translated.<lang>.toml`.
pub fn marks_file(lang: &str) -> String {
    format!("translated.{lang}.toml")
}

/// The digest of a source text: BLAKE3 of its UTF-8 bytes, the first 64 bits in hex.
pub fn digest(text: &str) -> String {
    let hash = blake3::hash(text.as_bytes());
    hash.to_hex()[..16].to_string()
}

/// The source text one translation was made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// [`digest`] of the source text.
    pub digest: String,
    /// The source text itself, so a translator sees what changed (a PO file's `#|` line).
    pub text: Option<String>,
    /// Where the mark is in its file.
    pub span: Range<usize>,
}

impl Mark {
    pub fn of(source: &str) -> Mark {
        Mark {
            digest: digest(source),
            text: Some(source.to_string()),
            span: 0..0,
        }
    }
}

/// A language's marks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// The language the texts were translated from.
    pub source: Option<String>,
    /// By key.
    pub from: BTreeMap<String, Mark>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarksOnDisk {
    source: String,
    #[serde(default)]
    from: BTreeMap<String, Spanned<MarkOnDisk>>,
}

#[derive(Serialize)]
struct MarksOut {
    source: String,
    from: BTreeMap<String, MarkOnDisk>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkOnDisk {
    digest: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
}

/// Reads a language's marks; `None` when the game keeps none for it.
pub(super) fn load(game: &Game, lang: &str) -> Result<Option<(SourceFile, Marks)>, Problem> {
    let name = marks_file(lang);
    if std::fs::symlink_metadata(game.dir.join(&name)).is_err() {
        return Ok(None);
    }
    let file = read_source_in(&game.dir, &name)?;
    let disk: MarksOnDisk = crate::model::parse(&file)?;
    let mut from = BTreeMap::new();
    for (key, m) in disk.from {
        let span = m.span();
        let m = m.into_inner();
        let ok = m.digest.len() == 16 && m.digest.chars().all(|c| c.is_ascii_hexdigit());
        if !ok {
            return Err(Problem::data(format!(
                "the mark of `{key}` has the digest `{}`; a digest is 16 hex digits, as \
                 `printplay translate mark` writes it",
                m.digest
            ))
            .at(&file, span, "this mark"));
        }
        from.insert(
            key,
            Mark {
                digest: m.digest,
                text: m.text,
                span,
            },
        );
    }
    let marks = Marks {
        source: Some(disk.source),
        from,
    };
    Ok(Some((file, marks)))
}

/// The text of a marks file, the same bytes for the same marks.
pub(super) fn render(game: &Game, lang: &str, marks: &Marks) -> Result<String, Problem> {
    let source = marks.source.clone().unwrap_or_default();
    let disk = MarksOut {
        source: source.clone(),
        from: marks
            .from
            .iter()
            .map(|(k, m)| {
                (
                    k.clone(),
                    MarkOnDisk {
                        digest: m.digest.clone(),
                        text: m.text.clone(),
                    },
                )
            })
            .collect(),
    };
    let body = toml::to_string_pretty(&disk)
        .map_err(|e| Problem::build(format!("the marks cannot be written: {e}")))?;
    Ok(format!(
        "# Which `{source}` text each `{lang}` text of {} was translated from: written by\n\
         # `printplay translate mark {} {lang}` (or `translate import`); do not edit by hand.\n\
         # `printplay check` warns at a translated key whose source text has changed since.\n\n{body}",
        crate::model::rules_text_file(lang),
        game.slug
    ))
}

/// Writes a language's marks atomically; returns the file's path.
pub(super) fn save(game: &Game, lang: &str, marks: &Marks) -> Result<PathBuf, Vec<Problem>> {
    let text = render(game, lang, marks).map_err(|p| vec![p])?;
    let path = game.dir.join(marks_file(lang));
    crate::output::write_atomic(&path, text.as_bytes())
        .map_err(|e| vec![Problem::io_write(&path, e)])?;
    Ok(path)
}
