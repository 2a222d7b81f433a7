"""Each browser's log-in is a row (teacher_logins): the session cookie holds its secret token, the
database its hash, so logging out ends that log-in wherever its cookie was saved, and a password
change ends the account's others. teachers.session_version, which did the latter, goes. Teachers
logged in before this are asked to log in again.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    inspector = sa.inspect(op.get_bind())
    if 'teacher_logins' not in inspector.get_table_names():  # (else made by create_all from today's models)
        op.create_table(
            'teacher_logins',
            sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('token_hash', sa.String(length=64), nullable=False),
            sa.Column('teacher_id', sa.Integer(), nullable=False),
            sa.Column('created_at', sa.Float(), nullable=False),
            sa.Column('seen_at', sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ),
            sa.PrimaryKeyConstraint('id'),
            sa.UniqueConstraint('token_hash'),
        )
        with op.batch_alter_table('teacher_logins', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_teacher_logins_teacher_id'), ['teacher_id'], unique=False)
    if 'session_version' in {c['name'] for c in inspector.get_columns('teachers')}:
        with op.batch_alter_table('teachers', schema=None) as batch_op:
            batch_op.drop_column('session_version')


def downgrade():
    with op.batch_alter_table('teachers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_version', sa.Integer(), nullable=False, server_default='1'))
    with op.batch_alter_table('teacher_logins', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_teacher_logins_teacher_id'))
    op.drop_table('teacher_logins')
