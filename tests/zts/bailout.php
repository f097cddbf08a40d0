<?php
// One request of a reload generation whose odd requests end in a fatal error inside a fetch's restore
// hook (tests/zts/run, bailout check): each request stores a new version of a 2,000-object value, then
// fetches it. A fetch that let the bailout longjmp past its frames kept the local copy of that version
// (and its request memo) for the life of the process; the even requests check that the cache works.
class BailoutNode
{
    public int $i = 0;
    public string $s = '';
}
class BailoutHook
{
    public bool $fatal = false;

    public function __wakeup(): void
    {
        if ($this->fatal) {
            trigger_error('fatal error in a restore hook', E_USER_ERROR);
        }
    }
}
[$thread, $request] = static_cache_host_request();
$value = [];
for ($i = 0; $i < 2000; $i++) {
    $node = new BailoutNode();
    $node->i = $i;
    $node->s = "$thread:$request:$i";
    $value[] = $node;
}
$hook = new BailoutHook();
$hook->fatal = $request % 2 === 1;
$value[] = $hook;
OPcache\VolatileCache::set("bailout:$thread", $value);
$got = OPcache\VolatileCache::get("bailout:$thread");
if (count($got) === 2001 && $got[1999]->s === "$thread:$request:1999") {
    OPcache\PinnedCache::increment('requests');
}
