-- +goose Up
-- A session's short, random, non-secret id, shown to its user and logged.
ALTER TABLE sessions ADD COLUMN id TEXT NOT NULL DEFAULT '';
UPDATE sessions SET id = substr(md5(random()::text || token_hash), 1, 16);

-- Password resets and sign-ins waiting for a second factor: only the
-- token's SHA-256 is kept.
CREATE TABLE one_time_tokens (
    token_hash TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issued_by  TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX one_time_tokens_user ON one_time_tokens (user_id, kind);
CREATE INDEX one_time_tokens_expires ON one_time_tokens (expires_at);

-- A user's TOTP second factor and its single-use recovery codes (hashed).
CREATE TABLE user_mfa (
    user_id     TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    totp_secret TEXT NOT NULL,
    enabled_at  BIGINT,
    last_step   BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE mfa_recovery_codes (
    user_id   TEXT NOT NULL REFERENCES user_mfa (user_id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at   BIGINT,
    PRIMARY KEY (user_id, code_hash)
);

-- Rate-limit counters shared by every server instance: hits of a bucket
-- in a fixed window.
CREATE TABLE rate_limits (
    bucket     TEXT PRIMARY KEY,
    window_end BIGINT NOT NULL,
    hits       BIGINT NOT NULL
);
CREATE INDEX rate_limits_window_end ON rate_limits (window_end);

-- +goose Down
DROP TABLE rate_limits;
DROP TABLE mfa_recovery_codes;
DROP TABLE user_mfa;
DROP TABLE one_time_tokens;
ALTER TABLE sessions DROP COLUMN id;
