"""Periods and days as values, and the phrases that name them.

The calendar of a reference day and fiscal-year start; a period (month, quarter, half, fiscal or calendar year,
or a range of days) in the catalog's syntax and as a label; the mentions of periods and days a question holds
(with their spans); and the patterns of the phrases people use for them. :mod:`periods` reads a question with
them.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July",
               "August", "September", "October", "November", "December")


@dataclass(frozen=True)
class Calendar:
    """The reference day and the fiscal year's first month (FY named by the year it ends in)."""

    as_of: dt.date
    fiscal_year_start_month: int = 1

    def month(self, day: dt.date) -> Period:
        return Period("month", day.year, day.month)

    def quarter(self, day: dt.date) -> Period:
        return Period("quarter", day.year, (day.month - 1) // 3 + 1)

    def fiscal_year(self, day: dt.date) -> Period:
        m = self.fiscal_year_start_month
        year = day.year if m == 1 or day.month < m else day.year + 1
        return Period("fy", year, 0, m)

    def year_period(self, year: int) -> Period:
        """A bare year: the fiscal year when it is the calendar year, else the calendar year."""
        if self.fiscal_year_start_month == 1:
            return Period("fy", year, 0, 1)
        return Period("year", year)

    def current(self, kind: str) -> Period:
        if kind == "month":
            return self.month(self.as_of)
        if kind == "quarter":
            return self.quarter(self.as_of)
        return self.fiscal_year(self.as_of)

    def last_complete(self, kind: str) -> Period:
        return self.current(kind).previous()


@dataclass(frozen=True)
class Period:
    """A month, calendar quarter, half year, fiscal year (``fy``), calendar year (``year``), or a range of days
    (``range``: ``first`` to ``last``, both included; month, quarter and year to date, "since March", "the last
    30 days")."""

    kind: str
    year: int
    index: int = 0
    fy_start: int = 1
    first: dt.date | None = None
    last: dt.date | None = None

    @classmethod
    def days(cls, first: dt.date, last: dt.date) -> Period:
        return cls("range", first.year, 0, 1, first, last)

    def catalog(self) -> str:
        if self.kind == "range":
            assert self.first is not None and self.last is not None
            return f"{self.first.isoformat()}..{self.last.isoformat()}"
        if self.kind == "half":
            return f"{self.year}-H{self.index}"
        if self.kind == "month":
            return f"{self.year}-{self.index:02d}"
        if self.kind == "quarter":
            return f"{self.year}-Q{self.index}"
        if self.kind == "fy":
            return f"FY{self.year}"
        return str(self.year)

    def label(self) -> str:
        if self.kind == "range":
            return self.catalog()
        if self.kind == "half":
            return f"H{self.index} {self.year}"
        if self.kind == "month":
            return f"{MONTH_NAMES[self.index - 1]} {self.year}"
        if self.kind == "quarter":
            return f"Q{self.index} {self.year}"
        if self.kind == "fy":
            return f"FY{self.year}"
        return f"calendar year {self.year}"

    def start(self) -> dt.date:
        if self.kind == "range":
            assert self.first is not None
            return self.first
        if self.kind == "half":
            return dt.date(self.year, 6 * self.index - 5, 1)
        if self.kind == "month":
            return dt.date(self.year, self.index, 1)
        if self.kind == "quarter":
            return dt.date(self.year, 3 * self.index - 2, 1)
        if self.kind == "fy" and self.fy_start != 1:
            return dt.date(self.year - 1, self.fy_start, 1)
        return dt.date(self.year, 1, 1)

    def end(self) -> dt.date:
        if self.kind == "range":
            assert self.last is not None
            return self.last
        nxt = self.next()
        return nxt.start() - dt.timedelta(days=1)

    def next(self) -> Period:
        return self._shift(1)

    def next_year(self) -> Period:
        """The same period a year later."""
        return Period(self.kind, self.year + 1, self.index, self.fy_start)

    def previous(self) -> Period:
        return self._shift(-1)

    def year_ago(self) -> Period:
        """The same span a year earlier (a range keeps its days: year to date against the same days last year)."""
        if self.kind == "range":
            assert self.first is not None and self.last is not None
            return Period.days(_year_back(self.first), _year_back(self.last))
        return Period(self.kind, self.year - 1, self.index, self.fy_start)

    def _shift(self, step: int) -> Period:
        if self.kind == "range":
            assert self.first is not None and self.last is not None
            span = (self.last - self.first).days + 1
            return Period.days(self.first + dt.timedelta(days=span * step), self.last + dt.timedelta(days=span * step))
        if self.kind == "half":
            n = self.year * 2 + self.index - 1 + step
            return Period("half", n // 2, n % 2 + 1)
        if self.kind == "month":
            n = self.year * 12 + self.index - 1 + step
            return Period("month", n // 12, n % 12 + 1)
        if self.kind == "quarter":
            n = self.year * 4 + self.index - 1 + step
            return Period("quarter", n // 4, n % 4 + 1)
        return Period(self.kind, self.year + step, 0, self.fy_start)


def _year_back(day: dt.date) -> dt.date:
    """The same day a year earlier (29 February becomes 28 February)."""
    try:
        return day.replace(year=day.year - 1)
    except ValueError:
        return day.replace(year=day.year - 1, day=28)


def _months_back(day: dt.date, months: int) -> dt.date:
    n = day.year * 12 + day.month - 1 - months
    year, month = n // 12, n % 12 + 1
    last = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day
    return dt.date(year, month, min(day.day, last))


@dataclass(frozen=True)
class PeriodMention:
    period: Period
    start: int
    end: int
    phrase: str
    last_year: bool = False      # the phrase was "last year" / "previous year"


@dataclass(frozen=True)
class DateMention:
    day: dt.date
    start: int
    end: int
    phrase: str


@dataclass(frozen=True)
class Unclear:
    start: int
    end: int
    phrase: str


@dataclass(frozen=True)
class TimeInfo:
    """Everything time-related found in one question."""

    dates: tuple[DateMention, ...]
    periods: tuple[PeriodMention, ...]      # in the order they appear
    unclear: tuple[Unclear, ...]
    invalid_date: bool          # a day that does not exist or is ambiguous (03/04/2026)
    invalid_period: str | None  # a period that does not exist or is out of range, as written (Q5 2026, 1066)
    future: bool                # "next quarter", a period or day after the reference day
    masked: str                 # the text with every matched span blanked out


_MONTHS: dict[str, int] = {}
for _i, _name in enumerate(MONTH_NAMES, start=1):
    _MONTHS[_name.lower()] = _i
    _MONTHS[_name.lower()[:3]] = _i
_MONTHS["sept"] = 9
_MONTH_RE = (r"(?:january|february|march|april|may|june|july|august|september|october|november"
             r"|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
             "fourth": 4, "4th": 4}
# "may" is a month only with a year or after a preposition ("in May", "end of May").
_MAY_CONTEXT = re.compile(r"(?:\b(?:in|for|of|during|since|until|till|through|by|from|to|and|vs"
                          r"|last|this|early|late|mid)\s+)$")


# --------------------------------------------------------------------------- patterns

_YEAR = r"(?:19|20)\d\d"
_ISO_DATE = re.compile(rf"\b({_YEAR})-(\d{{1,2}})-(\d{{1,2}})\b")
# 30.06.2026, 30.6.26 and, without a year, 30.06. (the latest such day up to the reference day)
_DOT_DATE = re.compile(rf"\b(\d{{1,2}})\.(\d{{1,2}})\.(?:({_YEAR})\b|(\d{{2}})\b)?(?!\d|\.\d)")
# 31.07 without a year or a closing dot, after a word that asks for a day ("per 31.07", "as of 30.6")
_DOT_DAY = re.compile(r"\b(?:per|as\s+of|as\s+at|on|by|until|am|zum|bis)\s+(\d{1,2})\.(\d{1,2})\b(?![.,]?\d)")
_SLASH_DATE = re.compile(rf"\b(\d{{1,2}})/(\d{{1,2}})/({_YEAR})\b")
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b\.?"
                        rf"(?:,?\s+({_YEAR})\b)?")
_MONTH_DAY = re.compile(
    rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?:days?|weeks?|months?|-day))"
    rf"(?:,?\s+({_YEAR})\b)?")
_YESTERDAY = re.compile(r"\byesterday\b")
# "prior year YTD", "YTD last year": the same days of the year before; "the same quarter last year" (named alone):
# this quarter (month, half) a year earlier.
_YTD_YEAR_AGO = re.compile(r"\b(?:(?:prior|last|previous)\s+year(?:'s)?\s+(?:ytd|year[\s-]to[\s-]date)|(?:ytd|year[\s-]to[\s-]date)"
                           r"\s+(?:of\s+)?(?:the\s+)?(?:prior|last|previous)\s+year)\b")
_SAME_YEAR_AGO = re.compile(r"\b(?:the\s+)?same\s+(quarter|month|half)(?:[\s-]year)?\s+(?:of\s+|in\s+)?(?:last|the\s+previous"
                            r"|previous|prior|a)\s+year(?:\s+ago)?\b")
# "last Friday", "this past Monday": the latest such weekday before the reference day.
_LAST_WEEKDAY = re.compile(r"\b(?:last|previous|this\s+past|past)\s+(monday|tuesday|wednesday|thursday|friday|saturday"
                           r"|sunday)\b")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DIGIT = re.compile(r"\d")

_UNCLEAR = re.compile(
    r"\b(?:half[\s-]year|(?:the\s+)?last\s+half(?:[\s-]year)?"
    r"|(?:the\s+)?(?:last|past|previous|prior|trailing|rolling|recent)\s+(?:few|couple\s+of|several)\s+"
    r"(?:days|weeks|months|quarters|years)"
    r"|recent(?:ly)?|lately|(?:in\s+)?recent\s+(?:times|months|weeks)|these\s+days|of\s+late"
    r"|the\s+other\s+day|a\s+while(?:\s+ago)?"
    r"|since\s+last\s+\w+"
    r"|over\s+time|historically|so\s+far)\b")
_HALF = re.compile(r"\b(?:(?:the\s+)?(first|second|1st|2nd)\s+half(?:[\s-]year)?|h([12]))"
                   rf"(?:\s+(?:of\s+)?(?:the\s+)?(?:(?:fy\s*)?({_YEAR})|(this|last|previous|prior|the)\s+year)"
                   rf"|\s*[-/]\s*({_YEAR}|\d{{2}}))?\b")
_YEAR_HALF = re.compile(rf"\b({_YEAR})\s*[-/ ]?\s*h([12])\b")
_TO_DATE = re.compile(r"\b(?:(month|quarter)[\s-]to[\s-]date|(mtd|qtd)|(?:this\s+)?(month|quarter)\s+so\s+far)\b")
_SINCE = re.compile(rf"\bsince\s+(?:the\s+(?:start|beginning)\s+of\s+)?(?:({_MONTH_RE})(?:\s+({_YEAR}))?"
                    rf"|q([1-4])(?:\s+({_YEAR}))?|({_YEAR}))\b")
_LAST_N = re.compile(r"\b(?:in\s+|over\s+|for\s+|during\s+)?(?:the\s+)?(?:last|past|previous|prior|trailing|rolling)\s+"
                     r"(\d{1,9}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty[\s-]four)"
                     r"\s+(days|weeks|months|years)\b|\b(ttm|ltm|trailing\s+twelve\s+months)\b")
_WEEK = re.compile(r"\b(this|last|past|previous)\s+week\b")
# "the month before last", "the week before last": the one before the last one.
_BEFORE_LAST = re.compile(r"\b(?:the\s+)?(week|month|quarter|year)\s+before\s+last\b")
# A week by its ISO number: "calendar week 32", "week 32 of 2025", "CW 32", "wk 32".
_WEEK_NO = re.compile(r"\b(?:(?:the\s+)?(?:calendar|iso)\s+week|week|cw|kw|wk)\s*(?:no\.?\s*|number\s+|#\s*)?(\d{1,2})"
                      r"(?:\s*(?:of\s+|/|,\s*)?((?:19|20)\d\d))?\b")
# "since last year": from the first day of the last fiscal year (or this one) to the reference day.
_SINCE_YEAR = re.compile(r"\bsince\s+(?:the\s+(?:start|beginning)\s+of\s+)?(last|this|the\s+previous)"
                         r"\s+(?:fiscal\s+)?year\b")
# A day that is the question's point in time rather than a span ("as of yesterday", "until yesterday").
_POINT_BEFORE = re.compile(r"(?:as\s+of|as\s+at|by|until|till|through|up\s+to)\s+$")
_FROM_TO = re.compile(rf"\bfrom\s+({_YEAR})-(\d{{2}})-(\d{{2}})\s+(?:to|until|till|through)\s+"
                      rf"({_YEAR})-(\d{{2}})-(\d{{2}})\b"
                      rf"|\b({_YEAR})-(\d{{2}})-(\d{{2}})\s*\.\.\s*({_YEAR})-(\d{{2}})-(\d{{2}})\b")
# Periods that do not exist (Q5, H3, month 13) or lie outside what a ledger of this kind holds (Q2 1066).
_BAD_PERIOD = re.compile(r"\bq(?:[05-9]|\d\d+)\b(?:\s+\d{2,4})?|\bh[03-9]\b|\b(?:q[1-4]|fy|h[12]|in|of|for|year)\s+"
                         r"((?!(?:19|20)\d\d\b)\d{3,4}|\d{5,})\b(?!\s*\))|\b(?:fy|fiscal\s+year)\s*'?(?!(?:19|20)\d\d\b)"
                         r"\d{3,4}\b|\b(?:19|20)\d\d-(?:1[3-9]|[2-9]\d)\b(?!-\d)"
                         r"|\b(?:[3-9]|\d\d)(?:\.|st|nd|rd|th)?\s+half(?:[\s-]year)?\b|\b(?:[5-9]|\d\d)(?:\.|th)?\s+quarter\b")
_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "eleven": 11, "twelve": 12, "eighteen": 18, "twenty four": 24, "twenty-four": 24}
_FUTURE = re.compile(r"\b(?:next|coming|upcoming|following)\s+(?:fiscal\s+year|financial\s+year"
                     r"|month|quarter|year|week|fy)\b|\bin\s+the\s+future\b|\btomorrow\b")
