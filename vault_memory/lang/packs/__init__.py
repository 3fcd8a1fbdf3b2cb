"""The language packs that ship with vmem: one module each, data only (``lang.pack.Pack``)."""
