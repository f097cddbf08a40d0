<?php
/** The caches under test behind one small interface, so every section times the same calls. */
declare(strict_types=1);

interface BenchCache
{
    public function get(string $key): mixed;
    public function getMultiple(array $keys): array;
    public function set(string $key, mixed $value): bool;
    public function clear(): void;
}

final class StaticCacheBackend implements BenchCache
{
    /** @param class-string $class */
    public function __construct(private string $class) {}
    public function get(string $key): mixed { return ($this->class)::get($key); }
    public function getMultiple(array $keys): array { return ($this->class)::getMultiple($keys); }
    public function set(string $key, mixed $value): bool { return ($this->class)::set($key, $value); }
    public function clear(): void { ($this->class)::clear(); }
}

final class ApcuBackend implements BenchCache
{
    public function get(string $key): mixed { $v = apcu_fetch($key, $ok); return $ok ? $v : null; }
    public function getMultiple(array $keys): array { return apcu_fetch($keys); }
    public function set(string $key, mixed $value): bool { return apcu_store($key, $value); }
    public function clear(): void { apcu_clear_cache(); }
}

/**
 * No cache: the value this request built, handed back as is. The FPM sections time the probe alone through it
 * (fetch + probe of every backend pays the probe and this call), so APCu ÷ probe is the highest ratio any cache
 * can show there.
 */
final class LocalBackend implements BenchCache
{
    private array $values = [];
    public function get(string $key): mixed { return $this->values[$key] ?? null; }
    public function getMultiple(array $keys): array { return array_intersect_key($this->values, array_flip($keys)); }
    public function set(string $key, mixed $value): bool { $this->values[$key] = $value; return true; }
    public function clear(): void { $this->values = []; }
}

/**
 * Symfony's PhpFilesAdapter (Debian php-symfony-cache 5.4) as Symfony's system cache makes it
 * (append-only): each value exported to a PHP file that OPcache keeps in shared memory, objects rebuilt
 * through VarExporter on every fetch. Needs OPcache. PSR-6 keys cannot hold ':', hence the mapping.
 */
final class PhpFilesBackend implements BenchCache
{
    public Symfony\Component\Cache\Adapter\PhpFilesAdapter $pool;

    public function __construct(string $dir)
    {
        $this->pool = new Symfony\Component\Cache\Adapter\PhpFilesAdapter('bench', 0, $dir, true);
    }
    public function get(string $key): mixed { $item = $this->pool->getItem(strtr($key, ':', '.')); return $item->isHit() ? $item->get() : null; }
    public function getMultiple(array $keys): array
    {
        $out = [];
        foreach ($this->pool->getItems(array_map(fn($k) => strtr($k, ':', '.'), $keys)) as $item) {
            if ($item->isHit()) {
                $out[strtr($item->getKey(), '.', ':')] = $item->get();
            }
        }
        return $out;
    }
    public function set(string $key, mixed $value): bool { return $this->pool->save($this->pool->getItem(strtr($key, ':', '.'))->set($value)); }
    public function clear(): void { $this->pool->clear(); }

    /** The directory: BENCH_PHPFILES_DIR (FPM), else a directory of this process removed at its exit. */
    public static function open(): ?self
    {
        $autoload = getenv('SYMFONY_CACHE_AUTOLOAD') ?: '/usr/share/php/Symfony/Component/Cache/autoload.php';
        if (!is_file($autoload)) {
            return null;
        }
        require_once $autoload;
        if (!Symfony\Component\Cache\Adapter\PhpFilesAdapter::isSupported()) {
            return null;
        }
        $dir = $_SERVER['BENCH_PHPFILES_DIR'] ?? '';
        if ($dir === '') {
            $dir = sys_get_temp_dir() . '/static_cache-bench-phpfiles-' . getmypid();
            register_shutdown_function(fn() => exec('rm -rf ' . escapeshellarg($dir)));
        }
        return new self($dir);
    }
}

function backend(string $name): ?BenchCache
{
    return match ($name) {
        'volatile' => class_exists('OPcache\VolatileCache', false) && OPcache\VolatileCache::info()->available
            ? new StaticCacheBackend('OPcache\VolatileCache') : null,
        'pinned' => class_exists('OPcache\PinnedCache', false) && OPcache\PinnedCache::info()->available
            ? new StaticCacheBackend('OPcache\PinnedCache') : null,
        'apcu' => function_exists('apcu_enabled') && apcu_enabled() ? new ApcuBackend() : null,
        'phpfiles' => PhpFilesBackend::open(),
        'probe' => new LocalBackend(),
        default => null,
    };
}
