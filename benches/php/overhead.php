<?php
/**
 * CPU micro-benchmark for the "no attributed class" hot path (spec §16.5): how much slower ordinary PHP
 * code gets when static_cache is loaded. Self-written kernels in the spirit of Zend/bench.php (calls,
 * loops, strings, arrays, objects), plus static-property kernels on classes WITHOUT attributes, because
 * in exact mode the extension's user opcode handlers run for every static-property opcode.
 * Nothing here touches the cache API or an attribute.
 *
 *   php overhead.php [SCALE [KERNEL]]   SCALE multiplies every kernel's size (default 1; ~1.5 s without
 *                                       JIT); KERNEL runs that kernel only, `none` runs none (the cost of
 *                                       everything else, for instruction counts), `list` prints the names
 *
 * Output: one JSON line per kernel, {"name":..., "ns":..., "check":...}; ns is wall time of the timed
 * call (hrtime), check is the kernel's result (keeps the work observable). benches/overhead runs this
 * under several configurations and compares.
 */
declare(strict_types=1);

function fib(int $n): int
{
    return $n < 2 ? $n : fib($n - 1) + fib($n - 2);
}

function ack(int $m, int $n): int
{
    if ($m === 0) {
        return $n + 1;
    }
    return ack($m - 1, $n === 0 ? 1 : ack($m, $n - 1));
}

function repeat(int $n, Closure $f): int
{
    $s = 0;
    for ($i = 0; $i < $n; $i++) {
        $s += $f();
    }
    return $s;
}

final class Point
{
    public int $x = 0;
    public int $y = 0;

    public function move(int $dx, int $dy): void
    {
        $this->x += $dx;
        $this->y += $dy;
    }

    public function sum(): int
    {
        return $this->x + $this->y;
    }
}

final class Calc
{
    public static function mix(int $a, int $b): int
    {
        return ($a * 31 + $b) & 0xFFFFF;
    }
}

/** Static properties on a plain class: every access below is a *_STATIC_PROP opcode. */
class Counter
{
    public static int $n = 0;
    public static int $m = 0;
    public static $x = null;
    public static array $list = [];
    public static array $map = [];
    public static $ref = null;

    public static function scalar(int $n): int
    {
        self::$n = 0;
        static::$m = $n;
        for ($i = 0; $i < $n; $i++) {
            $a = self::$n++;            // POST_INC_STATIC_PROP (result used, so the optimizer keeps it)
            ++self::$n;                 // PRE_INC_STATIC_PROP
            $b = static::$m--;          // POST_DEC_STATIC_PROP (late static binding)
            --self::$n;                 // PRE_DEC_STATIC_PROP
            self::$n += 3;              // ASSIGN_STATIC_PROP_OP
            self::$x = $i;              // ASSIGN_STATIC_PROP
            $v = self::$x + self::$n + ($a ^ $b); // FETCH_STATIC_PROP_R x2
            if (isset(self::$x) && !empty(static::$m)) { // ISSET_ISEMPTY_STATIC_PROP x2
                self::$n -= $v & 1;
            }
        }
        return self::$n + static::$m;
    }

    public static function arrays(int $n): int
    {
        $sum = 0;
        for ($i = 0; $i < $n; $i++) {
            if (($i & 1023) === 0) {
                static::$list = [];     // ASSIGN_STATIC_PROP
            }
            static::$list[] = $i;       // FETCH_STATIC_PROP_W + ASSIGN_DIM
            self::$map[$i & 255] = $i;  // FETCH_STATIC_PROP_W + ASSIGN_DIM
            $sum += self::$map[($i * 7) & 255] ?? 0; // FETCH_STATIC_PROP_IS
            $sum += self::$list[($i & 1023) >> 1] ?? 0;
            self::$map[$i & 255] += 1;  // FETCH_STATIC_PROP_RW + ASSIGN_DIM_OP
            unset(self::$map[($i + 128) & 255]); // FETCH_STATIC_PROP_UNSET
        }
        return $sum + count(self::$list);
    }
}

function static_from_outside(int $n): int
{
    $local = 0;
    $f = 'intdiv';
    $s = 0;
    for ($i = 0; $i < $n; $i++) {
        Counter::$x = $i;                   // ASSIGN_STATIC_PROP, class named from outside
        Counter::$n = Counter::$x * 2;
        Counter::$ref = &$local;            // ASSIGN_STATIC_PROP_REF
        $local++;
        $r = &Counter::$m;                  // FETCH_STATIC_PROP_W (reference)
        $r = $i;
        unset($r);
        $s += $f(Counter::$n, 3);           // FETCH_STATIC_PROP_FUNC_ARG (dynamic callee)
    }
    return $s + $local;
}

