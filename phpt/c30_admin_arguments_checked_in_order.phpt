--TEST--
C30 StaticCache\Admin checks its arguments as PHP does: every type left to right first, then argument #1's value before the later ones' (§4.1)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use StaticCache\Admin as A;
t(fn() => A::scan([], '', 'x'));
t(fn() => A::scan('bogus', '', -1));
t(fn() => A::scan('volatile', '', -1, 0));
t(fn() => A::deletePrefix([], ''));
t(fn() => A::deletePrefix('bogus', ''));
t(fn() => A::entry([], []));
t(fn() => A::entry('bogus', []));
t(fn() => A::memory('bogus'));
?>
--EXPECT--
TypeError: StaticCache\Admin::scan(): Argument #1 ($backend) must be of type string, array given
ValueError: StaticCache\Admin::scan(): Argument #1 ($backend) must be "volatile" or "pinned"
ValueError: StaticCache\Admin::scan(): Argument #3 ($cursor) must be greater than or equal to 0
TypeError: StaticCache\Admin::deletePrefix(): Argument #1 ($backend) must be of type string, array given
ValueError: StaticCache\Admin::deletePrefix(): Argument #1 ($backend) must be "volatile" or "pinned"
TypeError: StaticCache\Admin::entry(): Argument #1 ($backend) must be of type string, array given
TypeError: StaticCache\Admin::entry(): Argument #2 ($key) must be of type string, array given
ValueError: StaticCache\Admin::memory(): Argument #1 ($backend) must be "volatile" or "pinned"
