--TEST--
Read cache past its key cap (16,384 keys per thread for an 8 MB backend): values read over 17,000 keys stay right and independent pass after pass, a key changed past the cap is read at its new version, a deleted one is a miss (null) (issue 19)
--INI--
static_cache.volatile_size_mb=8
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
$n = 17000;
for ($i = 0; $i < $n; $i++) { V::set("k$i", ['id' => $i, 'tags' => ['a', 'b']]); }
$wrong = 0;
for ($pass = 0; $pass < 3; $pass++) {
    for ($i = 0; $i < $n; $i++) {
        $v = V::get("k$i");
        if ($v !== ['id' => $i, 'tags' => ['a', 'b']]) { $wrong++; }
        $v['id'] = -1; $v['tags'][] = 'c';   // a write separates the fetched copy
    }
}
echo "wrong after 3 passes: $wrong\n";
// Keys changed, read past the cap and before it.
foreach ([0, 1, 8000, 16383, 16384, 16999] as $i) { V::set("k$i", "new$i"); }
V::delete('k500');
$wrong = 0;
for ($i = 0; $i < $n; $i++) {
    $want = match (true) { in_array($i, [0, 1, 8000, 16383, 16384, 16999], true) => "new$i", $i === 500 => null, default => ['id' => $i, 'tags' => ['a', 'b']] };
    if (V::get("k$i") !== $want) { $wrong++; }
}
echo "wrong after changes: $wrong\n";
var_dump(V::get('k16999'), V::get('k500'), V::get('k0'), V::get('k2')['tags']);
?>
--EXPECT--
wrong after 3 passes: 0
wrong after changes: 0
string(8) "new16999"
NULL
string(4) "new0"
array(2) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
}
