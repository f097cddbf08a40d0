<?php
/*
 * Verdict of tests/reliability/fpm_load: reads the work directory (per-worker logs written by
 * fpm_load_app.php, nginx's access log, php-fpm's log, the killer's log and the final dump) and checks:
 *  - committed pinned writes (set() returned true) are neither lost nor corrupted: every key with one has
 *    a value, its checksum matches, it comes from a logged write, and no committed write that started
 *    after the surviving value's write had returned was overwritten by it (stale state);
 *  - the increment counter c satisfies acknowledged <= c <= attempted, and no two acknowledged increments
 *    returned the same value;
 *  - nothing wiped a backend: the pinned sentinel survives, hot volatile sentinels are only ever lost to a
 *    clear(), and both backends are still available and writable;
 *  - no reservation is left held once the load stopped, and a set() waiting behind a holder the killer
 *    SIGKILLed proceeds within 1 s of the kill (spec §10.5);
 *  - every 5xx is explained by a kill: op=slow_* requests (killed by request_terminate_timeout), op=mw_*
 *    requests whose worker was killed while waiting for a slow request's reservation, and requests whose
 *    worker the killer SIGKILLed; anything else is an "untagged 5xx";
 *  - workers exit only through recycling or SIGKILL (no crash, no non-zero exit), and PHP logged nothing.
 * Usage: php -n fpm_load_check.php WORKDIR SECONDS. Prints a summary line; exits 1 on any violation.
 */
declare(strict_types=1);

[$work, $secs] = [$argv[1], (int) $argv[2]];
$violations = [];
$notes = [];
function lines(string $file): array
{
    return is_file($file) ? file($file, FILE_IGNORE_NEW_LINES) : [];
}

function violation(string $what): void
{
    global $violations;
    $violations[] = $what;
}

// ---- final state --------------------------------------------------------------------------------------
$dump = json_decode((string) @file_get_contents("$work/dump.json"), true);
if (!is_array($dump)) {
    violation('the final dump is missing or not JSON: ' . substr((string) @file_get_contents("$work/dump.json"), 0, 300));
    $dump = ['entries' => [], 'counter' => null, 'held' => [], 'volatile' => [], 'pinned' => []];
}
$finalWid = [];                                   // wid => key of each surviving committed-family value
foreach ($dump['entries'] as $key => $e) {
    if ($e !== null && is_string($e['id'] ?? null)) {
        $finalWid[$e['id']] = $key;
    }
}

