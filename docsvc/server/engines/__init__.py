"""The real work behind the long-running actions: git mirrors, indexing, sync, mail."""
