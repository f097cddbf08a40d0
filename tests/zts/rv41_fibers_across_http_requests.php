<?php
// Review rv41, worker mode: in every third HTTP request of a worker, eight Fibers are left suspended in
// the middle of the extension's calls (get() and PinnedCache::get() in __wakeup/__unserialize,
// getMultiple(), set(), setMultiple() and PinnedCache::set() in __serialize) when the HTTP request ends
// (its lookup cache, prototypes and reservations are reset there, §14.4); the next HTTP request fetches
// everything anew, then resumes them: each finishes with the value stored whole, and the stores land.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
class FS { public $v = 1; public $arr = [1, 2, 3]; public $s;
  function __wakeup() { if (Fiber::getCurrent() && ($GLOBALS['suspend'] ?? false)) { Fiber::suspend('wakeup'); } } }
class FU { public $v = 2; public $s;
  function __serialize(): array { if (Fiber::getCurrent() && ($GLOBALS['suspend'] ?? false)) { Fiber::suspend('serialize'); } return ['v' => $this->v, 's' => $this->s]; }
  function __unserialize(array $d): void { if (Fiber::getCurrent() && ($GLOBALS['suspend'] ?? false)) { Fiber::suspend('unserialize'); } $this->v = $d['v']; $this->s = $d['s']; } }
function fs() { $o = new FS; $o->s = str_repeat('s', 200); return $o; }
function fu() { $o = new FU; $o->s = str_repeat('u', 200); return $o; }
$fibers = [];
$n = 0;
$bad = 0;
$log = [];
$ok = function ($v, string $what) use (&$bad, &$log) {
  $good = match ($what) {
    'fs' => $v instanceof FS && $v->v === 1 && $v->arr === [1, 2, 3] && $v->s === str_repeat('s', 200),
    'fu' => $v instanceof FU && $v->v === 2 && $v->s === str_repeat('u', 200),
    'arr' => is_array($v) && count($v) === 4 && $v[0] instanceof FS && $v[1] instanceof FU && $v['r'] === range(1, 30) && $v[2] === $v[0],
    'multi' => is_array($v) && ($v['ka'][0] ?? null) instanceof FS && ($v['kf'] ?? null) instanceof FS && ($v['ku'] ?? null) instanceof FU,
    'true' => $v === true,
  };
  if (!$good) { $bad++; $log[] = $what . ':' . substr(var_export($v, true), 0, 200); }
};
$all = function () use ($ok) {
  $ok(V::get('kf'), 'fs'); $ok(V::get('ku'), 'fu'); $ok(V::get('ka'), 'arr'); $ok(V::getMultiple(['ka', 'kf', 'ku']), 'multi'); $ok(P::get('pa'), 'arr');
};
while (static_cache_host_handle_request(function () use (&$fibers, &$n, $ok, $all) {
  $n++;
  if ($n % 3 === 1) {
    $GLOBALS['suspend'] = false;
    $a = fs(); $arr = [$a, fu(), $a, 'r' => range(1, 30)];
    V::set('kf', fs()); V::set('ku', fu()); V::set('ka', $arr); P::set('pa', $arr);
    $GLOBALS['suspend'] = true;
    // Fibers left suspended inside the extension's calls at this HTTP request's end.
    foreach ([
      ['get', fn() => V::get('kf')], ['get', fn() => V::get('ku')], ['arr', fn() => V::get('ka')], ['arr', fn() => P::get('pa')],
      ['multi', fn() => V::getMultiple(['ka', 'kf', 'ku'])],
      ['true', fn() => V::set('kn', fu())], ['true', fn() => V::setMultiple(['k1' => 1, 'kn2' => fu()])], ['true', fn() => P::set('pn', fu())],
    ] as [$what, $fn]) {
      $f = new Fiber($fn); $f->start(); $fibers[] = [$what, $f, $fn]; if (!$f->isTerminated()) P::increment('suspended');
    }
    V::lock('kn');
  } elseif ($n % 3 === 2) {
    // The next HTTP request: fetch everything anew, then resume the fibers inside the previous request's calls.
    $GLOBALS['suspend'] = false;
    $all();
    foreach ($fibers as [$what, $f]) {
      while (!$f->isTerminated()) { $f->resume(); }
      $r = $f->getReturn();
      $ok($r, match ($what) { 'get' => $r instanceof FU ? 'fu' : 'fs', default => $what });
    }
    $fibers = [];
    $all();
    $ok(V::get('kn'), 'fu'); $ok(V::get('kn2'), 'fu'); $ok(P::get('pn'), 'fu');
  } else {
    $GLOBALS['suspend'] = false;
    $all();
  }
})) {}
P::increment('bad', $bad);
P::increment('requests', $n);
if ($log) { fwrite(STDERR, implode("\n", array_slice($log, 0, 5)) . "\n"); }
