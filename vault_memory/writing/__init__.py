"""Write-time rules: how a new memory joins the vault (reconfirm, supersede, persona cap)."""
