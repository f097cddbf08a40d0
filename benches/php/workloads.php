<?php
/**
 * The workload catalogue of spec §19.2: payload builders and access probes. A probe reads a few parts of
 * a fetched payload (forcing materialisation) and returns a checksum-like value that run() verifies.
 */
declare(strict_types=1);

final class AppMetadata
{
    public array $routes = [];
    public array $services = [];
    public string $version = '1.0';
    public ?AppMetadata $parent = null;
}

final class GraphPayload
{
    public array $rows = [];
    public ?GraphChild $child = null;
}

final class GraphChild
{
    public string $name = 'child';
    public int $depth = 1;
}

final class Model
{
    public function __construct(public int $id, public $createdAt, public $updatedAt, public $publishedAt) {}
}

/** @return array<string, array{build: callable, probe: callable}> */
function workloads(): array
{
    $w = [];
    $w['constant_array'] = [
        'build' => function () {
            $a = [];
            for ($i = 0; $i < 40; $i++) {
                $a["key$i"] = match ($i % 3) { 0 => $i, 1 => $i % 2 === 0, default => "value-$i" };
            }
            $a['list'] = [1, 2, 3, 4, 5, 6, 7, 8];
            return $a;
        },
        'probe' => fn($v) => $v['key0'] + strlen($v['key2']) + $v['list'][7],
    ];
    $w['route_table_read'] = [
        'build' => 'build_route_table',
        'probe' => function ($t) {
            // Match three paths against the compiled static map and build one URL from the generator's
            // tokens, as a compiled router does.
            $n = 0;
            foreach (['/blog/post-1', '/api/v1/item-61', '/shop/cart-121'] as $p) {
                $n += isset($t['matcher'][1][$p]) ? count($t['matcher'][1][$p][0][2] ?? []) : 0;
            }
            $url = '';
            foreach (array_reverse($t['generator']['route_150'][3]) as $tok) {
                $url .= $tok[0] === 'variable' ? $tok[1] . '42' : $tok[1];
            }
            return $n + strlen($url) + count($t['matcher'][2]);
        },
    ];
    $w['large_array'] = [
        'build' => function () {
            $rows = [];
            for ($i = 0; $i < 1000; $i++) {
                $rows[] = ['id' => $i, 'name' => "row-$i", 'meta' => ['a' => $i * 2, 'b' => "x$i", 'c' => ['deep' => $i, 'f' => 1.5, 'g' => true, 'h' => null]], 'k' => $i % 7, 'z' => 'end'];
            }
            return $rows;
        },
        'probe' => fn($v) => count($v) + $v[0]['id'] + $v[500]['meta']['a'] + $v[999]['meta']['c']['deep'],
    ];
    $w['large_string'] = [
        'build' => fn() => str_repeat('0123456789abcdef', 8192),
        'probe' => fn($v) => strlen($v) + strlen(substr($v, 1000, 16)),
    ];
    $w['large_object_graph'] = [
        'build' => function () {
            $g = new GraphPayload();
            for ($i = 0; $i < 1000; $i++) {
                $g->rows[] = ['id' => $i, 'a' => "a$i", 'b' => $i * 3, 'c' => 1.25, 'd' => true, 'e' => null, 'f' => "f", 'g' => $i % 5];
            }
            $g->child = new GraphChild();
            return $g;
        },
        'probe' => fn($v) => count($v->rows) + $v->child->depth,
    ];
    $meta = function () {
        $m = new AppMetadata();
        for ($i = 0; $i < 300; $i++) {
            $m->routes["route_$i"] = ['path' => "/path/$i", 'controller' => "App\\Controller\\C$i::index", 'methods' => ['GET', 'POST']];
            $m->services["service_$i"] = ['class' => "App\\Service\\S$i", 'args' => ["@dep$i", '%param%'], 'shared' => true];
        }
        return $m;
    };
    $w['metadata_object_read'] = [
        'build' => $meta,
        'probe' => fn($v) => strlen($v->routes['route_10']['path']) + count($v->services['service_299']['args']) + strlen($v->routes['route_150']['controller']),
    ];
    $w['metadata_object_fetch_mutate'] = [
        'build' => $meta,
        'probe' => function ($v) {
            $v->version = '2.0';
            $v->routes['new'] = ['path' => '/new'];
            return strlen($v->version) + count($v->routes);
        },
    ];
    $w['safe_direct_object'] = [
        'build' => fn() => [
            new DateTimeImmutable('2026-01-02 03:04:05', new DateTimeZone('Europe/Paris')),
            new DateTimeZone('America/New_York'),
            new DateInterval('P1Y2M3DT4H5M6S'),
        ],
        'probe' => fn($v) => strlen($v[0]->format('c')) + ($v[0] < new DateTimeImmutable('2030-01-01') ? 1 : 0) + $v[2]->y,
    ];
    $w['spl_collection_object'] = [
        'build' => function () {
            $r = range(1, 100);
            $f = SplFixedArray::fromArray($r);
            return [new ArrayObject($r), new ArrayIterator($r), new RecursiveArrayIterator($r), $f];
        },
        'probe' => fn($v) => count($v[0]) + $v[1]->offsetGet(5) + $v[2]->offsetGet(9) + $v[3]->offsetGet(99),
    ];
    $w['spl_linked_collection_object'] = [
        'build' => function () {
            $out = [new SplDoublyLinkedList(), new SplQueue(), new SplStack()];
            foreach ($out as $l) {
                for ($i = 1; $i <= 100; $i++) {
                    $l->push($i);
                }
            }
            return $out;
        },
        'probe' => fn($v) => $v[0]->top() + $v[1]->bottom() + $v[2]->top(),
    ];
    $w['spl_heap_object'] = [
        'build' => function () {
            $min = new SplMinHeap();
            $max = new SplMaxHeap();
            $pq = new SplPriorityQueue();
            for ($i = 1; $i <= 100; $i++) {
                $min->insert($i);
                $max->insert($i);
                $pq->insert("p$i", $i);
            }
            return [$min, $max, $pq];
        },
        'probe' => fn($v) => $v[0]->top() + $v[1]->top() + strlen($v[2]->top()),
    ];
    if (load_carbon()) {
        $w['carbon_datetime_object'] = [
            'build' => function () {
                $base = \Carbon\CarbonImmutable::create(2026, 1, 1, 12, 0, 0, 'UTC');
                $timeline = [];
                for ($i = 0; $i < 64; $i++) {
                    $timeline[] = $base->addDays($i);
                }
                return [$base, \Carbon\Carbon::create(2025, 6, 1, 0, 0, 0, 'Europe/Paris'), new \Carbon\CarbonTimeZone('Asia/Tokyo'), $timeline];
            },
            'probe' => fn($v) => $v[3][0]->lt($v[3][63]) ? 64 : 0,
        ];
        $w['carbon_model_object'] = [
            'build' => function () {
                $models = [];
                for ($i = 0; $i < 32; $i++) {
                    $d = \Carbon\CarbonImmutable::create(2026, 1, 1 + $i % 28, 0, 0, 0, 'UTC');
                    $models[] = new Model($i, $d, $d->addHour(), $d->addDay());
                }
                return $models;
            },
            'probe' => fn($v) => $v[7]->createdAt->lt($v[7]->publishedAt) ? 1 : 0,
        ];
    }
    return $w;
}

function load_carbon(): bool
{
    static $loaded = null;
    if ($loaded === null) {
        // Carbon needs mbstring and Debian's include path (absent from the ZTS build).
        $autoload = getenv('CARBON_AUTOLOAD') ?: '/usr/share/php/Carbon/autoload.php';
        $loaded = extension_loaded('mbstring') && str_contains((string) get_include_path(), '/usr/share/php')
            && is_file($autoload) && (require_once $autoload) !== false && class_exists(\Carbon\CarbonImmutable::class);
    }
    return $loaded;
}

/**
 * A real compiled route table: the 300 routes of benches/app (half static, half with a `{id}` requirement)
 * compiled by Symfony 5.4's CompiledUrlMatcherDumper and CompiledUrlGeneratorDumper (Debian
 * php-symfony-routing).
 */
function build_route_table(): array
{
    require_once __DIR__ . '/../app/src/Data.php';
    $routes = BenchApp\Data::routes();
    return [
        'matcher' => (new Symfony\Component\Routing\Matcher\Dumper\CompiledUrlMatcherDumper($routes))->getCompiledRoutes(),
        'generator' => (new Symfony\Component\Routing\Generator\Dumper\CompiledUrlGeneratorDumper($routes))->getCompiledRoutes(),
    ];
}
