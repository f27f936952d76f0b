"""What a rulebook declares, the shared catalogue of readings, the named keys, the registry of bodies, and one module
per instrument (zp_chair, kp_chair, municipal, gp_and_wards).

:func:`reservation.rules.registry.get_rulebook` imports each instrument's module on first use.
"""
