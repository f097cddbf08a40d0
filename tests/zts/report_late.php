<?php
// Runs once after every thread has finished: what late.php's requests and their late code counted.
use OPcache\PinnedCache as P;
echo json_encode(['fetched' => P::get('fetched'), 'locked' => P::get('locked'),
    'late_fetched' => P::get('late_fetched'), 'late_locked' => P::get('late_locked')]), "\n";
