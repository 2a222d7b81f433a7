"""Studio images in the database (issue #8): several app hosts share one database, so an image a
teacher uploads on one host is served and printed by every other. Images already on this host's disk
are taken into the database the first time their deck is used (app/services/studio/uploads.py).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 03:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    if 'studio_images' in sa.inspect(op.get_bind()).get_table_names():
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    op.create_table(
        'studio_images',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('deck_id', sa.Integer(), nullable=False),
        sa.Column('path', sa.String(length=200), nullable=False),
        sa.Column('data', sa.LargeBinary(), nullable=False),
        sa.Column('created_at', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('deck_id', 'path'),
    )
    with op.batch_alter_table('studio_images', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_studio_images_deck_id'), ['deck_id'], unique=False)


def downgrade():
    with op.batch_alter_table('studio_images', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_studio_images_deck_id'))
    op.drop_table('studio_images')
