-- wrk script for tests/reliability/fpm_load: every request names a random operation and a unique request
-- id (thread-counter) in its query string, so nginx's access log ties each status to its operation.
-- SC_LOAD_SLOW_PER10K (default 6): requests per 10,000 that are deliberately slow (op=slow_*).

-- weights per 10,000 requests (vclear: about one clear() every 3,000 requests)
local fast = {
  {"vget", 1800}, {"vset", 1500}, {"vdel", 400}, {"vmulti", 300}, {"vlock", 600}, {"vclear", 3},
  {"pget", 1100}, {"pset", 1200}, {"prmw", 800}, {"pscratch", 600}, {"incr", 1200},
  {"mw_vset", 200}, {"mw_pset", 200},
}
local slow = {"slow_sleep", "slow_vlock", "slow_plock", "slow_vloop", "slow_ploop"}

local threads = {}
local next_id = 1

function setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

local counter = 0
local total = 0
local slow_per10k = 6

function init(args)
  math.randomseed(os.time() * 1000 + tid * 7919)
  for _, w in ipairs(fast) do total = total + w[2] end
  slow_per10k = tonumber(os.getenv("SC_LOAD_SLOW_PER10K") or "6")
end

local function pick()
  if math.random(10000) <= slow_per10k then
    return slow[math.random(#slow)]
  end
  local r = math.random(total)
  for _, w in ipairs(fast) do
    r = r - w[2]
    if r <= 0 then return w[1] end
  end
  return fast[1][1]
end

function request()
  counter = counter + 1
  return wrk.format("GET", "/app.php?op=" .. pick() .. "&rid=" .. tid .. "-" .. counter)
end

function done(summary, latency, requests)
  io.write(string.format("wrk_summary requests=%d non2xx=%d connect_errors=%d read_errors=%d write_errors=%d timeouts=%d\n",
    summary.requests, summary.errors.status, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout))
end
