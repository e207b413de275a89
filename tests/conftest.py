"""Settings for the whole suite.

Hypothesis' per-example deadline is a timing assertion; on a loaded 2-core machine it
fails correct code, so it is off everywhere (speed is measured in bench/ instead).
"""

from hypothesis import settings

settings.register_profile("companion", deadline=None, print_blob=True)
settings.load_profile("companion")
