--TEST--
D32 One worker, two kinds of request (with and without OPcache): one declares many classes and makes a key hot; the next includes a file whose function declares a class named like the key (compiled under a runtime key, bound in place when called), declares more classes than the first request did, makes the key hot, then calls the function: the key is refused from then on (spec §4.2; multi-request, built-in server)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
$out = [];
$get = function (string $k) use (&$out) {
    try { $out[] = var_export(V::get($k), true); } catch (Throwable $e) { $out[] = get_class($e); }
};
V::set('lateclass', 'value');
if ($_GET['r'] === 'grow') {
    for ($i = 0; $i < 80; $i++) { eval("class Grow$i {}"); }
    for ($i = 0; $i < 5; $i++) { $get('lateclass'); }
} else {
    include __DIR__ . '/decl.php';
    for ($i = 0; $i < 160; $i++) { eval("class More$i {}"); }
    for ($i = 0; $i < 5; $i++) { $get('lateclass'); }
    declare_late_class();
    $get('lateclass');
    $get('lateclass');
}
echo json_encode(implode(' ', $out) . "\n");
PHP;
$base = ['display_errors' => '1', 'html_errors' => '0'];
$opcache = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1', 'opcache.file_update_protection' => '0'];
foreach (['plain' => $base, 'opcache' => $base + $opcache] as $name => $ini) {
    $server = sc_server_start($router, 1, $ini);
    file_put_contents($server['dir'] . '/decl.php', "<?php\nfunction declare_late_class(): void { class LateClass {} }\n");
    foreach (['grow', 'late', 'grow', 'late'] as $r) {
        echo "$name $r: ", sc_server_get($server, "r=$r");
    }
    sc_server_stop($server);
}
?>
--EXPECT--
plain grow: 'value' 'value' 'value' 'value' 'value'
plain late: 'value' 'value' 'value' 'value' 'value' ValueError ValueError
plain grow: 'value' 'value' 'value' 'value' 'value'
plain late: 'value' 'value' 'value' 'value' 'value' ValueError ValueError
opcache grow: 'value' 'value' 'value' 'value' 'value'
opcache late: 'value' 'value' 'value' 'value' 'value' ValueError ValueError
opcache grow: 'value' 'value' 'value' 'value' 'value'
opcache late: 'value' 'value' 'value' 'value' 'value' ValueError ValueError
