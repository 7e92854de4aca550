-- ARGV: id, hash, scope, principal, human, now, ttl, lease, maxEntries, maxInFlight, maxEntriesPerScope,
-- maxInFlightPerScope, maxEntriesPerPrincipal, maxInFlightPerPrincipal, maxTombstonesPerScope,
-- maxEntriesPerHuman, maxInFlightPerHuman, maxTombstonesPerHuman, then the five of continuity
-- (ARGV[19] to ARGV[23]), then adopt ('1': the replica runs this call and found its entry lost:
-- it is created again in flight, past the fence and the quotas)
local id, hash, scope, principal, human = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local now, ttl, lease = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local max_entries, max_inflight = tonumber(ARGV[9]), tonumber(ARGV[10])
local max_scope_entries, max_scope_inflight = tonumber(ARGV[11]), tonumber(ARGV[12])
local max_principal_entries, max_principal_inflight = tonumber(ARGV[13]), tonumber(ARGV[14])
local max_scope_tombstones = tonumber(ARGV[15])
local max_human_entries, max_human_inflight = tonumber(ARGV[16]), tonumber(ARGV[17])
local max_human_tombstones = tonumber(ARGV[18])
local adopting = ARGV[24] == '1'
local epoch, mark, cause = continuity(19, now)
housekeep(now, ttl)
local ek = k('e', id)
local e = redis.call('HMGET', ek, 'state', 'hash', 'status', 'ctype', 'body')
if e[1] then
  if e[2] ~= hash then
    return answer(epoch, mark, cause, 'conflict')
  elseif e[1] == 'f' then
    return answer(epoch, mark, cause, 'in_flight')
  elseif e[1] == 'c' then
    return answer(epoch, mark, cause, 'replay', e[3], e[4], e[5])
  elseif e[1] == 'u' then
    return answer(epoch, mark, cause, 'outcome_unknown')
  end
  return answer(epoch, mark, cause, 'not_replayable')
end
if not adopting and now < fence_until() then
  return answer(epoch, mark, cause, 'fenced')
end
local sk, pk, hk, g = k('s', scope), k('p', principal), k('h', human), k('g')

-- The first quota or cap that refuses the key, checked in the order of BeginResult.Limit; nil when
-- none does. Evicts what it may to make room.
local function refusal()
  -- The human's counters can only say too much (see recount): recount before refusing on them.
  if num(hk, 'inflight') >= max_human_inflight
      or num(hk, 'tombstones') + num(hk, 'inflight') + 1 > max_human_tombstones then
    recount(human)
  end
  if num(g, 'inflight') >= max_inflight then
    return 'in_flight'
  elseif num(sk, 'inflight') >= max_scope_inflight then
    return 'in_flight_per_scope'
  elseif num(pk, 'inflight') >= max_principal_inflight then
    return 'in_flight_per_principal'
  elseif num(hk, 'inflight') >= max_human_inflight then
    return 'in_flight_per_human'
  elseif num(sk, 'tombstones') + num(sk, 'inflight') + 1 > max_scope_tombstones then
    return 'tombstones_per_scope'
  elseif num(hk, 'tombstones') + num(hk, 'inflight') + 1 > max_human_tombstones then
    return 'tombstones_per_human'
  end
  if num(sk, 'entries') >= max_scope_entries and not evict_oldest(k('rs', scope)) then
    return 'entries_per_scope'
  end
  if num(pk, 'entries') >= max_principal_entries and not evict_oldest(k('rp', principal)) then
    return 'entries_per_principal'
  end
  if num(hk, 'entries') >= max_human_entries and not evict_oldest(k('rh', human)) then
    recount(human)
    if num(hk, 'entries') >= max_human_entries then
      return 'entries_per_human'
    end
  end
  if num(g, 'entries') >= max_entries and not evict_oldest(k('r')) then
    return 'entries'
  end
  return nil
end

if not adopting then
  local limit = refusal()
  if limit then
    return answer(epoch, mark, cause, 'capacity', limit)
  end
end
redis.call('HSET', ek, 'state', 'f', 'hash', hash, 'scope', scope, 'principal', principal, 'human', human)
incr(sk, 'entries', 1)
incr(sk, 'inflight', 1)
incr(pk, 'entries', 1)
incr(pk, 'inflight', 1)
incr(hk, 'entries', 1)
incr(hk, 'inflight', 1)
incr(g, 'entries', 1)
incr(g, 'inflight', 1)
redis.call('ZADD', k('hs', human), now, id)
redis.call('ZADD', k('lease'), now + lease, id)
budget(scope)
human_budget(human)
mark = redis.call('HINCRBY', k('marks'), ARGV[19], 1)
return answer(epoch, mark, cause, 'started')
