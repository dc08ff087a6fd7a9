-- Run once in every engine VM before engine.lua: the sandbox's own helpers.
-- `raw_model` is the game's canonical model as plain tables; it becomes the read-only global
-- `model`; `rawset` is Lua's, which scripts do not get; `raw` the string functions limits.lua
-- wraps, unwrapped. Returns the helpers the host calls: deep copy and the set of read-only proxies
-- (the host's native copy, copy.rs, takes over from this one but for states nested deeply).
local raw_model, rawset, raw = ...
local raw_next, type, setmetatable, getmetatable, error, tostring = next, type, setmetatable, getmetatable, error, tostring
local rawget, rawequal, select = rawget, rawequal, select
local sort, format = table.sort, string.format

-- Read-only views of the model: writes are errors, reads see the data.
local views = setmetatable({}, { __mode = "k" })

local function readonly(t)
  if type(t) ~= "table" then
    return t
  end
  local inner = {}
  for k, v in raw_next, t do
    inner[k] = readonly(v)
  end
  local view = setmetatable({}, {
    __index = inner,
    __newindex = function(_, k)
      error("the model is read-only (tried to set `" .. tostring(k) .. "`)", 2)
    end,
    __len = function()
      return #inner
    end,
    __metatable = false,
  })
  views[view] = inner
  return view
end

-- Values whose identity is their memory address: as table keys they hash by address, and
-- `tostring` shows the address, so anything that follows them changes from run to run.
local BY_ADDRESS = { table = true, ["function"] = true, userdata = true, thread = true }

-- Iteration visits keys in a fixed order (booleans, then numbers, then strings, each
-- ascending), so that a game depends only on which keys a table holds, never on the hash
-- seed of one Lua VM or on where a table lies in memory.
local function before(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    return ta < tb
  end
  if ta == "boolean" then
    return b and not a
  end
  return a < b
end

-- A key that is a table or a function has no fixed order (it hashes by address): that is an
-- error at the line of the script that iterates, `level` calls up.
local function no_order(what, t, level)
  error(format("%s over a table with a %s as a key: such keys have no fixed order (it would follow memory addresses and change from run to run); key the table by numbers or strings, or keep the %ss in a list", what, t, t), level + 1)
end

-- The keys of `source` in that order (called by `pairs` or `next`, called by the script).
local function ordered_keys(source, what)
  local keys, n, first, mixed = {}, 0, nil, false
  for k in raw_next, source do
    local t = type(k)
    if BY_ADDRESS[t] then
      no_order(what, t, 3)
    end
    n = n + 1
    keys[n] = k
    if first == nil then
      first = t
    elseif t ~= first then
      mixed = true
    end
  end
  if mixed then
    sort(keys, before)
  elseif first ~= "boolean" then
    sort(keys)
  elseif n == 2 and keys[1] then
    keys[1], keys[2] = false, true
  end
  return keys, n
end

-- The first key of `source` in that order, found without sorting (`next(t) == nil`, the test
-- for an empty table, stays linear).
local function first_key(source)
  local best
  for k in raw_next, source do
    local t = type(k)
    if BY_ADDRESS[t] then
      no_order("next", t, 3)
    end
    if best == nil or before(k, best) then
      best = k
    end
  end
  return best
end

local function table_expected(name, t)
  error(format("bad argument #1 to '%s' (table expected, got %s)", name, type(t)), 3)
end

function pairs(t)
  if type(t) ~= "table" then
    table_expected("pairs", t)
  end
  local source = views[t] or t
  local keys, n = ordered_keys(source, "pairs")
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = keys[i]
      local v = rawget(source, k)
      if v ~= nil then
        return k, v
      end
    end
  end, t, nil
end

-- `next` in the same order: `next(t, k)` is the key after `k`. A traversal keeps its sorted
-- list of keys (weakly, by table) from its second step, so that each step costs what Lua's
-- own does; keys added during a traversal are not visited (Lua leaves that undefined), keys
-- removed are skipped.
local orders = setmetatable({}, { __mode = "k" })

function next(t, k)
  if type(t) ~= "table" then
    table_expected("next", t)
  end
  local source = views[t] or t
  if k == nil then
    -- A new traversal: the keys may have changed since the last one.
    orders[t] = nil
    local first = first_key(source)
    if first == nil then
      return nil
    end
    return first, rawget(source, first)
  end
  local order = orders[t]
  local i
  if order ~= nil and rawequal(order[order.at], k) then
    i = order.at
  else
    local keys, n = ordered_keys(source, "next")
    order = keys
    order.n = n
    orders[t] = order
    -- On from `k`: the key after it in the fixed order, even if `k` itself is gone (removed
    -- during a traversal another one interrupted).
    i = n
    for j = 1, n do
      local key = keys[j]
      if rawequal(key, k) then
        i = j
        break
      elseif before(k, key) then
        i = j - 1
        break
      end
    end
  end
  local n = order.n
  while i < n do
    i = i + 1
    local key = order[i]
    local v = rawget(source, key)
    if v ~= nil then
      order.at = i
      return key, v
    end
  end
  order.at = nil
  return nil
end

-- Finalizers (`__gc`) run while memory is collected, where no budget of Lua instructions
-- reaches them (one that loops would hang the run, or the program at exit), and weak tables
-- (`__mode`) keep or lose entries as the collector happens to run, so games would not
-- repeat. A metatable with either is refused when it is set (Lua marks an object for
-- finalization only then), and a metatable set gets a guard that refuses either later (unless
-- the script gives the metatable a metatable of its own).
local function refuse(k, level)
  if k == "__gc" then
    error("a metatable with __gc: the sandbox runs no finalizers (they would run outside the budget of Lua instructions)", level + 1)
  elseif k == "__mode" then
    error("a metatable with __mode: weak tables keep or lose entries as memory happens to be collected, so games would not repeat", level + 1)
  end
end

local GUARD = {
  __newindex = function(mt, k, v)
    refuse(k, 2)
    rawset(mt, k, v)
  end,
}

local function guarded_setmetatable(t, mt, level)
  if type(mt) == "table" then
    refuse(rawget(mt, "__gc") ~= nil and "__gc" or rawget(mt, "__mode") ~= nil and "__mode", level + 1)
    if getmetatable(mt) == nil then
      setmetatable(mt, GUARD)
    end
  end
  return setmetatable(t, mt)
end

_ENV.setmetatable = function(t, mt)
  return guarded_setmetatable(t, mt, 2)
end

-- A deep copy of the table `v`; the model's views are shared, not copied. Only tables are
-- passed down (a call per number or string would cost more than the copy itself).
local function copy(v, seen)
  local done = seen[v]
  if done then
    return done
  end
  local c = {}
  seen[v] = c
  for k, x in raw_next, v do
    if type(k) == "table" and not views[k] then
      k = copy(k, seen)
    end
    if type(x) == "table" and not views[x] then
      x = copy(x, seen)
    end
    c[k] = x
  end
  return guarded_setmetatable(c, getmetatable(v), 3)
end

-- `tostring` and `string.format` of a table or function without `__tostring` would show its
-- memory address, which changes from run to run: an error at the script's line instead.
local find, gsub = raw.find, raw.gsub

local function named(v, level)
  local s = tostring(v)
  if BY_ADDRESS[type(v)] and find(s, "^[^:]*: 0x%x+$") then
    error(format("tostring of a %s shows only its memory address, which changes from run to run; give it a __tostring metamethod or name what it holds", type(v)), level + 1)
  end
  return s
end

_ENV.tostring = function(v)
  return named(v, 2)
end

local function addresses_in(...)
  for i = 1, select("#", ...) do
    if BY_ADDRESS[type((select(i, ...)))] then
      return true
    end
  end
  return false
end

string.format = function(fmt, ...)
  if type(fmt) == "string" then
    if find(fmt, "p", 1, true) and find(fmt, "%", 1, true) then
      local bare = gsub(fmt, "%%%%", "")
      if find(bare, "%%%-?%d*p") then
        error("string.format: %p shows a memory address, which changes from run to run", 2)
      end
    end
    if addresses_in(...) then
      local args = { ... }
      for i = 1, select("#", ...) do
        if BY_ADDRESS[type(args[i])] then
          args[i] = named(args[i], 2)
        end
      end
      return format(fmt, table.unpack(args, 1, select("#", ...)))
    end
  end
  return format(fmt, ...)
end

model = readonly(raw_model)

return function(state)
  if type(state) ~= "table" or views[state] then
    return state
  end
  return copy(state, {})
end, views