_NEXT_UNIT = re.compile(r"(?:next|coming|upcoming|following)\s+"
                        r"(fiscal\s+year|financial\s+year|month|quarter|year|fy|week)\b")
_YTD = re.compile(rf"\b(?:(?:fy\s*)?(?P<year4>{_YEAR})\s+(?:ytd|year[\s-]to[\s-]date)|(?:year[\s-]to[\s-]date|ytd)\s+(?:of\s+|in\s+|for\s+)?"
                  rf"(?:fy\s*)?(?P<year3>{_YEAR})"
                  r"|year[\s-]to[\s-]date|ytd|so\s+far\s+this\s+(?:fiscal\s+)?year|(?:this\s+year|(?:fy\s*)?"
                  rf"(?P<year>{_YEAR}))\s+(?:so\s+far|to\s+date)|so\s+far\s+in\s+(?P<year2>{_YEAR}))\b")
# A month so far ("Aug 2026 so far", "August to date"): that month up to the reference day.
_QUARTER_SO_FAR = re.compile(r"\b(?:q([1-4])(?:\s*[/'-]\s*|\s+)?((?:19|20)?\d\d)?|(?:the\s+)?(first|second|third|fourth|1st|2nd"
                             r"|3rd|4th)\s+quarter(?:\s+((?:19|20)\d\d))?)\s+(?:so\s+far|to\s+date)\b")
