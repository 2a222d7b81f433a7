"""The database handle shared by the models (Flask-SQLAlchemy)."""
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()
