"""The structures of a docs page the Writer edits, one module each, behind one interface
(``base.Structure``), in the order the Writer hands them a fact."""

from __future__ import annotations

from .base import Draft, Page, Structure
from .contents import Contents
from .expected_output import ExpectedOutput
from .function_sections import FunctionSections
from .generated import GeneratedReference
from .help_blocks import HelpBlocks
from .included_lines import IncludedLines
from .mentions import Mentions
from .option_examples import OptionExamples
from .parameter_items import ParameterItems
from .reference_entries import ReferenceEntries
from .removals import Removals
from .rendered_entries import RenderedEntries
from .repository_links import RepositoryLinks
from .requirements import Requirements
from .siblings import Siblings
from .signatures import Signatures
from .table_rows import TableRows
from .version_marks import DeprecationMarks
from .version_output import VersionOutput

__all__ = ["Draft", "Page", "Structure", "STRUCTURES"]

_ENTRIES = ReferenceEntries()

STRUCTURES: tuple[Structure, ...] = (
    Mentions(),
    Signatures(),  # the calls that pass a dropped parameter, line by line; then its mentions
    ParameterItems(),  # its item in a list of its function's parameters
    Removals(),
    RenderedEntries(),  # its own line where the page renders its nearest sibling by its import path; else
    GeneratedReference(),  # a page the docs build makes from the code: no entry by hand; else
    _ENTRIES,  # a section of its own, where each sibling has one; else
    FunctionSections(),  # a new function's section, where each sibling function's section introduces it; else
    OptionExamples(),  # a new option's example after its nearest sibling's, where no entry of theirs stands; else
    Siblings(shapers=(TableRows(), _ENTRIES)),  # a row, item, directive or option entry beside them
    Contents(),  # then the entry's link in the page's table of contents
    HelpBlocks(),
    DeprecationMarks(),
    Requirements(),
    VersionOutput(),
    RepositoryLinks(),
    ExpectedOutput(),
    IncludedLines(),
)