_MONTH_SO_FAR = re.compile(rf"\b({_MONTH_RE})\b\.?(?:\s+({_YEAR}))?\s+(?:so\s+far|to\s+date)\b")
_RELATIVE = re.compile(r"\b(?:the\s+)?(last|previous|prior|past|this|current|present)\s+"
                       r"(fiscal\s+year|financial\s+year|fy|month|quarter|year)\b")
_FY = re.compile(rf"\b(?:fy|fiscal\s+year|financial\s+year|fiscal)\s*'?({_YEAR}|\d{{2}})\b")
_QUARTER_YEAR = re.compile(rf"\bq([1-4])(?:\s*(?:of\s+|/|-|\s)\s*(?:fy\s*)?('\d{{2}}|{_YEAR}|(?<=[-/])\d{{2}})|('\d{{2}}))?\b")
_YEAR_QUARTER = re.compile(rf"\b({_YEAR})\s*[-/ ]?\s*q([1-4])\b")
_ORD_QUARTER = re.compile(rf"\b(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter"
                          rf"(?:\s+(?:of\s+)?({_YEAR}))?\b")
_MONTH_YEAR = re.compile(rf"\b({_MONTH_RE})\b\.?(?:\s*(?:of\s+)?(?:('\d{{2}})|({_YEAR})\b)|-(\d{{2}})\b(?!-))?")
_ISO_MONTH = re.compile(rf"\b({_YEAR})-(0[1-9]|1[0-2])\b")
_SLASH_MONTH = re.compile(rf"\b(0?[1-9]|1[0-2])/({_YEAR})\b")
_CAL_YEAR = re.compile(rf"\b(?:calendar\s+(?:year\s+)?|cy\s*)({_YEAR})\b")
_BARE_YEAR = re.compile(rf"\b({_YEAR})\b")
# The year of the last of joined periods, shared by the earlier ones ("Q1 and Q2 2025", "June and July 2025").
_SHARED_YEAR = re.compile(rf"(?:\s*(?:,|and|&|or|und|oder|vs\.?|versus|to|bis|through)\s*(?:q[1-4]|h[12]|{_MONTH_RE})\b\.?)+"
                          rf"\s*(?:/|-|\s)\s*(?:fy\s*)?('\d{{2}}|{_YEAR})\b")
