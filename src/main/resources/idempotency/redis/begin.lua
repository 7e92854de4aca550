-- ARGV: id, hash, scope, principal, now, ttl, lease, maxEntries, maxInFlight, maxEntriesPerScope,
-- maxInFlightPerScope, maxEntriesPerPrincipal, maxInFlightPerPrincipal, maxTombstonesPerScope
local id, hash, scope, principal = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now, ttl, lease = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
housekeep(now, ttl)
local ek = k('e', id)
local e = redis.call('HMGET', ek, 'state', 'hash', 'status', 'ctype', 'body')
if e[1] then
  if e[2] ~= hash then
    return { 'conflict' }
  elseif e[1] == 'f' then
    return { 'in_flight' }
  elseif e[1] == 'c' then
    return { 'replay', e[3], e[4], e[5] }
  elseif e[1] == 'u' then
    return { 'outcome_unknown' }
  end
  return { 'not_replayable' }
end
local sk, pk, g = k('s', scope), k('p', principal), k('g')
if num(g, 'inflight') >= tonumber(ARGV[9]) or num(sk, 'inflight') >= tonumber(ARGV[11])
    or num(pk, 'inflight') >= tonumber(ARGV[13]) then
  return { 'capacity' }
end
if num(sk, 'tombstones') + num(sk, 'inflight') + 1 > tonumber(ARGV[14]) then
  return { 'capacity' }
end
if num(sk, 'entries') >= tonumber(ARGV[10]) and not evict_oldest(k('rs', scope)) then
  return { 'capacity' }
end
if num(pk, 'entries') >= tonumber(ARGV[12]) and not evict_oldest(k('rp', principal)) then
  return { 'capacity' }
end
if num(g, 'entries') >= tonumber(ARGV[8]) and not evict_oldest(k('r')) then
  return { 'capacity' }
end
redis.call('HSET', ek, 'state', 'f', 'hash', hash, 'scope', scope, 'principal', principal)
incr(sk, 'entries', 1)
incr(sk, 'inflight', 1)
incr(pk, 'entries', 1)
incr(pk, 'inflight', 1)
incr(g, 'entries', 1)
incr(g, 'inflight', 1)
redis.call('ZADD', k('lease'), now + lease, id)
budget(scope)
return { 'started' }
