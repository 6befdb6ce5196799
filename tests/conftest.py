"""Suite-wide test settings.

Hypothesis: no per-example deadline. The properties check behaviour, not
speed (timing has its own generous test in test_hostile.py), and a loaded CI
machine must not turn a slow example into a failure.
"""

from hypothesis import settings

settings.register_profile("termscribe", deadline=None)
settings.load_profile("termscribe")
