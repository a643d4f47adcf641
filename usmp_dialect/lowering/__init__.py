"""What the passes that lower a program to usmp IR share: the steps of the lowering itself,
below the passes (`transforms/`, one module a pass, import each other never)."""
