<?php

namespace StaticCache\Tests\Operations;

use PHPUnit\Framework\TestCase;

/**
 * The dashboard in headless Chromium (Debian's chromium, driven through chromedriver's WebDriver
 * HTTP API), served by `php -S` with the extension: the page loads, its figures are info()'s, and
 * deleting a key through the page deletes it. Leaves a screenshot in build/test-logs/.
 */
final class DashboardTest extends TestCase
{
    use Processes;

    private const PASSWORD = 'correct horse';
    private string $driver;
    private string $session;

    public function testThePageShowsInfoFiguresAndDeletesAKey(): void
    {
        $root = $this->workDir('dashboard');
        $dashboard = dirname(__DIR__, 2) . '/public/dashboard.php';
        file_put_contents("$root/index.php", "<?php require '$dashboard';");
        file_put_contents("$root/seed.php", <<<'PHP'
            <?php
            use OPcache\{VolatileCache, PinnedCache};
            VolatileCache::set('dash:keep', str_repeat('k', 4000));
            VolatileCache::set('dash:victim', ['a' => [1, 2, 3]], 300);
            VolatileCache::set("dash:bin\0ary", new ArrayObject([1]));
            for ($i = 0; $i < 40; $i++) { VolatileCache::set("bulk:$i", $i); VolatileCache::get("bulk:$i"); }
            VolatileCache::get('dash:absent');
            PinnedCache::set('config', ['debug' => false]);
            echo 'seeded';
            PHP);
        file_put_contents("$root/state.php", <<<'PHP'
            <?php
            use OPcache\{VolatileCache, PinnedCache};
            echo json_encode(['volatile' => (array) VolatileCache::info(), 'pinned' => (array) PinnedCache::info(),
                'victim' => VolatileCache::has('dash:victim'), 'keep' => VolatileCache::has('dash:keep')]);
            PHP);
        $port = self::freePort();
        $this->serve([PHP_BINARY, '-n', '-d', 'extension=' . STATIC_CACHE_SO, '-S', "127.0.0.1:$port", '-t', $root], $port, "$root/server.log",
            ['STATIC_CACHE_DASHBOARD_PASSWORD' => self::PASSWORD, 'PHP_CLI_SERVER_WORKERS' => '2']);
        $site = "http://127.0.0.1:$port";
        $this->assertSame('seeded', file_get_contents("$site/seed.php"));

        $driverPort = self::freePort();
        $this->serve(['/usr/bin/chromedriver', "--port=$driverPort"], $driverPort, "$root/chromedriver.log");
        $this->driver = "http://127.0.0.1:$driverPort";
        $this->session = $this->webdriver('POST', '/session', ['capabilities' => ['alwaysMatch' => [
            'browserName' => 'chrome',
            'goog:chromeOptions' => ['binary' => '/usr/bin/chromium', 'args' => [
                '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                '--disable-background-networking', '--disable-component-update', '--disable-sync',
                '--disable-dev-shm-usage', "--user-data-dir=$root/chromium", '--window-size=1400,1500',
            ]],
        ]]])['sessionId'];
        try {
            $this->go("$site/?backend=volatile&prefix=dash:");
            $this->assertStringContainsString('static_cache', $this->webdriver('GET', "/session/$this->session/title"));

            // Log in through the form.
            $this->type('#login input[name=password]', self::PASSWORD);
            $this->click('#login button');
            $this->awaitText('#message', 'Logged in.');

            // Figures are info()'s (nothing in between changes them: the page and state.php only read).
            $state = json_decode(file_get_contents("$site/state.php"), true);
            foreach (['volatile', 'pinned'] as $backend) {
                $info = $state[$backend];
                foreach (['entries' => 'entry_count', 'hits' => 'hits', 'misses' => 'misses', 'evictions' => 'evictions',
                    'free_memory' => 'free_memory', 'configured_memory' => 'configured_memory'] as $field => $property) {
                    $shown = $this->attribute("[data-backend=$backend] [data-field=$field]", 'data-value');
                    $this->assertSame((string) $info[$property], $shown, "$backend $field");
                }
            }
            $this->assertSame('default', $this->text('#partition'));
            $this->assertSame(43, $state['volatile']['entry_count']);

            // The key browser lists the prefix's keys with their metadata; one is deleted through its button.
            $victim = bin2hex('dash:victim');
            $this->assertSame('dash:victim', $this->text("tr[data-key='$victim'] td.key"));
            $this->assertSame('dash:bin\0ary', $this->text("tr[data-key='" . bin2hex("dash:bin\0ary") . "'] td.key"));
            $this->assertCount(3, $this->elements('table.keys tr[data-key]'));
            $this->screenshot(self::artifacts() . '/dashboard.png');
            $this->click("tr[data-key='$victim'] button.delete");
            $this->awaitText('#message', 'Deleted dash:victim');
            $this->assertCount(2, $this->elements('table.keys tr[data-key]'));
            $state = json_decode(file_get_contents("$site/state.php"), true);
            $this->assertFalse($state['victim'], 'deleted in the shared cache');
            $this->assertTrue($state['keep']);
            $this->assertSame(42, $state['volatile']['entry_count']);
            $this->screenshot(self::artifacts() . '/dashboard-after-delete.png');
        } finally {
            $this->webdriver('DELETE', "/session/$this->session");
        }
    }

