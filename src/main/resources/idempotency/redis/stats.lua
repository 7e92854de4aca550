-- ARGV: now, ttl
housekeep(tonumber(ARGV[1]), tonumber(ARGV[2]))
local s = redis.call('HMGET', k('g'), 'entries', 'inflight', 'tombstones', 'replayable', 'bytes')
for i = 1, 5 do
  s[i] = s[i] or '0'
end
local fullest = redis.call('ZREVRANGE', k('sb'), 0, 0, 'WITHSCORES')
s[6] = fullest[2] or '0'
local fullest_human = redis.call('ZREVRANGE', k('hb'), 0, 0, 'WITHSCORES')
s[7] = fullest_human[2] or '0'
return s
