-- Portable SQL, as V1: runs on H2 and PostgreSQL alike.
-- Job ids may be as long as the event contract allows (io.gantry.events.Limits.MAX_JOB_ID_LENGTH, 317: a namespace of
-- at most 63 characters, '/', a pod name of at most 253), so a valid event is never refused by a column. The other
-- text columns already hold their contract maxima: user names 200 (io.gantry.events.Names.USER), event ids 36 (UUIDs),
-- event types 18.
ALTER TABLE processed_event ALTER COLUMN job_id SET DATA TYPE VARCHAR(317);
ALTER TABLE job_run ALTER COLUMN job_id SET DATA TYPE VARCHAR(317);
ALTER TABLE usage_interval ALTER COLUMN job_id SET DATA TYPE VARCHAR(317);
ALTER TABLE waiting_job ALTER COLUMN job_id SET DATA TYPE VARCHAR(317);
