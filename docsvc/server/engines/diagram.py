"""Diagram Generator: a description (and text read from an image) to a Mermaid diagram.

Rule-based and pure: ``read`` turns text into statements, ``generate`` chooses the kind and lays
the statements out, ``flowchart_mermaid`` / ``sequence_mermaid`` write the Mermaid text. What is
understood, one statement per list item, line or sentence (prose is also split at "then",
"next", "finally", ...):

- arrows ``A -> B: label``, ``A --> B`` (dashed: a reply), chains ``A -> B -> C``, ``A -->|label| B``;
- messages "A calls B (with X)", "A sends X to B", "B returns Y to A", "A asks B for X",
  "A requests X from B", "A receives X from B"; "... and returns Y" continues with the callee;
- decisions "if COND then X otherwise Y" (also "if COND, X", and "otherwise Y" as the next part);
- anything else is a step; a line ending with ":" is a heading (the first one is the title);
- a numbered list written on one line ("1. a 2. b", "1) a 2) b", "(1) a (2) b") is read as one
  item per number: a line is cut before each marker that continues the count in the same style.

A sequence diagram is chosen when messages and labelled arrows outnumber steps and decisions, or
when the description asks for one; a flowchart otherwise. Every label is written with Mermaid's
entity codes for the characters its grammar gives a meaning to, and every node and participant
gets a generated id, so any text yields a diagram that Mermaid parses.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace

__all__ = ["Diagram", "Step", "Message", "Decision", "read", "generate", "label", "MAX_LABEL", "MAX_STATEMENTS"]

MAX_LABEL = 100  # characters of one node, participant or message label
MAX_STATEMENTS = 200  # a bigger diagram is unreadable; the rest is left out, with a warning

# Characters the flowchart or sequence grammar reads as syntax (or mermaid as a directive, %%{..}%%,
# or as HTML), written as Mermaid's own entity codes so that they show as themselves.
_ENTITIES = {'"': "#quot;", "#": "#35;", ";": "#59;", "%": "#37;", "<": "#lt;", ">": "#gt;", "&": "#amp;",
             "`": "#96;", ":": "#58;", "|": "#124;", "\\": "#92;"}

_ARTICLES = re.compile(r"^(?:the|a|an|our|your|its|their|this|that)\s+", re.I)
_LIST_ITEM = re.compile(r"^(?:\(?\d{1,3}[.):]|\(?[a-zA-Z][.)]|[-*+•·◦‣▪●]|step\s+\d+[.:)]?)\s+", re.I)
# A list marker inside a line ("... 2. next"): a number of one to three digits in the same style as a
# list item's, with space (or the line's start) before it and space after it, so "wait 2 minutes",
# "version 2.5" and "at 10:30" are never markers.
_INLINE_MARKER = re.compile(r"(?:^|(?<=\s))(?P<open>\(?)(?P<n>\d{1,3})(?P<close>[.):])(?=\s)")
_ORDINAL = re.compile(r"^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|finally|lastly|after\s+that|"
                      r"afterwards|to\s+(?:start|begin)|at\s+the\s+end|and)\b[,:]?\s*", re.I)
_STEP_SPLIT = re.compile(r"(?:\s*,\s*|\s+)(?:and\s+then|then|after\s+that|afterwards|next|finally|lastly|"
                         r"and\s+finally)\b,?\s+", re.I)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+")
# Arrows as people type them and as OCR reads them (dashes may come back as en or em dashes).
_ARROW = re.compile(r"\s*(-{1,3}>{1,2}|={1,2}>|[—–]+>{1,2}|-»|[→⟶➔➜⇒])\s*")
_PIPE_LABEL = re.compile(r"^\|([^|]*)\|\s*")
_DECISION = re.compile(
    r"^(?:if|when|in\s+case|whether)\s+(?P<cond>.+?)(?:\s*,\s*then\s+|\s+then\s+|\s*,\s*|\s*:\s*)(?P<then>.+?)"
    r"(?:\s*[,;]?\s*\b(?:otherwise|else|if\s+not)\b,?\s*(?P<otherwise>.+))?$", re.I)
_IF_ONLY = re.compile(r"^(?:if|when|in\s+case|whether)\s+(?P<cond>.+)$", re.I)
_OTHERWISE = re.compile(r"^(?:otherwise|else|if\s+not)\b,?\s*(?P<rest>.+)$", re.I)
_HEADING_KIND = re.compile(r"^(?:an?\s+|the\s+)?(?P<kind>sequence\s+diagram|flow\s*chart|diagram)\b\s*(?:of|for|:)?\s*",
                           re.I)
_AND_SPLIT = re.compile(r",?\s+and\s+(?=(?:then\s+)?(?:returns?|sends?|calls?|replies|responds|answers|passes|"
                        r"forwards|asks|requests)\b)", re.I)

_COMMA_AND = re.compile(r",\s+and\s+", re.I)
_N = r"(?P<{0}>[^,;:]{{1,60}}?)"
_A, _B, _X = _N.format("a"), _N.format("b"), r"(?P<x>.+?)"
_SEND = r"sends?|pass(?:es)?|forwards?|posts?|submits?|publish(?:es)?|writes?|emits?|uploads?|pushes"
_CALL = r"calls?|invokes?|quer(?:y|ies)|contacts?|notif(?:y|ies)|pings?|messages|triggers?|hits?"
_REPLY = r"returns?|sends?\s+back|gives?\s+back|hands?\s+back"
# (pattern, whether it is a reply, which group sends, which receives); a missing sender means "the
# callee of the last message", a missing receiver "the sender of the last message".
_MESSAGES: list[tuple[re.Pattern, bool]] = [(re.compile(p, re.I), reply) for p, reply in [
    (rf"^{_A}\s+(?:{_REPLY})\s+{_X}\s+to\s+{_B}$", True),
    (rf"^{_A}\s+(?:responds?|repl(?:y|ies)|answers?)\s+to\s+{_B}(?:\s+with\s+{_X})?$", True),
    (rf"^{_A}\s+(?:responds?|repl(?:y|ies)|answers?)\s+with\s+{_X}(?:\s+to\s+{_B})?$", True),
    (rf"^(?:{_REPLY})\s+{_X}(?:\s+to\s+{_B})?$", True),
    (rf"^(?:responds?|repl(?:y|ies)|answers?)(?:\s+to\s+{_B})?(?:\s+with\s+{_X})?$", True),
    (rf"^{_A}\s+(?:{_REPLY})\s+{_X}$", True),
    (rf"^{_A}\s+(?:{_SEND})\s+{_X}\s+to\s+{_B}$", False),
    (rf"^{_A}\s+asks?\s+{_B}\s+(?:for|to)\s+{_X}$", False),
    (rf"^{_A}\s+(?:requests?|fetch(?:es)?|gets?|loads?|reads?|pulls?)\s+{_X}\s+from\s+{_B}$", False),
    (rf"^{_B}\s+(?:receives?)\s+{_X}\s+from\s+{_A}$", False),
    (rf"^{_A}\s+(?:{_CALL})\s+{_B}(?:\s+(?:with|for|to|using|passing|about)\s+{_X})?$", False),
]]


@dataclass
class Step:
    text: str


@dataclass
class Message:
    sender: str | None  # None: the callee of the previous message
    receiver: str | None  # None: the sender of the previous message
    text: str
    reply: bool = False
    pipe: bool = False  # labelled the flowchart way, A -->|label| B: an edge, not a message


@dataclass
class Decision:
    condition: str
    then: Step | Message | None = None
    otherwise: Step | Message | None = None


Statement = Step | Message | Decision


@dataclass
class Reading:
    """What ``read`` found in one text: its statements, a title (its first heading) and the kind
    it asks for by name, if any."""

    statements: list[Statement] = field(default_factory=list)
    title: str | None = None
    asked: str | None = None  # "flowchart" | "sequence"
    first: str | None = None  # the first sentence, the title when there is no heading


@dataclass
class Diagram:
    kind: str  # "flowchart" | "sequence"
    mermaid: str
    title: str
    reason: str  # the rule that chose the kind, for the people reading the result
    warnings: list[str] = field(default_factory=list)


# -- reading ---------------------------------------------------------------------------------


def clean(text: str) -> str:
    """One line: control characters out, whitespace collapsed. Format characters (zero-width
    joiners of emoji, bidi marks) stay: Mermaid shows them as the text does."""
    text = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text)
    return " ".join(text.split())


def _name(raw: str | None) -> str | None:
    """A participant's name, or None when the words look more like a clause than a name."""
    if raw is None:
        return None
    name = _ARTICLES.sub("", clean(raw).strip(" .,"))
    if len(name) > 2 and name[0] == name[-1] and name[0] in "\"'":
        name = name[1:-1].strip()  # "Payment API" quoted as a name
    if not name or len(name.split()) > 5 or _IF_ONLY.match(name):
        return None
    return name[:1].upper() + name[1:]


