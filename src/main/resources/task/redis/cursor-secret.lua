-- The secret that seals tasks/list cursors, whoever wrote it: ARGV[1] is written only if
-- there is none.
-- KEYS: the secret's key. ARGV: a new secret.
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
