-- Merges one pair's one-minute candles into its candles of every resolution, atomically.
-- KEYS: one sorted set per resolution; score = period start, member = "time|open|openAt|high|low|close|closeAt".
-- ARGV[1]: how many of its newest candles each sorted set keeps; ARGV[2]: `all`, or `absent` to skip every
-- minute KEYS[1] (resolution 1) already holds (history from the upstream source: our own candles win);
-- ARGV[3 .. #KEYS + 2]: the period width in seconds of each key; then 7 fields per minute candle, in the
-- member's order.
-- The rule is mergeCandles in candle.ts: the earlier tick opens, the later one closes; on a tie the stored
-- open stays and the arriving close wins. Prices stay the strings the writer sent (tonumber only compares
-- them), so no digit is lost.

local FIELDS = 7
local keep = tonumber(ARGV[1])
local onlyAbsent = ARGV[2] == 'absent'
local firstCandle = #KEYS + 3

local function split(member)
  local fields = {}
  for field in string.gmatch(member, '[^|]+') do fields[#fields + 1] = field end
  return fields
end

-- fields: 1 time, 2 open, 3 openAt, 4 high, 5 low, 6 close, 7 closeAt
local function merge(stored, arriving)
  local merged = { stored[1], stored[2], stored[3], stored[4], stored[5], stored[6], stored[7] }
  if tonumber(arriving[3]) < tonumber(stored[3]) then merged[2], merged[3] = arriving[2], arriving[3] end
  if tonumber(arriving[4]) > tonumber(stored[4]) then merged[4] = arriving[4] end
  if tonumber(arriving[5]) < tonumber(stored[5]) then merged[5] = arriving[5] end
  if tonumber(arriving[7]) >= tonumber(stored[7]) then merged[6], merged[7] = arriving[6], arriving[7] end
  return merged
end

-- decided before anything is written: a minute held at resolution 1 is skipped at every resolution
local skip = {}
if onlyAbsent then
  for i = firstCandle, #ARGV, FIELDS do
    if redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[i], ARGV[i])[1] then skip[i] = true end
  end
end

for k = 1, #KEYS do
  local key = KEYS[k]
  local width = tonumber(ARGV[k + 2])
  for i = firstCandle, #ARGV, FIELDS do
    if not skip[i] then
      local minute = tonumber(ARGV[i])
      local period = minute - minute % width
      local candle = { string.format('%d', period), ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6] }
      local stored = redis.call('ZRANGEBYSCORE', key, period, period)
      if stored[1] then
        candle = merge(split(stored[1]), candle)
        redis.call('ZREM', key, stored[1])
      end
      redis.call('ZADD', key, period, table.concat(candle, '|'))
    end
  end
  redis.call('ZREMRANGEBYRANK', key, 0, -keep - 1)
end
