//! The Search's rule engine: criminal (seat 0) against police (seat 1).
//!
//! Every number comes from the model through [`Rules`]. A state is a fixed-size value (no heap
//! besides the shared rule table), so cloning is cheap and play does not allocate except for
//! the action list the [`State`] trait returns.
//!
//! Randomness (reshuffles, the random discards of Questioning Witnesses and Anonymous in the
//! Crowd) comes from a ChaCha generator inside the state, seeded from the game's seed; the
//! state therefore never sits at a chance node. [`State::determinize`] resamples everything the
//! observer cannot see and reseeds that generator, so a bot cannot foresee a shuffle.

use std::ops::ControlFlow::{self, Break, Continue};
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::layout::{DIRECTIONS, Grid, ORTHOGONAL, random_layout, validate};
use super::rules::{
    Effect, Icon, MAX_BARRICADES, MAX_CARDS, MAX_KINDS, MAX_OFFICERS, MAX_STEPS, Rules, Side,
};
use crate::engine::readings::ReadingPoint;
use crate::engine::view::Observer;
use crate::engine::{Bot, CardUse, Config, Engine, Player, State, Turn, Variant};
use crate::model::Game;

/// A pawn or barricade not yet on the map.
const NOWHERE: u8 = u8::MAX;
/// A wounded officer.
const HOSPITAL: u8 = u8::MAX - 1;

/// The rulebook's ambiguities, each with the reading the engine defaults to first.
pub static VARIANTS: &[Variant] = &[
    Variant {
        name: "criminal-move",
        values: &["optional", "required"],
        doc: "A turn's actions are all optional ('any one action or all of them'); `required` makes the criminal move whenever a move is open.",
    },
    Variant {
        name: "scene-marking",
        values: &["pass-through", "end-of-move"],
        doc: "The criminal 'visits' a crime scene: by default also when passing over it during a two-card move; `end-of-move` marks only where the pawn stops.",
    },
    Variant {
        name: "wound-win",
        values: &["all-at-once", "cumulative"],
        doc: "'Wounding all 4 officers': by default all of them in the hospital at the same time (reinforced officers can be wounded again); `cumulative` counts every wound, so reinforcements do not undo one.",
    },
    Variant {
        name: ONE_STEP_AHEAD,
        values: &[TWO_OR_DIAGONAL, DIAGONAL_WITHIN_TWO],
        doc: "One Step Ahead moves 'across two map cards ... instead of one' and 'may move one card diagonally': by default exactly two orthogonal steps or one diagonal step; `diagonal-within-two` makes it exactly two steps, one of which may be diagonal. The printed card states the default reading.",
    },
    Variant {
        name: "stacking",
        values: &["shared", "exclusive"],
        doc: "The rulebook keeps the criminal off police and barricades but says nothing of officers and barricades sharing a card; by default they may (a reinforced officer joins one on the station); `exclusive` allows one pawn or barricade per card, save that reinforcement.",
    },
    Variant {
        name: "police-on-scenes",
        values: &["allowed", "forbidden"],
        doc: "Setup keeps officers off crime scenes; by default they may enter them later; `forbidden` keeps them off all game.",
    },
    Variant {
        name: "enclosed-start",
        values: &["forbidden", "allowed"],
        doc: "Setup lets the criminal take 'any remaining non crime scene map card'; by default not one already surrounded (which would lose before the first turn); `allowed` permits it.",
    },
    Variant {
        name: "empty-play",
        values: &["allowed", "forbidden"],
        doc: "A card may be played for no effect, only to discard it (by default); `forbidden` allows a play only when the card does something.",
    },
    Variant {
        name: "passing",
        values: &["must-act", "allowed"],
        doc: "'Players may do any one action or all of them': by default a turn must hold a move or a card play whenever one is possible, so the sides cannot pass turn after turn; `allowed` lets a turn be only the draw.",
    },
    Variant {
        name: ONE_STEP_AHEAD_RETURN,
        values: &["allowed", "forbidden"],
        doc: "One Step Ahead moves 'across two map cards': the card does not say whether the two may be the same card there and back (C3 -> C4 -> C3, which visits C4 and ends where it started); by default they may, when the move marks a crime scene on the way; `forbidden` makes the move end on another card. The printed card states the default reading.",
    },
    Variant {
        name: RESHUFFLE,
        values: &["when-empty", "at-next-draw"],
        doc: "'Play an action card, discarding it beside the player's draw deck. When the draw deck is exhausted, shuffle the discard deck and create a new draw deck.' By default a side's discard pile becomes its draw pile the moment that pile is empty, so cards played after that wait for the next reshuffle (when-empty); `at-next-draw` reshuffles only when a card must be drawn (or looked at) from the empty pile, taking in every card discarded meanwhile.",
    },
    Variant {
        name: POLICE_ON_CRIMINAL,
        values: &["allowed", "forbidden"],
        doc: "'The criminal player cannot move onto any map card occupied by a police pawn or on to any map card with a barricade marker on it', and Set Up a Barricade places one 'on any non crime scene map card': the book forbids the criminal only, so by default an officer may enter the criminal's card (by a move, Mistaken Identity or a reinforcement) and a barricade may go on it, neither counting toward surrounding the criminal (allowed); `forbidden` keeps officers and barricades off the criminal's card. With `stacking=exclusive` the card is closed either way: one pawn per card.",
    },
];

/// When a side's discard pile becomes its draw pile.
pub const RESHUFFLE: &str = "reshuffle";
/// Whether officers and barricades may share the criminal's card.
pub const POLICE_ON_CRIMINAL: &str = "police-on-criminal";

/// Where the engine branches on each variant (see [`crate::engine::readings`]).
pub static READING_POINTS: &[ReadingPoint] = &[
    ReadingPoint {
        variant: "criminal-move",
        at: "engine.rs, may_end_turn",
        decides: "whether the criminal may end a turn without moving",
    },
    ReadingPoint {
        variant: "scene-marking",
        at: "engine.rs, follow",
        decides: "whether a crime scene passed over during a move is marked",
    },
    ReadingPoint {
        variant: "wound-win",
        at: "engine.rs, all_wounded",
        decides: "whether the officers must all be in the hospital at once",
    },
    ReadingPoint {
        variant: ONE_STEP_AHEAD,
        at: "engine.rs, criminal_paths",
        decides: "whether One Step Ahead's diagonal step is the whole move or one of two steps",
    },
    ReadingPoint {
        variant: "stacking",
        at: "engine.rs, placements, barricade_open and officer_open",
        decides: "whether officers and barricades may share a card",
    },
    ReadingPoint {
        variant: "police-on-scenes",
        at: "engine.rs, officer_open",
        decides: "whether officers may enter crime scenes after setup",
    },
    ReadingPoint {
        variant: "enclosed-start",
        at: "engine.rs, placements",
        decides: "whether the criminal may start on a card the officers surround",
    },
    ReadingPoint {
        variant: "empty-play",
        at: "engine.rs, plays",
        decides: "whether a card may be played for no effect",
    },
    ReadingPoint {
        variant: "passing",
        at: "engine.rs, may_end_turn",
        decides: "whether a turn may hold only the draw",
    },
    ReadingPoint {
        variant: ONE_STEP_AHEAD_RETURN,
        at: "engine.rs, criminal_paths",
        decides: "whether One Step Ahead may go there and back",
    },
    ReadingPoint {
        variant: RESHUFFLE,
        at: "engine.rs, apply_action and draw",
        decides: "whether the discard pile becomes the draw pile when the draw pile empties or at the next draw",
    },
    ReadingPoint {
        variant: POLICE_ON_CRIMINAL,
        at: "engine.rs, officer_open and barricade_open",
        decides: "whether officers and barricades may go on the criminal's card",
    },
];

/// Whether One Step Ahead may go out and back; the printed card's text states the reading.
pub const ONE_STEP_AHEAD_RETURN: &str = "one-step-ahead-return";

/// The One Step Ahead variant and its readings; the printed card's text names its reading.
pub const ONE_STEP_AHEAD: &str = "one-step-ahead";
pub const TWO_OR_DIAGONAL: &str = "two-or-diagonal";
pub const DIAGONAL_WITHIN_TWO: &str = "diagonal-within-two";

/// The readings chosen for one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Readings {
    pub criminal_must_move: bool,
    pub mark_at_end_only: bool,
    pub cumulative_wounds: bool,
    pub diagonal_within_two: bool,
    pub exclusive: bool,
    pub police_off_scenes: bool,
    pub enclosed_start: bool,
    pub no_empty_plays: bool,
    pub passing_allowed: bool,
    /// `one-step-ahead-return=forbidden`: One Step Ahead never ends where it started.
    pub fast_move_no_return: bool,
    /// `reshuffle=at-next-draw`: an empty draw pile is refilled only when a card is drawn.
    pub reshuffle_at_draw: bool,
    /// `police-on-criminal=forbidden`: no officer or barricade on the criminal's card.
    pub criminal_card_closed: bool,
}

