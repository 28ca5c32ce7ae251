-- +goose Up
-- One transcript per recording: the browser's live one, replaced by the
-- server's when it arrives, or a person's correction (which nothing replaces).
CREATE TABLE transcripts (
    attempt_id   TEXT NOT NULL,
    recording_id TEXT NOT NULL,
    source       TEXT NOT NULL CHECK (source IN ('browser', 'server', 'edited')),
    language     TEXT NOT NULL DEFAULT '',
    segments     TEXT NOT NULL,
    updated_at   BIGINT NOT NULL,
    updated_by   TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (attempt_id, recording_id),
    FOREIGN KEY (attempt_id, recording_id) REFERENCES recordings (attempt_id, id) ON DELETE CASCADE
);

-- Background jobs that survive restarts (server-side transcription).
CREATE TABLE jobs (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    payload      TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_run_at  BIGINT NOT NULL,
    locked_until BIGINT NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);
CREATE INDEX jobs_due ON jobs (kind, status, next_run_at);

-- +goose Down
DROP TABLE jobs;
DROP TABLE transcripts;
