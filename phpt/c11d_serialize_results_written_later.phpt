--TEST--
C11d __serialize() results of scalars and strings only are stored as their hook returned them, whatever later hooks do: a later hook that changes an earlier object does not change what was stored for it, more results than one batch holds, holes, integer keys and every scalar type, results mixed with nested ones, an object held twice, and a hook that throws after others ran
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

final class Flat
{
    public static int $calls = 0;
    public ?Flat $victim = null;

    public function __construct(public int $n) {}

    public function __serialize(): array
    {
        self::$calls++;
        if ($this->victim !== null) {
            // Runs after the victim's hook: its stored state is the one its own hook returned.
            $this->victim->n = -1;
        }
        $d = match ($this->n % 7) {
            0 => ['n' => $this->n, 'nested' => ['deep' => $this->n]],
            1 => ['n' => $this->n, 'gone' => 1, 'f' => $this->n / 2, 'null' => null],
            2 => ['n' => $this->n, 5 => true, 'no' => false, 'text' => 'text-' . $this->n],
            3 => ['n' => $this->n, 'self' => new ArrayObject([$this->n])],
            default => ['n' => $this->n, 'utc' => strtolower('UTC')],
        };
        unset($d['gone']);
        return $d;
    }

    public function __unserialize(array $d): void
    {
        $this->n = $d['n'];
        $this->d = $d;
    }

    public array $d = [];
}

final class Thrower
{
    public function __serialize(): array
    {
        throw new RuntimeException('no');
    }
}

$a = new Flat(4);
$b = new Flat(11);
$b->victim = $a;
var_dump(V::set('victim', [$a, $b]), $a->n);
[$ga, $gb] = V::get('victim');
var_dump($ga->n, $ga->d, $gb->n);

Flat::$calls = 0;
$list = [];
for ($i = 0; $i < 150; $i++) {
    $list[] = new Flat($i);
}
$list[] = $list[9];
var_dump(V::set('list', $list), Flat::$calls);
$got = V::get('list');
$bad = 0;
foreach ($got as $i => $flat) {
    $n = $i === 150 ? 9 : $i;
    $want = match ($n % 7) {
        0 => ['n' => $n, 'nested' => ['deep' => $n]],
        1 => ['n' => $n, 'f' => $n / 2, 'null' => null],
        2 => ['n' => $n, 5 => true, 'no' => false, 'text' => 'text-' . $n],
        3 => null,
        default => ['n' => $n, 'utc' => 'utc'],
    };
    $same = $want === null ? $flat->d['self'] instanceof ArrayObject && $flat->d['self'][0] === $n : $flat->d === $want;
    $bad += (int) (!$same || $flat->n !== $n);
}
var_dump(count($got), $bad, $got[9] === $got[150], array_keys($got[2]->d), array_keys($got[1]->d));

$mixed = [];
for ($i = 0; $i < 70; $i++) {
    $mixed[] = new Flat($i);
}
$mixed[] = new Thrower();
try {
    V::set('mixed', $mixed);
} catch (RuntimeException $e) {
    var_dump($e->getMessage());
}
var_dump(V::get('mixed'), V::get('list')[149]->n);
?>
--EXPECT--
bool(true)
int(-1)
int(4)
array(2) {
  ["n"]=>
  int(4)
  ["utc"]=>
  string(3) "utc"
}
int(11)
bool(true)
int(150)
int(151)
int(0)
bool(true)
array(4) {
  [0]=>
  string(1) "n"
  [1]=>
  int(5)
  [2]=>
  string(2) "no"
  [3]=>
  string(4) "text"
}
array(3) {
  [0]=>
  string(1) "n"
  [1]=>
  string(1) "f"
  [2]=>
  string(4) "null"
}
string(2) "no"
NULL
int(149)