impl Readings {
    pub fn from_config(config: &Config) -> Result<Readings, String> {
        for (name, value) in &config.variants {
            let v = VARIANTS
                .iter()
                .find(|v| v.name == name)
                .ok_or_else(|| format!("the-search has no variant `{name}`"))?;
            if !v.values.contains(&value.as_str()) {
                return Err(format!(
                    "variant `{name}` takes {}, not `{value}`",
                    v.values.join(" or ")
                ));
            }
        }
        let second = |i: usize| config.variant(&VARIANTS[i]) == VARIANTS[i].values[1];
        Ok(Readings {
            criminal_must_move: second(0),
            mark_at_end_only: second(1),
            cumulative_wounds: second(2),
            diagonal_within_two: second(3),
            exclusive: second(4),
            police_off_scenes: second(5),
            enclosed_start: second(6),
            no_empty_plays: second(7),
            passing_allowed: second(8),
            fast_move_no_return: second(9),
            reshuffle_at_draw: second(10),
            criminal_card_closed: second(11),
        })
    }
}

/// A move along map cards: a start and up to [`MAX_STEPS`] directions, three bits each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Path {
    pub from: u8,
    pub len: u8,
    dirs: u16,
}

impl Path {
    pub fn start(from: u8) -> Path {
        Path {
            from,
            len: 0,
            dirs: 0,
        }
    }

    fn then(self, dir: usize) -> Path {
        Path {
            from: self.from,
            len: self.len + 1,
            dirs: self.dirs | ((dir as u16) << (3 * self.len)),
        }
    }

    fn dir(self, i: u8) -> usize {
        usize::from((self.dirs >> (3 * i)) & 7)
    }

    /// The cards entered, in order (the start excluded).
    fn cells(self, grid: &Grid) -> impl Iterator<Item = u8> + '_ {
        (0..self.len).scan(self.from, move |at, i| {
            *at = grid.step[usize::from(*at)][self.dir(i)];
            Some(*at)
        })
    }

    fn end(self, grid: &Grid) -> u8 {
        self.cells(grid).last().unwrap_or(self.from)
    }
}

/// What a played card is aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// No choice to make, or the effect cannot happen (the card is discarded for nothing).
    None,
    Cell(u8),
    /// A barricade moved from one card to another.
    Shift {
        from: u8,
        to: u8,
    },
    /// A pawn's move: the criminal's (One Step Ahead) or an officer's (Mistaken Identity).
    Path(Path),
}

/// A player's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Setup: put the next officer, or the criminal, on a card.
    Place(u8),
    /// The move action: the pawn at the path's start follows it.
    Move(Path),
    /// Play a card of this kind (index into the side's kinds).
    Play { kind: u8, target: Target },
    /// Canvassing the District: the order to put the looked-at cards back in (a permutation
    /// index, top card first).
    Arrange(u8),
    /// One more wound of a card that wounds several officers: the officer on this card.
    Wound(u8),
    /// Draw back up and pass the turn.
    EndTurn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Place(Side),
    Main,
    Arrange { look: u8 },
    Wound { left: u8 },
    Over,
}

/// A pile of cards by kind index; the top of a draw pile is the last card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pile {
    cards: [u8; MAX_CARDS],
    len: u8,
}

impl Pile {
    const EMPTY: Pile = Pile {
        cards: [0; MAX_CARDS],
        len: 0,
    };

    fn as_slice(&self) -> &[u8] {
        &self.cards[..usize::from(self.len)]
    }

    fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.cards[..usize::from(self.len)]
    }

    fn push(&mut self, kind: u8) {
        self.cards[usize::from(self.len)] = kind;
        self.len += 1;
    }

    fn pop(&mut self) -> Option<u8> {
        (self.len > 0).then(|| {
            self.len -= 1;
            self.cards[usize::from(self.len)]
        })
    }

    /// Removes the card at `i`; order is kept (it matters for draw piles).
    fn remove(&mut self, i: usize) -> u8 {
        let kind = self.cards[i];
        self.cards.copy_within(i + 1..usize::from(self.len), i);
        self.len -= 1;
        kind
    }

    fn position(&self, kind: u8) -> Option<usize> {
        self.as_slice().iter().position(|&k| k == kind)
    }

    fn count(&self, kind: u8) -> usize {
        self.as_slice().iter().filter(|&&k| k == kind).count()
    }
}

/// One side's cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cards {
    hand: Pile,
    draw: Pile,
    discard: Pile,
    /// How many cards at the top of the draw pile their owner knows, in order (Canvassing).
    known_top: u8,
}

/// Counters reported at the end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Stats {
    turns: u32,
    wounds: u8,
    reinforcements: u8,
    barricades_placed: u8,
    barricades_moved: u8,
    sewer_trips: u8,
    fast_moves: u8,
    officers_moved_by_criminal: u8,
    cards_played: [u16; 2],
    /// Each side's reshuffles, and the cards each side drew.
    reshuffles: [u16; 2],
    drawn: [u16; 2],
}

/// The rules and the grid, shared by every state of a run.
#[derive(Debug, PartialEq, Eq)]
pub struct Table {
    pub rules: Rules,
    pub grid: Grid,
}

/// The Search's engine: the rule table read once from the model.
#[derive(Debug, Clone)]
pub struct SearchEngine {
    table: Arc<Table>,
}

impl SearchEngine {
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// A new game on a given map layout (one icon per card, row by row).
    pub fn new_game_on(
        &self,
        layout: &[Icon],
        config: &Config,
        rng: &mut ChaCha8Rng,
    ) -> Result<SearchState, String> {
        if config.players != 0 && config.players != 2 {
            return Err(format!(
                "the-search is for 2 players, not {}",
                config.players
            ));
        }
        let readings = Readings::from_config(config)?;
        let t = &self.table;
        validate(&t.grid, layout).map_err(|e| format!("{e} [rule: {}]", e.rule()))?;
        let mask = |icon: Icon| {
            (0..layout.len())
                .filter(|&c| layout[c] == icon)
                .fold(0u64, |m, c| m | 1 << c)
        };
        let mut state = SearchState {
            table: Arc::clone(t),
            readings,
            scenes: mask(Icon::CrimeScene),
            sewers: mask(Icon::Sewer),
            stations: mask(Icon::Station),
            criminal: NOWHERE,
            officers: [NOWHERE; MAX_OFFICERS],
            barricades: [NOWHERE; MAX_BARRICADES],
            marked: 0,
            police: 0,
            barricaded: 0,
            cards: [Side::Criminal, Side::Police].map(|s| new_cards(&t.rules, s, rng)),
            phase: Phase::Place(t.rules.first_to_place),
            to_act: t.rules.first_to_place,
            moves_left: 0,
            plays_left: 0,
            extra_draw: 0,
            moved: false,
            stats: Stats::default(),
            moves_played: 0,
            outcome: None,
            rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
        };
        state.skip_empty_setup();
        Ok(state)
    }
}

/// A shuffled deck and a dealt hand.
fn new_cards(rules: &Rules, side: Side, rng: &mut ChaCha8Rng) -> Cards {
    let mut draw = Pile::EMPTY;
    for (k, kind) in rules.kinds[side.index()].iter().enumerate() {
        for _ in 0..kind.count {
            draw.push(k as u8);
        }
    }
    draw.as_mut_slice().shuffle(rng);
    let mut hand = Pile::EMPTY;
    for _ in 0..rules.hand_size {
        if let Some(k) = draw.pop() {
            hand.push(k);
        }
    }
    Cards {
        hand,
        draw,
        discard: Pile::EMPTY,
        known_top: 0,
    }
}

impl Engine for SearchEngine {
    type State = SearchState;

    fn from_model(game: &Game) -> Result<Self, String> {
        let rules = Rules::read(game).map_err(|problems| {
            let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            lines.join("\n")
        })?;
        let problems = super::check::logical(game, &rules);
        if !problems.is_empty() {
            let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            return Err(lines.join("\n"));
        }
        let grid = Grid::new(rules.columns, rules.rows);
        Ok(SearchEngine {
            table: Arc::new(Table { rules, grid }),
        })
    }

    fn variants(&self) -> &'static [Variant] {
        VARIANTS
    }

    fn reading_points(&self) -> &'static [ReadingPoint] {
        READING_POINTS
    }

    fn player_counts(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }

    fn new_game(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<SearchState, String> {
        let layout = random_layout(&self.table.rules, rng).map_err(|e| e.to_string())?;
        self.new_game_on(&layout, config, rng)
    }

    fn seat_names(&self, _players: usize) -> Option<Vec<String>> {
        Some(super::views::seat_names())
    }

    fn bot(&self, name: &str) -> Option<Box<dyn Bot<SearchState>>> {
        super::bots::by_name(name)
    }

    fn bot_names(&self) -> Vec<String> {
        vec![super::bots::HEURISTIC.to_string()]
    }
}

