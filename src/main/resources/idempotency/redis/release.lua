-- ARGV: id, hash
if not in_flight(ARGV[1], ARGV[2]) then
  return { 'ignored' }
end
remove(ARGV[1])
return { 'ok' }