def _message(text: str) -> Message | None:
    for pattern, reply in _MESSAGES:
        match = pattern.match(text)
        if not match:
            continue
        groups = match.groupdict()
        sender, receiver = _name(groups.get("a")), _name(groups.get("b"))
        if (groups.get("a") and not sender) or (groups.get("b") and not receiver):
            continue  # a "name" of many words: some other sentence shape
        words = text.split()
        verb = next((w for w in words if w.lower() not in ((groups.get("a") or "").lower().split())), words[0])
        return Message(sender, receiver, clean(groups.get("x") or "") or verb.lower(), reply)
    return None


def _arrows(line: str) -> list[Message] | None:
    """``A -> B: label`` and chains as messages (dashed arrows are replies), or None."""
    parts = _ARROW.split(line)
    if len(parts) < 3:
        return None
    names, arrows = parts[0::2], parts[1::2]
    label = ""
    if ":" in names[-1]:
        names[-1], label = (s.strip() for s in names[-1].split(":", 1))
    edges, pipe_labels = [], []
    for i, name in enumerate(names):
        pipe = _PIPE_LABEL.match(name) if i else None
        pipe_labels.append(pipe.group(1).strip() if pipe else "")
        names[i] = name[pipe.end():] if pipe else name
    clean_names = [_name(n) or clean(n) for n in names]
    if any(not n for n in clean_names):
        return None
    for i, arrow in enumerate(arrows):
        text = pipe_labels[i + 1] or (label if i == len(arrows) - 1 else "")
        edges.append(Message(clean_names[i], clean_names[i + 1], clean(text), reply=arrow.startswith("--"),
                             pipe=bool(pipe_labels[i + 1])))
    return edges


