--TEST--
R39 A class whose properties changed visibility since its objects were stored (public -> private, protected -> public, private -> protected; a parent's private stays the parent's): the stored values go into the redeclared properties, as unserialize() matches them (spec §6.5: "properties are matched by name, as unserialize() does"), on the one-pass first read of a small graph, the general check and a repeated read alike, instead of being dropped for the defaults (review rv39)
--EXTENSIONS--
static_cache
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
$pid = sc_fork(function () {
    eval('class Base { private $p = "stored-p"; }
          class Item extends Base { public $a = "stored-a"; protected $b = "stored-b"; private $c = "stored-c"; }');
    V::set('one', new Item);                                   // the small-graph check
    V::set('many', array_map(fn($i) => new Item, range(1, 20))); // past its limits: the general check
    V::set('ser', serialize(new Item));
});
sc_wait($pid);
eval('class Base { private $p = "default-p"; }
      class Item extends Base { private $a = "default-a"; public $b = "default-b"; protected $c = "default-c"; public $p = "default-child-p"; }');
$show = fn($o) => json_encode((array) $o);
echo "unserialize: ", $show(unserialize(V::get('ser'))), "\n";
for ($i = 0; $i < 2; $i++) {
    echo "one: ", $show(V::get('one')), "\n";
    echo "many: ", $show(V::get('many')[0]), "\n";
}
?>
--EXPECT--
unserialize: {"\u0000Base\u0000p":"stored-p","\u0000Item\u0000a":"stored-a","b":"stored-b","\u0000*\u0000c":"stored-c","p":"default-child-p"}
one: {"\u0000Base\u0000p":"stored-p","\u0000Item\u0000a":"stored-a","b":"stored-b","\u0000*\u0000c":"stored-c","p":"default-child-p"}
many: {"\u0000Base\u0000p":"stored-p","\u0000Item\u0000a":"stored-a","b":"stored-b","\u0000*\u0000c":"stored-c","p":"default-child-p"}
one: {"\u0000Base\u0000p":"stored-p","\u0000Item\u0000a":"stored-a","b":"stored-b","\u0000*\u0000c":"stored-c","p":"default-child-p"}
many: {"\u0000Base\u0000p":"stored-p","\u0000Item\u0000a":"stored-a","b":"stored-b","\u0000*\u0000c":"stored-c","p":"default-child-p"}
