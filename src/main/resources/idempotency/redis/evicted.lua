-- ARGV: now, the five of continuity (ARGV[2] to ARGV[6]). A replica saw Redis evict keys under a
-- maxmemory-policy that can evict the store's (RedisEvictions): any entry may be gone, so the
-- fence starts, or is extended, as for lost writes.
local now = tonumber(ARGV[1])
local epoch, mark, cause = continuity(2, now)
if cause == '' and start_fence(now, tonumber(ARGV[6]), 'evicted', epoch) then
  cause = 'evicted'
end
return answer(epoch, mark, cause, 'ok')
