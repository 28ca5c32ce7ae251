-- +goose Up
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE cases (
    id          TEXT PRIMARY KEY,
    degree_id   TEXT NOT NULL REFERENCES degrees (id),
    area        TEXT NOT NULL,
    title       TEXT NOT NULL,
    facts       TEXT NOT NULL,
    questions   TEXT NOT NULL,
    follow_ups  TEXT NOT NULL,
    key_points  TEXT NOT NULL,
    legal_bases TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('active', 'retired')),
    demo        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    UNIQUE (degree_id, title)
);
CREATE INDEX cases_draw ON cases (degree_id, status, area);

-- Per-degree exam format and rubric; a degree without a row uses the defaults.
CREATE TABLE blueprints (
    degree_id  TEXT PRIMARY KEY REFERENCES degrees (id),
    data       TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE rubrics (
    degree_id  TEXT PRIMARY KEY REFERENCES degrees (id),
    version    INTEGER NOT NULL,
    data       TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Summary columns are kept beside the JSON so lists never decode it.
CREATE TABLE attempts (
    id            TEXT PRIMARY KEY,
    student_id    TEXT NOT NULL REFERENCES users (id),
    student_email TEXT NOT NULL,
    student_name  TEXT NOT NULL DEFAULT '',
    group_id      TEXT NOT NULL DEFAULT '',
    tutor_email   TEXT NOT NULL DEFAULT '',
    degree_id     TEXT NOT NULL,
    case_id       TEXT NOT NULL,
    case_title    TEXT NOT NULL,
    area          TEXT NOT NULL,
    mode          TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('in_progress', 'finished', 'abandoned')),
    self_score    DOUBLE PRECISION,
    tutor_score   DOUBLE PRECISION,
    data          TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    finished_at   BIGINT,
    version       INTEGER NOT NULL
);
-- One attempt in progress per student, even when two tabs start one at once.
CREATE UNIQUE INDEX attempts_one_in_progress ON attempts (student_id) WHERE status = 'in_progress';
CREATE INDEX attempts_student ON attempts (student_id, created_at);
CREATE INDEX attempts_student_email ON attempts (student_email, created_at);
CREATE INDEX attempts_tutor ON attempts (tutor_email, status, created_at);
CREATE INDEX attempts_group ON attempts (group_id, created_at);

CREATE TABLE recordings (
    attempt_id  TEXT NOT NULL REFERENCES attempts (id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    phase       INTEGER NOT NULL,
    mime_type   TEXT NOT NULL,
    duration_ms BIGINT NOT NULL DEFAULT 0,
    levels      TEXT NOT NULL DEFAULT '[]',
    complete    BOOLEAN NOT NULL DEFAULT FALSE,
    deleted     BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (attempt_id, id)
);

CREATE TABLE recording_chunks (
    attempt_id   TEXT NOT NULL,
    recording_id TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    bytes        BIGINT NOT NULL,
    sha256       TEXT NOT NULL,
    PRIMARY KEY (attempt_id, recording_id, seq),
    FOREIGN KEY (attempt_id, recording_id) REFERENCES recordings (attempt_id, id) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE recording_chunks;
DROP TABLE recordings;
DROP TABLE attempts;
DROP TABLE rubrics;
DROP TABLE blueprints;
DROP TABLE cases;
DROP TABLE meta;