    public function testWithoutThePasswordActionsAreRefused(): void
    {
        $root = $this->workDir('dashboard');
        $dashboard = dirname(__DIR__, 2) . '/public/dashboard.php';
        file_put_contents("$root/index.php", "<?php require '$dashboard';");
        $port = self::freePort();
        $this->serve([PHP_BINARY, '-n', '-d', 'extension=' . STATIC_CACHE_SO, '-S', "127.0.0.1:$port", '-t', $root], $port, "$root/server.log",
            ['STATIC_CACHE_DASHBOARD_PASSWORD' => self::PASSWORD]);
        $post = fn(array $form, string $cookie = '') => @file_get_contents("http://127.0.0.1:$port/", false, stream_context_create(['http' => [
            'method' => 'POST', 'ignore_errors' => true, 'follow_location' => 0,
            'header' => "Content-Type: application/x-www-form-urlencoded\r\n" . ($cookie !== '' ? "Cookie: sc_dashboard=$cookie\r\n" : ''),
            'content' => http_build_query($form),
        ]]));
        $this->assertSame('Log in first.', $post(['action' => 'clear', 'backend' => 'volatile']));
        $this->assertSame('Log in first.', $post(['action' => 'clear', 'backend' => 'volatile'], 'forged'));
        $this->assertStringNotContainsString('button class="delete"', file_get_contents("http://127.0.0.1:$port/"));
    }

    /**
     * A login ends: its cookie carries its end, signed with the password, and a cookie past its end (or
     * of the earlier form, which never ended) is refused.
     */
    public function testALoginEnds(): void
    {
        $site = $this->plainServer();
        $cookieOf = fn(array $response) => explode(';', substr(self::header($response, 'Set-Cookie'), strlen('sc_dashboard=')))[0];
        $login = self::request('POST', "$site/", ['action' => 'login', 'password' => self::PASSWORD]);
        $cookie = $cookieOf($login);
        [$until] = explode('.', $cookie);
        $this->assertEqualsWithDelta(time() + 8 * 3600, (int) $until, 5);
        $page = self::request('GET', "$site/", null, "sc_dashboard=$cookie")['body'];
        $this->assertMatchesRegularExpression('/name="csrf" value="([0-9a-f]{64})"/', $page);
        preg_match('/name="csrf" value="([0-9a-f]{64})"/', $page, $m);

        $clear = fn(string $cookie, string $csrf) => self::request('POST', "$site/", ['action' => 'clear', 'backend' => 'volatile', 'csrf' => $csrf], "sc_dashboard=$cookie");
        $past = time() - 1;
        $ended = "$past." . hash_hmac('sha256', "static-cache-dashboard|$past", self::PASSWORD);
        $this->assertSame('Log in first.', $clear($ended, hash_hmac('sha256', 'csrf', $ended))['body']);
        $never = hash_hmac('sha256', 'static-cache-dashboard', self::PASSWORD);
        $this->assertSame('Log in first.', $clear($never, hash_hmac('sha256', 'csrf', $never))['body']);
        $this->assertSame('Log in first.', $clear($cookie, hash_hmac('sha256', 'csrf', $ended))['body'], 'another login\'s CSRF token');
        $this->assertMatchesRegularExpression('~^HTTP/1\.\d 303~', $clear($cookie, $m[1])['headers'][0]);
    }

