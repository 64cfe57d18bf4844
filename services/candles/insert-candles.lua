-- Stores one resolution's candles from the history source into the periods that hold none, atomically:
-- a period that has a candle (ours, or already filled) keeps it.
-- KEYS[1]: the sorted set of one pair and resolution; ARGV[1]: how many of its newest candles it keeps;
-- then 7 fields per candle, in the member's order (time|open|openAt|high|low|close|closeAt).

local FIELDS = 7
local keep = tonumber(ARGV[1])
for i = 2, #ARGV, FIELDS do
  if not redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[i], ARGV[i])[1] then
    redis.call('ZADD', KEYS[1], ARGV[i], table.concat({ ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6] }, '|'))
  end
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -keep - 1)
