"""Pydantic wire models, one module per resource, shared by the client and the local service.

Every model keeps fields it does not know (the hosted service may send more), and every field
the interface leaves "not shown" is optional. Import the module you need
(``from docsvc.models.items import Item``); this package imports nothing eagerly so that
commands pay only for the models they use.
"""
