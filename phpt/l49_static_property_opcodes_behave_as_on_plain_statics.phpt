--TEST--
L49 Every kind of static-property opcode (++/-- pre and post, ??= on the root and on an element, .=, compound assignments, a reference bound to the root, by-reference arguments, isset/empty, element writes and unset of an element, self::/static::/a class name in a variable, undeclared statics, a typed static's overflow TypeError), by variable names (every access chosen) and by constant names (plain statics provably plain), behaves on attributed statics (Immediate, Tracking, Pinned) exactly as on plain ones and as PHP's own, including where exact mode's private opcodes stand for them (exact, deferred and jit modes; CLI)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_cli(<<<'PHP'
class C {
    #[OPcache\VolatileStatic] public static $a = ['k' => 1];
    #[OPcache\PinnedStatic] public static int $i = 0;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $s = 'x';
    #[OPcache\VolatileStatic] public static $n = null;
    public static $pa = ['k' => 1];
    public static int $pi = 0;
    public static $ps = 'x';
    public static $pn = null;
}
class D { public static $a = ['k' => 1]; public static int $i = PHP_INT_MAX; public static $n; }
function bump(&$v) { $v = is_int($v) ? $v + 10 : 'ref'; }
$out = [];
foreach ([['a', 'i', 's', 'n'], ['pa', 'pi', 'ps', 'pn']] as [$a, $i, $s, $n]) {
    $r = [];
    $r[] = C::$$i++; $r[] = ++C::$$i; $r[] = C::$$i--; $r[] = --C::$$i; $r[] = C::$$i;
    $r[] = (C::$$n ??= 'set'); $r[] = (C::$$n ??= 'again'); $r[] = (C::$$s .= 'y');
    $ref = &C::$$s; $ref = 'by-ref'; unset($ref); $r[] = C::$$s;
    bump(C::$$i); bump(C::$$s); $r[] = C::$$i; $r[] = C::$$s;
    $r[] = isset(C::$$a['k']); $r[] = empty(C::$$a['k']); $r[] = isset(C::$$n); $r[] = isset(C::$$a['none']);
    C::$$a['k2'][] = 5; C::$$a['k3'] ??= 'd'; C::$$a['k3'] ??= 'e'; unset(C::$$a['k']); C::$$a['k2'][0] .= 'x';
    $r[] = json_encode(C::$$a);
    $r[] = C::$$i += 3; $r[] = C::$$i <<= 2; $r[] = C::$$s ?? 'none';
    $out[] = implode(',', array_map('json_encode', $r));
}
echo $out[0], "\n", $out[0] === $out[1] ? "attributed and plain statics agree\n" : "DIFFER: $out[1]\n";
// The same with constant names, inside the class (self::, where a plain static is provably plain) and outside
class L {
    #[OPcache\VolatileStatic] public static $a = ['k' => 1];
    #[OPcache\PinnedStatic] public static int $i = 0;
    public static $pa = ['k' => 1];
    public static int $pi = 0;
    static function run(): string {
        $r = [self::$i++, ++self::$i, self::$i--, --self::$i, self::$pi++, ++self::$pi, self::$pi--, --self::$pi];
        self::$a['x'] ??= 1; self::$pa['x'] ??= 1; unset(self::$a['k'], self::$pa['k']); self::$a['y'][] = 2; self::$pa['y'][] = 2;
        $ra = &self::$a['y']; $ra[] = 3; $rp = &self::$pa['y']; $rp[] = 3;
        bump(self::$i); bump(self::$pi);
        $r[] = isset(self::$a['x']); $r[] = empty(self::$pa['k']); $r[] = self::$a === self::$pa; $r[] = self::$i === self::$pi;
        return json_encode($r);
    }
}
echo L::run(), ' ', L::$i++ === L::$pi++ ? 'same' : 'differ', ' ', json_encode([L::$a, L::$pa, --L::$i, --L::$pi]), "\n";
// the same through self::/static::, a class name in a variable, and a plain class
class E extends C { static function run() { self::$a['e'] = 1; static::$i++; $c = 'C'; $c::$s .= '!'; return [json_encode(static::$a), self::$i, C::$s]; } }
t(fn() => E::run());
t(function () { D::$i++; return D::$i; });
t(function () { $x = D::$i; D::$i += 1; return $x; });
t(function () { D::$a['x'] ??= 1; unset(D::$a['k']); return D::$a; });
t(fn() => isset(D::$n) || empty(D::$n));
t(fn() => C::$nope);
t(fn() => isset(C::$nope));
t(function () { unset(C::$a['k2'][0]); return C::$a; });
PHP);
?>
--EXPECT--
exact: 0,2,2,0,0,"set","set","xy","by-ref",10,"ref",true,false,true,false,"{\"k2\":[\"5x\"],\"k3\":\"d\"}",13,52,"ref"  attributed and plain statics agree  [0,2,2,0,0,2,2,0,true,true,true,true] same [{"x":1,"y":[2,3]},{"x":1,"y":[2,3]},10,10]  array(3) {    [0]=>    string(28) "{"k2":["5x"],"k3":"d","e":1}"    [1]=>    int(53)    [2]=>    string(4) "ref!"  }  TypeError: Cannot increment property D::$i of type int past its maximal value  TypeError: Cannot assign float to property D::$i of type int  array(1) {    ["x"]=>    int(1)  }  bool(true)  Error: Access to undeclared static property C::$nope  bool(false)  array(3) {    ["k2"]=>    array(0) {    }    ["k3"]=>    string(1) "d"    ["e"]=>    int(1)  }
deferred: 0,2,2,0,0,"set","set","xy","by-ref",10,"ref",true,false,true,false,"{\"k2\":[\"5x\"],\"k3\":\"d\"}",13,52,"ref"  attributed and plain statics agree  [0,2,2,0,0,2,2,0,true,true,true,true] same [{"x":1,"y":[2,3]},{"x":1,"y":[2,3]},10,10]  array(3) {    [0]=>    string(28) "{"k2":["5x"],"k3":"d","e":1}"    [1]=>    int(53)    [2]=>    string(4) "ref!"  }  TypeError: Cannot increment property D::$i of type int past its maximal value  TypeError: Cannot assign float to property D::$i of type int  array(1) {    ["x"]=>    int(1)  }  bool(true)  Error: Access to undeclared static property C::$nope  bool(false)  array(3) {    ["k2"]=>    array(0) {    }    ["k3"]=>    string(1) "d"    ["e"]=>    int(1)  }
jit: 0,2,2,0,0,"set","set","xy","by-ref",10,"ref",true,false,true,false,"{\"k2\":[\"5x\"],\"k3\":\"d\"}",13,52,"ref"  attributed and plain statics agree  [0,2,2,0,0,2,2,0,true,true,true,true] same [{"x":1,"y":[2,3]},{"x":1,"y":[2,3]},10,10]  array(3) {    [0]=>    string(28) "{"k2":["5x"],"k3":"d","e":1}"    [1]=>    int(53)    [2]=>    string(4) "ref!"  }  TypeError: Cannot increment property D::$i of type int past its maximal value  TypeError: Cannot assign float to property D::$i of type int  array(1) {    ["x"]=>    int(1)  }  bool(true)  Error: Access to undeclared static property C::$nope  bool(false)  array(3) {    ["k2"]=>    array(0) {    }    ["k3"]=>    string(1) "d"    ["e"]=>    int(1)  }
