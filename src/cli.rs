//! The command line: a thin layer over the library. Exit status: 0 when all is well,
//! 1 when the data has problems, 2 for usage or I/O errors.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use crate::check::check_game;
use crate::diag::{Problem, ProblemKind};
use crate::model::{Game, game_slugs, load_game};
use crate::scaffold;

#[derive(Debug, Parser)]
#[command(
    name = "printplay",
    version,
    about = "Check, simulate, print and explain tabletop games described in TOML"
)]
pub struct Cli {
    /// The data folder: one sub-folder per game.
    #[arg(long, global = true, default_value = "data")]
    pub data: PathBuf,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check games' data against the model, their declared invariants and their rules.
    Check {
        /// Game slugs (folder names); all games when none are given.
        games: Vec<String>,
        /// Also list every inferred and reconstructed value with its reason.
        #[arg(long)]
        provenance: bool,
    },
    /// List the games with a one-line summary.
    List,
    /// Print a JSON Schema of the data files (`game.toml` and `components.toml`).
    Schema,
    /// Write a game's rules reference (HTML and Markdown) from its data.
    Rules {
        /// The game's slug.
        game: String,
        /// One language (default: every language the game is published in).
        #[arg(long)]
        lang: Option<String>,
        /// One format (default: both).
        #[arg(long, value_enum)]
        format: Option<crate::rules::Format>,
        /// Output folder (default: output/<slug>).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Create a new game folder that checks and builds as it is.
    New {
        /// The new game's slug: lower-case letters, digits and dashes.
        slug: String,
    },
}

/// Exit status of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    DataProblems = 1,
    Usage = 2,
}

/// Runs a parsed command line and returns its exit status.
pub fn run(cli: Cli) -> Exit {
    match cli.command {
        Command::Check { games, provenance } => check(&cli.data, &games, provenance),
        Command::List => list(&cli.data),
        Command::Schema => {
            println!("{}", crate::schema::json_schema());
            Exit::Ok
        }
        Command::Rules {
            game,
            lang,
            format,
            out,
        } => rules(&cli.data, &game, lang, format, out),
        Command::New { slug } => match scaffold::new_game(&cli.data, &slug) {
            Ok(dir) => {
                println!("created {}; try `printplay check {slug}`", dir.display());
                Exit::Ok
            }
            Err(p) => report(&[p]),
        },
    }
}

/// Loads the named games (all when none are named); problems are collected, not fatal.
pub fn load_games(data: &Path, names: &[String]) -> (Vec<Game>, Vec<Problem>) {
    let slugs = if names.is_empty() {
        match game_slugs(data) {
            Ok(s) => s,
            Err(p) => return (Vec::new(), vec![p]),
        }
    } else {
        names.to_vec()
    };
    let mut games = Vec::new();
    let mut problems = Vec::new();
    for slug in slugs {
        match load_game(data, &slug) {
            Ok(g) => games.push(g),
            Err(ps) => problems.extend(ps),
        }
    }
    (games, problems)
}

fn check(data: &Path, names: &[String], provenance: bool) -> Exit {
    let (games, mut problems) = load_games(data, names);
    for game in &games {
        let found = check_game(game);
        if found.is_empty() {
            println!(
                "{}: ok ({} invariants hold)",
                game.slug,
                game.invariants.len()
            );
        } else {
            println!("{}: {} problem(s)", game.slug, found.len());
        }
        problems.extend(found);
        if provenance {
            print_provenance(game);
        }
    }
    if games.is_empty() && problems.is_empty() {
        problems.push(Problem::io(
            data,
            "holds no game folders (a folder with a game.toml)",
        ));
    }
    report(&problems)
}

fn print_provenance(game: &Game) {
    let list = game.unprinted();
    println!("  {} values are not printed in the rulebook:", list.len());
    for p in list {
        println!(
            "  {:<13} {}: {}",
            p.source.kind(),
            p.path,
            p.source.reason()
        );
    }
}

fn list(data: &Path) -> Exit {
    let (games, problems) = load_games(data, &[]);
    for g in &games {
        let players = match (g.info.players.min, g.info.players.max) {
            (a, b) if a == b => format!("{a} players"),
            (a, b) => format!("{a}-{b} players"),
        };
        println!(
            "{:<28} {} ({players}): {}",
            g.slug, g.info.name, g.info.summary
        );
    }
    report(&problems)
}

fn rules(
    data: &Path,
    slug: &str,
    lang: Option<String>,
    format: Option<crate::rules::Format>,
    out: Option<PathBuf>,
) -> Exit {
    use crate::rules::{Assets, Format, templates_dir};
    let (games, problems) = load_games(data, &[slug.to_string()]);
    let Some(game) = games.first() else {
        return report(&problems);
    };
    let assets = match Assets::load(&templates_dir()) {
        Ok(a) => a,
        Err(p) => return report(&[p]),
    };
    let langs = lang.map_or_else(|| crate::rules::languages(game), |l| vec![l]);
    let formats = format.map_or_else(|| vec![Format::Html, Format::Md], |f| vec![f]);
    let dir = out.unwrap_or_else(|| PathBuf::from("output").join(&game.slug));
    let mut problems = Vec::new();
    for l in &langs {
        for f in &formats {
            match crate::rules::write(game, l, *f, &assets, &dir) {
                Ok(paths) => paths.iter().for_each(|p| println!("wrote {}", p.display())),
                Err(ps) => problems.extend(ps),
            }
        }
    }
    report(&problems)
}

/// Prints every problem to stderr and turns them into an exit status.
pub fn report(problems: &[Problem]) -> Exit {
    let colour = std::io::stderr().is_terminal();
    for p in problems {
        eprint!("{}", p.render(colour));
    }
    if problems.is_empty() {
        Exit::Ok
    } else {
        eprintln!("{} problem(s) found", problems.len());
        if problems.iter().any(|p| p.kind == ProblemKind::Io) {
            Exit::Usage
        } else {
            Exit::DataProblems
        }
    }
}
