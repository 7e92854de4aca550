-- ARGV: now, ttl. Answers the counts of IdempotencyStats, then the fence.
housekeep(tonumber(ARGV[1]), tonumber(ARGV[2]))
local s = redis.call('HMGET', k('g'), 'entries', 'inflight', 'tombstones', 'replayable', 'bytes')
for i = 1, 5 do
  s[i] = s[i] or '0'
end
local fullest = redis.call('ZREVRANGE', k('sb'), 0, 0, 'WITHSCORES')
s[6] = fullest[2] or '0'
local fullest_human = redis.call('ZREVRANGE', k('hb'), 0, 0, 'WITHSCORES')
s[7] = fullest_human[2] or '0'
-- The fence (ADR 0025): its end, its start and its cause; '0', '0', '' when there has been none.
local f = redis.call('HMGET', k('fence'), 'until', 'since', 'cause')
s[8], s[9], s[10] = f[1] or '0', f[2] or '0', f[3] or ''
return s
