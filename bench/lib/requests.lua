-- wrk script: sends the requests of REQUESTS_FILE in turn, each connection's thread from a random
-- place in the list. A line is tab-separated: METHOD, path, header name and value pairs, and the
-- body last ("-" for none). Written by bench/community.ts; the result is one JSON line
-- (bench/lib/report.lua).
dofile("bench/lib/report.lua")
local requests = {}
local counter = 0

local function split(line)
  local fields = {}
  for field in (line .. "\t"):gmatch("([^\t]*)\t") do fields[#fields + 1] = field end
  return fields
end

function init(args)
  for line in io.lines(os.getenv("REQUESTS_FILE")) do
    local f = split(line)
    local headers = {}
    for i = 3, #f - 2, 2 do headers[f[i]] = f[i + 1] end
    local body = f[#f]
    if body == "-" then body = nil end
    requests[#requests + 1] = wrk.format(f[1], f[2], headers, body)
  end
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)"), 16) % 100000)
  counter = math.random(#requests)
end

function request()
  counter = counter % #requests + 1
  return requests[counter]
end
