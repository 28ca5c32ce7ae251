-- +goose Up
-- A recording's row counts its chunks and their bytes, changed with the
-- chunks in one transaction: reading a recording, or checking a chunk
-- against the recording's size limit, no longer sums all of its chunks.
ALTER TABLE recordings ADD COLUMN chunk_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE recordings ADD COLUMN chunk_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE recordings SET
    chunk_count = (SELECT COUNT(*) FROM recording_chunks c WHERE c.attempt_id = recordings.attempt_id AND c.recording_id = recordings.id),
    chunk_bytes = (SELECT COALESCE(SUM(c.bytes), 0) FROM recording_chunks c WHERE c.attempt_id = recordings.attempt_id AND c.recording_id = recordings.id);

-- An attempt's row keeps its snapshots (case, rubric, phases: ~10 kB of
-- JSON) in the column data, before created_at, finished_at and version: a
-- query that reads those reads the row's overflow pages too. Lists of a
-- group's attempts (the tutor's report) and of a tutor's attempts (the
-- grading queue) read only the summary columns, from these indexes.
CREATE INDEX attempts_group_summary ON attempts (group_id, created_at, id, student_id, student_email, student_name,
    mode, status, case_title, area, self_score, tutor_score, finished_at, version);
CREATE INDEX attempts_tutor_summary ON attempts (tutor_email, status, created_at, id, student_id, student_email,
    student_name, group_id, mode, case_title, area, self_score, tutor_score, finished_at, version);
DROP INDEX attempts_group;
DROP INDEX attempts_tutor;

-- An attempt's notes get their own column, so saving them (every few
-- seconds while a student prepares) neither reads nor rewrites the
-- snapshots in data; NULL in rows saved before, whose notes stay in data.
ALTER TABLE attempts ADD COLUMN notes TEXT;

-- +goose Down
ALTER TABLE attempts DROP COLUMN notes;
CREATE INDEX attempts_group ON attempts (group_id, created_at);
CREATE INDEX attempts_tutor ON attempts (tutor_email, status, created_at);
DROP INDEX attempts_tutor_summary;
DROP INDEX attempts_group_summary;
ALTER TABLE recordings DROP COLUMN chunk_bytes;
ALTER TABLE recordings DROP COLUMN chunk_count;
