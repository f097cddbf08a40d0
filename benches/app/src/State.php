<?php
/**
 * The attribute variant's state: the compiled routes and the config are pinned statics (read-only shared
 * state, published once), the catalog a volatile static. Kept in a file of its own, required by
 * `DataSource::fetch()`: its classes are linked and registered during that `require_once` (deferred mode
 * restores them there; exact mode at the first read of each class's statics, which follows it), so all
 * of the restore falls inside the timed region. The other variants load the same two classes with
 * accessors (VolatileState.php, ApcuState.php) at the same point.
 */
declare(strict_types=1);

namespace BenchApp;

use OPcache\PinnedStatic;
use OPcache\VolatileStatic;

final class RouterState
{
    #[PinnedStatic]
    public static array $compiledRoutes = [];

    #[PinnedStatic]
    public static array $config = [];
}

final class CatalogState
{
    /** @var list<Product> */
    #[VolatileStatic]
    public static array $products = [];
}
