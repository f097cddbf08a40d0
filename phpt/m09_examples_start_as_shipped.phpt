--TEST--
examples/: the php-fpm pools, the mods-available ini and the nginx sites start as shipped (in private mount and network namespaces with their own /run, /srv, /var/log and /dev/shm) and serve two separate partitions; nothing is left in /dev/shm after a stop (issue 17 item 4, issue 15)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2') || !is_executable('/usr/sbin/nginx')) die('skip php-fpm of the PHP under test or nginx not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (namespaces, www-data pools)');
?>
--FILE--
<?php
$dir = sys_get_temp_dir() . '/sc-examples-' . getmypid() . '-' . bin2hex(random_bytes(3));
mkdir("$dir/ext", 0755, true);
mkdir("$dir/conf.d");
chmod($dir, 0755);
$examples = dirname(__DIR__) . '/examples';
$fpm = escapeshellarg(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2');   // the php-fpm of the PHP under test
// What `install` and `phpenmod -s fpm static_cache` would do, with the extension dir in the test's directory.
symlink(getenv('STATIC_CACHE_SO'), "$dir/ext/static_cache.so");
file_put_contents("$dir/php.ini", "extension_dir = $dir/ext\n");
symlink("$examples/static_cache.ini", "$dir/conf.d/20-static_cache.ini");
symlink('/etc/nginx/fastcgi_params', "$dir/fastcgi_params");
// Debian's /etc/nginx/nginx.conf around the example's sites: user www-data, http { ... include ... }.
file_put_contents("$dir/nginx.conf", "user www-data;\ndaemon off;\npid $dir/nginx.pid;\nerror_log $dir/nginx-error.log;\nevents {}\nhttp {\n"
    . "  access_log off;\n  client_body_temp_path $dir/t1;\n  fastcgi_temp_path $dir/t2;\n  proxy_temp_path $dir/t3;\n"
    . "  uwsgi_temp_path $dir/t4;\n  scgi_temp_path $dir/t5;\n  include $examples/nginx-php-fpm.conf;\n}\n");
file_put_contents("$dir/index.php", <<<'PHP'
<?php
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
if (isset($_GET['v'])) {
    V::set('k', $_GET['v']);
}
$i = V::info();
echo json_encode([V::get('k'), $i->partition, $i->configured_memory, P::info()->enabled, getmypid()]), "\n";
PHP);
file_put_contents("$dir/run.sh", <<<SH
set -e
ip link set lo up
for d in /dev/shm /run /srv /var/log; do mount -t tmpfs -o mode=1777 sc-example \$d; done
mkdir -p /run/php /srv/shop/public /srv/blog/public
cp $dir/index.php /srv/shop/public/; cp $dir/index.php /srv/blog/public/
export PHP_INI_SCAN_DIR=$dir/conf.d
$fpm -c $dir/php.ini -t -y $examples/php-fpm-pools.conf 2>&1 | grep -o 'test is successful'
$fpm -c $dir/php.ini -F -y $examples/php-fpm-pools.conf &
fpm=\$!
nginx -c $dir/nginx.conf &
ngx=\$!
get() { curl -s --max-time 10 -H "Host: \$1" "http://127.0.0.1/\$2"; }
# Ready: the shop socket handed to www-data, the blog pool on 127.0.0.1:9001 and nginx on :80 listening.
for i in \$(seq 200); do
    [ "\$(stat -c %U /run/php/shop.sock 2>/dev/null)" = www-data ] && grep -q ':2329 00000000:0000 0A' /proc/net/tcp \
        && grep -q ':0050 00000000:0000 0A' /proc/net/tcp && break
    sleep 0.05
done
echo "shop: \$(get shop.example '?v=from-shop' | cut -d, -f1-4)"
echo "blog: \$(get blog.example '' | cut -d, -f1-4)"
echo "blog: \$(get blog.example '?v=from-blog' | cut -d, -f1-4)"
for i in 1 2 3 4; do get shop.example '' | cut -d, -f1; done | sort -u | sed 's/^/shop workers read: /'
echo "in /dev/shm: \$(ls -A /dev/shm | wc -l) objects, \$(stat -c '%U %a' /dev/shm/* | sort -u | tr '\\n' ' ')"
kill -QUIT \$ngx \$fpm
wait \$fpm \$ngx || true
echo "after stop: \$(ls -A /dev/shm | wc -l) objects in /dev/shm"
SH);
// A PID namespace too: whatever happens, everything started inside ends with it.
passthru("timeout -s KILL 60 unshare -m -n -p -f --kill-child --propagation private sh $dir/run.sh 2>&1");
passthru("rm -rf " . escapeshellarg($dir));
?>
--EXPECT--
test is successful
shop: ["from-shop","shop",67108864,true
blog: [null,"blog-main",16777216,false
blog: ["from-blog","blog-main",16777216,false
shop workers read: ["from-shop"
in /dev/shm: 5 objects, root 600 www-data 600 www-data 777 
after stop: 0 objects in /dev/shm
