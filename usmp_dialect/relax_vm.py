"""The Relax VM on our plan, by the name the issue and DESIGN.md give it: see
`usmp_dialect.tvm.relax_vm` (importing it imports TVM)."""

from usmp_dialect.tvm.relax_vm import FunctionReport, PlanMemory, PlanMemoryWarning, pipeline

__all__ = ["FunctionReport", "PlanMemory", "PlanMemoryWarning", "pipeline"]
