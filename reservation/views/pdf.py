"""A4 pages drawn with matplotlib's PDF backend, in English and Hindi: the printable worksheet
(``docs/worksheet.py``) and the district sheet (:mod:`reservation.views.sheet`).

- :class:`Page`: one A4 figure written top to bottom in figure fractions: lines of text (wrapped), ruled lines,
  simple tables (columns at given x positions), each word placed where Agg measures it (see below);
- :func:`pdf_document`: the PDF bytes of pages drawn by a function, with the maps' font
  (:func:`reservation.views.maps.style.font_rc`) and no creation date, producer or creator, so the same inputs
  give the same bytes.

**Hindi in the PDF.** matplotlib's PDF backend (3.11; Type 42 and Type 3 alike) places a space wrongly where
Devanagari meets digits or Latin ("के 2 पद" printed as "के  2पद"); Agg, which draws the static maps' PNGs, shapes
the same text right. So each line is drawn a word at a time, every word at the place Agg measures (one script run
per word, the font embedded, the text selectable). Headings are larger, not bold: the shipped Devanagari font has
one weight. Measured in notes/teaching.md (whole-line outlines made 1 MB PDFs).
"""

from __future__ import annotations

import io
import textwrap

__all__ = ["A4", "Page", "pdf_document", "rule", "script_runs"]

#: A4 in inches (width, height)
A4 = (8.27, 11.69)


class Page:
    """An A4 page written top to bottom (figure fractions, ``y`` the next line's top). ``width``: characters a
    line of :meth:`text` wraps at; ``families``: the font families (``font_rc(lang)["font.family"]``);
    ``left``/``right``: the margins' x; ``runs``: a word that mixes Devanagari with digits or Latin signs
    ("के),", "2021-03-17 की") is drawn a script run at a time too, each at the place Agg measures (the same PDF
    bug inside a word; the worksheet, drawn before this, keeps whole words)."""

    def __init__(self, width: int, families: list, *, left: float = 0.07, right: float = 0.93, top: float = 0.95,
                 runs: bool = False):
        import matplotlib.pyplot as plt
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.font_manager import FontProperties
        self.fig = plt.figure(figsize=A4, dpi=72)              # 1 pixel = 1 point
        self.renderer = FigureCanvasAgg(self.fig).get_renderer()
        self.families = families
        self.y = top
        self.width = width
        self.left, self.right = left, right
        self._prop = FontProperties
        self._widths: dict = {}
        self.runs = runs

    def measure(self, s: str, size: float) -> float:
        """The advance of ``s`` in points, measured at 100 points and scaled (hinting at 10 points rounds each
        glyph by up to a pixel)."""
        w = self._widths.get(s)
        if w is None:
            w, _, _ = self.renderer.get_text_width_height_descent(s, self._prop(family=self.families, size=100),
                                                                 ismath=False)
            self._widths[s] = w
        return w * size / 100

    def width_of(self, s: str, size: float) -> float:
        """The width of ``s`` as :meth:`say` sets it, in figure fractions."""
        space = self.measure("x x", size) - self.measure("xx", size)
        words = s.split(" ")
        pts = sum(self.measure(w, size) for w in words if w) + space * (len(words) - 1)
        return pts / (A4[0] * 72)

    def say(self, x: float, y: float, s: str, size: float, colour: str = "#000000"):
        """``s`` with its top at figure fraction (x, y), a word at a time at the places Agg measures."""
        space = self.measure("x x", size) - self.measure("xx", size)
        at = x * A4[0] * 72
        for word in s.split(" "):
            for part in (script_runs(word) if self.runs else [word] if word else []):
                self.fig.text(at / (A4[0] * 72), y, part, fontsize=size, color=colour, va="top")
                at += self.measure(part, size)
            at += space

    def line_height(self, size: float) -> float:
        return size / 72 / A4[1] * 1.45

    def wrapped(self, s: str, size: float) -> list[str]:
        """``s`` cut into lines as wide as the page between the margins holds (measured, word by word)."""
        room, lines, line = self.right - self.left, [], ""
        for word in s.split():
            if line and self.width_of(f"{line} {word}", size) > room:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return lines + [line] if line else lines

    def text(self, s: str, size: float = 10.5, gap: float = 0.006, wrap: int | None = None,
             colour: str = "#000000"):
        """``s`` wrapped at ``wrap`` (default ``width``) characters from the left margin (``wrap=0``: at the
        measured width between the margins, :meth:`wrapped`), then ``gap`` below."""
        for line in (self.wrapped(s, size) if wrap == 0 else textwrap.wrap(s, wrap or self.width)) or [""]:
            self.say(self.left, self.y, line, size, colour)
            self.y -= self.line_height(size)
        self.y -= gap

    def lines(self, k: int):
        """``k`` ruled lines to write on."""
        for _ in range(k):
            self.y -= 0.026
            self.fig.add_artist(rule(self.y, self.left, self.right))
        self.y -= 0.012

    def rule(self, gap: float = 0.006):
        """A thin line across the page at the current place, then ``gap`` below."""
        self.fig.add_artist(rule(self.y, self.left, self.right))
        self.y -= gap

    def table(self, columns: list[str], rows: list[list[str]], xs: list[float], *, size: float = 10,
              head_size: float = 9, head_wrap: int = 18, row_height: float = 0.02, head_height: float = 0.036,
              below: float = 0.006):
        """A table: the column headings (wrapped at ``head_wrap`` characters, grey) at ``xs``, a rule, one line
        per row, a rule (``below``: how far above the next line's top the closing rule is drawn)."""
        top = self.y
        for x, c in zip(xs, columns):
            for k, part in enumerate(textwrap.wrap(c, head_wrap)):
                self.say(x, top - k * 0.014, part, head_size, "#404040")
        self.y = top - head_height
        self.fig.add_artist(rule(self.y + 0.006, self.left, self.right))
        for r in rows:
            for x, v in zip(xs, r):
                self.say(x, self.y, str(v), size)
            self.y -= row_height
        self.fig.add_artist(rule(self.y + below, self.left, self.right))
        self.y -= 0.012


def _devanagari(ch: str) -> bool:
    return 0x0900 <= ord(ch) <= 0x097F or ord(ch) in (0x200C, 0x200D)      # the block, and ZWNJ / ZWJ


def script_runs(word: str) -> list[str]:
    """``word`` cut where Devanagari meets anything else ("के)," -> "के", "),")."""
    out: list[str] = []
    for ch in word:
        if out and _devanagari(ch) == _devanagari(out[-1][-1]):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def rule(y: float, left: float = 0.07, right: float = 0.93):
    """A thin grey line across the page at figure fraction ``y``."""
    from matplotlib.lines import Line2D
    return Line2D([left, right], [y, y], linewidth=0.5, color="#808080")


def pdf_document(lang: str, draw) -> bytes:
    """The PDF bytes of the pages ``draw(families)`` yields (each a :class:`Page`, or anything with ``fig``),
    drawn with the maps' font for ``lang``; no creation date, creator or producer: the same inputs give the same
    bytes."""
    import matplotlib
    matplotlib.use("agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    from .maps.style import font_rc
    rc = font_rc(lang)
    buf = io.BytesIO()
    with matplotlib.rc_context(rc), PdfPages(buf, metadata={"CreationDate": None, "Creator": None,
                                                            "Producer": None}) as pdf:
        for page in draw(rc["font.family"]):
            pdf.savefig(page.fig)
            plt.close(page.fig)
    return buf.getvalue()