/// One game of The Search.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchState {
    table: Arc<Table>,
    readings: Readings,
    scenes: u64,
    sewers: u64,
    stations: u64,
    criminal: u8,
    officers: [u8; MAX_OFFICERS],
    barricades: [u8; MAX_BARRICADES],
    /// Crime scenes holding a marker.
    marked: u64,
    /// Cards with at least one officer, and cards with a barricade (kept in step by `refresh`).
    police: u64,
    barricaded: u64,
    cards: [Cards; 2],
    phase: Phase,
    to_act: Side,
    /// Move actions left this turn (pawn moves for the police).
    moves_left: u8,
    plays_left: u8,
    extra_draw: u8,
    moved: bool,
    stats: Stats,
    moves_played: u32,
    outcome: Option<(Side, &'static str)>,
    rng: ChaCha8Rng,
}

/// Where the end reasons are named.
pub const CRIME_SCENES: &str = "crime scenes";
pub const OFFICERS_WOUNDED: &str = "officers wounded";
pub const SURROUNDED: &str = "surrounded";

/// Read-only views for bots and tests.
impl SearchState {
    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn readings(&self) -> Readings {
        self.readings
    }

    pub fn side_to_act(&self) -> Option<Side> {
        (self.phase != Phase::Over).then_some(self.to_act)
    }

    /// The criminal's card, if placed.
    pub fn criminal(&self) -> Option<u8> {
        (self.criminal != NOWHERE).then_some(self.criminal)
    }

    /// The cards of officers on the map.
    pub fn officer_cells(&self) -> impl Iterator<Item = u8> + '_ {
        self.officers().iter().copied().filter(|&c| c < HOSPITAL)
    }

    pub fn wounded(&self) -> usize {
        self.officers().iter().filter(|&&c| c == HOSPITAL).count()
    }

    pub fn barricade_cells(&self) -> impl Iterator<Item = u8> + '_ {
        self.barricades().iter().copied().filter(|&c| c != NOWHERE)
    }

    pub fn scenes(&self) -> u64 {
        self.scenes
    }

    pub fn sewers(&self) -> u64 {
        self.sewers
    }

    pub fn stations(&self) -> u64 {
        self.stations
    }

    pub fn marked(&self) -> u64 {
        self.marked
    }

    /// Cards where officers stand.
    pub fn police_mask(&self) -> u64 {
        self.police
    }

    pub fn barricade_mask(&self) -> u64 {
        self.barricaded
    }

    /// Recomputes the cached masks after officers or barricades moved.
    fn refresh(&mut self) {
        self.police = self.officer_cells().fold(0, |m, c| m | 1 << c);
        self.barricaded = self.barricade_cells().fold(0, |m, c| m | 1 << c);
    }

    /// Cards the criminal cannot enter.
    pub fn blocked(&self) -> u64 {
        self.police_mask() | self.barricade_mask()
    }

    /// Orthogonal neighbours of a card the criminal could step to.
    pub fn exits(&self, cell: u8) -> u64 {
        self.table.grid.orthogonal[usize::from(cell)] & !self.blocked()
    }

    pub fn hand(&self, side: Side) -> &[u8] {
        self.cards[side.index()].hand.as_slice()
    }

    pub fn effect(&self, side: Side, kind: u8) -> Effect {
        self.table.rules.kinds[side.index()][usize::from(kind)].effect
    }

    /// Cards in a side's hand, draw pile and discard pile (for conservation checks).
    pub fn pile_sizes(&self, side: Side) -> (usize, usize, usize) {
        let c = &self.cards[side.index()];
        (
            usize::from(c.hand.len),
            usize::from(c.draw.len),
            usize::from(c.discard.len),
        )
    }

    /// Every card a side owns, counted by kind over hand, draw and discard piles.
    pub fn card_counts(&self, side: Side) -> Vec<usize> {
        let c = &self.cards[side.index()];
        (0..self.table.rules.kinds[side.index()].len() as u8)
            .map(|k| c.hand.count(k) + c.draw.count(k) + c.discard.count(k))
            .collect()
    }

    /// Officers on the map, in the hospital and not yet placed.
    pub fn officer_places(&self) -> (usize, usize, usize) {
        let o = self.officers();
        let on_map = o.iter().filter(|&&c| c < HOSPITAL).count();
        let unplaced = o.iter().filter(|&&c| c == NOWHERE).count();
        (on_map, o.len() - on_map - unplaced, unplaced)
    }

    pub fn winner(&self) -> Option<Side> {
        self.outcome.map(|(s, _)| s)
    }

    fn officers(&self) -> &[u8] {
        &self.officers[..usize::from(self.table.rules.officers)]
    }

    fn barricades(&self) -> &[u8] {
        &self.barricades[..usize::from(self.table.rules.barricades)]
    }
}

