-- Run once in every engine VM after engine.lua, with its engine table: the host's shortcuts,
-- so that one call from printplay does what would otherwise take several (each call across
-- the Rust/Lua boundary costs more than the Lua it runs). They call the script's functions
-- and draw exactly as printplay's own code would.
local game, copy = ...
local apply, current_player = game.apply, game.current_player
local legal_actions, chance_outcomes = game.legal_actions, game.chance_outcomes
local determinize = game.determinize
local type, mtype, abs = type, math.type, math.abs

local host = {}

-- Plays an action and says whose turn it is now: the seat, CHANCE, OVER, or whatever else
-- current_player returned (for the host's error message). Integers, so the host reads the
-- answer without comparing strings; no script returns these two as a seat.
local CHANCE, OVER = math.mininteger, math.mininteger + 1
function host.step(state, action)
  apply(state, action)
  local seat = current_player(state)
  if seat == "chance" then
    return CHANCE
  elseif seat == nil or seat == false then
    return OVER
  end
  return seat
end

-- The chance outcome at `x` in [0, 1): outcomes walked in order, as printplay samples them.
-- nil when they are not {integer, probability} pairs with probabilities from 0 to 1 summing to
-- 1, with the sum when they are pairs. (Tests are written so that a NaN fails them.)
function host.sample(state, x)
  local list = chance_outcomes(state)
  if type(list) ~= "table" then
    return nil
  end
  local n, total = #list, 0
  for i = 1, n do
    local o = list[i]
    if type(o) ~= "table" or mtype(o[1]) ~= "integer" or type(o[2]) ~= "number"
      or not (o[2] >= 0 and o[2] <= 1) then
      return nil
    end
    total = total + o[2]
  end
  if n == 0 or not (abs(total - 1) <= 1e-9) then
    return nil, total
  end
  for i = 1, n do
    x = x - list[i][2]
    if x < 0 then
      return list[i][1]
    end
  end
  return list[n][1]
end

-- A legal action drawn uniformly (rng:index draws as printplay's own random_action does); nil
-- when there is none. The host passes nil before the generator.
function host.pick(state, _, rng)
  local list = legal_actions(state)
  if type(list) ~= "table" then
    return nil
  end
  local n = #list
  if n == 0 then
    return nil
  end
  local a = list[rng:index(n)]
  if mtype(a) ~= "integer" then
    return nil
  end
  return a
end

-- What determinize draws for `seat`, on a copy that is then dropped: the simulator's random
-- bot sees nothing hidden, but its turn draws as any bot's does, so that seeded games do not
-- depend on which bots play. The host calls it only when the script has a determinize.
function host.redeal(state, seat, rng)
  determinize(copy(state), seat, rng)
end

return host