    /**
     * The memory map adds up: the table's "used memory" is the donut's and the legend's "used" (live
     * entries), not Admin::memory()'s used, which counts the retired blocks shown on the next row too.
     */
    public function testUsedMemoryIsWhatTheDonutShowsAndExcludesRetiredBlocks(): void
    {
        $site = $this->plainServer(<<<'PHP'
            <?php
            OPcache\VolatileCache::set('a', str_repeat('x', 5000));
            OPcache\VolatileCache::set('a', str_repeat('y', 5000));
            echo json_encode(StaticCache\Admin::memory('volatile'));
            PHP);
        $memory = json_decode(file_get_contents("$site/seed.php"), true);
        $this->assertGreaterThan(0, $memory['retired'], 'the replaced value is still retired');
        $page = file_get_contents("$site/");
        $figures = self::figures($page, 'volatile');
        $this->assertSame($memory['used'] - $memory['retired'], $figures['used_memory']);
        $this->assertSame($memory['retired'], $figures['retired']);
        $this->assertSame($memory['free'], $figures['free_memory']);
    }

    /**
     * The page shows only messages of its own actions: a link with a message in its query (a phishing
     * text on the operator's trusted page) shows nothing. An action's message travels in a cookie
     * that the page it redirects to shows once.
     */
    public function testALinkCannotPutAMessageOnThePage(): void
    {
        $site = $this->plainServer();
        $forged = 'Your session expired: log in again at https://attacker.example';
        $page = file_get_contents("$site/?" . http_build_query(['msg' => $forged]));
        $this->assertStringNotContainsString('attacker.example', $page);
        $this->assertStringNotContainsString('id="message"', $page);

        // A wrong password: 303 to the page, which says so once.
        $response = self::request('POST', "$site/", ['action' => 'login', 'password' => 'wrong']);
        $this->assertMatchesRegularExpression('~^HTTP/1\.\d 303~', $response['headers'][0]);
        $location = self::header($response, 'Location');
        $this->assertStringNotContainsString('Wrong', urldecode($location));
        $this->assertMatchesRegularExpression('/^sc_dashboard_msg=([^;]+)/', self::header($response, 'Set-Cookie'));
        $cookie = explode(';', self::header($response, 'Set-Cookie'))[0];
        $shown = self::request('GET', "$site/$location", null, $cookie);
        $this->assertStringContainsString('<p class="msg" id="message">Wrong password.</p>', $shown['body']);
        $this->assertStringStartsWith('sc_dashboard_msg=deleted;', self::header($shown, 'Set-Cookie'), 'shown once');
    }

    /**
     * The page holds the CSRF token and buttons that delete: no other site (a sibling subdomain is
     * same-site, so SameSite cookies do not stop it) may frame it, and no cache may keep it. Over
     * HTTPS its cookies, the login one worth the password, are Secure: never sent over plain HTTP.
     */
    public function testThePageIsNeitherFramedNorCachedAndItsCookiesAreSecureOverHttps(): void
    {
        $page = self::request('GET', $this->plainServer() . '/');
        $this->assertSame("frame-ancestors 'none'", self::header($page, 'Content-Security-Policy'));
        $this->assertSame('DENY', self::header($page, 'X-Frame-Options'));
        $this->assertSame('no-store', self::header($page, 'Cache-Control'));

        // php-cgi, as a web server runs it for an HTTPS request.
        $root = $this->workDir('dashboard');
        file_put_contents("$root/index.php", "<?php require '" . dirname(__DIR__, 2) . "/public/dashboard.php';");
        $form = http_build_query(['action' => 'login', 'password' => self::PASSWORD]);
        $proc = proc_open(['/usr/bin/php-cgi8.2', '-n', '-d', 'extension=' . STATIC_CACHE_SO], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes, $root, [
            'REQUEST_METHOD' => 'POST', 'CONTENT_TYPE' => 'application/x-www-form-urlencoded', 'CONTENT_LENGTH' => (string) strlen($form),
            'SCRIPT_FILENAME' => "$root/index.php", 'REDIRECT_STATUS' => '200', 'HTTPS' => 'on', 'SERVER_PROTOCOL' => 'HTTP/1.1',
            'STATIC_CACHE_DASHBOARD_PASSWORD' => self::PASSWORD,
        ]);
        fwrite($pipes[0], $form);
        fclose($pipes[0]);
        $headers = explode("\r\n\r\n", stream_get_contents($pipes[1]))[0];
        proc_close($proc);
        $this->assertMatchesRegularExpression('/^Set-Cookie: sc_dashboard=\d+\.[0-9a-f]{64}; expires=[^;]+; Max-Age=28800; secure; HttpOnly; SameSite=Strict\r?$/m', $headers);
        $this->assertMatchesRegularExpression('/^Set-Cookie: sc_dashboard_msg=Logged%20in.; secure; HttpOnly; SameSite=Strict\r?$/m', $headers);
    }