// ---- worker logs --------------------------------------------------------------------------------------
$ridPid = [];           // rid => pid that ran it
$committed = 0;         // committed writes
$committedPerKey = [];  // key => count
$lastCommitStart = [];  // key => [t0, wid] of the committed write that started last
$finalAttempt = [];     // wid => true (the surviving value's write was logged)
$finalEnd = [];         // wid => t1 (the surviving value's write returned at t1)
$attempts = 0;
$pinnedFailures = [];
$attemptsBy = [];       // key family => pinned writes attempted
$failuresBy = [];       // key family => set() false
$failureTimes = [];
[$tMin, $tMax] = [PHP_INT_MAX, 0];
$incAttempts = 0;
$incValues = [];
$incDuplicates = 0;
$holds = ['V' => 0, 'P' => 0];
$holders = [];          // "V|P key" => [[pid, since]]
$waits = [];            // [["V|P key", ms, end]]
$maxWait = 0;
$clears = 0;
$wipes = 0;             // unannounced clear() calls (SC_LOAD_WIPE=1, the verdict's self-test)
$sentinelLosses = ['excused' => 0, 'unexcused' => 0];
$torn = 0;
$slowSurvived = 0;
foreach (glob("$work/log/*.log") as $file) {
    $pid = (int) basename($file, '.log');
    $fh = fopen($file, 'r');
    while (($line = fgets($fh)) !== false) {
        if (!str_ends_with($line, "\n")) {
            $torn++;                                // the worker died mid-write
            continue;
        }
        $p = explode(' ', rtrim($line, "\n"));
        switch ($p[0]) {
            case 'S':
                $ridPid[$p[1]] = $pid;
                break;
            case 'A':
                $attempts++;
                $fam = strstr($p[1], ':', true);
                $attemptsBy[$fam] = ($attemptsBy[$fam] ?? 0) + 1;
                $tMin = min($tMin, (int) $p[3]);
                $tMax = max($tMax, (int) $p[3]);
                if (($finalWid[$p[2]] ?? null) === $p[1]) {
                    $finalAttempt[$p[2]] = true;
                }
                break;
            case 'C':
                [, $key, $wid, $t0, $t1] = $p;
                $committed++;
                $committedPerKey[$key] = ($committedPerKey[$key] ?? 0) + 1;
                if (!isset($lastCommitStart[$key]) || (int) $t0 > $lastCommitStart[$key][0]) {
                    $lastCommitStart[$key] = [(int) $t0, $wid];
                }
                if (($finalWid[$wid] ?? null) === $key) {
                    $finalEnd[$wid] = (int) $t1;
                }
                break;
            case 'F':
                $pinnedFailures[] = implode(' ', array_slice($p, 1));
                $fam = strstr($p[1], ':', true);
                $failuresBy[$fam] = ($failuresBy[$fam] ?? 0) + 1;
                $failureTimes[] = (int) substr($p[3], 2);
                break;
            case 'i':
                $incAttempts++;
                break;
            case 'I':
                $v = (int) $p[1];
                if (isset($incValues[$v])) {
                    $incDuplicates++;
                }
                $incValues[$v] = true;
                break;
            case 'H':
                $holds[$p[1]]++;
                $holders["$p[1] $p[2]"][] = [$pid, (float) $p[3]];
                break;
            case 'W':
                $maxWait = max($maxWait, (int) $p[3]);
                $waits[] = ["$p[1] $p[2]", (int) $p[3], (float) $p[4]];
                break;
            case 'Q':
                $clears++;
                break;
            case 'Y':
                $wipes++;
                break;
            case 'L':
                $sentinelLosses[$p[1]]++;
                if ($p[1] !== 'excused') {
                    violation("hot volatile sentinels lost without a clear() (worker $pid): " . implode(' ', array_slice($p, 2)));
                }
                break;
            case 'X':
                if (str_starts_with($line, 'X slow request survived')) {
                    $slowSurvived++;
                } else {
                    violation("worker $pid: " . substr(rtrim($line), 2));
                }
                break;
        }
    }
    fclose($fh);
}

// ---- committed entries --------------------------------------------------------------------------------
$lost = 0;
$crcErrors = 0;
foreach ($dump['entries'] as $key => $e) {
    if ($e === null) {
        if (($committedPerKey[$key] ?? 0) > 0) {
            $lost++;
            violation("lost: $key had {$committedPerKey[$key]} committed write(s) and is gone");
        }
        continue;
    }
    if ($e['bad'] !== null) {
        $crcErrors++;
        violation("corrupt: $key: {$e['bad']}");
        continue;
    }
    $wid = $e['id'];
    if (!isset($finalAttempt[$wid])) {
        violation("$key holds $wid, which no logged write of that key produced");
        continue;
    }
    // The surviving write returned at finalEnd; a committed write that started after that must win.
    if (isset($finalEnd[$wid], $lastCommitStart[$key]) && $lastCommitStart[$key][0] > $finalEnd[$wid]) {
        $lost++;
        violation("lost: $key still holds $wid although committed write {$lastCommitStart[$key][1]} started after it returned");
    }
}
foreach ($committedPerKey as $key => $n) {
    if (!array_key_exists($key, $dump['entries'])) {
        violation("committed key $key is not covered by the dump");
    }
}

// ---- counter ------------------------------------------------------------------------------------------
$acked = count($incValues) + $incDuplicates;
$counter = $dump['counter'];
if ($acked > 0 || $counter !== null) {
    if (!is_int($counter) || $counter < $acked || $counter > $incAttempts) {
        violation('counter ' . var_export($counter, true) . " outside [acknowledged $acked, attempted $incAttempts]");
    }
    if ($incDuplicates > 0) {
        violation("$incDuplicates acknowledged increment(s) returned a value another one returned too (lost update)");
    }
    if ($incValues !== [] && is_int($counter) && max(array_keys($incValues)) > $counter) {
        violation('an acknowledged increment returned ' . max(array_keys($incValues)) . ", above the final counter $counter");
    }
}

