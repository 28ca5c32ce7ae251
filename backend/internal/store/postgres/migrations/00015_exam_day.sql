-- +goose Up
-- A recording's row counts its chunks and their bytes, changed with the
-- chunks in one transaction: reading a recording, or checking a chunk
-- against the recording's size limit, no longer sums all of its chunks.
ALTER TABLE recordings ADD COLUMN chunk_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE recordings ADD COLUMN chunk_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE recordings SET
    chunk_count = (SELECT COUNT(*) FROM recording_chunks c WHERE c.attempt_id = recordings.attempt_id AND c.recording_id = recordings.id),
    chunk_bytes = (SELECT COALESCE(SUM(c.bytes), 0) FROM recording_chunks c WHERE c.attempt_id = recordings.attempt_id AND c.recording_id = recordings.id);

-- An attempt's notes get their own column, so saving them (every few
-- seconds while a student prepares) neither reads nor rewrites the
-- snapshots in data; NULL in rows saved before, whose notes stay in data.
ALTER TABLE attempts ADD COLUMN notes TEXT;

-- +goose Down
ALTER TABLE attempts DROP COLUMN notes;
ALTER TABLE recordings DROP COLUMN chunk_bytes;
ALTER TABLE recordings DROP COLUMN chunk_count;
