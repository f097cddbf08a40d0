--TEST--
V38b Units of one property restore the fetched value itself (at38): an array restored and then written through a reference bound to the root is published (§16.6 root writes) and the next request reads the new array, the stored array unchanged meanwhile; an object restored into a PinnedStatic root and mutated is published only in deferred mode (§16.6); two property roots that held one object are two entries, restored as two objects (§16.4: identity inside one entry), a mutation of one dirties only that one; a restored value that no longer fits the declared type leaves the default (§16.4) (all modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$dir = sys_get_temp_dir() . '/sc-v38b-typed-' . getmypid();
mkdir($dir);
// One declaration file per server (the requests reach every server at once), changed by R1.
sc_attr_server(<<<PHP
\$file = '$dir/' . \$_SERVER['SERVER_PORT'] . '.php';
if (!is_file(\$file)) {
    file_put_contents(\$file, '<?php class Typed { #[OPcache\\\\PinnedStatic] public static mixed \$v = "default"; }');
}
require \$file;
class Arr { #[OPcache\PinnedStatic] public static array \$a = []; }
class Obj { #[OPcache\PinnedStatic] public static ?stdClass \$o = null; }
class Two { #[OPcache\PinnedStatic] public static ?stdClass \$a = null; #[OPcache\PinnedStatic] public static ?stdClass \$b = null; }
PHP, [
    'R1' => <<<PHP
    Arr::\$a = [1, 2, 3];
    \$o = new stdClass; \$o->n = 1; Obj::\$o = \$o;
    \$s = new stdClass; \$s->n = 1; Two::\$a = \$s; Two::\$b = \$s;
    Typed::\$v = [new stdClass, [new stdClass]];
    echo "stored\n";
    file_put_contents(\$file, '<?php class Typed { #[OPcache\\\\PinnedStatic] public static int \$v = 9; }');
    touch(\$file, time() + 5);   // OPcache sees a new modification time (the file was made this second)
    PHP,
    'R2' => <<<'PHP'
    $r = &Arr::$a; $r[] = 4; echo implode(',', Arr::$a), ' ';
    Obj::$o->n++; echo Obj::$o->n, ' ';
    var_dump(Two::$a === Two::$b); Two::$a->n = 2;
    echo Typed::$v, "\n";
    PHP,
    'R3' => <<<'PHP'
    echo implode(',', Arr::$a), ' ', Obj::$o->n, ' ', Two::$a->n, ' ', Two::$b->n, ' ', Typed::$v, "\n";
    PHP,
], ['ini' => ['opcache.revalidate_freq' => '0']]);
array_map('unlink', glob("$dir/*.php"));
rmdir($dir);
?>
--EXPECT--
exact R1: stored
exact R2: 1,2,3,4 2 bool(false)  9
exact R3: 1,2,3,4 1 1 1 9
deferred R1: stored
deferred R2: 1,2,3,4 2 bool(false)  9
deferred R3: 1,2,3,4 2 2 1 9
jit R1: stored
jit R2: 1,2,3,4 2 bool(false)  9
jit R3: 1,2,3,4 2 2 1 9
