"""Format-preserving editors: rtok inserts and removes its own bytes, nothing else.

See README.md for the API. Modules: ``jsonc`` (JSON/JSONC), ``tomltext`` (TOML),
``yamltext`` (YAML), ``markdown`` (marked blocks and ``@`` reference lines).
"""

from rtok.formats.errors import FormatError

__all__ = ["FormatError"]
