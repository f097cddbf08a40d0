--TEST--
V05 `new` in a static variable initialiser (PHP 8.1+, a constant expression before 8.3 and a run-time one from 8.3) and readonly objects: a PinnedStatic method static restored from the cache keeps the stored object and never re-runs `new`; readonly properties stay readonly after restore (exact and deferred modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class Config {
    public static int $made = 0;
    public function __construct(public readonly string $name = 'default', public readonly array $list = []) { self::$made++; }
    public function with(string $item): static { return new static($this->name, [...$this->list, $item]); }
}
class Registry {
    #[OPcache\PinnedStatic] public static function config(?string $add = null): Config {
        static $config = new Config('app');
        if ($add !== null) { $config = $config->with($add); }
        return $config;
    }
}
PHP, [
    'R1,R2,R3' => <<<'PHP'
    $c = Registry::config(); echo Config::$made, ' ', $c->name, ' ', implode(',', $c->list);
    try { $c->name = 'x'; } catch (Error $e) { echo ' | ', $e->getMessage(); }
    Registry::config('r' . (count($c->list) + 1));
    PHP,
], ['modes' => ['exact', 'deferred']]);
?>
--EXPECT--
exact R1: 1 app  | Cannot modify readonly property Config::$name
exact R2: 0 app r1 | Cannot modify readonly property Config::$name
exact R3: 0 app r1,r2 | Cannot modify readonly property Config::$name
deferred R1: 1 app  | Cannot modify readonly property Config::$name
deferred R2: 0 app r1 | Cannot modify readonly property Config::$name
deferred R3: 0 app r1,r2 | Cannot modify readonly property Config::$name
