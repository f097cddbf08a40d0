<?php

/**
 * PHPUnit bootstrap: the package's own autoloader, then either Composer's (vendor/, when the
 * package's dev dependencies were installed with Composer) or Debian's packaged libraries under
 * /usr/share/php (php-cache-integration-tests, php-psr-*, php-symfony-*, php-laravel-framework).
 */

require dirname(__DIR__) . '/autoload.php';

if (!extension_loaded('static_cache')) {
    fwrite(STDERR, "static_cache is not loaded: run phpunit with -d extension=/path/to/static_cache.so\n");
    exit(1);
}

$composer = dirname(__DIR__) . '/vendor/autoload.php';
if (is_file($composer)) {
    require $composer;
} else {
    foreach ([
        'Psr/SimpleCache/autoload.php',
        'Psr/Cache/autoload.php',
        'Cache/IntegrationTests/autoload.php',
        'Symfony/Component/Cache/autoload.php',
        'Symfony/Component/DependencyInjection/autoload.php',
        'Illuminate/autoload.php',
    ] as $file) {
        if (stream_resolve_include_path($file) !== false) {
            require_once $file;
        }
    }
}

spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'StaticCache\\Tests\\')) {
        $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, 18)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

/** The extension the tests run with, for the PHP processes some of them start. */
define('STATIC_CACHE_SO', getenv('STATIC_CACHE_SO') ?: dirname(__DIR__, 2) . '/build/static_cache.so');
