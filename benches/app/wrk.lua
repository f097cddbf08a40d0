-- wrk script of benches/app/run: cycles through the application's request paths (one per route), as
-- requests formatted once in init. Arguments after `--`: the variant's URL prefix (/exact/apcu) and the
-- file of paths, one a line.
local requests = {}
local i = 0

function init(args)
    for line in io.lines(args[2]) do
        requests[#requests + 1] = wrk.format("GET", args[1] .. line)
    end
end

function request()
    i = i % #requests + 1
    return requests[i]
end