function arith_loop(int $n): int
{
    $x = 1;
    $f = 0.0;
    for ($i = 1; $i <= $n; $i++) {
        $x = ($x * 31 + $i) % 1000003;
        $f += $i * 0.5 / ($i + 1);
    }
    return $x + (int) $f;
}

function nested_loops(int $n): int
{
    $x = 0;
    for ($r = 0; $r < $n; $r++) {
        for ($a = 0; $a < 40; $a++) {
            for ($b = 0; $b < 40; $b++) {
                for ($c = 0; $c < 40; $c++) {
                    $x += $a ^ $b ^ $c ^ $r;
                }
            }
        }
    }
    return $x;
}

function string_build(int $n): int
{
    $len = 0;
    $s = '';
    for ($i = 0; $i < $n; $i++) {
        $s .= 'k' . $i . ',';
        if (($i & 4095) === 4095) {
            $len += strlen($s) + strlen(str_replace(',', ';', substr($s, 0, 64)));
            $s = '';
        }
    }
    return $len + strlen($s);
}

function array_fill_sum(int $n): int
{
    $a = [];
    for ($i = 0; $i < $n; $i++) {
        $a[] = $i;
    }
    $h = [];
    foreach ($a as $i => $v) {
        $h['k' . ($i & 8191)] = $v;
    }
    $sum = 0;
    foreach ($a as $v) {
        $sum += $v;
    }
    foreach ($h as $v) {
        $sum -= $v;
    }
    return $sum + count($h);
}

function method_calls(int $n): int
{
    $p = new Point();
    $s = 0;
    for ($i = 0; $i < $n; $i++) {
        $p->move(1, $i & 3);
        $s += $p->sum() & 7;
    }
    return $s;
}

function static_method_calls(int $n): int
{
    $x = 0;
    for ($i = 0; $i < $n; $i++) {
        $x = Calc::mix($x, $i);
    }
    return $x;
}

function internal_calls(int $n): int
{
    $s = 0;
    for ($i = 0; $i < $n; $i++) {
        $s += abs($i - 500) + max($i & 15, 7) + intdiv($i, 3) + min($s & 3, 2);
    }
    return $s;
}

function closure_calls(int $n): int
{
    $k = 3;
    $f = static fn (int $v): int => ($v + $k) & 0xFFFF;
    $x = 0;
    for ($i = 0; $i < $n; $i++) {
        $x = $f($x + $i);
    }
    return $x;
}

$scale = (float) ($argv[1] ?? 1);
$only = $argv[2] ?? null;
$kernels = [                                      // sizes give ~1.5 s in total without JIT
    'fib'                 => [fn (int $n) => repeat($n, fn () => fib(20)), 200],
    'ackermann'           => [fn (int $n) => repeat($n, fn () => ack(2, 250)), 25],
    'arith_loop'          => [arith_loop(...), 4_000_000],
    'nested_loops'        => [nested_loops(...), 120],
    'string_build'        => [string_build(...), 1_500_000],
    'array_fill_sum'      => [array_fill_sum(...), 1_400_000],
    'method_calls'        => [method_calls(...), 1_600_000],
    'static_method_calls' => [static_method_calls(...), 4_000_000],
    'internal_calls'      => [internal_calls(...), 1_500_000],
    'closure_calls'       => [closure_calls(...), 2_500_000],
    'static_prop_scalar'  => [Counter::scalar(...), 800_000],
    'static_prop_array'   => [Counter::arrays(...), 600_000],
    'static_prop_outside' => [static_from_outside(...), 1_000_000],
];
if ($only === 'list') {
    echo implode("\n", array_keys($kernels)), "\n";
    exit;
}
foreach ($kernels as $name => [$fn, $size]) {
    if ($only !== null && $only !== $name) {
        continue;
    }
    $n = (int) max(1, $size * $scale);    // work is linear in $n for every kernel
    $fn(max(1, intdiv($n, 20)));          // warm-up: first-call caches, JIT hot counters
    $t = hrtime(true);
    $check = $fn($n);
    $ns = hrtime(true) - $t;
    echo json_encode(['name' => $name, 'ns' => $ns, 'check' => $check]), "\n";
}