/// Legal actions.
///
/// One walk over the legal actions, [`SearchState::each_legal`], feeds a [`Sink`] runs of
/// actions it can count without making them (the set bits of a mask, the open directions from
/// a card) and streams of actions it must walk to find (longer paths, orderings). Listing,
/// counting and picking the k-th action all go through it, so they agree on the order, and a
/// random move costs a count and one pick instead of a full list.
impl SearchState {
    /// The legal actions, appended to `out` (which is cleared first).
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let _ = self.each_legal(&mut Collect(out));
    }

    /// How many legal actions there are: [`SearchState::each_legal`] counted from the masks,
    /// walking paths only where crime scenes could tell two paths to one card apart.
    pub fn legal_count(&self) -> usize {
        match self.phase {
            Phase::Over => 0,
            Phase::Place(side) => ones(self.placements(side)),
            Phase::Arrange { look } => {
                let mut count = Count(0);
                let _ = self.arrangements(look, &mut count);
                count.0
            }
            Phase::Wound { left: _ } => ones(self.police_mask()),
            Phase::Main => self.groups().total(),
        }
    }

    /// A turn's legal actions in their groups: moves, the plays of each kind in hand, ending
    /// the turn.
    fn groups(&self) -> Groups {
        let mut g = Groups {
            moves: 0,
            kinds: [(0, 0); MAX_KINDS],
            kinds_len: 0,
            end_turn: self.may_end_turn(),
        };
        if self.moves_left > 0 {
            g.moves = self.move_count();
        }
        if self.plays_left > 0 {
            let mut seen = 0u32;
            for &kind in self.cards[self.to_act.index()].hand.as_slice() {
                if seen & (1 << kind) == 0 && g.kinds_len < MAX_KINDS {
                    seen |= 1 << kind;
                    g.kinds[g.kinds_len] = (kind, self.play_count(kind));
                    g.kinds_len += 1;
                }
            }
        }
        g
    }

    /// The `k`-th action of a turn, making only the group that holds it.
    fn nth_in_groups(&self, g: &Groups, k: usize) -> Option<Action> {
        let mut pick = Pick {
            left: k,
            found: None,
        };
        if pick.left < g.moves {
            let _ = self.moves(&mut pick);
            return pick.found;
        }
        pick.left -= g.moves;
        for &(kind, plays) in &g.kinds[..g.kinds_len] {
            if pick.left < plays {
                if self.target_count(kind) == 0 {
                    return Some(Action::Play {
                        kind,
                        target: Target::None,
                    });
                }
                let _ = self.targets(kind, &mut pick);
                return pick.found;
            }
            pick.left -= plays;
        }
        (g.end_turn && pick.left == 0).then_some(Action::EndTurn)
    }

    fn move_count(&self) -> usize {
        let distance = self.table.rules.move_distance;
        match self.to_act {
            Side::Criminal => self.criminal_path_count(distance, 0, false),
            Side::Police => self.officer_move_count(distance),
        }
    }

    /// How many plays a card of `kind` offers: one per target, or a single play for no
    /// effect when it has none (unless `empty-play=forbidden`).
    fn play_count(&self, kind: u8) -> usize {
        match self.target_count(kind) {
            0 if self.readings.no_empty_plays => 0,
            0 => 1,
            n => n,
        }
    }

    /// How many targets [`SearchState::targets`] gives a card of `kind`.
    fn target_count(&self, kind: u8) -> usize {
        match self.effect(self.to_act, kind) {
            Effect::OpponentDiscard { .. }
            | Effect::ArrangeTop { .. }
            | Effect::ExtraDraw { .. } => 1,
            Effect::Barricade => {
                let open = self.barricade_open();
                if self.barricades().contains(&NOWHERE) {
                    ones(open)
                } else {
                    ones(self.barricade_mask()) * ones(open)
                }
            }
            Effect::Reinforce if self.wounded() > 0 => ones(self.stations & self.police_mask()),
            Effect::Reinforce => 0,
            Effect::MoveOfficer { distance } => self.officer_move_count(distance),
            Effect::FastMove { steps, diagonal } if self.moves_left > 0 => {
                self.criminal_path_count(steps, diagonal, true)
            }
            Effect::FastMove { .. } => 0,
            Effect::WoundOfficer { .. } => ones(self.police_mask()),
            Effect::SewerTravel if self.sewers & self.criminal_mask() != 0 => {
                ones(self.sewers & !self.blocked() & !self.criminal_mask())
            }
            Effect::SewerTravel => 0,
        }
    }

    /// How many paths [`SearchState::officer_paths`] gives, over every officer.
    fn officer_move_count(&self, steps: u8) -> usize {
        let grid = &self.table.grid;
        bits(self.police_mask())
            .map(|from| {
                let open = self.officer_open(from);
                let ends = if steps == 1 {
                    grid.orthogonal[usize::from(from)] & open
                } else {
                    grid.reach(&grid.orthogonal, from, steps, open) & !(1 << from)
                };
                ones(ends)
            })
            .sum()
    }

    /// How many paths [`SearchState::criminal_paths`] gives. Paths are told apart by their
    /// end and the unmarked crime scenes they pass over. When no path passes over one before
    /// its end (or only the end marks), the ends alone tell them apart: the count is the cards
    /// within reach. A two-step move whose first step may be a crime scene is counted by
    /// [`SearchState::two_step_paths`]; anything else (a diagonal step anywhere in the move,
    /// longer moves over crime scenes) is walked.
    fn criminal_path_count(&self, steps: u8, diagonal: u8, card: bool) -> usize {
        let grid = &self.table.grid;
        let c = self.criminal;
        let open = self.all_cells() & !self.blocked();
        let diagonal = if card { diagonal } else { 0 };
        if card && self.readings.diagonal_within_two {
            return self.walked_criminal_paths(steps, diagonal, card);
        }
        // The usual move goes 1 to `steps` cards; the card's move exactly `steps`, or
        // exactly `diagonal` diagonal cards.
        let ends = if card {
            grid.reach_exactly(&grid.orthogonal, c, steps, open)
                | grid.reach_exactly(&grid.diagonal, c, diagonal, open)
        } else {
            grid.reach(&grid.orthogonal, c, steps, open)
        };
        let passed = grid.reach(&grid.orthogonal, c, steps.saturating_sub(1), open)
            | grid.reach(&grid.diagonal, c, diagonal.saturating_sub(1), open);
        let unmarked = self.scenes & !self.marked;
        if self.readings.mark_at_end_only || passed & unmarked == 0 {
            return ones(ends & !(1 << c));
        }
        // The shortcut counts a return to the start through a scene, which
        // `one-step-ahead-return=forbidden` rules out: the walk counts that reading.
        if card
            && steps == 2
            && diagonal <= 1
            && !self.readings.fast_move_no_return
            && let Some(n) = self.two_step_paths(open, unmarked, diagonal > 0)
        {
            return n;
        }
        self.walked_criminal_paths(steps, diagonal, card)
    }

    /// Exactly two orthogonal steps (or one diagonal, if the card allows) with scenes marked
    /// on the way. Each end has one path marking nothing on the way, if any first step off a
    /// scene (or the diagonal step) reaches it, and one more for each unmarked scene it can be
    /// reached through; a return to the start counts only through a scene. `None` when more
    /// paths mark scenes than [`Found`] keeps apart (the walk then lists some twice).
    fn two_step_paths(&self, open: u64, unmarked: u64, diagonal: bool) -> Option<usize> {
        let grid = &self.table.grid;
        let c = self.criminal;
        let first = grid.orthogonal[usize::from(c)] & open;
        let mut plain = 0;
        if diagonal {
            plain |= grid.diagonal[usize::from(c)] & open;
        }
        for step in bits(first & !unmarked) {
            plain |= grid.orthogonal[usize::from(step)] & open;
        }
        let mut n = ones(plain & !(1 << c));
        let mut marking = ones(plain & unmarked);
        for scene in bits(first & unmarked) {
            let onward = ones(grid.orthogonal[usize::from(scene)] & open);
            n += onward;
            marking += onward;
        }
        (marking <= FOUND_MARKING).then_some(n)
    }

    fn walked_criminal_paths(&self, steps: u8, diagonal: u8, card: bool) -> usize {
        let mut n = 0;
        self.criminal_paths(steps, diagonal, card, &mut |_| n += 1);
        n
    }

    /// The `k`-th legal action, in the order of [`SearchState::legal_actions_into`].
    pub fn nth_legal(&self, k: usize) -> Option<Action> {
        if self.phase == Phase::Main {
            return self.nth_in_groups(&self.groups(), k);
        }
        let mut pick = Pick {
            left: k,
            found: None,
        };
        let _ = self.each_legal(&mut pick);
        pick.found
    }

    /// Draws a legal action as `legal_actions()[rng.random_range(0..len)]` would: counts them,
    /// draws the index, and makes only that action.
    pub fn random_legal(&self, rng: &mut ChaCha8Rng) -> Action {
        let found = if self.phase == Phase::Main {
            let groups = self.groups();
            let k = rng.random_range(0..groups.total());
            self.nth_in_groups(&groups, k)
        } else {
            let k = rng.random_range(0..self.legal_count());
            self.nth_legal(k)
        };
        found.expect("an index below the count names a move")
    }

    fn each_legal<S: Sink>(&self, sink: &mut S) -> Flow {
        match self.phase {
            Phase::Over => Continue(0),
            Phase::Place(side) => bit_run(sink, self.placements(side), Action::Place),
            Phase::Arrange { look } => self.arrangements(look, sink),
            Phase::Wound { left: _ } => bit_run(sink, self.police_mask(), Action::Wound),
            Phase::Main => {
                if self.moves_left > 0 {
                    self.moves(sink)?;
                }
                if self.plays_left > 0 {
                    self.plays(sink)?;
                }
                if self.may_end_turn() {
                    sink.run(|| 1, |_| Action::EndTurn)?;
                }
                Continue(0)
            }
        }
    }

    /// Cards where the side placing now may put a pawn.
    fn placements(&self, side: Side) -> u64 {
        let police = self.police_mask();
        let taken = match side {
            Side::Police if self.readings.exclusive => police | self.criminal_mask(),
            Side::Police => self.criminal_mask(),
            Side::Criminal => police,
        };
        let free = self.all_cells() & !self.scenes & !taken;
        if side == Side::Police || self.readings.enclosed_start {
            return free;
        }
        // `enclosed-start=forbidden`: not a card the police already surround, unless every
        // free card is surrounded.
        let open = bits(free)
            .filter(|&c| self.exits(c) != 0)
            .fold(0u64, |m, c| m | 1 << c);
        if open == 0 { free } else { open }
    }

    fn may_end_turn(&self) -> bool {
        let must_move = self.readings.criminal_must_move
            && self.to_act == Side::Criminal
            && self.moves_left > 0
            && self.exits(self.criminal) != 0;
        // `passing=must-act`: a turn holds a move or a play whenever one is possible.
        let must_act = !self.readings.passing_allowed && !self.acted() && self.can_act();
        !(must_move || must_act)
    }

    /// Whether the side to act has moved or played a card this turn.
    fn acted(&self) -> bool {
        self.moved || self.plays_left < self.table.rules.cards_played
    }

    /// Whether the side to act has a legal move or card play.
    fn can_act(&self) -> bool {
        let can_move = self.moves_left > 0 && self.move_count() > 0;
        let can_play = self.plays_left > 0
            && self.cards[self.to_act.index()]
                .hand
                .as_slice()
                .iter()
                .any(|&kind| self.play_count(kind) > 0);
        can_move || can_play
    }

    fn moves<S: Sink>(&self, sink: &mut S) -> Flow {
        let distance = self.table.rules.move_distance;
        match self.to_act {
            Side::Criminal => self.criminal_moves(sink, distance, Action::Move),
            Side::Police => self.officer_moves(sink, distance, Action::Move),
        }
    }

    fn plays<S: Sink>(&self, sink: &mut S) -> Flow {
        let hand = self.cards[self.to_act.index()].hand;
        let mut seen = 0u32;
        for &kind in hand.as_slice() {
            if seen & (1 << kind) != 0 {
                continue;
            }
            seen |= 1 << kind;
            if self.targets(kind, sink)? == 0 && !self.readings.no_empty_plays {
                sink.run(
                    || 1,
                    |_| Action::Play {
                        kind,
                        target: Target::None,
                    },
                )?;
            }
        }
        Continue(0)
    }

    /// The plays of a card of `kind` at the targets its effect can take now; none means it
    /// would do nothing.
    fn targets<S: Sink>(&self, kind: u8, sink: &mut S) -> Flow {
        let play = move |target| Action::Play { kind, target };
        match self.effect(self.to_act, kind) {
            Effect::OpponentDiscard { .. }
            | Effect::ArrangeTop { .. }
            | Effect::ExtraDraw { .. } => sink.run(|| 1, |_| play(Target::None)),
            Effect::Barricade => self.barricade_targets(sink, play),
            Effect::Reinforce => {
                let at = if self.wounded() > 0 {
                    self.stations & self.police_mask()
                } else {
                    0
                };
                bit_run(sink, at, |c| play(Target::Cell(c)))
            }
            Effect::MoveOfficer { distance } => {
                self.officer_moves(sink, distance, |p| play(Target::Path(p)))
            }
            Effect::FastMove { steps, diagonal } if self.moves_left > 0 => sink.stream(|emit| {
                self.criminal_paths(steps, diagonal, true, &mut |p| {
                    emit(play(Target::Path(p)));
                });
            }),
            Effect::FastMove { .. } => Continue(0),
            Effect::WoundOfficer { .. } => {
                bit_run(sink, self.police_mask(), |c| play(Target::Cell(c)))
            }
            Effect::SewerTravel => {
                let open = if self.sewers & self.criminal_mask() != 0 {
                    self.sewers & !self.blocked() & !self.criminal_mask()
                } else {
                    0
                };
                bit_run(sink, open, |c| play(Target::Cell(c)))
            }
        }
    }

    /// Set Up a Barricade: a free barricade goes on a card that is not a crime scene; once all
    /// are out, one of them moves to such a card instead.
    fn barricade_targets<S: Sink>(&self, sink: &mut S, play: impl Fn(Target) -> Action) -> Flow {
        let open = self.barricade_open();
        if self.barricades().contains(&NOWHERE) {
            return bit_run(sink, open, |c| play(Target::Cell(c)));
        }
        let placed = self.barricade_mask();
        let per = || open.count_ones() as usize;
        sink.run(
            || placed.count_ones() as usize * per(),
            |i| {
                play(Target::Shift {
                    from: nth_bit(placed, i / per()),
                    to: nth_bit(open, i % per()),
                })
            },
        )
    }

    /// Cards a barricade may go to: not a crime scene or another barricade, nor the
    /// criminal's card unless `police-on-criminal=allowed` (and cards are shared).
    fn barricade_open(&self) -> u64 {
        let mut open =
            self.all_cells() & !self.scenes & !self.closed_criminal_card() & !self.barricade_mask();
        if self.readings.exclusive {
            open &= !self.police_mask();
        }
        open
    }

    fn arrangements<S: Sink>(&self, look: u8, sink: &mut S) -> Flow {
        let top = self.top_cards(look);
        let kinds = top[..usize::from(look)]
            .iter()
            .fold(0u32, |seen, &kind| seen | 1 << kind);
        if kinds.count_ones() == u32::from(look) {
            // Distinct cards: every ordering differs from every other.
            return sink.run(|| factorial(look), |p| Action::Arrange(p as u8));
        }
        sink.stream(|emit| {
            let mut seen: [[u8; MAX_STEPS]; 120] = [[0; MAX_STEPS]; 120];
            let mut n = 0;
            for p in 0..factorial(look) {
                let order = permuted(&top, look, p);
                if !seen[..n].contains(&order) {
                    seen[n] = order;
                    n += 1;
                    emit(Action::Arrange(p as u8));
                }
            }
        })
    }

    /// The top `look` cards of the acting side's draw pile, top first.
    fn top_cards(&self, look: u8) -> [u8; MAX_STEPS] {
        let draw = &self.cards[self.to_act.index()].draw;
        let mut top = [0; MAX_STEPS];
        for (i, slot) in top.iter_mut().take(usize::from(look)).enumerate() {
            *slot = draw.cards[usize::from(draw.len) - 1 - i];
        }
        top
    }

    /// The criminal's ordinary move of up to `steps` cards, each path made into an action.
    fn criminal_moves<S: Sink>(
        &self,
        sink: &mut S,
        steps: u8,
        make: impl Fn(Path) -> Action,
    ) -> Flow {
        if steps == 1 {
            // One orthogonal card: every end is distinct, so the open directions say it all.
            let open = self.all_cells() & !self.blocked();
            return self.single_steps(sink, self.criminal, open, make);
        }
        sink.stream(|emit| self.criminal_paths(steps, 0, false, &mut |p| emit(make(p))))
    }

    /// Every officer's move of up to `steps` cards (officers sharing a card move alike),
    /// each path made into an action.
    fn officer_moves<S: Sink>(
        &self,
        sink: &mut S,
        steps: u8,
        make: impl Fn(Path) -> Action,
    ) -> Flow {
        let mut n = 0;
        for from in bits(self.police_mask()) {
            n += if steps == 1 {
                self.single_steps(sink, from, self.officer_open(from), &make)?
            } else {
                sink.stream(|emit| self.officer_paths(from, steps, &mut |p| emit(make(p))))?
            };
        }
        Continue(n)
    }

    /// One orthogonal step from `from` onto an `open` card, in direction order.
    fn single_steps<S: Sink>(
        &self,
        sink: &mut S,
        from: u8,
        open: u64,
        make: impl Fn(Path) -> Action,
    ) -> Flow {
        let grid = &self.table.grid;
        let n = || (grid.orthogonal[usize::from(from)] & open).count_ones() as usize;
        sink.run(n, |i| {
            // Directions in order, skipping the map edge and closed cards.
            let next = &grid.step[usize::from(from)];
            let mut left = i;
            for (d, &to) in next.iter().enumerate().take(ORTHOGONAL) {
                if to != OFF && open & (1 << to) != 0 {
                    if left == 0 {
                        return make(Path::start(from).then(d));
                    }
                    left -= 1;
                }
            }
            unreachable!("fewer open directions than counted")
        })
    }

    /// Paths for the criminal pawn: orthogonal steps up to `steps`; with `card`, the card's
    /// diagonal allowance as the variant reads it. Paths that end where another path ends,
    /// having marked the same scenes, are listed once.
    fn criminal_paths(&self, steps: u8, diagonal: u8, card: bool, emit: &mut impl FnMut(Path)) {
        let mut found = Found::default();
        let mut keep = |p: Path, end: u8, marks: u64| {
            if found.insert(end, marks) {
                emit(p);
            }
        };
        let mut walk = Walk {
            grid: &self.table.grid,
            open: self.all_cells() & !self.blocked(),
            unmarked: self.scenes & !self.marked,
            end_only: self.readings.mark_at_end_only,
            steps,
            min_len: if card { steps } else { 1 },
            may_return: !self.readings.fast_move_no_return,
            dirs: 0..ORTHOGONAL,
            keep: &mut keep,
        };
        let start = Path::start(self.criminal);
        if card && self.readings.diagonal_within_two {
            walk.dirs = 0..DIRECTIONS;
            walk.run(start, self.criminal, diagonal, 0);
        } else {
            walk.run(start, self.criminal, 0, 0);
            if card && diagonal > 0 {
                walk.steps = diagonal;
                walk.min_len = diagonal;
                walk.dirs = ORTHOGONAL..DIRECTIONS;
                walk.run(start, self.criminal, diagonal, 0);
            }
        }
    }

    /// Cards an officer at `from` may pass or stop on: the criminal's only with
    /// `police-on-criminal=allowed` and shared cards.
    fn officer_open(&self, from: u8) -> u64 {
        let mut open = self.all_cells() & !self.closed_criminal_card();
        if self.readings.exclusive {
            open &= !self.blocked() | 1 << from;
        }
        if self.readings.police_off_scenes {
            open &= !self.scenes;
        }
        open
    }

    /// Paths for the officer at `from`: orthogonal steps up to `steps`, one per end.
    fn officer_paths(&self, from: u8, steps: u8, emit: &mut impl FnMut(Path)) {
        let mut found = Found::default();
        let mut keep = |p: Path, end: u8, _| {
            if end != from && found.insert(end, 0) {
                emit(p);
            }
        };
        Walk {
            grid: &self.table.grid,
            open: self.officer_open(from),
            unmarked: 0,
            end_only: true,
            steps,
            min_len: 1,
            may_return: false,
            dirs: 0..ORTHOGONAL,
            keep: &mut keep,
        }
        .run(Path::start(from), from, 0, 0);
    }

    fn all_cells(&self) -> u64 {
        let n = self.table.grid.cells();
        if n == 64 { u64::MAX } else { (1u64 << n) - 1 }
    }

    /// The criminal's card when officers and barricades must keep off it
    /// (`police-on-criminal=forbidden`, or `stacking=exclusive`: one pawn per card), else 0.
    fn closed_criminal_card(&self) -> u64 {
        if self.readings.criminal_card_closed || self.readings.exclusive {
            self.criminal_mask()
        } else {
            0
        }
    }

    fn criminal_mask(&self) -> u64 {
        if self.criminal == NOWHERE {
            0
        } else {
            1 << self.criminal
        }
    }
}

