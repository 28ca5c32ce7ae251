-- +goose Up
-- Small counts shared by every instance of the server (sign-in throttling,
-- per account and per address). Times are Unix milliseconds; a row whose
-- expires_at has passed reads as absent and the sweep deletes it.
CREATE TABLE counters (
    id         TEXT PRIMARY KEY,
    count      BIGINT NOT NULL,
    start_at   BIGINT NOT NULL,
    until_at   BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX counters_expires ON counters (expires_at);

-- +goose Down
DROP TABLE counters;
