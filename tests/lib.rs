//! Shared helpers for the cross-crate and multi-process tests.
