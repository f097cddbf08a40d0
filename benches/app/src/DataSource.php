<?php
/**
 * Where a variant of the application gets its routes, config and catalog from: APCu, VolatileCache::get,
 * Symfony's PhpFilesAdapter (the system cache of Symfony applications), attributed statics, or nothing
 * (built on every request). `fetch()` is the per-request cache work the benchmarks time; it returns null
 * on a miss, which the benchmarks report as an error once the data is primed. Each caching variant
 * loads its state holder classes there (State.php, VolatileState.php, ApcuState.php; PhpFilesAdapter's
 * autoloader), as an application autoloads them at the first read of its state: the attribute variant
 * restores at that load (deferred mode) or at the first read that follows (exact mode), so the load
 * belongs in the timed work of every variant, not of the attribute variant alone.
 */
declare(strict_types=1);

namespace BenchApp;

use Symfony\Component\Cache\Adapter\PhpFilesAdapter;

final class DataSource
{
    public const VARIANTS = ['apcu', 'volatile', 'phpfiles', 'attributes', 'nocache'];
    private const KEYS = ['app.routes', 'app.config', 'app.catalog'];

    /** @return array{0: array, 1: array, 2: list<Product>}|null */
    public static function fetch(string $variant): ?array
    {
        switch ($variant) {
            case 'apcu':
                require_once __DIR__ . '/ApcuState.php';
                $v = [Apcu\RouterState::compiledRoutes(), Apcu\RouterState::config(), Apcu\CatalogState::products()];
                return in_array(false, $v, true) ? null : $v;
            case 'volatile':
                require_once __DIR__ . '/VolatileState.php';
                $v = [Volatile\RouterState::compiledRoutes(), Volatile\RouterState::config(),
                    Volatile\CatalogState::products()];
                return in_array(null, $v, true) ? null : $v;
            case 'phpfiles':
                $pool = self::phpFiles();
                $v = [];
                foreach (self::KEYS as $key) {
                    $item = $pool->getItem($key);
                    if (!$item->isHit()) {
                        return null;
                    }
                    $v[] = $item->get();
                }
                return $v;
            case 'attributes':
                require_once __DIR__ . '/State.php';
                $v = [RouterState::$compiledRoutes, RouterState::$config, CatalogState::$products];
                return in_array([], $v, true) ? null : $v;
            case 'nocache':
                return self::build();
        }
        throw new \InvalidArgumentException("unknown variant $variant");
    }

    /** Stores freshly built data where `fetch()` looks (for attributes: assigns the statics). */
    public static function prime(string $variant): void
    {
        [$routes, $config, $catalog] = self::build();
        $ok = true;
        switch ($variant) {
            case 'apcu':
                $ok = apcu_store('app.routes', $routes) && apcu_store('app.config', $config) && apcu_store('app.catalog', $catalog);
                break;
            case 'volatile':
                $ok = \OPcache\VolatileCache::set('app.routes', $routes) && \OPcache\VolatileCache::set('app.config', $config)
                    && \OPcache\VolatileCache::set('app.catalog', $catalog);
                break;
            case 'phpfiles':
                $pool = self::phpFiles();
                foreach (array_combine(self::KEYS, [$routes, $config, $catalog]) as $key => $value) {
                    $ok = $pool->save($pool->getItem($key)->set($value)) && $ok;
                }
                break;
            case 'attributes':
                require_once __DIR__ . '/State.php';
                if (RouterState::$compiledRoutes === []) {
                    RouterState::$compiledRoutes = $routes;
                    RouterState::$config = $config;
                }
                CatalogState::$products = $catalog;
                break;
        }
        if (!$ok) {
            throw new \RuntimeException("priming $variant failed");
        }
    }

    /** @return array{0: array, 1: array, 2: list<Product>} */
    public static function build(): array
    {
        return [Data::compiledRoutes(), Data::config(), Data::catalog()];
    }

    /**
     * Symfony's system cache as `AbstractAdapter::createSystemCache()` makes it: append-only PHP files
     * that OPcache keeps in shared memory. The directory comes from BENCH_PHPFILES_DIR.
     */
    public static function phpFiles(): PhpFilesAdapter
    {
        require_once getenv('SYMFONY_CACHE_AUTOLOAD') ?: '/usr/share/php/Symfony/Component/Cache/autoload.php';
        $dir = $_SERVER['BENCH_PHPFILES_DIR'] ?? getenv('BENCH_PHPFILES_DIR');
        if (!is_string($dir) || $dir === '') {
            throw new \RuntimeException('BENCH_PHPFILES_DIR is not set');
        }
        return new PhpFilesAdapter('app', 0, $dir, true);
    }
}