// ---- backends -----------------------------------------------------------------------------------------
foreach (['volatile', 'pinned'] as $b) {
    $i = $dump[$b] ?? [];
    if (($i['available'] ?? false) !== true) {
        violation("$b backend not available at the end: " . json_encode($i));
    }
}
if (($dump['psentinel'] ?? null) !== 'pinned-sentinel') {
    violation('pinned sentinel gone at the end (wiped?): ' . json_encode($dump['psentinel'] ?? null));
}
if (($dump['volatile']['entry_count'] ?? 0) === 0) {
    violation('volatile backend empty at the end');
}
// The hot sentinels, by the rule the endpoint applies during the run (fpm_load_app.php, sentinels()).
$missing = array_filter($dump['sentinels'] ?? [], fn($v, $k) => $v !== "sentinel-value-$k", ARRAY_FILTER_USE_BOTH);
[$se, $ce] = [$dump['sentinel_epoch'] ?? null, $dump['vclear_epoch'] ?? null];
if ($missing !== [] && !(is_int($se) && is_int($ce) && ($ce % 2 === 1 || $ce > $se))) {
    violation(count($missing) . " hot volatile sentinel(s) missing at the end without a clear() (sentinel_epoch $se, vclear_epoch $ce)");
}
if (($dump['probe'] ?? false) !== true) {
    violation('a fresh set()/get() in the final request failed');
}
foreach ($dump['held'] ?? [] as $h) {
    violation("reservation still held after the load stopped: $h");
}

// ---- php-fpm: how workers died ------------------------------------------------------------------------
$fpmLog = (string) @file_get_contents("$work/fpm.log");
$terminated = [];       // pid => rid killed by request_terminate_timeout
$exit = [];             // pid => 'signal N' | 'code N'
$starts = [];
foreach (explode("\n", $fpmLog) as $line) {
    if (preg_match('/child (\d+), script .*execution timed out/', $line, $m)) {
        preg_match('/rid=([A-Za-z0-9_.-]+)/', $line, $r);
        $terminated[(int) $m[1]] = $r[1] ?? '?';
    } elseif (preg_match('/child (\d+) exited on signal (\d+)/', $line, $m)) {
        $exit[(int) $m[1]] = 'signal ' . $m[2];
    } elseif (preg_match('/child (\d+) exited with code (\d+)/', $line, $m)) {
        $exit[(int) $m[1]] = 'code ' . $m[2];
    } elseif (preg_match('/child (\d+) started/', $line, $m)) {
        $starts[(int) $m[1]] = ($starts[(int) $m[1]] ?? 0) + 1;
    } elseif (preg_match('/(ALERT|ERROR|said into std)/', $line)) {
        violation("php-fpm log: $line");
    }
}
if (array_filter($starts, fn($n) => $n > 1)) {
    $notes[] = 'a pid was reused within the run: kill attribution may be approximate';
}
$killedAt = [];         // pid => when the killer's SIGKILL reached it (wall clock, s)
foreach (lines("$work/killer.log") as $line) {
    $f = explode(' ', $line);
    $killedAt[(int) $f[1]] = (float) $f[2];
}
$death = [];            // pid => terminate | killer | recycled | other
$killerKills = 0;
$recycled = 0;
foreach ($exit as $pid => $how) {
    if (isset($terminated[$pid])) {
        $death[$pid] = 'terminate';
    } elseif ($how === 'signal 9' && isset($killedAt[$pid])) {
        $death[$pid] = 'killer';
        $killerKills++;
    } elseif ($how === 'code 0') {
        $death[$pid] = 'recycled';
        $recycled++;
    } else {
        $death[$pid] = $how;
        violation("worker $pid exited with $how" . ($how === 'signal 9' ? ' (not sent by the killer, no timeout logged)' : ''));
    }
}
$terminateKills = count($terminated);

