--TEST--
LF41 A restored value that no longer fits the declared type leaves the default (§16.4), and what the request-end check kept of it is let go with it: after the failed restore the request fills the memory the dropped value's objects had (empty stdClass and DateTimeImmutable, which the record kept without a copy, beside an object with a dynamic property, which it copied) with strings, the check reads none of it (no crash), and the stored value, which no request changed, is read again once the declaration fits ; the same for a member of a class blob, beside one that fits (all modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$dir = sys_get_temp_dir() . '/sc-lf41-typed-' . getmypid();
mkdir($dir);
// One declaration file per server (the requests reach every server at once), changed by R1 and R2.
sc_attr_server(<<<PHP
\$file = '$dir/' . \$_SERVER['SERVER_PORT'] . '.php';
if (!is_file(\$file)) {
    file_put_contents(\$file, '<?php class Typed { #[OPcache\\\\PinnedStatic] public static mixed \$v = "default"; }'
        . ' #[OPcache\\\\PinnedStatic] class Both { public static mixed \$v = "default"; public static ?stdClass \$o = null; }');
}
require \$file;
PHP, [
    'R1' => <<<PHP
    Typed::\$v = [new stdClass, [new stdClass, new DateTimeImmutable('2020-01-02')], 'n' => (object) ['n' => 7]];
    Both::\$v = [new stdClass, [new stdClass], 'n' => (object) ['n' => 8]];
    Both::\$o = (object) ['m' => 2];
    echo "stored\n";
    file_put_contents(\$file, '<?php class Typed { #[OPcache\\\\PinnedStatic] public static int \$v = 9; }'
        . ' #[OPcache\\\\PinnedStatic] class Both { public static int \$v = 9; public static ?stdClass \$o = null; }');
    touch(\$file, time() + 5);   // OPcache sees a new modification time (the file was made this second)
    PHP,
    'R2' => <<<PHP
    echo Typed::\$v, ' ', Both::\$v, ' ', Both::\$o->m, "\n";
    // Strings of the size of an empty object take the memory the dropped value's objects had.
    \$keep = [];
    for (\$i = 0; \$i < 200; \$i++) {
        \$keep[] = str_repeat(chr(65 + \$i % 26), 29) . (\$i % 10);
    }
    for (\$i = 0; \$i < 50; \$i++) {
        \$o = new stdClass;
        \$o->dynamic = \$i;
        \$keep[] = \$o;
    }
    echo count(\$keep), "\n";
    file_put_contents(\$file, '<?php class Typed { #[OPcache\\\\PinnedStatic] public static mixed \$v = "default"; }'
        . ' #[OPcache\\\\PinnedStatic] class Both { public static mixed \$v = "default"; public static ?stdClass \$o = null; }');
    touch(\$file, time() + 10);
    PHP,
    'R3' => <<<'PHP'
    $v = Typed::$v;
    echo get_debug_type($v), ' ', get_class($v[0]), ' ', count((array) $v[0]), ' ', get_class($v[1][0]), ' ',
        $v[1][1]->format('Y-m-d'), ' ', $v['n']->n, ' ';
    $b = Both::$v;
    echo count((array) $b[0]), ' ', get_class($b[1][0]), ' ', $b['n']->n, ' ', Both::$o->m, "\n";
    PHP,
], ['ini' => ['opcache.revalidate_freq' => '0']]);
array_map('unlink', glob("$dir/*.php"));
rmdir($dir);
?>
--EXPECT--
exact R1: stored
exact R2: 9 9 2  250
exact R3: array stdClass 0 stdClass 2020-01-02 7 0 stdClass 8 2
deferred R1: stored
deferred R2: 9 9 2  250
deferred R3: array stdClass 0 stdClass 2020-01-02 7 0 stdClass 8 2
jit R1: stored
jit R2: 9 9 2  250
jit R3: array stdClass 0 stdClass 2020-01-02 7 0 stdClass 8 2
