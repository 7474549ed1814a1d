"""Land combat (section 11) as small pure functions over the charts of
``eiapbem.rules.tables.land``.  The rules-case procedures that check them
against the manual's worked examples live in ``eiapbem.rulecases.procedures``:

- ``morale``: base and final morale levels (11.2.5);
- ``commander``: tactical ratings, the tactical maximum and the commander chart (11.2.9, 13.8.7);
- ``tables_use``: which combat table each side uses in a round, terrain and
  guard shifts, outflanking forces (11.2.6-11.2.8, 11.2.12);
- ``pursuit``: pursuit class and losses (11.2.10);
- ``siege``: assault attempts and sorties (11.4.1);
- ``field``: a whole field or trivial combat as a battle driven by pending
  decisions (11.2, 11.3, 11.5, 13.8), with ``battle`` (the shared record and
  force helpers), ``casualties`` (taking losses), ``retreat`` (11.2.10),
  ``trivial`` (11.3), ``aftermath`` (capture, surrender, leader casualties,
  depots, emptied corps) and ``report`` (the battle report as text or JSON).
"""
