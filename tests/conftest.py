"""Suite-wide settings."""

import os

# A computer player that crashes or answers an illegal move fails the test instead of being
# replaced by a fallback move (session/computer.py). Set before any session module is imported;
# e2e bot processes inherit it through the environment.
os.environ["STOLIK_STRICT_BOTS"] = "1"
