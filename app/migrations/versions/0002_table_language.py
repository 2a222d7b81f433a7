"""A table's language: the teacher picks it when opening the table (issue #9); tables opened before
play in English.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    if 'language' in {c['name'] for c in sa.inspect(op.get_bind()).get_columns('play_tables')}:
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=5), nullable=False, server_default='en'))


def downgrade():
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.drop_column('language')
