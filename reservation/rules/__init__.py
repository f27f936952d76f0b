"""What a rulebook declares, the shared catalogue of readings, the named keys, the law's figures and the options'
evidence (parameters, read from params/*.toml), the registry of bodies, and one module per body: zp_chair, kp_chair,
gp_pradhan, gp_ward, kp_ward, zp_ward (sharing panchayat_units), pp_chair, np_chair, mayor (sharing urban,
urban_bodies, urban_divisions).

:func:`reservation.rules.registry.get_rulebook` imports each body's module on first use and reads its ``RULEBOOK``.
"""