/// The sizes of a turn's groups of actions, in [`SearchState::each_legal`]'s order.
struct Groups {
    moves: usize,
    /// Each kind in hand, once, with its number of targets (0: played for nothing).
    kinds: [(u8, usize); MAX_KINDS],
    kinds_len: usize,
    end_turn: bool,
}

impl Groups {
    fn total(&self) -> usize {
        let plays: usize = self.kinds[..self.kinds_len].iter().map(|&(_, n)| n).sum();
        self.moves + plays + usize::from(self.end_turn)
    }
}

/// What a [`Sink`] says to each run or stream: go on (with how many actions it held), or
/// stop (a pick has been made).
type Flow = ControlFlow<(), usize>;

/// Receives the legal actions in order, as runs and streams.
trait Sink {
    /// A run of `n()` actions; `nth(i)` makes the `i`-th, for `i < n()`. A sink that already
    /// knows the run's size need not ask.
    fn run(&mut self, n: impl FnOnce() -> usize, nth: impl Fn(usize) -> Action) -> Flow;
    /// Actions found one by one by `walk`, which passes each to the callback it is given.
    fn stream(&mut self, walk: impl FnOnce(&mut dyn FnMut(Action))) -> Flow;
}

/// Lists every action.
struct Collect<'a>(&'a mut Vec<Action>);

