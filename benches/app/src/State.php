<?php
/**
 * The attribute variant's state: the compiled routes and the config are pinned statics (read-only shared
 * state, published once), the catalog a volatile static. Kept in a file of its own so that the time of
 * `require` (the class is linked there: deferred mode restores at link) falls inside the timed region.
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
