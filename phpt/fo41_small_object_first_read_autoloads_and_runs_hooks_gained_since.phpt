--TEST--
fo41: the first read in a request of small objects stored by another request autoloads their classes once, with no lock held (the autoloader reads the cache), and runs the __wakeup() and __unserialize() the classes gained since, inner objects first, once per version per request (multi-request, built-in server)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
ob_start();
$loaded = [];
spl_autoload_register(function ($c) use (&$loaded) {
    $loaded[] = $c;
    // The autoloader may use the cache (no lock is held while it runs).
    V::set('fo41_autoloaded', $c);
    require __DIR__ . "/$c.inc";
});
if ($_GET['r'] === '1') {
    require __DIR__ . '/v1.inc';
    V::set('fo41_w', new Outer(new Inner('in'), 5));
    V::set('fo41_s', (object) ['outer' => new Outer(new Inner('deep'), 6), 'n' => 1]);
    V::set('fo41_u', [new Node('a'), new Node('b')]);
    echo "stored\n";
} else {
    foreach (['fo41_w', 'fo41_s', 'fo41_u', 'fo41_w'] as $key) {
        echo "$key:\n";
        $first = V::get($key);
        $second = V::get($key);
        echo json_encode($first), ' ', $first == $second && $first !== $second ? 'equal, distinct' : 'DIFFERENT', "\n";
    }
    sort($loaded);
    echo 'autoloaded: ', implode(' ', $loaded), ', the autoloader stored: ', in_array(V::get('fo41_autoloaded'), $loaded, true) ? 'yes' : 'NO', "\n";
}
echo json_encode(ob_get_clean());
PHP;
$server = sc_server_start($router, 1);
// As stored: no hook.
file_put_contents($server['dir'] . '/v1.inc', <<<'PHP'
<?php
class Inner { public function __construct(public string $s) {} }
class Outer { public function __construct(public Inner $in, public int $n) {} }
class Node { public function __construct(public string $name) {} }
PHP);
// As read: the same classes, one file each, which have gained hooks since.
file_put_contents($server['dir'] . '/Inner.inc', <<<'PHP'
<?php
class Inner { public function __construct(public string $s) {} public function __wakeup(): void { echo "wakeup Inner {$this->s}\n"; } }
PHP);
file_put_contents($server['dir'] . '/Outer.inc', <<<'PHP'
<?php
class Outer {
    public function __construct(public Inner $in, public int $n) {}
    public function __wakeup(): void { echo "wakeup Outer {$this->n} holding {$this->in->s}\n"; }
}
PHP);
file_put_contents($server['dir'] . '/Node.inc', <<<'PHP'
<?php
class Node {
    public string $name;
    public function __unserialize(array $data): void { echo 'unserialize Node ', json_encode($data), "\n"; $this->name = $data['name']; }
}
PHP);
echo 'R1: ', sc_server_get($server, 'r=1');
echo 'R2: ', sc_server_get($server, 'r=2');
echo 'R3: ', sc_server_get($server, 'r=3');
sc_server_stop($server);
?>
--EXPECT--
R1: stored
R2: fo41_w:
wakeup Inner in
wakeup Outer 5 holding in
{"in":{"s":"in"},"n":5} equal, distinct
fo41_s:
wakeup Inner deep
wakeup Outer 6 holding deep
{"outer":{"in":{"s":"deep"},"n":6},"n":1} equal, distinct
fo41_u:
unserialize Node {"name":"a"}
unserialize Node {"name":"b"}
[{"name":"a"},{"name":"b"}] equal, distinct
fo41_w:
{"in":{"s":"in"},"n":5} equal, distinct
autoloaded: Inner Node Outer, the autoloader stored: yes
R3: fo41_w:
wakeup Inner in
wakeup Outer 5 holding in
{"in":{"s":"in"},"n":5} equal, distinct
fo41_s:
wakeup Inner deep
wakeup Outer 6 holding deep
{"outer":{"in":{"s":"deep"},"n":6},"n":1} equal, distinct
fo41_u:
unserialize Node {"name":"a"}
unserialize Node {"name":"b"}
[{"name":"a"},{"name":"b"}] equal, distinct
fo41_w:
{"in":{"s":"in"},"n":5} equal, distinct
autoloaded: Inner Node Outer, the autoloader stored: yes
