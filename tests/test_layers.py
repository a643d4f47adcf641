"""The layer contract of `docs/architecture.md`, read from the source's imports, those
inside functions included:

- the core (everything but `usmp_dialect.tvm` and `usmp_dialect.tools`) imports no TVM,
  nothing of the TVM half and no console-script main;
- each core layer imports only the layers below it (`LAYERS`, lowest first);
- the TVM half imports no console-script main;
- no module imports another lazily (inside a function) but to keep TVM, numba or the IR
  out of a command that does not need them: the mains import the TVM half lazily, and the
  core's dialects, parser and passes where a run reads, plans or prints IR (so `--help`
  and a usage error cost what xdsl-opt's do); the TVM half imports TVM lazily, xDSL's
  universe loads passes on demand, and the console scripts import their tool inside the
  handling of Ctrl-C;
- no import cycle;
- the TVM wing imports TVM at the top of its modules, never inside a function (the mains
  import the wing where a command needs it: its options live in `usmp_dialect.tvm_options`);
- each folder of the wing imports only the folders `WING` allows it (and the wing's
  top-level modules); nothing of the package imports the test harness (`tests/support/`)
  or the checkout's `tools/`;
- `transforms/` holds passes only, one module a pass, and none imports another: passes
  share helpers through the layers below.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "usmp_dialect"

LAYERS = (
    ("diagnostics", "xdsl_compat"),
    ("planning",),
    ("dialects",),
    ("analysis", "interpreters", "lowering"),
    ("transforms", "formats", "reports"),
    ("universe", "parsing", "pass_options", "pipeline", "tvm_options"),
)
"""The core's layers, lowest first: a module may import its own layer and those below."""

TVM_HALF = "tvm"
MAINS = "tools"
CONSOLE_SCRIPTS = "usmp_dialect.tools.console"
TVM_PACKAGES = ("tvm", "tvm_ffi", "tflite", "tflite_micro", "onnx")
TVM_ITSELF = ("tvm", "tvm_ffi")

WING = {
    "": {"relax"},
    "tvmscript": {"relax"},
    "relax": {"tvmscript"},
    "model_files": {"relax"},
    "c": {"model_files", "relax", "tvmscript"},
    "relax_vm": set(),
    "tflm": set(),
}
"""The TVM wing's folders and the other folders each may import: TVMScript <-> tir and
Relax's lowering to AOT-style TIR lean on each other (a lowered model is emitted and read
back; lookup_params and the runner read the lowering's records); model files are lowered
through Relax; the C library is written from planned TIR, with the model file's
quantization; the Relax VM pass and TFLM's arena plan stand on the core alone. The
top-level modules (`captured_output`, `exact_floats`, `fast_kernels`) any folder may
import; of the folders they import only `relax/` (`fast_kernels` finds Relax nodes)."""
LAZY_THIRD_PARTY = (*TVM_PACKAGES, "numba")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, bool]]:
    """Each module `path` imports, with whether it is imported inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend((alias.name, lazy) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                found.append((child.module, lazy))
                found.extend((f"{child.module}.{alias.name}", lazy) for alias in child.names)
            nested = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, lazy or nested)

    visit(tree, False)
    return found


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
IMPORTS = {
    name: [(target, lazy) for target, lazy in _imports(path)] for name, path in MODULES.items()
}


def _internal(target: str) -> str | None:
    """The project module `target` names (a name imported from a module maps to it)."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


def _top(module: str) -> str:
    """The first package or module under `usmp_dialect` that holds `module`."""
    return module.split(".")[1] if "." in module else ""


def _layer(module: str) -> int | None:
    return next((i for i, tops in enumerate(LAYERS) if _top(module) in tops), None)


