"""The tables the game's clock plays on: an index of play_tables on (status, next_bot_at), for the query
every process's clock asks five times a second (app/store/timing.py).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

INDEX = 'ix_play_tables_due'


def upgrade():
    if INDEX in {index['name'] for index in sa.inspect(op.get_bind()).get_indexes('play_tables')}:
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.create_index(INDEX, ['status', 'next_bot_at'], unique=False)


def downgrade():
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.drop_index(INDEX)
