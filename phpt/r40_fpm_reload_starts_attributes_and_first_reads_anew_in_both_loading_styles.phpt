--TEST--
R40 FPM, extension loaded for the master (`extension=`) and per pool (`php_admin_value[extension]`), with and without OPcache: an attributed static and first reads of small arrays across a reload (SIGUSR2). Before it the pool's workers share the static (1, 2) and read the arrays whole; after it a new generation starts empty (README: a restart or reload starts empty), the static counts from its default again (1, 2) and the arrays read back whole; the attribute mode is the one the pool reports throughout (exact, or deferred per pool with OPcache: docs/ATTRIBUTES.md)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm not installed');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

$app = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
class Hits { #[OPcache\PinnedStatic] public static int $n = 0; }
$hits = ++Hits::$n;
$value = ['pid' => 'p', 'list' => [1, 'x', ['' => '']], 7 => str_repeat('z', 100)];
$had = V::get('arr');
V::set('arr', $value);
$once = V::get('arr');
$twice = V::get('arr');
echo json_encode(['hits' => $hits, 'had' => $had === null ? null : $had === $value, 'same' => $once === $value && $twice === $value,
    'mode' => V::info()->attribute_mode]);
PHP;
foreach (['global' => false, 'pool' => false, 'global ' => true, 'pool ' => true] as $load => $opcache) {
    $load = trim($load);
    $fpm = sc_fpm_start(['alpha' => ['children' => 2]], $app, ['load' => $load, 'opcache' => $opcache]);
    $lines = [];
    $ask = function () use (&$fpm, &$lines) {
        $r = sc_fcgi($fpm, 'alpha', 'x=1');
        $lines[] = json_encode($r);
    };
    $ask(); $ask();
    $old = sc_fpm_generation($fpm);
    sc_kill($fpm['pid'], 12);
    sc_until(function () use ($fpm, $old) {
        try {
            return sc_fpm_generation($fpm) !== $old;
        } catch (Throwable) {
            return false;
        }
    }, 10.0);
    sc_until(fn() => count(sc_fpm_ready_workers($fpm, 'alpha')) === 2, 10.0);
    $ask(); $ask();
    echo "$load", $opcache ? ' opcache' : '', ': ', implode(' ', $lines), "\n";
    sc_fpm_stop($fpm);
    sc_fpm_cleanup($fpm);
}
?>
--EXPECT--
global: {"hits":1,"had":null,"same":true,"mode":"exact"} {"hits":2,"had":true,"same":true,"mode":"exact"} {"hits":1,"had":null,"same":true,"mode":"exact"} {"hits":2,"had":true,"same":true,"mode":"exact"}
pool: {"hits":1,"had":null,"same":true,"mode":"exact"} {"hits":2,"had":true,"same":true,"mode":"exact"} {"hits":1,"had":null,"same":true,"mode":"exact"} {"hits":2,"had":true,"same":true,"mode":"exact"}
global opcache: {"hits":1,"had":null,"same":true,"mode":"exact"} {"hits":2,"had":true,"same":true,"mode":"exact"} {"hits":1,"had":null,"same":true,"mode":"exact"} {"hits":2,"had":true,"same":true,"mode":"exact"}
pool opcache: {"hits":1,"had":null,"same":true,"mode":"deferred"} {"hits":2,"had":true,"same":true,"mode":"deferred"} {"hits":1,"had":null,"same":true,"mode":"deferred"} {"hits":2,"had":true,"same":true,"mode":"deferred"}
