"""Who may take or keep a seat: every device's request to have an away seat back is a row of its own
(none replaces another; the teacher lets in one), and a seat remembers the browser that plays it, so a
student taken off for the match cannot join again from it under another name. A request that waited
in the seat's own columns becomes the seat's first row.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 11:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade():
    if 'seat_claims' in sa.inspect(op.get_bind()).get_table_names():
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('browser_hash', sa.String(length=64), nullable=True))
    op.create_table(
        'seat_claims',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('seat_id', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('browser_hash', sa.String(length=64), nullable=True),
        sa.Column('device', sa.String(length=60), nullable=False),
        sa.Column('asked_at', sa.Float(), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('decided_at', sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(['seat_id'], ['play_seats.id']),
        sa.ForeignKeyConstraint(['table_id'], ['play_tables.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token_hash'),
    )
    op.create_index('ix_seat_claims_seat_id', 'seat_claims', ['seat_id'], unique=False)
    op.create_index('ix_seat_claims_table_id', 'seat_claims', ['table_id'], unique=False)
    # The request each seat held (waiting or refused) is kept: its device's page goes on asking after it.
    op.execute("INSERT INTO seat_claims (table_id, seat_id, token_hash, device, asked_at, status) "
               "SELECT table_id, id, claim_hash, '', claim_at, "
               "CASE WHEN claim_refused THEN 'refused' ELSE 'waiting' END "
               "FROM play_seats WHERE claim_hash IS NOT NULL AND claim_at IS NOT NULL")


def downgrade():
    # The seats' own columns keep the newest request of each seat, as before this revision.
    op.drop_index('ix_seat_claims_table_id', table_name='seat_claims')
    op.drop_index('ix_seat_claims_seat_id', table_name='seat_claims')
    op.drop_table('seat_claims')
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        batch_op.drop_column('browser_hash')
