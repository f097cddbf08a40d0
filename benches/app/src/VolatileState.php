<?php
/**
 * The `VolatileCache::get()` variant's state holders: the same two classes as the attribute variant's
 * (State.php), with accessors instead of attributed statics. Kept in a file of its own, required where
 * the state is first read, as State.php is: an application loads (autoloads) its state holder class in
 * either design, so the benchmarks time that load for both.
 */
declare(strict_types=1);

namespace BenchApp\Volatile;

use OPcache\VolatileCache;

final class RouterState
{
    public static function compiledRoutes(): mixed
    {
        return VolatileCache::get('app.routes');
    }

    public static function config(): mixed
    {
        return VolatileCache::get('app.config');
    }
}

final class CatalogState
{
    public static function products(): mixed
    {
        return VolatileCache::get('app.catalog');
    }
}
