"""Period and date phrases of a question, resolved against a reference day.

Pure and deterministic: ``scan(text, calendar)`` finds, in a lower-cased
question, the days it names (``as of 30 June 2026``, ``30.06.2026``, ``at the
end of June``), the periods it names (``last quarter``, ``Q2 2025``, ``July``,
``FY2025``, ``2025``, ``year to date``), the phrases that name no period the
catalog supports (``first half``, ``last 12 months``, ``recently``) and whether
it asks about the future (``next quarter``). Every match keeps its span, so the
router can blank it out and quote the user's own words back.

Periods print in the catalog's syntax (``2026-07``, ``2026-Q2``, ``FY2026``,
``2026``) and as a label a question can use (``July 2026``, ``Q2 2026``,
``FY2026``, ``calendar year 2026``); a label scans back to the same period.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from footnote_pg.question.dates import (
    _SHARED_YEAR,
    _AS_OF_BEFORE,
    _BAD_PERIOD,
    _BARE_YEAR,
    _CAL_YEAR,
    _COMPARING,
    _DAY_MONTH,
    _DIGIT,
    _DOT_DATE,
    _DOT_DAY,
    _END_AFTER,
    _END_BEFORE,
    _FROM_TO,
    _FUTURE,
    _FY,
    _HALF,
    _ISO_DATE,
    _ISO_MONTH,
    _LAST_N,
    _MAY_CONTEXT,
    _MONTH_DAY,
    _MONTH_YEAR,
    _MONTHS,
    _NEXT_UNIT,
    _ORD_QUARTER,
    _ORDINALS,
    _POINT_BEFORE,
    _QUARTER_YEAR,
    _RANGE_JOIN,
    _RANGE_OPEN,
    _RELATIVE,
    _SINCE,
    _SINCE_BEFORE,
    _SINCE_YEAR,
    _SLASH_DATE,
    _SLASH_MONTH,
    _TO_DATE,
    _TO_NOW,
    _UNCLEAR,
    _WEEK,
    _BEFORE_LAST,
    _WEEK_NO,
    _WORD_NUMBERS,
    _YEAR_HALF,
    _YEAR_IN,
    _YEAR_QUARTER,
    _YEAR_SUFFIX,
    _YESTERDAY,
    _YTD,
    _YTD_YEAR_AGO,
    _SAME_YEAR_AGO,
    _LAST_WEEKDAY,
    WEEKDAYS,
    _MONTH_SO_FAR,
    _QUARTER_SO_FAR,
    Calendar,
    DateMention,
    Period,
    PeriodMention,
    TimeInfo,
    Unclear,
    _months_back,
    _year_back,
)

_SPLIT_YEAR = re.compile(r"\b(?:(?:fy|fiscal\s+year|financial\s+year)\s*)?((?:19|20)\d\d)\s*/\s*((?:19|20)?\d\d)\b"
                         r"(?![/.]\d)")

_MONTH_NEXT = re.compile(r"\s*(?:-|\u2013|to|until|till|through|thru)\s*"
                         r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)")
_RANGE_UNTIL = re.compile(r"\s*(?:to|until|till|through|thru|-|\u2013)\s*(?:the\s+)?")

__all__ = ["Calendar", "DateMention", "Period", "PeriodMention", "TimeInfo", "Unclear", "_months_back", "scan"]
_OTHER_PERIOD = re.compile(r"\b(?:q[1-4]|h[12]|quarter|month|half|(?:19|20)\d\d|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*"
                           r"|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*|ytd|mtd|qtd)\b")


class _Scanner:
    def __init__(self, text: str, cal: Calendar, source: str) -> None:
        self.text = text
        self.source = source
        self.masked = text
        self.cal = cal
        self.dates: list[DateMention] = []
        self.periods: list[PeriodMention] = []
        self.unclear: list[Unclear] = []
        self.invalid = False
        self.invalid_period: str | None = None
        self.future = False

    def month_context(self, m: re.Match[str]) -> bool:
        """A preposition before a bare month name that is also a word ("in May", "end of Mar")."""
        return _MAY_CONTEXT.search(self.masked[:m.start()], max(0, m.start() - 20)) is not None

    def say(self, start: int, end: int) -> str:
        """The user's own words for a span."""
        return self.source[start:end].strip()

    def blank(self, start: int, end: int) -> None:
        self.masked = self.masked[:start] + " " * (end - start) + self.masked[end:]

    def each(self, pattern: re.Pattern[str], handle: Callable[[re.Match[str]], bool]) -> None:
        for m in list(pattern.finditer(self.masked)):
            if handle(m):
                self.blank(m.start(), m.end())

    # -- days ----------------------------------------------------------------
    def day(self, year: int | None, month: int, day: int, m: re.Match[str]) -> bool:
        if year is None:
            year = self.cal.as_of.year
            try:
                if dt.date(year, month, day) > self.cal.as_of:
                    year -= 1
            except ValueError:
                pass
        try:
            day_ = dt.date(year, month, day)
            self.dates.append(DateMention(day_, m.start(), m.end(), self.say(m.start(), m.end())))
        except ValueError:
            self.invalid = True
        return True

    def iso(self, m: re.Match[str]) -> bool:
        return self.day(int(m.group(1)), int(m.group(2)), int(m.group(3)), m)

    def dotted(self, m: re.Match[str]) -> bool:
        year = int(m.group(3)) if m.group(3) else 2000 + int(m.group(4)) if m.group(4) else None
        return self.day(year, int(m.group(2)), int(m.group(1)), m)

    def dotted_day(self, m: re.Match[str]) -> bool:
        return self.day(None, int(m.group(2)), int(m.group(1)), m)

    def slashed(self, m: re.Match[str]) -> bool:
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if a > 12 >= b:
            return self.day(y, b, a, m)
        if b > 12 >= a:
            return self.day(y, a, b, m)
        if a == b:
            return self.day(y, a, b, m)
        self.invalid = True          # 03/04/2026: March 4 or 3 April
        return True

    def day_month(self, m: re.Match[str]) -> bool:
        month = _MONTHS[m.group(2)]
        return self.day(int(m.group(3)) if m.group(3) else None, month, int(m.group(1)), m)

    def month_day(self, m: re.Match[str]) -> bool:
        if m.group(1) == "may" and not m.group(3) and not self.month_context(m):
            return False
        month = _MONTHS[m.group(1)]
        return self.day(int(m.group(3)) if m.group(3) else None, month, int(m.group(2)), m)

    def yesterday(self, m: re.Match[str]) -> bool:
        """Yesterday as a point in time ("as of yesterday"), else as the span of that one day ("revenue yesterday")."""
        d = self.cal.as_of - dt.timedelta(days=1)
        if _POINT_BEFORE.search(self.masked[:m.start()], max(0, m.start() - 12)):
            self.dates.append(DateMention(d, m.start(), m.end(), self.say(m.start(), m.end())))
            return True
        return self.add(Period.days(d, d), m.start(), m.end())

    def ytd_year_ago(self, m: re.Match[str]) -> bool:
        fy = self.cal.current("fy")
        return self.add(Period.days(fy.start(), self.cal.as_of).year_ago(), m.start(), m.end())

    def same_year_ago(self, m: re.Match[str]) -> bool:
        if _OTHER_PERIOD.search(self.masked[:m.start()] + " " + self.masked[m.end():]):
            return False                 # "Q2 and the same quarter last year": the same as which? left unread
        return self.add(self.cal.current(m.group(1)).year_ago(), m.start(), m.end())

    def last_weekday(self, m: re.Match[str]) -> bool:
        """"last Friday": the latest such day before the reference day, as a point in time or as that one day."""
        back = (self.cal.as_of.weekday() - WEEKDAYS.index(m.group(1))) % 7 or 7
        d = self.cal.as_of - dt.timedelta(days=back)
        if _POINT_BEFORE.search(self.masked[:m.start()], max(0, m.start() - 12)):
            self.dates.append(DateMention(d, m.start(), m.end(), self.say(m.start(), m.end())))
            return True
        return self.add(Period.days(d, d), m.start(), m.end())

    # -- periods -------------------------------------------------------------
    def add(self, period: Period, start: int, end: int, last_year: bool = False) -> bool:
        """A period mention, or a day when "end of" / "as of" precedes it or "end" follows it."""
        before = self.masked[:start]
        window = max(0, start - 40)
        end_before = _END_BEFORE.search(before, window) or _AS_OF_BEFORE.search(before, window)
        end_after = _END_AFTER.match(self.masked[end:])
        if end_before or end_after:
            s = end_before.start() if end_before else start
            e = end + end_after.end() if end_after else end
            self.dates.append(DateMention(period.end(), s, e, self.say(s, e)))
            self.blank(s, e)
            return False
        so_far = _SO_FAR.match(self.masked[end:])
        if so_far and period.start() <= self.cal.as_of < period.end():
            period = Period.days(period.start(), self.cal.as_of)     # "KW 33 bis heute": to the reference day
            end += so_far.end()
        if period.start() > self.cal.as_of:
            self.future = True
        self.periods.append(PeriodMention(period, start, end, self.say(start, end), last_year))
        return True

    def with_suffix(self, period: Period, m: re.Match[str], explicit_year: bool) -> bool:
        """``Q2 last year``, ``July of this year``; else the latest such period that has started."""
        end = m.end()
        suffix = None if explicit_year else _YEAR_SUFFIX.match(self.masked[end:])
        shared = None if explicit_year or suffix else _SHARED_YEAR.match(self.masked[end:])
        if shared:
            y = shared.group(1).lstrip("'")
            period = Period(period.kind, 2000 + int(y) if len(y) == 2 else int(y), period.index)
        elif suffix:
            which = suffix.group(1)
            year = self.cal.as_of.year - (0 if which == "this" else 1)
            period = Period(period.kind, year, period.index)
            end += suffix.end()
        elif not explicit_year and period.start() > self.cal.as_of:
            period = period.year_ago()
        if self.add(period, m.start(), end):
            self.blank(m.start(), end)
        return False

    def relative(self, m: re.Match[str]) -> bool:
        which, unit = m.group(1), m.group(2)
        unit = "fy" if "year" in unit or unit == "fy" else unit
        current = self.cal.current(unit)
        last = which in ("last", "previous", "prior", "past")
        period = current.previous() if last else current
        return self.add(period, m.start(), m.end(), last_year=last and unit == "fy")

    def ytd(self, m: re.Match[str]) -> bool:
        """Year to date: the fiscal year's first day to the reference day (a year ago: the same days)."""
        year = m.group("year") or m.group("year2") or m.group("year3") or m.group("year4")
        fy = self.cal.current("fy")
        if year and int(year) != fy.year:   # "2025 so far": that year is over, so all of it
            return self.add(self.cal.year_period(int(year)), m.start(), m.end())
        return self.add(Period.days(fy.start(), self.cal.as_of), m.start(), m.end())

    def month_so_far(self, m: re.Match[str]) -> bool:
        """A month so far: up to the reference day when it is running, all of it when it is over."""
        month = Period("month", int(m.group(2)) if m.group(2) else self.cal.as_of.year, _MONTHS[m.group(1)])
        if month.start() > self.cal.as_of:
            return False
        if month.end() >= self.cal.as_of:
            month = Period.days(month.start(), self.cal.as_of)
        return self.add(month, m.start(), m.end())

    def quarter_so_far(self, m: re.Match[str]) -> bool:
        """A quarter so far ("Q3/26 so far", "the third quarter to date"): up to the reference day when it is running,
        all of it when it is over."""
        index = int(m.group(1)) if m.group(1) else {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
                                                    "fourth": 4, "4th": 4}[m.group(3)]
        y = m.group(2) or m.group(4)
        year = (int(y) + 2000 if int(y) < 100 else int(y)) if y else self.cal.as_of.year
        quarter = Period("quarter", year, index)
        if quarter.start() > self.cal.as_of:
            return False
        if quarter.end() >= self.cal.as_of:
            quarter = Period.days(quarter.start(), self.cal.as_of)
        return self.add(quarter, m.start(), m.end())

    def to_date(self, m: re.Match[str]) -> bool:
        unit = (m.group(1) or m.group(3) or ("month" if m.group(2) == "mtd" else "quarter"))
        return self.add(Period.days(self.cal.current(unit).start(), self.cal.as_of), m.start(), m.end())

    def half(self, m: re.Match[str]) -> bool:
        index = 1 if (m.group(1) in ("first", "1st") or m.group(2) == "1") else 2
        if m.group(3) or m.group(5):
            y = int(m.group(3) or m.group(5))
            year = y + 2000 if y < 100 else y
        elif m.group(4):
            year = self.cal.as_of.year - (0 if m.group(4) in ("this", "the") else 1)
        else:
            year = self.cal.as_of.year
            if Period("half", year, index).start() > self.cal.as_of:
                year -= 1
        return self.add(Period("half", year, index), m.start(), m.end())

    def year_half(self, m: re.Match[str]) -> bool:
        return self.add(Period("half", int(m.group(1)), int(m.group(2))), m.start(), m.end())

    def since(self, m: re.Match[str]) -> bool:
        if m.group(1):
            month = _MONTHS[m.group(1)]
            year = int(m.group(2)) if m.group(2) else self.cal.as_of.year
            first = dt.date(year, month, 1)
            if not m.group(2) and first > self.cal.as_of:
                first = first.replace(year=year - 1)
        elif m.group(3):
            year = int(m.group(4)) if m.group(4) else self.cal.as_of.year
            first = Period("quarter", year, int(m.group(3))).start()
        else:
            first = self.cal.year_period(int(m.group(5))).start()
        if first > self.cal.as_of:
            self.future = True
            return True
        return self.add(Period.days(first, self.cal.as_of), m.start(), m.end())

    def last_n(self, m: re.Match[str]) -> bool:
        if m.group(3):
            n, unit = 12, "months"
        else:
            word = m.group(1).replace("-", " ")
            n, unit = (int(word) if word.isdigit() else _WORD_NUMBERS[word]), m.group(2)
        if n == 0 or n > 120 * (30 if unit == "days" else 4 if unit == "weeks" else 1 if unit == "months" else 0.1):
            self.invalid_period = self.say(m.start(), m.end())
            self.unclear.append(Unclear(m.start(), m.end(), self.invalid_period))   # options replace it
            return True
        last = self.cal.as_of
        if unit == "days":
            first = last - dt.timedelta(days=n - 1)
        elif unit == "weeks":
            first = last - dt.timedelta(days=7 * n - 1)
        elif unit == "months":
            first = _months_back(last, n) + dt.timedelta(days=1)
        else:
            first = _months_back(last, 12 * n) + dt.timedelta(days=1)
        return self.add(Period.days(first, last), m.start(), m.end())

    def week(self, m: re.Match[str]) -> bool:
        monday = self.cal.as_of - dt.timedelta(days=self.cal.as_of.weekday())
        if m.group(1) == "this":
            return self.add(Period.days(monday, self.cal.as_of), m.start(), m.end())
        return self.add(Period.days(monday - dt.timedelta(days=7), monday - dt.timedelta(days=1)), m.start(), m.end())

    def before_last(self, m: re.Match[str]) -> bool:
        """"the week before last", "the month before last": two before the current one."""
        unit = m.group(1)
        if unit == "week":
            monday = self.cal.as_of - dt.timedelta(days=self.cal.as_of.weekday() + 14)
            return self.add(Period.days(monday, monday + dt.timedelta(days=6)), m.start(), m.end())
        current = self.cal.current("fy" if unit == "year" else unit)
        return self.add(current.previous().previous(), m.start(), m.end())

    def week_no(self, m: re.Match[str]) -> bool:
        """An ISO week by number, of the year named or else of the reference day's year."""
        week = int(m.group(1))
        year = int(m.group(2)) if m.group(2) else self.cal.as_of.year   # a week still to come stays to come
        try:
            monday = dt.date.fromisocalendar(year, week, 1)
        except ValueError:
            return self.bad_period(m)
        return self.add(Period.days(monday, monday + dt.timedelta(days=6)), m.start(), m.end())

    def since_year(self, m: re.Match[str]) -> bool:
        fy = self.cal.current("fy")
        first = fy.previous().start() if m.group(1) != "this" else fy.start()
        return self.add(Period.days(first, self.cal.as_of), m.start(), m.end())

    def from_to(self, m: re.Match[str]) -> bool:
        g = [x for x in m.groups() if x is not None]
        try:
            first = dt.date(int(g[0]), int(g[1]), int(g[2]))
            last = dt.date(int(g[3]), int(g[4]), int(g[5]))
        except ValueError:
            self.invalid = True
            return True
        if last < first:
            self.invalid_period = self.say(m.start(), m.end())
            return True
        return self.add(Period.days(first, last), m.start(), m.end())

    def join_ranges(self) -> None:
        """"from 1 January to 30 June 2026", "between March and May 2026", "since 1 March 2026", "from March to
        now": one range of days (unless the question compares the two: "compare revenue between Q1 and Q2")."""
        spans = sorted([(d.start, d.end, d.day, d.day, d.phrase) for d in self.dates]
                       + [(p.start, p.end, p.period.start(), p.period.end(), p.phrase) for p in self.periods])
        comparing = _COMPARING.search(self.text) is not None
        for (s1, e1, f1, _l1, phrase), (s2, e2, _f2, l2, _p2) in zip(spans, spans[1:], strict=False):
            opener = _RANGE_OPEN.search(self.text[:s1], max(0, s1 - 12))
            until = opener is None and _RANGE_UNTIL.fullmatch(self.text[e1:s2]) is not None   # "KW 30 bis KW 32"
            if comparing or not (opener or until) or not _RANGE_JOIN.fullmatch(self.text[e1:s2]):
                continue
            if l2 < f1 and not _YEAR_IN.search(phrase):       # "January to March 2025": January of 2025
                f1 = _year_back(f1)
            if l2 >= f1:
                self.replace(opener.start() if opener else s1, e2, f1, l2)
                return self.join_ranges()
        for start, end, first, _last, _phrase in spans:
            since = _SINCE_BEFORE.search(self.text[:start], max(0, start - 12))
            now = _TO_NOW.match(self.text[end:])
            opener = _RANGE_OPEN.search(self.text[:start], max(0, start - 12))
            begin = since or (opener if opener and now and not comparing else None)
            if begin is not None:
                self.replace(begin.start(), end + (now.end() if now else 0), first, self.cal.as_of)
                return self.join_ranges()
        return None

    def replace(self, start: int, end: int, first: dt.date, last: dt.date) -> None:
        """The days and periods within [start, end) become one range of days."""
        self.dates = [d for d in self.dates if not (start <= d.start and d.end <= end)]
        self.periods = [p for p in self.periods if not (start <= p.start and p.end <= end)]
        if first > self.cal.as_of:
            self.future = True
        self.periods.append(PeriodMention(Period.days(first, min(last, max(first, self.cal.as_of))
                                                      if last > self.cal.as_of else last),
                                          start, end, self.say(start, end)))
        self.blank(start, end)

    def bad_period(self, m: re.Match[str]) -> bool:
        self.invalid_period = self.say(m.start(), m.end())
        self.unclear.append(Unclear(m.start(), m.end(), self.invalid_period))   # options replace it
        return True

    def split_year(self, m: re.Match[str]) -> bool:
        """ "FY 2025/26": a fiscal year across two calendar years; with a calendar fiscal year there is none (asked)."""
        first, second = int(m.group(1)), int(m.group(2))
        if second % 100 != (first + 1) % 100:
            return False
        if self.cal.fiscal_year_start_month == 1:
            return self.unclear_phrase(m)
        return self.add(Period("fy", first + 1, 0, self.cal.fiscal_year_start_month), m.start(), m.end())

    def fy(self, m: re.Match[str]) -> bool:
        y = int(m.group(1))
        year = y + 2000 if y < 100 else y
        return self.add(Period("fy", year, 0, self.cal.fiscal_year_start_month), m.start(), m.end())

    def quarter_year(self, m: re.Match[str]) -> bool:
        y = m.group(2) or m.group(3)              # Q3/2026, Q2-26, Q1'25
        year = (2000 + int(y.lstrip("'")) if len(y.lstrip("'")) == 2 else int(y)) if y else self.cal.as_of.year
        return self.with_suffix(Period("quarter", year, int(m.group(1))), m, y is not None)

    def year_quarter(self, m: re.Match[str]) -> bool:
        return self.add(Period("quarter", int(m.group(1)), int(m.group(2))), m.start(), m.end())

    def ord_quarter(self, m: re.Match[str]) -> bool:
        y = m.group(2)
        year = int(y) if y else self.cal.as_of.year
        return self.with_suffix(Period("quarter", year, _ORDINALS[m.group(1)]), m, y is not None)

    def month_year(self, m: re.Match[str]) -> bool:
        name, full = m.group(1), m.group(3)
        short = m.group(2) or (m.group(4) and "'" + m.group(4))     # Jul '26, Jul-26
        if name in ("may", "mar", "jan", "dec", "oct", "sep") and not (short or full) \
                and not self.month_context(m) and not _MONTH_NEXT.match(self.masked[m.end():]):   # "Jan-Jun"
            return False
        year = int(full) if full else (2000 + int(short[1:]) if short else self.cal.as_of.year)
        return self.with_suffix(Period("month", year, _MONTHS[name]), m, bool(short or full))

    def iso_month(self, m: re.Match[str]) -> bool:
        return self.add(Period("month", int(m.group(1)), int(m.group(2))), m.start(), m.end())

    def slash_month(self, m: re.Match[str]) -> bool:
        return self.add(Period("month", int(m.group(2)), int(m.group(1))), m.start(), m.end())

    def cal_year(self, m: re.Match[str]) -> bool:
        return self.add(Period("year", int(m.group(1))), m.start(), m.end())

    def bare_year(self, m: re.Match[str]) -> bool:
        return self.add(self.cal.year_period(int(m.group(1))), m.start(), m.end())

    def unclear_phrase(self, m: re.Match[str]) -> bool:
        self.unclear.append(Unclear(m.start(), m.end(), self.say(m.start(), m.end())))
        return True

    def future_phrase(self, m: re.Match[str]) -> bool:
        """A time after the reference day; "next month" and the like are also read as that period (what is
        expected then is recorded; a figure for it would be a forecast, which the rules refuse)."""
        self.future = True
        unit = _NEXT_UNIT.match(m.group(0))
        if unit and unit.group(1) == "week":
            monday = self.cal.as_of + dt.timedelta(days=7 - self.cal.as_of.weekday())
            self.periods.append(PeriodMention(Period.days(monday, monday + dt.timedelta(days=6)), m.start(), m.end(),
                                              self.say(m.start(), m.end())))
        elif unit:
            kind = "fy" if "year" in unit.group(1) or unit.group(1) == "fy" else unit.group(1)
            upcoming = self.cal.current(kind).next()
            self.periods.append(PeriodMention(upcoming, m.start(), m.end(), self.say(m.start(), m.end())))
        return True

    def run(self) -> TimeInfo:
        # Passes in order (a day before the periods inside it); a pass whose pattern needs a
        # digit or a word the text lacks is skipped.
        text = self.text
        digits = _DIGIT.search(text) is not None
        if digits:
            self.each(_FROM_TO, self.from_to)
            self.each(_SPLIT_YEAR, self.split_year)
            self.each(_BAD_PERIOD, self.bad_period)
            self.each(_ISO_DATE, self.iso)
            self.each(_DOT_DATE, self.dotted)
            self.each(_DOT_DAY, self.dotted_day)
            self.each(_SLASH_DATE, self.slashed)
            self.each(_DAY_MONTH, self.day_month)
            self.each(_MONTH_DAY, self.month_day)
        if "yesterday" in text:
            self.each(_YESTERDAY, self.yesterday)
        if "day" in text:
            self.each(_LAST_WEEKDAY, self.last_weekday)
        self.each(_FUTURE, self.future_phrase)
        if "far" in text or "date" in text:
            self.each(_MONTH_SO_FAR, self.month_so_far)
            self.each(_QUARTER_SO_FAR, self.quarter_so_far)
        if "year" in text:
            self.each(_YTD_YEAR_AGO, self.ytd_year_ago)
            self.each(_SAME_YEAR_AGO, self.same_year_ago)
        if "ytd" in text or "far" in text or "date" in text:
            self.each(_YTD, self.ytd)
        if "td" in text or "date" in text or "far" in text:
            self.each(_TO_DATE, self.to_date)
        if "half" in text or "h1" in text or "h2" in text:
            self.each(_YEAR_HALF, self.year_half)
            self.each(_HALF, self.half)
        if "since" in text:
            self.each(_SINCE_YEAR, self.since_year)
            self.each(_SINCE, self.since)
        if "before last" in text:
            self.each(_BEFORE_LAST, self.before_last)
        self.each(_LAST_N, self.last_n)
        if digits and ("week" in text or "cw" in text or "wk" in text or "kw" in text):
            self.each(_WEEK_NO, self.week_no)
        if "week" in text:
            self.each(_WEEK, self.week)
        self.each(_UNCLEAR, self.unclear_phrase)
        if digits:
            self.each(_FY, self.fy)
            self.each(_YEAR_QUARTER, self.year_quarter)
            self.each(_QUARTER_YEAR, self.quarter_year)
        if "quarter" in text:
            self.each(_ORD_QUARTER, self.ord_quarter)
        if digits:
            self.each(_ISO_MONTH, self.iso_month)
            self.each(_SLASH_MONTH, self.slash_month)
        self.each(_MONTH_YEAR, self.month_year)
        if "month" in text or "quarter" in text or "year" in text or "fy" in text:
            self.each(_RELATIVE, self.relative)
        if digits:
            self.each(_CAL_YEAR, self.cal_year)
            self.each(_BARE_YEAR, self.bare_year)
        self.join_ranges()
        for d in self.dates:
            if d.day > self.cal.as_of:
                self.future = True
        return TimeInfo(
            dates=tuple(sorted(self.dates, key=lambda d: d.start)),
            periods=tuple(sorted(self.periods, key=lambda p: p.start)),
            unclear=tuple(self.unclear),
            invalid_date=self.invalid,
            invalid_period=self.invalid_period,
            future=self.future,
            masked=self.masked,
        )


_SO_FAR = re.compile(r"\s*(?:so\s+far|to\s+date|until\s+(?:today|now)|till\s+(?:today|now)|up\s+to\s+(?:today|now)"
                     r"|through\s+today|bis\s+heute|bis\s+jetzt)\b")


def scan(text: str, cal: Calendar, source: str | None = None) -> TimeInfo:
    """Find days, periods, unclear period phrases and future references in a lower-cased text.

    ``source`` is the text as the user wrote it (same length); phrases quote it.
    """
    same = source is not None and len(source) == len(text)
    return _Scanner(text, cal, source if source is not None and same else text).run()
