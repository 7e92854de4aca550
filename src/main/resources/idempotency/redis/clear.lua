-- ARGV: keyHash (leading hex characters of an entry id). Removes the one tombstone it names.
local match = nil
for _, queue in ipairs({ 't', 'x' }) do
  for _, id in ipairs(redis.call('ZRANGE', k(queue), 0, -1)) do
    if string.sub(id, 1, string.len(ARGV[1])) == ARGV[1] then
      local state = redis.call('HGET', k('e', id), 'state')
      if state == 'u' or state == 'n' then
        if match then
          return { 'ambiguous' }
        end
        match = id
      end
    end
  end
end
if not match then
  return { 'none' }
end
remove(match)
return { 'ok' }
