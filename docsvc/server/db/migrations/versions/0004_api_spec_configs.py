"""api-readiness configuration

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""
from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('api_spec_configs',
    sa.Column('org_id', sa.Integer(), nullable=False),
    sa.Column('integration_id', sa.Integer(), nullable=False),
    sa.Column('branch', sa.String(length=200), nullable=True),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('run_swagger', sa.Boolean(), nullable=False),
    sa.Column('run_redocly', sa.Boolean(), nullable=False),
    sa.Column('run_ai_fix', sa.Boolean(), nullable=False),
    sa.Column('run_ai_content', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['integration_id'], ['integrations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['org_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('org_id')
    )


def downgrade() -> None:
    op.drop_table('api_spec_configs')
