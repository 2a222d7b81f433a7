"""A table's pace: seconds between its computer players' moves, chosen by the teacher (issue #18).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 11:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    if 'pace_seconds' in {c['name'] for c in sa.inspect(op.get_bind()).get_columns('play_tables')}:
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pace_seconds', sa.Float(), nullable=True))


def downgrade():
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.drop_column('pace_seconds')
