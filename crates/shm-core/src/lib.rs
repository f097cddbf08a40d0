//! shm-core: the shared-memory arena behind static_cache.
