"""The derived indexes: catalog (SQLite), keyword (Whoosh), vectors (hnswlib), the embedder
that fills them, the generations they live in, snapshots for readers and the sync that
keeps them in step with the files. Everything here can be deleted and rebuilt."""
