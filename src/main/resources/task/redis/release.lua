-- Gives a reservation's place back. Returns how many places were given back (0 or 1).
-- KEYS: the key prefix. ARGV: principal key, reservation id.
local member = 'r:' .. ARGV[2]
redis.call('ZREM', KEYS[1] .. 'q:' .. ARGV[1], member)
return redis.call('ZREM', KEYS[1] .. 'g', member)
