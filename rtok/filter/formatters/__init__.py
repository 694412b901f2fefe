"""Formatters in code: one function per output shape, None when the shape is not theirs."""
