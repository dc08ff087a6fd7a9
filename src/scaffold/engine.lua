-- engine.lua: the rules of this game as a program, so that `printplay simulate` can play it.
--
-- This starter plays a small example game with the starter deck; replace its rules with yours.
-- The example, a race (rules.en.toml says it for players): the deck is shared out, at most
-- `hand_size` cards each. On your turn you choose one card from your hand and play it into
-- your row: it scores its value, plus one point for every card of the same suit already in
-- your row; then you draw a card if the deck has any. The first player to reach `goal`
-- points wins at once; if every hand runs out first, the highest score wins (a tie shares
-- the win). The choice is real: which card, a high one now or one that builds a suit for
-- later, decides how soon you reach the goal.
--
-- How printplay talks to this file (the same contract as its built-in Rust engines):
-- * The file returns a table `game` of functions. printplay calls them; they never call it.
-- * A game in progress is a Lua table (`state`) that only this script reads and writes.
--   Keep EVERYTHING that changes during a game in it: printplay copies it for its search
--   bots, and runs games on several threads, each with its own copy of this script.
-- * Seats are numbered 1, 2, ...; an action is an integer you choose the meaning of.
-- * `model` holds the game's data, read-only, by the names of the TOML files:
--   model.game.players.min, model.params.hand_size.value, model.deck[i].card[j].fields.suit...
--   Read every number from there, never repeat it here.
-- * Randomness comes only from the `rng` printplay passes in: rng:random(n) gives 1..n,
--   rng:random(lo, hi) lo..hi, rng:random() a number in [0, 1), rng:shuffle(list) shuffles.
--   (math.random, os, io and the clock do not exist here: the same seed gives the same game.)
-- * `pairs` visits keys in sorted order; `require "name"` loads name.lua from this folder.
-- * `simulate` plays thousands of games. Building a list of every move or outcome at every
--   step is most of that time, so the random bot and the chance draws call the optional
--   `random_action` and `sample_chance` when they exist (below, beside `legal_actions` and
--   `chance_outcomes`): they count and walk instead of building lists, and pick exactly what
--   the lists would, so the same seed still gives the same games.

local game = {}

-- The deck this game plays with, and each card design's suit and value, from the model.
local deck
for _, d in ipairs(model.deck) do
  if d.id == "deck" then
    deck = d
  end
end
assert(deck, "components.toml has no deck with id `deck`")
local designs = deck.card -- one entry per design; `count` copies of each
local HAND_SIZE = model.params.hand_size.value
local GOAL = model.params.goal.value

-- Optional: readings of the rules a simulation can compare (`--variant`, `--compare`).
-- The first value is the default; `config.variants` holds the chosen ones.
game.variants = {
  {
    name = "suit-bonus",
    values = { "on", "off" },
    doc = "Whether a card scores one more point for each card of its suit already in your row.",
  },
}

-- Optional: the sum of `returns` in every finished game; printplay checks it.
game.returns_sum = 1

