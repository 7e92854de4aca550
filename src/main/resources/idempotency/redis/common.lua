-- Shared by every Idempotency-Key script. Mirrors InMemoryIdempotencyStore; read its design notes.
-- KEYS[1] is the key prefix; it contains a hash tag, so every key below lives in one cluster slot.
-- Entry states: f = in flight, c = completed (replayable), u = tombstone (outcome unknown),
-- n = tombstone (not replayable). Entry ids are scoped SHA-256 hashes, never raw keys.
local P = KEYS[1]

local function k(...)
  return P .. table.concat({ ... }, ':')
end

local function num(key, field)
  return tonumber(redis.call('HGET', key, field) or '0')
end

local function incr(key, field, by)
  redis.call('HINCRBY', key, field, by)
end

-- Keeps a level's tombstone budget use (tombstones + in flight) in a sorted set ('sb' for
-- scopes, 'hb' for humans) whose highest score is the fullest one (stats); call after
-- changing either count.
local function track(set, key, member)
  local used = num(key, 'tombstones') + num(key, 'inflight')
  if used > 0 then
    redis.call('ZADD', k(set), used, member)
  else
    redis.call('ZREM', k(set), member)
  end
end

local function budget(scope)
  track('sb', k('s', scope), scope)
end

-- The human level (ADR 0019) counts in the hash 'h:<human>' and lists its entry ids in the
-- sorted set 'hs:<human>' (for recount). Entries written by a version without this level
-- have no human: they count nowhere here, as they were never counted.
local function human_budget(human)
  if human then
    track('hb', k('h', human), human)
  end
end

local function human_incr(human, field, by)
  if human then
    incr(k('h', human), field, by)
  end
end

-- Rebuilds a human's counters from its entries. A version without the human level removes
-- entries without uncounting them; the counters then say too much, never too little, so
-- begin recounts only before it would refuse at the human level.
local function recount(human)
  local hk, hs = k('h', human), k('hs', human)
  local entries, inflight, tombstones = 0, 0, 0
  for _, id in ipairs(redis.call('ZRANGE', hs, 0, -1)) do
    local state = redis.call('HGET', k('e', id), 'state')
    if not state then
      redis.call('ZREM', hs, id)
      redis.call('ZREM', k('rh', human), id)
    else
      entries = entries + 1
      if state == 'f' then
        inflight = inflight + 1
      elseif state == 'u' or state == 'n' then
        tombstones = tombstones + 1
      end
    end
  end
  redis.call('HSET', hk, 'entries', entries, 'inflight', inflight, 'tombstones', tombstones)
  human_budget(human)
end

-- Removes an entry whatever its state, keeping every counter and queue in step.
local function remove(id)
  local ek = k('e', id)
  local e = redis.call('HMGET', ek, 'state', 'scope', 'principal', 'size', 'human')
  local state, scope, principal, human = e[1], e[2], e[3], e[5]
  if not state then
    return
  end
  local sk, pk, g = k('s', scope), k('p', principal), k('g')
  incr(sk, 'entries', -1)
  incr(pk, 'entries', -1)
  incr(g, 'entries', -1)
  human_incr(human, 'entries', -1)
  if state == 'f' then
    incr(sk, 'inflight', -1)
    incr(pk, 'inflight', -1)
    incr(g, 'inflight', -1)
    human_incr(human, 'inflight', -1)
    redis.call('ZREM', k('lease'), id)
  elseif state == 'c' then
    redis.call('ZREM', k('r'), id)
    redis.call('ZREM', k('rs', scope), id)
    redis.call('ZREM', k('rp', principal), id)
    if human then
      redis.call('ZREM', k('rh', human), id)
    end
    incr(g, 'replayable', -1)
    incr(g, 'bytes', -tonumber(e[4] or '0'))
  else
    incr(sk, 'tombstones', -1)
    incr(g, 'tombstones', -1)
    human_incr(human, 'tombstones', -1)
  end
  redis.call('ZREM', k('t'), id)
  redis.call('ZREM', k('x'), id)
  redis.call('DEL', ek)
  if num(sk, 'entries') <= 0 then
    redis.call('DEL', sk)
  end
  budget(scope)
  if num(pk, 'entries') <= 0 then
    redis.call('DEL', pk)
  end
  if human then
    redis.call('ZREM', k('hs', human), id)
    if num(k('h', human), 'entries') <= 0 then
      redis.call('DEL', k('h', human))
    end
    human_budget(human)
  end
end

-- Moves an in-flight entry to a terminal state at time now; returns its scope and principal.
-- It expires ttl after now (queue 't', in completion order), or at keep_until when that is later
-- (queue 'x', scored by expiry): the entry of a call that created a task lives as long as the task.
local function finish(id, state, now, keep_until)
  local ek = k('e', id)
  local e = redis.call('HMGET', ek, 'scope', 'principal', 'human')
  local sk, pk, g, human = k('s', e[1]), k('p', e[2]), k('g'), e[3]
  redis.call('HSET', ek, 'state', state, 'done', now)
  incr(sk, 'inflight', -1)
  incr(pk, 'inflight', -1)
  incr(g, 'inflight', -1)
  human_incr(human, 'inflight', -1)
  redis.call('ZREM', k('lease'), id)
  if keep_until and keep_until > 0 then
    redis.call('ZADD', k('x'), keep_until, id)
  else
    redis.call('ZADD', k('t'), now, id)
  end
  if state == 'u' or state == 'n' then
    incr(sk, 'tombstones', 1)
    incr(g, 'tombstones', 1)
    human_incr(human, 'tombstones', 1)
  end
  budget(e[1])
  human_budget(human)
  return e[1], e[2], human
end

-- Expires terminal entries past their TTL, and turns in-flight entries whose lease lapsed (their
-- replica died mid-call: the tool may have run) into outcome-unknown tombstones.
local function housekeep(now, ttl)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', k('t'), '-inf', now - ttl, 'LIMIT', 0, 256)) do
    remove(id)
  end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', k('x'), '-inf', now, 'LIMIT', 0, 256)) do
    remove(id)
  end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', k('lease'), '-inf', now, 'LIMIT', 0, 256)) do
    finish(id, 'u', now)
  end
end

-- Evicts the oldest completed entry of a queue. An id whose entry is gone (a version
-- without the human level removed it, and only its own queues) is dropped and skipped.
local function evict_oldest(queue)
  while true do
    local oldest = redis.call('ZRANGE', queue, 0, 0)
    if #oldest == 0 then
      return false
    end
    if redis.call('EXISTS', k('e', oldest[1])) == 1 then
      remove(oldest[1])
      return true
    end
    redis.call('ZREM', queue, oldest[1])
  end
end

-- Whether the entry is in flight with this request hash (guards complete, tombstone, release).
local function in_flight(id, hash)
  local e = redis.call('HMGET', k('e', id), 'state', 'hash')
  return e[1] == 'f' and e[2] == hash
end
