-- wrk script: POST completions, cycling over the names of the 200 seeded completions so the
-- table stays at 200 rows (every request after the first round is an upsert that updates).
-- NAMES_FILE (one name per line, written by bench/floor.ts) is read at start; the result is
-- reported as one JSON line by bench/lib/report.lua.
dofile("bench/lib/report.lua")
local names = {}
local counter = 0

function init(args)
  for line in io.lines(os.getenv("NAMES_FILE")) do
    names[#names + 1] = line
  end
  -- Keep the -H headers (Authorization) and add the content type.
  wrk.headers["Content-Type"] = "application/json"
end

local function escape(s)
  return (s:gsub('\\', '\\\\'):gsub('"', '\\"'))
end

function request()
  counter = counter + 1
  local name = names[(counter % #names) + 1]
  local body = '{"name":"' .. escape(name) .. '","difficulty":"Heroic","setting":"elite","xpEarned":' .. counter .. '}'
  return wrk.format("POST", nil, nil, body)
end
