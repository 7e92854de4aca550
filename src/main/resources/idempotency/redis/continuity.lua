-- The store's continuity (ADR 0025), for begin and renew. The store keeps an epoch, written once by
-- the first script that finds none, named '<birth ms>-<random>'; and per replica a mark, how many
-- entries the replica created in this epoch. A replica sends the epoch and the mark it last saw.
-- The store has lost data when the epoch is gone (a restart without persistence, FLUSHALL, an
-- eviction), when it is not the one the replica saw (another replica found it gone first), or when
-- it holds a lower mark than the replica saw (a failover lost the replica's latest begins). A loss
-- starts the fence: until its end a key the store does not hold is not begun, since a forgotten key
-- may still come back. A replica that saw no epoch yet (it just started) can tell nothing: it takes
-- the store as it finds it.

local function fence_until()
  return tonumber(redis.call('HGET', k('fence'), 'until') or '0')
end

-- Starts the fence of a loss in this epoch, or extends it for a loss of entries (lost writes, an
-- eviction); a loss of the whole store already fenced in this epoch (another replica saw it first)
-- starts nothing.
local function start_fence(now, length, cause, epoch)
  local f = redis.call('HMGET', k('fence'), 'epoch', 'until')
  if f[1] == epoch and cause ~= 'writes_lost' and cause ~= 'evicted' then
    return false
  end
  local untilv = now + length
  if f[1] == epoch and tonumber(f[2] or '0') > untilv then
    untilv = tonumber(f[2])
  end
  redis.call('HSET', k('fence'), 'epoch', epoch, 'until', untilv, 'since', now, 'cause', cause)
  return true
end

-- ARGV[i..i+4]: replica, known epoch ('' for none), known mark, candidate epoch, fence length (ms).
-- Returns the epoch, the replica's mark and the cause of a loss this call detected first ('' when
-- none).
local function continuity(i, now)
  local replica, known, known_mark = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local candidate, length = ARGV[i + 3], tonumber(ARGV[i + 4])
  local epoch = redis.call('GET', k('epoch'))
  local cause = ''
  if not epoch then
    epoch = candidate
    redis.call('SET', k('epoch'), epoch)
    if known ~= '' then
      cause = 'emptied'
    end
  elseif known ~= '' and epoch ~= known then
    cause = 'replaced'
  end
  local mark = tonumber(redis.call('HGET', k('marks'), replica) or '0')
  if cause == '' and known ~= '' and mark < known_mark then
    cause = 'writes_lost'
  end
  if cause ~= '' and not start_fence(now, length, cause, epoch) then
    cause = ''
  end
  return epoch, mark, cause
end

local function text(n)
  return string.format('%.0f', n)
end

-- An answer: the epoch, the replica's mark, the loss detected, the fence's end, then the rest.
local function answer(epoch, mark, cause, ...)
  local a = { epoch, text(mark), cause, text(fence_until()) }
  for _, v in ipairs({ ... }) do
    table.insert(a, v)
  end
  return a
end
