-- ARGV: id, hash, now, kind ('u' outcome unknown, 'n' not replayable)
if not in_flight(ARGV[1], ARGV[2]) then
  return { 'ignored' }
end
finish(ARGV[1], ARGV[4], tonumber(ARGV[3]))
return { 'ok' }
