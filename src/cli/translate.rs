//! `printplay translate`: the command line of [`crate::translate`] (parsing and printing only).

use std::path::{Path, PathBuf};

use clap::Subcommand;

use super::{Exit, report};
use crate::diag::Problem;

#[derive(Debug, Subcommand)]
pub enum TranslateCommand {
    /// Coverage per language: how many texts are done, stale (their source changed since they
    /// were marked), unmarked or missing, and which keys.
    Status {
        /// The game's slug.
        game: String,
    },
    /// Record that a language's texts are translated from the source's current texts (run
    /// when the translation is done); writes translated.<lang>.toml in the game's folder.
    Mark {
        /// The game's slug.
        game: String,
        /// The translated language.
        lang: String,
        /// Only these keys (default: every translated key).
        keys: Vec<String>,
    },
    /// Write a language's texts as a gettext PO file (msgctxt = key; stale texts fuzzy).
    Export {
        /// The game's slug.
        game: String,
        /// The translated language.
        lang: String,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Read a translated PO file back into rules.<lang>.toml and mark its non-fuzzy texts.
    Import {
        /// The game's slug.
        game: String,
        /// The translated language.
        lang: String,
        /// The PO file.
        file: PathBuf,
    },
}

fn load(data: &Path, slug: &str) -> Result<crate::model::Game, Exit> {
    crate::model::load_game(data, slug).map_err(|ps| report(&ps))
}

/// Runs one `translate` command.
pub fn run(data: &Path, command: TranslateCommand) -> Exit {
    use crate::translate;
    match command {
        TranslateCommand::Status { game } => {
            let g = match load(data, &game) {
                Ok(g) => g,
                Err(e) => return e,
            };
            match translate::status_text(&g) {
                Ok(text) => {
                    print!("{text}");
                    Exit::Ok
                }
                Err(ps) => report(&ps),
            }
        }
        TranslateCommand::Mark { game, lang, keys } => {
            let g = match load(data, &game) {
                Ok(g) => g,
                Err(e) => return e,
            };
            match translate::mark(&g, &lang, &keys) {
                Ok((path, n)) => {
                    println!(
                        "{}: marked {} in {}",
                        g.slug,
                        crate::messages::count_of(n, "text", "texts"),
                        path.display()
                    );
                    Exit::Ok
                }
                Err(ps) => report(&ps),
            }
        }
        TranslateCommand::Export { game, lang, out } => {
            let g = match load(data, &game) {
                Ok(g) => g,
                Err(e) => return e,
            };
            let text = match translate::export(&g, &lang) {
                Ok(t) => t,
                Err(ps) => return report(&ps),
            };
            match out {
                Some(path) => match crate::output::write_named(&path, text.as_bytes()) {
                    Ok(()) => {
                        println!("{}: wrote {}", g.slug, path.display());
                        Exit::Ok
                    }
                    Err(e) => report(&[Problem::io_write(&path, e)]),
                },
                None => {
                    print!("{text}");
                    Exit::Ok
                }
            }
        }
        TranslateCommand::Import { game, lang, file } => {
            let g = match load(data, &game) {
                Ok(g) => g,
                Err(e) => return e,
            };
            let po = match read_po(&file) {
                Ok(p) => p,
                Err(p) => return report(&[p]),
            };
            match translate::import(&g, &lang, &po) {
                Ok(done) => {
                    println!(
                        "{}: {} changed, {} marked{}",
                        g.slug,
                        crate::messages::count_of(done.changed.len(), "text", "texts"),
                        done.marked.len(),
                        if done.written.is_empty() {
                            ": nothing to write".to_string()
                        } else {
                            format!(
                                "; wrote {}",
                                done.written
                                    .iter()
                                    .map(|p| p.display().to_string())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        }
                    );
                    Exit::Ok
                }
                Err(ps) => report(&ps),
            }
        }
    }
}

/// Reads a PO file the person named: bounded in size, UTF-8.
fn read_po(path: &Path) -> Result<crate::diag::SourceFile, Problem> {
    let cap = crate::translate::po::PO_MAX_BYTES as u64;
    match std::fs::metadata(path) {
        Ok(m) if m.len() > cap => {
            return Err(Problem::data(format!(
                "{}: the file is {} MB; a PO file is at most {} MB",
                path.display(),
                m.len() >> 20,
                cap >> 20
            )));
        }
        Ok(_) => {}
        Err(e) => return Err(Problem::io(path, crate::diag::io_words(&e))),
    }
    crate::model::read_source(path)
}
