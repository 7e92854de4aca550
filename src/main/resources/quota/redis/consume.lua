-- Checks, and with ARGV[2n+1] = '1' takes, one token of each of a request's buckets: all
-- or none. Time is Redis's own clock (TIME, in microseconds), so that replicas never
-- disagree about a bucket. A bucket's value is its theoretical arrival time; it expires
-- when the bucket would be full again.
-- KEYS: the buckets. ARGV: interval (microseconds) and burst of each, then 1 to consume, 0 to peek.
-- Returns: the index of the first refusing bucket (-1: none), the wait in microseconds, then each
-- bucket's tokens; when peeking, then each bucket's wait for its next token in microseconds (0: full).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local n = #KEYS
local consume = ARGV[2 * n + 1] == '1'
local refused, wait = -1, 0
local nexts, remaining, tats = {}, {}, {}
for i = 1, n do
  local interval, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local tat = tonumber(redis.call('GET', KEYS[i]) or now)
  if tat < now then tat = now end
  tats[i] = tat
  nexts[i] = tat + interval
  local from = nexts[i] - interval * burst
  if now < from then
    if refused < 0 then refused = i - 1 end
    if from - now > wait then wait = from - now end
  end
  remaining[i] = math.max(0, math.floor((now + interval * burst - tat) / interval))
end
if consume and refused < 0 then
  for i = 1, n do
    redis.call('SET', KEYS[i], nexts[i], 'PX', math.ceil((nexts[i] - now) / 1000) + 1)
    remaining[i] = remaining[i] - 1
  end
end
local out = {refused, wait}
for i = 1, n do out[#out + 1] = remaining[i] end
if not consume then
  for i = 1, n do
    local interval, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
    if tats[i] <= now then
      out[#out + 1] = 0
    else
      out[#out + 1] = interval - ((now + interval * burst - tats[i]) % interval)
    end
  end
end
return out