    /** Keys are shown unambiguously: a backslash in a key is escaped too, so "a\\0" is not the "a\0" of a NUL. */
    public function testKeysThatDifferLookDifferent(): void
    {
        $site = $this->plainServer(<<<'PHP'
            <?php
            OPcache\VolatileCache::set("k:nul\0", 1);
            OPcache\VolatileCache::set('k:nul\0', 2);
            OPcache\VolatileCache::set("k:tab\t", 3);
            PHP);
        file_get_contents("$site/seed.php");
        $page = file_get_contents("$site/?prefix=k:");
        preg_match_all('~<tr data-key="([0-9a-f]+)">\n<td class="key">([^<]*)</td>~', $page, $m);
        $shown = array_combine(array_map('hex2bin', $m[1]), $m[2]);
        ksort($shown);
        $this->assertSame(["k:nul\0" => 'k:nul\0', 'k:nul\0' => 'k:nul\\\\0', "k:tab\t" => 'k:tab\x09'], $shown);
    }

    /**
     * The backend and prefix are the form's and the link's, never a cookie's: without a php.ini
     * (request_order unset, as in the official Docker images) $_REQUEST lets a cookie of the same
     * name, set by any application of the site, override them.
     */
    public function testTheBackendAndPrefixAreNeverTakenFromCookies(): void
    {
        $site = $this->plainServer(<<<'PHP'
            <?php
            OPcache\VolatileCache::set('k:1', 1);
            OPcache\VolatileCache::set('other', 2);
            PHP);
        file_get_contents("$site/seed.php");
        $page = self::request('GET', "$site/?backend=volatile&prefix=k:", null, 'backend=pinned; prefix=other')['body'];
        $this->assertStringContainsString('<input name="prefix" value="k:"', $page);
        $this->assertStringContainsString('<table class="keys" data-backend="volatile">', $page);
        $this->assertStringContainsString('<tr data-key="' . bin2hex('k:1') . '">', $page);
    }

    /** @return array{headers: list<string>, body: string} */
    private static function request(string $method, string $url, ?array $form = null, string $cookie = ''): array
    {
        $body = file_get_contents($url, false, stream_context_create(['http' => [
            'method' => $method, 'ignore_errors' => true, 'follow_location' => 0,
            'header' => ($form !== null ? "Content-Type: application/x-www-form-urlencoded\r\n" : '') . ($cookie !== '' ? "Cookie: $cookie\r\n" : ''),
            'content' => $form !== null ? http_build_query($form) : '',
        ]]));
        return ['headers' => $http_response_header, 'body' => $body];
    }

    private static function header(array $response, string $name): string
    {
        foreach ($response['headers'] as $line) {
            if (stripos($line, "$name:") === 0) {
                return trim(substr($line, strlen($name) + 1));
            }
        }
        return '';
    }

    /** @return array<string, int|float> data-field => data-value of one backend's figures table */
    private static function figures(string $page, string $backend): array
    {
        $section = substr($page, strpos($page, "data-backend=\"$backend\""));
        $section = substr($section, 0, strpos($section, '</section>'));
        preg_match_all('/data-field="(\w+)" data-value="([0-9.]+)"/', $section, $m, PREG_SET_ORDER);
        return array_column(array_map(static fn($f) => [$f[1], $f[2] + 0], $m), 1, 0);
    }

