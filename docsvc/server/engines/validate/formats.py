"""Format checks matching ajv-formats' "full" mode (the formats Redocly's example rules use).

Regular expressions transcribed from ajv-formats (MIT, https://github.com/ajv-validator/ajv-formats),
``dist/formats.js`` ``fullFormats``; the date/time/uri/byte/int/regex functions are ported below.
"""

from __future__ import annotations

import re

_REGEX_SOURCES: dict[str, tuple[str, str]] = {
    'duration': ('^P(?!$)((\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?|(\\d+W)?)$', ''),
    'uri-reference': ('^(?:[a-z][a-z0-9+\\-.]*:)?(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&\'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&\'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&\'"()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\\?(?:[a-z0-9\\-._~!$&\'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&\'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$', 'i'),
    'uri-template': ('^(?:(?:[^\\x00-\\x20"\'<>%\\\\^`{|}]|%[0-9a-f]{2})|\\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\\*)?)*\\})*$', 'i'),
    'url': ('^(?:https?|ftp):\\/\\/(?:\\S+(?::\\S*)?@)?(?:(?!(?:10|127)(?:\\.\\d{1,3}){3})(?!(?:169\\.254|192\\.168)(?:\\.\\d{1,3}){2})(?!172\\.(?:1[6-9]|2\\d|3[0-1])(?:\\.\\d{1,3}){2})(?:[1-9]\\d?|1\\d\\d|2[01]\\d|22[0-3])(?:\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])){2}(?:\\.(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4]))|(?:(?:[a-z0-9\\u00a1-\\uffff]+-)*[a-z0-9\\u00a1-\\uffff]+)(?:\\.(?:[a-z0-9\\u00a1-\\uffff]+-)*[a-z0-9\\u00a1-\\uffff]+)*(?:\\.(?:[a-z\\u00a1-\\uffff]{2,})))(?::\\d{2,5})?(?:\\/[^\\s]*)?$', 'iu'),
    'email': ("^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$", 'i'),
    'hostname': ('^(?=.{1,253}\\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?$', 'i'),
    'ipv4': ('^(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$', ''),
    'ipv6': ('^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:)))$', 'i'),
    'uuid': ('^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$', 'i'),
    'json-pointer': ('^(?:\\/(?:[^~/]|~0|~1)*)*$', ''),
    'json-pointer-uri-fragment': ("^#(?:\\/(?:[a-z0-9_\\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$", 'i'),
    'relative-json-pointer': ('^(?:0|[1-9][0-9]*)(?:#|(?:\\/(?:[^~/]|~0|~1)*)*)$', ''),
}
_URI_SOURCE = "^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$"


def _searcher(source: str, flags: str):
    """``lambda s: the pattern finds a match in s``, compiled on first use: compiling all of these
    long patterns at import cost every lint ~70 ms, and most documents use one or two formats."""
    compiled: list[re.Pattern] = []

    def search(s: str) -> bool:
        if not compiled:
            compiled.append(re.compile(source, re.IGNORECASE if "i" in flags else 0))
        return compiled[0].search(s) is not None
    return search


_URI = _searcher(_URI_SOURCE, "i")
_NOT_URI_FRAGMENT = re.compile(r"/|:")
_DATE = re.compile(r"^(\d\d\d\d)-(\d\d)-(\d\d)$")
_TIME = re.compile(r"^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$", re.IGNORECASE)
_DATE_TIME_SEPARATOR = re.compile(r"t|\s", re.IGNORECASE)
_BYTE = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$", re.MULTILINE)
_Z_ANCHOR = re.compile(r"[^\\]\\Z")
_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _date(s: str) -> bool:
    m = _DATE.match(s)
    if not m:
        return False
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    return 1 <= month <= 12 and 1 <= day <= (29 if month == 2 and _leap(year) else _DAYS[month])


