// a lone surrogate, UTF-8 encoded (invalid UTF-8): one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @p workspace {s = "í €"}
