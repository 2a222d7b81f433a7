"""One word per thing: one deal of a match is a `deal` in the code (the rules, the screens and the API
call it a hand, as card players do); `hand` is left for the cards a player holds. The table of deals and
the move log's column that points at one are renamed, their indexes with them; no row changes.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 20:45:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def _rename(old_table, new_table, old_column, new_column):
    # Plain ALTER statements, which SQLite (3.25 and later) and PostgreSQL both take: the rows, the foreign
    # key from the move log and the (deal, seq) uniqueness stay as they are, under the new names.
    op.drop_index(f'ix_{old_table}_table_id', table_name=old_table)
    op.drop_index(f'ix_play_moves_{old_column}', table_name='play_moves')
    op.rename_table(old_table, new_table)
    op.execute(f'ALTER TABLE play_moves RENAME COLUMN {old_column} TO {new_column}')
    op.create_index(f'ix_{new_table}_table_id', new_table, ['table_id'], unique=False)
    op.create_index(f'ix_play_moves_{new_column}', 'play_moves', [new_column], unique=False)


def upgrade():
    if 'play_deals' in sa.inspect(op.get_bind()).get_table_names():
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    _rename('play_hands', 'play_deals', 'hand_id', 'deal_id')


def downgrade():
    _rename('play_deals', 'play_hands', 'deal_id', 'hand_id')
