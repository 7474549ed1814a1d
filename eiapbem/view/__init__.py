"""``eiapbem view``: one power's game in a browser on the player's own computer (a client of the client).

The view sits beside the CLI, above the host and the client (``cli | view -> host -> client``), and computes
nothing of its own: it serves the client's ``--json`` documents (``client/documents.py``) and the orders'
forms (``client/actionforms.py``) to one page, and gives the page's orders to the session's public operations
(``act``, ``restart``, ``end_phase``, ``load_all``), so every refusal is the sentence the CLI prints.

- ``app``: ``View``, the game and what the page may ask of it (no HTTP);
- ``server``: the standard library's HTTP server on 127.0.0.1 with a random token in the address;
- ``static/``: the page, plain HTML, CSS and JavaScript (no build step): the map drawn as counters over
  ``present/svgmap.py``'s picture, the panels, the orders' forms and the history slider, and the manual's user
  preferences (4.1.2: Show Possible Moves, Political Shading, Map Scroll Delay, See AI Moves, Always Show
  Ranges; docs/decisions.md "View").
"""
