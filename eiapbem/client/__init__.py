"""The game loop on a player's computer: a game folder, its save, and the rules engine.

``eiapbem.pbem`` knows files and nothing of the rules; ``eiapbem.rules`` knows
the rules and nothing of files.  This package joins them for the commands:

- ``session``: open a player's game from its save, act, end the phase (write
  the turn file), load the others' files (replayed and checked);
- ``newgame``: the host's new game and the client's join (4.2.2);
- ``setups``: saved and default setups (5.2.2, 14.5);
- ``show``: what the manual's info boxes show, as text;
- ``demo``: a hot-seat game in a temporary folder.
"""
