//! Engine features that differ between the PHP versions and patch releases we build against, read from the
//! headers of the PHP being built against (`PHP_CONFIG`, as for ext-php-rs's bindings). Each PHP version and
//! thread model is a separate build (scripts/build-php); a new minor version needs a row in `MINORS` only.
//! * `php83`, `php84`, `php85`: the engine is at least that minor version (`PHP_VERSION_ID`), for Zend
//!   structures and behaviour that changed in it (e.g. `zend_function_entry` grew fields in 8.4).
//! * `php_delayed_oom`: the executor records a `memory_limit` error raised inside internal code and
//!   raises it at the VM's next check (`EG(delayed_oom)`, 8.2.33 and later).

use std::process::Command;

/// (cfg name, first `PHP_VERSION_ID` of that minor version).
const MINORS: [(&str, u32); 3] = [("php83", 80300), ("php84", 80400), ("php85", 80500)];

fn main() {
    println!("cargo:rustc-check-cfg=cfg(php_delayed_oom)");
    for (cfg, _) in MINORS {
        println!("cargo:rustc-check-cfg=cfg({cfg})");
    }
    println!("cargo:rerun-if-env-changed=PHP_CONFIG");
    let php_config = std::env::var("PHP_CONFIG").unwrap_or_else(|_| "php-config".to_owned());
    let include_dir = Command::new(&php_config)
        .arg("--include-dir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let Some(dir) = include_dir else {
        println!(
            "cargo:warning={php_config} --include-dir failed; assuming PHP 8.2 without delayed memory_limit errors"
        );
        return;
    };
    let version = format!("{dir}/main/php_version.h");
    println!("cargo:rerun-if-changed={version}");
    let version_id = std::fs::read_to_string(&version).ok().and_then(|h| {
        h.lines().find_map(|l| l.strip_prefix("#define PHP_VERSION_ID").and_then(|v| v.trim().parse::<u32>().ok()))
    });
    let Some(version_id) = version_id else {
        panic!("no PHP_VERSION_ID in {version}: cannot tell which PHP the extension is built for");
    };
    for (cfg, first) in MINORS {
        if version_id >= first {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
    let globals = format!("{dir}/Zend/zend_globals.h");
    println!("cargo:rerun-if-changed={globals}");
    if std::fs::read_to_string(&globals).is_ok_and(|h| h.contains("delayed_oom")) {
        println!("cargo:rustc-cfg=php_delayed_oom");
    }
}
