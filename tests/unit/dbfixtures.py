"""A migrated test database (SQLite, and PostgreSQL when configured) with one organisation: a copy
of one migrated once per test process."""

import pytest

from docsvc.server.db.session import make_engine, make_sessionmaker
from docsvc.server.services.accounts import add_user, create_key, create_org
from tests.support import TestDatabase, backends


@pytest.fixture(params=backends())
def db(request, tmp_path, migrated_template):
    database = TestDatabase(request.param, tmp_path, template=migrated_template(request.param))
    engine = make_engine(database.url)
    sessions = make_sessionmaker(engine)
    with sessions() as session:
        org = create_org(session, "Acme")
        user = add_user(session, org, "ada@acme.test", "admin", "Ada")
        _, key = create_key(session, user)
        session.commit()
        ids = (org.id, user.id)
    database.sessions = sessions
    database.org_id, database.user_id = ids
    database.key = key
    yield database
    engine.dispose()
    database.drop()
