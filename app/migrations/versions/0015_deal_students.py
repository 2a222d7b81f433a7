"""Who played a deal as a student: each deal keeps the players who were students when it was dealt, so a
computer's moves for one of them (standing in, replacing her) name no work, and the reports keep her
whatever holds her seat later. A deal dealt before this revision keeps NULL: the reports then take the
seats that are a student's now.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03 11:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade():
    if 'students_json' in {c['name'] for c in sa.inspect(op.get_bind()).get_columns('play_deals')}:
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('play_deals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('students_json', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('play_deals', schema=None) as batch_op:
        batch_op.drop_column('students_json')
