<?php
// After tests/zts/v38_shared_keys.php: how many copies were checked and how many were wrong; the main
// thread (which, under -S, keeps its thread-locals from one generation to the next) reads the common
// value too.
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;
$main = V::get('v38:common');
$ok = $main === null || (is_array($main) && crc32(serialize($main['body'])) === $main['sum']);
V::set('v38:main', ['' => '', 'a' => 'b', 'key' => ['' => 'a']]);
$ok = $ok && V::get('v38:main') === ['' => '', 'a' => 'b', 'key' => ['' => 'a']];
echo json_encode(['checked' => P::get('v38_checked') ?? 0, 'bad' => (P::get('v38_bad') ?? 0) + (P::get('v38_bad_after_write') ?? 0) + (P::get('v38_bad_kept') ?? 0), 'main' => $ok]), "\n";
