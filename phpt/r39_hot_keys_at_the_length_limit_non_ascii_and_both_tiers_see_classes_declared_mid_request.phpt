--TEST--
R39 Mixed-case keys read again and again (get(), has(), getMultiple()) around the hot paths' 48-byte limit (48 and 49 bytes, with and without a leading \), with bytes above 0x7f (PHP lower-cases ASCII only: "Äpfel" names class ÄPFEL, "äpfel" does not), and on both tiers at once: once a class of that name is declared mid-request, every read of the key is refused as a first read is, and only that key; keys differing only in case stay distinct (spec §4.2) (review rv39)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
function r(callable $f): string {
    try { return json_encode($f()); } catch (ValueError $e) { return 'refused'; }
}
function reads(string $c, string $key): string {
    $out = [];
    for ($i = 0; $i < 3; $i++) { $out[] = r(fn() => $c::get($key)); }
    $out[] = r(fn() => $c::has($key));
    for ($i = 0; $i < 2; $i++) { $out[] = r(fn() => $c::getMultiple([$key])[$key]); }
    return implode(' ', $out);
}
$n48 = 'App\Models\Catalogue\Products\VariantsRepository';   // 48 bytes
$n49 = $n48 . 'X';
$keys = ['n48' => $n48, 'n49' => $n49, 'bs48' => '\\' . substr($n48, 0, 47), 'bs49' => '\\' . $n48,
    'A-upper' => "\u{00C4}pfel", 'a-lower' => "\u{00E4}pfel"];
var_dump(strlen($n48), strlen($keys['bs48']), strlen($keys['bs49']));
$i = 0;
foreach ($keys as $label => $k) { V::set($k, ++$i); P::set($k, -$i); }
V::set(strtolower($n48), 'lower');
echo "before\n";
foreach ($keys as $label => $k) { echo "$label: ", reads(V::class, $k), ' | ', reads(P::class, $k), "\n"; }
echo "class ", $n48, " declared\n";
eval('namespace App\Models\Catalogue\Products; class VARIANTSREPOSITORY {}');
foreach ($keys as $label => $k) { echo "$label: ", reads(V::class, $k), ' | ', reads(P::class, $k), "\n"; }
echo "lower: ", reads(V::class, strtolower($n48)), "\n";
echo "class ", substr($n48, 0, 47), " and ", $n49, " declared\n";
eval('namespace App\Models\Catalogue\Products; class variantsrepositor {} class VariantsRepositoryx {}');
foreach (['bs48', 'bs49', 'n49'] as $label) { echo "$label: ", reads(V::class, $keys[$label]), ' | ', reads(P::class, $keys[$label]), "\n"; }
echo "class \u{00C4}PFEL declared\n";
eval("class \u{00C4}PFEL {}");
foreach (['A-upper', 'a-lower'] as $label) { echo "$label: ", reads(V::class, $keys[$label]), ' | ', reads(P::class, $keys[$label]), "\n"; }
?>
--EXPECT--
int(48)
int(48)
int(49)
before
n48: 1 1 1 true 1 1 | -1 -1 -1 true -1 -1
n49: 2 2 2 true 2 2 | -2 -2 -2 true -2 -2
bs48: 3 3 3 true 3 3 | -3 -3 -3 true -3 -3
bs49: 4 4 4 true 4 4 | -4 -4 -4 true -4 -4
A-upper: 5 5 5 true 5 5 | -5 -5 -5 true -5 -5
a-lower: 6 6 6 true 6 6 | -6 -6 -6 true -6 -6
class App\Models\Catalogue\Products\VariantsRepository declared
n48: refused refused refused refused refused refused | refused refused refused refused refused refused
n49: 2 2 2 true 2 2 | -2 -2 -2 true -2 -2
bs48: 3 3 3 true 3 3 | -3 -3 -3 true -3 -3
bs49: refused refused refused refused refused refused | refused refused refused refused refused refused
A-upper: 5 5 5 true 5 5 | -5 -5 -5 true -5 -5
a-lower: 6 6 6 true 6 6 | -6 -6 -6 true -6 -6
lower: refused refused refused refused refused refused
class App\Models\Catalogue\Products\VariantsRepositor and App\Models\Catalogue\Products\VariantsRepositoryX declared
bs48: refused refused refused refused refused refused | refused refused refused refused refused refused
bs49: refused refused refused refused refused refused | refused refused refused refused refused refused
n49: refused refused refused refused refused refused | refused refused refused refused refused refused
class ÄPFEL declared
A-upper: refused refused refused refused refused refused | refused refused refused refused refused refused
a-lower: 6 6 6 true 6 6 | -6 -6 -6 true -6 -6