def _time(strict_tz: bool):
    def check(s: str) -> bool:
        m = _TIME.match(s)
        if not m:
            return False
        hr, mn, sec = int(m.group(1)), int(m.group(2)), float(m.group(3))
        tz = m.group(4)
        sign = -1 if m.group(5) == "-" else 1
        tzh, tzm = int(m.group(6) or 0), int(m.group(7) or 0)
        if tzh > 23 or tzm > 59 or (strict_tz and not tz):
            return False
        if hr <= 23 and mn <= 59 and sec < 60:
            return True
        utc_min = mn - tzm * sign
        utc_hr = hr - tzh * sign - (1 if utc_min < 0 else 0)
        return utc_hr in (23, -1) and utc_min in (59, -1) and sec < 61
    return check


def _date_time(strict_tz: bool):
    time = _time(strict_tz)

    def check(s: str) -> bool:
        parts = _DATE_TIME_SEPARATOR.split(s)
        return len(parts) == 2 and _date(parts[0]) and time(parts[1])
    return check


def _uri(s: str) -> bool:
    return bool(_NOT_URI_FRAGMENT.search(s)) and _URI(s)  # _URI_SOURCE starts with ^: search is match


def _byte(s: str) -> bool:
    return bool(_BYTE.search(s))


def _regex(s: str) -> bool:
    if _Z_ANCHOR.search(s):
        return False
    try:
        re.compile(s)
        return True
    except (re.error, RecursionError, OverflowError):
        return False


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) or (isinstance(v, float) and v.is_integer())


# name -> (applies to "string" | "number", check)
FORMATS: dict[str, tuple[str, object]] = {
    "date": ("string", _date),
    "time": ("string", _time(True)),
    "date-time": ("string", _date_time(True)),
    "iso-time": ("string", _time(False)),
    "iso-date-time": ("string", _date_time(False)),
    "uri": ("string", _uri),
    "regex": ("string", _regex),
    "byte": ("string", _byte),
    "int32": ("number", lambda v: _is_int(v) and -(2 ** 31) <= v <= 2 ** 31 - 1),
    "int64": ("number", _is_int),
    "float": ("number", lambda v: True),
    "double": ("number", lambda v: True),
    "password": ("string", lambda v: True),
    "binary": ("string", lambda v: True),
}
for _name, (_source, _flags) in _REGEX_SOURCES.items():
    FORMATS[_name] = ("string", _searcher(_source, _flags))


try:
    import regex as _regex_module
except ImportError:  # optional: without it, patterns with \\p{..} classes are not checked in examples
    _regex_module = None

_UNICODE_CLASS = re.compile(r"\\[pP]\{[A-Za-z_=]+\}|\\[pP][A-Z]")
_CLASS_RANGE = re.compile(r"(\\[dDwWsS])-")
_LOOSE_ESCAPE = re.compile(r"\\(x)(?![0-9a-fA-F]{2})|\\(u)(?![0-9a-fA-F]{4})")


def js_regex(source: str):
    """Compile a JavaScript pattern: with ``regex`` (which knows ``\\p{L}``-style classes, as Ajv's
    ``u`` flag does) when it is installed, else ``re``; as written first, then with JavaScript's
    leniencies smoothed (``[\\d-_]`` is a literal hyphen, ``\\x{60}`` is "x{60}"). Returns a compiled
    pattern (``.search``), or None when it does not compile."""
    lenient = _LOOSE_ESCAPE.sub(lambda m: m.group(1) or m.group(2), _CLASS_RANGE.sub(r"\1\\-", source))
    engines = [_regex_module] if _regex_module is not None else []
    engines.append(re)
    for engine in engines:
        for candidate in (source, lenient):
            if engine is re and _UNICODE_CLASS.search(candidate):
                continue  # re has no \\p{..}: better no check than a wrong one
            try:
                return engine.compile(candidate)
            except Exception:  # re.error / regex.error, RecursionError, OverflowError
                continue
    return None


def js_regex_valid(source: str) -> bool:
    """Whether a pattern compiles (the ``regex`` format), accepting ``\\p{..}`` classes even without
    the ``regex`` module."""
    return js_regex(source) is not None or js_regex(_UNICODE_CLASS.sub(".", source)) is not None
