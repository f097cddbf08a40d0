--TEST--
V38b Request end with leading units left untouched, then a unit whose serialization hook ends in a fatal error (deferred modes; in exact mode the object's property write publishes nothing, §16.6): the next requests are served, the untouched unit still reads what it stored, the failed unit keeps its previous entry (§16.9), and a later change to it is published again (review rv38b of at38's request end split into a pass without a frame and a publication with one; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Boom {
    public bool $fatal = false;
    public int $n = 0;
    public function __serialize(): array {
        if ($this->fatal) { undefined_function_v38b(); }
        return ['fatal' => $this->fatal, 'n' => $this->n];
    }
    public function __unserialize(array $a): void { [$this->fatal, $this->n] = [$a['fatal'], $a['n']]; }
}
class Untouched { #[OPcache\PinnedStatic] public static array $k = []; }
class Hooked { #[OPcache\PinnedStatic] public static ?Boom $v = null; }
PHP, [
    'R1' => 'Untouched::$k = [7]; $b = new Boom; $b->n = 1; Hooked::$v = $b; echo "done\n";',
    'R2' => 'echo Untouched::$k[0], " "; Hooked::$v->fatal = true; Hooked::$v->n = 2; echo "done\n";',
    'R3' => 'echo Untouched::$k[0], " ", Hooked::$v->n, " ", var_export(Hooked::$v->fatal, true), "\n";',
    'R4' => '$b = new Boom; $b->n = 4; Hooked::$v = $b; echo "done\n";',
    'R5' => 'echo Untouched::$k[0], " ", Hooked::$v->n, "\n";',
], ['ini' => ['display_errors' => '0', 'log_errors' => '0']]);
?>
--EXPECT--
exact R1: done
exact R2: 7 done
exact R3: 7 1 false
exact R4: done
exact R5: 7 4
deferred R1: done
deferred R2: 7 done
deferred R3: 7 1 false
deferred R4: done
deferred R5: 7 4
jit R1: done
jit R2: 7 done
jit R3: 7 1 false
jit R4: done
jit R5: 7 4
