"""Authors Classroom.

Rooms of the house: `decks` (the deck format and library) and `engine` (the rules) are pure Python
and import nothing from Flask or the database; `web` holds the Flask blueprints; `cli` the `authors`
command. `create_app` is imported lazily so that `import app.engine` stays free of Flask.
"""


def create_app(test_config: dict | None = None):
    from .factory import create_app as _create_app

    return _create_app(test_config)


def create_served_app(config: dict | None = None):
    from .factory import create_served_app as _create_served_app

    return _create_served_app(config)
