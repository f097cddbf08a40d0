<?php

/**
 * static_cache dashboard: one page, like APCu's apc.php. Serve it from the pool (or `php -S`) whose
 * partition you want to see: every figure is that partition's.
 *
 * Shows per backend the memory map (used, free, index overhead, retired), fragmentation, entries,
 * hit ratio and evictions, as charts drawn in the page (inline SVG, nothing fetched from elsewhere),
 * and a key browser with each entry's metadata (StaticCache\Admin::scan(): type, size, memory, TTL
 * left, hits). Deleting a key, deleting by prefix and clearing a backend need the password, taken from
 * the STATIC_CACHE_DASHBOARD_PASSWORD constant (define it in a file that includes this one) or the
 * environment variable of that name. Without a password the page is read-only. A login lasts 8 hours
 * (its cookie carries its end, signed with the password).
 */

declare(strict_types=1);

use OPcache\PinnedCache;
use OPcache\VolatileCache;
use StaticCache\Admin;

const SC_PAGE_SIZE = 50;
/** Scan steps one page may take before it shows what it found and offers the next page. */
const SC_MAX_STEPS = 64;

/** How long a login lasts: its cookie carries its end, signed with the password. */
const SC_LOGIN_SECONDS = 8 * 3600;

$password = defined('STATIC_CACHE_DASHBOARD_PASSWORD') ? (string) constant('STATIC_CACHE_DASHBOARD_PASSWORD') : (string) getenv('STATIC_CACHE_DASHBOARD_PASSWORD');
/** The login cookie's value for a login that ends at $until: "$until.signature". */
function sc_login_token(string $password, int $until): string
{
    return $until . '.' . hash_hmac('sha256', "static-cache-dashboard|$until", $password);
}
$login = (string) ($_COOKIE['sc_dashboard'] ?? '');
$until = (int) strstr($login, '.', true);
$authed = $password !== '' && $until >= time() && hash_equals(sc_login_token($password, $until), $login);
// Each login has its own CSRF token: one seen in an old page is worth nothing once that login ends.
$csrf = $authed ? hash_hmac('sha256', 'csrf', $login) : '';
// Over HTTPS the cookies (the login one is as good as the password) are never sent over plain HTTP.
$cookie = ['httponly' => true, 'samesite' => 'Strict', 'secure' => !in_array(strtolower((string) ($_SERVER['HTTPS'] ?? '')), ['', 'off'], true)];
// The page holds the CSRF token and buttons that delete: no site frames it (a sibling subdomain is
// same-site: SameSite cookies do not stop it), no cache keeps it.
header("Content-Security-Policy: frame-ancestors 'none'");
header('X-Frame-Options: DENY');
header('Cache-Control: no-store');

if (!class_exists(Admin::class, false)) {
    http_response_code(503);
    exit('The static_cache extension is not loaded in this PHP.');
}

/** @return class-string<VolatileCache>|class-string<PinnedCache> */
function sc_api(string $backend): string
{
    return $backend === 'pinned' ? PinnedCache::class : VolatileCache::class;
}

