<?php

/**
 * The package's PSR-4 autoloader for use without Composer (`require 'adapters/autoload.php';`):
 * `StaticCache\Foo\Bar` is `src/Foo/Bar.php`. With Composer, its own autoloader does the same.
 */
spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'StaticCache\\') && !str_contains($class, '..')) {
        $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 12)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
