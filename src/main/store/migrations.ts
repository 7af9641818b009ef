import type { Database } from 'better-sqlite3';
// The store does not import the app version module: the version is read where base/version.ts reads it.
import pkg from '../../../package.json';

/** The release that runs a migration, recorded beside it (`schema_migrations.app_version`). */
const APP_VERSION: string = pkg.version;

export interface Migration {
  version: number;
  name: string;
  up: string;
  /**
   * The migration rebuilds a table others point at (SQLite cannot drop a CHECK in place).
   * Foreign keys are switched off around its transaction, as SQLite's own procedure for
   * table rebuilds says, and `PRAGMA foreign_key_check` must come back empty before commit.
   */
  rebuildsTables?: boolean;
}

// Append only: a migration that shipped is never edited, so every user's file can be
// brought to the current schema by running what it has not run yet.
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'datasets and items',
    up: `
      CREATE TABLE datasets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        source_file TEXT NOT NULL,
        format TEXT NOT NULL,
        content_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );
      CREATE TABLE items (
        id INTEGER PRIMARY KEY,
        dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
        source_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        subset TEXT,
        instruction TEXT NOT NULL,
        output_1 TEXT NOT NULL,
        output_2 TEXT NOT NULL,
        label INTEGER NOT NULL CHECK (label IN (1, 2)),
        UNIQUE (dataset_id, source_id)
      );
      CREATE INDEX items_dataset_subset ON items(dataset_id, subset, position);
    `,
  },
  {
    version: 2,
    name: 'experiments, variants, request ledger, judgments',
    up: `
      CREATE TABLE experiments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        protocol TEXT NOT NULL,
        dataset_id INTEGER NOT NULL REFERENCES datasets(id),
        config_json TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'draft'
          CHECK (status IN ('draft','running','paused','cancelled','finished','failed')),
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );
      -- The ledger: one row per distinct paid request, written before it is sent.
      -- hash = content hash of (endpoint, model, parameters, messages): the same request
      -- from any experiment is the same row, so a stored response is never paid twice.
      CREATE TABLE requests (
        id INTEGER PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        endpoint TEXT NOT NULL,
        model TEXT NOT NULL,
        request_json TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending','in_flight','done','failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        response_text TEXT,
        response_json TEXT,
        failure_reason TEXT,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cached_tokens INTEGER,
        cost_usd REAL,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );
      CREATE INDEX requests_status ON requests(status);
      -- An experiment's plan: one row per slot (task key, e.g. which judge, item, language
      -- and order), pointing at the ledger request that answers it. Re-planning after an
      -- edit points the same slot at a new request; the old answer stays in the ledger.
      CREATE TABLE experiment_tasks (
        experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        task_key TEXT NOT NULL,
        stage TEXT NOT NULL,
        request_id INTEGER NOT NULL REFERENCES requests(id),
        meta_json TEXT NOT NULL,
        PRIMARY KEY (experiment_id, task_key)
      );
      CREATE INDEX experiment_tasks_request ON experiment_tasks(request_id);
      CREATE TABLE variants (
        id INTEGER PRIMARY KEY,
        experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        item_id INTEGER NOT NULL REFERENCES items(id),
        language TEXT NOT NULL,
        instruction TEXT NOT NULL,
        output_1 TEXT NOT NULL,
        output_2 TEXT NOT NULL,
        model TEXT,
        prompt_hash TEXT,
        request_id INTEGER REFERENCES requests(id),
        audit_json TEXT NOT NULL DEFAULT '[]',
        manual INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        UNIQUE (experiment_id, item_id, language)
      );
      CREATE TABLE judgments (
        id INTEGER PRIMARY KEY,
        experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        judge TEXT NOT NULL,
        item_id INTEGER NOT NULL REFERENCES items(id),
        kind TEXT NOT NULL,
        language TEXT NOT NULL,
        ord TEXT NOT NULL,
        request_id INTEGER REFERENCES requests(id),
        status TEXT NOT NULL CHECK (status IN ('ok','failed')),
        winner TEXT CHECK (winner IN ('A','B','tie')),
        confidence REAL,
        reason TEXT,
        failure_reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        UNIQUE (experiment_id, judge, item_id, kind, language, ord)
      );
      CREATE INDEX judgments_experiment ON judgments(experiment_id, judge);
    `,
  },
  {
    version: 3,
    name: 'ledger leases: who has a request in flight, until when',
    up: `
      -- A row in flight belongs to one run (lease_owner, unique per run) of one process
      -- (lease_pid on lease_host). The run renews lease_expires_at (ms since the epoch)
      -- while it lives; another process may take the row back only when that owner is
      -- dead or its lease ran out, so two processes never send the same call at once.
      ALTER TABLE requests ADD COLUMN lease_owner TEXT;
      ALTER TABLE requests ADD COLUMN lease_pid INTEGER;
      ALTER TABLE requests ADD COLUMN lease_host TEXT;
      ALTER TABLE requests ADD COLUMN lease_expires_at INTEGER;
    `,
  },
  {
    version: 4,
    name: 'protocol-neutral results store (task_results) replaces judgments',
    // One row per answered task of any protocol, parsed once when the answer is stored.
    // Stored Judge-LS judgments are carried over slot by slot; anything the old table did not
    // hold is filled in from the ledger (the source of truth) the next time results are read.
    up: `
      CREATE TABLE task_results (
        experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        task_key TEXT NOT NULL,
        stage TEXT NOT NULL,
        request_id INTEGER NOT NULL REFERENCES requests(id),
        status TEXT NOT NULL CHECK (status IN ('ok','failed')),
        value_json TEXT,
        reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (experiment_id, task_key)
      );
      CREATE INDEX task_results_stage ON task_results(experiment_id, stage);
      INSERT OR IGNORE INTO task_results
        (experiment_id, task_key, stage, request_id, status, value_json, reason, attempts)
      SELECT t.experiment_id, t.task_key, t.stage, t.request_id, j.status,
             CASE WHEN j.status = 'ok'
                  THEN json_object('winner', j.winner, 'confidence', j.confidence, 'reason', j.reason) END,
             j.failure_reason, j.attempts
      FROM experiment_tasks t
      JOIN judgments j
        ON j.experiment_id = t.experiment_id AND j.request_id = t.request_id
       AND j.judge = json_extract(t.meta_json, '$.judge')
       AND j.item_id = json_extract(t.meta_json, '$.itemId')
       AND j.kind = json_extract(t.meta_json, '$.kind')
       AND j.language = json_extract(t.meta_json, '$.language')
       AND j.ord = json_extract(t.meta_json, '$.order')
      WHERE t.stage = 'judge';
      DROP TABLE judgments;
    `,
  },
  {
    version: 5,
    name: 'dataset kinds: datasets.kind, items.extra_json, pairwise fields only for pairwise items',
    rebuildsTables: true,
    // Items of other kinds (QA: question, gold answers, language) keep their own fields in
    // extra_json; the question or prompt goes in instruction so lists and search still work.
    // Ids are kept, so variants and plans that point at items stay valid.
    up: `
      ALTER TABLE datasets ADD COLUMN kind TEXT NOT NULL DEFAULT 'pairwise';
      CREATE TABLE items_v5 (
        id INTEGER PRIMARY KEY,
        dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
        source_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        subset TEXT,
        instruction TEXT NOT NULL,
        output_1 TEXT,
        output_2 TEXT,
        label INTEGER CHECK (label IS NULL OR label IN (1, 2)),
        extra_json TEXT CHECK (extra_json IS NULL OR json_valid(extra_json)),
        -- a pairwise item fills all three pairwise fields; any other kind carries extra_json
        CHECK ((output_1 IS NOT NULL AND output_2 IS NOT NULL AND label IS NOT NULL)
               OR extra_json IS NOT NULL),
        UNIQUE (dataset_id, source_id)
      );
      INSERT INTO items_v5 (id, dataset_id, source_id, position, subset, instruction, output_1, output_2, label)
        SELECT id, dataset_id, source_id, position, subset, instruction, output_1, output_2, label FROM items;
      DROP TABLE items;
      ALTER TABLE items_v5 RENAME TO items;
      CREATE INDEX items_dataset_subset ON items(dataset_id, subset, position);
    `,
  },
  {
    version: 6,
    name: 'human ratings: annotators, annotation sets and items, labels, calibration mappings',
    // DESIGN.md section 5d. A set is a sample of an experiment's units (or a copy opened from an
    // annotation package: experiment_id NULL); items keep what annotators see (view_json), so a
    // package copy needs no dataset. unit_uid is the opaque id that travels in packages (item
    // keys may name models). One label row per (set, unit, annotator), written when given.
    up: `
      CREATE TABLE annotators (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );
      CREATE TABLE annotation_sets (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        experiment_id INTEGER REFERENCES experiments(id) ON DELETE CASCADE,
        scale_json TEXT NOT NULL CHECK (json_valid(scale_json)),
        seed INTEGER NOT NULL,
        strata_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(strata_json)),
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );
      CREATE TABLE annotation_items (
        set_id INTEGER NOT NULL REFERENCES annotation_sets(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        item_key TEXT NOT NULL,
        unit_uid TEXT NOT NULL,
        item_id INTEGER,
        category TEXT,
        stratum TEXT,
        view_json TEXT NOT NULL CHECK (json_valid(view_json)),
        PRIMARY KEY (set_id, item_key),
        UNIQUE (set_id, unit_uid)
      );
      CREATE TABLE annotation_labels (
        set_id INTEGER NOT NULL,
        item_key TEXT NOT NULL,
        annotator_id INTEGER NOT NULL REFERENCES annotators(id),
        value_json TEXT CHECK (value_json IS NULL OR json_valid(value_json)),
        skipped INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
        comment TEXT,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        PRIMARY KEY (set_id, item_key, annotator_id),
        FOREIGN KEY (set_id, item_key) REFERENCES annotation_items(set_id, item_key) ON DELETE CASCADE,
        CHECK (skipped = 1 OR value_json IS NOT NULL)
      );
      CREATE TABLE calibration_mappings (
        id INTEGER PRIMARY KEY,
        set_id INTEGER REFERENCES annotation_sets(id) ON DELETE SET NULL,
        judge TEXT NOT NULL,
        protocol TEXT NOT NULL,
        rubric_hash TEXT NOT NULL,
        mapping_json TEXT NOT NULL CHECK (json_valid(mapping_json)),
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );
    `,
  },
  {
    version: 7,
    name: 'provider batches: batch id and custom id per request; prompt-cache writes in usage',
    // A batch submitted to a provider's Batch API (issue 14). Its requests stay in flight under
    // the lease owner 'batch:<id>' until its results are read, so quitting the app loses
    // nothing: the next run finds the open batch here and polls it again instead of paying twice.
    up: `
      CREATE TABLE provider_batches (
        id INTEGER PRIMARY KEY,
        provider TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        model TEXT NOT NULL,
        remote_id TEXT,
        -- submitting: rows claimed, provider not told yet; open: the provider has it;
        -- ended: results read; failed: the provider refused it
        status TEXT NOT NULL DEFAULT 'submitting'
          CHECK (status IN ('submitting','open','cancelling','ended','failed')),
        remote_status TEXT,
        request_count INTEGER NOT NULL,
        -- the process submitting it: a batch left 'submitting' by a dead process was never sent
        owner_pid INTEGER,
        owner_host TEXT,
        finished_count INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        ended_at TEXT
      );
      CREATE INDEX provider_batches_open ON provider_batches(status) WHERE status IN ('submitting','open','cancelling');
      ALTER TABLE requests ADD COLUMN batch_id INTEGER REFERENCES provider_batches(id);
      ALTER TABLE requests ADD COLUMN batch_custom_id TEXT;
      CREATE INDEX requests_batch ON requests(batch_id) WHERE batch_id IS NOT NULL;
      -- Anthropic bills prompt-cache writes apart from reads (cached_tokens are the reads).
      ALTER TABLE requests ADD COLUMN cache_write_tokens INTEGER;
      -- One rate budget per endpoint+model across processes: every run sending to a lane holds
      -- a share (renewed; a crashed process's share expires) and takes its part of the limits.
      CREATE TABLE rate_shares (
        lane TEXT NOT NULL,
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (lane, owner)
      );
    `,
  },
  {
    version: 9,
    name: 'column mappings remembered per file shape (the sorted column names of a CSV/JSON file)',
    up: `
      CREATE TABLE column_mappings (
        shape TEXT PRIMARY KEY,
        mapping_json TEXT NOT NULL CHECK (json_valid(mapping_json)),
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );
    `,
  },
  {
    version: 10,
    name: 'provider batches: a random nonce per batch, to find a batch whose create reply was lost',
    // The nonce goes into the batch's metadata (OpenAI) and every custom id (both providers), so
    // a restart can find a batch the provider accepted before its id was stored, instead of
    // submitting (and paying for) it twice, and never mistakes another data folder's batch for it.
    up: `
      ALTER TABLE provider_batches ADD COLUMN nonce TEXT;
    `,
  },
  {
    version: 11,
    name: 'annotation guidelines (versioned), the version each label was made under, adjudicated labels',
    // Issue 26 item 5. Guidelines are never edited in place: each edit is a new version, and a
    // label records the version shown when it was given, so a changed rule can be traced to the
    // labels made before it. An adjudicated label settles an item people disagree on; it is kept
    // apart from the annotators' labels (who settled it, when) and wins as the human reference.
    up: `
      CREATE TABLE annotation_guidelines (
        set_id INTEGER NOT NULL REFERENCES annotation_sets(id) ON DELETE CASCADE,
        version INTEGER NOT NULL CHECK (version >= 1),
        text TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        PRIMARY KEY (set_id, version)
      );
      ALTER TABLE annotation_labels ADD COLUMN guidelines_version INTEGER;
      CREATE TABLE annotation_adjudications (
        set_id INTEGER NOT NULL,
        item_key TEXT NOT NULL,
        value_json TEXT NOT NULL CHECK (json_valid(value_json)),
        adjudicator TEXT NOT NULL,
        note TEXT,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        PRIMARY KEY (set_id, item_key),
        FOREIGN KEY (set_id, item_key) REFERENCES annotation_items(set_id, item_key) ON DELETE CASCADE
      );
    `,
  },
  {
    version: 12,
    name: 'preregistrations: locked analysis plans, never edited, superseded by new versions',
    // Issue 24 part 2. A lock records the analysis plan and what the experiment was when it was
    // locked (its sample, judges, power), with a SHA-256 over all of it and the time, so a
    // reader can check later that the plan came first. Rows are never updated (the trigger
    // refuses it); an amendment is a new version that says why, shown beside the old one.
    up: `
      CREATE TABLE preregistrations (
        experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        version INTEGER NOT NULL CHECK (version >= 1),
        plan_json TEXT NOT NULL CHECK (json_valid(plan_json)),
        snapshot_json TEXT NOT NULL CHECK (json_valid(snapshot_json)),
        reason TEXT,
        locked_at TEXT NOT NULL,
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
        PRIMARY KEY (experiment_id, version),
        CHECK (version = 1 OR (reason IS NOT NULL AND length(trim(reason)) > 0))
      );
      CREATE TRIGGER preregistrations_never_edited BEFORE UPDATE ON preregistrations
      BEGIN
        SELECT RAISE(ABORT, 'a preregistration is never edited: lock a new version that supersedes it');
      END;
    `,
  },
  {
    version: 13,
    name: 'preregistrations: a lock is never deleted, except with its experiment',
    // Issue 32 item 6. Deleting a lock made its study read as never preregistered. A lock goes
    // only with its experiment: the ON DELETE CASCADE of deleting the experiment runs once its
    // row is gone (same statement, same transaction), which is the one case the trigger lets by.
    up: `
      CREATE TRIGGER preregistrations_never_deleted BEFORE DELETE ON preregistrations
      WHEN EXISTS (SELECT 1 FROM experiments WHERE id = OLD.experiment_id)
      BEGIN
        SELECT RAISE(ABORT, 'a preregistration is never deleted: it goes only with its experiment');
      END;
    `,
  },
  {
    version: 14,
    name: "ledger: an index covering what a plan's results read of each request (status and usage)",
    // Issue 39. status and the usage columns sit after request_json in the row, so reading them
    // by id walked each request's overflow pages (the prompt): 0.23-0.29 of the 1.5 CPU-s of the
    // first results call at 92,000 calls. Reads that join the plan to the ledger for these
    // columns name this index (INDEXED BY: SQLite prefers the rowid for an id lookup).
    up: `
      CREATE INDEX requests_answer ON requests(
        id, status, model, input_tokens, output_tokens, cached_tokens, cache_write_tokens, cost_usd
      );
    `,
  },
  {
    version: 15,
    name: 'results_cache: computed results kept with the signature they were computed under',
    // Issue 39: the first results call of a new process recomputed the whole plan (~1.5 CPU-s at
    // 92,000 answers). Derived data only: a row whose signature no longer matches is recomputed.
    up: `
      CREATE TABLE results_cache (
        experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        variant TEXT NOT NULL,
        signature TEXT NOT NULL,
        results BLOB NOT NULL,
        PRIMARY KEY (experiment_id, variant)
      );
    `,
  },
  {
    version: 16,
    name: 'bias_rewrite_edits: hand edits of bias probes rewrites and instruction paraphrases',
    // Issue 35. A person's replacement of a rewrite's text, one row per edit (never updated), so
    // who changed what when, and from which text, stays readable; the newest row of a rewrite is
    // the text it is judged in. Keyed by the rewrite's task key (source ids, not item ids), so a
    // study bundle carries it to a replay whose store numbers items anew.
    up: `
      CREATE TABLE bias_rewrite_edits (
        id INTEGER PRIMARY KEY,
        experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        task_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        source_id TEXT,
        slot TEXT,
        paraphrase INTEGER,
        text_before TEXT,
        text TEXT NOT NULL,
        edited_by TEXT NOT NULL CHECK (length(trim(edited_by)) > 0),
        edited_at TEXT NOT NULL
      );
      CREATE INDEX bias_rewrite_edits_task ON bias_rewrite_edits(experiment_id, task_key, id);
    `,
  },
];

