"""The built-in planning algorithms, by name in `usmp_dialect.planning.registry`."""
