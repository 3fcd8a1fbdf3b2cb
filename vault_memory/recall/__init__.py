"""Recall: from a question to ranked memories (engine, ranking) and from those to text for a
prompt (render)."""