def _is_third_party(target: str, packages: tuple[str, ...]) -> bool:
    return target.split(".", maxsplit=1)[0] in packages


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_belongs_to_a_layer(module: str) -> None:
    if module == "usmp_dialect":
        return
    assert _layer(module) is not None or _top(module) in (TVM_HALF, MAINS), (
        f"{module} is in no layer of tests/test_layers.py's LAYERS"
    )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_layers(module: str) -> None:
    layer = _layer(module)
    for target, _ in IMPORTS[module]:
        if _is_third_party(target, TVM_PACKAGES):
            assert _top(module) == TVM_HALF, f"{module} imports {target}: only tvm/ talks to TVM"
        internal = _internal(target)
        if internal is None or internal == "usmp_dialect":
            continue
        assert _top(internal) != MAINS or _top(module) == MAINS, (
            f"{module} imports the console-script main {internal}"
        )
        if layer is None:
            continue
        assert _top(internal) != TVM_HALF, f"core module {module} imports {internal}"
        target_layer = _layer(internal)
        assert target_layer is not None and target_layer <= layer, (
            f"{module} (layer {LAYERS[layer]}) imports {internal}, a layer above"
        )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_lazy_imports_only_keep_tvm_and_numba_out(module: str) -> None:
    for target, lazy in IMPORTS[module]:
        if not lazy or _is_third_party(target, LAZY_THIRD_PARTY):
            continue
        internal = _internal(target)
        if internal is None:
            continue
        keeps_tvm_out = _top(module) == MAINS and _top(internal) == TVM_HALF
        keeps_ir_out = _top(module) == MAINS and _layer(internal) is not None
        keeps_numba_out = _top(internal) == "planning"
        # The console scripts import their tool inside the handling of Ctrl-C: the imports
        # take seconds.
        interruptible = module == CONSOLE_SCRIPTS
        on_demand = module == "usmp_dialect.universe"
        assert keeps_tvm_out or keeps_ir_out or keeps_numba_out or interruptible or on_demand, (
            f"{module} imports {internal} inside a function: import it at the top"
        )


def _defines_a_pass(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ClassDef)
        and any(isinstance(base, ast.Name) and base.id == "ModulePass" for base in node.bases)
        for node in tree.body
    )


PASS_MODULES = {name for name, path in MODULES.items() if _defines_a_pass(path)}


TRANSFORMS = sorted(
    name for name in MODULES if _top(name) == "transforms" and name != "usmp_dialect.transforms"
)


@pytest.mark.parametrize("module", TRANSFORMS)
def test_a_transforms_module_is_a_pass(module: str) -> None:
    assert module in PASS_MODULES, (
        f"{module} defines no ModulePass: what passes share belongs in the layer below"
    )


@pytest.mark.parametrize("module", sorted(PASS_MODULES))
def test_a_pass_imports_no_other_pass_nor_transforms_module(module: str) -> None:
    for target, _ in IMPORTS[module]:
        internal = _internal(target)
        assert internal == module or (
            internal not in PASS_MODULES and internal not in TRANSFORMS
        ), f"pass module {module} imports {internal}: move what they share to the layer below"


def test_no_import_cycle() -> None:
    graph = {
        name: sorted({m for t, _ in targets if (m := _internal(t)) not in (None, name)})
        for name, targets in IMPORTS.items()
    }
    graph = {name: [t for t in targets if t != "usmp_dialect"] for name, targets in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in graph[node]:
            if state.get(target) == 1:
                cycle = [*stack[stack.index(target) :], target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def _wing_folder(module: str) -> str | None:
    """The folder of the TVM wing that holds `module` ("" for a top-level module of it)."""
    parts = module.split(".")
    if len(parts) < 3 or parts[1] != TVM_HALF:
        return None
    return parts[2] if len(parts) > 3 else ("" if parts[2] not in WING else parts[2])


def test_every_folder_of_the_wing_is_in_wing() -> None:
    folders = {path.parent.name for path in (PACKAGE / TVM_HALF).glob("*/__init__.py")}
    assert folders == set(WING) - {""}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _wing_folder(m) is not None))
def test_the_wing_imports_tvm_at_the_top(module: str) -> None:
    for target, lazy in IMPORTS[module]:
        assert not (lazy and _is_third_party(target, TVM_ITSELF)), (
            f"{module} imports {target} inside a function: import TVM at the module's top "
            "(what a main needs before TVM belongs in usmp_dialect.tvm_options)"
        )


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _wing_folder(m) is not None))
def test_the_wing_folders_import_only_what_wing_allows(module: str) -> None:
    folder = _wing_folder(module)
    for target, _ in IMPORTS[module]:
        internal = _internal(target)
        target_folder = None if internal is None else _wing_folder(internal)
        if target_folder in (None, "", folder):
            continue
        assert target_folder in WING[folder or ""], (
            f"{module} ({folder or 'top level'}) imports {internal} ({target_folder}/): "
            "not in tests/test_layers.py's WING"
        )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_the_package_imports_no_test_harness_nor_checkout_tool(module: str) -> None:
    for target, _ in IMPORTS[module]:
        assert target.split(".")[0] not in ("tests", "tools"), (
            f"{module} imports {target}: the harness and tools/ ship outside the package"
        )