-- A new game: `config.players` seats, `config.variants`; `rng` shuffles and deals.
function game.setup(config, rng)
  local state = {
    players = config.players,
    bonus = config.variants["suit-bonus"] ~= "off",
    deck = {}, -- cards left to draw: count per design
    hands = {}, -- hands[seat][design] = count
    rows = {}, -- rows[seat][suit] = cards of that suit played
    played = {}, -- played[seat] = the designs played, in order (face up: everyone sees them)
    scores = {},
    current = 1,
    drawing = false, -- true while the player to act must draw (a chance event)
  }
  local cards = {}
  for i, d in ipairs(designs) do
    state.deck[i] = d.count
    for _ = 1, d.count do
      cards[#cards + 1] = i
    end
  end
  rng:shuffle(cards)
  local each = math.min(HAND_SIZE, #cards // config.players)
  for seat = 1, config.players do
    state.hands[seat] = {}
    for i = 1, #designs do
      state.hands[seat][i] = 0
    end
    state.rows[seat] = {}
    state.played[seat] = {}
    state.scores[seat] = 0
    for _ = 1, each do
      local card = table.remove(cards)
      state.hands[seat][card] = state.hands[seat][card] + 1
      state.deck[card] = state.deck[card] - 1
    end
  end
  return state
end

-- `n` and a noun in the number's form: count(1, "card", "cards") is "1 card".
local function count(n, one, other)
  return ("%d %s"):format(n, n == 1 and one or other)
end

local function cards_in(counts)
  local n = 0
  for _, c in ipairs(counts) do
    n = n + c
  end
  return n
end

-- The seat that reached the goal, if one has.
local function goal_reached(state)
  for seat = 1, state.players do
    if state.scores[seat] >= GOAL then
      return seat
    end
  end
  return nil
end

local function game_over(state)
  if goal_reached(state) then
    return true
  end
  for seat = 1, state.players do
    if cards_in(state.hands[seat]) > 0 then
      return false
    end
  end
  return true
end

-- Who acts: a seat number, "chance" for a random event, or nil once the game is over.
function game.current_player(state)
  if game_over(state) then
    return nil
  end
  if state.drawing then
    return "chance"
  end
  return state.current
end

-- The moves open to the player to act; never empty while the game is not over.
-- Here: action i plays a card of design i.
function game.legal_actions(state)
  local moves = {}
  for i, n in ipairs(state.hands[state.current]) do
    if n > 0 then
      moves[#moves + 1] = i
    end
  end
  return moves
end

-- Optional but worth writing: the move of the `random` bot, without building the list.
-- Building a list for every move is most of a simulation's time once a game has many moves;
-- counting them is cheap. It must pick what the list would: count the moves, take
-- k = rng:index(count), and return the k-th move in legal_actions' order.
function game.random_action(state, rng)
  local hand = state.hands[state.current]
  local count = 0
  for _, n in ipairs(hand) do
    if n > 0 then
      count = count + 1
    end
  end
  local k = rng:index(count)
  for i, n in ipairs(hand) do
    if n > 0 then
      k = k - 1
      if k == 0 then
        return i
      end
    end
  end
end

-- At a chance node: each outcome with its probability. Here: which design is drawn.
function game.chance_outcomes(state)
  local left = cards_in(state.deck)
  local outcomes = {}
  for i, n in ipairs(state.deck) do
    if n > 0 then
      outcomes[#outcomes + 1] = { i, n / left }
    end
  end
  return outcomes
end

-- Optional but worth writing: the outcome of one random event, without building the list.
-- `simulate` draws a number x in [0, 1) and calls this at every chance node instead of
-- chance_outcomes (search bots and `check` still use the list). It must pick what the list
-- would: walk the outcomes in the same order, subtracting each probability (computed the
-- same way) from x until x drops below 0. Then seeded games are the same with or without it.
function game.sample_chance(state, x)
  local left = cards_in(state.deck)
  local last
  for i, n in ipairs(state.deck) do
    if n > 0 then
      x = x - n / left
      if x < 0 then
        return i
      end
      last = i
    end
  end
  return last -- x was within rounding of 1
end

local function points(state, seat, design)
  local suit = designs[design].fields.suit
  local bonus = state.bonus and (state.rows[seat][suit] or 0) or 0
  return designs[design].fields.value + bonus
end

local function next_player(state)
  state.current = state.current % state.players + 1
  -- A player with an empty hand is skipped.
  for _ = 1, state.players do
    if cards_in(state.hands[state.current]) > 0 then
      return
    end
    state.current = state.current % state.players + 1
  end
end

-- Plays a legal move or a chance outcome, changing `state` in place.
function game.apply(state, action)
  local seat = state.current
  if state.drawing then
    state.deck[action] = state.deck[action] - 1
    state.hands[seat][action] = state.hands[seat][action] + 1
    state.drawing = false
    next_player(state)
    return
  end
  state.scores[seat] = state.scores[seat] + points(state, seat, action)
  local suit = designs[action].fields.suit
  state.rows[seat][suit] = (state.rows[seat][suit] or 0) + 1
  table.insert(state.played[seat], action)
  state.hands[seat][action] = state.hands[seat][action] - 1
  if state.scores[seat] >= GOAL then
    return -- the race is won: no more draws
  end
  if cards_in(state.deck) > 0 then
    state.drawing = true
  else
    next_player(state)
  end
end

-- Each seat's result once the game is over: 1 for a win, 0 for a loss, shares for a tie.
-- Only the player who just played can have reached the goal, so the highest score wins.
function game.returns(state)
  local best = math.max(table.unpack(state.scores))
  local winners = 0
  for _, s in ipairs(state.scores) do
    if s == best then
      winners = winners + 1
    end
  end
  local out = {}
  for seat, s in ipairs(state.scores) do
    out[seat] = s == best and 1 / winners or 0
  end
  return out
end

-- An action in words, for `printplay replay` and `printplay play`.
function game.action_name(state, action)
  local d = designs[action]
  if state.drawing then
    return ("player %d draws %s"):format(state.current, d.name)
  end
  return ("player %d plays %s (%s %d) for %s"):format(
    state.current, d.name, d.fields.suit, d.fields.value,
    count(points(state, state.current, action), "point", "points"))
end

-- Optional: the card designs a move plays or acquires, by their `id` in the data, for
-- `printplay simulate --cards` (which designs go with winning). Without it printplay offers
-- no card statistics. Each entry is an id (played for its effect) or
-- { id = "...", effect = false } for a card only discarded, for no effect (counted apart);
-- each id of the data, at most once a move. Here: a played card is its design; a draw (a
-- chance event) plays none.
function game.cards_of(state, action)
  if state.drawing then
    return {}
  end
  return { designs[action].id }
end

-- Optional: where a move acts at the browser table (`printplay serve`), as the keys a person
-- clicks in order: here the card in hand ("card:" and its design's id). Each move's list must
-- differ from every other's. Without it the table offers moves as buttons only.
function game.targets(state, action)
  if state.drawing then
    return {}
  end
  return { "card:" .. designs[action].id }
end

-- Optional: a chance outcome as seat `observer` may know it (0: the public, who sees no hand;
-- `nil`: an onlooker who sees every hand). A card drawn into a hand is named only for its owner; the others learn that a card was
-- drawn. Without this function printplay tells a seat only that chance decided something.
function game.chance_name(state, action, observer)
  if observer == nil or observer == state.current then
    return game.action_name(state, action)
  end
  return ("player %d draws a card"):format(state.current)
end

-- What `seat` can see, in words: their own hand, the others' hand sizes, every score and
-- every row. Everything the table shows belongs here: printplay tells a seat no more than
-- this about the others' moves.
function game.observation(state, seat)
  local lines = {}
  for s = 1, state.players do
    local row = {}
    for _, design in ipairs(state.played[s]) do
      row[#row + 1] = designs[design].name
    end
    local hand = {}
    if s == seat then
      for i, n in ipairs(state.hands[s]) do
        if n > 0 then
          hand[#hand + 1] = ("%d x %s"):format(n, designs[i].name)
        end
      end
    else
      hand[1] = count(cards_in(state.hands[s]), "hidden card", "hidden cards")
    end
    lines[#lines + 1] = ("player %d: %s; hand %s; row %s"):format(
      s, count(state.scores[s], "point", "points"), table.concat(hand, ", "), #row > 0 and table.concat(row, ", ") or "empty")
  end
  lines[#lines + 1] = "deck: " .. count(cards_in(state.deck), "card", "cards")
  return table.concat(lines, "\n")
end

-- Optional: how the game ended and numbers about it, for the balance report.
function game.end_reason(state)
  if goal_reached(state) then
    return "goal reached"
  end
  return "hands empty"
end

function game.end_stats(state)
  local sorted = { table.unpack(state.scores) }
  table.sort(sorted, function(a, b) return a > b end)
  return { ["winning score"] = sorted[1], ["score margin"] = sorted[1] - (sorted[2] or 0) }
end

-- Optional: resample what `seat` cannot see (others' hands and the deck) so that search bots
-- do not peek. Changes the copy `state` in place.
function game.determinize(state, seat, rng)
  local pool = {}
  for i, n in ipairs(state.deck) do
    for _ = 1, n do
      pool[#pool + 1] = i
    end
  end
  local sizes = {}
  for s = 1, state.players do
    if s ~= seat then
      sizes[s] = cards_in(state.hands[s])
      for i, n in ipairs(state.hands[s]) do
        for _ = 1, n do
          pool[#pool + 1] = i
        end
        state.hands[s][i] = 0
      end
    end
  end
  rng:shuffle(pool)
  for s, size in pairs(sizes) do
    for _ = 1, size do
      local card = table.remove(pool)
      state.hands[s][card] = state.hands[s][card] + 1
    end
  end
  for i = 1, #designs do
    state.deck[i] = 0
  end
  for _, card in ipairs(pool) do
    state.deck[card] = state.deck[card] + 1
  end
end

-- Optional: bots by name (`--bots heuristic`). This one plays the card worth most now.
game.bots = {
  heuristic = function(state, seat, rng)
    local best, best_points = nil, -math.huge
    for _, action in ipairs(game.legal_actions(state)) do
      local p = points(state, seat, action)
      if p > best_points then
        best, best_points = action, p
      end
    end
    return best
  end,
}

return game
