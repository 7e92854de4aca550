-- ARGV: id, hash, now, status, contentType ('' for none), body, keep until (0: the TTL)
local id, hash, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
if not in_flight(id, hash) then
  return { 'ignored' }
end
local scope, principal, human = finish(id, 'c', now, tonumber(ARGV[7] or '0'))
local size = string.len(ARGV[6])
redis.call('HSET', k('e', id), 'status', ARGV[4], 'ctype', ARGV[5], 'body', ARGV[6], 'size', size)
local seq = redis.call('INCR', k('seq'))
redis.call('ZADD', k('r'), seq, id)
redis.call('ZADD', k('rs', scope), seq, id)
redis.call('ZADD', k('rp', principal), seq, id)
if human then
  redis.call('ZADD', k('rh', human), seq, id)
end
incr(k('g'), 'replayable', 1)
incr(k('g'), 'bytes', size)
return { 'ok' }
