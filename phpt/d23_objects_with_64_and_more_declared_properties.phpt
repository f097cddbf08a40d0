--TEST--
Objects of classes with exactly 64 and with 70 declared properties, whose class gained types since the store (fork): the last of 64 properties coerced (int into float) and an object in the one before it, the same past 64 (where no fast pass is made), an uninitialized and a readonly property at the end, refcounted array defaults overwritten, several objects of each class; every fetch is faithful and independent (spec §6.2, §6.5, §7.1)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

class Dep { public function __construct(public string $n) {} }
class DepSub extends Dep {}

const INTS = ['W64' => [1, 58, 61, 63], 'W70' => [1, 64, 66, 68, 69]];
const SPECIAL = ['W64' => [1, 58, 61, 62, 63], 'W70' => [1, 64, 65, 66, 68, 69]];

/** A class of $n properties p0..p(n-1): the types of $types where given; arrays with an array default every
 * third one, else untyped with a string default (int ones: 0). */
function declare_wide(string $name, int $n, array $types): void
{
    $code = "class $name {\n";
    for ($i = 0; $i < $n; $i++) {
        $code .= match (true) {
            isset($types[$i]) => "    public {$types[$i]} \$p$i;\n",
            in_array($i, SPECIAL[$name], true) => "    public \$p$i = 0;\n",
            $i % 3 === 0 => "    public array \$p$i = ['default', $i];\n",
            default => "    public \$p$i = 'd$i';\n",
        };
    }
    eval($code . "}\n");
}

/** The value stored in property $i of the $k-th object of $class. */
function val(string $class, int $k, int $i): mixed
{
    return match (true) {
        in_array($i, INTS[$class], true) => $k * 1000 + $i,
        $i % 3 === 0 => [$class, $k, $i],
        $i % 3 === 1 => "$class-$k-$i",
        default => $k * 1000 + $i,
    };
}

$pid = sc_fork(function () {
    declare_wide('W64', 64, [61 => 'readonly int']);
    declare_wide('W70', 70, [69 => 'readonly int']);
    $all = [];
    foreach (['W64' => 64, 'W70' => 70] as $class => $n) {
        for ($k = 0; $k < 3; $k++) {
            $o = new $class;
            for ($i = 0; $i < $n; $i++) {
                if (($class === 'W64' && $i === 61) || ($class === 'W70' && $i === 69)) {
                    // Readonly: initialized from the class's scope.
                    (function () use ($i, $class, $k) { $this->{"p$i"} = val($class, $k, $i); })->call($o);
                } else {
                    $o->{"p$i"} = val($class, $k, $i);
                }
            }
            $all[] = $o;
        }
    }
    unset($all[0]->p58, $all[3]->p66);
    $all[1]->p62 = new Dep('x');
    $all[2]->p62 = new DepSub('y');
    $all[4]->p65 = new Dep('x');
    $all[5]->p65 = new DepSub('y');
    $all[0]->p62 = $all[3]->p65 = null;
    V::set('wide', $all);
});
sc_wait($pid);

if (true) {
    declare_wide('W64', 64, [1 => 'int', 58 => 'int', 61 => 'readonly int', 62 => '?Dep', 63 => 'float']);
    declare_wide('W70', 70, [1 => 'float', 64 => 'float', 65 => '?Dep', 66 => 'int', 68 => 'float', 69 => 'readonly int']);
}

function show(array $all): void
{
    foreach ($all as $at => $o) {
        $class = get_class($o);
        $vars = get_object_vars($o);
        $n = $o instanceof W64 ? 64 : 70;
        $bad = [];
        for ($i = 0; $i < $n; $i++) {
            if (!in_array($i, SPECIAL[$class], true) && ($vars["p$i"] ?? null) !== val($class, $at % 3, $i)) {
                $bad[] = "p$i";
            }
        }
        echo $class, ' ', count($vars), ' ', $bad ? implode(',', $bad) : 'rest ok', ' |';
        foreach (SPECIAL[$class] as $i) {
            $v = array_key_exists("p$i", $vars) ? $vars["p$i"] : 'uninit';
            echo " p$i=", is_object($v) ? get_class($v) . "($v->n)" : ($v === 'uninit' ? $v : var_export($v, true));
        }
        echo "\n";
    }
}

$a = V::get('wide');
$b = V::get('wide');
show($a);
$a[0]->p0[] = 'pushed';
$a[1]->p62->n = 'changed';
$a[5]->p64 = 1;
echo $a[1] !== $b[1] && $a[1]->p62 !== $b[1]->p62 ? "independent\n" : "shared\n";
show($b);
t(fn () => $b[0]->p61 = 5);
t(fn () => $b[4]->p69 = 5);
t(fn () => $b[0]->p58);
$b[0]->p58 = '3';
var_dump($b[0]->p58);
t(fn () => $b[3]->p66);
$n = new W70;
echo $n->p0[0], ' ', $n->p2, "\n";
?>
--EXPECT--
W64 63 rest ok | p1=1 p58=uninit p61=61 p62=NULL p63=63.0
W64 64 rest ok | p1=1001 p58=1058 p61=1061 p62=Dep(x) p63=1063.0
W64 64 rest ok | p1=2001 p58=2058 p61=2061 p62=DepSub(y) p63=2063.0
W70 69 rest ok | p1=1.0 p64=64.0 p65=NULL p66=uninit p68=68.0 p69=69
W70 70 rest ok | p1=1001.0 p64=1064.0 p65=Dep(x) p66=1066 p68=1068.0 p69=1069
W70 70 rest ok | p1=2001.0 p64=2064.0 p65=DepSub(y) p66=2066 p68=2068.0 p69=2069
independent
W64 63 rest ok | p1=1 p58=uninit p61=61 p62=NULL p63=63.0
W64 64 rest ok | p1=1001 p58=1058 p61=1061 p62=Dep(x) p63=1063.0
W64 64 rest ok | p1=2001 p58=2058 p61=2061 p62=DepSub(y) p63=2063.0
W70 69 rest ok | p1=1.0 p64=64.0 p65=NULL p66=uninit p68=68.0 p69=69
W70 70 rest ok | p1=1001.0 p64=1064.0 p65=Dep(x) p66=1066 p68=1068.0 p69=1069
W70 70 rest ok | p1=2001.0 p64=2064.0 p65=DepSub(y) p66=2066 p68=2068.0 p69=2069
Error: Cannot modify readonly property W64::$p61
Error: Cannot modify readonly property W70::$p69
Error: Typed property W64::$p58 must not be accessed before initialization
int(3)
Error: Typed property W70::$p66 must not be accessed before initialization
default d2