/** The newest schema this release knows. */
export const LATEST_SCHEMA = Math.max(...migrations.map((m) => m.version));

/**
 * The newest migration a file ran and the release that ran it (null when that release did not
 * record it), or undefined for a file without migrations.
 */
export function newestMigration(db: Database): { version: number; appVersion: string | null } | undefined {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!table) return undefined;
  const hasVersion = (db.pragma('table_info(schema_migrations)') as { name: string }[]).some(
    (c) => c.name === 'app_version',
  );
  const row = db
    .prepare(
      `SELECT version, ${hasVersion ? 'app_version' : 'NULL'} AS appVersion FROM schema_migrations ORDER BY version DESC LIMIT 1`,
    )
    .get() as { version: number; appVersion: string | null } | undefined;
  return row;
}

/**
 * Why this release must not write to a file a newer release migrated (its tables may hold
 * columns and rows this release would break), or null when it may.
 */
export function newerSchemaProblem(db: Database, known = LATEST_SCHEMA): string | null {
  const newest = newestMigration(db);
  if (!newest || newest.version <= known) return null;
  const maker = newest.appVersion
    ? `Judge Lab ${newest.appVersion} (schema ${newest.version}; this release, ${APP_VERSION}, knows up to schema ${known})`
    : `a newer release (schema ${newest.version}, this release knows up to ${known})`;
  return `was made by ${maker}`;
}

