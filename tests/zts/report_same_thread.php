<?php
// The end of one reload generation run on the process's main thread (zts-host -S, tests/zts/run): that
// thread's thread-local state (lookup cache and local copies, request memos with class entries, enum
// cases and prototypes, kept time zones, attribute state) outlives each generation, whose classes,
// interned strings and segment PHP frees at its shutdown. Stores and fetches values of every family
// that state touches, then an attributed static. Prints "." when everything comes back whole, the
// first failure otherwise.
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;

enum SameThreadSuit: string
{
    case Hearts = 'H';
    case Spades = 'S';
}

class SameThreadPoint
{
    public function __construct(public int $x = 0, public ?SameThreadSuit $suit = null, public array $tags = [])
    {
    }
}

class SameThreadHooked
{
    public array $items = [];

    public function __wakeup(): void
    {
    }
}

class SameThreadStatics
{
    #[OPcache\PinnedStatic]
    public static int $generations = 0;
    #[OPcache\VolatileStatic]
    public static ?SameThreadPoint $point = null;
}

$hooked = new SameThreadHooked();
$hooked->items = range(1, 30);
V::set('st:point', new SameThreadPoint(5, SameThreadSuit::Spades, ['a', 'b']));
V::set('st:hooked', $hooked);
V::set('st:array', ['x' => str_repeat('q', 100), 'n' => [1, 2, 3]]);
V::set('st:date', new DateTimeImmutable('2020-01-02 03:04:05', new DateTimeZone('Europe/Paris')));
V::set('st:suit', SameThreadSuit::Hearts);
$failure = null;
for ($i = 0; $i < 3 && $failure === null; $i++) {
    $point = V::get('st:point');
    $multiple = V::getMultiple(['st:array', 'st:suit', 'st:absent']);
    $failure = match (false) {
        $point instanceof SameThreadPoint && $point->suit === SameThreadSuit::Spades && $point->tags === ['a', 'b'] => 'point',
        V::get('st:hooked') instanceof SameThreadHooked && V::get('st:hooked')->items === range(1, 30) => 'hooked',
        V::get('st:array')['n'] === [1, 2, 3] => 'array',
        V::get('st:date')?->format('c e') === '2020-01-02T03:04:05+01:00 Europe/Paris' => 'date',
        V::get('st:suit') === SameThreadSuit::Hearts => 'enum',
        $multiple === ['st:array' => V::get('st:array'), 'st:suit' => SameThreadSuit::Hearts, 'st:absent' => null] => 'getMultiple',
        default => null,
    };
}
// A fresh segment per generation: the static starts from its default every time.
SameThreadStatics::$generations++;
SameThreadStatics::$point = new SameThreadPoint(1, SameThreadSuit::Hearts);
if ($failure === null && (SameThreadStatics::$generations !== 1 || P::get('requests') !== (int) getenv('RELOAD_REQUESTS'))) {
    $failure = 'generation';
}
echo $failure === null ? '.' : "\n$failure\n";
