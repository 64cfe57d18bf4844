-- Adds a span [from, to) to the spans asked about for one pair and resolution, atomically.
-- KEYS[1]: the pair's hash; ARGV[1]: the resolution (the field); ARGV[2], ARGV[3]: from and to.
-- The field holds a JSON array of [from, to] pairs, sorted and disjoint; touching spans are merged
-- (the rule of withSpan in coverage.ts).

local raw = redis.call('HGET', KEYS[1], ARGV[1])
local spans = raw and cjson.decode(raw) or {}
local from, to = tonumber(ARGV[2]), tonumber(ARGV[3])
if to <= from then return 0 end
local merged = {}
local placed = false
for _, span in ipairs(spans) do
  if span[2] < from then
    merged[#merged + 1] = span
  elseif span[1] > to then
    if not placed then merged[#merged + 1] = { from, to } end
    placed = true
    merged[#merged + 1] = span
  else
    if span[1] < from then from = span[1] end
    if span[2] > to then to = span[2] end
  end
end
if not placed then merged[#merged + 1] = { from, to } end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(merged))
return #merged
