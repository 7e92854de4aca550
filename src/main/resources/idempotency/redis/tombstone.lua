-- ARGV: id, hash, now, kind ('u' outcome unknown, 'n' not replayable), keep until (0: the TTL)
if not in_flight(ARGV[1], ARGV[2]) then
  return { 'ignored' }
end
finish(ARGV[1], ARGV[4], tonumber(ARGV[3]), tonumber(ARGV[5] or '0'))
return { 'ok' }
