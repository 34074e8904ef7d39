-- OpenCode 2.x tables: DDL as printed by `sqlite_master` of an OpenCode 2.0 beta (0.0.0-beta-19381)
-- database (see MANIFEST.md). The 2.x database also keeps the 1.2 tables; sessions copied into
-- session_v2 keep their id, so the legacy copy below must be ignored.
-- Rows are written for these tests, shaped like captured session_message rows.
CREATE TABLE `project` (
          `id` text PRIMARY KEY,
          `worktree` text NOT NULL,
          `vcs` text,
          `name` text,
          `icon_url` text,
          `icon_url_override` text,
          `icon_color` text,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `time_initialized` integer,
          `sandboxes` text NOT NULL,
          `commands` text
        );
CREATE TABLE `session_v2` (
          `id` text PRIMARY KEY,
          `project_id` text NOT NULL,
          `workspace_id` text,
          `parent_id` text,
          `fork_session_id` text,
          `fork_boundary` text,
          `slug` text NOT NULL,
          `directory` text NOT NULL,
          `path` text,
          `title` text,
          `version` text NOT NULL,
          `share_url` text,
          `summary_additions` integer,
          `summary_deletions` integer,
          `summary_files` integer,
          `summary_diffs` text,
          `metadata` text,
          `cost` real DEFAULT 0 NOT NULL,
          `tokens_input` integer DEFAULT 0 NOT NULL,
          `tokens_output` integer DEFAULT 0 NOT NULL,
          `tokens_reasoning` integer DEFAULT 0 NOT NULL,
          `tokens_cache_read` integer DEFAULT 0 NOT NULL,
          `tokens_cache_write` integer DEFAULT 0 NOT NULL,
          `revert` text,
          `permission` text,
          `agent` text,
          `model` text,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `time_idle` integer,
          `time_viewed` integer,
          `idle_outcome` text,
          `time_compacting` integer,
          `time_archived` integer,
          `time_suspended` integer,
          `resume_attempts` integer DEFAULT 0 NOT NULL,
          CONSTRAINT `fk_session_v2_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
        );
CREATE INDEX `session_v2_project_idx` ON `session_v2` (`project_id`);
CREATE INDEX `session_v2_workspace_idx` ON `session_v2` (`workspace_id`);
CREATE INDEX `session_v2_parent_idx` ON `session_v2` (`parent_id`);
CREATE INDEX `session_v2_time_suspended_idx` ON `session_v2` (`time_suspended`) WHERE "session_v2"."time_suspended" is not null;
CREATE TABLE `session_message` (
          `id` text PRIMARY KEY,
          `session_id` text NOT NULL,
          `type` text NOT NULL,
          `seq` integer NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_session_message_session_id_session_v2_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session_v2`(`id`) ON DELETE CASCADE
        );
