-- +goose Up
-- When the user last signed in (set with every new session); NULL until the
-- first sign-in, so a profile created from the terminal is not mistaken for
-- a student who has already entered.
ALTER TABLE users ADD COLUMN last_login_at BIGINT;

-- +goose Down
ALTER TABLE users DROP COLUMN last_login_at;
