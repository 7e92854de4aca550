-- Drops what expired, counts, and reserves a place under both caps, or none. Returns 1
-- for reserved, 0 for a cap reached.
-- KEYS: the key prefix. ARGV: principal key, reservation id, now (ms, the gateway clock),
-- lease (ms), max per principal, max.
local q, g = KEYS[1] .. 'q:' .. ARGV[1], KEYS[1] .. 'g'
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', q, '-inf', now)
redis.call('ZREMRANGEBYSCORE', g, '-inf', now)
if redis.call('ZCARD', g) >= tonumber(ARGV[6]) or redis.call('ZCARD', q) >= tonumber(ARGV[5]) then
  return 0
end
local member = 'r:' .. ARGV[2]
redis.call('ZADD', q, now + tonumber(ARGV[4]), member)
redis.call('ZADD', g, now + tonumber(ARGV[4]), member)
return 1