CREATE UNIQUE INDEX `session_message_session_seq_idx` ON `session_message` (`session_id`,`seq`);
CREATE INDEX `session_message_session_type_seq_idx` ON `session_message` (`session_id`,`type`,`seq`);
CREATE INDEX `session_message_session_time_created_id_idx` ON `session_message` (`session_id`,`time_created`,`id`);
CREATE INDEX `session_message_time_created_idx` ON `session_message` (`time_created`);
-- the 1.2 tables, still present
CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, `parent_id` text, `slug` text NOT NULL, `directory` text NOT NULL, `title` text NOT NULL, `version` text NOT NULL, `share_url` text, `summary_additions` integer, `summary_deletions` integer, `summary_files` integer, `summary_diffs` text, `revert` text, `permission` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_compacting` integer, `time_archived` integer);
CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);
CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);

INSERT INTO project VALUES ('9f3a0c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f901', '/home/dev/cli-tool', 'git', NULL, NULL, NULL, NULL, 1789000000000, 1789000000000, NULL, '[]', NULL);

INSERT INTO session_v2 VALUES ('ses_f78f36bd6ffeAaaBbbCccDdd1', '9f3a0c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f901', NULL, NULL, NULL, NULL, 'quiet-lake', '/home/dev/cli-tool', '', 'Read the config file', '2.0.3', NULL, NULL, NULL, NULL, NULL, NULL, 0.0042, 7000, 120, 0, 6800, 0, NULL, NULL, 'build', '{"id":"gpt-5.2","providerID":"openai"}', 1789000100000, 1789000160000, 1789000160000, NULL, 'succeeded', NULL, NULL, NULL, 0);
INSERT INTO session_message VALUES ('msg_0870c947c001AaaUserOne01', 'ses_f78f36bd6ffeAaaBbbCccDdd1', 'user', 4, 1789000100000, 1789000100001, '{"time":{"created":1789000100000},"text":"Read config.toml and tell me which port the server uses.","files":[]}');
INSERT INTO session_message VALUES ('msg_0870c94b5001AaaAsstOne01', 'ses_f78f36bd6ffeAaaBbbCccDdd1', 'assistant', 5, 1789000101000, 1789000110000, '{"time":{"created":1789000101000,"streamed":1789000109000,"completed":1789000110000},"agent":"build","model":{"id":"gpt-5.2","providerID":"openai","variant":"default"},"content":[{"type":"reasoning","text":"I should read the file first.","state":{"reasoningField":"reasoning_content"},"time":{"created":1789000101500,"completed":1789000102000}},{"type":"tool","id":"call_5d26534d4ebd4081ba75","name":"read","executed":false,"state":{"status":"completed","input":{"path":"/home/dev/cli-tool/config.toml"},"content":[{"type":"text","text":"1: [server]\n2: port = 8080"}],"metadata":{"truncated":false}},"time":{"created":1789000102000,"ran":1789000103000,"completed":1789000104000}}],"finish":"tool-calls","rawFinish":"tool_calls","cost":0.003,"tokens":{"input":6900,"output":93,"reasoning":0,"cache":{"read":0,"write":0}}}');
INSERT INTO session_message VALUES ('msg_0870c94c0001AaaIdle00001', 'ses_f78f36bd6ffeAaaBbbCccDdd1', 'idle', 6, 1789000110500, 1789000110500, '{"time":{"created":1789000110500},"outcome":"succeeded"}');
INSERT INTO session_message VALUES ('msg_0870cbd3e001AaaAsstTwo01', 'ses_f78f36bd6ffeAaaBbbCccDdd1', 'assistant', 14, 1789000150000, 1789000160000, '{"time":{"created":1789000150000,"streamed":1789000159000,"completed":1789000160000},"agent":"build","model":{"id":"gpt-5.2","providerID":"openai","variant":"default"},"content":[{"type":"text","text":"The server listens on port 8080."}],"finish":"stop","rawFinish":"stop","cost":0.0012,"tokens":{"input":100,"output":27,"reasoning":0,"cache":{"read":6800,"write":0}}}');
INSERT INTO session_message VALUES ('msg_0870cbd3f001AaaBroken001', 'ses_f78f36bd6ffeAaaBbbCccDdd1', 'assistant', 15, 1789000161000, 1789000161000, 'not json at all');

INSERT INTO session_v2 VALUES ('ses_f78ee770effeBbbFailShell1', '9f3a0c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f901', NULL, NULL, NULL, NULL, 'sunny-river', '/home/dev/cli-tool', '', NULL, '2.0.3', NULL, NULL, NULL, NULL, NULL, NULL, 0.0, 7026, 96, 0, 6848, 0, NULL, NULL, NULL, '{"id":"gpt-5.2","providerID":"openai"}', 1789000468558, 1789000476190, 1789000476190, NULL, 'succeeded', NULL, NULL, NULL, 0);
INSERT INTO session_message VALUES ('msg_087118959001BbbUserOne01', 'ses_f78ee770effeBbbFailShell1', 'user', 4, 1789000468607, 1789000468607, '{"time":{"created":1789000468607},"text":"Run `exit 7` and report the exit code.","files":[]}');
INSERT INTO session_message VALUES ('msg_087118987001BbbAsstOne01', 'ses_f78ee770effeBbbFailShell1', 'assistant', 5, 1789000471881, 1789000472123, '{"time":{"created":1789000471881,"completed":1789000472122},"agent":"build","model":{"id":"gpt-5.2","providerID":"openai"},"content":[{"type":"tool","id":"call_58f0f85c4ab04876a3c8","name":"shell","executed":false,"state":{"status":"completed","input":{"command":"exit 7"},"content":[{"type":"text","text":"Command exited with code 7."}],"metadata":{"status":"completed","truncated":false,"exit":7}},"time":{"created":1789000472001,"ran":1789000472095,"completed":1789000472121}},{"type":"text","text":"It exited with code 7."}],"finish":"stop","cost":0,"tokens":{"input":6902,"output":48,"reasoning":0,"cache":{"read":0,"write":0}}}');

-- legacy copy of the first session (same id): ignored
INSERT INTO session VALUES ('ses_f78f36bd6ffeAaaBbbCccDdd1', '9f3a0c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f901', NULL, 'legacy-copy', '/home/dev/cli-tool', 'legacy copy (must not appear)', '1.15.10', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1789000100000, 1789000100000, NULL, NULL);
INSERT INTO message VALUES ('msg_legacy0000001', 'ses_f78f36bd6ffeAaaBbbCccDdd1', 1789000100000, 1789000100000, '{"role":"user","time":{"created":1789000100000},"agent":"build","model":{"providerID":"openai","modelID":"gpt-5.2"}}');
INSERT INTO part VALUES ('prt_legacy0000001', 'msg_legacy0000001', 'ses_f78f36bd6ffeAaaBbbCccDdd1', 1789000100000, 1789000100000, '{"type":"text","text":"LEGACY COPY: must not appear"}');
-- a 1.x session only in the legacy tables: imported from them
INSERT INTO session VALUES ('ses_e00000000ffeLegacyOnly01', '9f3a0c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f901', NULL, 'old-pine', '/home/dev/cli-tool', 'An older session', '1.15.10', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1788000000000, 1788000050000, NULL, NULL);
INSERT INTO message VALUES ('msg_legacy0000002', 'ses_e00000000ffeLegacyOnly01', 1788000000000, 1788000000000, '{"role":"user","time":{"created":1788000000000},"agent":"build","model":{"providerID":"openai","modelID":"gpt-5.2"}}');
INSERT INTO part VALUES ('prt_legacy0000002', 'msg_legacy0000002', 'ses_e00000000ffeLegacyOnly01', 1788000000000, 1788000000000, '{"type":"text","text":"hello from 1.15"}');
