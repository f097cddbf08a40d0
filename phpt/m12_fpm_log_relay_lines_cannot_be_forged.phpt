--TEST--
FPM: the log relay writes each line itself, with the sender's kernel-checked pid, its pool only as its title says, and its text escaped to one line; userland cannot open the relay, and a process that is not a child of the master cannot log (spec §14.3 item 8, issue 15)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (a private /dev/shm, pidfd_getfd and forged credentials)');
if (trim((string) shell_exec('command -v cc')) === '') die('skip needs a C compiler');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

// Userland of a worker: finds the relay's descriptor (the one AF_UNIX datagram socket it holds) and tries
// to write forged lines through every socket and pipe it holds (with the pipe the relay used before, the
// shell could: any pool could write lines of any origin into the master's log).
$app = <<<'PHP'
<?php
$i = OPcache\VolatileCache::info();
$dgram = [];
foreach (array_slice(file('/proc/net/unix'), 1) as $l) {
    $f = preg_split('/\s+/', trim($l));
    if ($f[4] === '0002') {
        $dgram[] = "socket:[{$f[6]}]";
    }
}
// descriptors inherited from outside php-fpm (held by the process that started the master) are left alone
$parent = function (int $pid): int {
    $stat = (string) file_get_contents("/proc/$pid/stat");
    return (int) explode(' ', substr($stat, strrpos($stat, ')') + 2))[1];
};
$outside = array_map(fn($fd) => @readlink($fd), glob('/proc/' . $parent($parent(getmypid())) . '/fd/*') ?: []);
$relay = null;
$opened = 0;
$forged = "[26-Nov-2026 10:00:00] WARNING: [pool alpha] child 1: static_cache: FORGED by userland\n"
    . "[26-Nov-2026 10:00:00] NOTICE: FORGED fpm is running, pid 1\n";
foreach (scandir('/proc/self/fd') as $fd) {
    $link = preg_match('/^\d+$/', $fd) ? (string) @readlink("/proc/self/fd/$fd") : '';
    if (in_array($link, $dgram, true)) {
        $relay = (int) $fd;
    }
    if ((str_starts_with($link, 'socket:') || str_starts_with($link, 'pipe:')) && !in_array($link, $outside, true)) {
        foreach (["php://fd/$fd", "/proc/self/fd/$fd"] as $path) {
            if ($h = @fopen($path, 'w')) {
                $opened++;
                fwrite($h, $forged);
                fclose($h);
            }
        }
        // a shell opens the worker's descriptor through /proc (PHP's own path handling cannot)
        $opened += (int) shell_exec('printf %s ' . escapeshellarg($forged) . ' 2>/dev/null >/proc/' . getmypid() . "/fd/$fd && echo 1");
    }
}
echo json_encode(['pid' => getmypid(), 'relay' => $relay, 'opened' => $opened, 'r' => [$i->available, $i->failure_reason]]);
PHP;

// Root's tool: takes a copy of a worker's descriptor (pidfd_getfd) and sends a file's bytes on it, with
// its own credentials or (root may) with another pid's.
$forge = <<<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int pidfd = syscall(SYS_pidfd_open, atoi(argv[1]), 0);
    int s = pidfd < 0 ? -1 : syscall(SYS_pidfd_getfd, pidfd, atoi(argv[2]), 0);
    char buf[4096];
    int in = open(argv[3], O_RDONLY);
    ssize_t n = in < 0 ? -1 : read(in, buf, sizeof buf);
    if (s < 0 || n < 0) {
        perror("forge");
        return 1;
    }
    struct iovec iov = {buf, n};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    union { char b[CMSG_SPACE(sizeof(struct ucred))]; struct cmsghdr align; } c;
    if (argc > 4) {
        msg.msg_control = c.b;
        msg.msg_controllen = sizeof c.b;
        struct cmsghdr *h = CMSG_FIRSTHDR(&msg);
        h->cmsg_level = SOL_SOCKET;
        h->cmsg_type = SCM_CREDENTIALS;
        h->cmsg_len = CMSG_LEN(sizeof(struct ucred));
        struct ucred u = {atoi(argv[4]), getuid(), getgid()};
        memcpy(CMSG_DATA(h), &u, sizeof u);
    }
    if (sendmsg(s, &msg, 0) != n) {
        perror("sendmsg");
        return 1;
    }
    puts("sent");
    return 0;
}
C;
$tool = sys_get_temp_dir() . '/sc-forge-' . getmypid();
file_put_contents("$tool.c", $forge);
exec('cc -o ' . escapeshellarg($tool) . ' ' . escapeshellarg("$tool.c") . ' 2>&1', $out, $rc);
if ($rc !== 0) {
    echo implode("\n", $out), "\n";
}
function send_forged(string $tool, int $pid, int $fd, string $datagram, ?int $as = null): void
{
    file_put_contents("$tool.msg", $datagram);
    echo trim((string) shell_exec(implode(' ', array_map('escapeshellarg', array_merge([$tool, $pid, $fd, "$tool.msg"], $as === null ? [] : [$as]))) . ' 2>&1')), "\n";
}

