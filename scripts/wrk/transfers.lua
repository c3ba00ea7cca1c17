-- wrk script: POST /transfers of 0.01 from alice to bob, each with an Idempotency-Key.
-- Environment:
--   WRK_KEYS    keys per wrk thread; the thread stops after the last (default: no end)
--   WRK_COPIES  times each key is sent, one after another on the thread's connections, so the
--               copies of a key are in flight at once (default 1; 2: every key twice)
--   WRK_PREFIX  the keys' prefix, so that runs on one ledger do not meet (default "w")
--   WRK_DONE    a folder: a thread that stopped writes a file there, so whoever runs wrk knows
--               when every thread is done and can end it with SIGINT (wrk waits out -d otherwise)
--   WRK_TOKENS  a file of tokens, one per line (the token strategy): WRK_KEYS for each thread,
--               key N of thread T carrying line T * WRK_KEYS + N + 1
local threads = {}
local counter = 0

function setup(thread)
  thread:set("thread_index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  keys = tonumber(os.getenv("WRK_KEYS") or "0")
  copies = tonumber(os.getenv("WRK_COPIES") or "1")
  prefix = os.getenv("WRK_PREFIX") or "w"
  sent = -1  -- wrk calls request() once to look at it, and sends that one from no thread
  answered = 0
  tokens = {}
  local file = os.getenv("WRK_TOKENS")
  if file and file ~= "" then
    for line in io.lines(file) do table.insert(tokens, line) end
  end
end

function request()
  local n = math.floor(sent / copies)  -- this thread's key number, from 0
  sent = sent + 1
  -- wrk sends on every connection until the thread stops: once the keys are all sent, the
  -- spare requests read a balance and move nothing. So is the first, which wrk looks at.
  if n < 0 or (keys > 0 and n >= keys) then return wrk.format("GET", "/accounts/alice") end
  local body = "from=alice&to=bob&amount=0.01"
  if #tokens > 0 then
    body = body .. "&token=" .. tokens[thread_index * keys + n + 1]
  end
  return wrk.format("POST", "/transfers", {
    ["Idempotency-Key"] = string.format('"%s-%d-%d"', prefix, thread_index, n),
    ["Content-Type"] = "application/x-www-form-urlencoded"}, body)
end

function response(status, headers, body)
  if string.find(body, '"balance"', 1, true) then return end  -- a spare request's
  answered = answered + 1
  if keys > 0 and answered == keys * copies then
    local done = os.getenv("WRK_DONE")
    if done then io.open(done .. "/" .. thread_index, "w"):close() end
    wrk.thread:stop()
  end
end
