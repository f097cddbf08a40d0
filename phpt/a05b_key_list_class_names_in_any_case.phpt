--TEST--
A5b getMultiple / deleteMultiple reject a loaded class name in any case, written as the engine keeps it (lower case) or not, and a class declared or aliased since an earlier call; other keys of the same spelling pass (§4.2, issue 19 item 5)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\{VolatileCache as V, PinnedCache as P};
class Foo {}
function verdict(callable $f): string { try { $f(); return 'ok'; } catch (ValueError $e) { return 'ValueError'; } }
V::set('foox', 1);
// Each key, as part of a list after a valid one: getMultiple, deleteMultiple, and get() for comparison.
foreach (['foo', 'Foo', 'FOO', '\foo', 'stdclass', '\stdclass', 'foox', 'fo', "foo\0", 'late', 'aliasname'] as $k) {
    printf("%-12s getMultiple %-10s deleteMultiple %-10s get %s\n", json_encode($k),
        verdict(fn() => V::getMultiple(['foox', $k])), verdict(fn() => P::deleteMultiple(['foox', $k])),
        verdict(fn() => V::get($k)));
}
// Declared and aliased after the calls above.
eval('class Late {}');
class_alias('Foo', 'AliasName');
foreach (['late', 'aliasname', 'ALIASNAME'] as $k) {
    printf("%-12s getMultiple %-10s deleteMultiple %s\n", json_encode($k),
        verdict(fn() => V::getMultiple([$k])), verdict(fn() => P::deleteMultiple([$k])));
}
echo json_encode(V::getMultiple(['foox', 'fo'])), "\n";
?>
--EXPECT--
"foo"        getMultiple ValueError deleteMultiple ValueError get ValueError
"Foo"        getMultiple ValueError deleteMultiple ValueError get ValueError
"FOO"        getMultiple ValueError deleteMultiple ValueError get ValueError
"\\foo"      getMultiple ValueError deleteMultiple ValueError get ValueError
"stdclass"   getMultiple ValueError deleteMultiple ValueError get ValueError
"\\stdclass" getMultiple ValueError deleteMultiple ValueError get ValueError
"foox"       getMultiple ok         deleteMultiple ok         get ok
"fo"         getMultiple ok         deleteMultiple ok         get ok
"foo\u0000"  getMultiple ok         deleteMultiple ok         get ok
"late"       getMultiple ok         deleteMultiple ok         get ok
"aliasname"  getMultiple ok         deleteMultiple ok         get ok
"late"       getMultiple ValueError deleteMultiple ValueError
"aliasname"  getMultiple ValueError deleteMultiple ValueError
"ALIASNAME"  getMultiple ValueError deleteMultiple ValueError
{"foox":1,"fo":null}
