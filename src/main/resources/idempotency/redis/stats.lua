-- ARGV: now, ttl
housekeep(tonumber(ARGV[1]), tonumber(ARGV[2]))
local s = redis.call('HMGET', k('g'), 'entries', 'inflight', 'tombstones', 'replayable', 'bytes')
for i = 1, 5 do
  s[i] = s[i] or '0'
end
return s