def _classify(text: str) -> Statement:
    text = _ORDINAL.sub("", text).strip(" .!;")
    return _message(text) or Step(text)


def _clauses(sentence: str) -> list[str]:
    """A sentence cut at "then", "next", "finally", ... with an "if" clause kept whole."""
    parts = [p for p in _STEP_SPLIT.split(sentence) if p.strip()]
    merged: list[str] = []
    for part in parts:
        if merged and _IF_ONLY.match(merged[-1]) and not _DECISION.match(merged[-1]):
            merged[-1] = f"{merged[-1]} then {part}"
        else:
            merged.append(part)
    out: list[str] = []
    for part in merged:
        out.extend(p for p in _AND_SPLIT.split(part) if p.strip())
    return _split_at_and(out)


def _split_at_and(parts: list[str]) -> list[str]:
    """", and" joins two clauses when what follows is a message of its own ("A calls B, and B
    replies to A with X"); otherwise it is part of one step ("adds bread, milk, and eggs")."""
    out: list[str] = []
    for part in parts:
        pieces = _COMMA_AND.split(part)
        current = pieces[0]
        for piece in pieces[1:]:
            if _message(_ORDINAL.sub("", piece).strip(" .!;")):
                out.append(current)
                current = piece
            else:
                current = f"{current}, and {piece}"
        out.append(current)
    return out


