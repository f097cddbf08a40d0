<?php

declare(strict_types=1);

namespace StaticCache\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Support\ServiceProvider;

/**
 * Registers the `static_cache` cache driver. In config/cache.php:
 *
 *     'stores' => [
 *         'static' => [
 *             'driver' => 'static_cache',
 *             'backend' => 'volatile',       // or 'pinned'
 *             'namespace' => 'laravel',      // the KeySpace: flush() deletes only these keys
 *         ],
 *     ],
 *
 * Laravel's key prefix (`prefix`, else `cache.prefix`) comes in front of every key, as for the
 * other drivers.
 */
class StaticCacheServiceProvider extends ServiceProvider
{
    public function boot(): void
    {
        $this->app->make('cache')->extend('static_cache', function ($app, array $config) {
            /** @var CacheManager $this the manager: extend() binds the creator to it */
            return $this->repository(new StaticCacheStore(
                $this->getPrefix($config) ?? '',
                $config['namespace'] ?? 'laravel',
                $config['backend'] ?? 'volatile',
            ));
        });
    }
}
