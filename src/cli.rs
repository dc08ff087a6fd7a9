//! The command line: a thin layer over the library. Exit status: 0 when all is well,
//! 1 when the data has problems, 2 for usage or I/O errors.

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use crate::diag::{Problem, ProblemKind};
use crate::model::Game;
use crate::pipeline::{self, Outcome, load_games};
use crate::render::BuildOptions;
use crate::render::sheets::layout::{Duplex, Paper};
use crate::scaffold;

mod translate;

/// Standard output for everything the commands print. A reader that stops early
/// (`printplay simulate ... | head`) closes the pipe; the program then ends quietly with
/// status 0, as a filter in a pipeline should, instead of panicking in `println!`.
pub struct Stdout;

impl std::io::Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::stdout()
            .lock()
            .write(buf)
            .map_err(exit_on_broken_pipe)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout()
            .lock()
            .flush()
            .map_err(exit_on_broken_pipe)
    }
}

/// A closed pipe ends the program with status 0; any other error is the caller's.
fn exit_on_broken_pipe(e: std::io::Error) -> std::io::Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    e
}

/// Writes formatted text to [`Stdout`]; an error other than a closed pipe is reported on
/// stderr and ends the program with the I/O status 2.
fn write_out(args: std::fmt::Arguments) {
    if let Err(e) = std::io::Write::write_fmt(&mut Stdout, args) {
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(Exit::Usage as i32);
    }
}

/// `print!` through [`write_out`].
macro_rules! print {
    ($($arg:tt)*) => { write_out(format_args!($($arg)*)) };
}

/// `println!` through [`write_out`].
macro_rules! println {
    () => { write_out(format_args!("\n")) };
    ($($arg:tt)*) => { write_out(format_args!("{}\n", format_args!($($arg)*))) };
}

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
    /// Print the JSON Schema (draft 2020-12) of one kind of data file, or write them all.
    Schema {
        /// game, components, rules (rules.<lang>.toml), rules-meta (rules.toml) or sheet
        /// (a row of a spreadsheet deck).
        #[arg(value_enum, required_unless_present = "out")]
        kind: Option<crate::schema::FileKind>,
        /// Write every schema as <kind>.schema.json into this folder instead.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print the user's guide's reference as Markdown: every command and flag, every key of
    /// each kind of data file, every template function; or write every page.
    Reference {
        /// commands, game, components, rules, rules-meta, sheet or functions.
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(REFERENCE_PAGES), required_unless_present = "out")]
        page: Option<String>,
        /// Write every page as <page>.md into this folder instead (the book's
        /// `docs/src/reference`).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Write a deck's cards as CSV (to move a TOML deck into a spreadsheet).
    ExportCsv {
        /// The game's slug.
        game: String,
        /// The deck's id.
        deck: String,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write an XLSX workbook instead, as `export-xlsx` does.
        #[arg(long)]
        xlsx: bool,
    },
    /// Write a deck's cards as an XLSX workbook (one worksheet named after the deck).
    ExportXlsx {
        /// The game's slug.
        game: String,
        /// The deck's id.
        deck: String,
        /// Write to this file instead of standard output (which must not be a terminal).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Write a game's rules reference (HTML and Markdown) from its data, and with --pdf the
    /// printed rulebook.
    Rules {
        /// The game's slug.
        game: String,
        /// One language (default: every language the game is published in).
        #[arg(long)]
        lang: Option<String>,
        /// One format (default: both).
        #[arg(long, value_enum)]
        format: Option<crate::rules::Format>,
        /// Also write the printed rulebook: rules.<lang>.a4.pdf, .letter.pdf and .booklet.pdf
        /// (A5 pages imposed for saddle stitching on A4 landscape sheets).
        #[arg(long)]
        pdf: bool,
        /// Output folder; the files go to DIR/<slug>/ (default: output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Create a new game folder that checks and builds as it is.
    New {
        /// The new game's slug: lower-case letters, digits and dashes.
        slug: String,
        /// Also write a rule engine for the starter game, so it simulates at once (`lua`:
        /// a tutorial `engine.lua`).
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(scaffold::STARTER_ENGINES))]
        engine: Option<String>,
    },
    /// Play many games between bots and report win rates, lengths and balance.
    Simulate(SimulateArgs),
    /// Find the values of one or two parameters (or variants) nearest a target (balance, or a
    /// game length) by successive halving on common seeds, with intervals.
    Tune(TuneArgs),
    /// How much skill decides the game: bots of rising strength (random, heuristic, MCTS at
    /// rising iterations), each stronger one against each weaker on the same seeds, and one
    /// figure of skill against luck, with 95 % intervals by game.
    Ladder(LadderArgs),
    /// Print one simulated game move by move (the same game as `simulate`'s game K): after
    /// every move the public state and the hands the observer may see, then the scores.
    Replay(ReplayArgs),
    /// List a game's rule variants (the rulebook's ambiguities): values, default, question.
    Variants {
        /// Game slugs; every game with an engine when none are given.
        games: Vec<String>,
    },
    /// Play a game in the terminal against the bots (or every seat yourself).
    Play(PlayArgs),
    /// Serve rules-enforced tables in the browser: a home page that lists the games and
    /// makes tables; players join by link, bots take the other seats (Ctrl-C stops).
    Serve(ServeArgs),
    /// Serve one new table: prints `SEAT URL` for each person seat, `spectator URL` and
    /// `admin URL` (the server's admin link), then serves until Ctrl-C.
    Table(TableArgs),
    /// Summarise a game's stored tables: results per seat and per person or bot, lengths,
    /// and how often people chose the heuristic bot's move; or export every session (moves
    /// with their times, chat, notes, card plays) as JSON or CSV.
    Playtests {
        /// The game's slug.
        game: String,
        /// The tables' database (as given to `serve`).
        #[arg(long, default_value = crate::serve::DEFAULT_DB)]
        db: PathBuf,
        /// Write every session out as JSON to this file (`-`: standard output, instead of
        /// the summary): seats, each move with its time and the seconds it took, chat, notes,
        /// and each card's plays by persons and by bots.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// The same as CSV, one row per move, chat message, note and card (`-`: standard
        /// output).
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
    },
    /// Add up the `--json` files of the shards of one `simulate` or `tune` run.
    Merge {
        /// The shard files: files, folders (their .json files) or quoted patterns such as
        /// 'results/shard-*.json'. Every shard 1..N must be there exactly once.
        #[arg(required = true)]
        files: Vec<String>,
        /// Write the merged JSON here (printed as a table on stdout either way).
        #[arg(long)]
        json: Option<PathBuf>,
        /// Also write the merged run's report page and charts under <OUT>/<slug>/sim/ (its
        /// own page, report.html and the index, as one machine's `simulate` writes them, byte
        /// for byte).
        #[arg(long, value_name = "OUT")]
        out: Option<PathBuf>,
    },
    /// The yield of Pray actions (Imperial Settlers: Aztecs) as distributions and expected
    /// values: an analysis of the rules, not a game.
    Analyze(AnalyzeArgs),
    /// Check each game, then write its print-and-play files under OUT/<slug>/.
    Build(BuildArgs),
    /// Build, then rebuild a game whenever a file in its folder changes (Ctrl-C stops).
    Watch(BuildArgs),
    /// What changed in a game's designs since an earlier version (a git revision of its
    /// folder, or another folder): cards and pieces added, removed or changed, with the fields,
    /// art, templates and counts that differ; a changelog for testers.
    Diff {
        /// The game's slug.
        game: String,
        /// The earlier version: a git revision of the game's folder (`HEAD`, `v1`, `main~2`)
        /// or the path of another copy of the folder.
        #[arg(long, value_name = "REF")]
        since: String,
        /// The changelog's format: text (for the terminal), md (Markdown) or html (a page with
        /// nothing live).
        #[arg(long, value_enum, default_value = "text")]
        format: crate::diff::report::Format,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Translations of a game's rules texts: coverage, marks, and PO files for gettext tools.
    Translate {
        #[command(subcommand)]
        command: translate::TranslateCommand,
    },
    /// Write a two-sided test sheet for measuring a printer's front/back offset.
    Calibrate {
        /// The paper the test sheet is printed on.
        #[arg(long, value_enum, default_value = "a4")]
        paper: Paper,
        /// How the printer turns the sheet (`fold` needs no calibration): side 2 says whether
        /// it turned as this says.
        #[arg(long, value_enum, default_value = "long-edge")]
        duplex: Duplex,
        /// Output folder: the sheet goes to DIR/calibrate.pdf.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
}

/// What identifies a run: the game, the seed, the seats and the rules.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The game's slug.
    pub game: String,
    /// Master seed; each game's seed derives from it and the game's index.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Seats (default: the game's smallest count).
    #[arg(long)]
    pub players: Option<usize>,
    /// Bots, one per seat or one for all: random, heuristic, mcts[:N[:POLICY][:eps=E][:depth=D]].
    #[arg(long, value_delimiter = ',', default_value = "random")]
    pub bots: Vec<String>,
    /// A rule variant, NAME=VALUE (repeatable).
    #[arg(long = "variant")]
    pub variants: Vec<String>,
    /// Moves after which a game is stopped and counted as a timeout.
    #[arg(long, default_value_t = crate::simulate::DEFAULT_MAX_MOVES)]
    pub max_moves: u32,
}

