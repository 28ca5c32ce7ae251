-- +goose Up
CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    mail          TEXT NOT NULL UNIQUE,
    display_name  TEXT NOT NULL DEFAULT '',
    given_name    TEXT NOT NULL DEFAULT '',
    surname       TEXT NOT NULL DEFAULT '',
    photo_url     TEXT NOT NULL DEFAULT '',
    role          TEXT NOT NULL CHECK (role IN ('estudiante', 'tutor')),
    password_hash TEXT NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL
);
CREATE INDEX users_role ON users (role);

CREATE TABLE identities (
    provider TEXT NOT NULL,
    subject  TEXT NOT NULL,
    user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (provider, subject)
);

CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    user_agent   TEXT NOT NULL DEFAULT '',
    ip           TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE degrees (
    id     TEXT PRIMARY KEY,
    nombre TEXT NOT NULL UNIQUE
);
INSERT INTO degrees (id, nombre) VALUES ('derecho', 'Derecho');

CREATE TABLE groups (
    id            TEXT PRIMARY KEY,
    carrera       TEXT NOT NULL REFERENCES degrees (id),
    departamento  TEXT NOT NULL DEFAULT '',
    facultad      TEXT NOT NULL DEFAULT '',
    modalidad     TEXT NOT NULL DEFAULT '',
    docente_email TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('activo', 'finalizado')),
    created_at    BIGINT NOT NULL,
    finalized_at  BIGINT
);
-- One active group per tutor: the database refuses a second one even when two
-- requests race.
CREATE UNIQUE INDEX groups_one_active_per_tutor ON groups (docente_email) WHERE status = 'activo';
CREATE INDEX groups_tutor ON groups (docente_email, created_at);

CREATE TABLE group_students (
    group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    email    TEXT NOT NULL,
    name     TEXT NOT NULL DEFAULT '',
    added_at BIGINT NOT NULL,
    PRIMARY KEY (group_id, email)
);
CREATE INDEX group_students_email ON group_students (email);

-- +goose Down
DROP TABLE group_students;
DROP TABLE groups;
DROP TABLE degrees;
DROP TABLE sessions;
DROP TABLE identities;
DROP TABLE users;
