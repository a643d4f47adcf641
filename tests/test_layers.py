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
    ("universe", "parsing", "pipeline"),
)
"""The core's layers, lowest first: a module may import its own layer and those below."""

TVM_HALF = "tvm"
MAINS = "tools"
CONSOLE_SCRIPTS = "usmp_dialect.tools.console"
TVM_PACKAGES = ("tvm", "tvm_ffi", "tflite", "tflite_micro", "onnx")
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
