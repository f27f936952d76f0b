"""Transitional view of the rulebook registry for the views, until they call :mod:`reservation.pipeline`.

Deprecated: use :func:`reservation.rulebook.get_rulebook` and :func:`reservation.pipeline.allot`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rulebook import Rulebook, all_rulebooks, get_rulebook

__all__ = ["Body", "BODIES", "get_body"]


@dataclass(frozen=True)
class Body:
    rb: Rulebook

    @property
    def id(self):
        return self.rb.id

    @property
    def title(self):
        return self.rb.title

    @property
    def unit(self):
        return self.rb.unit_kind

    @property
    def years(self):
        y = self.rb.years
        return tuple(e for e in y.elections if e >= min(y.law)) + tuple(y.upcoming(1))

    @property
    def needs_units(self):
        return self.rb.units_file == "required"

    @property
    def accepts_units(self):
        return self.rb.units_file == "optional"

    @property
    def parent_table(self):
        return self.rb.parent_table

    def options(self, assignments=()):
        return self.rb.option_set(list(assignments))

    def counts(self, year, opts=None):
        from .pipeline import counts
        return counts(self.rb.id, year, options=opts or ())

    def allot(self, year, *, history_paths=None, base_year=None, population_path=None, pin_path=None, options=(),
              units_path=None, districts=None, history=None):
        from .pipeline import allot
        return allot(self.rb.id, year, units=units_path if districts is None else districts,
                     history=history if history is not None else history_paths, population=population_path,
                     pins=pin_path, options=options, base_year=base_year)


BODIES: dict[str, Body] = {k: Body(v) for k, v in all_rulebooks().items()}


def get_body(body_id: str, year: int | None = None) -> Body:
    b = Body(get_rulebook(body_id))
    if year is not None:
        b.rb.years.check(body_id, int(year))
    return b
