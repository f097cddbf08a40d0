<?php
// Runs after the request threads have exited. Memory first, before this script's own cache calls:
//   rss_kb          the process's RSS;
//   malloc_in_use   bytes of live malloc allocations (every arena; the extension's Rust memory and PHP's
//                   persistent memory are malloc's, the request threads' ZendMM heaps were unmapped at
//                   their exit): what a leak per timed-out request would grow;
//   malloc_held     what malloc has from the system: in_use plus free memory it keeps (a thread arena
//                   keeps freed pages below a live chunk: RSS, not a leak);
//   rss_trimmed_kb  RSS once malloc_trim(0) has returned that free memory.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
final class TH { public array $d; public function __construct() { $this->d = range(1, 50); }
  public function __serialize(): array { return ['d' => $this->d]; } public function __unserialize(array $a): void { $this->d = $a['d']; } }
$rss = function (): int { preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m); return (int) $m[1]; };
$rss_kb = $rss();
$malloc = static_cache_host_malloc();
static_cache_host_malloc(true);
$rss_trimmed_kb = $rss();
$locks = true;
for ($t = 0; $t < 8; $t++) { $locks = $locks && V::lock("tl$t", 1) && V::lock("held$t", 1); }
$v = V::get('shared');
echo json_encode(['started' => P::get('started'), 'bad' => P::get('bad') ?? 0, 'lock_refused' => P::get('lock_refused') ?? 0,
  'iterations' => P::get('iterations'), 'locks_free' => $locks, 'shared_ok' => $v === null || count($v->d) === 50,
  'set_ok' => V::set('after', new TH()) && V::get('after') instanceof TH,
  'killed' => ['serialize' => P::get('killed_serialize') ?? 0, 'unserialize' => P::get('killed_unserialize') ?? 0,
      'elsewhere' => P::get('killed_elsewhere') ?? 0],
  'rss_kb' => $rss_kb, 'malloc_in_use' => $malloc['in_use'], 'malloc_held' => $malloc['held'], 'rss_trimmed_kb' => $rss_trimmed_kb]), "\n";
