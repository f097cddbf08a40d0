//! static_cache: the PHP glue of the OPcache Static Cache RFC v2 API (namespace `OPcache`) on stock
//! PHP 8.2, one file per PHP class or hook family. What it is for: registering the API by hand,
//! parsing arguments with PHP's rules, mapping shm-core results to PHP results, INI, availability,
//! info() and phpinfo(). What it is not for: shared memory (shm-core) and value graphs (graph-codec).

mod admin;
mod args;
mod attributes;
mod blueprint;
mod cache_ops;
mod class_info;
mod class_lookup;
mod encoding;
mod enums;
mod exception;
mod fpm;
mod immutable;
mod info;
mod ini;
mod internal_state;
mod lifecycle;
mod opcache_functions;
mod phpinfo;
mod pinned_cache;
mod prototype;
mod read_cache;
mod request;
mod runtime;
mod signatures;
mod test_hooks;
mod volatile_cache;
mod worker_mode;
mod zend;
mod zval_in;
mod zval_out;
mod zval_walk;
mod zvals;

use ext_php_rs::prelude::*;

#[php_module]
pub fn get_module(module: ModuleBuilder) -> ModuleBuilder {
    module
        .startup_function(lifecycle::module_startup)
        .shutdown_function(lifecycle::module_shutdown)
        .request_startup_function(lifecycle::request_startup)
        .request_shutdown_function(lifecycle::request_shutdown)
        .post_deactivate_function(lifecycle::post_deactivate)
        .info_function(phpinfo::print)
}
