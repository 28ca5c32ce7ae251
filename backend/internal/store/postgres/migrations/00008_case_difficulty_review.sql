-- +goose Up
-- A case's difficulty (cases stored before it existed read as intermedio),
-- the key point answering each tribunal question (a JSON list of 1-based
-- key point numbers, one per follow-up, or empty), and the tutor who
-- marked it reviewed, with when (NULL while unreviewed).
ALTER TABLE cases ADD COLUMN difficulty TEXT NOT NULL DEFAULT 'intermedio'
    CHECK (difficulty IN ('basico', 'intermedio', 'avanzado'));
ALTER TABLE cases ADD COLUMN follow_up_key_points TEXT NOT NULL DEFAULT '[]';
ALTER TABLE cases ADD COLUMN reviewed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE cases ADD COLUMN reviewed_by_name TEXT NOT NULL DEFAULT '';
ALTER TABLE cases ADD COLUMN reviewed_at BIGINT;

-- +goose Down
ALTER TABLE cases DROP COLUMN reviewed_at;
ALTER TABLE cases DROP COLUMN reviewed_by_name;
ALTER TABLE cases DROP COLUMN reviewed_by;
ALTER TABLE cases DROP COLUMN follow_up_key_points;
ALTER TABLE cases DROP COLUMN difficulty;