impl Sink for Collect<'_> {
    fn run(&mut self, n: impl FnOnce() -> usize, nth: impl Fn(usize) -> Action) -> Flow {
        let n = n();
        self.0.extend((0..n).map(nth));
        Continue(n)
    }

    fn stream(&mut self, walk: impl FnOnce(&mut dyn FnMut(Action))) -> Flow {
        let before = self.0.len();
        walk(&mut |a| self.0.push(a));
        Continue(self.0.len() - before)
    }
}

/// Counts the actions.
struct Count(usize);

impl Sink for Count {
    fn run(&mut self, n: impl FnOnce() -> usize, _: impl Fn(usize) -> Action) -> Flow {
        let n = n();
        self.0 += n;
        Continue(n)
    }

    fn stream(&mut self, walk: impl FnOnce(&mut dyn FnMut(Action))) -> Flow {
        let mut n = 0;
        walk(&mut |_| n += 1);
        self.0 += n;
        Continue(n)
    }
}

/// Makes only the action `left` places further on.
struct Pick {
    left: usize,
    found: Option<Action>,
}

impl Sink for Pick {
    fn run(&mut self, n: impl FnOnce() -> usize, nth: impl Fn(usize) -> Action) -> Flow {
        let n = n();
        if self.left < n {
            self.found = Some(nth(self.left));
            return Break(());
        }
        self.left -= n;
        Continue(n)
    }

    fn stream(&mut self, walk: impl FnOnce(&mut dyn FnMut(Action))) -> Flow {
        let (wanted, mut seen, mut found) = (self.left, 0, None);
        walk(&mut |a| {
            if seen == wanted {
                found = Some(a);
            }
            seen += 1;
        });
        match found {
            Some(a) => {
                self.found = Some(a);
                Break(())
            }
            None => {
                self.left -= seen;
                Continue(seen)
            }
        }
    }
}

/// One action per set bit of `mask`, lowest first.
fn bit_run<S: Sink>(sink: &mut S, mask: u64, make: impl Fn(u8) -> Action) -> Flow {
    sink.run(|| mask.count_ones() as usize, |i| make(nth_bit(mask, i)))
}

fn ones(mask: u64) -> usize {
    mask.count_ones() as usize
}

/// The index of the `i`-th set bit of `mask`, lowest first.
fn nth_bit(mut mask: u64, i: usize) -> u8 {
    for _ in 0..i {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
}

const OFF: u8 = super::layout::OFF_MAP;

/// A depth-first walk over paths of 1 to `steps` steps through `open` cards, in `dirs`.
struct Walk<'a, F: FnMut(Path, u8, u64)> {
    grid: &'a Grid,
    open: u64,
    /// Crime scenes without a marker: passing over them marks them (unless `end_only`).
    unmarked: u64,
    end_only: bool,
    steps: u8,
    /// Shortest path kept: 1 for the usual move, all of `steps` for One Step Ahead.
    min_len: u8,
    /// Whether a move may end where it started when it marks a crime scene on the way
    /// (One Step Ahead out and back; `one-step-ahead-return`).
    may_return: bool,
    dirs: std::ops::Range<usize>,
    /// Receives each path, its end and the scenes it would mark.
    keep: &'a mut F,
}

impl<F: FnMut(Path, u8, u64)> Walk<'_, F> {
    fn run(&mut self, path: Path, at: u8, diagonals: u8, marks: u64) {
        if path.len == self.steps {
            return;
        }
        if self.steps == 1 && self.dirs.end <= ORTHOGONAL {
            return self.single_steps(path, at);
        }
        for d in self.dirs.clone() {
            let to = self.grid.step[usize::from(at)][d];
            let diagonal = d >= ORTHOGONAL;
            if to == OFF || self.open & (1 << to) == 0 || (diagonal && diagonals == 0) {
                continue;
            }
            let next = path.then(d);
            let here = self.unmarked & 1 << to;
            let marks = marks | here;
            let reported = if self.end_only { here } else { marks };
            if next.len >= self.min_len && (to != path.from || (self.may_return && reported != 0)) {
                (self.keep)(next, to, reported);
            }
            if next.len < self.steps {
                self.run(next, to, diagonals - u8::from(diagonal), marks);
            }
        }
    }
}

impl<F: FnMut(Path, u8, u64)> Walk<'_, F> {
    /// The usual one-card orthogonal move: every end is distinct, so nothing to walk or sort out.
    fn single_steps(&mut self, path: Path, at: u8) {
        let next = &self.grid.step[usize::from(at)];
        for (d, &to) in next.iter().enumerate().take(ORTHOGONAL) {
            if to != OFF && self.open & (1 << to) != 0 {
                (self.keep)(path.then(d), to, self.unmarked & 1 << to);
            }
        }
    }
}

/// Paths marking scenes that [`Found`] tells apart.
const FOUND_MARKING: usize = 8;

/// Path ends already listed, with the scenes they mark: a bit set for paths that mark nothing
/// and a small buffer for the rest (no allocation).
#[derive(Default)]
struct Found {
    plain: u64,
    marking: [(u8, u64); FOUND_MARKING],
    len: usize,
}

impl Found {
    /// True the first time a key is seen (and whenever the buffer is full).
    fn insert(&mut self, end: u8, marks: u64) -> bool {
        if marks == 0 {
            let new = self.plain & 1 << end == 0;
            self.plain |= 1 << end;
            return new;
        }
        if self.marking[..self.len].contains(&(end, marks)) {
            return false;
        }
        if self.len < self.marking.len() {
            self.marking[self.len] = (end, marks);
            self.len += 1;
        }
        true
    }
}

/// The set bits of a mask, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let c = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            c
        })
    })
}

fn factorial(n: u8) -> usize {
    (1..=usize::from(n)).product()
}

/// The `p`-th ordering (Lehmer code) of the first `n` items.
fn permuted(items: &[u8; MAX_STEPS], n: u8, mut p: usize) -> [u8; MAX_STEPS] {
    let mut pool = *items;
    let mut left = usize::from(n);
    let mut out = [0; MAX_STEPS];
    for slot in out.iter_mut().take(usize::from(n)) {
        let f = factorial(left as u8 - 1);
        let i = p / f;
        *slot = pool[i];
        pool.copy_within(i + 1..left, i);
        left -= 1;
        p %= f;
    }
    out
}

/// Applying actions.
impl SearchState {
    fn apply_action(&mut self, action: Action) {
        self.moves_played += 1;
        match action {
            Action::Place(c) => self.place(c),
            Action::Move(path) => {
                self.moves_left -= 1;
                self.moved = true;
                self.follow(path, self.to_act == Side::Criminal);
            }
            Action::Play { kind, target } => self.play(kind, target),
            Action::Arrange(p) => self.arrange(p),
            Action::Wound(c) => self.wound_at(c),
            Action::EndTurn => self.end_turn(),
        }
        // `reshuffle=when-empty` (the rulebook's "When the draw deck is exhausted"): the
        // moment a side's draw pile is empty its discard pile becomes the new one, so cards
        // played later wait for the next reshuffle; `at-next-draw` waits for a draw.
        if !self.readings.reshuffle_at_draw {
            for side in [Side::Criminal, Side::Police] {
                if self.cards[side.index()].draw.len == 0 {
                    self.reshuffle(side);
                }
            }
        }
        self.check_end();
    }

    fn place(&mut self, c: u8) {
        let rules = &self.table.rules;
        match self.to_act {
            Side::Criminal => self.criminal = c,
            Side::Police => {
                let n = usize::from(rules.officers);
                if let Some(slot) = self.officers[..n].iter_mut().find(|s| **s == NOWHERE) {
                    *slot = c;
                }
            }
        }
        self.refresh();
        self.skip_empty_setup();
    }

    /// Moves setup on once a side has placed all its pawns; starts the first turn after both.
    fn skip_empty_setup(&mut self) {
        while let Phase::Place(side) = self.phase {
            let done = match side {
                Side::Criminal => self.criminal != NOWHERE,
                Side::Police => !self.officers().contains(&NOWHERE),
            };
            if !done {
                return;
            }
            let first = self.table.rules.first_to_place;
            if side == first {
                self.phase = Phase::Place(side.other());
                self.to_act = side.other();
            } else {
                self.start_turn(self.table.rules.first_player);
            }
        }
    }

    fn start_turn(&mut self, side: Side) {
        let rules = &self.table.rules;
        self.phase = Phase::Main;
        self.to_act = side;
        self.moves_left = match side {
            Side::Criminal => 1,
            Side::Police => rules.police_pawns_moved,
        };
        self.plays_left = rules.cards_played;
        self.extra_draw = 0;
        self.moved = false;
    }

