-- Run once in every engine VM before engine.lua: the sandbox's own helpers.
-- `raw_model` is the game's canonical model as plain tables; it becomes the read-only global
-- `model`. Returns the helpers the host calls: deep copy and the set of read-only proxies
-- (the host's native copy, copy.rs, takes over from this one but for states nested deeply).
local raw_model = ...
local next, type, setmetatable, getmetatable, error, tostring = next, type, setmetatable, getmetatable, error, tostring
local sort = table.sort

-- Read-only views of the model: writes are errors, reads see the data.
local views = setmetatable({}, { __mode = "k" })

local function readonly(t)
  if type(t) ~= "table" then
    return t
  end
  local inner = {}
  for k, v in next, t do
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

-- Keys in a fixed order (numbers, then strings, each ascending), so that a game never depends
-- on the hash seed of one Lua VM.
local function before(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    return ta < tb
  end
  if ta == "number" or ta == "string" then
    return a < b
  end
  if ta == "boolean" then
    return b and not a
  end
  return false
end

function pairs(t)
  local source = views[t] or t
  local keys, n = {}, 0
  for k in next, source do
    n = n + 1
    keys[n] = k
  end
  sort(keys, before)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then
      return k, source[k]
    end
  end, t, nil
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
  for k, x in next, v do
    if type(k) == "table" and not views[k] then
      k = copy(k, seen)
    end
    if type(x) == "table" and not views[x] then
      x = copy(x, seen)
    end
    c[k] = x
  end
  return setmetatable(c, getmetatable(v))
end

model = readonly(raw_model)

return function(state)
  if type(state) ~= "table" or views[state] then
    return state
  end
  return copy(state, {})
end, views
