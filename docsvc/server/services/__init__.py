"""The rules of the interface, one module per resource. Routes and admin commands call these."""