def _inline_items(line: str) -> list[str]:
    """``line`` cut before each list marker of a numbered list written on one line.

    A run of markers counts on by one in one style ("1." "2." "3.", or "1)" "2)"); it begins at the
    line's start (any number: the list may go on from the line before) or with "1" inside the line
    ("Release: 1. tag 2. push"). A lone marker cuts nothing: "1. wait 2 minutes" is one step, and
    in "1. a 3. b" the 3 does not continue the count."""
    marks = list(_INLINE_MARKER.finditer(line))
    for i, first in enumerate(marks):
        if first.start() and first.group("n") != "1":
            continue
        run, expected = [first], int(first.group("n")) + 1
        for mark in marks[i + 1:]:
            if (int(mark.group("n")) == expected and mark.group("open") == first.group("open")
                    and mark.group("close") == first.group("close")):
                run.append(mark)
                expected += 1
        if len(run) < 2:
            continue  # an ordinary list item (or a lone "1."): a later "1" may still start a run
        cuts = [0] + [m.start() for m in run] + [len(line)]
        return [piece for a, b in zip(cuts, cuts[1:]) if (piece := line[a:b].strip())]
    return [line]


def read(text: str) -> Reading:
    """Statements in the order written, with the title and any kind asked for by name."""
    reading = Reading()
    lines = (item for raw_line in (text or "").splitlines() for item in _inline_items(clean(raw_line)))
    for line in lines:
        listed = _LIST_ITEM.match(line)
        if listed:
            line = line[listed.end():]
        kind = _HEADING_KIND.match(line)
        if kind:
            reading.asked = reading.asked or ("sequence" if kind.group("kind").lower().startswith("seq") else
                                              "flowchart" if "flow" in kind.group("kind").lower() else None)
            line = line[kind.end():] if not _ARROW.search(line) else line
        if sum(ch.isalnum() for ch in line) < 2:
            continue  # nothing to draw (and what OCR makes of a stray line or box edge)
        if line.endswith(":") and not _ARROW.search(line):
            reading.title = reading.title or line.rstrip(": ")
            continue
        edges = _arrows(line)
        reading.first = reading.first or _SENTENCE_SPLIT.split(line)[0].strip()
        if edges:
            reading.statements.extend(edges)
            continue
        for sentence in _SENTENCE_SPLIT.split(line):
            for clause in _clauses(sentence.strip(" .!;")):
                _add(reading.statements, clause.strip())
    return reading


def _add(statements: list[Statement], clause: str) -> None:
    clause = _ORDINAL.sub("", clause).strip(" .!;")
    if sum(ch.isalnum() for ch in clause) < 2:
        return
    otherwise = _OTHERWISE.match(clause)
    previous = statements[-1] if statements else None
    if otherwise and isinstance(previous, Decision) and previous.otherwise is None:
        previous.otherwise = _classify(otherwise.group("rest"))
        return
    decision = _DECISION.match(clause)
    if decision:
        statements.append(Decision(clean(decision.group("cond")), _classify(decision.group("then")),
                                   _classify(decision.group("otherwise")) if decision.group("otherwise") else None))
        return
    only_if = _IF_ONLY.match(clause)
    if only_if:
        statements.append(Decision(clean(only_if.group("cond"))))
        return
    statements.append(_classify(clause))


# -- choosing and laying out -------------------------------------------------------------------


def label(text: str, warnings: list[str] | None = None) -> str:
    """``text`` as a Mermaid label: one line, at most ``MAX_LABEL`` characters, and every
    character that Mermaid reads as syntax written as its entity code."""
    text = clean(text)
    if len(text) > MAX_LABEL:
        if warnings is not None and not any(w.startswith("labels longer") for w in warnings):
            warnings.append(f"labels longer than {MAX_LABEL} characters were shortened")
        text = text[:MAX_LABEL - 1].rstrip() + "…"
    return "".join(_ENTITIES.get(ch, ch) for ch in text)


def _branch_text(branch: Step | Message) -> str:
    if isinstance(branch, Step):
        return branch.text
    return " ".join(p for p in (branch.sender, branch.text, "to " + branch.receiver if branch.receiver else None) if p)


