"""Homework: assignments of a deck and rules to a class, and each homework game's table marked with its
assignment (app/services/homework.py).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-04 07:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade():
    inspector = sa.inspect(op.get_bind())
    if 'assignments' in inspector.get_table_names():
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    op.create_table(
        'assignments',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('code', sa.String(length=8), nullable=False),
        sa.Column('teacher_id', sa.Integer(), nullable=False),
        sa.Column('class_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('deck_id', sa.String(length=80), nullable=False),
        sa.Column('rules', sa.String(length=40), nullable=False),
        sa.Column('options_json', sa.Text(), nullable=False),
        sa.Column('computers', sa.Integer(), nullable=False),
        sa.Column('bot', sa.String(length=40), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('language', sa.String(length=5), nullable=False),
        sa.Column('time_zone', sa.String(length=64), nullable=False),
        sa.Column('opens_on', sa.String(length=10), nullable=False),
        sa.Column('due_on', sa.String(length=10), nullable=False),
        sa.Column('opens_at', sa.Float(), nullable=False),
        sa.Column('due_at', sa.Float(), nullable=False),
        sa.Column('created_at', sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(['class_id'], ['classes.id']),
        sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_assignments_code', 'assignments', ['code'], unique=True)
    op.create_index('ix_assignments_teacher_id', 'assignments', ['teacher_id'], unique=False)
    op.create_index('ix_assignments_class_id', 'assignments', ['class_id'], unique=False)
    with op.batch_alter_table('play_tables') as batch:
        batch.add_column(sa.Column('assignment_id', sa.Integer(), nullable=True))
        batch.create_index('ix_play_tables_assignment_id', ['assignment_id'], unique=False)


def downgrade():
    with op.batch_alter_table('play_tables') as batch:
        batch.drop_index('ix_play_tables_assignment_id')
        batch.drop_column('assignment_id')
    op.drop_index('ix_assignments_class_id', table_name='assignments')
    op.drop_index('ix_assignments_teacher_id', table_name='assignments')
    op.drop_index('ix_assignments_code', table_name='assignments')
    op.drop_table('assignments')
