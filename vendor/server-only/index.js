// Empty on purpose: see package.json. In Next's bundles `server-only` is Next's own module, which refuses client graphs.
