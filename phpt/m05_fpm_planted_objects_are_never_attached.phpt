--TEST--
FPM: an object planted at a pool's segment name (by another user, by the pool's own user for another master, or as a symbolic link) is never attached: the pool is unavailable with a reason in info() and in the FPM log, its secrets go nowhere, and the master removes the planted objects with its own (issue 15)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (pool users, a private /dev/shm)');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

$app = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
$i = V::info();
$r = match ($_GET['op']) {
    'set' => V::set($_GET['k'], $_GET['v']),
    'get' => V::get($_GET['k']),
    'info' => [$i->available, $i->failure_reason],
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();

// The attacker (user nobody) runs a php-fpm of their own and stores a poisoned value in it.
$evil = sc_fpm_start(['evil' => ['children' => 1, 'conf' => ['user' => 'nobody', 'group' => 'nogroup']]], $app, ['shm' => $shm]);
var_dump(sc_fcgi($evil, 'evil', 'op=set&k=config&v=poisoned')['r']);
$poison = sc_shm_read($shm, sc_fpm_segment($evil, 'evil'));
file_put_contents($evil['dir'] . '/poison', $poison);
sc_fpm_stop($evil);

// The victim's master, three pools of www-data; before their first request each segment name is taken.
$www = ['user' => 'www-data', 'group' => 'www-data'];
$fpm = sc_fpm_start(['shop1' => ['children' => 1, 'conf' => $www], 'shop2' => ['children' => 1, 'conf' => $www],
    'shop3' => ['children' => 1, 'conf' => $www]], $app, ['shm' => $shm]);
$names = [];
foreach (['shop1', 'shop2', 'shop3'] as $pool) {
    $names[$pool] = sc_fpm_segment($fpm, $pool);
}
$plant = fn(string $name, string $owner, string $mode) => sc_shm_run($shm,
    "cp {$evil['dir']}/poison /dev/shm/$name && chown $owner /dev/shm/$name && chmod $mode /dev/shm/$name");
echo $plant($names['shop1'], 'nobody', '666');             // another user's, world-writable
echo $plant($names['shop2'], 'www-data', '600');           // the pool's user's, made for another master
echo $plant('decoy', 'www-data', '600');                   // the pool's user's, reached through a link
echo sc_shm_run($shm, "ln -s /dev/shm/decoy /dev/shm/{$names['shop3']}");

foreach ($names as $pool => $name) {
    echo "-- $pool\n";
    $info = sc_fcgi($fpm, $pool, 'op=info')['r'];
    var_dump($info[0]);
    echo str_replace($name, 'NAME', (string) $info[1]), "\n";
    var_dump(sc_fcgi($fpm, $pool, 'op=get&k=config')['r'], sc_fcgi($fpm, $pool, 'op=set&k=secret&v=s3cret')['r']);
}
echo "-- the planted bytes are untouched: no secret went into them\n";
var_dump(strlen($poison) > 4096, sc_shm_read($shm, $names['shop1']) === $poison,
    sc_shm_read($shm, $names['shop2']) === $poison, sc_shm_read($shm, 'decoy') === $poison);
echo "-- the FPM log has each reason\n";
foreach ($names as $pool => $name) {
    var_dump(count(preg_grep('/\[pool ' . $pool . '\].*static_cache: Unable to attach the shared memory of partition "' . $pool . '"/', sc_fpm_log($fpm))));
}
echo "-- the master leaves nothing of its generation, planted objects included\n";
sc_fpm_stop($fpm);
var_dump(sc_shm_settles($shm, ['decoy']));
sc_shm_close($shm);
sc_fpm_cleanup($evil);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
bool(true)
-- shop1
bool(false)
Unable to attach the shared memory of partition "shop1": /dev/shm/NAME: the object is a file owned by uid 65534 with mode 0666, not a private object of this user (mode 0600); it was planted by someone else and is not used
bool(false)
bool(false)
-- shop2
bool(false)
Unable to attach the shared memory of partition "shop2": /dev/shm/NAME: the segment was not created for this php-fpm master generation and pool; it is not used
bool(false)
bool(false)
-- shop3
bool(false)
Unable to attach the shared memory of partition "shop3": /dev/shm/NAME: open: Too many levels of symbolic links (os error 40)
bool(false)
bool(false)
-- the planted bytes are untouched: no secret went into them
bool(true)
bool(true)
bool(true)
bool(true)
-- the FPM log has each reason
int(1)
int(1)
int(1)
-- the master leaves nothing of its generation, planted objects included
array(1) {
  [0]=>
  string(5) "decoy"
}
