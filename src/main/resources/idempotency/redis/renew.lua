-- ARGV: now, lease, the five of continuity (ARGV[3] to ARGV[7]), then the ids of the in-flight entries
-- this replica still runs, whose leases it extends. Run even with no id: it is how a replica that
-- begins nothing learns of a loss, and of the fence's end.
local now = tonumber(ARGV[1])
local deadline = now + tonumber(ARGV[2])
local epoch, mark, cause = continuity(3, now)
for i = 8, #ARGV do
  redis.call('ZADD', k('lease'), 'XX', deadline, ARGV[i])
end
return answer(epoch, mark, cause, 'ok')