    /// Moves the criminal (`criminal`) or an officer at the path's start along it, marking
    /// crime scenes the criminal visits. An officer may share the criminal's card
    /// (`police-on-criminal`), so the start alone cannot tell whose move it is.
    fn follow(&mut self, path: Path, criminal: bool) {
        let end = path.end(&self.table.grid);
        if criminal {
            let grid = &self.table.grid;
            let visited = if self.readings.mark_at_end_only {
                1 << end
            } else {
                path.cells(grid).fold(0u64, |m, c| m | 1 << c)
            };
            self.marked |= visited & self.scenes;
            self.criminal = end;
        } else if let Some(o) = self.officers.iter_mut().find(|o| **o == path.from) {
            *o = end;
            self.refresh();
        }
    }

    fn play(&mut self, kind: u8, target: Target) {
        let side = self.to_act;
        let cards = &mut self.cards[side.index()];
        if let Some(i) = cards.hand.position(kind) {
            cards.hand.remove(i);
            cards.discard.push(kind);
        }
        self.plays_left -= 1;
        self.stats.cards_played[side.index()] += 1;
        if target == Target::None && !self.needs_no_target(side, kind) {
            return;
        }
        self.resolve(self.effect(side, kind), target);
    }

    fn needs_no_target(&self, side: Side, kind: u8) -> bool {
        matches!(
            self.effect(side, kind),
            Effect::OpponentDiscard { .. } | Effect::ArrangeTop { .. } | Effect::ExtraDraw { .. }
        )
    }

    fn resolve(&mut self, effect: Effect, target: Target) {
        let side = self.to_act;
        match (effect, target) {
            (Effect::OpponentDiscard { cards }, _) => {
                for _ in 0..cards {
                    self.random_discard(side.other());
                }
            }
            (Effect::ArrangeTop { look }, _) => self.look_at_top(look),
            (Effect::ExtraDraw { cards }, _) => self.extra_draw += cards,
            (Effect::Barricade, Target::Cell(c)) => {
                if let Some(b) = self.barricades.iter_mut().find(|b| **b == NOWHERE) {
                    *b = c;
                }
                self.refresh();
                self.stats.barricades_placed += 1;
            }
            (Effect::Barricade, Target::Shift { from, to }) => {
                if let Some(b) = self.barricades.iter_mut().find(|b| **b == from) {
                    *b = to;
                }
                self.refresh();
                self.stats.barricades_moved += 1;
            }
            (Effect::Reinforce, Target::Cell(c)) => {
                if let Some(o) = self.officers.iter_mut().find(|o| **o == HOSPITAL) {
                    *o = c;
                }
                self.refresh();
                self.stats.reinforcements += 1;
            }
            (Effect::MoveOfficer { .. }, Target::Path(p)) => {
                self.follow(p, false);
                self.stats.officers_moved_by_criminal += 1;
            }
            (Effect::FastMove { .. }, Target::Path(p)) => {
                // One Step Ahead replaces the turn's usual move.
                self.moves_left -= 1;
                self.moved = true;
                self.follow(p, true);
                self.stats.fast_moves += 1;
            }
            (Effect::WoundOfficer { officers }, Target::Cell(c)) => {
                self.wound_at(c);
                if officers > 1 && self.police_mask() != 0 {
                    self.phase = Phase::Wound { left: officers - 1 };
                }
            }
            (Effect::SewerTravel, Target::Cell(c)) => {
                self.criminal = c;
                self.stats.sewer_trips += 1;
            }
            _ => {}
        }
    }

    fn wound_at(&mut self, c: u8) {
        if let Some(o) = self.officers.iter_mut().find(|o| **o == c) {
            *o = HOSPITAL;
            self.stats.wounds += 1;
        }
        self.refresh();
        if let Phase::Wound { left } = self.phase {
            self.phase = if left > 1 && self.police_mask() != 0 {
                Phase::Wound { left: left - 1 }
            } else {
                Phase::Main
            };
        }
    }

    /// Canvassing the District: the acting side looks at its top cards (reshuffling first if
    /// the draw pile is empty) and, with two or more, chooses their order.
    fn look_at_top(&mut self, look: u8) {
        let side = self.to_act;
        if self.cards[side.index()].draw.len == 0 {
            self.reshuffle(side);
        }
        let cards = &mut self.cards[side.index()];
        let seen = look.min(cards.draw.len);
        cards.known_top = cards.known_top.max(seen);
        if seen > 1 {
            self.phase = Phase::Arrange { look: seen };
        }
    }

    fn arrange(&mut self, p: u8) {
        let Phase::Arrange { look } = self.phase else {
            return;
        };
        let order = permuted(&self.top_cards(look), look, usize::from(p));
        let draw = &mut self.cards[self.to_act.index()].draw;
        let len = usize::from(draw.len);
        for (i, &kind) in order.iter().take(usize::from(look)).enumerate() {
            draw.cards[len - 1 - i] = kind;
        }
        self.phase = Phase::Main;
    }

    fn random_discard(&mut self, side: Side) {
        let len = self.cards[side.index()].hand.len;
        if len > 0 {
            let i = self.rng.random_range(0..usize::from(len));
            let cards = &mut self.cards[side.index()];
            let kind = cards.hand.remove(i);
            cards.discard.push(kind);
        }
    }

    /// The side's discard pile, shuffled, becomes its draw pile (nothing happens while the
    /// discard pile is empty).
    fn reshuffle(&mut self, side: Side) {
        let cards = &mut self.cards[side.index()];
        if cards.discard.len == 0 {
            return;
        }
        self.stats.reshuffles[side.index()] += 1;
        while let Some(k) = cards.discard.pop() {
            cards.draw.push(k);
        }
        cards.draw.as_mut_slice().shuffle(&mut self.rng);
        cards.known_top = 0;
    }

    fn draw(&mut self, side: Side) {
        if self.cards[side.index()].draw.len == 0 {
            self.reshuffle(side);
        }
        let cards = &mut self.cards[side.index()];
        if let Some(k) = cards.draw.pop() {
            cards.hand.push(k);
            cards.known_top = cards.known_top.saturating_sub(1);
            self.stats.drawn[side.index()] += 1;
        }
    }

    /// Draw back up to the hand size, plus any extra draws, then the other side plays.
    fn end_turn(&mut self) {
        let side = self.to_act;
        let hand_size = self.table.rules.hand_size;
        while self.cards[side.index()].hand.len < hand_size && self.can_draw(side) {
            self.draw(side);
        }
        for _ in 0..self.extra_draw {
            self.draw(side);
        }
        self.stats.turns += 1;
        self.start_turn(side.other());
    }

    fn can_draw(&self, side: Side) -> bool {
        let c = &self.cards[side.index()];
        c.draw.len + c.discard.len > 0
    }

    /// The criminal wins by marking the crime scenes or wounding every officer; the police win
    /// when every orthogonal side of the criminal is a pawn, a barricade or the map edge.
    fn check_end(&mut self) {
        let rules = &self.table.rules;
        let outcome = if self.marked.count_ones() >= u32::from(rules.scenes_to_mark) {
            Some((Side::Criminal, CRIME_SCENES))
        } else if self.all_wounded() {
            Some((Side::Criminal, OFFICERS_WOUNDED))
        } else if self.criminal != NOWHERE && self.exits(self.criminal) == 0 {
            Some((Side::Police, SURROUNDED))
        } else {
            None
        };
        if outcome.is_some() {
            self.outcome = outcome;
            self.phase = Phase::Over;
        }
    }

    fn all_wounded(&self) -> bool {
        if self.readings.cumulative_wounds {
            self.stats.wounds >= self.table.rules.officers
        } else {
            self.officers().iter().all(|&o| o == HOSPITAL)
        }
    }
}

