-- A binding's value and remaining TTL (ms) in one round trip; {} for no binding.
-- KEYS: the binding.
local value = redis.call('GET', KEYS[1])
if not value then return {} end
return {value, redis.call('PTTL', KEYS[1])}
