"""Flask blueprints, one per area. Routes stay thin: they call decks, the engine and services."""
