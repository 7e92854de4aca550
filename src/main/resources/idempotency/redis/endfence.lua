-- ARGV: now. Ends the fence at once (an operator who knows no retry of a forgotten key is pending);
-- keeps its epoch, so that a replica that learns of the loss later does not start it again.
-- Answers 'ended' with the time the fence would have lasted until, or 'none'.
local untilv = tonumber(redis.call('HGET', k('fence'), 'until') or '0')
local now = tonumber(ARGV[1])
if untilv <= now then
  return { 'none' }
end
redis.call('HSET', k('fence'), 'until', now, 'ended', now)
return { 'ended', string.format('%.0f', untilv) }