#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Games to play (1 or more: a report on no games would claim nothing and overwrite the
    /// last one).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Write the full report as JSON (for `printplay merge`).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write one row per game (seats, bots, results, length, end statistics) as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Play only shard I of N (I counted from 1: games I-1, I-1+N, ...), or `auto`: the
    /// index and count of a Slurm job array or a Kubernetes Indexed Job.
    #[arg(long, value_name = "I/N|auto")]
    pub shard: Option<String>,
    /// With `--shard auto` in a Kubernetes Indexed Job: the shard count (the Job's
    /// completions); else read from PRINTPLAY_SHARDS.
    #[arg(long, value_name = "N")]
    pub shard_count: Option<u64>,
    /// Play every game under two readings of a variant: NAME=A,B.
    #[arg(long, value_name = "VARIANT=A,B")]
    pub compare: Option<String>,
    /// Where the report page and charts go: `<out>/<slug>/sim/<run>.html`, one per run,
    /// listed in `index.html` there; `report.html` is the latest run's page.
    #[arg(long, default_value = "output")]
    pub out: PathBuf,
    /// Write no charts and no report page (a shard's show only its share of the games;
    /// `merge --out` writes the whole run's).
    #[arg(long)]
    pub no_charts: bool,
    /// Per card design: how often seats played or acquired it and how they did, with and
    /// without it, seat by seat, flagged after a Benjamini-Hochberg correction at 5 %.
    #[arg(long)]
    pub cards: bool,
    /// Write the cards table as CSV, one row per design (implies --cards).
    #[arg(long, value_name = "FILE")]
    pub cards_csv: Option<PathBuf>,
    /// Play the same games at every value of a `[params.*]` value, a variant, or a card
    /// design's (or piece's) number, DESIGN.FIELD or DESIGN.count (`the-engineer.value`):
    /// NAME=A..B[:STEP] or NAME=v1,v2,... Twice for a grid of both.
    #[arg(long, value_name = "NAME=VALUES", conflicts_with_all = ["compare", "csv"])]
    pub sweep: Vec<String>,
    /// Show person seats beside bot seats: the games people played at `serve`'s tables
    /// (stored in DB; without a value, the database `serve` keeps by default), per seat won
    /// and per card played, each figure with the games it rests on.
    #[arg(long, value_name = "DB", num_args = 0..=1,
          default_missing_value = crate::serve::DEFAULT_DB, conflicts_with = "sweep")]
    pub playtests: Option<PathBuf>,
}

/// Options of `printplay tune`.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// The values to try: NAME=A..B[:STEP] or NAME=v1,v2 for a `[params.*]` value, a
    /// variant, or a card design's number (DESIGN.FIELD, DESIGN.count); two, comma-separated,
    /// for a grid.
    #[arg(long, value_name = "NAME=RANGE[,NAME=RANGE]")]
    pub params: String,
    /// `balance` (the first seat wins its even share of decided games) or `length=T`
    /// (games last T turns on average, moves where the game counts no turns).
    #[arg(long, default_value = "balance")]
    pub target: String,
    /// Games in all, over every value and round.
    #[arg(long, default_value_t = 20_000)]
    pub budget: u64,
    /// Write the result as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Where the report page goes: `<out>/<slug>/sim/<run>.html`, one per run, listed in
    /// `index.html` there; `report.html` is the latest run's page.
    #[arg(long, default_value = "output")]
    pub out: PathBuf,
    /// Write no report page.
    #[arg(long)]
    pub no_report: bool,
    /// Play only shard I of N of the search (I counted from 1), or `auto` (as `simulate`):
    /// the shard plays its share of every round for every value and writes it to --json;
    /// `printplay merge` adds the shards up and runs the halving (the same result as one
    /// machine's, byte for byte).
    #[arg(long, value_name = "I/N|auto", requires = "json")]
    pub shard: Option<String>,
    /// With `--shard auto` in a Kubernetes Indexed Job: the shard count (the Job's
    /// completions); else read from PRINTPLAY_SHARDS.
    #[arg(long, value_name = "N")]
    pub shard_count: Option<u64>,
}

/// Options of `printplay ladder`.
#[derive(Debug, clap::Args)]
pub struct LadderArgs {
    /// The game's slug.
    pub game: String,
    /// The bots, weakest first (2 to 8): random, heuristic (or the game's own bot),
    /// mcts[:N[:POLICY][:eps=E][:depth=D]].
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,heuristic,mcts:50,mcts:200,mcts:800"
    )]
    pub levels: Vec<String>,
    /// Games of each pairing (every stronger level against every weaker one).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=crate::simulate::ladder::MAX_GAMES))]
    pub games: u64,
    /// Master seed; each game's seed derives from it and the game's index.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Seats (default: the game's smallest count).
    #[arg(long)]
    pub players: Option<usize>,
    /// A rule variant, NAME=VALUE (repeatable).
    #[arg(long = "variant")]
    pub variants: Vec<String>,
    /// Moves after which a game is stopped (a win for nobody, and counted).
    #[arg(long, default_value_t = crate::simulate::DEFAULT_MAX_MOVES)]
    pub max_moves: u32,
    /// Write the ladder as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Options of `printplay replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// The game's number in the run, counted from 1 (as `simulate --csv` numbers them).
    #[arg(long = "game", value_name = "K", required_unless_present = "moves")]
    pub number: Option<u64>,
    /// Instead, a game saved by `printplay play` (its seed, seats and variants are in the
    /// file).
    #[arg(long, value_name = "FILE", conflicts_with = "number")]
    pub moves: Option<PathBuf>,
    /// Show the game as this seat sees it: a number from 1 or its name (`police`).
    #[arg(long, value_name = "SEAT", conflicts_with = "omniscient")]
    pub observer: Option<String>,
    /// Show every hand and every card drawn (the default, but with `--moves`: as the person
    /// who played the saved game saw it).
    #[arg(long)]
    pub omniscient: bool,
    /// Write the replay as JSON to FILE instead (`-` or no FILE: standard output); not for a
    /// saved game (`--moves`), which replays as text.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 0..=1,
        default_missing_value = "-",
        conflicts_with = "moves"
    )]
    pub json: Option<PathBuf>,
}

