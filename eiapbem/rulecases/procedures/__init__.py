"""Rules-case procedures: each module registers its own with ``@procedure`` (``eiapbem.rulecases.harness``)."""
