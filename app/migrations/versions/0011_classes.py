"""Classes and their rosters (issue #19): a teacher's list of first names, a table opened for a class,
and the roster student each seat was taken by, so a child's results join up across tables and days.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 15:45:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    if 'classes' in sa.inspect(op.get_bind()).get_table_names():
        return  # a schema made by create_all from today's models, stamped as the baseline (app/factory.py)
    op.create_table(
        'classes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('teacher_id', sa.Integer(), sa.ForeignKey('teachers.id'), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('word', sa.String(length=12), nullable=True),
        sa.Column('created_at', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_classes_teacher_id', 'classes', ['teacher_id'])
    op.create_table(
        'class_students',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('class_id', sa.Integer(), sa.ForeignKey('classes.id'), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('name_key', sa.String(length=40), nullable=False),
        sa.Column('removed', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('created_at', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('class_id', 'name_key', name='uq_class_students_name'),
    )
    op.create_index('ix_class_students_class_id', 'class_students', ['class_id'])
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('class_id', sa.Integer(), nullable=True))
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('student_id', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        batch_op.drop_column('student_id')
    with op.batch_alter_table('play_tables', schema=None) as batch_op:
        batch_op.drop_column('class_id')
    op.drop_index('ix_class_students_class_id', 'class_students')
    op.drop_table('class_students')
    op.drop_index('ix_classes_teacher_id', 'classes')
    op.drop_table('classes')
