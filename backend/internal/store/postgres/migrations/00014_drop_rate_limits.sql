-- +goose Up
-- Rate limits count in the counters table now (store.Counters), as
-- sign-in throttling does: one way to count. The old counts are short-lived
-- (15 minutes to an hour) and are not carried over.
DROP TABLE rate_limits;

-- +goose Down
CREATE TABLE rate_limits (
    bucket     TEXT PRIMARY KEY,
    window_end BIGINT NOT NULL,
    hits       BIGINT NOT NULL
);
CREATE INDEX rate_limits_window_end ON rate_limits (window_end);
