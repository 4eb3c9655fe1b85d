"""webhook secrets and deliveries

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29

Each integration gets the secret its code host signs webhooks with, and every delivery is kept
(its id unique per integration, so a redelivery does nothing again) with what came of it.
"""
from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('integrations') as batch:
        batch.add_column(sa.Column('webhook_secret', sa.String(length=100), nullable=True))
    op.create_table('webhook_deliveries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('integration_id', sa.Integer(), nullable=False),
    sa.Column('delivery_id', sa.String(length=200), nullable=False),
    sa.Column('host', sa.String(length=20), nullable=False),
    sa.Column('event', sa.String(length=100), nullable=False),
    sa.Column('action', sa.String(length=100), nullable=True),
    sa.Column('outcome', sa.String(length=20), nullable=False),
    sa.Column('result', sa.Text(), nullable=False),
    sa.Column('job_id', sa.String(length=36), nullable=True),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['integration_id'], ['integrations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('integration_id', 'delivery_id')
    )
    op.create_index('ix_webhook_deliveries_integration_received', 'webhook_deliveries',
                    ['integration_id', 'received_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_webhook_deliveries_integration_received', table_name='webhook_deliveries')
    op.drop_table('webhook_deliveries')
    with op.batch_alter_table('integrations') as batch:
        batch.drop_column('webhook_secret')
