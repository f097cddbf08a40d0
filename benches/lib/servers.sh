# Benchmark servers (sourced by benches/run and benches/app/run): php-fpm masters on unix sockets and one
# nginx in front, all inside $WORK, started in the background and stopped by pid.
#
#   baseline_ini JIT       sets BASE_INI to the spec's baseline INI (§19.1) as -d pairs; JIT 0 or 1
#   fpm_start NAME WORKERS [php -d flags...]    one master ($PHP_FPM, default php-fpm8.2) with one static
#                          pool NAME on $WORK/NAME.sock;
#                          FPM_POOL_EXTRA (lines) is appended to the pool section
#   nginx_start LOCATIONS  nginx on a free loopback port (sets HTTP_PORT) with these location blocks
#                          (fastcgi_pass unix:$WORK/NAME.sock reaches pool NAME)
#   servers_stop           stops everything started here (call it from the caller's EXIT trap)
#
# The caller creates WORK (mode 0755: the pools run as nobody) before using these.

SERVER_PIDS=()

baseline_ini() {
    BASE_INI=(-d zend_extension=opcache -d opcache.enable=1 -d opcache.enable_cli=1 -d opcache.validate_timestamps=0
              -d opcache.memory_consumption=128 -d opcache.max_accelerated_files=20000)
    if [ "$1" -eq 1 ]; then
        BASE_INI+=(-d opcache.jit=tracing -d opcache.jit_buffer_size=64M)
    else
        BASE_INI+=(-d opcache.jit_buffer_size=0)
    fi
    BASE_INI+=(-d extension=mbstring -d extension=igbinary -d extension=apcu -d apc.enable_cli=1 -d apc.shm_size=128M
               -d extension="${SO:?}" -d static_cache.volatile_size_mb=128 -d static_cache.pinned_size_mb=128
               -d memory_limit=1G)
}

free_port() {
    php8.2 -n -r '$s = stream_socket_server("tcp://127.0.0.1:0"); echo substr(strrchr(stream_socket_get_name($s, false), ":"), 1);'
}

fpm_start() {
    local name=$1 workers=$2
    shift 2
    cat > "$WORK/$name.conf" <<CONF
[global]
daemonize = no
error_log = $WORK/$name-fpm.log
[$name]
listen = $WORK/$name.sock
listen.mode = 0666
pm = static
pm.max_children = $workers
user = nobody
group = nogroup
catch_workers_output = yes
${FPM_POOL_EXTRA:-}
CONF
    local root=()
    [ "$(id -u)" -eq 0 ] && root=(-R)
    "${PHP_FPM:-php-fpm8.2}" -n "${root[@]}" -F -y "$WORK/$name.conf" "$@" > "$WORK/$name-fpm.stdout" 2>&1 &
    SERVER_PIDS+=($!)
    for _ in $(seq 100); do [ -S "$WORK/$name.sock" ] && return 0; sleep 0.05; done
    cat "$WORK/$name-fpm.stdout" "$WORK/$name-fpm.log" >&2 2>/dev/null
    echo "php-fpm pool $name did not start" >&2
    return 1
}

nginx_start() {
    HTTP_PORT=$(free_port)
    mkdir -p "$WORK/nginx"
    local user_line=""
    [ "$(id -u)" -eq 0 ] && user_line="user root;"
    cat > "$WORK/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
$user_line
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx/body; fastcgi_temp_path $WORK/nginx/fcgi; proxy_temp_path $WORK/nginx/proxy;
    uwsgi_temp_path $WORK/nginx/uwsgi; scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$HTTP_PORT;
$1
    }
}
CONF
    nginx -p "$WORK/nginx" -c "$WORK/nginx.conf" -e "$WORK/nginx-error.log" > "$WORK/nginx.stdout" 2>&1 &
    SERVER_PIDS+=($!)
    for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$HTTP_PORT/" && return 0; sleep 0.05; done
    cat "$WORK/nginx.stdout" "$WORK/nginx-error.log" >&2 2>/dev/null
    echo "nginx did not start" >&2
    return 1
}

servers_stop() {
    local p
    for p in "${SERVER_PIDS[@]}"; do kill -QUIT "$p" 2>/dev/null || true; done
    for p in "${SERVER_PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$p" 2>/dev/null; then kill -KILL "$p" 2>/dev/null || true; fi
        wait "$p" 2>/dev/null || true
    done
    SERVER_PIDS=()
}
