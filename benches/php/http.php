<?php
/** The harness's HTTP client: plain HTTP/1.0 GETs on loopback, several in flight, no extension needed. */
declare(strict_types=1);

/**
 * Sends GET requests for $urls with at most $c connections open.
 * @return array<int, array{status: int, headers: array<string, string>, body: string}|array{error: string}>
 *         keyed like $urls; header names in lower case
 */
function http_get_all(array $urls, int $c): array
{
    $out = [];
    $pending = $urls;
    $open = [];
    while ($pending || $open) {
        while ($pending && count($open) < $c) {
            $i = array_key_first($pending);
            $p = parse_url($pending[$i]);
            unset($pending[$i]);
            $s = @stream_socket_client("tcp://{$p['host']}:{$p['port']}", $errno, $err, 5);
            if (!$s) {
                $out[$i] = ['error' => "connect: $err"];
                continue;
            }
            $target = $p['path'] . (isset($p['query']) ? "?{$p['query']}" : '');
            fwrite($s, "GET $target HTTP/1.0\r\nHost: {$p['host']}\r\n\r\n");
            stream_set_blocking($s, false);
            $open[(int) $s] = [$s, '', $i];
        }
        $r = array_map(fn($o) => $o[0], $open);
        $w = $e = null;
        if (@stream_select($r, $w, $e, 30) < 1) {
            foreach ($open as [$s, , $i]) {
                $out[$i] = ['error' => 'timeout'];
                fclose($s);
            }
            $open = [];
            continue;
        }
        foreach ($r as $s) {
            $open[(int) $s][1] .= fread($s, 65536);
            if (feof($s)) {
                [, $raw, $i] = $open[(int) $s];
                fclose($s);
                unset($open[(int) $s]);
                $out[$i] = http_parse($raw);
            }
        }
    }
    return $out;
}

/** @return array{status: int, headers: array<string, string>, body: string}|array{error: string} */
function http_parse(string $raw): array
{
    $end = strpos($raw, "\r\n\r\n");
    if ($end === false || !preg_match('#^HTTP/\d\.\d (\d{3})#', $raw, $m)) {
        return ['error' => 'bad response: ' . substr($raw, 0, 200)];
    }
    $headers = [];
    foreach (array_slice(explode("\r\n", substr($raw, 0, $end)), 1) as $line) {
        [$name, $value] = explode(':', $line, 2) + [1 => ''];
        $headers[strtolower(trim($name))] = trim($value);
    }
    return ['status' => (int) $m[1], 'headers' => $headers, 'body' => substr($raw, $end + 4)];
}
