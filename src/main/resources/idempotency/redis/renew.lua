-- ARGV: now, lease, id... : extends the lease of the in-flight entries this replica still runs.
local deadline = tonumber(ARGV[1]) + tonumber(ARGV[2])
for i = 3, #ARGV do
  redis.call('ZADD', k('lease'), 'XX', deadline, ARGV[i])
end
return { 'ok' }
