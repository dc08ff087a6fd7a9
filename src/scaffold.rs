//! `printplay new SLUG`: a new game folder that checks and builds as it is.

use std::path::{Path, PathBuf};

use crate::diag::Problem;
use crate::model::{COMPONENTS_FILE, GAME_FILE};

/// Files of a new game, relative to its folder.
fn starter_files(slug: &str) -> Vec<(&'static str, String)> {
    vec![
        (GAME_FILE, STARTER_GAME.replace("{slug}", slug)),
        (COMPONENTS_FILE, STARTER_COMPONENTS.to_string()),
        ("rules.en.toml", STARTER_RULES.to_string()),
    ]
}

/// The engines `printplay new --engine` can start a game with.
pub const STARTER_ENGINES: &[&str] = &[crate::engine::lua::ENGINE_ID];

/// The starter files with a rule engine: `lua` adds a tutorial `engine.lua` for the starter
/// game and names it in `game.toml`.
fn starter_files_with(slug: &str, engine: &str) -> Vec<(&'static str, String)> {
    let mut files = starter_files(slug);
    for (name, text) in &mut files {
        if *name == GAME_FILE {
            *text = text.replacen("[game]\n", &format!("[game]\nengine = \"{engine}\"\n"), 1);
        }
    }
    files.push((crate::engine::lua::SCRIPT_FILE, STARTER_LUA.to_string()));
    files
}

/// `printplay new SLUG --engine ENGINE`: a new game that also simulates out of the box.
pub fn new_game_with_engine(data: &Path, slug: &str, engine: &str) -> Result<PathBuf, Problem> {
    if !STARTER_ENGINES.contains(&engine) {
        return Err(Problem::io(
            Path::new(engine),
            format!(
                "no starter engine `{engine}` (known: {})",
                STARTER_ENGINES.join(", ")
            ),
        ));
    }
    create(data, slug, starter_files_with(slug, engine))
}

/// Creates `data/SLUG/` with starter files; refuses to touch an existing folder.
pub fn new_game(data: &Path, slug: &str) -> Result<PathBuf, Problem> {
    create(data, slug, starter_files(slug))
}

fn create(data: &Path, slug: &str, files: Vec<(&'static str, String)>) -> Result<PathBuf, Problem> {
    let valid = !slug.is_empty()
        && slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !slug.starts_with('-');
    if !valid {
        return Err(Problem::io(
            Path::new(slug),
            "a slug is lower-case letters, digits and dashes",
        ));
    }
    let dir = data.join(slug);
    if dir.exists() {
        return Err(Problem::io(
            &dir,
            "already exists; printplay new never overwrites a game",
        ));
    }
    let tmp = data.join(format!(".{slug}.new"));
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(&tmp)?;
        for (name, text) in &files {
            std::fs::write(tmp.join(name), text)?;
        }
        std::fs::rename(&tmp, &dir)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_dir_all(&tmp);
        Problem::io(&dir, e)
    })?;
    Ok(dir)
}

const STARTER_GAME: &str = r#"# A new printplay game. `printplay schema` describes every key.
[game]
name = "{slug}"
summary = "A new game: replace this line with a one-line pitch."
players = { min = 2, max = 4 }
designer = "Your name"
rulebook = "rules.md"

[params.hand_size]
value = 5
source = { reconstructed = "starter value; replace it with your own" }
doc = "Cards each player holds at the end of a turn."

# Count-style invariants: `printplay check` proves them on every change.
[[invariant]]
id = "deck-size"
rule = "The deck holds 12 cards"
section = "Components"
decks = ["deck"]
equals = 12

[[invariant]]
id = "each-suit"
rule = "Each suit has 4 cards"
section = "Components"
decks = ["deck"]
group_by = "suit"
groups = 3
equals = 4
"#;

const STARTER_COMPONENTS: &str = r##"# Symbols carry a colour and a mark, so that a greyscale print still plays.
[[symbol]]
id = "sun"
group = "suit"
name = "Sun"
colour = "#e0a020"
mark = "circle"

[[symbol]]
id = "moon"
group = "suit"
name = "Moon"
colour = "#3a5fa8"
mark = "diamond"

[[symbol]]
id = "star"
group = "suit"
name = "Star"
colour = "#a03a3a"
mark = "star"

[[deck]]
id = "deck"
name = "Main deck"
size = "poker"
template = "basic-card"
back = { template = "basic-back", title = "My game", colour = "#2f3e46" }
counts = { reconstructed = "starter deck: four of each suit" }

[deck.fields.suit]
type = "symbol"
group = "suit"
label = "Suit"
source = { reconstructed = "starter value" }

[deck.fields.value]
type = "int"
label = "Value"
min = 1
max = 9
source = { reconstructed = "starter value" }

[[deck.card]]
id = "sun-low"
name = "Morning"
count = 2
text = "Play this card to take the lead."
fields = { suit = "sun", value = 1 }

[[deck.card]]
id = "sun-high"
name = "Noon"
count = 2
text = "Worth the most in a sun round."
fields = { suit = "sun", value = 5 }

[[deck.card]]
id = "moon-low"
name = "New moon"
count = 2
text = "Swap this card with one in the middle."
fields = { suit = "moon", value = 2 }

[[deck.card]]
id = "moon-high"
name = "Full moon"
count = 2
text = "Every player draws one card."
fields = { suit = "moon", value = 6 }

[[deck.card]]
id = "star-low"
name = "Spark"
count = 2
text = "Look at the top card of the deck."
fields = { suit = "star", value = 3 }

[[deck.card]]
id = "star-high"
name = "Comet"
count = 2
text = "Discard a card, then draw two."
fields = { suit = "star", value = 7 }
"##;

/// A tutorial rule engine for the starter game (`--engine lua`).
const STARTER_LUA: &str = include_str!("scaffold/engine.lua");

/// The rules reference's prose: Markdown with {placeholders} read from the data.
const STARTER_RULES: &str = r#"# The rules reference in English. Every number that lives in the data is a {placeholder}:
# change the data and the reference follows. `printplay rules SLUG` writes it.

overview = """
Replace this with what your game is about, in a paragraph or two.
"""

goal = """
Say how a player wins. The deck holds {deck.deck.cards card} in
{deck.deck.distinct.suit} suits.
"""

setup = """
1. Shuffle the deck.
2. Deal {params.hand_size card} to each player.
"""

turn = """
Describe a turn: its steps and every action.
"""

end = """
Say when the game ends and how it is scored.
"""

quick = """
- **Hand:** {params.hand_size card}.
- **Deck:** {deck.deck.cards card}.
"""

[components."deck.deck"]
purpose = "The cards you play: {deck.deck.designs} designs, {deck.deck.min.value} to {deck.deck.max.value} in value."
"#;
