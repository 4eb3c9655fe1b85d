"""repositories sync and search

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('outbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('org_id', sa.Integer(), nullable=False),
    sa.Column('recipients', sa.JSON(), nullable=False),
    sa.Column('subject', sa.Text(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['org_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_org_id'), ['org_id'], unique=False)

    op.create_table('repo_states',
    sa.Column('integration_id', sa.Integer(), nullable=False),
    sa.Column('docs_commit', sa.String(length=64), nullable=True),
    sa.Column('code_commit', sa.String(length=64), nullable=True),
    sa.Column('synced_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('files_indexed', sa.Integer(), nullable=False),
    sa.Column('remote_checked_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('behind_docs', sa.Integer(), nullable=True),
    sa.Column('behind_code', sa.Integer(), nullable=True),
    sa.Column('remote_docs_commit', sa.String(length=64), nullable=True),
    sa.Column('remote_code_commit', sa.String(length=64), nullable=True),
    sa.Column('remote_error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['integration_id'], ['integrations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('integration_id')
    )
    op.create_table('search_docs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('org_id', sa.Integer(), nullable=False),
    sa.Column('integration_id', sa.Integer(), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('blob', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('title', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['integration_id'], ['integrations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['org_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('integration_id', 'path')
    )
    with op.batch_alter_table('search_docs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_search_docs_org_id'), ['org_id'], unique=False)

    op.create_table('sync_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('org_id', sa.Integer(), nullable=False),
    sa.Column('integration_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['integration_id'], ['integrations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['org_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('integration_id', 'day')
    )
    with op.batch_alter_table('sync_requests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sync_requests_integration_id'), ['integration_id'], unique=False)

    op.create_table('search_chunks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('doc_id', sa.Integer(), nullable=False),
    sa.Column('line', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['doc_id'], ['search_docs.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('search_chunks', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_search_chunks_doc_id'), ['doc_id'], unique=False)

    # The full-text index: FTS5 kept in step by triggers on SQLite; a generated tsvector with a
    # GIN index on PostgreSQL.
    if op.get_bind().dialect.name == "sqlite":
        op.execute("CREATE VIRTUAL TABLE search_fts USING fts5(text, content='search_chunks', "
                   "content_rowid='id', tokenize='porter unicode61')")
        op.execute("CREATE TRIGGER search_chunks_ai AFTER INSERT ON search_chunks BEGIN "
                   "INSERT INTO search_fts(rowid, text) VALUES (new.id, new.text); END")
        op.execute("CREATE TRIGGER search_chunks_ad AFTER DELETE ON search_chunks BEGIN "
                   "INSERT INTO search_fts(search_fts, rowid, text) VALUES ('delete', old.id, old.text); END")
    else:
        op.execute("ALTER TABLE search_chunks ADD COLUMN tsv tsvector "
                   "GENERATED ALWAYS AS (to_tsvector('english', text)) STORED")
        op.execute("CREATE INDEX ix_search_chunks_tsv ON search_chunks USING GIN (tsv)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS search_chunks_ai")
        op.execute("DROP TRIGGER IF EXISTS search_chunks_ad")
        op.execute("DROP TABLE IF EXISTS search_fts")
    with op.batch_alter_table('search_chunks', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_search_chunks_doc_id'))

    op.drop_table('search_chunks')
    with op.batch_alter_table('sync_requests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sync_requests_integration_id'))

    op.drop_table('sync_requests')
    with op.batch_alter_table('search_docs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_search_docs_org_id'))

    op.drop_table('search_docs')
    op.drop_table('repo_states')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_org_id'))

    op.drop_table('outbox')
