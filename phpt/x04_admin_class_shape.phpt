--TEST--
X4 StaticCache\Admin: final, outside the OPcache namespace, private constructor, static methods with the stub's signatures
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
$class = new ReflectionClass(StaticCache\Admin::class);
var_dump($class->isFinal(), $class->isInternal(), $class->getExtensionName());
t(fn() => new StaticCache\Admin());
foreach ($class->getMethods(ReflectionMethod::IS_STATIC) as $m) {
    $params = array_map(fn($p) => $p->getType() . ' $' . $p->getName() . ($p->isOptional() ? ' = ' . var_export($p->getDefaultValue(), true) : ''), $m->getParameters());
    echo $m->getName(), '(', implode(', ', $params), '): ', $m->getReturnType(), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
string(12) "static_cache"
Error: Call to private StaticCache\Admin::__construct() from global scope
scan(string $backend, string $prefix = '', int $cursor = 0, int $limit = 100): array|false
entry(string $backend, string $key): array|false|null
deletePrefix(string $backend, string $prefix): int|false
memory(string $backend): array|false
