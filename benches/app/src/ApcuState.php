<?php
/**
 * The APCu variant's state holders: the same two classes as the attribute variant's (State.php), with
 * accessors instead of attributed statics, in a file of their own for the reason VolatileState.php gives.
 */
declare(strict_types=1);

namespace BenchApp\Apcu;

final class RouterState
{
    public static function compiledRoutes(): mixed
    {
        return apcu_fetch('app.routes');
    }

    public static function config(): mixed
    {
        return apcu_fetch('app.config');
    }
}

final class CatalogState
{
    public static function products(): mixed
    {
        return apcu_fetch('app.catalog');
    }
}
