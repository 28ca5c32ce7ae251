-- +goose Up
-- What a job is about ("<attempt>/<recording>" for a transcription), so that
-- a recording is queued at most once and a sweep can find completed
-- recordings whose job was lost (a crash between completing the recording
-- and queueing its job). Existing transcription jobs get theirs from the
-- payload (always JSON written by the server); of duplicates, only the oldest.
ALTER TABLE jobs ADD COLUMN subject TEXT NOT NULL DEFAULT '';
UPDATE jobs SET subject = (payload::jsonb ->> 'attemptId') || '/' || (payload::jsonb ->> 'recordingId')
WHERE kind = 'transcribe' AND payload LIKE '{%'
  AND payload::jsonb ? 'attemptId' AND payload::jsonb ? 'recordingId'
  AND NOT EXISTS (SELECT 1 FROM jobs o WHERE o.kind = jobs.kind AND o.payload = jobs.payload
                  AND (o.created_at < jobs.created_at OR (o.created_at = jobs.created_at AND o.id < jobs.id)));
CREATE UNIQUE INDEX jobs_subject ON jobs (kind, subject) WHERE subject <> '';
CREATE INDEX recordings_created ON recordings (created_at);

-- +goose Down
DROP INDEX recordings_created;
DROP INDEX jobs_subject;
ALTER TABLE jobs DROP COLUMN subject;