/// Options of `printplay analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The game's slug.
    pub game: String,
    /// The common deck drawn from, by id (default: the game's `common_deck`).
    #[arg(long)]
    pub deck: Option<String>,
    /// Pray sizes, the N of Pray N, comma-separated (default: the game's `pray_odds_sizes`).
    #[arg(long, value_delimiter = ',')]
    pub pray: Vec<u32>,
    /// Blessing tokens held: colours, comma-separated (`tricolor` for the Aztec token).
    #[arg(long, value_delimiter = ',')]
    pub blessings: Vec<String>,
    /// Stored cards used in the action, comma-separated: `grey`, divided `brown+red`, `none`.
    #[arg(long, value_delimiter = ',')]
    pub stored: Vec<String>,
    /// Also a Pray action that resolves several colours: these, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub colours: Vec<String>,
    /// A reading of an open question, NAME=VALUE (repeatable).
    #[arg(long = "variant")]
    pub variants: Vec<String>,
    /// Draws to sample where counting every draw is not feasible (default 200000).
    #[arg(long, default_value_t = 0)]
    pub samples: u64,
    /// Seed of the sampled draws.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Options of `printplay play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The game's slug.
    pub game: String,
    /// Your seat, from 1, or `all` to play every seat (hot-seat).
    #[arg(long, default_value = "1")]
    pub seat: String,
    /// Bots for the other seats, one for all or one per seat in order (default: heuristic).
    #[arg(long, value_delimiter = ',')]
    pub bots: Vec<String>,
    /// The game's seed (default: from the clock, printed at the start).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Seats (default: the game's smallest count).
    #[arg(long)]
    pub players: Option<usize>,
    /// A rule variant, NAME=VALUE (repeatable).
    #[arg(long = "variant")]
    pub variants: Vec<String>,
    /// Keep the game in this file after every move (seed and moves).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Continue a game saved with `--save` or `save FILE` (its seats, seed and variants).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seat", "bots", "seed", "players", "variants", "free"])]
    pub resume: Option<PathBuf>,
    /// Play at the free table (the game's components, no rules: draw, deal, play cards face
    /// up or down, move pieces) though an engine plays the game; a game without an engine
    /// always gets it (the other seats' default bot is then `random`).
    #[arg(long)]
    pub free: bool,
}

/// Options of `printplay serve` (and the server of `printplay table`).
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on; 0.0.0.0 opens the server to the network (it says what that
    /// exposes).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Where tables are kept (SQLite); every move is stored before it is acknowledged.
    #[arg(long, default_value = crate::serve::DEFAULT_DB)]
    pub db: PathBuf,
    /// The most search iterations a bot may make a move: a seat's `mcts:N` above it is
    /// refused (the tables' bots share the cores, taking turns in 20 ms slices).
    #[arg(long, value_name = "N", default_value_t = crate::serve::think::DEFAULT_ITERATIONS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub bot_iterations: u32,
    /// The most time a bot may think a move, in seconds (the time it runs, not the time it
    /// waits for its turn); then it plays the best move it found.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::serve::think::DEFAULT_SECONDS,
          value_parser = bot_seconds)]
    pub bot_seconds: f64,
    /// Tables nobody moved at, or that were closed, for this many days are deleted with
    /// everything stored of them (at the start and every hour); 0 keeps every table.
    #[arg(long, value_name = "DAYS", default_value_t = crate::serve::DEFAULT_EXPIRE_DAYS)]
    pub expire_days: u32,
}

/// `--bot-seconds`: a time from a millisecond to an hour.
fn bot_seconds(s: &str) -> Result<f64, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if (0.001..=3600.0).contains(&secs) {
        Ok(secs)
    } else {
        Err(format!(
            "`{s}`: a bot thinks from 0.001 to 3600 seconds a move"
        ))
    }
}

/// Options of `printplay table`.
#[derive(Debug, clap::Args)]
pub struct TableArgs {
    /// The game's slug.
    pub game: String,
    /// Who plays each seat, NAME=person|BOT (a seat's name or number from 1), comma-separated;
    /// seats not named are persons. Bots: random, heuristic, mcts[:N...].
    #[arg(long, value_delimiter = ',', value_name = "NAME=WHO")]
    pub seats: Vec<String>,
    /// The game's seed (default: drawn at random).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Seats (default: the game's smallest count).
    #[arg(long)]
    pub players: Option<usize>,
    /// A rule variant, NAME=VALUE (repeatable).
    #[arg(long = "variant")]
    pub variants: Vec<String>,
    /// The free table (the game's components, no rules) though an engine plays the game; a
    /// game without an engine always gets it. Its seats are `player 1`, `player 2`... (or
    /// the data's player colours); other names in `--seats` take the seats in order, and
    /// without `--players` it seats as many as `--seats` names.
    #[arg(long)]
    pub free: bool,
    #[command(flatten)]
    pub server: ServeArgs,
}

/// Options of `printplay build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// Game slugs (folder names); all games when none are given.
    pub games: Vec<String>,
    /// The paper the sheets are printed on.
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: Paper,
    /// How the printer turns the sheet; backs are mirrored (and turned for short-edge) to
    /// match; `off` writes back sheets to glue onto the fronts; `fold` puts fronts and backs
    /// on one page either side of a fold line (gutterfold), for printers without duplex.
    #[arg(long, value_enum, default_value = "long-edge")]
    pub duplex: Duplex,
    /// Bleed around every card, in millimetres (0 to 10). Without it, card art runs 3 mm
    /// beyond the cut and sheets reduce that (to 1.5 mm at the least) to fit more cards;
    /// given, sheets keep it, with fewer cards a sheet if need be (the build says so).
    #[arg(long, value_parser = parse_bleed)]
    pub bleed: Option<f64>,
    /// Shift of the backs in millimetres, as read off `printplay calibrate`: X,Y (not for
    /// `--duplex fold`, whose fold places the backs).
    #[arg(long, default_value = "0,0", value_parser = parse_offset, allow_hyphen_values = true)]
    pub back_offset: (f64, f64),
    /// Output folder.
    #[arg(long, default_value = "output")]
    pub out: PathBuf,
    /// Print boards on this larger paper: on one page when they fit, else tiled on it.
    #[arg(long, value_enum)]
    pub board_page: Option<Paper>,
    /// Cut guides on card sheets: crop marks, cut lines across the sheet (through the
    /// gutters between the cards, never along a card), or both.
    #[arg(long, value_enum, default_value = "crop")]
    pub marks: crate::render::sheets::layout::Marks,
    /// Let decks share sheets: decks of one card size fill the same grid, and the last,
    /// part-empty sheets of every size are packed together, each size in its own band.
    #[arg(long)]
    pub pack: bool,
    /// Draw the trim (magenta) and the safe zone (cyan) over every card, piece and board of
    /// cards.pdf, tokens.pdf, board.pdf and proof.pdf, for proofing; never on the print-shop
    /// files.
    #[arg(long)]
    pub guides: bool,
    /// Fill each card's bleed with the edge of its art mirrored (for art that stops at the
    /// trim): the face is cut at its trim and the strip inside each edge shows again,
    /// mirrored, beyond it.
    #[arg(long)]
    pub mirror_bleed: bool,
    /// Also write print-shop files: one card per page with its bleed, PNGs, manifest
    /// (`--only shop` asks for them too; with an `--only` that leaves out `shop` it is an
    /// error).
    #[arg(long)]
    pub shop: bool,
    /// Colour of the print-shop PDFs (default: the preset's, else rgb); needs `--shop`.
    #[arg(long, value_enum)]
    pub color: Option<crate::render::formats::shop::Color>,
    /// Size the print-shop files to a printer's card template; needs `--shop`.
    #[arg(long, value_enum)]
    pub shop_preset: Option<crate::render::formats::shop::Preset>,
    /// Where the Tabletop Simulator images will be hosted (default: file:// paths).
    #[arg(long, value_name = "URL")]
    pub tts_base_url: Option<String>,
    /// Build only these outputs, comma-separated: cards, tokens, boxes, board, png, tts, shop,
    /// proof, changed, rulebook, rules, index (`shop` writes the print-shop files, as `--shop`
    /// does; `boxes` a tuck box per deck; `changed` changed.pdf, with `--changed-since` or
    /// `--cards`; `rulebook` the printed rulebook PDFs).
    #[arg(long, value_parser = pipeline::parse_only)]
    pub only: Option<BTreeSet<String>>,
    /// Draw every face and image again instead of reusing those the last build kept in
    /// `<out>/.cache/`, and keep none.
    #[arg(long)]
    pub no_cache: bool,
    /// Also write changed.pdf: only the cards whose printed face changed since REF (a git
    /// revision of the game's folder, or another copy of it), new cards and new copies,
    /// backs registered as in cards.pdf, after a cover saying what replaces what.
    #[arg(long, value_name = "REF", conflicts_with = "cards")]
    pub changed_since: Option<String>,
    /// Also write changed.pdf with these cards (ids, comma-separated), every copy.
    #[arg(long, value_name = "ID,...", value_delimiter = ',')]
    pub cards: Option<Vec<String>>,
}

