"""The Relax VM on our plan (docs/relax-vm.md): a model of examples/models, its weights
bound, compiled with `pipeline` in the place of TVM's StaticPlanBlockMemory, run once."""

import numpy as np
import tvm
from tvm import relax

from usmp_dialect.tvm.relax.model_spec import load_model
from usmp_dialect.tvm.relax_vm.plan_memory import pipeline

mod, weights = load_model("examples/models/mlp.py:mlp")  # a Relax IRModule, its weights
mod = relax.transform.BindParams("forward", weights)(mod)  # bound: constants of the module

ours = pipeline("llvm", algorithm="default", pools="")  # any --algorithm, any --pools spec
executable = tvm.compile(mod, "llvm", relax_pipeline=ours)
vm = relax.VirtualMachine(executable, tvm.cpu())
x = tvm.runtime.tensor(np.ones((4, 32), "float32"))
print(vm["forward"](x).numpy().shape)
print(ours.plan_memory.report[0].text())  # pools, each tensor's offset and live range
