-- OpenCode 1.2 schema: the first SQLite migration, verbatim DDL
-- (packages/opencode/migration/20260127222353_familiar_lady_ursula/migration.sql, see MANIFEST.md).
-- Rows are written for these tests, shaped like OpenCode 1.x records (data = the JSON without its ids).
CREATE TABLE IF NOT EXISTS `project` (
	`id` text PRIMARY KEY,
	`worktree` text NOT NULL,
	`vcs` text,
	`name` text,
	`icon_url` text,
	`icon_color` text,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`time_initialized` integer,
	`sandboxes` text NOT NULL
);
CREATE TABLE IF NOT EXISTS `message` (
	`id` text PRIMARY KEY,
	`session_id` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS `part` (
	`id` text PRIMARY KEY,
	`message_id` text NOT NULL,
	`session_id` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS `permission` (
	`project_id` text PRIMARY KEY,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_permission_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS `session` (
	`id` text PRIMARY KEY,
	`project_id` text NOT NULL,
	`parent_id` text,
	`slug` text NOT NULL,
	`directory` text NOT NULL,
	`title` text NOT NULL,
	`version` text NOT NULL,
	`share_url` text,
	`summary_additions` integer,
	`summary_deletions` integer,
	`summary_files` integer,
	`summary_diffs` text,
	`revert` text,
	`permission` text,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`time_compacting` integer,
	`time_archived` integer,
	CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS `todo` (
	`session_id` text NOT NULL,
	`content` text NOT NULL,
	`status` text NOT NULL,
	`priority` text NOT NULL,
	`position` integer NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	CONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`),
	CONSTRAINT `fk_todo_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS `session_share` (
	`session_id` text PRIMARY KEY,
	`id` text NOT NULL,
	`secret` text NOT NULL,
	`url` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	CONSTRAINT `fk_session_share_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS `message_session_idx` ON `message` (`session_id`);
CREATE INDEX IF NOT EXISTS `part_message_idx` ON `part` (`message_id`);
CREATE INDEX IF NOT EXISTS `part_session_idx` ON `part` (`session_id`);
CREATE INDEX IF NOT EXISTS `session_project_idx` ON `session` (`project_id`);
CREATE INDEX IF NOT EXISTS `session_parent_idx` ON `session` (`parent_id`);
CREATE INDEX IF NOT EXISTS `todo_session_idx` ON `todo` (`session_id`);

INSERT INTO project VALUES ('4b0ea68d7af9a6031a7ffda7ad66e0cb83315750', '/home/dev/weather-app', 'git', 'weather-app', NULL, NULL, 1768000000000, 1768000000000, 1768000000000, '[]');

INSERT INTO session VALUES ('ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', '4b0ea68d7af9a6031a7ffda7ad66e0cb83315750', NULL, 'brave-otter', '/home/dev/weather-app', 'Fix the flaky forecast test', '1.2.6', NULL, 1, 1, 1, '[]', NULL, NULL, 1768000100000, 1768000400000, NULL, NULL);
INSERT INTO session VALUES ('ses_4a1b2c0a1ffeSubAgentChild1', '4b0ea68d7af9a6031a7ffda7ad66e0cb83315750', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 'calm-heron', '/home/dev/weather-app', 'Find where the forecast is cached (@explore subagent)', '1.2.6', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1768000150000, 1768000180000, NULL, NULL);

INSERT INTO message VALUES ('msg_b5e4d3c2b001UserTurnOne01', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000100000, 1768000100000, '{"role":"user","time":{"created":1768000100000},"summary":{"diffs":[]},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}}');
INSERT INTO part VALUES ('prt_b5e4d3c2b002UserText0001', 'msg_b5e4d3c2b001UserTurnOne01', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000100000, 1768000100000, '{"type":"text","text":"The forecast test fails one run in ten. Find out why and fix it."}');

INSERT INTO message VALUES ('msg_b5e4d3c2b003AssistantOne1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000101000, 1768000200000, '{"role":"assistant","time":{"created":1768000101000,"completed":1768000200000},"parentID":"msg_b5e4d3c2b001UserTurnOne01","modelID":"claude-sonnet-4-5","providerID":"anthropic","mode":"build","agent":"build","path":{"cwd":"/home/dev/weather-app","root":"/home/dev/weather-app"},"cost":0.0321,"tokens":{"input":12,"output":410,"reasoning":0,"cache":{"read":11800,"write":2100}},"finish":"tool-calls"}');
INSERT INTO part VALUES ('prt_b5e4d3c2b004StepStart001', 'msg_b5e4d3c2b003AssistantOne1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000101000, 1768000101000, '{"type":"step-start","snapshot":"7c1f0e0c2a3b4d5e6f708192a3b4c5d6e7f80912"}');
INSERT INTO part VALUES ('prt_b5e4d3c2b005Reasoning001', 'msg_b5e4d3c2b003AssistantOne1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000101500, 1768000102000, '{"type":"reasoning","text":"A test that fails one run in ten smells like a shared clock or a cache.","metadata":{"anthropic":{"signature":"EqQBCkYIBxgCKkA"}},"time":{"start":1768000101500,"end":1768000102000}}');
INSERT INTO part VALUES ('prt_b5e4d3c2b006ToolBash0001', 'msg_b5e4d3c2b003AssistantOne1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000102000, 1768000110000, '{"type":"tool","callID":"toolu_01HnQ3f9Xb2","tool":"bash","state":{"status":"completed","input":{"command":"npm test -- forecast","description":"Run the forecast tests"},"output":"FAIL src/forecast.test.ts\n  expected 21 to be 20","title":"Run the forecast tests","metadata":{"exit":1,"description":"Run the forecast tests"},"time":{"start":1768000102000,"end":1768000110000}}}');
INSERT INTO part VALUES ('prt_b5e4d3c2b007ToolTask0001', 'msg_b5e4d3c2b003AssistantOne1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000150000, 1768000180000, '{"type":"tool","callID":"toolu_01TaskCall77","tool":"task","state":{"status":"completed","input":{"description":"Find the cache","prompt":"Where is the forecast cached?","subagent_type":"explore"},"output":"The forecast is memoised in src/cache.ts for 60 s.","title":"Find the cache","metadata":{"sessionId":"ses_4a1b2c0a1ffeSubAgentChild1","summary":[]},"time":{"start":1768000150000,"end":1768000180000}}}');
INSERT INTO part VALUES ('prt_b5e4d3c2b008BadJson00001', 'msg_b5e4d3c2b003AssistantOne1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000181000, 1768000181000, '{"type":"text","text":"this row was cut off');
INSERT INTO part VALUES ('prt_b5e4d3c2b009StepFinish01', 'msg_b5e4d3c2b003AssistantOne1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000200000, 1768000200000, '{"type":"step-finish","reason":"tool-calls","snapshot":"8d2f1e0c2a3b4d5e6f708192a3b4c5d6e7f80912","cost":0.0321,"tokens":{"input":12,"output":410,"reasoning":0,"cache":{"read":11800,"write":2100}}}');

INSERT INTO message VALUES ('msg_b5e4d3c2c001AssistantTwo1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000201000, 1768000400000, '{"role":"assistant","time":{"created":1768000201000,"completed":1768000400000},"parentID":"msg_b5e4d3c2b001UserTurnOne01","modelID":"claude-sonnet-4-5","providerID":"anthropic","mode":"build","agent":"build","path":{"cwd":"/home/dev/weather-app","root":"/home/dev/weather-app"},"cost":0.0112,"tokens":{"input":8,"output":120,"reasoning":0,"cache":{"read":14000,"write":300}},"finish":"stop"}');
INSERT INTO part VALUES ('prt_b5e4d3c2c002StepStart002', 'msg_b5e4d3c2c001AssistantTwo1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000201000, 1768000201000, '{"type":"step-start"}');
INSERT INTO part VALUES ('prt_b5e4d3c2c003ToolEdit0001', 'msg_b5e4d3c2c001AssistantTwo1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000202000, 1768000203000, '{"type":"tool","callID":"toolu_01EditCall12","tool":"edit","state":{"status":"error","input":{"filePath":"/home/dev/weather-app/src/cache.ts","oldString":"60_000","newString":"0"},"error":"oldString not found in content","time":{"start":1768000202000,"end":1768000203000}}}');
INSERT INTO part VALUES ('prt_b5e4d3c2c004Patch000001', 'msg_b5e4d3c2c001AssistantTwo1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000390000, 1768000390000, '{"type":"patch","hash":"8d2f1e0c2a3b4d5e6f708192a3b4c5d6e7f80912","files":["/home/dev/weather-app/src/forecast.test.ts"]}');
INSERT INTO part VALUES ('prt_b5e4d3c2c005Text00000001', 'msg_b5e4d3c2c001AssistantTwo1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000395000, 1768000395000, '{"type":"text","text":"The test read the memoised forecast from an earlier test. I reset the cache in beforeEach; 50 runs pass.","time":{"start":1768000395000,"end":1768000396000}}');
INSERT INTO part VALUES ('prt_b5e4d3c2c006Unknown00001', 'msg_b5e4d3c2c001AssistantTwo1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000396000, 1768000396000, '{"type":"hologram","text":"a part type from a newer version"}');
INSERT INTO part VALUES ('prt_b5e4d3c2c007StepFinish02', 'msg_b5e4d3c2c001AssistantTwo1', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000400000, 1768000400000, '{"type":"step-finish","reason":"stop","cost":0.0112,"tokens":{"input":8,"output":120,"reasoning":0,"cache":{"read":14000,"write":300}}}');

INSERT INTO message VALUES ('msg_b5e4d3c2d001UserCompact01', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000401000, 1768000401000, '{"role":"user","time":{"created":1768000401000},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}}');
INSERT INTO part VALUES ('prt_b5e4d3c2d002Compaction01', 'msg_b5e4d3c2d001UserCompact01', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000401000, 1768000401000, '{"type":"compaction","auto":true}');
INSERT INTO message VALUES ('msg_b5e4d3c2d003Summary00001', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000402000, 1768000410000, '{"role":"assistant","time":{"created":1768000402000,"completed":1768000410000},"parentID":"msg_b5e4d3c2d001UserCompact01","modelID":"claude-sonnet-4-5","providerID":"anthropic","mode":"compaction","agent":"compaction","summary":true,"path":{"cwd":"/home/dev/weather-app","root":"/home/dev/weather-app"},"cost":0.002,"tokens":{"input":3000,"output":200,"reasoning":0,"cache":{"read":0,"write":0}},"finish":"stop"}');
INSERT INTO part VALUES ('prt_b5e4d3c2d004SummaryText1', 'msg_b5e4d3c2d003Summary00001', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000410000, 1768000410000, '{"type":"text","text":"Summary: the flaky forecast test was caused by the 60 s memo cache; fixed by resetting it in beforeEach."}');
INSERT INTO message VALUES ('msg_b5e4d3c2d005NoRole000001', 'ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 1768000411000, 1768000411000, '{"time":{"created":1768000411000}}');

INSERT INTO message VALUES ('msg_b5e4d3c2e001ChildUser001', 'ses_4a1b2c0a1ffeSubAgentChild1', 1768000150000, 1768000150000, '{"role":"user","time":{"created":1768000150000},"agent":"explore","model":{"providerID":"anthropic","modelID":"claude-haiku-4-5"}}');
INSERT INTO part VALUES ('prt_b5e4d3c2e002ChildText001', 'msg_b5e4d3c2e001ChildUser001', 'ses_4a1b2c0a1ffeSubAgentChild1', 1768000150000, 1768000150000, '{"type":"text","text":"Where is the forecast cached?"}');
INSERT INTO message VALUES ('msg_b5e4d3c2e003ChildAsst001', 'ses_4a1b2c0a1ffeSubAgentChild1', 1768000151000, 1768000180000, '{"role":"assistant","time":{"created":1768000151000,"completed":1768000180000},"parentID":"msg_b5e4d3c2e001ChildUser001","modelID":"claude-haiku-4-5","providerID":"anthropic","mode":"explore","agent":"explore","path":{"cwd":"/home/dev/weather-app","root":"/home/dev/weather-app"},"cost":0.0009,"tokens":{"input":900,"output":60,"reasoning":0,"cache":{"read":0,"write":0}},"finish":"stop"}');
INSERT INTO part VALUES ('prt_b5e4d3c2e004ChildGrep001', 'msg_b5e4d3c2e003ChildAsst001', 'ses_4a1b2c0a1ffeSubAgentChild1', 1768000152000, 1768000153000, '{"type":"tool","callID":"toolu_01GrepCall01","tool":"grep","state":{"status":"completed","input":{"pattern":"memo"},"output":"src/cache.ts:3: const TTL = 60_000 // memo","title":"memo","metadata":{"matches":1,"truncated":false},"time":{"start":1768000152000,"end":1768000153000}}}');
INSERT INTO part VALUES ('prt_b5e4d3c2e005ChildText002', 'msg_b5e4d3c2e003ChildAsst001', 'ses_4a1b2c0a1ffeSubAgentChild1', 1768000179000, 1768000179000, '{"type":"text","text":"The forecast is memoised in src/cache.ts for 60 s."}');

INSERT INTO todo VALUES ('ses_4a1b2c3d4ffeAbCdEfGhIjKlMn', 'Reset the forecast cache between tests', 'completed', 'high', 0, 1768000300000, 1768000390000);
