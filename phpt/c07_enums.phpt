--TEST--
C7 Enums restore as the engine singleton
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }  enum Pure { case A; }
final class Card { public function __construct(public Suit $suit) {} }
V::set('e', Suit::Hearts); V::set('en', ['s' => Suit::Spades, 'p' => Pure::A]); V::set('ep', new Card(Suit::Hearts));
var_dump(V::get('e') === Suit::Hearts, V::get('en')['s'] === Suit::Spades, V::get('en')['p'] === Pure::A, V::get('ep')->suit === Suit::Hearts);
echo V::getCacheStoreType('e')->name, ' ', V::getCacheStoreType('ep')->name, "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
SharedGraph SharedGraph