// ---- waiters behind a holder the killer SIGKILLed proceed within 1 s of its death (spec §10.5) --------
$deathWaits = [];       // ms from a holder's death to the end of the wait behind it
foreach ($waits as [$key, $ms, $end]) {
    $start = $end - $ms / 1000;
    foreach ($holders[$key] ?? [] as [$hpid, $since]) {
        $k = $killedAt[$hpid] ?? null;
        if ($k === null || ($death[$hpid] ?? '') !== 'killer' || $since > $start || $k < $start || $k > $end) {
            continue;       // only holders that held the key when the wait began and were killed during it
        }
        foreach ($holders[$key] as [, $s2]) {
            if ($s2 > $k && $s2 < $end) {
                continue 2;  // someone else took the reservation after the death: the wait is theirs
            }
        }
        $deathWaits[] = $after = (int) round(($end - $k) * 1000);
        if ($after > 1000) {
            violation("a set() on $key waited $after ms after its holder (worker $hpid) was SIGKILLed (spec: 1 s)");
        }
    }
}

// ---- HTTP statuses ------------------------------------------------------------------------------------
$requests = 0;
$statuses = [];
$slow5xx = 0;
$slowBy = [];           // how the workers of slow requests died
$slow2xx = 0;
$mw5xx = 0;
$killer5xx = 0;
$unattributed = 0;
$untagged = 0;
foreach (lines("$work/access.log") as $line) {
    if (!preg_match('/^(\d+) (\S+) "(.*)"$/', $line, $m)) {
        violation("unparsable access log line: $line");
        continue;
    }
    parse_str($m[3], $q);
    $op = (string) ($q['op'] ?? '');
    $rid = (string) ($q['rid'] ?? '');
    if ($op === 'init' || $op === 'dump') {
        continue;
    }
    $requests++;
    $status = (int) $m[1];
    $statuses[$status] = ($statuses[$status] ?? 0) + 1;
    $slow = str_starts_with($op, 'slow_');
    if ($status === 200) {
        $slow2xx += $slow ? 1 : 0;
        continue;
    }
    if ($status === 499) {
        continue;                                   // wrk closed the connection when its time was up
    }
    if ($status < 500) {
        violation("HTTP $status for op=$op rid=$rid");
        continue;
    }
    $pid = $ridPid[$rid] ?? null;
    $how = $pid === null ? null : ($death[$pid] ?? 'alive');
    if ($slow) {
        $slow5xx++;
        $slowBy[$how ?? 'before first log line'] = ($slowBy[$how ?? 'before first log line'] ?? 0) + 1;
        continue;
    }
    if ($pid === null) {
        $unattributed++;                           // died before its first log line: checked below
    } elseif ($how === 'killer') {
        $killer5xx++;
    } elseif ($how === 'terminate' && str_starts_with($op, 'mw_')) {
        $mw5xx++;
    } else {
        $untagged++;
        violation("HTTP $status for op=$op rid=$rid: worker $pid " . match ($how) {
            'terminate' => 'was killed by request_terminate_timeout (the request ran over 1 s)',
            'alive', 'recycled' => 'did not die',
            default => "exited with $how",
        });
    }
}
// A killer kill fails at most the one request its worker was running.
if ($killer5xx + $unattributed > $killerKills) {
    $over = $killer5xx + $unattributed - $killerKills;
    $untagged += $over;
    violation("$unattributed 5xx answered before the request's first log line, $killer5xx after a killer kill: more than the $killerKills kills");
}
if ($slowSurvived > 0 || $slow2xx > 0) {
    $notes[] = "$slow2xx slow request(s) answered 200 ($slowSurvived survived their sleep): request_terminate_timeout did not fire";
}