def _resolve(statements: list[Statement]) -> list[Statement]:
    """Messages with their sender and receiver filled in from the one before (a reply goes back
    to whoever sent the last message to the replier)."""
    last: Message | None = None
    out: list[Statement] = []

    def fix(message: Message) -> Message:
        nonlocal last
        sender = message.sender or (last.receiver if last else None)
        receiver = message.receiver or (last.sender if last and last.sender != sender else None)
        if message.reply and message.receiver is None and last is not None:
            receiver = last.sender if last.receiver == sender else last.receiver
        fixed = replace(message, sender=sender or "Caller", receiver=receiver or sender or "Caller")
        last = fixed
        return fixed

    for st in statements:
        if isinstance(st, Message):
            out.append(fix(st))
        elif isinstance(st, Decision):
            then = fix(st.then) if isinstance(st.then, Message) else st.then
            other = fix(st.otherwise) if isinstance(st.otherwise, Message) else st.otherwise
            out.append(Decision(st.condition, then, other))
        else:
            out.append(st)
    return out


def _counts(statements: list[Statement]) -> tuple[int, int, int]:
    """(messages with a label, flowchart edges (arrows without a label or with ``|label|``), steps
    and decisions). A decision whose branches are messages counts as those messages."""
    labelled = plain = steps = 0
    for st in statements:
        branches = [b for b in (getattr(st, "then", None), getattr(st, "otherwise", None)) if isinstance(b, Message)]
        if isinstance(st, Message):
            labelled += bool(st.text) and not st.pipe
            plain += not st.text or st.pipe
        elif branches:
            labelled += len(branches)
        else:
            steps += 1
    return labelled, plain, steps


def flowchart_mermaid(statements: list[Statement], direction: str, warnings: list[str]) -> str:
    """Steps chained in order, decisions as diamonds with yes/no branches that meet again at the
    next step, and messages/arrows as edges between nodes named after their ends."""
    lines = [f"flowchart {direction}"]
    ids: dict[str, str] = {}
    edges: list[tuple[str, str, str]] = []

    def node(text: str, shape: str = "step") -> str:
        key = clean(text).casefold()
        if key not in ids:
            ids[key] = f"n{len(ids) + 1}"
            open_, close = ("{", "}") if shape == "decision" else ("[", "]")
            text = clean(text)
            lines.append(f'    {ids[key]}{open_}"{label(text[:1].upper() + text[1:], warnings)}"{close}')
        return ids[key]

    def edge(a: str, b: str, text: str = "") -> None:
        if (a, b, text) not in edges:
            edges.append((a, b, text))

    loose: list[tuple[str, str]] = []  # (node id, label) of the ends that the next step continues from

    def step(text: str) -> str:
        n = node(text)
        for end, text_ in loose:
            edge(end, n, text_)
        return n

    for st in statements:
        if isinstance(st, Step):
            loose = [(step(st.text), "")]
        elif isinstance(st, Decision):
            d = node(st.condition.rstrip("?") + "?", "decision")
            for end, text_ in loose:
                edge(end, d, text_)
            if st.then is None and st.otherwise is None:
                loose = [(d, "")]
                continue
            loose = []
            for branch, answer in ((st.then, "yes"), (st.otherwise, "no")):
                if branch is None:
                    loose.append((d, answer))  # the next step is this answer's way on
                    continue
                b = node(_branch_text(branch))
                edge(d, b, answer)
                loose.append((b, ""))
        else:
            a, b = node(st.sender), node(st.receiver)
            edge(a, b, st.text)  # "-->" is Mermaid's own plain flowchart arrow: no dashed edges here
            loose = [(b, "")]
    for a, b, text in edges:
        lines.append(f'    {a} -->|"{label(text, warnings)}"| {b}' if text else f"    {a} --> {b}")
    return "\n".join(lines) + "\n"


