"""Lifecycle rules (pure): which memories may reach the prompt, and how much they weigh."""
