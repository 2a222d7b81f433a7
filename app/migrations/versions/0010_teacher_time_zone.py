"""A teacher's time zone: the reports (and every time a teacher reads) in the browser's zone (#19).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 12:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    if 'time_zone' in {c['name'] for c in sa.inspect(op.get_bind()).get_columns('teachers')}:
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('teachers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('time_zone', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('teachers', schema=None) as batch_op:
        batch_op.drop_column('time_zone')
