--TEST--
R40b first reads of new versions of many keys interleaved (strings, small arrays, arrays over 4 KiB, objects, enums, getMultiple, PinnedCache, a __wakeup hook that makes first reads of other keys mid-read, a generator and a Fiber suspended between first reads), every result kept alive and compared after all the reads and after every key changed again (spec §4: a fetched value equals the stored snapshot, and is the caller's own copy)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
enum Suit: string { case Hearts = 'h'; case Spades = 's'; }
class Hooked {
    public array $seen = [];
    public function __wakeup(): void {
        // First reads of other keys made while this value is being read.
        $this->seen = [V::get('w1'), V::get('w2'), V::get('w3')];
    }
}
function values(int $round): array {
    $v = [];
    for ($i = 0; $i < 12; $i++) {
        $v["s$i"] = str_repeat(chr(65 + $i), 1 + $i * 7) . "#$round";
        $v["a$i"] = ['i' => $i, 'r' => $round, 'name' => "n$i-$round", 'list' => range($i, $i + $i % 4), 'nested' => ['k' => str_repeat('z', $i)]];
    }
    $v['big'] = ['blob' => str_repeat('B', 5000) . $round, 'tail' => [1, 2, 3]];
    $v['bigstr'] = str_repeat('Q', 6000) . $round;
    $v['obj'] = (object) ['p' => $round, 'q' => [$round]];
    $v['enum'] = [Suit::Hearts, Suit::Spades, 'x' => $round];
    $v['w1'] = "wake1-$round";
    $v['w2'] = ['wake2', $round];
    $v['w3'] = str_repeat('w', 100) . $round;
    return $v;
}
function store(int $round): array {
    $v = values($round);
    foreach ($v as $k => $x) { V::set($k, $x); }
    P::set('pin', ['pinned', $round, str_repeat('p', 50)]);
    return $v;
}
$ok = true;
for ($round = 1; $round <= 3; $round++) {
    $want = store($round);
    $h = new Hooked();
    V::set('hk', $h);
    V::set('w1', "wake1-$round"); V::set('w2', ['wake2', $round]); V::set('w3', str_repeat('w', 100) . $round);
    $kept = [];
    // Interleaved: each key once, in an order that alternates sizes and types.
    $order = ['s0', 'a11', 'big', 's11', 'a0', 'bigstr', 'enum', 's5', 'a5', 'obj', 's3', 'a3', 'hk'];
    foreach ($order as $k) { $kept[$k] = V::get($k); }
    $kept['pin'] = P::get('pin');
    $kept['multi'] = V::getMultiple(['s1', 'a1', 's2', 'a2', 'w1']);
    $gen = (function () { $x = V::get('s7'); yield $x; $y = V::get('a7'); yield $y; })();
    $kept['g1'] = $gen->current();
    $kept['s8'] = V::get('s8');
    $gen->next();
    $kept['g2'] = $gen->current();
    $fiber = new Fiber(function () { $a = V::get('a9'); Fiber::suspend($a); return V::get('s9'); });
    $kept['f1'] = $fiber->start();
    $kept['a8'] = V::get('a8');
    $fiber->resume();
    $kept['f2'] = $fiber->getReturn();
    // Compared after every read of the round, then again after every key changed once more.
    $check = function (string $when) use (&$kept, $want, $round, &$ok) {
        $expect = [];
        foreach (['s0', 'a11', 'big', 's11', 'a0', 'bigstr', 'enum', 's5', 'a5', 's3', 'a3'] as $k) { $expect[$k] = $want[$k]; }
        $bad = [];
        foreach ($expect as $k => $x) { if ($kept[$k] !== $x) { $bad[] = $k; } }
        if ($kept['obj'] != $want['obj']) { $bad[] = 'obj'; }
        if ($kept['hk']->seen !== ["wake1-$round", ['wake2', $round], str_repeat('w', 100) . $round]) { $bad[] = 'hk'; }
        if ($kept['pin'] !== ['pinned', $round, str_repeat('p', 50)]) { $bad[] = 'pin'; }
        if ($kept['multi'] !== ['s1' => $want['s1'], 'a1' => $want['a1'], 's2' => $want['s2'], 'a2' => $want['a2'], 'w1' => "wake1-$round"]) { $bad[] = 'multi'; }
        foreach (['g1' => 's7', 'g2' => 'a7', 'f1' => 'a9', 'f2' => 's9', 's8' => 's8', 'a8' => 'a8'] as $k => $src) {
            if ($kept[$k] !== $want[$src]) { $bad[] = $k; }
        }
        if ($bad) { $ok = false; echo "round $round $when: differ: ", implode(',', $bad), "\n"; }
    };
    $check('after reads');
    store($round + 100);
    foreach (array_keys(values(0)) as $k) { V::get($k); }
    $check('after new versions were read');
    // The kept copies are the caller's own: writing them changes nothing stored.
    $kept['a0']['i'] = 'changed';
    $kept['multi']['a1']['list'][] = 'changed';
    if (V::get('a0')['i'] !== 0 || count(V::get('a1')['list']) !== count(values(0)['a1']['list'])) { $ok = false; echo "round $round: a write to a copy reached the store\n"; }
}
var_dump($ok);
?>
--EXPECT--
bool(true)