fn parse_bleed(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=10.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("bleed must be between 0 and 10 mm, not {v}"))
    }
}

fn parse_offset(s: &str) -> Result<(f64, f64), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}` is not X,Y (for example 0.5,-0.25)"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && v.abs() <= 20.0)
            .ok_or_else(|| format!("`{t}` is not an offset in millimetres between -20 and 20"))
    };
    Ok((num(x)?, num(y)?))
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
        Command::Schema { kind, out } => schema(kind, out.as_deref()),
        Command::Reference { page, out } => reference(page.as_deref(), out.as_deref()),
        Command::ExportCsv {
            game,
            deck,
            out,
            xlsx,
        } => export(&cli.data, &game, &deck, out.as_deref(), xlsx),
        Command::ExportXlsx { game, deck, out } => {
            export(&cli.data, &game, &deck, out.as_deref(), true)
        }
        Command::Rules {
            game,
            lang,
            format,
            pdf,
            out,
        } => rules(&cli.data, &game, lang, format, pdf, out),
        Command::New { slug, engine } => match match engine.as_deref() {
            Some(engine) => scaffold::new_game_with_engine(&cli.data, &slug, engine),
            None => scaffold::new_game(&cli.data, &slug),
        } {
            Ok(dir) => {
                println!("created {}; try `printplay check {slug}`", dir.display());
                Exit::Ok
            }
            Err(p) => report(&[p]),
        },
        Command::Simulate(args) => simulate(&cli.data, args),
        Command::Tune(args) => tune(&cli.data, args),
        Command::Ladder(args) => ladder(&cli.data, args),
        Command::Replay(args) => match args.moves.clone() {
            Some(file) => {
                let observer = match args.omniscient {
                    true => Some("omniscient"),
                    false => args.observer.as_deref(),
                };
                replay_moves(&cli.data, &args.run.game, &file, observer)
            }
            None => replay(&cli.data, args),
        },
        Command::Play(args) => play(&cli.data, args),
        Command::Serve(args) => serve(&cli.data, &args, None),
        Command::Table(args) => table(&cli.data, args),
        Command::Playtests {
            game,
            db,
            json,
            csv,
        } => playtests(&cli.data, &game, &db, json.as_deref(), csv.as_deref()),
        Command::Variants { games } => variants(&cli.data, &games),
        Command::Merge { files, json, out } => merge(&files, json.as_deref(), out.as_deref()),
        Command::Analyze(args) => analyze(&cli.data, args),
        Command::Build(args) => build(&cli.data, args),
        Command::Watch(args) => watch(&cli.data, args),
        Command::Diff {
            game,
            since,
            format,
            out,
        } => diff(&cli.data, &game, &since, format, out.as_deref()),
        Command::Calibrate { paper, duplex, out } => calibrate(paper, duplex, &out),
        Command::Translate { command } => translate::run(&cli.data, command),
    }
}

fn build(data: &Path, args: BuildArgs) -> Exit {
    let options = match build_options(&args) {
        Ok(o) => o,
        Err(e) => return usage(e),
    };
    if let Err(e) = reprint_request(data, &args.games, &options) {
        return usage(e);
    }
    let progress = progress_bar(args.games.len());
    let tick = |slug: &str| {
        if let Some(bar) = &progress {
            bar.set_message(slug.to_string());
            bar.inc(1);
        }
    };
    let result = pipeline::build(data, &args.games, &options, &tick);
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    print_build(&result.games);
    not_built_fails(&result.games, report(&result.problems()))
}

/// `--changed-since REF` or `--cards ID,...` checked before anything is built (by `build`
/// and `watch` alike): the sentence saying why it cannot be met (exit 2).
fn reprint_request(data: &Path, names: &[String], options: &BuildOptions) -> Result<(), String> {
    match &options.reprint {
        Some(reprint) => {
            let (games, _) = load_games(data, names);
            crate::diff::changed::check_request(&games, reprint)
        }
        None => Ok(()),
    }
}

/// A build that left a game unbuilt never exits 0, whatever its problems were filed as.
fn not_built_fails(games: &[pipeline::GameReport], exit: Exit) -> Exit {
    let unbuilt = games
        .iter()
        .any(|g| !matches!(g.outcome, Outcome::Built(_)));
    if exit == Exit::Ok && unbuilt {
        Exit::DataProblems
    } else {
        exit
    }
}

fn watch(data: &Path, args: BuildArgs) -> Exit {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    if let Err(e) =
        ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed))
    {
        return usage(format!("cannot catch Ctrl-C: {e}"));
    }
    let options = match build_options(&args) {
        Ok(o) => o,
        Err(e) => return usage(e),
    };
    if let Err(e) = reprint_request(data, &args.games, &options) {
        return usage(e);
    }
    let mut print_round = |round: &crate::watch::Round| {
        for path in &round.changed {
            println!("changed: {}", path.display());
        }
        print_build(&round.report.games);
        report(&round.report.problems());
        println!(
            "{}; watching {} (Ctrl-C stops)",
            round.summary(),
            data.display()
        );
    };
    match crate::watch::watch(data, &args.games, &options, &stop, &mut print_round) {
        Ok(()) => Exit::Ok,
        Err(p) => report(&[p]),
    }
}

/// The build options a command line names, or the sentence saying which of them conflict:
/// an option of the print-shop files without them asked for (`--shop` or `--only shop`),
/// or `--shop` with an `--only` that leaves them out.
pub fn build_options(args: &BuildArgs) -> Result<BuildOptions, String> {
    let mut only = args.only.clone().unwrap_or_default();
    let reprint = match (&args.changed_since, &args.cards) {
        (Some(since), _) => Some(crate::render::Reprint::Since(since.clone())),
        (None, Some(ids)) => {
            let ids: Vec<String> = ids
                .iter()
                .map(|id| id.trim().to_string())
                .filter(|id| !id.is_empty())
                .collect();
            if ids.is_empty() {
                return Err("--cards names no card: give ids, comma-separated".to_string());
            }
            Some(crate::render::Reprint::Cards(ids))
        }
        (None, None) => None,
    };
    // Asked for, changed.pdf is written whatever else `--only` picks.
    if reprint.is_some() && !only.is_empty() {
        only.insert(crate::render::CHANGED_STAGE.to_string());
    }
    let shop = args.shop || only.contains("shop");
    for (given, flag) in [
        (args.color.is_some(), "--color"),
        (args.shop_preset.is_some(), "--shop-preset"),
    ] {
        if given && !shop {
            return Err(format!(
                "{flag} applies to the print-shop files only: add --shop (or `shop` to --only)"
            ));
        }
    }
    let options = BuildOptions {
        paper: args.paper,
        duplex: args.duplex,
        bleed: args.bleed.unwrap_or(BuildOptions::default().bleed),
        exact_bleed: args.bleed.is_some(),
        back_offset: args.back_offset,
        out: args.out.clone(),
        board_page: args.board_page,
        marks: args.marks,
        pack: args.pack,
        guides: args.guides,
        mirror_bleed: args.mirror_bleed,
        shop: shop.then_some(crate::render::formats::shop::ShopOptions {
            color: args.color,
            preset: args.shop_preset,
        }),
        tts_base_url: args.tts_base_url.clone(),
        only,
        live_reload: false,
        first: None,
        cache: !args.no_cache,
        kept_pages: None,
        reprint,
        builds: true,
    };
    match options.conflict() {
        Some(e) => Err(e),
        None => Ok(options),
    }
}

/// A progress bar on a terminal for `games` games (0: all of them, count unknown yet).
fn progress_bar(games: usize) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(games.max(1) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}

/// One line per game: what was written, or why not.
fn print_build(games: &[pipeline::GameReport]) {
    for g in games {
        match &g.outcome {
            Outcome::Built(files) => println!(
                "{}: wrote {} to {}",
                g.slug,
                crate::messages::count_of(files.len(), "file", "files"),
                g.dir.display()
            ),
            Outcome::NotChecked(ps) => println!(
                "{}: not built, {}",
                g.slug,
                crate::messages::count_of(ps.len(), "problem", "problems")
            ),
            Outcome::Failed(_) => println!("{}: build failed", g.slug),
        }
    }
}

/// `printplay diff GAME --since REF`: the changelog on standard output or in a file.
fn diff(
    data: &Path,
    slug: &str,
    since: &str,
    format: crate::diff::report::Format,
    out: Option<&Path>,
) -> Exit {
    let game = match load_one(data, slug) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let since = crate::diff::revision::Since::parse(since);
    let bleed = BuildOptions::default().bleed;
    let diff = match crate::diff::diff_game(&game, None, &since, bleed) {
        Ok(d) => d,
        Err(e) => return usage(e),
    };
    let text = crate::diff::report::render(&diff, format);
    match out {
        Some(path) => match crate::output::write_atomic(path, text.as_bytes()) {
            Ok(()) => Exit::Ok,
            Err(e) => report(&[Problem::io_write(path, e)]),
        },
        None => {
            print!("{text}");
            Exit::Ok
        }
    }
}

fn calibrate(paper: Paper, duplex: Duplex, out: &Path) -> Exit {
    if duplex == Duplex::Fold {
        return usage(crate::render::sheets::calibrate::FOLD_NEEDS_NONE);
    }
    let path = out.join("calibrate.pdf");
    let result = crate::render::sheets::calibrate::calibration_pdf(paper, duplex)
        .map_err(|e| Problem::io(&path, e))
        .and_then(|bytes| {
            crate::output::write_atomic(&path, &bytes).map_err(|e| Problem::io(&path, e))
        });
    match result {
        Ok(()) => {
            println!(
                "wrote {}: print it two-sided ({}), then read the offset off side 2",
                path.display(),
                match duplex {
                    Duplex::LongEdge => "flip on long edge",
                    Duplex::ShortEdge => "flip on short edge",
                    Duplex::Off | Duplex::Fold => "print side 2 on the back by hand",
                }
            );
            Exit::Ok
        }
        Err(p) => report(&[p]),
    }
}

/// Prints a usage error and returns its status.
fn usage(message: impl std::fmt::Display) -> Exit {
    eprintln!("error: {message}");
    Exit::Usage
}

/// The game `slug`, loaded and checked as every command that reads a game checks it first
/// ([`pipeline::load_checked`]); its problems are printed when it fails.
fn load_one(data: &Path, slug: &str) -> Result<Game, Exit> {
    pipeline::load_checked(data, slug).map_err(|problems| report(&problems))
}

/// `--variant NAME=VALUE` flags as a map.
fn parse_variants(flags: &[String]) -> Result<std::collections::BTreeMap<String, String>, String> {
    let mut variants = std::collections::BTreeMap::new();
    for v in flags {
        let (name, value) = v
            .split_once('=')
            .ok_or_else(|| format!("--variant takes NAME=VALUE, not `{v}`"))?;
        variants.insert(name.trim().to_string(), value.trim().to_string());
    }
    Ok(variants)
}

fn sim_options(run: &RunArgs) -> Result<crate::simulate::SimOptions, String> {
    if run.players == Some(0) {
        return Err(
            "--players takes a number of seats from 1 (leave it out for the game's smallest count)"
                .into(),
        );
    }
    Ok(crate::simulate::SimOptions {
        seed: run.seed,
        players: run.players.unwrap_or(0),
        bots: run.bots.clone(),
        variants: parse_variants(&run.variants)?,
        max_moves: run.max_moves,
        ..Default::default()
    })
}

fn parse_compare(text: &str) -> Result<(String, Vec<String>), String> {
    let bad = || format!("--compare takes VARIANT=A,B, not `{text}`");
    let (name, values) = text.split_once('=').ok_or_else(bad)?;
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    if values.len() != 2 || values.iter().any(String::is_empty) {
        return Err(bad());
    }
    Ok((name.trim().to_string(), values))
}

fn simulate(data: &Path, args: SimulateArgs) -> Exit {
    use crate::simulate::simulate_with_rows;
    let game = match load_one(data, &args.run.game) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let prepared = (|| {
        let mut opts = sim_options(&args.run)?;
        opts.games = args.games;
        opts.progress = true;
        opts.cards = args.cards || args.cards_csv.is_some();
        opts.shard = shard_of(args.shard.as_deref(), args.shard_count)?;
        let compare = args.compare.as_deref().map(parse_compare).transpose()?;
        let sweeps = args
            .sweep
            .iter()
            .map(|s| crate::simulate::sweep::parse(s))
            .collect::<Result<Vec<_>, _>>()?;
        if sweeps.len() > 2 {
            return Err("--sweep at most twice (a grid of two names)".into());
        }
        Ok::<_, String>((opts, compare, sweeps))
    })();
    let (opts, compare, sweeps) = match prepared {
        Ok(p) => p,
        Err(e) => return usage(e),
    };
    let ran = if sweeps.is_empty() {
        simulate_with_rows(&game, &opts, compare, args.csv.is_some())
    } else {
        crate::simulate::simulate_sweep(&game, &opts, &sweeps).map(|f| (f, None))
    };
    let (mut file, csv) = match ran {
        Ok(f) => f,
        Err(e) => return run_failed(e),
    };
    if let Some(db) = &args.playtests {
        match person_games(&game, db) {
            Ok(p) => file.persons = Some(p),
            Err(exit) => return exit,
        }
    }
    println!("{}", file.text());
    if let (Some(p), Some(run)) = (&file.persons, file.runs.first()) {
        print!("{}", p.text(run));
    }
    if let Some(path) = &args.json
        && let Err(e) = crate::output::write_named(path, file.to_json().as_bytes())
    {
        return usage(format!("{}: {e}", path.display()));
    }
    if let (Some(path), Some(csv)) = (&args.csv, csv)
        && let Err(e) = crate::output::write_named(path, &csv)
    {
        return usage(format!("{}: {e}", path.display()));
    }
    if let Some(path) = &args.cards_csv {
        let written = file
            .cards_csv()
            .and_then(|csv| crate::output::write_named(path, &csv).map_err(|e| e.to_string()));
        if let Err(e) = written {
            return usage(format!("{}: {e}", path.display()));
        }
    }
    if args.no_charts {
        return Exit::Ok;
    }
    match crate::simulate::html::write_simulation(&args.out, &file) {
        Ok(paths) => {
            for p in paths {
                eprintln!("wrote {}", p.display());
            }
            Exit::Ok
        }
        Err(e) => usage(format!("writing charts under {}: {e}", args.out.display())),
    }
}

/// The person games stored in the tables' database `db` (`simulate --playtests`).
fn person_games(game: &Game, db: &Path) -> Result<crate::simulate::persons::PersonGames, Exit> {
    use crate::serve::store::Store;
    if !db.exists() {
        return Err(usage(format!(
            "{}: no tables stored here yet",
            db.display()
        )));
    }
    let tables = crate::serve::store::Sqlite::open(db)
        .and_then(|store| store.of_game(&game.slug))
        .map_err(usage)?;
    let mut summary = crate::serve::playtests::summarise(game, &tables).map_err(run_failed)?;
    summary.persons.source = db.display().to_string();
    Ok(summary.persons)
}

/// The shard `--shard` and `--shard-count` name (every game when there is no `--shard`).
fn shard_of(shard: Option<&str>, count: Option<u64>) -> Result<crate::simulate::Shard, String> {
    use crate::simulate::Shard;
    match shard {
        None => Ok(Shard::ALL),
        Some("auto") => Shard::from_env(|v| std::env::var(v).ok(), count),
        Some(_) if count.is_some() => {
            Err("--shard-count goes with --shard auto; --shard I/N names the count".into())
        }
        Some(s) => Shard::parse(s),
    }
}

fn ladder(data: &Path, args: LadderArgs) -> Exit {
    use crate::simulate::ladder::{LadderOptions, ladder};
    let game = match load_one(data, &args.game) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let run = RunArgs {
        game: args.game.clone(),
        seed: args.seed,
        players: args.players,
        bots: vec!["random".into()],
        variants: args.variants.clone(),
        max_moves: args.max_moves,
    };
    let opts = match sim_options(&run) {
        Ok(mut sim) => {
            sim.games = args.games;
            sim.progress = true;
            LadderOptions {
                sim,
                levels: args.levels.iter().map(|l| l.trim().to_string()).collect(),
            }
        }
        Err(e) => return usage(e),
    };
    let result = match ladder(&game, &opts) {
        Ok(l) => l,
        Err(e) => return run_failed(e),
    };
    print!("{}", result.text());
    if let Some(path) = &args.json
        && let Err(e) = crate::output::write_named(path, result.to_json().as_bytes())
    {
        return usage(format!("{}: {e}", path.display()));
    }
    Exit::Ok
}

/// The command one machine runs for a tuning run (shown on its page, kept in its shards).
fn tune_command(slug: &str, args: &TuneArgs) -> String {
    let mut command = format!(
        "printplay tune {slug} --params {} --target {} --budget {} --seed {} --bots {} --max-moves {}",
        args.params,
        args.target,
        args.budget,
        args.run.seed,
        args.run.bots.join(","),
        args.run.max_moves
    );
    if let Some(p) = args.run.players {
        command.push_str(&format!(" --players {p}"));
    }
    for v in &args.run.variants {
        command.push_str(&format!(" --variant {v}"));
    }
    command
}

fn tune(data: &Path, args: TuneArgs) -> Exit {
    use crate::simulate::tune::{Target, TuneOptions, parse_params, tune};
    let game = match load_one(data, &args.run.game) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let prepared = (|| {
        let mut sim = sim_options(&args.run)?;
        sim.progress = true;
        let params = parse_params(&args.params)?;
        let target = Target::parse(&args.target)?;
        if args.budget == 0 {
            return Err("--budget takes a number of games from 1".to_string());
        }
        let shard = shard_of(args.shard.as_deref(), args.shard_count)?;
        let opts = TuneOptions {
            sim,
            params,
            target,
            budget: args.budget,
        };
        Ok((opts, shard))
    })();
    let (opts, shard) = match prepared {
        Ok(o) => o,
        Err(e) => return usage(e),
    };
    let command = tune_command(&game.slug, &args);
    if args.shard.is_some() {
        let part = match crate::simulate::tune::tune_shard(&game, &opts, shard, &command) {
            Ok(p) => p,
            Err(e) => return run_failed(e),
        };
        print!("{}", part.text());
        if let Some(path) = &args.json
            && let Err(e) = crate::output::write_named(path, part.to_json().as_bytes())
        {
            return usage(format!("{}: {e}", path.display()));
        }
        return Exit::Ok;
    }
    let file = match tune(&game, &opts) {
        Ok(f) => f,
        Err(e) => return run_failed(e),
    };
    print!("{}", file.text());
    if let Some(path) = &args.json
        && let Err(e) = crate::output::write_named(path, file.to_json().as_bytes())
    {
        return usage(format!("{}: {e}", path.display()));
    }
    if args.no_report {
        return Exit::Ok;
    }
    match crate::simulate::html::write_tuning(&args.out, &file, &command) {
        Ok(paths) => {
            for p in paths {
                eprintln!("wrote {}", p.display());
            }
            Exit::Ok
        }
        Err(e) => usage(format!(
            "writing the report under {}: {e}",
            args.out.display()
        )),
    }
}

fn analyze(data: &Path, args: AnalyzeArgs) -> Exit {
    use crate::games::settlers_aztecs::{Request, analysis_text};
    let game = match load_one(data, &args.game) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    // An unknown reading is refused with the list of them all, as `simulate` refuses one.
    let variants = parse_variants(&args.variants).and_then(|v| {
        crate::simulate::check_choices(&game, crate::games::settlers_aztecs::VARIANTS, &v)
            .map(|()| v)
    });
    let variants = match variants {
        Ok(v) => v,
        Err(e) => return usage(e),
    };
    let request = Request {
        deck: args.deck,
        pray: args.pray,
        blessings: args.blessings,
        stored: args.stored,
        colours: args.colours,
        variants,
        samples: args.samples,
        seed: args.seed,
    };
    match analysis_text(&game, &request) {
        Ok(text) => {
            print!("{text}");
            Exit::Ok
        }
        Err(e) => usage(e),
    }
}

fn replay_moves(data: &Path, slug: &str, file: &Path, observer: Option<&str>) -> Exit {
    let game = match load_one(data, slug) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let transcript = match crate::play::Transcript::read(file) {
        Ok(t) if t.game == slug => t,
        Ok(t) => {
            return usage(format!(
                "{}: a game of {}, not {slug}",
                file.display(),
                t.game
            ));
        }
        Err(e) => return usage(e),
    };
    match crate::play::replay_transcript(&game, &transcript, observer) {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            Exit::Ok
        }
        Err(e) => run_failed(e),
    }
}

fn play(data: &Path, args: PlayArgs) -> Exit {
    use crate::play::{PlayOptions, Transcript, play};
    let game = match load_one(data, &args.game) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let opts = match &args.resume {
        Some(file) => Transcript::read(file).and_then(|t| {
            if t.game == args.game {
                Ok(PlayOptions {
                    transcript: t,
                    save: None,
                })
            } else {
                Err(format!(
                    "{}: a game of {}, not {}",
                    file.display(),
                    t.game,
                    args.game
                ))
            }
        }),
        None => new_play(&game, &args),
    };
    let mut opts = match opts {
        Ok(o) => o,
        Err(e) => return usage(e),
    };
    opts.save = args.save.clone().or(args.resume.clone());
    let stdin = std::io::stdin();
    match play(&game, opts, &mut stdin.lock(), &mut Stdout) {
        Ok(_) => Exit::Ok,
        Err(e) => run_failed(e),
    }
}

fn new_play(game: &Game, args: &PlayArgs) -> Result<crate::play::PlayOptions, String> {
    let seat =
        match args.seat.as_str() {
            "all" => None,
            n => Some(
                n.parse::<usize>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                    format!("--seat takes a seat number from 1 or `all`, not `{n}`")
                })? - 1,
            ),
        };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let run = RunArgs {
        game: args.game.clone(),
        seed,
        players: args.players,
        bots: args.bots.clone(),
        variants: args.variants.clone(),
        max_moves: crate::simulate::DEFAULT_MAX_MOVES,
    };
    let sim = sim_options(&run)?;
    let free = args.free || !crate::engine::free::has_rules(game);
    // The free table has no rules for a bot to follow: the others play at random.
    let bots = if free && args.bots.is_empty() {
        vec!["random".to_string()]
    } else {
        args.bots.clone()
    };
    let mut opts =
        crate::play::PlayOptions::new_game(game, seed, sim.players, seat, &bots, sim.variants)?;
    opts.transcript.free = args.free;
    Ok(opts)
}

fn serve(data: &Path, args: &ServeArgs, first: Option<crate::serve::NewTable>) -> Exit {
    let opts = crate::serve::ServeOptions {
        data: data.to_path_buf(),
        host: args.host.clone(),
        port: args.port,
        db: args.db.clone(),
        budget: crate::serve::think::Budget {
            iterations: args.bot_iterations,
            time: std::time::Duration::from_secs_f64(args.bot_seconds),
        },
        expire_days: args.expire_days,
    };
    match crate::serve::serve(opts, first, &mut Stdout) {
        Ok(()) => Exit::Ok,
        Err(crate::serve::ServeError::Data(e)) => {
            eprintln!("error: {e}");
            Exit::DataProblems
        }
        Err(crate::serve::ServeError::Other(e)) => usage(e),
    }
}

fn table(data: &Path, args: TableArgs) -> Exit {
    let game = match load_one(data, &args.game) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let req = table_request(&game, &args);
    match req {
        Ok(req) => serve(data, &args.server, Some(req)),
        Err(e) => usage(e),
    }
}

fn playtests(data: &Path, slug: &str, db: &Path, json: Option<&Path>, csv: Option<&Path>) -> Exit {
    use crate::serve::store::Store;
    let stdout = |p: Option<&Path>| p.is_some_and(|p| p == Path::new("-"));
    if stdout(json) && stdout(csv) {
        return usage("--json - and --csv - would both write to standard output; give one a file");
    }
    let game = match load_one(data, slug) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    if !db.exists() {
        return usage(format!("{}: no tables stored here yet", db.display()));
    }
    let tables = match crate::serve::store::Sqlite::open(db).and_then(|store| store.of_game(slug)) {
        Ok(t) => t,
        Err(e) => return usage(e),
    };
    if json.is_some() || csv.is_some() {
        let export = match crate::serve::playtests::export(&game, &tables) {
            Ok(e) => e,
            Err(e) => return run_failed(e),
        };
        let json_text = match serde_json::to_string_pretty(&export.json) {
            Ok(t) => t + "\n",
            Err(e) => return usage(e),
        };
        for (path, text) in [(json, json_text), (csv, export.csv)] {
            let Some(path) = path else { continue };
            if stdout(Some(path)) {
                print!("{text}");
            } else if let Err(e) = crate::output::write_atomic(path, text.as_bytes()) {
                return usage(format!("{}: {e}", path.display()));
            }
        }
    }
    if stdout(json) || stdout(csv) {
        return Exit::Ok;
    }
    match crate::serve::playtests::summarise(&game, &tables) {
        Ok(s) => {
            print!("{}", s.text());
            Exit::Ok
        }
        Err(e) => run_failed(e),
    }
}

/// `printplay table`'s flags as a table to make: `--seats` by seat name or number.
fn table_request(game: &Game, args: &TableArgs) -> Result<crate::serve::NewTable, String> {
    if args.players == Some(0) {
        return Err("--players takes a number of seats from 1".into());
    }
    let free = args.free || !crate::engine::free::has_rules(game);
    let (_, min, max) = crate::serve::live::seating(game, 0, args.free)?;
    // A free table seats as many as `--seats` names, when `--players` does not say.
    let players = match args.players {
        Some(n) => n,
        None if free => args.seats.len().clamp(min, max),
        None => min,
    };
    let (names, _, _) = crate::serve::live::seating(game, players, args.free)?;
    let mut seats = vec![crate::play::PERSON.to_string(); players];
    let mut named = vec![false; players];
    for pair in &args.seats {
        let (seat, who) = pair
            .split_once('=')
            .ok_or_else(|| format!("--seats takes NAME=person or NAME=BOT, not `{pair}`"))?;
        let seat = seat.trim();
        let index = names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(seat))
            .or_else(|| {
                seat.parse::<usize>()
                    .ok()
                    .filter(|n| (1..=players).contains(n))
                    .map(|n| n - 1)
            })
            // A free table's seats have no roles: another name takes the next seat.
            .or_else(|| free.then(|| named.iter().position(|n| !n)).flatten())
            .ok_or_else(|| {
                format!(
                    "--seats: no seat `{seat}` (the seats: {}, or numbers 1 to {players})",
                    names.join(", ")
                )
            })?;
        seats[index] = who.trim().to_string();
        named[index] = true;
    }
    Ok(crate::serve::NewTable {
        game: game.slug.clone(),
        players,
        seats,
        seed: args.seed,
        variants: parse_variants(&args.variants)?,
        free: args.free,
    })
}

/// A run that stopped: exit 1 when the game's data caused it ([`crate::engine::Cause`]), else 2.
fn run_failed(e: crate::engine::RunError) -> Exit {
    if e.cause == crate::engine::Cause::Usage {
        return usage(e);
    }
    eprintln!("error: {e}");
    Exit::DataProblems
}

fn replay(data: &Path, args: ReplayArgs) -> Exit {
    let game = match load_one(data, &args.run.game) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let observer = args.observer.as_deref().filter(|_| !args.omniscient);
    let index = match args.number.unwrap_or(1).checked_sub(1) {
        Some(index) => index,
        None => return usage("--game counts games from 1, as `simulate --csv` numbers them"),
    };
    let replay = sim_options(&args.run)
        .map_err(crate::engine::RunError::from)
        .and_then(|opts| crate::simulate::replay(&game, &opts, index, observer));
    let replay = match replay {
        Ok(r) => r,
        Err(e) => return run_failed(e),
    };
    match args.json.as_deref() {
        None => print!("{}", replay.text()),
        Some(p) if p == Path::new("-") => print!("{}", replay.to_json()),
        Some(path) => {
            if let Err(e) = crate::output::write_named(path, replay.to_json().as_bytes()) {
                return usage(format!("{}: {e}", path.display()));
            }
        }
    }
    Exit::Ok
}

fn variants(data: &Path, names: &[String]) -> Exit {
    let (games, problems) = pipeline::load_checked_games(data, names);
    if !problems.is_empty() {
        return report(&problems);
    }
    let mut shown = 0;
    for game in games
        .iter()
        .filter(|g| !names.is_empty() || g.info.engine.is_some())
    {
        match crate::simulate::variants(game) {
            Ok(list) => {
                if shown > 0 {
                    println!();
                }
                print!("{}", crate::simulate::variants_text(game, &list));
                shown += 1;
            }
            Err(e) => return usage(e),
        }
    }
    Exit::Ok
}

fn merge(args: &[String], json: Option<&Path>, out: Option<&Path>) -> Exit {
    use crate::simulate::{SimFile, merge_files, shard_files};
    let files = match shard_files(args) {
        Ok(f) => f,
        Err(e) => return usage(e),
    };
    let mut texts = Vec::new();
    for f in &files {
        match std::fs::read_to_string(f) {
            Ok(t) => texts.push((f.display().to_string(), t)),
            Err(e) => return usage(format!("{}: {e}", f.display())),
        }
    }
    let tuning = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .is_ok_and(|v| v["format"] == crate::simulate::tune::SHARD_FORMAT)
    };
    if texts.first().is_some_and(|(_, t)| tuning(t)) {
        return merge_tune(&texts, json, out);
    }
    let mut parsed = Vec::new();
    for (name, text) in texts {
        match SimFile::from_json(&text, &name) {
            Ok(s) => parsed.push((name, s)),
            Err(e) => return usage(e),
        }
    }
    let merged = match merge_files(&parsed) {
        Ok(m) => m,
        Err(e) => return usage(e),
    };
    println!("{}", merged.text());
    if let Some(path) = json
        && let Err(e) = crate::output::write_named(path, merged.to_json().as_bytes())
    {
        return usage(format!("{}: {e}", path.display()));
    }
    if let Some(out) = out {
        match crate::simulate::html::write_simulation(out, &merged) {
            Ok(paths) => paths
                .iter()
                .for_each(|p| eprintln!("wrote {}", p.display())),
            Err(e) => return usage(format!("writing the report under {}: {e}", out.display())),
        }
    }
    Exit::Ok
}

/// `merge` of the shards of a tuning run.
fn merge_tune(texts: &[(String, String)], json: Option<&Path>, out: Option<&Path>) -> Exit {
    use crate::simulate::tune::{TuneShard, merge_shards};
    let mut parsed = Vec::new();
    for (name, text) in texts {
        match TuneShard::from_json(text, name) {
            Ok(s) => parsed.push((name.clone(), s)),
            Err(e) => return usage(e),
        }
    }
    let (file, command) = match merge_shards(&parsed) {
        Ok(m) => m,
        Err(e) => return usage(e),
    };
    print!("{}", file.text());
    if let Some(path) = json
        && let Err(e) = crate::output::write_named(path, file.to_json().as_bytes())
    {
        return usage(format!("{}: {e}", path.display()));
    }
    if let Some(out) = out {
        match crate::simulate::html::write_tuning(out, &file, &command) {
            Ok(paths) => paths
                .iter()
                .for_each(|p| eprintln!("wrote {}", p.display())),
            Err(e) => return usage(format!("writing the report under {}: {e}", out.display())),
        }
    }
    Exit::Ok
}

/// The names `printplay reference` takes, in the order of [`crate::reference::Page::all`].
const REFERENCE_PAGES: [&str; 7] = [
    "commands",
    "game",
    "components",
    "rules",
    "rules-meta",
    "sheet",
    "functions",
];

fn reference(page: Option<&str>, out: Option<&Path>) -> Exit {
    use clap::CommandFactory;
    let cli = Cli::command();
    match (page, out) {
        (_, Some(dir)) => match crate::reference::write_all(dir, &cli) {
            Ok(paths) => {
                paths.iter().for_each(|p| println!("wrote {}", p.display()));
                Exit::Ok
            }
            Err(p) => report(&[p]),
        },
        (Some(name), None) => {
            let pages = crate::reference::Page::all();
            match REFERENCE_PAGES.iter().position(|p| *p == name) {
                Some(i) => {
                    print!("{}", pages[i].markdown(&cli));
                    Exit::Ok
                }
                None => usage(format!("no reference page `{name}`")),
            }
        }
        (None, None) => usage("name a page or give --out DIR"),
    }
}

fn schema(kind: Option<crate::schema::FileKind>, out: Option<&Path>) -> Exit {
    match (kind, out) {
        (_, Some(dir)) => match crate::schema::write_all(dir) {
            Ok(paths) => {
                paths.iter().for_each(|p| println!("wrote {}", p.display()));
                Exit::Ok
            }
            Err(p) => report(&[p]),
        },
        (Some(kind), None) => {
            println!("{}", crate::schema::json_schema(kind));
            Exit::Ok
        }
        (None, None) => usage("name a file kind or give --out DIR"),
    }
}

/// `export-csv` and `export-xlsx`: a deck's cards as a sheet, to a file or standard output.
fn export(data: &Path, slug: &str, deck: &str, out: Option<&Path>, xlsx: bool) -> Exit {
    use std::io::{IsTerminal, Write};
    if xlsx && out.is_none() && std::io::stdout().is_terminal() {
        return usage(
            "a workbook is not text: give `--out FILE.xlsx`, or send the output to a file",
        );
    }
    let game = match load_one(data, slug) {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let bytes = match xlsx {
        true => crate::model::sheet::export_xlsx(&game, deck),
        false => crate::model::sheet::export_csv(&game, deck).map(String::into_bytes),
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => return usage(e),
    };
    match out {
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(&bytes).and_then(|()| stdout.flush()) {
                Ok(()) => Exit::Ok,
                Err(e) => report(&[Problem::io_write(Path::new("standard output"), e)]),
            }
        }
        Some(path) => match crate::output::write_named(path, &bytes) {
            Ok(()) => {
                eprintln!("wrote {}", path.display());
                Exit::Ok
            }
            Err(e) => report(&[Problem::io(path, e)]),
        },
    }
}

fn check(data: &Path, names: &[String], provenance: bool) -> Exit {
    let (games, mut problems) = load_games(data, names);
    for game in &games {
        let crate::check::Report {
            problems: found,
            warnings,
        } = crate::check::check_game_report(game);
        problems.extend(warnings);
        if found.is_empty() {
            println!(
                "{}: ok ({} invariants hold)",
                game.slug,
                game.invariants.len()
            );
        } else {
            println!(
                "{}: {}",
                game.slug,
                crate::messages::count_of(found.len(), "problem", "problems")
            );
        }
        problems.extend(found);
        if provenance {
            print_provenance(game);
        }
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
    pdf: bool,
    out: Option<PathBuf>,
) -> Exit {
    use crate::rules::{Assets, Format};
    // As `build` does: a game that fails its check is not written, and what was there stays.
    let game = match pipeline::load_checked(data, slug) {
        Ok(g) => g,
        Err(found) => {
            println!(
                "{slug}: not written, {}",
                crate::messages::count_of(found.len(), "problem", "problems")
            );
            return report(&found);
        }
    };
    let game = &game;
    let assets = match Assets::load_default() {
        Ok(a) => a,
        Err(p) => return report(&[p]),
    };
    let available = crate::rules::languages(game);
    if let Some(l) = &lang
        && !available.contains(l)
    {
        // A language the game has no rules text for is a wrong argument: said once, exit 2.
        return usage(format!(
            "{}: no rules in `{l}`; its languages: {}",
            game.slug,
            available.join(", ")
        ));
    }
    let langs = lang.map_or(available, |l| vec![l]);
    let formats = format.map_or_else(|| vec![Format::Html, Format::Md], |f| vec![f]);
    let dir = out
        .unwrap_or_else(|| PathBuf::from("output"))
        .join(&game.slug);
    let written =
        crate::rules::write(game, &langs, &formats, &assets, &dir).and_then(|mut paths| {
            if pdf {
                paths.extend(crate::rules::pdf::write(game, &langs, &assets, &dir)?);
            }
            Ok(paths)
        });
    match written {
        Ok(paths) => {
            paths.iter().for_each(|p| println!("wrote {}", p.display()));
            Exit::Ok
        }
        Err(ps) => report(&ps),
    }
}

/// Prints every problem to stderr and turns them into an exit status.
pub fn report(problems: &[Problem]) -> Exit {
    let colour = std::io::stderr().is_terminal();
    for p in problems {
        eprint!("{}", p.render(colour));
    }
    let errors = problems.iter().filter(|p| !p.is_warning()).count();
    if errors == 0 {
        Exit::Ok
    } else {
        eprintln!(
            "{} found",
            crate::messages::count_of(errors, "problem", "problems")
        );
        if problems.iter().any(|p| p.kind == ProblemKind::Io) {
            Exit::Usage
        } else {
            Exit::DataProblems
        }
    }
}
