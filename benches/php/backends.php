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
 * No cache either: the value this request built, handed back as a copy made by PHP's own `clone` of its
 * objects (the value itself, or each element of a list of objects). For a value whose objects hold no
 * objects (see `clone_gap()`) that copy is as independent as a cache's: the engine's own object copy,
 * which a cache handing out independent copies can match but hardly beat by much.
 */
final class CloneBackend implements BenchCache
{
    private array $values = [];
    public function get(string $key): mixed
    {
        $value = $this->values[$key] ?? null;
        if (is_object($value)) {
            return clone $value;
        }
        foreach ($value ?? [] as $k => $element) {
            $value[$k] = clone $element;
        }
        return $value;
    }
    public function getMultiple(array $keys): array
    {
        $out = [];
        foreach (array_intersect_key($this->values, array_flip($keys)) as $key => $_) {
            $out[$key] = $this->get($key);
        }
        return $out;
    }
    public function set(string $key, mixed $value): bool { $this->values[$key] = $value; return true; }
    public function clear(): void { $this->values = []; }
}

/**
 * Why CloneBackend's copy of `$value` is not an independent copy (null when it is): the value must be an
 * object or a list of objects, and no object may hold an object, in a property or in its internal state,
 * or run userland code when cloned.
 */
function clone_gap(mixed $value): ?string
{
    $objects = is_object($value) ? [$value] : (is_array($value) && array_is_list($value) ? $value : null);
    if ($objects === null || $objects === [] || array_filter($objects, fn($o) => !is_object($o)) !== []) {
        return 'the value is not an object or a list of objects';
    }
    $holds = function (array $values) use (&$holds): bool {
        foreach ($values as $v) {
            if (is_object($v) || (is_array($v) && $holds($v))) {
                return true;
            }
        }
        return false;
    };
    foreach ($objects as $o) {
        if (method_exists($o, '__clone')) {
            return get_class($o) . ' has a __clone() method';
        }
        // (array) shows declared and dynamic properties, and the state SPL and date classes expose; an
        // iterator's elements are read from a copy (iterating a heap empties it).
        if ($holds((array) $o) || ($o instanceof Traversable && $holds(iterator_to_array(clone $o, false)))) {
            return get_class($o) . ' holds an object: clone would share it';
        }
    }
    return null;
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
        'clone' => new CloneBackend(),
        default => null,
    };
}
