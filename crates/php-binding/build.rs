//! Engine features that differ between PHP 8.2 patch releases, read from the headers of the PHP being
//! built against (`PHP_CONFIG`, as for ext-php-rs's bindings).
//! * `php_delayed_oom`: the executor records a `memory_limit` error raised inside internal code and
//!   raises it at the VM's next check (`EG(delayed_oom)`, 8.2.33 and later).

use std::process::Command;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(php_delayed_oom)");
    println!("cargo:rerun-if-env-changed=PHP_CONFIG");
    let php_config = std::env::var("PHP_CONFIG").unwrap_or_else(|_| "php-config".to_owned());
    let include_dir = Command::new(&php_config)
        .arg("--include-dir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let Some(dir) = include_dir else {
        println!("cargo:warning={php_config} --include-dir failed; assuming no delayed memory_limit errors");
        return;
    };
    let globals = format!("{dir}/Zend/zend_globals.h");
    println!("cargo:rerun-if-changed={globals}");
    if std::fs::read_to_string(&globals).is_ok_and(|h| h.contains("delayed_oom")) {
        println!("cargo:rustc-cfg=php_delayed_oom");
    }
}