export function appliedVersions(db: Database): number[] {
  return (
    db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
  ).map((r) => r.version);
}

/**
 * Runs every migration the file has not run yet, each in its own transaction. `beforeMigrating`
 * is called once, with the versions already applied, when there is something to run.
 */
export function migrate(
  db: Database,
  list: Migration[] = migrations,
  beforeMigrating?: (applied: number[]) => void,
): number[] {
  // Two processes may open a new data folder at once: each check-then-change below runs inside
  // an IMMEDIATE transaction (the write lock first, the busy timeout waits for the other) and
  // re-reads what is applied there, so the second finds the first one's work instead of
  // repeating it ("table … already exists", "duplicate column name").
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`);
    // Which release ran each migration (older releases did not say): a file opened by an older
    // release can then name the release it needs. Older releases insert without it, unharmed.
    if (
      !(db.pragma('table_info(schema_migrations)') as { name: string }[]).some(
        (c) => c.name === 'app_version',
      )
    )
      db.exec('ALTER TABLE schema_migrations ADD COLUMN app_version TEXT');
  }).immediate();
  const done = new Set(appliedVersions(db));
  const ran: number[] = [];
  if (beforeMigrating && list.some((m) => !done.has(m.version))) beforeMigrating([...done]);
  const applied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  for (const m of [...list].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    const fkOn = m.rebuildsTables && (db.pragma('foreign_keys', { simple: true }) as number) === 1;
    if (fkOn) db.pragma('foreign_keys = OFF');
    try {
      const didRun = db
        .transaction((): boolean => {
          // Another process may have run it since `done` was read.
          if (applied.get(m.version) !== undefined) return false;
          db.exec(m.up);
          if (m.rebuildsTables) {
            const bad = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
            if (bad.length > 0) {
              const b = bad[0];
              throw new Error(
                `migration ${m.version} would break ${bad.length} reference(s), e.g. ${b.table} row ${b.rowid} → ${b.parent}`,
              );
            }
          }
          db.prepare('INSERT INTO schema_migrations (version, name, app_version) VALUES (?, ?, ?)').run(
            m.version,
            m.name,
            APP_VERSION,
          );
          return true;
        })
        .immediate();
      if (didRun) ran.push(m.version);
    } finally {
      if (fkOn) db.pragma('foreign_keys = ON');
    }
  }
  return ran;
}
