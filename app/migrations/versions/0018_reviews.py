"""Spaced review: each roster student's graded namings of each work (reviews), and each work's schedule
(review_cards, worked out by FSRS from the reviews: app/services/reviews.py).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-03 21:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade():
    if 'reviews' in sa.inspect(op.get_bind()).get_table_names():
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    op.create_table(
        'reviews',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('student_id', sa.Integer(), nullable=False),
        sa.Column('deck_key', sa.String(length=80), nullable=False),
        sa.Column('card_id', sa.String(length=120), nullable=False),
        sa.Column('rating', sa.Integer(), nullable=False),
        sa.Column('verdict', sa.String(length=12), nullable=False),
        sa.Column('reviewed_at', sa.Float(), nullable=False),
        sa.Column('deal_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['deal_id'], ['play_deals.id']),
        sa.ForeignKeyConstraint(['student_id'], ['class_students.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('student_id', 'deal_id', 'seq', 'card_id', name='uq_reviews_move'),
    )
    op.create_index('ix_reviews_student_work', 'reviews', ['student_id', 'deck_key', 'card_id', 'reviewed_at'],
                    unique=False)
    op.create_table(
        'review_cards',
        sa.Column('student_id', sa.Integer(), nullable=False),
        sa.Column('deck_key', sa.String(length=80), nullable=False),
        sa.Column('card_id', sa.String(length=120), nullable=False),
        sa.Column('due', sa.Float(), nullable=False),
        sa.Column('last_review', sa.Float(), nullable=False),
        sa.Column('reviews', sa.Integer(), nullable=False),
        sa.Column('lapses', sa.Integer(), nullable=False),
        sa.Column('state_json', sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(['student_id'], ['class_students.id']),
        sa.PrimaryKeyConstraint('student_id', 'deck_key', 'card_id'),
    )
    op.create_index('ix_review_cards_due', 'review_cards', ['student_id', 'deck_key', 'due'], unique=False)


def downgrade():
    op.drop_index('ix_review_cards_due', table_name='review_cards')
    op.drop_table('review_cards')
    op.drop_index('ix_reviews_student_work', table_name='reviews')
    op.drop_table('reviews')
