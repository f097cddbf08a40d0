//! graph-codec: position-independent value graphs.
