//! The built-in templates folder (rules templates, diagrams, CSS, interface messages, card
//! templates), compiled into the binary so an installed `printplay` needs no source checkout.
//!
//! `$PRINTPLAY_TEMPLATES` names a folder of the same layout that replaces the built-in one as a
//! whole (for template authors); a game's own `templates/` folder overrides single card
//! templates (see [`crate::render::faces::template`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use include_dir::{Dir, include_dir};

use crate::diag::{Problem, SourceFile};

/// The crate's `templates/` folder as it was when this binary was compiled.
static BUILTIN: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/templates");

/// The environment variable naming a templates folder to use instead of the built-in one.
pub const TEMPLATES_ENV: &str = "PRINTPLAY_TEMPLATES";

/// Where template files are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateSource {
    /// The copy compiled into the binary.
    Builtin,
    /// A folder on disk with the same layout.
    Folder(PathBuf),
}

impl TemplateSource {
    /// `$PRINTPLAY_TEMPLATES` when set, else the built-in templates.
    pub fn from_env() -> TemplateSource {
        match std::env::var_os(TEMPLATES_ENV) {
            Some(dir) if !dir.is_empty() => TemplateSource::Folder(PathBuf::from(dir)),
            _ => TemplateSource::Builtin,
        }
    }

    /// How a file is named in diagnostics: its real path, or `<built-in>/templates/...`.
    pub fn path_of(&self, rel: &str) -> PathBuf {
        match self {
            TemplateSource::Builtin => Path::new("<built-in>/templates").join(rel),
            TemplateSource::Folder(dir) => dir.join(rel),
        }
    }

    /// The text of one file, `rel` being relative to the templates folder (`rules/page.html`).
    pub fn read(&self, rel: &str) -> Result<SourceFile, Problem> {
        match self {
            TemplateSource::Builtin => {
                let file = BUILTIN
                    .get_file(rel)
                    .ok_or_else(|| Problem::io(&self.path_of(rel), "no such built-in file"))?;
                let text = file
                    .contents_utf8()
                    .ok_or_else(|| Problem::io(&self.path_of(rel), "not UTF-8"))?;
                Ok(SourceFile::new(self.path_of(rel), Arc::from(text)))
            }
            TemplateSource::Folder(dir) => crate::model::read_source(&dir.join(rel)),
        }
    }

    /// The files directly inside the folder `rel_dir` whose names end in `.ext`, as paths
    /// relative to the templates folder, sorted.
    pub fn list(&self, rel_dir: &str, ext: &str) -> Result<Vec<String>, Problem> {
        let mut names: Vec<String> = match self {
            TemplateSource::Builtin => BUILTIN
                .get_dir(rel_dir)
                .ok_or_else(|| Problem::io(&self.path_of(rel_dir), "no such built-in folder"))?
                .files()
                .filter_map(|f| f.path().file_name()?.to_str().map(str::to_string))
                .collect(),
            TemplateSource::Folder(dir) => {
                let folder = dir.join(rel_dir);
                std::fs::read_dir(&folder)
                    .map_err(|e| Problem::io(&folder, e))?
                    .filter_map(Result::ok)
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .collect()
            }
        };
        names.retain(|n| Path::new(n).extension().is_some_and(|x| x == ext));
        names.sort();
        Ok(names
            .into_iter()
            .map(|n| format!("{}/{n}", rel_dir.trim_end_matches('/')))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_holds_the_rules_templates_messages_and_css() {
        let src = TemplateSource::Builtin;
        assert!(src.read("rules/page.html").unwrap().text.contains("<html"));
        assert!(src.read("rules/style.css").is_ok());
        let langs = src.list("i18n", "toml").unwrap();
        assert!(langs.contains(&"i18n/en.toml".to_string()), "{langs:?}");
        assert!(langs.contains(&"i18n/fi.toml".to_string()), "{langs:?}");
        let diagrams = src.list("rules/diagrams", "svg").unwrap();
        assert!(!diagrams.is_empty());
        assert!(diagrams.iter().all(|d| d.starts_with("rules/diagrams/")));
    }

    #[test]
    fn builtin_is_the_same_as_the_source_folder() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        let folder = TemplateSource::Folder(dir);
        for rel in ["rules/page.html", "rules/page.md", "i18n/fi.toml"] {
            assert_eq!(
                TemplateSource::Builtin.read(rel).unwrap().text,
                folder.read(rel).unwrap().text,
                "{rel}"
            );
        }
        assert_eq!(
            TemplateSource::Builtin
                .list("rules/diagrams", "svg")
                .unwrap(),
            folder.list("rules/diagrams", "svg").unwrap()
        );
    }

    #[test]
    fn a_missing_file_names_its_path() {
        let e = TemplateSource::Builtin.read("rules/nope.html").unwrap_err();
        assert!(e.to_string().contains("templates/rules/nope.html"), "{e}");
    }
}
