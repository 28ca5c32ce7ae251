-- +goose Up
-- Whether a recording's chunks were joined into one verified media object
-- (and removed): playback then reads that object. Recordings stored before
-- this column are composed by the server's sweep.
ALTER TABLE recordings ADD COLUMN composed BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE recordings DROP COLUMN composed;
