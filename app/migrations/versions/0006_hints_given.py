"""Hints the server gave, so a hinted naming scores no bonus whatever the browser says (issue #17).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 11:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    if 'hints_given' in sa.inspect(op.get_bind()).get_table_names():
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    op.create_table(
        'hints_given',
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('seat', sa.String(length=40), nullable=False),
        sa.Column('level', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('table_id', 'version', 'seat'),
    )


def downgrade():
    op.drop_table('hints_given')