_YEAR_SUFFIX = re.compile(r"\s*,?\s+(?:of\s+)?(last|this|previous|prior|the\s+previous|the\s+last)"
                          r"\s+year\b")
_END_BEFORE = re.compile(r"(?:(?:at|by|on|as\s+of|as\s+at)\s+)?(?:the\s+)?(?:end|close)\s+of\s+"
                         r"(?:the\s+)?$")
_SINCE_BEFORE = re.compile(r"\b(?:since|starting(?:\s+(?:from|in|on))?)\s+(?:the\s+)?$")
_TO_NOW = re.compile(r"\s*(?:to|until|till|through)\s+(?:now|today|date|the\s+present)\b")
_YEAR_IN = re.compile(r"\b(?:19|20)\d\d\b")
_RANGE_OPEN = re.compile(r"\b(?:from|between)\s+(?:the\s+)?$")
_RANGE_JOIN = re.compile(r"\s*(?:to|and|until|till|through|-)\s*(?:the\s+)?")
_COMPARING = re.compile(r"\b(?:compar\w*|chang\w*|differ\w*|vs|versus|growth|grew|gr[eo]w\w*|rose|ris\w*|fell|fall\w*"
                        r"|increas\w*|decreas\w*|drop\w*|declin\w*|against|each|develop\w*|evolv\w*|trend\w*|better"
                        r"|worse|higher|lower|gain\w*|loss\w*|lost|shr[ia]nk\w*|jump\w*|decliners?|losers?|winners?|movers?|fallers?|risers?|drivers?|up|down)\b")
_AS_OF_BEFORE = re.compile(r"(?:as\s+of|as\s+at)\s+(?:the\s+)?$")
_END_AFTER = re.compile(r"^[\s-]*end\b")
