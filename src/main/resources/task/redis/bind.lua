-- Turns a reservation into a binding, keeping a binding that exists (first owner).
-- Returns 1 for bound, 0 for already bound.
-- KEYS: the key prefix. ARGV: principal key, reservation id, task key, value, ttl (ms),
-- expires at (epoch ms, the gateway clock).
local q, g = KEYS[1] .. 'q:' .. ARGV[1], KEYS[1] .. 'g'
local member = 'r:' .. ARGV[2]
redis.call('ZREM', q, member)
redis.call('ZREM', g, member)
local b = KEYS[1] .. 'b:' .. ARGV[3]
if redis.call('EXISTS', b) == 1 then
  return 0
end
redis.call('SET', b, ARGV[4], 'PX', ARGV[5])
redis.call('ZADD', q, tonumber(ARGV[6]), ARGV[3])
redis.call('ZADD', g, tonumber(ARGV[6]), ARGV[3])
return 1
