"""The sync daemon: the server that watches a vault and answers over a Unix socket, and the
client that asks it."""
