"""A Unified Static Memory Planner for ML compilers, as MLIR-style dialects on xDSL."""
