"""webhook body digests

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29

A signature covers a delivery's body, not its delivery id (GitHub's X-GitHub-Delivery, GitLab's
Idempotency-Key): a captured body sent again under a fresh id is still signed. Each taken
delivery keeps the SHA-256 of its raw body, unique per integration, so such a replay does nothing.
Rows from before have none (NULL never collides).
"""
from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('webhook_deliveries') as batch:
        batch.add_column(sa.Column('body_sha256', sa.String(length=64), nullable=True))
        batch.create_unique_constraint('uq_webhook_deliveries_integration_body', ['integration_id', 'body_sha256'])


def downgrade() -> None:
    with op.batch_alter_table('webhook_deliveries') as batch:
        batch.drop_constraint('uq_webhook_deliveries_integration_body', type_='unique')
        batch.drop_column('body_sha256')
