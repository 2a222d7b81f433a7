"""A match that ends tied may be settled by one more hand among everyone (the teacher's choice, #16).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 13:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    if 'match_tie_break' in {c['name'] for c in sa.inspect(op.get_bind()).get_columns('play_tables')}:
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('match_tie_break', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.drop_column('match_tie_break')
