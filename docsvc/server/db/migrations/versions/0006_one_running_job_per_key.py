"""one running job per concurrency key, as a constraint

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25

Two jobs with one concurrency key (two syncs of one integration) never run at the same time, even
when several service processes claim jobs from one database: a partial unique index on the keys
of running jobs makes a second claim fail in the database itself.
"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

RUNNING = sa.text("state = 'running'")


def upgrade() -> None:
    op.create_index('ux_jobs_running_key', 'jobs', ['concurrency_key'], unique=True,
                    postgresql_where=RUNNING, sqlite_where=RUNNING)


def downgrade() -> None:
    op.drop_index('ux_jobs_running_key', table_name='jobs')
