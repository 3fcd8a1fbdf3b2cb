"""Write-time rules (``rules``): how a memory joins, changes in or leaves the vault
(reconfirm, supersede, persona cap, correct, confirm, collect)."""
