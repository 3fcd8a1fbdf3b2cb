"""The vault's files: the memory model, the file format, which files are memories, and the
``Vault`` that reads and writes them. Everything above this layer reaches a file through it."""
