"""The network check: the addresses that opened a student's page lately, and their round trips.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03 14:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    if 'network_sightings' in sa.inspect(op.get_bind()).get_table_names():
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    op.create_table(
        'network_sightings',
        sa.Column('address', sa.String(length=45), nullable=False),
        sa.Column('device', sa.String(length=40), nullable=False),
        sa.Column('first_seen', sa.Float(), nullable=False),
        sa.Column('last_seen', sa.Float(), nullable=False),
        sa.Column('round_trip_ms', sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint('address'),
    )
    with op.batch_alter_table('network_sightings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_network_sightings_last_seen'), ['last_seen'], unique=False)


def downgrade():
    with op.batch_alter_table('network_sightings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_network_sightings_last_seen'))
    op.drop_table('network_sightings')
