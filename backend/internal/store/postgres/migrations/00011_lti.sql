-- +goose Up
-- LTI 1.3 (docs/lti.md): the platforms registered to launch the tool, the
-- tool's signing keys, single-use records (login state, used nonces,
-- sign-in codes), the courses launched from, who each person is on a
-- platform, and which course and gradebook column a group is tied to.
CREATE TABLE lti_platforms (
    id             TEXT PRIMARY KEY,
    issuer         TEXT NOT NULL,
    client_id      TEXT NOT NULL,
    deployment_ids TEXT NOT NULL DEFAULT '[]',
    auth_url       TEXT NOT NULL,
    token_url      TEXT NOT NULL,
    jwks_url       TEXT NOT NULL,
    frame_origins  TEXT NOT NULL DEFAULT '[]',
    allow_tutors   BOOLEAN NOT NULL DEFAULT FALSE,
    created_at     BIGINT NOT NULL,
    UNIQUE (issuer, client_id)
);

CREATE TABLE lti_keys (
    id          TEXT PRIMARY KEY,
    private_key TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    retired_at  BIGINT
);
-- At most one current key: of two rotations at once, the second one's
-- insert waits for the first and then fails, and is run again.
CREATE UNIQUE INDEX lti_keys_one_current ON lti_keys ((retired_at IS NULL)) WHERE retired_at IS NULL;

CREATE TABLE lti_once (
    kind       TEXT NOT NULL,
    key_hash   TEXT NOT NULL,
    data       TEXT NOT NULL DEFAULT '',
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (kind, key_hash)
);
CREATE INDEX lti_once_expires ON lti_once (expires_at);

CREATE TABLE lti_courses (
    id              TEXT PRIMARY KEY,
    platform_id     TEXT NOT NULL,
    deployment_id   TEXT NOT NULL DEFAULT '',
    context_id      TEXT NOT NULL,
    title           TEXT NOT NULL DEFAULT '',
    label           TEXT NOT NULL DEFAULT '',
    memberships_url TEXT NOT NULL DEFAULT '',
    lineitems_url   TEXT NOT NULL DEFAULT '',
    service_scopes  TEXT NOT NULL DEFAULT '[]',
    degree          TEXT NOT NULL DEFAULT '',
    updated_at      BIGINT NOT NULL
);

CREATE TABLE lti_course_tutors (
    course_id   TEXT NOT NULL REFERENCES lti_courses (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    launched_at BIGINT NOT NULL,
    PRIMARY KEY (course_id, user_id)
);
CREATE INDEX lti_course_tutors_user ON lti_course_tutors (user_id, launched_at);

CREATE TABLE lti_subjects (
    platform_id TEXT NOT NULL,
    email       TEXT NOT NULL,
    subject     TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (platform_id, email)
);

CREATE TABLE lti_group_links (
    group_id        TEXT PRIMARY KEY REFERENCES groups (id) ON DELETE CASCADE,
    course_id       TEXT NOT NULL REFERENCES lti_courses (id),
    lineitem_url    TEXT NOT NULL DEFAULT '',
    lineitem_label  TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);

-- +goose Down
DROP TABLE lti_group_links;
DROP TABLE lti_subjects;
DROP TABLE lti_course_tutors;
DROP TABLE lti_courses;
DROP TABLE lti_once;
DROP TABLE lti_keys;
DROP TABLE lti_platforms;