def sequence_mermaid(statements: list[Statement], warnings: list[str]) -> str:
    """Participants in order of appearance, messages (replies dashed), steps as notes over whoever
    acts at that point, decisions as ``alt``/``else`` blocks."""
    participants: dict[str, str] = {}
    names: dict[str, str] = {}
    for st in statements:
        for m in (st, getattr(st, "then", None), getattr(st, "otherwise", None)):
            if isinstance(m, Message):
                for who in (m.sender, m.receiver):
                    key = who.casefold()
                    if key not in participants:
                        participants[key] = f"p{len(participants) + 1}"
                        names[key] = who
    lines = ["sequenceDiagram"]
    lines += [f"    participant {pid} as {label(names[key], warnings)}" for key, pid in participants.items()]
    current = next(iter(participants.values()))

    def emit(st: Step | Message, indent: str) -> None:
        nonlocal current
        if isinstance(st, Message):
            a, b = participants[st.sender.casefold()], participants[st.receiver.casefold()]
            lines.append(f"{indent}{a}{'-->>' if st.reply else '->>'}{b}: {label(st.text, warnings) or ' '}")
            current = b
        else:
            lines.append(f"{indent}Note over {current}: {label(st.text, warnings)}")

    for st in statements:
        if isinstance(st, Decision):
            lines.append(f"    alt {label(st.condition, warnings)}")
            if st.then is not None:
                emit(st.then, "        ")
            lines.append("    else otherwise")
            if st.otherwise is not None:
                emit(st.otherwise, "        ")
            lines.append("    end")
        else:
            emit(st, "    ")
    return "\n".join(lines) + "\n"


def _title(text: str) -> str:
    text = clean(text).rstrip(" .:")
    return text if len(text) <= 80 else text[:79].rstrip() + "…"


def generate(description: str, ocr_text: str = "") -> Diagram:
    """The diagram for ``description`` combined with text read from an image (``ocr_text``).

    Raises ValueError when neither holds anything to draw."""
    described, seen = read(description), read(ocr_text)
    warnings: list[str] = []
    statements = list(described.statements)
    title = described.title
    if seen.statements:
        # One plain sentence beside an image names the picture; the picture holds the diagram.
        if len(statements) == 1 and isinstance(statements[0], Step):
            title = title or statements[0].text
            statements = []
        statements += seen.statements
    if not statements:
        raise ValueError("nothing to draw: no steps, arrows or messages were found")
    if len(statements) > MAX_STATEMENTS:
        warnings.append(f"only the first {MAX_STATEMENTS} of {len(statements)} statements were drawn")
        statements = statements[:MAX_STATEMENTS]
    statements = _resolve(statements)
    title = _title(title or described.first or seen.title or seen.first or "Diagram")
    labelled, plain, steps = _counts(statements)
    asked = described.asked or seen.asked
    messages = labelled + plain
    if asked == "sequence" and messages:
        kind, reason = "sequence", "a sequence diagram, as the description asks"
    elif asked == "flowchart":
        kind, reason = "flowchart", "a flowchart, as the description asks"
    elif labelled > steps + plain:
        kind = "sequence"
        reason = (f"a sequence diagram: {labelled} message(s) between participants (\"A calls B\", "
                  f"\"A -> B: label\") outnumber {steps} step(s) and decision(s) and {plain} plain edge(s)")
    else:
        kind = "flowchart"
        reason = (f"a flowchart: {steps} step(s) and decision(s) and {plain} plain edge(s) (A -> B, "
                  f"A -->|label| B) against {labelled} message(s)")
    if asked == "sequence" and kind != "sequence":
        warnings.append("a sequence diagram was asked for, but no messages were found (\"A calls B\", "
                        "\"A -> B: label\"); drew a flowchart")
    if kind == "sequence":
        mermaid = sequence_mermaid(statements, warnings)
    else:
        wide = re.search(r"\b(?:left\s+to\s+right|horizontal(?:ly)?)\b", description or "", re.I)
        direction = "LR" if wide or (steps == 0 and messages) else "TD"
        mermaid = flowchart_mermaid(statements, direction, warnings)
        if len(statements) == 1 and isinstance(statements[0], Step):
            warnings.append("only one step was found; list the steps (1. ..., 2. ...), write them as prose "
                            "(first ..., then ...) or draw arrows (A -> B) for a fuller diagram")
    return Diagram(kind, mermaid, title, reason, warnings)
