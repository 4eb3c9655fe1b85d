"""integrations know their code host

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29

An integration names its code host (github, gitlab or plain git), the host's API URL, the name of
the environment variable that holds its token (never the token), the repositories as the host
names them (OWNER/NAME), and for GitHub App auth the app id and private-key file. Integrations made
before this keep plain git, as they behaved: ``docsvc-server integrations update`` moves them.
"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

def _columns() -> list[sa.Column]:
    return [
        sa.Column('host', sa.String(20), nullable=False, server_default='git'),
        sa.Column('host_api_url', sa.Text(), nullable=True),
        sa.Column('host_token_env', sa.String(200), nullable=True),
        sa.Column('code_host_repo', sa.String(500), nullable=True),
        sa.Column('docs_host_repo', sa.String(500), nullable=True),
        sa.Column('github_app_id', sa.Integer(), nullable=True),
        sa.Column('github_app_key_file', sa.Text(), nullable=True),
    ]


def upgrade() -> None:
    with op.batch_alter_table('integrations') as batch:
        for column in _columns():
            batch.add_column(column)


def downgrade() -> None:
    with op.batch_alter_table('integrations') as batch:
        for column in reversed(_columns()):
            batch.drop_column(column.name)
