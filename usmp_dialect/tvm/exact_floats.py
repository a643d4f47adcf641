"""Float constants in TVM's C exactly: TVM 0.27's C code generator prints a constant with
7 significant digits (`2.352941e-02f`), another float than the TIR's and LLVM's, so that
a quantize's scale rounds values one step apart. Before the code generator each finite
constant becomes a call `usmp_exact_float_<bits>_<hex>()` carrying its bits; in the C it
wrote, each such call becomes a literal of every digit. Both C paths use it: the C library
(`usmp-translate --emit-c`) and TVM's build for target `c` (`runtime.build`)."""

from __future__ import annotations

import math
import re
import struct
from typing import Any

import tvm_ffi
from tvm import tirx

_EXACT_FLOAT = "usmp_exact_float"
_EXACT_FLOAT_CALL = re.compile(rf"\b{_EXACT_FLOAT}_(32|64)_([0-9a-f]+)\(\)")
_DECLARATION = re.compile(
    rf'^(?:#ifdef __cplusplus\nextern "C"\n#endif\n)?TVM_DLL \w+ {_EXACT_FLOAT}_\w+\(\);\n',
    re.MULTILINE,
)
_C_FLOAT = {"float32": ("<f", "<I", 32), "float64": ("<d", "<Q", 64)}


def exact_float_placeholders(func: Any) -> Any:
    """The TIR PrimFunc `func` with each finite float constant a placeholder call, which
    `exact_floats` writes back as a literal in the C of it."""

    def placeholder(imm: Any) -> Any:
        dtype = str(imm.ty.dtype)
        # TVM's spellings of an infinity or a NaN are exact.
        if dtype not in _C_FLOAT or not math.isfinite(imm.value):
            return imm
        float_format, int_format, bits = _C_FLOAT[dtype]
        pattern = struct.unpack(int_format, struct.pack(float_format, imm.value))[0]
        return tirx.call_pure_extern(dtype, f"{_EXACT_FLOAT}_{bits}_{pattern:x}")

    return func.with_body(tvm_ffi.structural_map(func.body, (tirx.FloatImm, placeholder)))


def exact_floats(source: str) -> str:
    """The C `source` with the placeholders of `exact_float_placeholders` made literals that
    round-trip (9 significant digits for a float, 17 for a double)."""

    def literal(match: re.Match[str]) -> str:
        bits, pattern = int(match[1]), int(match[2], 16)
        float_format, int_format, _ = _C_FLOAT[f"float{bits}"]
        value = struct.unpack(float_format, struct.pack(int_format, pattern))[0]
        return f"{value:.8e}f" if bits == 32 else f"{value:.16e}"

    return _EXACT_FLOAT_CALL.sub(literal, _DECLARATION.sub("", source))
