"""docsvc: API client, CLI and CI toolkit for the Documentation Operations Service.

The import package stays light on purpose: `import docsvc` pulls in nothing but the
version, so `docsvc --help` starts fast.
"""

__version__ = "1.2.0"

__all__ = ["__version__"]