impl State for SearchState {
    type Action = Action;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Over => Turn::Terminal,
            _ => Turn::Player(self.to_act.index()),
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(64);
        self.legal_actions_into(&mut out);
        out
    }

    fn random_action(&self, rng: &mut ChaCha8Rng) -> Action {
        self.random_legal(rng)
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        Vec::new()
    }

    fn apply(&mut self, action: Action) {
        self.apply_action(action);
    }

    fn returns(&self) -> Vec<f64> {
        match self.winner() {
            Some(Side::Criminal) => vec![1.0, 0.0],
            Some(Side::Police) => vec![0.0, 1.0],
            None => vec![0.0, 0.0],
        }
    }

    fn action_name(&self, action: Action) -> String {
        super::words::action_name(self, action)
    }

    fn move_name(&self, action: Action, observer: Observer) -> String {
        super::words::move_name(self, action, observer)
    }

    fn observation(&self, player: Player) -> String {
        super::words::observation(self, player)
    }

    fn determinize(&self, observer: Player, rng: &mut ChaCha8Rng) -> Self {
        let mut copy = self.clone();
        let me = if observer == 0 {
            Side::Criminal
        } else {
            Side::Police
        };
        copy.resample_own_draw(me, rng);
        copy.resample_opponent(me.other(), rng);
        copy.rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        copy
    }

    fn skip_determinize(&self, observer: Player, rng: &mut ChaCha8Rng) {
        self.determinize_draws(observer, rng);
    }

    fn turns_played(&self) -> Option<u32> {
        Some(self.stats.turns + 1)
    }

    fn public_view(&self) -> String {
        super::views::public_view(self)
    }

    fn private_view(&self, seat: Player) -> String {
        super::views::private_view(self, seat)
    }

    fn public_data(&self) -> serde_json::Value {
        super::views::public_data(self)
    }

    fn private_data(&self, seat: Player) -> serde_json::Value {
        super::views::private_data(self, seat)
    }

    fn hidden_events(&self, before: &Self, _observer: Observer) -> Vec<String> {
        super::views::hidden_events(before, self)
    }

    fn moves_played(&self) -> u32 {
        self.moves_played
    }

    /// Where a move acts: the pawn, the map cards, a card in hand and what it aims at.
    fn targets(&self, action: Action) -> Vec<crate::engine::Target> {
        super::board::targets(self, action)
    }

    fn board(&self) -> Option<crate::engine::BoardView> {
        Some(super::board::board(self))
    }

    /// The card a play plays (by its design): for its effect, or discarded for none (a card
    /// that needs a target played without one, which `action_kind` calls "play a card for no
    /// effect").
    fn cards_of(&self, action: Action, out: &mut Vec<CardUse>) -> bool {
        if let Action::Play { kind, target } = action {
            let side = self.to_act;
            let effect = target != Target::None || self.needs_no_target(side, kind);
            out.extend(
                self.table.rules.kinds[side.index()]
                    .get(usize::from(kind))
                    .map(|k| CardUse {
                        id: k.design,
                        effect,
                    }),
            );
        }
        true
    }

    fn action_kind(&self, action: Action) -> &'static str {
        let side = self.to_act;
        match action {
            Action::Place(_) => "place a pawn",
            Action::Move(_) => "move",
            Action::Arrange(_) => "canvass: reorder",
            Action::Wound(_) => "wound another officer",
            Action::EndTurn => "end turn",
            Action::Play { kind, target } => {
                if target == Target::None && !self.needs_no_target(side, kind) {
                    "play a card for no effect"
                } else {
                    effect_label(side, self.effect(side, kind))
                }
            }
        }
    }

    /// The heuristic evaluation turned into win chances, for search that stops early.
    fn estimate(&self) -> Vec<f64> {
        if self.phase == Phase::Over {
            return self.returns();
        }
        let score = super::bots::evaluate(self, Side::Criminal);
        let criminal = 1.0 / (1.0 + (-score / 100.0).exp());
        vec![criminal, 1.0 - criminal]
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.outcome.map(|(_, r)| r)
    }

    fn end_stats(&self) -> Vec<(&'static str, f64)> {
        let s = &self.stats;
        vec![
            ("crime scenes marked", f64::from(self.marked.count_ones())),
            ("officers wounded", f64::from(s.wounds)),
            ("officers in hospital", self.wounded() as f64),
            ("reinforcements", f64::from(s.reinforcements)),
            ("barricades placed", f64::from(s.barricades_placed)),
            ("barricades moved", f64::from(s.barricades_moved)),
            ("sewer trips", f64::from(s.sewer_trips)),
            ("one step ahead moves", f64::from(s.fast_moves)),
            (
                "officers moved by criminal",
                f64::from(s.officers_moved_by_criminal),
            ),
            ("criminal cards played", f64::from(s.cards_played[0])),
            ("police cards played", f64::from(s.cards_played[1])),
            (
                "reshuffles",
                f64::from(s.reshuffles[0]) + f64::from(s.reshuffles[1]),
            ),
            // Turns begun, as `turns_played` counts them: a game ends within a turn.
            ("turns", f64::from(s.turns + 1)),
        ]
    }
}

/// A card play for usage statistics: the effect, named after the card that carries it.
fn effect_label(side: Side, effect: Effect) -> &'static str {
    match (side, effect) {
        (Side::Police, Effect::OpponentDiscard { .. }) => "play Questioning Witnesses",
        (Side::Criminal, Effect::OpponentDiscard { .. }) => "play Anonymous in the Crowd",
        (_, Effect::Barricade) => "play Set Up a Barricade",
        (_, Effect::Reinforce) => "play Call in Reinforcements",
        (_, Effect::ArrangeTop { .. }) => "play Canvassing the District",
        (_, Effect::ExtraDraw { .. }) => "play In Pursuit",
        (_, Effect::MoveOfficer { .. }) => "play Mistaken Identity",
        (_, Effect::FastMove { .. }) => "play One Step Ahead",
        (_, Effect::WoundOfficer { .. }) => "play A Shot in the Dark",
        (_, Effect::SewerTravel) => "play Take to the Sewers",
    }
}

/// Determinization.
impl SearchState {
    /// The observer knows their own draw pile's contents and the cards they canvassed on top,
    /// not the order of the rest.
    fn resample_own_draw(&mut self, side: Side, rng: &mut ChaCha8Rng) {
        let cards = &mut self.cards[side.index()];
        let hidden = usize::from(cards.draw.len - cards.known_top.min(cards.draw.len));
        cards.draw.cards[..hidden].shuffle(rng);
    }

    /// The opponent's hand and draw pile form one pool the observer cannot split: deal it anew
    /// into a hand and a draw pile of the same sizes.
    fn resample_opponent(&mut self, side: Side, rng: &mut ChaCha8Rng) {
        let cards = &mut self.cards[side.index()];
        let (h, d) = (usize::from(cards.hand.len), usize::from(cards.draw.len));
        let mut pool = [0u8; 2 * MAX_CARDS];
        pool[..h].copy_from_slice(cards.hand.as_slice());
        pool[h..h + d].copy_from_slice(cards.draw.as_slice());
        pool[..h + d].shuffle(rng);
        cards.hand.cards[..h].copy_from_slice(&pool[..h]);
        cards.draw.cards[..d].copy_from_slice(&pool[h..h + d]);
    }

    /// The top of a side's draw pile as far as its owner knows it, top first.
    pub(super) fn known_top(&self, side: Side) -> &[u8] {
        let c = &self.cards[side.index()];
        let k = usize::from(c.known_top.min(c.draw.len));
        let len = usize::from(c.draw.len);
        &c.draw.cards[len - k..len]
    }

    /// The side's reshuffles so far, and the cards it has drawn.
    pub(super) fn reshuffles_and_draws(&self, side: Side) -> (u16, u16) {
        (
            self.stats.reshuffles[side.index()],
            self.stats.drawn[side.index()],
        )
    }

    pub(super) fn discards(&self, side: Side) -> &[u8] {
        self.cards[side.index()].discard.as_slice()
    }

    pub(super) fn turn_state(&self) -> (u8, u8, u8) {
        (self.moves_left, self.plays_left, self.extra_draw)
    }

    pub(super) fn pending(&self) -> Option<String> {
        match self.phase {
            Phase::Arrange { look } => Some(format!("order the top {look} cards")),
            Phase::Wound { left } => Some(format!("wound {left} more officer(s)")),
            Phase::Place(side) => Some(format!("{} to place pawns", side.name())),
            _ => None,
        }
    }

    pub(super) fn top_for_arrange(&self, look: u8) -> [u8; MAX_STEPS] {
        self.top_cards(look)
    }

    pub(super) fn arrange_look(&self) -> Option<u8> {
        match self.phase {
            Phase::Arrange { look } => Some(look),
            _ => None,
        }
    }

    pub(super) fn path_cells(&self, p: Path) -> impl Iterator<Item = u8> + '_ {
        p.cells(&self.table.grid)
    }

    pub(super) fn needs_no_target_pub(&self, side: Side, kind: u8) -> bool {
        self.needs_no_target(side, kind)
    }

    pub(super) fn stats_turns(&self) -> u32 {
        self.stats.turns
    }
}

pub(super) fn order_of(top: &[u8; MAX_STEPS], look: u8, p: u8) -> [u8; MAX_STEPS] {
    permuted(top, look, usize::from(p))
}

impl SearchState {
    /// The random draws of `determinize` without the copy: those of the same two shuffles
    /// (a shuffle's draws depend only on the length), and the new seed.
    fn determinize_draws(&self, observer: Player, rng: &mut ChaCha8Rng) {
        let me = if observer == 0 {
            Side::Criminal
        } else {
            Side::Police
        };
        let own = &self.cards[me.index()];
        let hidden = usize::from(own.draw.len - own.known_top.min(own.draw.len));
        let other = &self.cards[me.other().index()];
        let pool = usize::from(other.hand.len) + usize::from(other.draw.len);
        crate::engine::draws::skip_shuffle(rng, hidden);
        crate::engine::draws::skip_shuffle(rng, pool);
        rng.next_u64();
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
