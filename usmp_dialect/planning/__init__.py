"""The planner core: plain arrays in, a plan out. No xDSL in here."""