function sc_h(string $s): string
{
    return htmlspecialchars($s, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8');
}

/** A binary-safe, readable form of a key: control and non-ASCII bytes as escapes, and so a backslash too. */
function sc_key(string $key): string
{
    return preg_replace_callback('/[^\x20-\x5b\x5d-\x7e]/', static fn($m) => match ($m[0]) {
        "\0" => '\0',
        '\\' => '\\\\',
        default => sprintf('\x%02x', ord($m[0])),
    }, $key);
}

function sc_bytes(int|float $n): string
{
    foreach (['B', 'KiB', 'MiB', 'GiB'] as $unit) {
        if ($n < 1024 || $unit === 'GiB') {
            return $unit === 'B' ? "$n B" : sprintf('%.1f %s', $n, $unit);
        }
        $n /= 1024;
    }
    return '';
}

function sc_url(array $params): string
{
    return '?' . http_build_query(array_filter($params, static fn($v) => $v !== null && $v !== ''));
}

// The form's fields, else the link's: not $_REQUEST, where a cookie of the same name may win.
$input = $_POST + $_GET;
$backend = ($input['backend'] ?? 'volatile') === 'pinned' ? 'pinned' : 'volatile';
$prefix = (string) ($input['prefix'] ?? '');
$view = ['backend' => $backend, 'prefix' => $prefix];

// ---- actions (POST, then redirect so a reload repeats nothing) -----------------------------------
// An action's message goes to the page it redirects to in a cookie, shown once: never in the URL,
// where a link from anyone could put any text on this page.
const SC_MESSAGE_COOKIE = 'sc_dashboard_msg';
if (($_SERVER['REQUEST_METHOD'] ?? 'GET') === 'POST') {
    $action = (string) ($_POST['action'] ?? '');
    $message = '';
    if ($action === 'login') {
        if ($password !== '' && hash_equals($password, (string) ($_POST['password'] ?? ''))) {
            $until = time() + SC_LOGIN_SECONDS;
            setcookie('sc_dashboard', sc_login_token($password, $until), ['expires' => $until] + $cookie);
            $message = 'Logged in.';
        } else {
            $message = 'Wrong password.';
        }
    } elseif ($action === 'logout') {
        setcookie('sc_dashboard', '', ['expires' => 1] + $cookie);
    } elseif (!$authed || !hash_equals($csrf, (string) ($_POST['csrf'] ?? ''))) {
        http_response_code(403);
        exit('Log in first.');
    } elseif ($action === 'delete') {
        $key = (string) hex2bin((string) ($_POST['key'] ?? ''));
        $class = preg_replace('/^(volatile|pinned)_static_class:/', '', $key);
        // A class blob is deleted through its class name (the reserved key itself is refused).
        $ok = $key !== '' && sc_api($backend)::delete($class !== $key ? $class : $key);
        $message = ($ok ? 'Deleted ' : 'Could not delete ') . sc_key($key);
    } elseif ($action === 'delete_prefix' && $prefix !== '') {
        $n = Admin::deletePrefix($backend, $prefix);
        $message = $n === false ? 'Backend unavailable.' : "Deleted $n entries starting with " . sc_key($prefix);
    } elseif ($action === 'clear') {
        $message = sc_api($backend)::clear() ? "Cleared the $backend backend." : 'Backend unavailable.';
    }
    if ($message !== '') {
        // ASCII (keys are shown through sc_key()); cut so that a long key cannot make the cookie too big.
        $message = strlen($message) > 500 ? substr($message, 0, 497) . '...' : $message;
        setcookie(SC_MESSAGE_COOKIE, $message, $cookie);
    }
    header('Location: ' . sc_url($view), true, 303);
    exit;
}
$message = is_string($_COOKIE[SC_MESSAGE_COOKIE] ?? null) ? $_COOKIE[SC_MESSAGE_COOKIE] : '';
if ($message !== '') {
    setcookie(SC_MESSAGE_COOKIE, '', ['expires' => 1] + $cookie);
}

// ---- figures ---------------------------------------------------------------------------------------
$figures = [];
foreach (['volatile', 'pinned'] as $b) {
    $info = sc_api($b)::info();
    $figures[$b] = ['info' => $info, 'memory' => $info->available ? Admin::memory($b) : false];
}

/** A donut of the memory map, drawn here. */
function sc_donut(array $memory): string
{
    $parts = [
        ['used', $memory['used'] - $memory['retired'], '#d9534f'],
        ['retired', $memory['retired'], '#f0ad4e'],
        ['free', $memory['free'], '#5cb85c'],
        ['overhead', $memory['overhead'], '#777'],
    ];
    $total = max(1, array_sum(array_column($parts, 1)));
    $svg = '<svg class="donut" viewBox="0 0 42 42" width="160" height="160" role="img" aria-label="memory map">';
    $offset = 25.0;
    foreach ($parts as [$name, $value, $color]) {
        $pct = 100 * max(0, $value) / $total;
        $svg .= sprintf('<circle cx="21" cy="21" r="15.915" fill="none" stroke="%s" stroke-width="6" stroke-dasharray="%.3f %.3f" stroke-dashoffset="%.3f"><title>%s %s</title></circle>', $color, $pct, 100 - $pct, $offset, $name, sc_bytes($value));
        $offset = fmod($offset - $pct + 100, 100);
    }
    $free = 100 * $memory['free'] / max(1, $memory['capacity']);
    return $svg . sprintf('<text x="21" y="22" text-anchor="middle" font-size="5">%.0f%% free</text></svg>', $free);
}

/** Horizontal bars, drawn here. @param array<string, array{int|float, string}> $bars */
function sc_bars(array $bars): string
{
    $max = max(1, ...array_map(static fn($b) => $b[0], array_values($bars)));
    $svg = sprintf('<svg class="bars" viewBox="0 0 300 %d" width="300" height="%d">', 22 * count($bars), 22 * count($bars));
    $y = 0;
    foreach ($bars as $label => [$value, $color]) {
        $svg .= sprintf('<text x="0" y="%d" font-size="11">%s</text><rect x="80" y="%d" width="%.1f" height="14" fill="%s"/><text x="%.1f" y="%d" font-size="11">%s</text>', $y + 12, sc_h($label), $y + 2, 170 * $value / $max, $color, 85 + 170 * $value / $max, $y + 12, $value);
        $y += 22;
    }
    return $svg . '</svg>';
}

// ---- key browser -----------------------------------------------------------------------------------
$cursor = max(0, (int) ($_GET['cursor'] ?? 0));
$entries = [];
$next = null;
if ($figures[$backend]['memory'] !== false) {
    $next = $cursor;
    for ($step = 0; $step < SC_MAX_STEPS && $next !== null && count($entries) < SC_PAGE_SIZE; $step++) {
        $page = Admin::scan($backend, $prefix, $next, SC_PAGE_SIZE - count($entries));
        if ($page === false) {
            break;
        }
        array_push($entries, ...$page['entries']);
        $next = $page['cursor'];
    }
}
$first = $figures['volatile']['info'];
?>
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>static_cache — <?= sc_h($first->partition) ?></title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
.backends { display: flex; gap: 2em; flex-wrap: wrap; }
.backend { border: 1px solid #ccc; border-radius: 6px; padding: 1em; min-width: 420px; }
.charts { display: flex; gap: 1em; align-items: center; }
table { border-collapse: collapse; }
td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.msg { background: #ffe; border: 1px solid #cc9; padding: .4em; }
.keys td.key { font-family: monospace; max-width: 40em; overflow-wrap: anywhere; }
.legend span { display: inline-block; width: .8em; height: .8em; margin: 0 .3em 0 1em; }
form.inline { display: inline; }
</style>
</head>
<body>
<h1>static_cache</h1>
<p>Partition <b id="partition"><?= sc_h($first->partition) ?></b> · attribute mode <b><?= sc_h($first->attribute_mode) ?></b> · PHP <?= PHP_VERSION ?> (<?= PHP_SAPI ?>)
<?php if ($authed): ?>
 · <form class="inline" method="post"><input type="hidden" name="action" value="logout"><button>Log out</button></form>
<?php elseif ($password !== ''): ?>
 · <form class="inline" method="post" id="login"><input type="hidden" name="action" value="login"><input type="password" name="password" placeholder="password"> <button>Log in</button></form>
<?php else: ?>
 · read-only (no STATIC_CACHE_DASHBOARD_PASSWORD set)
<?php endif ?>
</p>
<?php if ($message !== ''): ?><p class="msg" id="message"><?= sc_h($message) ?></p><?php endif ?>

<div class="backends">
<?php foreach ($figures as $b => ['info' => $info, 'memory' => $memory]): ?>
<section class="backend" data-backend="<?= $b ?>">
<h2><?= ucfirst($b) ?></h2>
<?php if ($memory === false): ?>
<p>Not available<?= $info->failure_reason !== null ? ': ' . sc_h($info->failure_reason) : ($info->enabled ? '' : ' (size 0)') ?>.</p>
<?php else:
    $lookups = $info->hits + $info->misses;
    $ratio = $lookups > 0 ? $info->hits / $lookups : 0.0; ?>
<div class="charts">
<?= sc_donut($memory) ?>
<?= sc_bars(['hits' => [$info->hits, '#5cb85c'], 'misses' => [$info->misses, '#d9534f'], 'evictions' => [$info->evictions, '#f0ad4e'], 'entries' => [$info->entry_count, '#337ab7']]) ?>
</div>
<p class="legend"><span style="background:#d9534f"></span>used<span style="background:#f0ad4e"></span>retired<span style="background:#5cb85c"></span>free<span style="background:#777"></span>index and header</p>
<table class="figures">
<?php foreach ([
    'entries' => [$info->entry_count, (string) $info->entry_count . ' of ' . $memory['max_entries']],
    'hit_ratio' => [round($ratio, 4), sprintf('%.1f %%', 100 * $ratio)],
    'hits' => [$info->hits, (string) $info->hits],
    'misses' => [$info->misses, (string) $info->misses],
    'evictions' => [$info->evictions, (string) $info->evictions],
    'inserts' => [$memory['inserts'], (string) $memory['inserts']],
    'expirations' => [$memory['expirations'], (string) $memory['expirations']],
    'configured_memory' => [$info->configured_memory, sc_bytes($info->configured_memory)],
    // Admin::memory()'s used counts the retired blocks too: shown apart, as in the donut.
    'used_memory' => [$live = max(0, $memory['used'] - $memory['retired']), sc_bytes($live)],
    'free_memory' => [$info->free_memory, sc_bytes($info->free_memory)],
    'largest_free' => [$memory['largest_free'], sc_bytes($memory['largest_free'])],
    'fragmentation' => [round($info->fragmentation, 4), sprintf('%.1f %%', 100 * $info->fragmentation)],
    'retired' => [$memory['retired'], sc_bytes($memory['retired'])],
] as $field => [$value, $shown]): ?>
<tr><th><?= str_replace('_', ' ', $field) ?></th><td class="num" data-field="<?= $field ?>" data-value="<?= $value ?>"><?= sc_h($shown) ?></td></tr>
<?php endforeach ?>
</table>
<?php if ($authed): ?>
<form method="post" onsubmit="return confirm('Clear every entry of the <?= $b ?> backend, attribute state included?')">
<input type="hidden" name="action" value="clear"><input type="hidden" name="backend" value="<?= $b ?>"><input type="hidden" name="csrf" value="<?= $csrf ?>">
<button class="clear">Clear <?= $b ?> backend</button></form>
<?php endif ?>
<?php endif ?>
</section>
<?php endforeach ?>
</div>

<h2>Keys</h2>
<form method="get">
<select name="backend"><?php foreach (['volatile', 'pinned'] as $b): ?><option<?= $b === $backend ? ' selected' : '' ?>><?= $b ?></option><?php endforeach ?></select>
<input name="prefix" value="<?= sc_h($prefix) ?>" placeholder="key prefix"> <button>Show</button>
</form>
<?php if ($authed && $prefix !== ''): ?>
<form method="post" onsubmit="return confirm('Delete every key starting with this prefix?')">
<input type="hidden" name="action" value="delete_prefix"><input type="hidden" name="backend" value="<?= $backend ?>"><input type="hidden" name="prefix" value="<?= sc_h($prefix) ?>"><input type="hidden" name="csrf" value="<?= $csrf ?>">
<button>Delete all keys starting with “<?= sc_h(sc_key($prefix)) ?>”</button> (attribute state is never deleted by prefix)</form>
<?php endif ?>
<table class="keys" data-backend="<?= $backend ?>">
<tr><th>key</th><th>kind</th><th>type</th><th>size</th><th>memory</th><th>TTL left</th><th>hits</th><th>version</th><?= $authed ? '<th></th>' : '' ?></tr>
<?php foreach ($entries as $e): ?>
<tr data-key="<?= bin2hex($e['key']) ?>">
<td class="key"><?= sc_h(sc_key($e['key'])) ?></td><td><?= $e['kind'] ?></td><td><?= $e['type']->name ?></td>
<td class="num"><?= sc_bytes($e['size']) ?></td><td class="num"><?= sc_bytes($e['memory']) ?></td>
<td class="num"><?= $e['ttl_left_ms'] === null ? '∞' : sprintf('%.1f s', $e['ttl_left_ms'] / 1000) ?></td>
<td class="num"><?= $e['hits'] ?></td><td class="num"><?= $e['version'] ?></td>
<?php if ($authed): ?>
<td><form method="post" class="inline"><input type="hidden" name="action" value="delete"><input type="hidden" name="backend" value="<?= $backend ?>"><input type="hidden" name="prefix" value="<?= sc_h($prefix) ?>"><input type="hidden" name="key" value="<?= bin2hex($e['key']) ?>"><input type="hidden" name="csrf" value="<?= $csrf ?>"><button class="delete">delete</button></form></td>
<?php endif ?>
</tr>
<?php endforeach ?>
</table>
<p><?= count($entries) ?> entries shown<?php if ($next !== null): ?> · <a id="next" href="<?= sc_h(sc_url($view + ['cursor' => $next])) ?>">next page</a><?php endif ?><?php if ($cursor > 0): ?> · <a href="<?= sc_h(sc_url($view)) ?>">first page</a><?php endif ?></p>
</body>
</html>
