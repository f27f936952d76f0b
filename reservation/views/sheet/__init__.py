"""The one-page district sheet (issue 22): a district's offices, their computed categories with how sure each is,
the published list beside and the history, on one A4 page in English or Hindi, for a reporter to attach to a
story (``reservation sheet``).

- :mod:`.data`: what the sheet says, from the package's allotments and shipped lists (:func:`sheet_data`);
- :mod:`.cells`: the sheet's text cell by cell (:func:`cells`), every word from :mod:`reservation.law`;
- :mod:`.page`: the page drawn with :mod:`reservation.views.pdf` (:func:`sheet_pdf`, :func:`write_sheet`).
"""

from .cells import cells
from .data import Sheet, default_years, find_district, sheet_data
from .page import sheet_pdf, write_sheet

__all__ = ["Sheet", "cells", "default_years", "find_district", "sheet_data", "sheet_pdf", "write_sheet"]
