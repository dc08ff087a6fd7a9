-- Run once in every engine VM, before prelude.lua and engine.lua. The budget's hook counts Lua
-- instructions, but the standard library's C functions run without it: one call to
-- string.find with a catastrophic pattern, or table.move over a billion indices, would run
-- for hours. The functions whose work grows with their arguments are wrapped here so that
-- an estimate of that work is charged against the call's budget first; a call that cannot
-- afford it is refused with an error at the script's line.
local charge, pattern_shape = ...
local type, error, select, tostring = type, error, select, tostring
-- Lua's own string.format: prelude.lua wraps the global one with pattern calls charged here.
local format = string.format
-- The library's own functions, returned for prelude.lua's wrappers, which need no charge.
local raw = { find = string.find, gsub = string.gsub }
local log = math.log

-- Work this small is paid for by the wrapper's own instructions.
local FREE = 64
-- Bytes a C function copies in the time of one Lua instruction.
local BYTES_PER_STEP = 16

local function pay(name, cost, what)
  if cost <= FREE then
    return
  end
  local ok, left = charge(cost)
  if not ok then
    error(format("%s: %s may take %.3g steps, more than the %d left in this call's budget of Lua instructions",
      name, what, cost, left), 3)
  end
end

-- The length of a string argument (a number converts to a short string).
local function length(s)
  local t = type(s)
  if t == "string" then
    return #s
  elseif t == "number" then
    return #tostring(s)
  end
  return 0
end

-- The worst case of a pattern (see limits.rs), cached by pattern.
local shapes, cached = {}, 0
local MAX_CACHED = 1000

local function shape_of(p)
  local shape = shapes[p]
  if shape == nil then
    local anchored, degree, optional, items = pattern_shape(p)
    shape = { anchored, degree, optional, items }
    if cached >= MAX_CACHED then
      shapes, cached = {}, 0
    end
    shapes[p], cached = shape, cached + 1
  end
  return shape
end

local function pattern_cost(s, p, anchors)
  local n = length(s)
  if type(p) == "number" then
    p = tostring(p)
  elseif type(p) ~= "string" then
    return 0 -- the matcher reports the wrong argument
  end
  local shape = shape_of(p)
  local starts = (anchors and shape[1]) and 1 or n + 1
  return starts * (shape[4] + n + 1) * (n + 1) ^ shape[2] * 2 ^ shape[3], n
end

local function matching(name, f, anchors)
  local full = "string." .. name
  return function(s, p, init, plain, ...)
    local cost, n
    if plain and name == "find" then
      n = length(s)
      cost = (n + 1) * (length(p) + 1)
    else
      cost, n = pattern_cost(s, p, anchors)
    end
    if cost > FREE then
      pay(full, cost, format("this pattern on a subject of %d characters", n))
    end
    return f(s, p, init, plain, ...)
  end
end

string.find = matching("find", string.find, true)
string.match = matching("match", string.match, true)
string.gsub = matching("gsub", string.gsub, true)
-- gmatch reads `^` as a character, not an anchor; the whole iteration is paid for here.
string.gmatch = matching("gmatch", string.gmatch, false)

-- Functions whose work is the length of their result or of the strings they read.
local rep, sub, upper, lower, reverse, byte = string.rep, string.sub, string.upper, string.lower,
  string.reverse, string.byte

function string.rep(s, n, sep)
  if type(n) == "number" and n > 0 then
    pay("string.rep", (length(s) + length(sep)) * n / BYTES_PER_STEP, "building the string")
  end
  return rep(s, n, sep)
end

local function linear(name, f)
  local full = "string." .. name
  return function(s, ...)
    local n = length(s)
    if n > FREE * BYTES_PER_STEP then
      pay(full, n / BYTES_PER_STEP, format("a string of %d characters", n))
    end
    return f(s, ...)
  end
end

string.sub = linear("sub", sub)
string.upper = linear("upper", upper)
string.lower = linear("lower", lower)
string.reverse = linear("reverse", reverse)

-- The number of values in t[i..j], with Lua's defaults.
local function span(t, i, j, default_i)
  if type(t) ~= "table" and j == nil then
    return 0
  end
  i = i or default_i
  j = j or #t
  if type(i) ~= "number" or type(j) ~= "number" then
    return 0
  end
  return j - i + 1
end

function string.byte(s, i, j)
  if type(j) == "number" and (i == nil or type(i) == "number") then
    pay("string.byte", (j - (i or 1) + 1), "returning that many values")
  end
  return byte(s, i, j)
end

local concat, move, insert, remove, sort, unpack =
  table.concat, table.move, table.insert, table.remove, table.sort, table.unpack

function table.concat(list, sep, i, j)
  pay("table.concat", span(list, i, j, 1), "joining that many values")
  return concat(list, sep, i, j)
end

function table.move(a1, f, e, t, a2)
  if type(f) == "number" and type(e) == "number" then
    pay("table.move", e - f + 1, "moving that many values")
  end
  return move(a1, f, e, t, a2)
end

function table.unpack(list, i, j)
  pay("table.unpack", span(list, i, j, 1), "returning that many values")
  return unpack(list, i, j)
end

function table.insert(t, ...)
  if select("#", ...) == 2 and type(t) == "table" then
    local pos = ...
    if type(pos) == "number" then
      pay("table.insert", #t - pos + 1, "shifting that many values")
    end
  end
  return insert(t, ...)
end

function table.remove(t, ...)
  if select("#", ...) >= 1 and type(t) == "table" then
    local pos = ...
    if type(pos) == "number" then
      pay("table.remove", #t - pos, "shifting that many values")
    end
  end
  return remove(t, ...)
end

function table.sort(t, less)
  if type(t) == "table" then
    local n = #t
    if n > 1 then
      pay("table.sort", n * log(n, 2), "comparing that many values")
    end
  end
  return sort(t, less)
end

-- A spent budget cannot be caught: once a call has run over it (the hook's error, or a
-- refused charge above), every error that pcall or xpcall would catch is raised again, so a
-- script that swallows its overrun still stops, with the overrun's own message.
local raw_pcall, raw_xpcall = pcall, xpcall

local function spent()
  local _, left = charge(0)
  return left <= 0
end

local function unless_spent(ok, ...)
  if not ok and spent() then
    error((...), 0)
  end
  return ok, ...
end

function pcall(f, ...)
  return unless_spent(raw_pcall(f, ...))
end

function xpcall(f, handler, ...)
  return unless_spent(raw_xpcall(f, function(e)
    if spent() then
      return e
    end
    return handler(e)
  end, ...))
end

return raw
