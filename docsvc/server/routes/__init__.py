"""Thin routers, one per resource: parse, call a service, shape the answer."""
