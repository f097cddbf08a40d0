<?php
// Classes of the worker-mode re-base check (tests/zts/worker_rebase.php, report_rebase.php).
use OPcache\PinnedCache as P;

// Not recordable (an internal class's state): the end of an HTTP request re-reads the stored value to
// re-base on it, which runs this hook.
class RebaseBag extends ArrayObject
{
    public function __unserialize(array $data): void
    {
        if (P::get('rebase_fail')) {
            trigger_error('fatal error in a restore hook', E_USER_ERROR);
        }
        parent::__unserialize($data);
    }
}

class RebaseNode
{
    public int $v = 0;
    public ?RebaseBag $bag = null;
}

class RebaseHolder
{
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)]
    public static ?RebaseNode $node = null;
}
