"""The planner's evidence, one module a kind (``planner`` says which), over what they share: the
docs pages (``pages``), how a page speaks of a term (``docs``) and the plan they add to (``model``)."""
