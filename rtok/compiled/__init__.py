"""Generated modules: data from integrations/ and rules/ in a form that loads fast.

Regenerate with `python scripts/compile_data.py`; tests fail when these are out of sync.
"""
