"""The teacher's controls: a table can be paused (no moves) and locked (no new joins) (issue #19).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 11:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    present = {c['name'] for c in sa.inspect(op.get_bind()).get_columns('play_tables')}
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        for name in ('paused', 'locked'):
            if name not in present:  # (a schema made by create_all from today's models already has them)
                batch_op.add_column(sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.drop_column('locked')
        batch_op.drop_column('paused')