    /** Serves the dashboard (index.php) and `$seed` (seed.php) with `php -S`; returns the site's URL. */
    private function plainServer(string $seed = '<?php'): string
    {
        $root = $this->workDir('dashboard');
        file_put_contents("$root/index.php", "<?php require '" . dirname(__DIR__, 2) . "/public/dashboard.php';");
        file_put_contents("$root/seed.php", $seed);
        $port = self::freePort();
        $this->serve([PHP_BINARY, '-n', '-d', 'extension=' . STATIC_CACHE_SO, '-S', "127.0.0.1:$port", '-t', $root], $port, "$root/server.log",
            ['STATIC_CACHE_DASHBOARD_PASSWORD' => self::PASSWORD]);
        return "http://127.0.0.1:$port";
    }

    /** One WebDriver call. Plain HTTP/1.1 over a socket: PHP's http:// wrapper waits for chromedriver to close kept-alive connections. */
    private function webdriver(string $method, string $path, array|object|null $body = null): mixed
    {
        $address = substr($this->driver, 7);
        $socket = stream_socket_client("tcp://$address", $errno, $error, 10);
        stream_set_timeout($socket, 120);
        $content = $body === null ? '' : json_encode($body);
        fwrite($socket, "$method $path HTTP/1.1\r\nHost: $address\r\nContent-Type: application/json\r\n"
            . 'Content-Length: ' . strlen($content) . "\r\nConnection: close\r\n\r\n$content");
        $head = '';
        while (!str_contains($head, "\r\n\r\n") && !feof($socket)) {
            $head .= fread($socket, 1);
        }
        $length = preg_match('/^Content-Length: *(\d+)/mi', $head, $m) ? (int) $m[1] : 0;
        $response = '';
        while (strlen($response) < $length && !feof($socket)) {
            $response .= fread($socket, $length - strlen($response));
        }
        fclose($socket);
        $decoded = json_decode($response, true);
        if (!is_array($decoded) || isset($decoded['value']['error'])) {
            $this->fail("WebDriver $method $path: " . ($decoded['value']['error'] ?? '') . ': ' . ($decoded['value']['message'] ?? $head));
        }
        return $decoded['value'];
    }

    private function go(string $url): void
    {
        $this->webdriver('POST', "/session/$this->session/url", ['url' => $url]);
    }

    /** @return list<string> element ids */
    private function elements(string $css): array
    {
        $found = $this->webdriver('POST', "/session/$this->session/elements", ['using' => 'css selector', 'value' => $css]);
        return array_map(static fn(array $e) => (string) reset($e), $found);
    }

    private function element(string $css): string
    {
        $found = $this->elements($css);
        $this->assertNotEmpty($found, "no element $css");
        return $found[0];
    }

    private function click(string $css): void
    {
        $this->webdriver('POST', "/session/$this->session/element/{$this->element($css)}/click", new \stdClass());
    }

    private function type(string $css, string $text): void
    {
        $this->webdriver('POST', "/session/$this->session/element/{$this->element($css)}/value", ['text' => $text]);
    }

    private function text(string $css): string
    {
        return $this->webdriver('GET', "/session/$this->session/element/{$this->element($css)}/text");
    }

    /** Waits (up to 20 s) until the element shows `$expected`: a click's navigation may still be under way. */
    private function awaitText(string $css, string $expected): void
    {
        $until = microtime(true) + 20;
        do {
            try {
                if ($this->text($css) === $expected) {
                    $this->addToAssertionCount(1);
                    return;
                }
            } catch (\PHPUnit\Framework\AssertionFailedError) {
                // not there yet, or replaced by the next page while it was read
            }
            usleep(100_000);
        } while (microtime(true) < $until);
        $this->assertSame($expected, $this->text($css));
    }

    private function attribute(string $css, string $name): ?string
    {
        return $this->webdriver('GET', "/session/$this->session/element/{$this->element($css)}/attribute/$name");
    }

    private function screenshot(string $file): void
    {
        file_put_contents($file, base64_decode($this->webdriver('GET', "/session/$this->session/screenshot")));
        $this->assertStringStartsWith("\x89PNG", (string) file_get_contents($file));
    }
}
