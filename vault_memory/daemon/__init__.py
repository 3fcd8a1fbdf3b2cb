"""The sync daemon: the server that watches a vault and answers over a Unix socket
(``server``: events, syncs, the requests' meaning; ``socket_server``: the socket and its
bounds on each client)."""
