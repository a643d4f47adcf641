"""Model functions for --import-relax that raise what is not an Exception: each must be
one diagnostic at its line (tests/test_bad_inputs.py)."""


class Stop(BaseException):
    pass


def keyboard_interrupt():
    raise KeyboardInterrupt


def base_exception():
    raise Stop("the model gave up")


def system_exit():
    raise SystemExit(3)
