--[[
  queue.lua: a priority queue with event hooks.
  Loaded with require("queue").
]]

local json = require("cjson")
local util = require "lib.util"
local log = require('lib.log').scoped("queue")
local insert, remove = table.insert, table.remove

--- Module table.
local M = {
  version = "2.1",
  -- Default comparator: smaller priority first.
  less = function(a, b) return a.priority < b.priority end,
}

--- Queue class.
-- Instances are created with Queue.new.
local Queue = {}
Queue.__index = Queue

---@param opts table|nil options: cmp, name
---@return Queue
function Queue.new(opts)
  opts = opts or {}
  local self = setmetatable({}, Queue)
  self.items = {}
  self.cmp = opts.cmp or M.less
  self.hooks = { push = {}, pop = {} }
  return self
end

--- Pushes an item and runs the push hooks.
function Queue:push(item)
  insert(self.items, item)
  self:sift_up(#self.items)
  self:emit("push", item)
  return self
end

function Queue:pop()
  local items = self.items
  if #items == 0 then return nil end
  local top = items[1]
  items[1] = items[#items]
  remove(items)
  self:sift_down(1)
  self:emit("pop", top)
  return top
end

-- Restores the heap upwards from i.
function Queue:sift_up(i)
  local items, cmp = self.items, self.cmp
  while i > 1 do
    local parent = math.floor(i / 2)
    if not cmp(items[i], items[parent]) then break end
    items[i], items[parent] = items[parent], items[i]
    i = parent
  end
end

function Queue:sift_down(i)
  local items, n = self.items, #self.items
  while true do
    local smallest = i
    for _, c in ipairs({ 2 * i, 2 * i + 1 }) do
      if c <= n and self.cmp(items[c], items[smallest]) then smallest = c end
    end
    if smallest == i then return end
    items[i], items[smallest] = items[smallest], items[i]
    i = smallest
  end
end

--- Registers fn for an event; returns a function that removes it.
function Queue:on(event, fn)
  local list = self.hooks[event] or error("unknown event " .. tostring(event))
  insert(list, fn)
  return function()
    for i, f in ipairs(list) do
      if f == fn then remove(list, i) end
    end
  end
end

function Queue:emit(event, ...)
  local args = { ... }
  for _, fn in ipairs(self.hooks[event]) do
    local ok, err = pcall(function() fn(unpack(args)) end)
    if not ok then log:warn("hook failed: %s", err) end
  end
end

local function encode_item(item)
  return json.encode({ id = item.id, priority = item.priority })
end

local decode = function(s)
  local t = json.decode(s)
  return util.assert_table(t, "item")
end

-- Serialises the queue to a JSON array.
M.dump = function(q)
  local out = {}
  for i = 1, #q.items do
    out[#out + 1] = encode_item(q.items[i])
  end
  return "[" .. table.concat(out, ",") .. "]"
end

function M.load(s)
  local q = Queue.new()
  for _, raw in ipairs(json.decode(s)) do
    q:push(decode(json.encode(raw)))
  end
  return q
end

function M.stats.count(q) return #q.items end

-- Long brackets hold text that looks like code.
function M.help()
  return [==[
    function not_a_function() end  -- ]] does not close this string
    q:push(item)
  ]==] .. tostring(M.version)
end

M.Queue = Queue
return M
