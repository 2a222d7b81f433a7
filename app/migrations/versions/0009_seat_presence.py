"""Seats that survive a real classroom (#19): a seat's last poll (presence), a computer standing in while
its student is away, and a request from another device to have the seat back.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

COLUMNS = ('seen_at', 'stand_in', 'claim_hash', 'claim_at', 'claim_refused')


def upgrade():
    if 'seen_at' in {c['name'] for c in sa.inspect(op.get_bind()).get_columns('play_seats')}:
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seen_at', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('stand_in', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('claim_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('claim_at', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('claim_refused', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        for name in reversed(COLUMNS):
            batch_op.drop_column(name)
