//! `.sbeir` files: see the module docs once written.
