<?php
use OPcache\PinnedCache as P;
echo json_encode(['checked' => P::get('checked'), 'bad' => P::get('bad') ?? 0, 'bad_kept' => P::get('bad_kept') ?? 0]), "\n";
