--TEST--
V37 Keys of 21, 22, 23 and 24 bytes (the lookup cache keeps up to 22 inline), keys that differ only in their last byte or only after byte 22, keys with NUL bytes and keys that are a prefix of another padded with NULs are distinct keys through get(), getMultiple() and has(), before and after each is replaced or deleted, across repeated reads (spec §4.2, §7.4) (review rv37)
--FILE--
<?php
use OPcache\VolatileCache as V;
$keys = [];
foreach ([20, 21, 22, 23, 24] as $len) {
    $base = str_repeat('k', $len - 1);
    foreach (['a', 'b', "\0", "\xff"] as $last) $keys[] = $base . $last;
}
// Same first 22 bytes, different after.
$keys[] = str_repeat('p', 22) . 'x'; $keys[] = str_repeat('p', 22) . 'y'; $keys[] = str_repeat('p', 22) . "\0\0";
// A key and the same key padded with NULs up to and past the inline length.
$keys[] = "short"; $keys[] = "short\0"; $keys[] = str_pad("short", 22, "\0"); $keys[] = str_pad("short", 23, "\0");
$keys[] = "\0"; $keys[] = "\0\0"; $keys[] = str_repeat("\0", 22); $keys[] = str_repeat("\0", 23);
$keys = array_values(array_unique($keys));
$n = count($keys);
$check = function (string $when, array $want) use ($keys) {
    $bad = [];
    for ($round = 0; $round < 3; $round++) {                      // the first read, then the lookup cache's
        foreach ($keys as $i => $k) {
            $got = V::get($k, 'missing');
            if ($got !== ($want[$i] ?? 'missing') || V::has($k) !== isset($want[$i])) $bad[] = bin2hex($k);
        }
        $many = V::getMultiple($keys);
        foreach ($keys as $i => $k) if (($many[$k] ?? 'missing') !== ($want[$i] ?? 'missing')) $bad[] = 'm' . bin2hex($k);
    }
    echo $when, ': ', $bad ? 'WRONG ' . implode(',', array_unique($bad)) : 'ok', "\n";
};
$want = [];
foreach ($keys as $i => $k) { V::set($k, "v$i"); $want[$i] = "v$i"; }
$check('stored', $want);
// Replace every other key, with values of every kind the first read builds differently.
foreach ($keys as $i => $k) if ($i % 2) { $want[$i] = [$i, "w$i"]; V::set($k, $want[$i]); }
$check('half replaced', $want);
foreach ($keys as $i => $k) if ($i % 3 === 0) { unset($want[$i]); V::delete($k); }
$check('a third deleted', $want);
foreach ($keys as $i => $k) { $want[$i] = $i; V::set($k, $i); }
$check('all ints', $want);
echo count($keys), " keys\n";
?>
--EXPECT--
stored: ok
half replaced: ok
a third deleted: ok
all ints: ok
31 keys
