-- Binds unless bound (KEYS[1]) and records the binding in its human's set (KEYS[2]; for a
-- binding without a human ARGV[5] is '0' and KEYS[2] repeats KEYS[1]); drops that human's
-- oldest bindings past the cap, and no one else's. Returns {added (1/0), dropped}.
-- ARGV: value, idle timeout (ms), now (ms, the gateway clock), cap, has human (1/0).
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {0, 0} end
if ARGV[5] == '0' then return {1, 0} end
local now = tonumber(ARGV[3])
redis.call('ZADD', KEYS[2], now, KEYS[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]))
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
local dropped = 0
if over > 0 then
	local oldest = redis.call('ZPOPMIN', KEYS[2], over)
	for i = 1, #oldest, 2 do dropped = dropped + redis.call('DEL', oldest[i]) end
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return {1, dropped}