// ---- wrk, PHP, driver ---------------------------------------------------------------------------------
$wrk = (string) @file_get_contents("$work/wrk.out");
if (preg_match('/wrk_summary requests=(\d+) non2xx=(\d+) connect_errors=(\d+) read_errors=(\d+) write_errors=(\d+) timeouts=(\d+)/', $wrk, $m)) {
    if ((int) $m[3] + (int) $m[6] > 0) {
        violation("wrk saw {$m[3]} connect errors and {$m[6]} timeouts (10 s)");
    }
} else {
    violation("no wrk summary: $wrk");
}
foreach (lines("$work/php_errors.log") as $line) {
    violation("PHP error log: $line");
}
foreach (lines("$work/driver_violations") as $line) {
    violation($line);
}

// ---- report -------------------------------------------------------------------------------------------
ksort($statuses);
$v = $dump['volatile'];
$p = $dump['pinned'];
printf("fpm_load: statuses %s; 5xx: %d slow (tagged; worker %s), %d waiting on a slow holder (mw_), %d killer, %d before first log line\n",
    json_encode($statuses), $slow5xx, json_encode($slowBy), $mw5xx, $killer5xx, $unattributed);
printf("fpm_load: %d pinned writes attempted, %d committed to %d keys, %d set() false; increments: %d attempted, %d acknowledged, counter %s\n",
    $attempts, $committed, count($committedPerKey), count($pinnedFailures), $incAttempts, $acked, var_export($counter, true));
printf("fpm_load: writers behind a SIGKILLed holder: %d, proceeded %s ms after its death\n", count($deathWaits),
    $deathWaits === [] ? '-' : 'at most ' . max($deathWaits));
printf("fpm_load: %d recycled workers, %d reservations held by killed requests (V %d, P %d), longest wait on one %d ms, %d volatile clear(), sentinel losses %d excused %d unexcused, %d torn log lines\n",
    $recycled, $holds['V'] + $holds['P'], $holds['V'], $holds['P'], $maxWait, $clears, $sentinelLosses['excused'], $sentinelLosses['unexcused'], $torn);
printf("fpm_load: volatile %d entries, %d evictions, %d KiB free, fragmentation %.2f; pinned %d entries, %d KiB free, fragmentation %.2f\n",
    $v['entry_count'] ?? -1, $v['evictions'] ?? -1, intdiv($v['free_memory'] ?? 0, 1024), $v['fragmentation'] ?? 0,
    $p['entry_count'] ?? -1, intdiv($p['free_memory'] ?? 0, 1024), $p['fragmentation'] ?? 0);
if ($pinnedFailures !== []) {
    // set() false is allowed (spec §9.3: the value does not fit); reported so a trend shows (a leak grows).
    $mid = intdiv($tMin + $tMax, 2);
    $early = count(array_filter($failureTimes, fn($t) => $t < $mid));
    $by = [];
    foreach ($failuresBy as $f => $n) {
        $by[] = sprintf('%s: %d of %d (%.1f%%)', $f, $n, $attemptsBy[$f], 100 * $n / $attemptsBy[$f]);
    }
    $notes[] = 'pinned set() returned false: ' . implode(', ', $by) . sprintf('; %d in the first half of the run, %d in the second', $early, count($failureTimes) - $early);
    $notes[] = 'first failures: ' . implode(' | ', array_slice($pinnedFailures, 0, 3));
}
if ($wipes > 0) {
    $notes[] = "$wipes unannounced volatile clear() (SC_LOAD_WIPE=1): simulated wipes, which must show as violations";
}
foreach ($notes as $n) {
    echo "fpm_load: note: $n\n";
}
foreach (array_slice($violations, 0, 40) as $what) {
    echo "fpm_load: VIOLATION: $what\n";
}
if (count($violations) > 40) {
    echo 'fpm_load: … ' . (count($violations) - 40) . " more violations\n";
}
printf("fpm_load: %ds, %d requests, %d kills (%d by request_terminate_timeout, %d by killer), %d committed entries, lost %d, crc errors %d, untagged 5xx %d%s\n",
    $secs, $requests, $terminateKills + $killerKills, $terminateKills, $killerKills, $committed, $lost, $crcErrors, $untagged,
    $violations === [] ? '' : ', ' . count($violations) . ' violation(s): FAIL');
exit($violations === [] ? 0 : 1);
