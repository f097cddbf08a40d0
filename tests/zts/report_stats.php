<?php
$i = OPcache\VolatileCache::info();
echo json_encode(['hits' => $i->hits, 'misses' => $i->misses, 'sum' => $i->hits + $i->misses]), "\n";
