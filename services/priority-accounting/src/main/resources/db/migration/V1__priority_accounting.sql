-- Portable SQL: the same migration runs on H2 (default) and PostgreSQL.

CREATE TABLE gantry_user (
    name            VARCHAR(200)     PRIMARY KEY,
    base_priority   DOUBLE PRECISION NOT NULL,
    weight          DOUBLE PRECISION NOT NULL,
    max_gpus        INTEGER,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

-- Every lifecycle event taken into the ledger, by event id, written in the same transaction as its effect:
-- a redelivered event finds its id here and changes nothing.
CREATE TABLE processed_event (
    event_id        VARCHAR(64)  PRIMARY KEY,
    job_id          VARCHAR(300) NOT NULL,
    event_type      VARCHAR(40)  NOT NULL,
    processed_at    TIMESTAMP WITH TIME ZONE NOT NULL
);

-- A job's current stint on the cluster (open = holding resources). Keyed by job: a second JobStarted for an open
-- stint is a duplicate; a terminal event for a closed one charges nothing.
CREATE TABLE job_run (
    job_id          VARCHAR(300) PRIMARY KEY,
    user_name       VARCHAR(200) NOT NULL,
    started_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    gpu_milli       BIGINT       NOT NULL,
    cpu_milli       BIGINT       NOT NULL,
    memory_mib      BIGINT       NOT NULL,
    running         BOOLEAN      NOT NULL
);

-- The usage ledger: one row per finished stint, keyed by the event that closed it.
CREATE TABLE usage_interval (
    id                  VARCHAR(64)      PRIMARY KEY,
    user_name           VARCHAR(200)     NOT NULL,
    job_id              VARCHAR(300)     NOT NULL,
    interval_start      TIMESTAMP WITH TIME ZONE NOT NULL,
    interval_end        TIMESTAMP WITH TIME ZONE NOT NULL,
    gpu_seconds         DOUBLE PRECISION NOT NULL,
    cpu_seconds         DOUBLE PRECISION NOT NULL,
    memory_mib_seconds  DOUBLE PRECISION NOT NULL,
    CONSTRAINT usage_interval_once UNIQUE (job_id, interval_start)
);
CREATE INDEX usage_interval_user ON usage_interval (user_name, interval_end);

-- Jobs submitted and not yet started, for "who is starving and for how long".
CREATE TABLE waiting_job (
    job_id          VARCHAR(300) PRIMARY KEY,
    user_name       VARCHAR(200) NOT NULL,
    submitted_at    TIMESTAMP WITH TIME ZONE NOT NULL
);

-- Every priority published, with the terms that explain it.
CREATE TABLE priority_history (
    id                  VARCHAR(64)      PRIMARY KEY,
    user_name           VARCHAR(200)     NOT NULL,
    computed_at         TIMESTAMP WITH TIME ZONE NOT NULL,
    base_priority       DOUBLE PRECISION NOT NULL,
    weight              DOUBLE PRECISION NOT NULL,
    decayed_gpu_seconds DOUBLE PRECISION NOT NULL,
    usage_share         DOUBLE PRECISION NOT NULL,
    entitlement_share   DOUBLE PRECISION NOT NULL,
    fair_share_factor   DOUBLE PRECISION NOT NULL,
    priority            DOUBLE PRECISION NOT NULL,
    reason              VARCHAR(500)     NOT NULL
);
CREATE INDEX priority_history_user ON priority_history (user_name, computed_at);
