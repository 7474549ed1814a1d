"""eiapbem: a play-by-email engine for Empires in Arms: The Napoleonic Wars.

Layers (arrows point to what a layer may import)::

    cli -> host -> pbem -> rules <- ai
    cli -> gap  -> pbem

``eiapbem.rules`` is the deterministic rules core: no I/O, no clock, no global
random, no floats, no dependence on set or hash order.
"""

__version__ = "0.1.0"
