"""`xdsl-opt` with the builtin and usmp dialects only, and no pass: what a context that
loads the `usmp` dialect and nothing else of this package verifies."""

import sys

from xdsl.dialects.builtin import Builtin
from xdsl.xdsl_opt_main import xDSLOptMain

from usmp_dialect.dialects.usmp import USMP


class OnlyUsmpDialect(xDSLOptMain):
    def register_all_dialects(self) -> None:
        self.ctx.load_dialect(Builtin)
        self.ctx.load_dialect(USMP)

    def register_all_passes(self) -> None:
        pass


if __name__ == "__main__":
    sys.exit(OnlyUsmpDialect().run())
