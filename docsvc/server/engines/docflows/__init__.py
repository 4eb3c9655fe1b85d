"""Docflows' stages, each pure text work: facts from a code change (``facts``), the pages to
change (``planner``, the Information Architect, with one module a kind of evidence in ``evidence/``),
the edits (``writer``, one module a page structure in ``structures/``), their review
(``editor``), the draft's bookkeeping (``drafts``), checks against the docs as they are now
(``compare``) and a reviewer's feedback applied (``feedback``). The job handlers in
``server/tasks`` feed them repositories and save what they return."""
