<?php
/**
 * The data of the Symfony-shaped benchmark application: a compiled table of 300 routes (Symfony 5.4's
 * CompiledUrlMatcherDumper, Debian php-symfony-routing), a framework-like config array and a catalog of
 * 200 product objects, each with a DateTimeImmutable and array properties. Everything is deterministic,
 * so every variant renders byte-identical pages.
 */
declare(strict_types=1);

namespace BenchApp;

use Symfony\Component\Routing\Matcher\Dumper\CompiledUrlMatcherDumper;
use Symfony\Component\Routing\Route;
use Symfony\Component\Routing\RouteCollection;

final class Product
{
    /**
     * @param list<string>         $tags
     * @param array<string, mixed> $attributes
     */
    public function __construct(
        public int $id,
        public string $name,
        public string $sku,
        public int $priceCents,
        public \DateTimeImmutable $createdAt,
        public array $tags,
        public array $attributes,
    ) {
    }
}

final class Data
{
    public const PRODUCTS = 200;

    public static function loadRouting(): void
    {
        require_once getenv('SYMFONY_ROUTING_AUTOLOAD') ?: '/usr/share/php/Symfony/Component/Routing/autoload.php';
    }

    /**
     * 300 routes under five prefixes: half static (GET/HEAD), half with an `{id}` requirement (GET).
     * The same table is the `route_table_read` workload of benches/run.
     */
    public static function routes(): RouteCollection
    {
        self::loadRouting();
        $routes = new RouteCollection();
        foreach (['blog' => 'post', 'api/v1' => 'item', 'shop' => 'cart', 'docs' => 'page', 'admin' => 'user'] as $prefix => $thing) {
            for ($j = 0; $j < 60; $j++) {
                $i = count($routes);
                $defaults = ['_controller' => "App\\Controller\\{$thing}Controller::show"];
                $routes->add("route_$i", $j % 2
                    ? new Route("/$prefix/$thing-$i", $defaults, [], [], '', [], ['GET', 'HEAD'])
                    : new Route("/$prefix/$thing-$i/{id}", $defaults, ['id' => '\d+'], [], '', [], ['GET']));
            }
        }
        return $routes;
    }

    /** The matcher's compiled data, as a compiled Symfony container keeps it. */
    public static function compiledRoutes(): array
    {
        $routes = self::routes();
        return (new CompiledUrlMatcherDumper($routes))->getCompiledRoutes();
    }

    /** One request path per route (dynamic routes get an id), in route order. */
    public static function paths(): array
    {
        $paths = [];
        foreach (self::routes() as $name => $route) {
            $paths[] = str_replace('{id}', (string) (crc32($name) % 97 + 1), $route->getPath());
        }
        return $paths;
    }

    public static function config(): array
    {
        $features = [];
        for ($i = 0; $i < 40; $i++) {
            $features["feature_$i"] = $i % 3 !== 0;
        }
        $parameters = [];
        for ($i = 0; $i < 40; $i++) {
            $parameters["app.param_$i"] = $i % 2 ? "value-$i" : $i * 10;
        }
        return [
            'app' => ['name' => 'Bench Shop', 'locale' => 'en', 'currency' => 'EUR', 'per_page' => 10, 'timezone' => 'UTC'],
            'framework' => ['secret' => 'not-a-secret', 'router' => ['strict_requirements' => null, 'utf8' => true],
                'session' => ['handler_id' => null, 'cookie_secure' => 'auto'], 'http_cache' => ['enabled' => false]],
            'database' => ['url' => 'mysql://app@127.0.0.1:3306/app', 'pool' => ['min' => 1, 'max' => 8], 'charset' => 'utf8mb4'],
            'mailer' => ['dsn' => 'null://null', 'from' => 'shop@example.org'],
            'features' => $features,
            'parameters' => $parameters,
        ];
    }

    /** @return list<Product> */
    public static function catalog(): array
    {
        $base = new \DateTimeImmutable('2024-01-01 00:00:00', new \DateTimeZone('UTC'));
        $colors = ['red', 'green', 'blue', 'black', 'white'];
        $products = [];
        for ($i = 0; $i < self::PRODUCTS; $i++) {
            $products[] = new Product(
                $i,
                "Product $i",
                sprintf('SKU-%05d', $i * 7),
                999 + ($i * 37) % 10000,
                $base->modify('+' . ($i * 5) . ' hours'),
                ['tag' . $i % 7, 'tag' . $i % 11, $i % 2 ? 'sale' : 'new'],
                ['color' => $colors[$i % 5], 'size' => ['S', 'M', 'L'][$i % 3], 'weight_g' => 100 + $i,
                    'dimensions' => [10 + $i % 4, 20 + $i % 5, 5]],
            );
        }
        return $products;
    }

    /** Reads a few parts of each value; equal values give equal checksums. */
    public static function checksum(array $routes, array $config, array $products): string
    {
        $p = $products[self::PRODUCTS - 1];
        return implode(':', [count($routes[1]), count($routes[2]), count($routes[3]), $config['app']['per_page'],
            count($config['features']), count($products), $p->createdAt->format('c'), $p->attributes['dimensions'][1],
            $products[0]->tags[2]]);
    }
}