putenv('TZ=Asia/Kolkata');   // the relay's dates must follow the master's zone (+05:30) as FPM's own do
$shared = ['static_cache.partition' => 'shared'];
$shm = sc_shm_private();
$fpm = sc_fpm_start([
    'alpha' => ['children' => 1, 'admin' => $shared, 'catch' => false],
    'beta' => ['children' => 1, 'admin' => $shared, 'catch' => false],   // attach refused: logs through the relay
], $app, ['shm' => $shm]);
$alpha = sc_fcgi($fpm, 'alpha', '');
$beta = sc_fcgi($fpm, 'beta', '');
var_dump($alpha['r'], is_int($alpha['relay']), $alpha['opened']);
var_dump($beta['r'], is_int($beta['relay']), $beta['opened']);
[$worker, $fd] = [$beta['pid'], $beta['relay']];
$text = "[pool alpha] child 1: static_cache: FORGED one\n[26-Nov-2026 10:00:00] NOTICE: FORGED fpm is running, pid 1\n";
// not a child of the master: this process, and (credentials root forged) the master itself
send_forged($tool, $worker, $fd, "beta\0FORGED by a stranger");
send_forged($tool, $worker, $fd, "beta\0FORGED as the master", $fpm['pid']);
// as the beta worker (what its own code could send): claiming another pool, and its own
send_forged($tool, $worker, $fd, "alpha\0$text", $worker);
send_forged($tool, $worker, $fd, "beta\0FORGED two\r\nWARNING: [pool alpha] child 1: x", $worker);
sc_until(fn() => count(sc_fpm_log($fpm)) >= 3);
sc_fpm_stop($fpm);
$log = file($fpm['dir'] . '/fpm.log', FILE_IGNORE_NEW_LINES);
$ours = array_values(preg_grep('/static_cache|FORGED/', $log));
// the relay's dates: FPM's format, in the master's zone (a few seconds after FPM's own "ready" line)
$when = fn(string $line) => DateTime::createFromFormat('!d-M-Y H:i:s', substr($line, 1, 20), new DateTimeZone('UTC'));
$ready = $when(array_values(preg_grep('/NOTICE: ready to handle connections/', $log))[0]);
foreach ($ours as $line) {
    $at = $when($line);
    var_dump($at !== false && $at >= $ready && $at->getTimestamp() - $ready->getTimestamp() < 120);
}
$lines = array_map(fn($l) => preg_replace(['/^\[[^]]+\] /', "/child $worker:/"], ['', 'child BETA:'], $l), $ours);
sort($lines);
echo implode("\n", $lines), "\n";
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
array_map('unlink', [$tool, "$tool.c", "$tool.msg"]);
?>
--EXPECT--
array(2) {
  [0]=>
  bool(true)
  [1]=>
  NULL
}
bool(true)
int(0)
array(2) {
  [0]=>
  bool(false)
  [1]=>
  string(46) "Partition "shared" belongs to FPM pool "alpha""
}
bool(true)
int(0)
sent
sent
sent
sent
bool(true)
bool(true)
bool(true)
WARNING: [pool beta] child BETA: static_cache: FORGED two\x0d\x0aWARNING: [pool alpha] child 1: x
WARNING: [pool beta] child BETA: static_cache: Partition "shared" belongs to FPM pool "alpha"
WARNING: child BETA: static_cache: [pool alpha] child 1: static_cache: FORGED one\x0a[26-Nov-2026 10:00:00] NOTICE: FORGED fpm is running, pid 1\x0a
