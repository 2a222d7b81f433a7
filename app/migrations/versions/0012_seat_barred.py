"""A name the teacher took off a table for the rest of its match (issue #19): its seat keeps the name for
the game, and nobody may take it or ask for it back.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 16:15:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade():
    if 'barred' in {c['name'] for c in sa.inspect(op.get_bind()).get_columns('play_seats')}:
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('barred', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        batch_op.drop_column('barred')
